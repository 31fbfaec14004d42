import { sql } from 'kysely';
import { dataViews } from '../../src/contract/data-views.js';
import { requireDataViewReader } from '../access/screens.js';
import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { paginate } from '../lib/paging.js';
import { containing, wireTime } from '../lib/sql.js';
import { dataViewColumns, runDataView, screensUsingDataViews, validateDataViewSql } from '../lowcode/data-view.js';
import { idsFrom } from '../lowcode/params.js';
import { registerResource, writerOf } from './register.js';

const OK = { status: 200, message: '操作成功' };

/** Rows the SQL editor's 运行 shows. */
const DATA_RUN_ROWS = 100;

/** SQL data views (/api/data): the builders' list, form, columns and 运行, and a view's rows for a chart. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const db = ctx.db;

  registerResource(app, dataViews, {
    list: async (req) => {
      const { page, size, name } = req.query;
      let q = db.selectFrom('lc_data_view');
      if (name) q = q.where('name', 'ilike', containing(name));
      return paginate(
        q,
        (x) =>
          x
            .select(['id', 'name', 'sql', wireTime('create_time').as('createTime'), wireTime('update_time').as('updateTime')])
            .orderBy('id', 'desc'),
        { page, size },
      );
    },

    // Builders of 全部 read any data view; anyone else only one that an enabled big screen their menus lead
    // to charts (requireDataViewReader), checked before the id is looked up. Without a session only a share
    // link's open calls answer.
    detail: async (req) => {
      await requireDataViewReader(ctx, req, req.query.id);
      const row = await db.selectFrom('lc_data_view').select(['id', 'name', 'sql']).where('id', '=', req.query.id).executeTakeFirst();
      if (!row) throw notFound('DATA_VIEW_NOT_FOUND');
      return { id: row.id, name: row.name, ...(await runDataView(ctx, row.sql)) };
    },

    // Chart panels pick columns by name and type before any row is needed.
    columns: async (req) => {
      const row = await db.selectFrom('lc_data_view').select(['id', 'sql']).where('id', '=', req.query.id).executeTakeFirst();
      if (!row) throw notFound('DATA_VIEW_NOT_FOUND');
      return { id: row.id, columns: await dataViewColumns(ctx, row.sql) };
    },

    add: async (req) => {
      const text = await validateDataViewSql(ctx, req.body.sql);
      const row = await writerOf(req)
        .insertInto('lc_data_view')
        .values({ name: req.body.name, sql: text })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { ...OK, id: row.id };
    },

    update: async (req) => {
      const text = await validateDataViewSql(ctx, req.body.sql);
      const res = await writerOf(req)
        .updateTable('lc_data_view')
        .set({ name: req.body.name, sql: text, update_time: sql`now()` })
        .where('id', '=', req.body.id)
        .executeTakeFirst();
      if (!Number(res.numUpdatedRows)) throw notFound('DATA_VIEW_NOT_FOUND');
      return OK;
    },

    // The SQL editor's 运行: unsaved SQL under the same checks and time limit as a saved view, first rows only.
    run: async (req) => {
      const started = performance.now();
      const result = await runDataView(ctx, req.body.sql, DATA_RUN_ROWS);
      return { ...result, elapsedMs: Math.round(performance.now() - started) };
    },

    // A screen's chart that lost its data view would draw nothing: such a delete is refused, naming the screens.
    remove: async (req) => {
      const ids = idsFrom(req.body, req.query);
      const users = await screensUsingDataViews(ctx, ids);
      if (users.length) {
        const names = users.map((s) => `「${s.name}」`).join('、');
        throw badRequest('DATA_VIEW_IN_USE', { names });
      }
      await writerOf(req).deleteFrom('lc_data_view').where('id', 'in', ids).execute();
      return OK;
    },
  });
}
