import { findMenu } from '../../model';
import type { MenuRoute } from '../../shared/menu-route';

/**
 * The full path of the menu page named `name` (the menu's route name), or null when the user's menus
 * have no such page. Named routes let a link survive a menu being moved to another section.
 */
export function pathOfNamedRoute(menus: readonly MenuRoute[], name: string): string | null {
  return findMenu(menus, (m) => m.name === name && !m.children?.length)?.path ?? null;
}

/** The full path of the user's menu page whose component is `component`, or null when none is. */
export function pathOfComponent(menus: readonly MenuRoute[], component: string): string | null {
  return findMenu(menus, (m) => m.component === component && !m.children?.length)?.path ?? null;
}

/** A link's query: a value, or several (each its own parameter, as a list's search reads several choices). */
export type RouteQuery = Record<string, string | number | readonly (string | number)[]>;

/** The address of a named route with its query, or null when the route is not among the user's menus. */
export function namedRouteHref(menus: readonly MenuRoute[], name: string, query: RouteQuery = {}): string | null {
  const path = pathOfNamedRoute(menus, name);
  if (!path) return null;
  const qs = new URLSearchParams(
    Object.entries(query).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((one): [string, string] => [k, String(one)])),
  ).toString();
  return qs ? `${path}?${qs}` : path;
}
