import type { z } from 'zod';
import { badRequest } from '../errors.js';

/**
 * A request body judged by a schema whose messages are the ones the page shows: the first problem is
 * answered as it is (400), without the generic 参数校验失败 prefix of schema-validated routes.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const r = schema.safeParse(body ?? {});
  if (r.success) return r.data;
  throw badRequest(r.error.issues[0]?.message ?? '参数校验失败');
}
