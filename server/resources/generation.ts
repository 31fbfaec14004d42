import { sql } from 'kysely';
import { generation } from '../../src/contract/generation.js';
import { isAbsent, menuComponentName } from '../../src/model/index.js';
import { keepsAccessFields, PARTIES, RECIPIENT_FIELD, viaPicks } from '../access/parties.js';
import type { App } from '../app.js';
import { currentUser, requirePermission } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { syncEntityViews, withEntityViews } from '../lib/entity-views.js';
import { paginate } from '../lib/paging.js';
import { containing, wireTime } from '../lib/sql.js';
import { dropViewTable, syncViewTable, viewTable } from '../lowcode/ddl.js';
import { idsFrom, jsonText } from '../lowcode/params.js';
import { checkParentMenu, dropViewMenus, syncViewMenu } from '../lowcode/view-menu.js';
import { componentNameOf, type DefinitionRow, readView, type ViewModel } from '../lowcode/view-model.js';
import { changeView } from '../lowcode/view-store.js';
import { registerResource, writerOf, writingContext } from './register.js';

const OK = { status: 200, message: '操作成功' };

/** A design's answered columns: its own (`middle`) between the common head and the stored times, in that order. */
export const designColumns = <M extends readonly string[]>(...middle: M) =>
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

/** A view definition as it would be saved: its model, or 400 with the model's problems. */
function designedModel(row: DefinitionRow): ViewModel {
  const view = readView(row);
  if (!view) throw badRequest('TEMPLATE_REQUIRED');
  return view;
}

/**
 * Some componentNames decide who reads a view's records: a recipient's (留言管理: the addressed
 * department reads them, whatever company wrote them) or parties' (a company named in a field reads
 * them). A view whose records name their recipient keeps its name: its table's privacy from data views
 * follows it. And a view that has records takes no such name by a rename: the records written under
 * its old rules would be opened to the departments or companies their fields name.
 */
async function keepsAccessName(db: AppContext['db'], id: number, before: string | null, after: string | null): Promise<void> {
  const was = menuComponentName(before);
  const now = menuComponentName(after);
  if (was !== undefined && RECIPIENT_FIELD[was] !== undefined && now !== was) throw badRequest('VIEW_PRIVATE_NAME_FIXED', { name: was });
  if (was !== undefined && now !== was) await notPickedForAccess(db, [id]);
  if (now === undefined || now === was || (RECIPIENT_FIELD[now] === undefined && PARTIES[now] === undefined)) return;
  const table = viewTable(id);
  const exists = await sql<{ t: string | null }>`select to_regclass(${table})::text as t`.execute(db);
  if (!exists.rows[0]?.t) return;
  const any = await sql`select 1 from ${sql.table(table)} limit 1`.execute(db);
  if (any.rows.length) throw badRequest('VIEW_ACCESS_NAME_TAKEN', { name: now });
}

/**
 * One lock for every write of view definitions, taken first in its transaction: the checks that keep
 * one view per access-deciding name, and a via picker's view there and of its name, read the other
 * views, and two designers' writes at once must not both pass them.
 */
