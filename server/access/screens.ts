import type { FastifyRequest } from 'fastify';
import { DATA_VIEW_MANAGERS } from '../../src/contract/data-views.js';
import { joinMenuPath, screenOfPath } from '../../src/model/index.js';
import { currentUser, hasPermission, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { type ErrorCode, forbidden } from '../errors.js';
import { allMenus, menuIdsOfUser } from '../lib/accounts-menus.js';
import { bigScreenOf, dataViewsOf } from '../lowcode/screen-share.js';
import { componentNameOf, screenViewsOf } from '../lowcode/view-model.js';

/**
 * Who may see screen S, and the data views behind it. One rule, read by every call that answers a
 * screen or a data view's rows:
 *
 * - Screen designers of 全部 (screen:list, screen:edit or screen:design) see every screen; data-view and
 *   chart builders of 全部 (DATA_VIEW_MANAGERS) run every data view.
 * - Anyone else sees a screen one of their menus leads to: a page menu whose path opens the screen's
 *   address (`…/vBuild/temp/{id}`), or the screen's own menu (its menuId) when that menu is granted.
 * - A list, form or tab screen (types 1, 3, 4) draws only views: it is also open, when enabled, to
 *   anyone who may list every view it draws, since it shows nothing their own list pages do not.
 * - A big screen (type 2) shows every company's figures: only a menu opens it. Its data views run for
 *   a user who may see an enabled big screen whose charts read them.
 * - Without a session, a big screen and its data views are read only through a valid share link
 *   (/api/open/*, checked by verifyShare), never through these calls.
 */

/** The code a screen outside the user's menus is refused with. */
export const SCREEN_FORBIDDEN = 'SCREEN_FORBIDDEN' satisfies ErrorCode;

/** Permissions of those who design screens: with 全部 they read every screen. */
export const SCREEN_DESIGNERS = ['screen:list', 'screen:edit', 'screen:design'] as const;

/** Whether the user designs screens for the whole platform. */
export function designsScreens(user: SessionUser): boolean {
  return user.dataScope.all && SCREEN_DESIGNERS.some((p) => hasPermission(user.roles, p));
}

/** Whether the user builds data views or charts for the whole platform: they run any data view. */
export function buildsDataViews(user: SessionUser): boolean {
  return user.dataScope.all && DATA_VIEW_MANAGERS.some((p) => hasPermission(user.roles, p));
}

/** A menu's address below its parents' ('/' for none), by id. */
function menuPaths(menus: readonly { id: number; pid: number | null; path: string | null }[]): (id: number | null) => string {
  const byId = new Map(menus.map((m) => [m.id, m]));
  const fullPath = (id: number | null): string => {
    const m = id == null ? undefined : byId.get(id);
    if (!m) return '/';
    const parent = m.pid == null ? '/' : fullPath(m.pid);
    return m.path ? joinMenuPath(parent, m.path) : parent;
  };
  return fullPath;
}

/** A menu as the screens it leads to are worked out from. */
export interface ScreenMenu {
  id: number;
  pid: number | null;
  type: number;
  path: string | null;
}

/** The screens whose own menu is each menu, by menu id. */
export async function screensByMenu(ctx: AppContext): Promise<Map<number, number[]>> {
  const rows = await ctx.db.selectFrom('lc_screen').select(['id', 'menu_id']).where('menu_id', 'is not', null).execute();
  const out = new Map<number, number[]>();
  for (const r of rows) if (r.menu_id !== null) out.set(r.menu_id, [...(out.get(r.menu_id) ?? []), r.id]);
  return out;
}

/**
 * The screens granted menus lead to (`granted` with its ancestors, as a user's menus are): each page menu
 * (not a directory or a button) whose path, alone or below its parents', opens a screen's address, and
 * each screen whose own menu is such a page.
 */
export function screensOpened(menus: readonly ScreenMenu[], granted: ReadonlySet<number>, own: ReadonlyMap<number, number[]>): Set<number> {
  const fullPath = menuPaths(menus);
  const out = new Set<number>();
  // Pages only: a directory is granted with any page below it, and a button grants no address.
  for (const m of menus) {
    if (m.type !== 1 || !granted.has(m.id)) continue;
    for (const path of [m.path, fullPath(m.id)]) {
      const id = screenOfPath(path);
      if (id !== undefined) out.add(id);
    }
    for (const id of own.get(m.id) ?? []) out.add(id);
  }
  return out;
}

/** The screens the user's menus lead to (see screensOpened). */
export async function screensOfMenus(ctx: AppContext, user: SessionUser): Promise<Set<number>> {
  const menus = await allMenus(ctx.db);
  const granted = user.isAdmin ? new Set(menus.map((m) => m.id)) : await menuIdsOfUser(ctx.db, user.id, menus);
  if (!menus.some((m) => m.type === 1 && granted.has(m.id))) return new Set();
  return screensOpened(menus, granted, await screensByMenu(ctx));
}

/** Whether one of the user's menus leads to the screen. */
export async function menuGrantsScreen(ctx: AppContext, user: SessionUser, screenId: number): Promise<boolean> {
  return (await screensOfMenus(ctx, user)).has(screenId);
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
 * The screen as the user may read it, or 403 SCREEN_FORBIDDEN (see the rule above). A list or tab screen
 * a menu grants is answered with the views the user may list, so each of its tabs opens.
 */
export async function readableScreen<T extends ScreenRow>(ctx: AppContext, user: SessionUser, row: T): Promise<T> {
  if (designsScreens(user)) return row;
  const granted = await menuGrantsScreen(ctx, user, row.id);
  if (row.type === 2) {
    if (granted) return row;
    throw forbidden(SCREEN_FORBIDDEN);
  }
  if (!granted && row.status !== 1) throw forbidden(SCREEN_FORBIDDEN);
  const views = screenViewsOf({ id: row.id, type: row.type, dis_template: row.disTemplate });
  if (!views) {
    if (granted) return row;
    throw forbidden(SCREEN_FORBIDDEN);
  }
  const found = views.length ? await ctx.db.selectFrom('lc_generation').select(['id', 'dis_menu']).where('id', 'in', views).execute() : [];
  const listable = (id: number) => {
    const view = found.find((v) => v.id === id);
    const component = view && componentNameOf(view.id, view.dis_menu);
    return component !== undefined && hasPermission(user.roles, `${component}:list`);
  };
  if (views.every(listable)) return row;
  if (!granted) throw forbidden(SCREEN_FORBIDDEN);
  if (row.type !== 1 && row.type !== 4) return row;
  return { ...row, disTemplate: withViews(row.disTemplate, views.filter(listable)) };
}

/** Data views read by each big screen's charts, by screen id and the time it was last written. */
const screenDataViews = new Map<string, Set<number>>();

/** The enabled big screens whose charts read the data view. */
export async function enabledScreensReading(ctx: AppContext, dataViewId: number): Promise<number[]> {
  const screens = await ctx.db
    .selectFrom('lc_screen')
    .select(['id', 'update_time'])
    .where('type', '=', 2)
    .where('status', '=', 1)
    .where('dis_template', 'is not', null)
    .execute();
  const out: number[] = [];
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
    if (used.has(dataViewId)) out.push(s.id);
  }
  return out;
}

/**
 * A data view's rows: for builders of 全部, or for a user whose menus lead to an enabled big screen
 * whose charts read it; 403 DATA_VIEW_FORBIDDEN otherwise (whether or not the data view exists).
 */
export async function requireDataViewReader(ctx: AppContext, req: FastifyRequest, dataViewId: number): Promise<SessionUser> {
  const user = currentUser(req);
  if (buildsDataViews(user)) return user;
  const screens = await enabledScreensReading(ctx, dataViewId);
  if (screens.length) {
    const mine = await screensOfMenus(ctx, user);
    if (screens.some((id) => mine.has(id))) return user;
  }
  throw forbidden('DATA_VIEW_FORBIDDEN');
}
