/**
 * The menu tree of /api/menus/build, flattened into full paths: the sidebar, breadcrumb, header
 * search, tag titles and the dynamic page route all read it from here.
 */
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

export function joinPath(parent: string, child: string): string {
  if (child.startsWith('/')) return child;
  if (/^https?:\/\//.test(child)) return child;
  const base = parent.endsWith('/') ? parent.slice(0, -1) : parent;
  return `${base}/${child}`.replace(/\/{2,}/g, '/');
}

export function flattenMenus(menus: readonly MenuRoute[], parent = '', trail: FlatRoute['trail'] = []): FlatRoute[] {
  const out: FlatRoute[] = [];
  for (const m of menus) {
    const path = joinPath(parent || '/', m.path);
    const here = [...trail, { title: m.meta.title, path }];
    const isDirectory = Boolean(m.children?.length);
    out.push({
      path,
      title: m.meta.title,
      icon: m.meta.icon,
      component: m.component,
      hidden: m.hidden,
      noCache: m.meta.noCache,
      trail: here,
      isDirectory,
    });
    if (m.children?.length) out.push(...flattenMenus(m.children, path, here));
  }
  return out;
}

/** The page a path shows: an exact match, or a low-code screen matched by its last segment. */
export function findRoute(routes: readonly FlatRoute[], pathname: string): FlatRoute | undefined {
  const clean = pathname.replace(/\/+$/, '') || '/';
  const exact = routes.find((r) => !r.isDirectory && r.path === clean);
  if (exact) return exact;
  const screen = /\/vBuild\/temp\/(\d+)$/.exec(clean);
  if (screen) return routes.find((r) => !r.isDirectory && r.path.endsWith(`/vBuild/temp/${screen[1]}`));
  return undefined;
}
