/**
 * The operation log and audit trail: what accounts did, newest first. Logins and logged calls have one
 * entry each; every change to a record has one entry naming the record and the fields it changed, from
 * before to after, written in the same transaction as the change.
 */
import { z } from 'zod';
import { call, resource } from './define.js';
import { pageOf, wireTimeBound } from './fields.js';
import { optionalIdOf, pageQuery } from './paging.js';

/** One changed field of a record: its name (and label where known), before and after (null: none). */
export const logChange = z.object({
  field: z.string(),
  label: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});
export type LogChange = z.infer<typeof logChange>;

/** One entry of the operation log. */
export const logEntry = z.object({
  id: z.number(),
  description: z.string(),
  username: z.string().nullable(),
  companyId: z.number().nullable(),
  companyName: z.string().nullable(),
  requestIp: z.string().nullable(),
  address: z.string().nullable(),
  browser: z.string().nullable(),
  time: z.number(),
  createTime: z.string().nullable(),
  /** The record a change entry is about: its table, what the table holds, and its key; null for a call's entry. */
  record: z
    .object({
      table: z.string(),
      title: z.string().nullable(),
      id: z.string().nullable(),
    })
    .nullable(),
  /** 新增, 修改 or 删除 for a change entry. */
  action: z.enum(['insert', 'update', 'delete']).nullable(),
  changes: z.array(logChange),
});
export type LogEntry = z.infer<typeof logEntry>;

/** An optional time bound: `YYYY-MM-DD` or `YYYY-MM-DD HH:mm:ss`, a real date and time. */
const timeBound = wireTimeBound('时间格式应为 YYYY-MM-DD 或 YYYY-MM-DD HH:mm:ss').optional();

/** What the entries of the log are filtered by: the record (its table, and key), and the time. */
const recordFilters = {
  table: z.string().trim().max(64).optional(),
  recordId: z.string().trim().max(100).optional(),
  from: timeBound,
  to: timeBound,
};

export const logs = resource('logs', '操作日志', {
  mine: call('GET', '/api/logs/user', '当前账号的操作日志', 'session', {
    query: z.object({ ...pageQuery, ...recordFilters }),
    answer: pageOf(logEntry),
    errors: [],
    example: { query: { page: 0, size: 10 } },
  }),
  all: call('GET', '/api/logs', '操作日志（数据权限内的账号）', 'user:list', {
    query: z.object({
      ...pageQuery,
      ...recordFilters,
      companyId: optionalIdOf('企业编号不正确'),
      userId: optionalIdOf('用户编号不正确'),
      username: z.string().trim().max(100).optional(),
    }),
    answer: pageOf(logEntry),
    errors: ['LOG_OUTSIDE_SCOPE'],
    example: { query: { page: 0, size: 10 } },
  }),
});
