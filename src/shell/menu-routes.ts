/**
 * The menu tree of /api/menus/build, flattened into full paths: the sidebar, breadcrumb, header
 * search, tag titles and the dynamic page route all read it from here.
 */
import { joinMenuPath, menuEntries, screenOfPath, trimPath } from '../model';
import type { MenuRoute } from '../session/session-store';

export interface FlatRoute {
  /** Absolute path, e.g. /stock/dev-tools/temp/page/stockIn/12 or /message/vBuild/temp/97 */
  path: string;
  title: string;
  icon: string | null;
  component: string;
  hidden: boolean;
  noCache: boolean;
  /** Titles from the top-level menu down to this one. */
  trail: { title: string; path: string }[];
  /** Has children (a directory, not a page). */
  isDirectory: boolean;
}

/** A menu's path below its parent's (the model's one rule). */
export const joinPath = joinMenuPath;

export function flattenMenus(menus: readonly MenuRoute[]): FlatRoute[] {
  return menuEntries(menus).map(({ node: m, path, parents }) => ({
    path,
    title: m.meta.title,
    icon: m.meta.icon,
    component: m.component,
    hidden: m.hidden,
    noCache: m.meta.noCache,
    trail: [...parents, { node: m, path }].map((e) => ({ title: e.node.meta.title, path: e.path })),
    isDirectory: Boolean(m.children?.length),
  }));
}

/** The page a path shows: an exact match, or a low-code screen matched by its id. */
export function findRoute(routes: readonly FlatRoute[], pathname: string): FlatRoute | undefined {
  const clean = trimPath(pathname);
  const exact = routes.find((r) => !r.isDirectory && r.path === clean);
  if (exact) return exact;
  const screen = screenOfPath(clean);
  if (screen !== undefined) return routes.find((r) => !r.isDirectory && screenOfPath(r.path) === screen);
  return undefined;
}
