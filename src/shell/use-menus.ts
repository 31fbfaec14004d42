import { useMemo } from 'react';
import { type SessionState, useSession } from '../session/session-store';
import { type FlatRoute, flattenMenus } from './menu-routes';

const cache = new WeakMap<SessionState['menus'], FlatRoute[]>();

/** The session's menus flattened once per menu tree. */
export function flatMenusOf(menus: SessionState['menus']): FlatRoute[] {
  let flat = cache.get(menus);
  if (!flat) {
    flat = flattenMenus(menus);
    cache.set(menus, flat);
  }
  return flat;
}

export function useFlatMenus(): FlatRoute[] {
  const { menus } = useSession();
  return useMemo(() => flatMenusOf(menus), [menus]);
}
