/**
 * The operation log: what the signed-in account did, newest first.
 */
import { z } from 'zod';
import { call, resource } from './define.js';
import { pageOf } from './fields.js';
import { pageQuery } from './paging.js';

/** One entry of the operation log. */
export const logEntry = z.object({
  id: z.number(),
  description: z.string(),
  requestIp: z.string().nullable(),
  address: z.string().nullable(),
  browser: z.string().nullable(),
  time: z.number(),
  createTime: z.string().nullable(),
});
export type LogEntry = z.infer<typeof logEntry>;

export const logs = resource('logs', '操作日志', {
  mine: call('GET', '/api/logs/user', '当前账号的操作日志', 'session', {
    query: z.object(pageQuery),
    answer: pageOf(logEntry),
    errors: [],
    example: { query: { page: 0, size: 10 } },
  }),
});
