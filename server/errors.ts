import { codeOfMessage, type ErrorCode, type ErrorParams, errorMessage, isErrorCode } from '../src/shared/error-catalogue.js';

export type { ErrorCode } from '../src/shared/error-catalogue.js';

/** The code of a refusal whose text is in no catalogue entry: a schema's own field message, by status. */
const CODE_OF_STATUS: Record<number, ErrorCode> = {
  400: 'INVALID_INPUT',
  401: 'SESSION_EXPIRED',
  403: 'NO_PERMISSION',
  404: 'DATA_NOT_FOUND',
  409: 'CONFLICT',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/** The code a text answers with: its catalogue entry, else the status's own code. */
export const codeFor = (statusCode: number, message: string): ErrorCode =>
  codeOfMessage(message) ?? CODE_OF_STATUS[statusCode] ?? (statusCode >= 500 ? 'INTERNAL_ERROR' : 'INVALID_INPUT');

/**
 * Every error the server answers has the shape `{ status, code, message }`, with the HTTP status equal
 * to `status`. The code is an entry of the error catalogue; the message is its Chinese text.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  /** Fields some answers carry beside the three (e.g. `errors`, the problems of a form). */
  extra: Record<string, unknown> | undefined;
  constructor(
    readonly statusCode: number,
    message: string,
    /** Application status in the body when it differs from the HTTP status (e.g. 10001). */
    readonly status: number = statusCode,
    code?: ErrorCode,
  ) {
    super(message);
    this.code = code ?? codeFor(statusCode, message);
  }

  /** The same refusal carrying more fields in its answer. */
  with(extra: Record<string, unknown>): this {
    this.extra = { ...this.extra, ...extra };
    return this;
  }

  /** The answer's body: `{ status, code, message }` and any extra fields. */
  body(): Record<string, unknown> {
    return { status: this.status, code: this.code, message: this.message, ...this.extra };
  }
}

/**
 * A refusal by its catalogue code (parameters fill the message). A text that is no code is a schema's
 * field message, answered as it is with the code its text or status gives.
 */
export function refusal(statusCode: number, codeOrMessage: ErrorCode | (string & {}), params?: ErrorParams): ApiError {
  if (isErrorCode(codeOrMessage)) return new ApiError(statusCode, errorMessage(codeOrMessage, params), statusCode, codeOrMessage);
  return new ApiError(statusCode, codeOrMessage);
}

/** A form's own problem, answered with its field message (and, by the caller, every problem in `errors`). */
export const invalidInput = (message: string) => new ApiError(400, message, 400, 'INVALID_INPUT');

export const badRequest = (code: ErrorCode | (string & {}), params?: ErrorParams) => refusal(400, code, params);
export const unauthorized = (code: ErrorCode | (string & {}) = 'SESSION_EXPIRED', params?: ErrorParams) => refusal(401, code, params);
export const forbidden = (code: ErrorCode | (string & {}) = 'NO_PERMISSION', params?: ErrorParams) => refusal(403, code, params);
export const notFound = (code: ErrorCode | (string & {}) = 'DATA_NOT_FOUND', params?: ErrorParams) => refusal(404, code, params);
export const conflict = (code: ErrorCode, params?: ErrorParams) => refusal(409, code, params);
