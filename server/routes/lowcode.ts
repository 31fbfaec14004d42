import { sql } from 'kysely';
import { z } from 'zod';
import { isAbsent } from '../../src/model/index.js';
import { DATA_VIEW_MANAGERS, readableScreen, requireDataViewReader } from '../access/lookups.js';
import type { App } from '../app.js';
import { currentUser, requirePermission } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { syncEntityViews, withEntityViews } from '../lib/entity-views.js';
import { paginate } from '../lib/paging.js';
import { reads } from '../lib/route.js';
import { boundedInt, containing, INT4_MAX, wireTime } from '../lib/sql.js';
import { dataViewColumns, runDataView, screensUsingDataViews, validateDataViewSql } from '../lowcode/data-view.js';
import { dropViewTable, syncViewTable } from '../lowcode/ddl.js';
import { idSchema, idsFrom, jsonText, pageQuery } from '../lowcode/params.js';
import { checkParentMenu, dropViewMenus, syncViewMenu } from '../lowcode/view-menu.js';
import { componentNameOf, type DefinitionRow, readPage, readView, type ViewModel } from '../lowcode/view-model.js';
import { changeView } from '../lowcode/view-store.js';

/** Low-code definitions: views (/api/generation), screens (/api/screen) and SQL data views (/api/data). */

const OK = { status: 200, message: '操作成功' };

/** Rows the SQL editor's 运行 shows. */
const DATA_RUN_ROWS = 100;

const nullableInt = z.preprocess((v) => (v === '' ? null : v), boundedInt(0, INT4_MAX).nullable().optional());
const status01 = z.coerce.number().int().min(0, 'status 只能是 0 或 1').max(1, 'status 只能是 0 或 1');
const screenType = z.coerce.number().int().min(1, 'type 只能是 1、2、3、4').max(4, 'type 只能是 1、2、3、4');
const name = z.string().trim().min(1, '名称不能为空').max(255, '名称不能超过255个字符');

// ----- views (generation) -----

/** A view definition as it would be saved: its model, or 400 with the model's problems. */
function designedModel(row: DefinitionRow): ViewModel {
  const view = readView(row);
  if (!view) throw badRequest('TEMPLATE_REQUIRED');
  return view;
}

/** The version a save started from: when given and another save came first, the save answers 409. */
const versionField = boundedInt(0, INT4_MAX).optional();

/**
 * Saves a template: checks it, stores it and brings the backing table in line, all or nothing.
 * A save of the content (`bump`) raises the version, compared in the update itself when `base` is
 * given, so two saves from one version cannot both pass. Answers the version now stored.
 */
async function designView(
  ctx: AppContext,
  id: number,
  templateIn: unknown,
  set: { name?: string; menu_id?: number | null; status?: number; dis_menu?: string | null } = {},
  { base, bump = true }: { base?: number; bump?: boolean } = {},
): Promise<number> {
  const row = await ctx.db.selectFrom('lc_generation').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('VIEW_NOT_FOUND');
  const disTemplate = jsonText(templateIn, 'disTemplate');
  if (!disTemplate) throw badRequest('TEMPLATE_REQUIRED');
  const view = designedModel({ ...row, ...set, dis_template: disTemplate });
  const version = await ctx.db.transaction().execute(async (trx) => {
    let q = trx
      .updateTable('lc_generation')
      .set({ ...set, dis_template: disTemplate, update_time: sql`now()`, ...(bump ? { version: sql`version + 1` } : {}) })
      .where('id', '=', id);
    if (base !== undefined) q = q.where('version', '=', base);
    const saved = await q.returning('version').executeTakeFirst();
    if (!saved) throw conflict('VIEW_CONFLICT');
    await withEntityViews(trx, [id], () => syncViewTable(trx, view));
    return saved.version;
  });
  changeView(ctx, id);
  return version;
}

