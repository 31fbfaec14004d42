import { type ErrorCode, type ErrorParams, errorMessage, isErrorCode } from '../src/shared/error-catalogue.js';

export type { ErrorCode } from '../src/shared/error-catalogue.js';

/** The generic code of a bare status: a framework's own refusal, which carries no code of its own. */
const CODE_OF_STATUS: Record<number, ErrorCode> = {
  400: 'INVALID_INPUT',
  401: 'SESSION_EXPIRED',
  403: 'NO_PERMISSION',
  404: 'DATA_NOT_FOUND',
  409: 'CONFLICT',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * Every error the server answers has the shape `{ status, code, message }`, with the HTTP status equal
 * to `status`. The code is an entry of the error catalogue, always named by the thrower; the message is
 * its Chinese text (or, under INVALID_INPUT, the field message of a form's problem).
 */
export class ApiError extends Error {
  /** Fields some answers carry beside the three (e.g. `errors`, the problems of a form). */
  extra: Record<string, unknown> | undefined;
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string = errorMessage(code),
    /** Application status in the body when it differs from the HTTP status (e.g. 10001). */
    readonly status: number = statusCode,
  ) {
    super(message);
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

/** A refusal by its catalogue code: the message is the catalogue's, its `{name}` places filled from `params`. */
export function refusal(statusCode: number, code: ErrorCode, params?: ErrorParams): ApiError {
  return new ApiError(statusCode, code, errorMessage(code, params));
}

/** The refusal a bare status stands for (a framework's own 4xx): its generic code and Chinese text. */
export const statusRefusal = (statusCode: number): ApiError =>
  refusal(statusCode, CODE_OF_STATUS[statusCode] ?? (statusCode >= 500 ? 'INTERNAL_ERROR' : 'INVALID_INPUT'));

/** A form's own problem, answered under INVALID_INPUT with its field message (and, by the caller, every problem in `errors`). */
export const invalidInput = (message: string) => new ApiError(400, 'INVALID_INPUT', message);

/**
 * A schema's field message as a 400: a message that is a catalogue code answers as that code (with its
 * Chinese text); any other message is a field text, answered as it is under INVALID_INPUT.
 */
export const fieldRefusal = (message: string): ApiError => (isErrorCode(message) ? refusal(400, message) : invalidInput(message));

export const badRequest = (code: ErrorCode, params?: ErrorParams) => refusal(400, code, params);
export const unauthorized = (code: ErrorCode = 'SESSION_EXPIRED', params?: ErrorParams) => refusal(401, code, params);
export const forbidden = (code: ErrorCode = 'NO_PERMISSION', params?: ErrorParams) => refusal(403, code, params);
export const notFound = (code: ErrorCode = 'DATA_NOT_FOUND', params?: ErrorParams) => refusal(404, code, params);
export const conflict = (code: ErrorCode, params?: ErrorParams) => refusal(409, code, params);
