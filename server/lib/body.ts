import type { z } from 'zod';
import { errorMessage } from '../../src/shared/error-catalogue.js';
import { fieldRefusal, invalidInput } from '../errors.js';

/**
 * A request body judged by a schema whose messages are the ones the page shows: the first problem is
 * answered as it is (400: a message that is a catalogue code as that code, any other under INVALID_INPUT
 * with its text), without the generic 参数校验失败 prefix of schema-validated routes.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const r = schema.safeParse(body ?? {});
  if (r.success) return r.data;
  const first = r.error.issues[0]?.message;
  throw first ? fieldRefusal(first) : invalidInput(errorMessage('INVALID_INPUT'));
}
