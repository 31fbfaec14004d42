/**
 * Every error the server answers has the shape `{ status, message }`, with the HTTP status equal to
 * `status`. Messages are the Chinese texts the pages show.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Application status in the body when it differs from the HTTP status (e.g. 10001). */
    readonly status: number = statusCode,
    /** A stable name the app can act on, sent beside the message when set. */
    readonly code?: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message = '登录状态已过期，请重新登录') => new ApiError(401, message);
export const forbidden = (message = '没有权限执行该操作') => new ApiError(403, message);
export const notFound = (message = '数据不存在') => new ApiError(404, message);
