import { sql } from 'kysely';
import { screens } from '../../src/contract/screens.js';
import { designsScreens, menuGrantsScreen, readableScreen, SCREEN_FORBIDDEN } from '../access/screens.js';
import type { App } from '../app.js';
import { currentUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { paginate } from '../lib/paging.js';
import { containing } from '../lib/sql.js';
import { idsFrom, jsonText } from '../lowcode/params.js';
import { readPage } from '../lowcode/view-model.js';
import { designColumns } from './generation.js';
import { registerResource, writerOf } from './register.js';

const OK = { status: 200, message: '操作成功' };

/** Checks a screen template with the page model, then that the views and data views it names exist. */
async function checkScreenTemplate(ctx: AppContext, id: number, type: number, text: string): Promise<void> {
  const page = readPage('screen', { id, type, status: 0, disTemplate: text });
  if (!page) throw badRequest('TEMPLATE_REQUIRED');
  const views = page.kind === 'container' ? page.views : page.kind === 'form' ? [page.formView] : [];
  const dataViews = page.kind === 'bigScreen' ? page.layout.flatMap((item) => item.charts.flatMap((c) => c.dataViewId ?? [])) : [];
  const exists = async (table: 'lc_generation' | 'lc_data_view', ids: number[], code: 'VIEW_MISSING' | 'DATA_VIEW_MISSING') => {
    const wanted = [...new Set(ids)];
    const found = wanted.length ? await ctx.db.selectFrom(table).select('id').where('id', 'in', wanted).execute() : [];
    const missing = wanted.find((x) => !found.some((r) => r.id === x));
    if (missing !== undefined) throw badRequest(code, { id: missing });
  };
  await exists('lc_generation', views, 'VIEW_MISSING');
  await exists('lc_data_view', dataViews, 'DATA_VIEW_MISSING');
}

const screenColumns = designColumns('type', 'dis_menu as disMenu', 'dis_template as disTemplate', 'version');
/** A screen as its share link answers it: without its version. */
export const sharedScreenColumns = designColumns('type', 'dis_menu as disMenu', 'dis_template as disTemplate');

/** Screens (/api/screen): the designers' list, form and design, and a screen as its page reads it. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const db = ctx.db;

  registerResource(app, screens, {
    list: async (req) => {
      const { page, size, name, type, status } = req.query;
      let q = db.selectFrom('lc_screen');
      if (name) q = q.where('name', 'ilike', containing(name));
      if (type !== undefined) q = q.where('type', '=', type);
      if (status !== undefined) q = q.where('status', '=', status);
      return paginate(q, (x) => x.select(screenColumns).orderBy('id', 'desc'), { page, size });
    },

    // Any screen draws at its address whether or not a menu points at it, so reading it decides the page:
    // who may see a screen is readableScreen's rule. An id that is not there is told apart from a refused
    // one only to those who could read it. Without a session a big screen is reached only through a share
    // link (/api/open/*).
    detail: async (req) => {
      const user = currentUser(req);
      const row = await db.selectFrom('lc_screen').select(screenColumns).where('id', '=', req.query.id).executeTakeFirst();
      if (!row) {
        if (designsScreens(user) || (await menuGrantsScreen(ctx, user, req.query.id))) throw notFound('SCREEN_NOT_FOUND');
        throw forbidden(SCREEN_FORBIDDEN);
      }
      return readableScreen(ctx, user, row);
    },

    add: async (req) => {
      const b = req.body;
      const row = await writerOf(req)
        .insertInto('lc_screen')
        .values({ name: b.name, menu_id: b.menuId ?? null, status: b.status ?? 0, type: b.type, dis_menu: jsonText(b.disMenu, 'disMenu') })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { ...OK, id: row.id };
    },

    update: async (req) => {
      const b = req.body;
      const row = await db.selectFrom('lc_screen').select(['type', 'dis_template', 'version']).where('id', '=', b.id).executeTakeFirst();
      if (!row) throw notFound('SCREEN_NOT_FOUND');
      if (b.version !== undefined && b.version !== row.version) throw conflict('SCREEN_CONFLICT');
      if (b.type !== undefined && b.type !== row.type && row.dis_template) await checkScreenTemplate(ctx, b.id, b.type, row.dis_template);
      let q = writerOf(req)
        .updateTable('lc_screen')
        .set({
          name: b.name,
          update_time: sql`now()`,
          version: sql`version + 1`,
          ...(b.menuId !== undefined ? { menu_id: b.menuId } : {}),
          ...(b.status !== undefined ? { status: b.status } : {}),
          ...(b.type !== undefined ? { type: b.type } : {}),
          ...(b.disMenu !== undefined ? { dis_menu: jsonText(b.disMenu, 'disMenu') } : {}),
        })
        .where('id', '=', b.id);
      if (b.version !== undefined) q = q.where('version', '=', b.version);
      const saved = await q.returning('version').executeTakeFirst();
      if (!saved) throw conflict('SCREEN_CONFLICT');
      return { ...OK, version: saved.version };
    },

    remove: async (req) => {
      await writerOf(req).deleteFrom('lc_screen').where('id', 'in', idsFrom(req.body, req.query)).execute();
      return OK;
    },

    // `version` (optional): the screen's version when the designer opened it. When given and the screen
    // has been saved since, the save is refused with 409 and changes nothing; a client that sends none
    // overwrites. Every save raises the version, and the answer carries the new one.
    design: async (req) => {
      const { id, version: base } = req.body;
      const row = await db.selectFrom('lc_screen').select(['type', 'version']).where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound('SCREEN_NOT_FOUND');
      const text = jsonText(req.body.disTemplate, 'disTemplate');
      if (!text) throw badRequest('TEMPLATE_REQUIRED');
      await checkScreenTemplate(ctx, id, row.type, text);
      let q = writerOf(req)
        .updateTable('lc_screen')
        .set({ dis_template: text, update_time: sql`now()`, version: sql`version + 1` })
        .where('id', '=', id);
      // Compared in the update itself, so two saves from the same version cannot both pass.
      if (base !== undefined) q = q.where('version', '=', base);
      const saved = await q.returning('version').executeTakeFirst();
      if (!saved) throw conflict('SCREEN_CONFLICT');
      return { status: 200, message: '保存成功', version: saved.version };
    },
  });
}
