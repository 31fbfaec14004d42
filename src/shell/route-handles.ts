/**
 * What the tag bar and breadcrumb know about a path: the route table's `handle` (static pages) or
 * the session's menus (pages the server grants). Pure, so the rules are unit-tested.
 */
import type { RouteObject } from 'react-router-dom';
import type { RouteHandle } from '../app/router';
import { trimPath } from '../model';
import { lowcodeTitle } from '../navigation/page-titles';
import { type FlatRoute, findRoute } from './menu-routes';

/** The handles of the route table's fixed paths (no params, no splats), by absolute path. */
export function staticHandles(routes: readonly RouteObject[], parent = ''): Map<string, RouteHandle> {
  const out = new Map<string, RouteHandle>();
  for (const r of routes) {
    const path = r.path === undefined ? parent : r.path.startsWith('/') ? r.path : `${parent.replace(/\/$/, '')}/${r.path}`;
    const handle = r.handle as RouteHandle | undefined;
    if (handle && r.path !== undefined && !/[:*]/.test(path)) out.set(path, handle);
    if (r.children) for (const [p, h] of staticHandles(r.children, path)) out.set(p, h);
  }
  return out;
}

/** Paths whose tag is pinned (handle.affix), in route-table order. */
export function affixPaths(handles: ReadonlyMap<string, RouteHandle>): { path: string; title: string }[] {
  return [...handles].filter(([, h]) => h.affix).map(([path, h]) => ({ path, title: h.title }));
}

export interface PageInfo {
  path: string;
  title: string;
  affix: boolean;
  noCache: boolean;
}

/** What the shell knows about paths: the route table's handles, the user's menus and the low-code pages' names (by path). */
export interface RouteSources {
  handles: ReadonlyMap<string, RouteHandle>;
  menus: readonly FlatRoute[];
  titles?: ReadonlyMap<string, string>;
}

const NO_TITLES: ReadonlyMap<string, string> = new Map();

/**
 * A path without trailing slashes, its route-table handle (the matched route's, when given), its
 * menu entry and, when it is a low-code page's address, that page's name.
 */
export function lookUpPath(pathname: string, { handles, menus, titles = NO_TITLES }: RouteSources, matched?: RouteHandle) {
  const path = trimPath(pathname);
  return { path, handle: matched ?? handles.get(path), menu: findRoute(menus, path), lowcode: lowcodeTitle(path, titles) };
}

/**
 * The tag a path gets, or null when it gets none: hidden routes (401, 404, /redirect) and paths
 * that are neither in the route table, nor in the user's menus, nor a low-code page's address
 * (those are sent to /abandonhome). A page's menu names it where it has one (the sidebar and the tag
 * agree: /dashboard is the 监管看板 of a supervisor), else the route table; 首页, the pinned home, is
 * always 首页; a low-code page no menu names takes its definition's name.
 */
export function pageInfo(pathname: string, sources: RouteSources, matched?: RouteHandle): PageInfo | null {
  const { path, handle, menu, lowcode } = lookUpPath(pathname, sources, matched);
  if (handle) {
    if (handle.hidden || !handle.title) return null;
    const title = menu?.title && !handle.affix ? menu.title : handle.title;
    return { path, title, affix: Boolean(handle.affix), noCache: Boolean(handle.noCache || menu?.noCache) };
  }
  if (menu) return { path, title: menu.title, affix: false, noCache: menu.noCache };
  return lowcode ? { path, title: lowcode, affix: false, noCache: false } : null;
}
