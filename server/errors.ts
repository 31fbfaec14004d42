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
  if (isErrorCode(codeOrMessage)) return codedRefusal(statusCode, codeOrMessage, params);
  return new ApiError(statusCode, codeOrMessage);
}

/**
 * A refusal by its catalogue code only: the message is always the catalogue's, filled from `params`.
 * Every throw site is meant to end up here; `refusal` (code or text) stays while free texts remain.
 */
export function codedRefusal(statusCode: number, code: ErrorCode, params?: ErrorParams): ApiError {
  return new ApiError(statusCode, errorMessage(code, params), statusCode, code);
}

/** The refusal a bare status stands for (a framework's own 4xx): its generic code and Chinese text. */
export const statusRefusal = (statusCode: number): ApiError =>
  codedRefusal(statusCode, CODE_OF_STATUS[statusCode] ?? (statusCode >= 500 ? 'INTERNAL_ERROR' : 'INVALID_INPUT'));

/** A form's own problem, answered with its field message (and, by the caller, every problem in `errors`). */
export const invalidInput = (message: string) => new ApiError(400, message, 400, 'INVALID_INPUT');

/**
 * A schema's field message as a 400: a catalogue code answers as that code, a catalogue text with its
 * code, any other text as it is under INVALID_INPUT.
 */
export function fieldRefusal(message: string): ApiError {
  if (isErrorCode(message)) return codedRefusal(400, message);
  return new ApiError(400, message, 400, codeOfMessage(message) ?? 'INVALID_INPUT');
}

export const badRequest = (code: ErrorCode | (string & {}), params?: ErrorParams) => refusal(400, code, params);
export const unauthorized = (code: ErrorCode | (string & {}) = 'SESSION_EXPIRED', params?: ErrorParams) => refusal(401, code, params);
export const forbidden = (code: ErrorCode | (string & {}) = 'NO_PERMISSION', params?: ErrorParams) => refusal(403, code, params);
export const notFound = (code: ErrorCode | (string & {}) = 'DATA_NOT_FOUND', params?: ErrorParams) => refusal(404, code, params);
export const conflict = (code: ErrorCode, params?: ErrorParams) => refusal(409, code, params);
