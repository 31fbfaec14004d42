/** Bulletins: the dashboard's notices, their editing, and the read count an opened one adds to. */
import { z } from 'zod';
import { call, resource, write } from './define.js';
import { boundedInt, dbId, INT4_MAX, ok, pageOf } from './fields.js';
import { pageFields } from './paging.js';

export const bulletinRow = z.object({
  id: z.number(),
  title: z.string(),
  content: z.string(),
  status: z.number(),
  views: z.number(),
  createBy: z.string().nullable(),
  createTime: z.string(),
});

/**
 * The bulletin form. The server judges it in its handler, so that the first problem answers with the
 * form's own message (请输入公告标题…) rather than a schema's 参数校验失败.
 */
export const bulletinBody = z.object({
  id: dbId.optional(),
  title: z.string().trim().min(1, '请输入公告标题').max(255, '公告标题不能超过255个字符'),
  content: z.string().trim().min(1, '请输入公告内容').max(20_000, '公告内容过长'),
  status: z.union([z.literal(10), z.literal(0)]).optional(),
});
/** What the bulletin form's calls take on the wire: anything, judged by the handler with bulletinBody. */
const bulletinWire = z.custom<z.input<typeof bulletinBody>>(() => true);

export const bulletin = resource('bulletin', '公告', {
  list: call('GET', '/api/bulletin', '公告列表（status 10 已发布；其他状态仅限可编辑公告者）', 'session', {
    query: z.object({ status: boundedInt(-INT4_MAX, INT4_MAX).optional(), ...pageFields }),
    answer: pageOf(bulletinRow),
    errors: ['NO_PERMISSION'],
    example: { query: { status: 10, page: 0, size: 5 } },
  }),
  // Bulletins are read on every company's dashboard: only accounts of 全部 write them.
  add: write('POST', '/api/bulletin', '新增公告', 'bulletin:edit', {
    platform: true,
    body: bulletinWire,
    answer: ok.extend({ id: z.number() }),
    errors: [],
  }),
  edit: write('PUT', '/api/bulletin', '修改公告', 'bulletin:edit', {
    platform: true,
    body: bulletinWire,
    answer: ok,
    errors: ['ID_REQUIRED', 'BULLETIN_NOT_FOUND'],
  }),
  remove: write('DELETE', '/api/bulletin', '删除公告', 'bulletin:edit', {
    platform: true,
    body: z.array(dbId).min(1, '请选择要删除的数据'),
    answer: ok,
    errors: [],
    example: { body: [2147483000] },
  }),
  addView: call('POST', '/api/viewsNum/add', '公告阅读数加一', 'session', {
    body: z.object({ id: dbId }).nullish(),
    query: z.object({ id: dbId.optional() }),
    answer: z.object({ status: z.number(), id: z.number(), viewsNum: z.number() }),
    errors: ['BULLETIN_REQUIRED', 'BULLETIN_NOT_FOUND'],
  }),
});