async function holdViewDefinitions(trx: AppContext['db']): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended('lc_generation', 0))`.execute(trx);
}

/**
 * 400 when a view other than `ids` picks a record of one of `ids` through a via field (a waybill's order):
 * its records are read by the parties of the record it picks, so the view picked from keeps its name and
 * stays, or another view taking the name (or a view's id) would open those records to its companies.
 */
async function notPickedForAccess(db: AppContext['db'], ids: readonly number[]): Promise<void> {
  const rows = await db.selectFrom('lc_generation').selectAll().where('id', 'not in', ids).execute();
  for (const row of rows) {
    const name = menuComponentName(row.dis_menu);
    if (name === undefined || !PARTIES[name]?.some((p) => 'via' in p) || isAbsent(row.dis_template)) continue;
    let view: ViewModel | null;
    try {
      view = readView(row);
    } catch {
      continue;
    }
    const pick = view && viaPicks(view).find((p) => ids.includes(p.viewId));
    if (pick) throw badRequest('VIEW_PICKED_FOR_ACCESS', { picker: name, field: pick.field });
  }
}

/**
 * An access-deciding componentName (a recipient's, parties') belongs to one view, whatever its status: a
 * second one, draft or published, could become the view the access rules read, or the one a waybill's
 * order picker offers, and open records to companies they do not name.
 */
async function accessNameAlone(db: AppContext['db'], id: number, disMenu: string | null): Promise<void> {
  const name = menuComponentName(disMenu);
  if (name === undefined || (RECIPIENT_FIELD[name] === undefined && PARTIES[name] === undefined)) return;
  const others = await db.selectFrom('lc_generation').select(['id', 'dis_menu']).where('id', '!=', id).execute();
  if (others.some((o) => menuComponentName(o.dis_menu) === name)) throw badRequest('VIEW_ACCESS_NAME_SHARED', { name });
}

/**
 * A view as it will be saved keeps the fields its componentName's access reads (see keepsAccessFields);
 * the componentName of a view it picks from is read as stored.
 */
async function keepsFieldsOf(db: AppContext['db'], view: ViewModel): Promise<void> {
  await keepsAccessFields(view, async (viewId) => {
    const row = await db.selectFrom('lc_generation').select('dis_menu').where('id', '=', viewId).executeTakeFirst();
    return row ? menuComponentName(row.dis_menu) : undefined;
  });
}

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
  const version = await ctx.db.transaction().execute(async (trx) => {
    await holdViewDefinitions(trx);
    const row = await trx.selectFrom('lc_generation').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('VIEW_NOT_FOUND');
    if (set.dis_menu !== undefined) await keepsAccessName(trx, id, row.dis_menu, set.dis_menu);
    const disTemplate = jsonText(templateIn, 'disTemplate');
    if (!disTemplate) throw badRequest('TEMPLATE_REQUIRED');
    const view = designedModel({ ...row, ...set, dis_template: disTemplate });
    await keepsFieldsOf(trx, view);
    if (set.dis_menu !== undefined) await accessNameAlone(trx, id, set.dis_menu);
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

/** View definitions (/api/generation): the designers' list, form, design and publish, and a definition as its page reads it. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const db = ctx.db;

  registerResource(app, generation, {
    list: async (req) => {
      const { page, size, name, status } = req.query;
      let q = db.selectFrom('lc_generation');
      if (name) q = q.where('name', 'ilike', containing(name));
      if (status !== undefined) q = q.where('status', '=', status);
      return paginate(q, (x) => x.select(generationColumns).orderBy('id', 'desc'), { page, size });
    },

    // Any published view draws at its page address whether or not a menu points at it, so reading its
    // definition is what decides the page: the view's list permission, or the definition managers'.
    detail: async (req) => {
      currentUser(req);
      const row = await db.selectFrom('lc_generation').select(generationColumns).where('id', '=', req.query.id).executeTakeFirst();
      if (!row) throw notFound('VIEW_NOT_FOUND');
      const component = componentNameOf(row.id, row.disMenu);
      requirePermission(req, 'generation:list', ...(component ? [`${component}:list`] : []));
      return row;
    },

    add: async (req) => {
      const b = req.body;
      const disMenu = jsonText(b.disMenu, 'disMenu');
      const template = jsonText(b.disTemplate, 'disTemplate');
      if (b.status === 1 && !template) throw badRequest('VIEW_NOT_DESIGNED_PUBLISH');
      const id = await writerOf(req)
        .transaction()
        .execute(async (trx) => {
          await holdViewDefinitions(trx);
          const row = await trx
            .insertInto('lc_generation')
            .values({ name: b.name, menu_id: b.menuId ?? null, status: b.status ?? 0, dis_menu: disMenu, dis_template: template })
            .returning(['id', 'name', 'status', 'dis_menu', 'dis_template'])
            .executeTakeFirstOrThrow();
          // A bad template throws here and the insert is rolled back with it.
          const view = template ? designedModel(row) : undefined;
          if (view) await keepsFieldsOf(trx, view);
          await accessNameAlone(trx, row.id, disMenu);
          if (view) await withEntityViews(trx, [row.id], () => syncViewTable(trx, view));
          return row.id;
        });
      changeView(ctx, id);
      return { ...OK, id };
    },

    update: async (req) => {
      const b = req.body;
      const row = await db
        .selectFrom('lc_generation')
        .select(['dis_template', 'dis_menu', 'version'])
        .where('id', '=', b.id)
        .executeTakeFirst();
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
        return { ...OK, version: await designView(writingContext(ctx, req), b.id, template, set, { base: b.version }) };
      const saved = await writerOf(req)
        .transaction()
        .execute(async (trx) => {
          await holdViewDefinitions(trx);
          if (set.dis_menu !== undefined) {
            const now = await trx.selectFrom('lc_generation').select('dis_menu').where('id', '=', b.id).executeTakeFirst();
            if (!now) throw notFound('VIEW_NOT_FOUND');
            await keepsAccessName(trx, b.id, now.dis_menu, set.dis_menu);
            await accessNameAlone(trx, b.id, set.dis_menu);
          }
          let q = trx
            .updateTable('lc_generation')
            .set({ ...set, update_time: sql`now()`, version: sql`version + 1` })
            .where('id', '=', b.id);
          if (b.version !== undefined) q = q.where('version', '=', b.version);
          return q.returning('version').executeTakeFirst();
        });
      if (!saved) throw conflict('VIEW_CONFLICT');
      await syncEntityViews(db);
      changeView(ctx, b.id);
      return { ...OK, version: saved.version };
    },

    remove: async (req) => {
      const ids = idsFrom(req.body, req.query);
      const menus = await writerOf(req)
        .transaction()
        .execute(async (trx) => {
          await holdViewDefinitions(trx);
          await notPickedForAccess(trx, ids);
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
    },

    design: async (req) => {
      const { id, disTemplate, disMenu, version } = req.body;
      const set = disMenu === undefined ? {} : { dis_menu: jsonText(disMenu, 'disMenu') };
      return {
        status: 200,
        message: '保存成功',
        version: await designView(writingContext(ctx, req), id, disTemplate, set, { base: version }),
      };
    },

    publish: async (req) => {
      const row = await db
        .selectFrom('lc_generation')
        .select(['dis_template', 'dis_menu'])
        .where('id', '=', req.body.id)
        .executeTakeFirst();
      if (!row) throw notFound('VIEW_NOT_FOUND');
      if (isAbsent(row.dis_template)) throw badRequest('VIEW_NOT_DESIGNED_PUBLISH');
      await checkParentMenu(db, row.dis_menu);
      // Publishing changes no content, so a designer open on the view saves on from the same version.
      await designView(writingContext(ctx, req), req.body.id, row.dis_template, { status: 1 }, { bump: false });
      // The page joins the menu tree at once: its menu and buttons follow the definition.
      if (
        await writerOf(req)
          .transaction()
          .execute((trx) => syncViewMenu(trx, req.body.id))
      )
        ctx.sessions.invalidate();
      return { status: 200, message: '发布成功' };
    },
  });
}