/** A design's answered columns: its own (`middle`) between the common head and the stored times, in that order. */
const designColumns = <M extends readonly string[]>(...middle: M) =>
  [
    'id',
    'name',
    'menu_id as menuId',
    'status',
    ...middle,
    wireTime('create_time').as('createTime'),
    wireTime('update_time').as('updateTime'),
  ] as const;

const generationColumns = designColumns('dis_menu as disMenu', 'dis_template as disTemplate', 'version');

// ----- screens -----

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

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const db = ctx.db;

  // ----- /api/generation -----

  app.get(
    '/api/generation/list',
    reads(
      { permission: 'generation:list', platform: true },
      { querystring: z.object({ ...pageQuery, name: z.string().optional(), status: status01.optional() }) },
    ),
    async (req) => {
      const { page, size, name, status } = req.query;
      let q = db.selectFrom('lc_generation');
      if (name) q = q.where('name', 'ilike', containing(name));
      if (status !== undefined) q = q.where('status', '=', status);
      return paginate(q, (x) => x.select(generationColumns).orderBy('id', 'desc'), { page, size });
    },
  );

  // Any published view draws at its page address whether or not a menu points at it, so reading its
  // definition is what decides the page: the view's list permission, or the definition managers'.
  app.get('/api/generation/detail', reads({ session: true }, { querystring: z.object({ id: idSchema }) }), async (req) => {
    currentUser(req);
    const row = await db.selectFrom('lc_generation').select(generationColumns).where('id', '=', req.query.id).executeTakeFirst();
    if (!row) throw notFound('VIEW_NOT_FOUND');
    const component = componentNameOf(row.id, row.disMenu);
    requirePermission(req, 'generation:list', ...(component ? [`${component}:list`] : []));
    return row;
  });

  app.post(
    '/api/generation/add',
    {
      config: { permission: 'generation:add', platform: true, log: '新增视图' },
      schema: {
        body: z.object({
          name,
          menuId: nullableInt,
          status: status01.optional(),
          disMenu: z.unknown().optional(),
          disTemplate: z.unknown().optional(),
        }),
      },
    },
    async (req) => {
      const b = req.body;
      const disMenu = jsonText(b.disMenu, 'disMenu');
      const template = jsonText(b.disTemplate, 'disTemplate');
      if (b.status === 1 && !template) throw badRequest('VIEW_NOT_DESIGNED_PUBLISH');
      const id = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('lc_generation')
          .values({ name: b.name, menu_id: b.menuId ?? null, status: b.status ?? 0, dis_menu: disMenu, dis_template: template })
          .returning(['id', 'name', 'status', 'dis_menu', 'dis_template'])
          .executeTakeFirstOrThrow();
        // A bad template throws here and the insert is rolled back with it.
        if (template) await withEntityViews(trx, [row.id], () => syncViewTable(trx, designedModel(row)));
        return row.id;
      });
      changeView(ctx, id);
      return { ...OK, id };
    },
  );

  app.post(
    '/api/generation/update',
    {
      config: { permission: 'generation:edit', platform: true, log: '修改视图' },
      schema: {
        body: z.object({
          id: idSchema,
          name,
          menuId: nullableInt,
          status: status01.optional(),
          disMenu: z.unknown().optional(),
          disTemplate: z.unknown().optional(),
          version: versionField,
        }),
      },
    },
    async (req) => {
      const b = req.body;
      const row = await db.selectFrom('lc_generation').select(['dis_template', 'version']).where('id', '=', b.id).executeTakeFirst();
      if (!row) throw notFound('VIEW_NOT_FOUND');
      if (b.version !== undefined && b.version !== row.version) throw conflict('VIEW_CONFLICT');
      if (b.status === 1 && isAbsent(row.dis_template) && isAbsent(b.disTemplate)) throw badRequest('VIEW_NOT_DESIGNED_PUBLISH');
      const template = isAbsent(b.disTemplate) ? row.dis_template : b.disTemplate;
      const set = {
        name: b.name,
        ...(b.menuId !== undefined ? { menu_id: b.menuId } : {}),
        ...(b.status !== undefined ? { status: b.status } : {}),
        ...(b.disMenu !== undefined ? { dis_menu: jsonText(b.disMenu, 'disMenu') } : {}),
      };
      // A push from the CLI may carry the template too; it is then saved like a design. A designed view
      // whose menu JSON changes is checked again, since its componentName names its permissions.
      if (!isAbsent(template) && (!isAbsent(b.disTemplate) || b.disMenu !== undefined))
        return { ...OK, version: await designView(ctx, b.id, template, set, { base: b.version }) };
      let q = db
        .updateTable('lc_generation')
        .set({ ...set, update_time: sql`now()`, version: sql`version + 1` })
        .where('id', '=', b.id);
      if (b.version !== undefined) q = q.where('version', '=', b.version);
      const saved = await q.returning('version').executeTakeFirst();
      if (!saved) throw conflict('VIEW_CONFLICT');
      await syncEntityViews(db);
      changeView(ctx, b.id);
      return { ...OK, version: saved.version };
    },
  );

  app.post('/api/generation/delete', { config: { permission: 'generation:del', platform: true, log: '删除视图' } }, async (req) => {
    const ids = idsFrom(req.body, req.query);
    const menus = await db.transaction().execute(async (trx) => {
      // The views' own page menus (and their buttons) go with them: a menu must not lead to a deleted page.
      const dropped = await dropViewMenus(trx, ids);
      await trx.deleteFrom('lc_generation').where('id', 'in', ids).execute();
      await withEntityViews(trx, ids, async () => {
        for (const id of ids) await dropViewTable(trx, id);
      });
      return dropped;
    });
    for (const id of ids) changeView(ctx, id);
    if (menus) ctx.sessions.invalidate();
    return OK;
  });

  app.post(
    '/api/generation/design',
    reads(
      { permission: 'generation:design', platform: true, log: '设计视图' },
      { body: z.object({ id: idSchema, disTemplate: z.unknown(), disMenu: z.unknown().optional(), version: versionField }) },
    ),
    async (req) => {
      const { id, disTemplate, disMenu, version } = req.body;
      const set = disMenu === undefined ? {} : { dis_menu: jsonText(disMenu, 'disMenu') };
      return { status: 200, message: '保存成功', version: await designView(ctx, id, disTemplate, set, { base: version }) };
    },
  );

  app.post(
    '/api/generation/publish',
    reads({ permission: 'generation:publish', platform: true, log: '发布视图' }, { body: z.object({ id: idSchema }) }),
    async (req) => {
      const row = await db
        .selectFrom('lc_generation')
        .select(['dis_template', 'dis_menu'])
        .where('id', '=', req.body.id)
        .executeTakeFirst();
      if (!row) throw notFound('VIEW_NOT_FOUND');
      if (isAbsent(row.dis_template)) throw badRequest('VIEW_NOT_DESIGNED_PUBLISH');
      await checkParentMenu(db, row.dis_menu);
      // Publishing changes no content, so a designer open on the view saves on from the same version.
      await designView(ctx, req.body.id, row.dis_template, { status: 1 }, { bump: false });
      // The page joins the menu tree at once: its menu and buttons follow the definition.
      if (await db.transaction().execute((trx) => syncViewMenu(trx, req.body.id))) ctx.sessions.invalidate();
      return { status: 200, message: '发布成功' };
    },
  );

  // ----- /api/screen -----

  app.get(
    '/api/screen/list',
    {
      config: { permission: 'screen:list', platform: true },
      schema: {
        querystring: z.object({
          ...pageQuery,
          name: z.string().optional(),
          type: z.preprocess((v) => (v === '' ? undefined : v), screenType.optional()),
          status: status01.optional(),
        }),
      },
    },
    async (req) => {
      const { page, size, name, type, status } = req.query;
      let q = db.selectFrom('lc_screen');
      if (name) q = q.where('name', 'ilike', containing(name));
      if (type !== undefined) q = q.where('type', '=', type);
      if (status !== undefined) q = q.where('status', '=', status);
      return paginate(q, (x) => x.select(screenColumns).orderBy('id', 'desc'), { page, size });
    },
  );

  // Any screen draws at its address whether or not a menu points at it, so reading it decides the page
  // (see readableScreen). Without a session a big screen is reached only through a share link (/api/open/*).
  app.get('/api/screen/detail', reads({ session: true }, { querystring: z.object({ id: idSchema }) }), async (req) => {
    const user = currentUser(req);
    const row = await db.selectFrom('lc_screen').select(screenColumns).where('id', '=', req.query.id).executeTakeFirst();
    if (!row) throw notFound('SCREEN_NOT_FOUND');
    return readableScreen(ctx, user, row);
  });

  const screenBody = {
    name,
    menuId: nullableInt,
    status: status01.optional(),
    type: screenType,
    disMenu: z.unknown().optional(),
  };

  app.post(
    '/api/screen/add',
    { config: { permission: 'screen:add', platform: true, log: '新增大屏' }, schema: { body: z.object(screenBody) } },
    async (req) => {
      const b = req.body;
      const row = await db
        .insertInto('lc_screen')
        .values({ name: b.name, menu_id: b.menuId ?? null, status: b.status ?? 0, type: b.type, dis_menu: jsonText(b.disMenu, 'disMenu') })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { ...OK, id: row.id };
    },
  );

  app.post(
    '/api/screen/update',
    reads(
      { permission: 'screen:edit', platform: true, log: '修改大屏' },
      { body: z.object({ ...screenBody, id: idSchema, type: screenType.optional(), version: versionField }) },
    ),
    async (req) => {
      const b = req.body;
      const row = await db.selectFrom('lc_screen').select(['type', 'dis_template', 'version']).where('id', '=', b.id).executeTakeFirst();
      if (!row) throw notFound('SCREEN_NOT_FOUND');
      if (b.version !== undefined && b.version !== row.version) throw conflict('SCREEN_CONFLICT');
      if (b.type !== undefined && b.type !== row.type && row.dis_template) await checkScreenTemplate(ctx, b.id, b.type, row.dis_template);
      let q = db
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
  );

  app.post('/api/screen/delete', { config: { permission: 'screen:del', platform: true, log: '删除大屏' } }, async (req) => {
    await db.deleteFrom('lc_screen').where('id', 'in', idsFrom(req.body, req.query)).execute();
    return OK;
  });

  // `version` (optional): the screen's version when the designer opened it. When given and the screen
  // has been saved since, the save is refused with 409 and changes nothing; a client that sends none
  // overwrites. Every save raises the version, and the answer carries the new one.
  app.post(
    '/api/screen/design',
    reads(
      { permission: 'screen:design', platform: true, log: '设计大屏' },
      { body: z.object({ id: idSchema, disTemplate: z.unknown(), version: versionField }) },
    ),
    async (req) => {
      const { id, version: base } = req.body;
      const row = await db.selectFrom('lc_screen').select(['type', 'version']).where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound('SCREEN_NOT_FOUND');
      const text = jsonText(req.body.disTemplate, 'disTemplate');
      if (!text) throw badRequest('TEMPLATE_REQUIRED');
      await checkScreenTemplate(ctx, id, row.type, text);
      let q = db
        .updateTable('lc_screen')
        .set({ dis_template: text, update_time: sql`now()`, version: sql`version + 1` })
        .where('id', '=', id);
      // Compared in the update itself, so two saves from the same version cannot both pass.
      if (base !== undefined) q = q.where('version', '=', base);
      const saved = await q.returning('version').executeTakeFirst();
      if (!saved) throw conflict('SCREEN_CONFLICT');
      return { status: 200, message: '保存成功', version: saved.version };
    },
  );

  // ----- /api/data (SQL data views) -----

  app.get(
    '/api/data/list',
    reads({ permission: 'dataView:list', platform: true }, { querystring: z.object({ ...pageQuery, name: z.string().optional() }) }),
    async (req) => {
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
  );

  // Charts of any signed-in viewer of an enabled big screen need their rows; other data views only chart and
  // data-view builders read. Without a session only a share link's open calls answer.
  app.get('/api/data/detail', reads({ session: true }, { querystring: z.object({ id: idSchema }) }), async (req) => {
    await requireDataViewReader(ctx, req, req.query.id);
    const row = await db.selectFrom('lc_data_view').select(['id', 'name', 'sql']).where('id', '=', req.query.id).executeTakeFirst();
    if (!row) throw notFound('DATA_VIEW_NOT_FOUND');
    return { id: row.id, name: row.name, ...(await runDataView(ctx, row.sql)) };
  });

  // Chart panels pick columns by name and type before any row is needed.
  app.get(
    '/api/data/columns',
    reads({ permission: DATA_VIEW_MANAGERS, platform: true }, { querystring: z.object({ id: idSchema }) }),
    async (req) => {
      const row = await db.selectFrom('lc_data_view').select(['id', 'sql']).where('id', '=', req.query.id).executeTakeFirst();
      if (!row) throw notFound('DATA_VIEW_NOT_FOUND');
      return { id: row.id, columns: await dataViewColumns(ctx, row.sql) };
    },
  );

  const dataBody = { name, sql: z.string().min(1, 'SQL 不能为空').max(100_000, 'SQL 过长') };

  app.post(
    '/api/data/add',
    { config: { permission: 'dataView:add', platform: true, log: '新增数据视图' }, schema: { body: z.object(dataBody) } },
    async (req) => {
      const text = await validateDataViewSql(ctx, req.body.sql);
      const row = await db.insertInto('lc_data_view').values({ name: req.body.name, sql: text }).returning('id').executeTakeFirstOrThrow();
      return { ...OK, id: row.id };
    },
  );

  app.post(
    '/api/data/update',
    reads({ permission: 'dataView:edit', platform: true, log: '修改数据视图' }, { body: z.object({ ...dataBody, id: idSchema }) }),
    async (req) => {
      const text = await validateDataViewSql(ctx, req.body.sql);
      const res = await db
        .updateTable('lc_data_view')
        .set({ name: req.body.name, sql: text, update_time: sql`now()` })
        .where('id', '=', req.body.id)
        .executeTakeFirst();
      if (!Number(res.numUpdatedRows)) throw notFound('DATA_VIEW_NOT_FOUND');
      return OK;
    },
  );

  // The SQL editor's 运行: unsaved SQL under the same checks and time limit as a saved view, first rows only.
  app.post(
    '/api/data/run',
    reads({ permission: ['dataView:add', 'dataView:edit'], platform: true }, { body: z.object({ sql: dataBody.sql }) }),
    async (req) => {
      const started = performance.now();
      const result = await runDataView(ctx, req.body.sql, DATA_RUN_ROWS);
      return { ...result, elapsedMs: Math.round(performance.now() - started) };
    },
  );

  // A screen's chart that lost its data view would draw nothing: such a delete is refused, naming the screens.
  app.post('/api/data/delete', { config: { permission: 'dataView:del', platform: true, log: '删除数据视图' } }, async (req) => {
    const ids = idsFrom(req.body, req.query);
    const users = await screensUsingDataViews(ctx, ids);
    if (users.length) {
      const names = users.map((s) => `「${s.name}」`).join('、');
      throw badRequest('DATA_VIEW_IN_USE', { names });
    }
    await db.deleteFrom('lc_data_view').where('id', 'in', ids).execute();
    return OK;
  });
}
