/**
 * The top bar's breadcrumb: the menu trail of the page (or the route table's
 * title), prefixed by 首页 unless the trail starts at the dashboard. Directories and the current
 * page are not links. Pure, so the rules are unit-tested.
 */

import type { RouteHandle } from '../app/router';
import { APP_PATHS } from '../shared/app-paths';
import { lookUpPath, type RouteSources } from './route-handles';

export interface Crumb {
  title: string;
  /** Where clicking goes; absent for directories and the current page. */
  path?: string;
}

export const HOME_CRUMB: Crumb = { title: '首页', path: APP_PATHS.home };

/**
 * null for /redirect/… paths: the breadcrumb keeps showing the page being refreshed. A low-code
 * page no menu names is one crumb, its definition's name (`titles`, by path).
 */
export function breadcrumbFor(pathname: string, sources: RouteSources, matched?: RouteHandle): Crumb[] | null {
  if (pathname === APP_PATHS.redirect || pathname.startsWith(`${APP_PATHS.redirect}/`)) return null;
  const { path, handle, menu, lowcode } = lookUpPath(pathname, sources, matched);
  let crumbs: Crumb[];
  if (menu) {
    crumbs = menu.trail.map((t) => ({ title: t.title }));
    // The page is named as its tag names it: by its menu, except a pinned page (首页) by the route table.
    if (handle?.title && !handle.hidden && handle.affix) crumbs[crumbs.length - 1] = { title: handle.title };
  } else if (handle?.title && !handle.hidden) {
    crumbs = [{ title: handle.title }];
  } else {
    crumbs = lowcode ? [{ title: lowcode }] : [];
  }
  const first = menu ? menu.trail[0]?.path : path;
  if (first === APP_PATHS.dashboard && crumbs.length) return crumbs;
  if (path === HOME_CRUMB.path) return [{ title: HOME_CRUMB.title }];
  return [HOME_CRUMB, ...crumbs];
}
