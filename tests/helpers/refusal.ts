import { type ErrorCode, type ErrorParams, errorMessage } from '../../src/shared/error-catalogue.js';

/** The body of a refusal by its code: `{ status, code, message }`, the message from the catalogue. */
export const refusal = (status: number, code: ErrorCode, params?: ErrorParams) => ({ status, code, message: errorMessage(code, params) });
