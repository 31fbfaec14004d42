import { sql } from 'kysely';
import { bulletin, bulletinBody } from '../../src/contract/bulletin.js';
import type { App } from '../app.js';
import { currentUser, hasPermission, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { parseBody } from '../lib/body.js';
import { OK } from '../lib/core-records.js';
import { paginate } from '../lib/paging.js';
import { WIRE_TIME_FORMAT } from '../lib/sql.js';
import { registerResource, writerOf } from './register.js';

/** /api/bulletin: the bulletins of the dashboard, and /api/viewsNum, the read count an opened one adds to. */
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

  registerResource(app, bulletin, {
    list: async (req) => {
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

    add: async (req) => {
      const u = currentUser(req);
      const body = parseBody(bulletinBody, req.body);
      const row = await writerOf(req)
        .insertInto('bulletin')
        .values({ title: body.title, content: body.content, status: body.status ?? 10, create_by: u.username })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { ...OK, id: row.id };
    },

    edit: async (req) => {
      const body = parseBody(bulletinBody, req.body);
      if (!body.id) throw badRequest('ID_REQUIRED');
      const res = await writerOf(req)
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
    },

    remove: async (req) => {
      await writerOf(req).deleteFrom('bulletin').where('id', 'in', req.body).execute();
      return OK;
    },

    // A bulletin was opened: its read count goes up by one.
    addView: async (req) => {
      const u = currentUser(req);
      const id = req.body?.id ?? req.query.id;
      if (!id) throw badRequest('BULLETIN_REQUIRED');
      let q = writerOf(req).updateTable('bulletin').set({ views: sql`views + 1` }).where('id', '=', id);
      if (!mayEditBulletins(u)) q = q.where('status', '=', 10);
      const row = await q.returning(['id', 'views']).executeTakeFirst();
      if (!row) throw notFound('BULLETIN_NOT_FOUND');
      return { status: 200, id: row.id, viewsNum: row.views };
    },
  });
}
