import type { z } from 'zod';
import { type menuBody, menus } from '../../src/contract/menus.js';
import { menuEntries, trimPath, withoutQuery } from '../../src/model/index.js';
import { DASHBOARD_COMPONENT, DASHBOARD_TITLES, dashboardKind } from '../../src/shared/dashboard-kind.js';
import { designsScreens, screensByMenu, screensOpened } from '../access/screens.js';
import type { App } from '../app.js';
import { currentUser, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { allMenus, buildRoutes, menuIdsOfUser, menuTree, subtreeIds, withAncestors } from '../lib/accounts-menus.js';
import { checkedParent, done, exists, treeLevelPage, trimmed } from '../lib/admin-input.js';
import { containing } from '../lib/sql.js';
import { registerResource, writerOf } from './register.js';

/** Menus: the signed-in user's routes, and the menu tree administrators edit. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  const permissionsOf = (text: string | null | undefined) =>
    (text ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);

  /**
   * A menu's permission is held by every role granted the menu, its editor's too: one who is not an
   * administrator adds to a menu only permissions it holds itself (never `admin` or the wildcard).
   * Permissions the menu has already may stay.
   */
  const assertHeldPermissions = async (me: SessionUser, permission: string | null, currentId: number | null) => {
    if (me.isAdmin || !permission) return;
    const current =
      currentId === null ? undefined : await db.selectFrom('sys_menu').select('permission').where('id', '=', currentId).executeTakeFirst();
    const kept = new Set(permissionsOf(current?.permission));
    if (permissionsOf(permission).some((p) => !kept.has(p) && !me.roles.includes(p))) throw forbidden('MENU_PERMISSION_NOT_HELD');
  };

  /**
   * A page menu that opens a screen's address opens the screen to every role granted it, and a role's
   * menus count with their ancestors (a granted button makes its page granted). One who neither is an
   * administrator nor designs screens makes no role reach a screen that its own menus do not open
   * already: the edit is judged by the screens each role's menus lead to after it and did not before.
   * A page's address is its path alone or below its parents', so this covers an edit of a directory's
   * path, parent or type (every page below it moves), and a menu moved under a screen's page (the page
   * becomes granted with it). What each role reaches now may stay.
   */
  const assertHeldScreens = async (
    me: SessionUser,
    edit: { type: number; path: string | null; pid: number | null },
    currentId: number | null,
  ) => {
    if (me.isAdmin || designsScreens(me)) return;
    const menus = await allMenus(db);
    const editedId = currentId ?? -1;
    const after =
      currentId === null ? [...menus, { id: editedId, ...edit }] : menus.map((m) => (m.id === currentId ? { ...m, ...edit } : m));
    const own = await screensByMenu(ctx);
    const grants = await db.selectFrom('sys_roles_menus').select(['role_id', 'menu_id']).execute();
    const byRole = new Map<number, number[]>();
    for (const g of grants) byRole.set(g.role_id, [...(byRole.get(g.role_id) ?? []), g.menu_id]);
    // The edited menu and every menu below it, as though granted: a page that comes to open a screen opens
    // it to whoever is given the page later.
    byRole.set(-1, [...subtreeIds(after, [editedId])]);
    const wanted = new Set<number>();
    // Roles granted the same menus (a company's copies of one role) reach the same screens: judged once.
    const judged = new Set<string>();
    for (const ids of byRole.values()) {
      const key = ids.sort((a, b) => a - b).join(',');
      if (judged.has(key)) continue;
      judged.add(key);
      const before = screensOpened(menus, withAncestors(menus, ids), own);
      for (const id of screensOpened(after, withAncestors(after, ids), own)) if (!before.has(id)) wanted.add(id);
    }
    if (!wanted.size) return;
    const held = screensOpened(menus, await menuIdsOfUser(db, me.id, menus), own);
    if ([...wanted].some((id) => !held.has(id))) throw forbidden('MENU_SCREEN_NOT_HELD');
  };

  const menuValues = async (me: SessionUser, body: z.infer<typeof menuBody>, currentId: number | null) => {
    const title = (body.title ?? '').trim();
    if (!title) throw badRequest('MENU_TITLE_REQUIRED');
    const type = body.type ?? 1;
    if (![0, 1, 2].includes(type)) throw badRequest('MENU_TYPE_INVALID');
    const path = trimmed(body.path);
    const permission = trimmed(body.permission);
    if (type !== 2 && !path) throw badRequest('MENU_PATH_REQUIRED');
    if (type === 2 && !permission) throw badRequest('MENU_PERMISSION_REQUIRED');
    await assertHeldPermissions(me, permission, currentId);
    const pid = await checkedParent(db, 'sys_menu', body.pid, currentId, { missing: 'PARENT_MENU_NOT_FOUND', cycle: 'PARENT_MENU_CYCLE' });
    await assertHeldScreens(me, { type, path, pid }, currentId);
    return {
      pid,
      type,
      title,
      name: trimmed(body.componentName ?? body.name),
      component: trimmed(body.component),
      path,
      icon: trimmed(body.icon),
      permission,
      sort: body.menuSort ?? body.sort ?? 999,
      hidden: body.hidden ?? false,
      cache: body.cache ?? false,
      i_frame: body.iFrame ?? false,
    };
  };

  registerResource(app, menus, {
    build: async (req) => {
      const me = currentUser(req);
      // The home's entry is named as the home the user gets (监管看板, 物流看板…), as its page is.
      const home = DASHBOARD_TITLES[dashboardKind(me)];
      const all = (await allMenus(db)).map((m) => (m.type === 1 && m.component === DASHBOARD_COMPONENT ? { ...m, title: home } : m));
      if (me.isAdmin) return buildRoutes(all, () => true);
      const ids = await menuIdsOfUser(db, me.id, all);
      return buildRoutes(all, (m) => ids.has(m.id));
    },
    page: async (req) => {
      const wanted = trimPath(withoutQuery(req.query.path));
      const found = menuEntries(buildRoutes(await allMenus(db), () => true)).find((e) => !e.node.children?.length && e.path === wanted);
      return { title: found?.node.meta.title ?? null };
    },
    tree: async () => menuTree(await allMenus(db)),
    list: async (req) => {
      const pid = req.query.pid || null;
      let q = db.selectFrom('sys_menu as m').selectAll('m');
      const b = req.query.blurry?.trim();
      if (b) q = q.where('m.title', 'ilike', containing(b));
      else q = pid === null ? q.where('m.pid', 'is', null) : q.where('m.pid', '=', pid);
      const rows = await q
        .select((eb) => eb.exists(eb.selectFrom('sys_menu as c').select('c.id').whereRef('c.pid', '=', 'm.id')).as('has_children'))
        .orderBy('m.sort')
        .orderBy('m.id')
        .execute();
      return treeLevelPage(rows, (m) => ({
        id: m.id,
        pid: m.pid,
        type: m.type,
        title: m.title,
        componentName: m.name,
        component: m.component,
        path: m.path,
        icon: m.icon,
        permission: m.permission,
        menuSort: m.sort,
        hidden: m.hidden,
        cache: m.cache,
        iFrame: m.i_frame,
      }));
    },
    add: async (req) => {
      const values = await menuValues(currentUser(req), req.body, null);
      const row = await writerOf(req).insertInto('sys_menu').values(values).returning('id').executeTakeFirstOrThrow();
      ctx.sessions.invalidate();
      return { id: row.id };
    },
    edit: async (req) => {
      if (!req.body.id) throw badRequest('MENU_ID_REQUIRED');
      if (!(await exists(db, 'sys_menu', [req.body.id]))) throw notFound('MENU_NOT_FOUND');
      const values = await menuValues(currentUser(req), req.body, req.body.id);
      await writerOf(req).updateTable('sys_menu').set(values).where('id', '=', req.body.id).execute();
      ctx.sessions.invalidate();
      return done();
    },
    remove: async (req) => {
      // Children go with their parent (sys_menu.pid cascades), and with them their role links.
      await writerOf(req).deleteFrom('sys_menu').where('id', 'in', req.body).execute();
      ctx.sessions.invalidate();
      return done('删除成功');
    },
  });
}
