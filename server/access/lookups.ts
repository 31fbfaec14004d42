import type { FastifyRequest } from 'fastify';
import { DATA_VIEW_MANAGERS } from '../../src/contract/data-views.js';
import { screenOfPath } from '../../src/model/index.js';
import { currentUser, hasPermission, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { type ErrorCode, forbidden } from '../errors.js';
import { allMenus, menuIdsOfUser } from '../lib/accounts-menus.js';
import { escapeLike } from '../lib/sql.js';
import { bigScreenOf, dataViewsOf } from '../lowcode/screen-share.js';
import { componentNameOf, screenViewsOf, type ViewModel } from '../lowcode/view-model.js';
import { designedView } from '../lowcode/view-store.js';

/**
 * Option lists that feed other pages (pickers, linked selects): who may read them. A list is readable
 * with one of its own permissions, or with the list permission of a view whose form or search field
 * draws its options from that address, since that view's page cannot work without it.
 */

/** The code an option list refuses with (routes that check by hand throw it too). */
export const LOOKUP_DENIED = 'LOOKUP_DENIED' satisfies ErrorCode;

/** The path of an options address, without origin and query: what a route is matched on. */
function pathOf(url: string): string {
  try {
    return new URL(url, 'http://localhost').pathname;
  } catch {
    return '';
  }
}

/** Whether a field of the view (form or list column) draws its options from the path. */
export function drawsOptionsFrom(view: ViewModel, path: string): boolean {
  const urls = [...view.page.form.fields.map((f) => f.remote?.url), ...view.page.columns.map((c) => c.remote?.url)].filter(
    (u): u is string => !!u,
  );
  return urls.some((u) => pathOf(u) === path);
}

/** Views whose fields draw their options from the path (a view that fails to read draws nothing). */
export async function viewsDrawingFrom(ctx: AppContext, path: string): Promise<ViewModel[]> {
  const rows = await ctx.db
    .selectFrom('lc_generation')
    .select('id')
    .where('dis_template', 'like', `%${escapeLike(path)}%`)
    .orderBy('id')
    .execute();
  const out: ViewModel[] = [];
  for (const r of rows) {
    try {
      const view = await designedView(ctx, r.id);
      if (drawsOptionsFrom(view, path)) out.push(view);
    } catch {
      // An undesigned or unreadable definition has no page that could call the list.
    }
  }
  return out;
}

/** Whether the user may list a view that draws its options from the path. */
export async function listsViewDrawingFrom(ctx: AppContext, user: SessionUser, path: string): Promise<boolean> {
  const views = await viewsDrawingFrom(ctx, path);
  return views.some((v) => hasPermission(user.roles, v.page.permissions.list));
}

/**
 * Refuses an option list unless the caller holds one of `permissions` or may list a view that draws its
 * options from the route (`path`, the route's own address).
 */
export async function requireLookup(
  ctx: AppContext,
  req: FastifyRequest,
  path: string,
  permissions: readonly string[],
): Promise<SessionUser> {
  const user = currentUser(req);
  if (permissions.some((p) => hasPermission(user.roles, p))) return user;
  if (await listsViewDrawingFrom(ctx, user, path)) return user;
  throw forbidden(LOOKUP_DENIED);
}

/** Whether one of the user's menus (a page, not a button) leads to the screen. */
export async function menuGrantsScreen(ctx: AppContext, user: SessionUser, screenId: number): Promise<boolean> {
  const menus = await allMenus(ctx.db);
  const leading = menus.filter((m) => m.type !== 2 && screenOfPath(m.path) === screenId);
  if (!leading.length) return false;
  if (user.isAdmin) return true;
  const granted = await menuIdsOfUser(ctx.db, user.id, menus);
  return leading.some((m) => granted.has(m.id));
}

interface ScreenRow {
  id: number;
  status: number;
  type: number;
  disTemplate: string | null;
}

/** The template with its container's views replaced by `views`; unchanged when it cannot be read. */
function withViews(template: string | null, views: number[]): string | null {
  try {
    let t: unknown = JSON.parse(template ?? '');
    if (typeof t === 'string') t = JSON.parse(t);
    if (typeof t !== 'object' || t === null || Array.isArray(t)) return template;
    return JSON.stringify({ ...t, baseView: views });
  } catch {
    return template;
  }
}

/**
 * The screen as the user may read it, or 403. Screen managers (screen:list, of 全部) read every screen. Other
 * staff read a screen one of their menus leads to, and any enabled one that draws only what they may
 * see: a big screen always, a list, form or tab screen when they may list every view it draws. A list
 * or tab screen a menu grants is answered with the views the user may list, so each of its tabs opens.
 */
export async function readableScreen<T extends ScreenRow>(ctx: AppContext, user: SessionUser, row: T): Promise<T> {
  if (user.dataScope.all && hasPermission(user.roles, 'screen:list')) return row;
  const granted = await menuGrantsScreen(ctx, user, row.id);
  if (!granted && row.status !== 1) throw forbidden();
  if (row.type === 2) return row;
  const views = screenViewsOf({ id: row.id, type: row.type, dis_template: row.disTemplate });
  if (!views) {
    if (granted) return row;
    throw forbidden();
  }
  const found = views.length ? await ctx.db.selectFrom('lc_generation').select(['id', 'dis_menu']).where('id', 'in', views).execute() : [];
  const listable = (id: number) => {
    const view = found.find((v) => v.id === id);
    const component = view && componentNameOf(view.id, view.dis_menu);
    return component !== undefined && hasPermission(user.roles, `${component}:list`);
  };
  if (views.every(listable)) return row;
  if (!granted) throw forbidden();
  if (row.type !== 1 && row.type !== 4) return row;
  return { ...row, disTemplate: withViews(row.disTemplate, views.filter(listable)) };
}

/** Those who build charts and data views: they read any data view. */
export { DATA_VIEW_MANAGERS };

/** Data views read by each big screen's charts, by screen id and the time it was last written. */
const screenDataViews = new Map<string, Set<number>>();

/** Whether an enabled big screen (which every signed-in user may open) reads the data view. */
export async function dataViewOnEnabledScreen(ctx: AppContext, dataViewId: number): Promise<boolean> {
  const screens = await ctx.db
    .selectFrom('lc_screen')
    .select(['id', 'update_time'])
    .where('type', '=', 2)
    .where('status', '=', 1)
    .where('dis_template', 'is not', null)
    .execute();
  for (const s of screens) {
    const key = `${s.id}@${new Date(s.update_time).getTime()}`;
    let used = screenDataViews.get(key);
    if (!used) {
      const row = await ctx.db
        .selectFrom('lc_screen')
        .select(['id', 'name', 'status', 'type', 'dis_template'])
        .where('id', '=', s.id)
        .executeTakeFirst();
      try {
        used = row ? dataViewsOf(bigScreenOf(row)) : new Set();
      } catch {
        // A template the model cannot read names no chart.
        used = new Set();
      }
      for (const k of screenDataViews.keys()) if (k.startsWith(`${s.id}@`)) screenDataViews.delete(k);
      screenDataViews.set(key, used);
    }
    if (used.has(dataViewId)) return true;
  }
  return false;
}

/** A data view's rows: for those who build charts, or for anyone when an enabled big screen draws it. */
export async function requireDataViewReader(ctx: AppContext, req: FastifyRequest, dataViewId: number): Promise<SessionUser> {
  const user = currentUser(req);
  // Builders read any data view, and a data view reads every company's records: builders of 全部 only.
  if (user.dataScope.all && DATA_VIEW_MANAGERS.some((p) => hasPermission(user.roles, p))) return user;
  if (await dataViewOnEnabledScreen(ctx, dataViewId)) return user;
  throw forbidden('DATA_VIEW_FORBIDDEN');
}
