import { useContext, useMemo } from 'react';
import { type RouteObject, UNSAFE_DataRouterContext, useMatches } from 'react-router-dom';
import type { RouteHandle } from '../app/router';
import { staticHandles } from './route-handles';

const cache = new WeakMap<readonly RouteObject[], Map<string, RouteHandle>>();
const EMPTY = new Map<string, RouteHandle>();

/** The route table's handles by fixed path, read from the router the app runs (no import cycle with router.tsx). */
export function useRouteHandles(): ReadonlyMap<string, RouteHandle> {
  const routes = useContext(UNSAFE_DataRouterContext)?.router.routes as readonly RouteObject[] | undefined;
  return useMemo(() => {
    if (!routes) return EMPTY;
    let map = cache.get(routes);
    if (!map) {
      map = staticHandles(routes);
      cache.set(routes, map);
    }
    return map;
  }, [routes]);
}

/** The handle of the deepest matched route (undefined for menu pages, which have none). */
export function useMatchedHandle(): RouteHandle | undefined {
  const matches = useMatches();
  return matches[matches.length - 1]?.handle as RouteHandle | undefined;
}
