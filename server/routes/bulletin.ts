import { sql } from 'kysely';
import { z } from 'zod';
import type { App } from '../app.js';
import { currentUser, hasPermission, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { parseBody } from '../lib/body.js';
import { OK } from '../lib/core-records.js';
import { pageFields, paginate } from '../lib/paging.js';
import { answers, ok } from '../lib/route.js';
import { boundedInt, dbId, INT4_MAX, pageOf, WIRE_TIME_FORMAT } from '../lib/sql.js';

/** /api/bulletin: the bulletins of the dashboard, and /api/viewsNum, the read count an opened one adds to. */

const bulletinRow = z.object({
  id: z.number(),
  title: z.string(),
  content: z.string(),
  status: z.number(),
  views: z.number(),
  createBy: z.string().nullable(),
  createTime: z.string(),
});

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  const bulletinColumns = [
    'id',
    'title',
    'content',
    'status',
    'views',
    'create_by as createBy',
    sql<string>`to_char(create_time, ${WIRE_TIME_FORMAT})`.as('createTime'),
  ] as const;
  const mayEditBulletins = (u: SessionUser) => hasPermission(u.roles, 'bulletin:edit');

  app.get(
    '/api/bulletin',
    answers({ session: true }, pageOf(bulletinRow), {
      querystring: z.object({
        status: boundedInt(-INT4_MAX, INT4_MAX).optional(),
        ...pageFields,
      }),
    }),
    async (req) => {
      const u = currentUser(req);
      const status = req.query.status ?? 10;
      // Drafts are for those who edit bulletins.
      if (status !== 10 && !mayEditBulletins(u)) throw forbidden();
      const base = db.selectFrom('bulletin').where('status', '=', status);
      return paginate(base, (q) => q.select(bulletinColumns).orderBy('create_time', 'desc').orderBy('id', 'desc'), {
        page: req.query.page,
        size: req.query.size,
      });
    },
  );

  const bulletinBody = z.object({
    id: dbId.optional(),
    title: z.string().trim().min(1, '请输入公告标题').max(255, '公告标题不能超过255个字符'),
    content: z.string().trim().min(1, '请输入公告内容').max(20_000, '公告内容过长'),
    status: z.union([z.literal(10), z.literal(0)]).optional(),
  });

  app.post('/api/bulletin', answers({ permission: 'bulletin:edit', log: '新增公告' }, ok.extend({ id: z.number() })), async (req) => {
    const u = currentUser(req);
    const body = parseBody(bulletinBody, req.body);
    const row = await db
      .insertInto('bulletin')
      .values({ title: body.title, content: body.content, status: body.status ?? 10, create_by: u.username })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { ...OK, id: row.id };
  });

  app.put('/api/bulletin', answers({ permission: 'bulletin:edit', log: '修改公告' }, ok), async (req) => {
    const body = parseBody(bulletinBody, req.body);
    if (!body.id) throw badRequest('ID_REQUIRED');
    const res = await db
      .updateTable('bulletin')
      .set({
        title: body.title,
        content: body.content,
        ...(body.status === undefined ? {} : { status: body.status }),
        update_time: sql`now()`,
      })
      .where('id', '=', body.id)
      .executeTakeFirst();
    if (!Number(res.numUpdatedRows)) throw notFound('BULLETIN_NOT_FOUND');
    return OK;
  });

  app.delete(
    '/api/bulletin',
    answers({ permission: 'bulletin:edit', log: '删除公告' }, ok, { body: z.array(dbId).min(1, '请选择要删除的数据') }),
    async (req) => {
      await db.deleteFrom('bulletin').where('id', 'in', req.body).execute();
      return OK;
    },
  );

  // A bulletin was opened: its read count goes up by one.
  app.post(
    '/api/viewsNum/add',
    answers({ session: true }, z.object({ status: z.number(), id: z.number(), viewsNum: z.number() }), {
      body: z.object({ id: dbId }).nullish(),
      querystring: z.object({ id: dbId.optional() }),
    }),
    async (req) => {
      const u = currentUser(req);
      const id = req.body?.id ?? req.query.id;
      if (!id) throw badRequest('BULLETIN_REQUIRED');
      let q = db.updateTable('bulletin').set({ views: sql`views + 1` }).where('id', '=', id);
      if (!mayEditBulletins(u)) q = q.where('status', '=', 10);
      const row = await q.returning(['id', 'views']).executeTakeFirst();
      if (!row) throw notFound('BULLETIN_NOT_FOUND');
      return { status: 200, id: row.id, viewsNum: row.views };
    },
  );
}
