import type { Kysely } from 'kysely';
import type { MenuTreeNode } from '../../src/contract/menus.js';
import type { MenuRoute } from '../../src/shared/menu-route.js';
import type { DB } from '../db/schema.js';

/** One route of the sidebar (the app reads the same type). */
export type RouteNode = MenuRoute;

export async function allMenus(db: Kysely<DB>) {
  return db.selectFrom('sys_menu').selectAll().orderBy('sort').orderBy('id').execute();
}

type Row = Awaited<ReturnType<typeof allMenus>>[number];

/** Menu ids of the user's roles together with every ancestor, so a granted page is never orphaned. */
export async function menuIdsOfUser(db: Kysely<DB>, userId: number, menus: Row[]): Promise<Set<number>> {
  const granted = await db
    .selectFrom('sys_users_roles as ur')
    .innerJoin('sys_roles_menus as rm', 'rm.role_id', 'ur.role_id')
    .select('rm.menu_id')
    .distinct()
    .where('ur.user_id', '=', userId)
    .execute();
  return withAncestors(
    menus,
    granted.map((g) => g.menu_id),
  );
}

/** The menus `ids` together with every ancestor of theirs in `menus`. */
export function withAncestors(menus: readonly { id: number; pid: number | null }[], ids: Iterable<number>): Set<number> {
  const byId = new Map(menus.map((m) => [m.id, m]));
  const out = new Set<number>();
  for (const id of ids) {
    let cur = byId.get(id);
    while (cur && !out.has(cur.id)) {
      out.add(cur.id);
      cur = cur.pid == null ? undefined : byId.get(cur.pid);
    }
  }
  return out;
}

/**
 * Builds the sidebar routes. Paths are stored relative to the parent, except the pages of the
 * low-code engine (`/dev-tools/temp/page/…`, `/…/vBuild/temp/…`), which are stored and answered
 * absolute because the client matches them verbatim. Directories without any page are dropped.
 */
export function buildRoutes(menus: Row[], allowed: (m: Row) => boolean): RouteNode[] {
  const children = new Map<number | null, Row[]>();
  for (const m of menus) {
    if (m.type === 2 || !allowed(m)) continue;
    const list = children.get(m.pid) ?? [];
    list.push(m);
    children.set(m.pid, list);
  }
  const build = (pid: number | null): RouteNode[] => {
    const out: RouteNode[] = [];
    for (const m of children.get(pid) ?? []) {
      const path = m.path ?? '';
      const node: RouteNode = {
        name: m.name || m.title,
        path: path.startsWith('/') || pid != null ? path : `/${path}`,
        hidden: m.hidden,
        component: m.type === 0 ? m.component || (pid == null ? 'Layout' : 'ParentView') : m.component || '',
        meta: { title: m.title, icon: m.icon, noCache: !m.cache },
      };
      if (m.type === 0) {
        const kids = build(m.id);
        if (!kids.length) continue;
        node.alwaysShow = true;
        node.redirect = 'noredirect';
        node.children = kids;
        // A directory holding only hidden pages (designers, print views) keeps their routes but not a sidebar entry.
        if (kids.every((k) => k.hidden)) node.hidden = true;
      }
      out.push(node);
    }
    return out;
  };
  return build(null);
}

/** Every menu, buttons included, as an id/label tree (role assignment). Leaves carry no children key. */
export function menuTree(menus: Row[]): MenuTreeNode[] {
  return treeOf(menus, (m) => ({ id: m.id, label: m.title }));
}

/** A node and, when it has any, the nodes below it. */
export type TreeNode<N> = N & { children?: TreeNode<N>[] };

/** Rows that hang under a parent (pid) as a tree of their nodes, in row order; leaves carry no children key. */
export function treeOf<R extends { id: number; pid: number | null }, N extends object>(rows: R[], node: (r: R) => N): TreeNode<N>[] {
  const byPid = new Map<number | null, R[]>();
  for (const r of rows) byPid.set(r.pid, [...(byPid.get(r.pid) ?? []), r]);
  const build = (pid: number | null): TreeNode<N>[] =>
    (byPid.get(pid) ?? []).map((r) => {
      const children = build(r.id);
      return children.length ? { ...node(r), children } : node(r);
    });
  return build(null);
}

/** The ids of `rootIds` and all their descendants. */
export function subtreeIds(rows: { id: number; pid: number | null }[], rootIds: Iterable<number>): Set<number> {
  const byPid = new Map<number, number[]>();
  for (const r of rows) if (r.pid != null) byPid.set(r.pid, [...(byPid.get(r.pid) ?? []), r.id]);
  const out = new Set<number>();
  const stack = [...rootIds];
  while (stack.length) {
    const id = stack.pop() as number;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(byPid.get(id) ?? []));
  }
  return out;
}
