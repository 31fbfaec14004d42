import type { Kysely } from 'kysely';
import { readMenu, VIEW_PAGE_COMPONENT, viewPath } from '../../src/model/index.js';
import type { DB } from '../db/schema.js';
import { badRequest } from '../errors.js';

/** The buttons a view's page offers, each a permission `{componentName}:{action}` roles can be granted. */
const VIEW_BUTTONS = [
  ['add', '新增'],
  ['edit', '编辑'],
  ['del', '删除'],
  ['look', '查看'],
  ['pre', '高级查询'],
] as const;

/** Refuses a parent menu (disMenu.pid) that does not exist, before anything is written. */
export async function checkParentMenu(db: Kysely<DB>, disMenu: string | null): Promise<void> {
  const { pid } = readMenu(disMenu);
  if (pid != null && !(await db.selectFrom('sys_menu').select('id').where('id', '=', pid).executeTakeFirst()))
    throw badRequest('PARENT_MENU_NOT_FOUND');
}

/**
 * A published view's page in the menu tree: its menu (at the page's route, under the parent named by
 * disMenu.pid, null for the top level) and one button per action, created on first publish and
 * brought in line on each later one. Returns whether the menus changed, so the caller can tell the sessions.
 */
export async function syncViewMenu(db: Kysely<DB>, viewId: number): Promise<boolean> {
  const view = await db.selectFrom('lc_generation').select(['name', 'menu_id', 'dis_menu']).where('id', '=', viewId).executeTakeFirst();
  if (!view) return false;
  const { componentName, pid } = readMenu(view.dis_menu);
  if (!componentName) return false;
  await checkParentMenu(db, view.dis_menu);
  const page = {
    title: view.name,
    name: componentName,
    component: VIEW_PAGE_COMPONENT,
    path: viewPath(componentName, viewId),
    permission: `${componentName}:list`,
  };
  // Only the view's own page menu (the low-code page at this view's route) is brought in line: a menu id
  // set on the view that names another page (a core page, another view's) is not rewritten.
  const existing =
    view.menu_id == null
      ? undefined
      : await db
          .selectFrom('sys_menu')
          .select(['id', 'type'])
          .where('id', '=', view.menu_id)
          .where('type', '=', 1)
          .where('component', '=', VIEW_PAGE_COMPONENT)
          .where('path', 'like', viewPath('%', viewId))
          .executeTakeFirst();
  // A view's permissions are its own: a componentName whose permissions a menu outside its page carries
  // (a core page's such as user or role, another view's) is refused, so publishing grants nothing else.
  const taken = await db
    .selectFrom('sys_menu')
    .select('id')
    .where('permission', 'like', `${componentName.replace(/[\\%_]/g, '\\$&')}:%`)
    .where((eb) =>
      existing ? eb.and([eb('id', '<>', existing.id), eb.or([eb('pid', 'is', null), eb('pid', '<>', existing.id)])]) : eb.val(true),
    )
    .executeTakeFirst();
  if (taken) throw badRequest('VIEW_PERMISSION_TAKEN', { name: componentName });
  let menuId: number;
  // A view defined through the API without a parent (disMenu has no pid) gets no menu of its own: its author adds one.
  if (!existing && pid === undefined) return false;
  if (existing) {
    menuId = existing.id;
    await db
      .updateTable('sys_menu')
      .set({ ...page, ...(pid !== undefined ? { pid } : {}) })
      .where('id', '=', menuId)
      .execute();
  } else {
    const row = await db
      .insertInto('sys_menu')
      .values({ ...page, pid: pid ?? null, type: 1, sort: 999, hidden: false, cache: false, i_frame: false })
      .returning('id')
      .executeTakeFirstOrThrow();
    menuId = row.id;
    await db.updateTable('lc_generation').set({ menu_id: menuId }).where('id', '=', viewId).execute();
  }
  const buttons = await db.selectFrom('sys_menu').select(['id', 'permission']).where('pid', '=', menuId).where('type', '=', 2).execute();
  for (const [i, [action, label]] of VIEW_BUTTONS.entries()) {
    const permission = `${componentName}:${action}`;
    const known = buttons.find((b) => b.permission?.endsWith(`:${action}`));
    if (known)
      await db
        .updateTable('sys_menu')
        .set({ permission, title: `${view.name}${label}` })
        .where('id', '=', known.id)
        .execute();
    else
      await db
        .insertInto('sys_menu')
        .values({
          pid: menuId,
          type: 2,
          title: `${view.name}${label}`,
          permission,
          sort: i + 1,
          hidden: false,
          cache: false,
          i_frame: false,
        })
        .execute();
  }
  return true;
}

/**
 * Deletes the page menus of views about to be deleted (their buttons cascade): only a menu that draws
 * that view (the low-code page component at the view's route), never a directory or another page.
 * Returns how many went.
 */
export async function dropViewMenus(db: Kysely<DB>, viewIds: readonly number[]): Promise<number> {
  if (!viewIds.length) return 0;
  const views = await db
    .selectFrom('lc_generation')
    .select(['id', 'menu_id'])
    .where('id', 'in', [...viewIds])
    .execute();
  const menuIds = views.flatMap((v) => (v.menu_id == null ? [] : [{ menu: v.menu_id, view: v.id }]));
  let dropped = 0;
  for (const { menu, view } of menuIds) {
    const r = await db
      .deleteFrom('sys_menu')
      .where('id', '=', menu)
      .where('type', '=', 1)
      .where('component', '=', VIEW_PAGE_COMPONENT)
      .where('path', 'like', viewPath('%', view))
      .executeTakeFirst();
    dropped += Number(r.numDeletedRows);
  }
  return dropped;
}
