import type { FastifyRequest } from 'fastify';
import { formatDate, roundTo } from '../../src/shared/format.js';
import { scopeKey, scopeOf } from '../access/company.js';
import { currentUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { ensureFacts } from './dashboard-fact-install.js';
import type { Scope } from './dashboard-facts.js';

/** Wire format of the moment a figure was computed. */
export const wireNow = (at = Date.now()) => formatDate(at, 'YYYY-MM-DD HH:mm:ss');

/** How long a figure may be answered from memory to a call without isRefresh=1. */
export const FIGURE_MAX_AGE_MS = 5 * 60_000;
const MAX_ENTRIES = 5000;

interface Cached {
  value: unknown;
  at: number;
}

const caches = new WeakMap<object, Map<string, Cached>>();

/**
 * A figure and when it was computed. With refresh (isRefresh=1) it is computed now, from the records as
 * committed; without, the last one computed for the same key is answered while it is younger than
 * FIGURE_MAX_AGE_MS. The figure's computedAt says which one the caller got.
 */
export async function figure<T extends object>(
  ctx: AppContext,
  key: string,
  refresh: boolean,
  compute: () => Promise<T>,
): Promise<T & { computedAt: string }> {
  let cache = caches.get(ctx.instance);
  if (!cache) {
    cache = new Map();
    caches.set(ctx.instance, cache);
  }
  const now = Date.now();
  const hit = cache.get(key);
  if (!refresh && hit && now - hit.at < FIGURE_MAX_AGE_MS) return { ...(hit.value as T), computedAt: wireNow(hit.at) };
  await ensureFacts(ctx);
  const value = await compute();
  const at = Date.now();
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.delete(key);
  cache.set(key, { value, at });
  return { ...value, computedAt: wireNow(at) };
}

/**
 * The handler of a dashboard figure of the signed-in user's scope (scopeOf): cached per scope under
 * `name`, recomputed on isRefresh=1, answered with when it was computed.
 */
export const scopedFigure =
  <T extends object>(ctx: AppContext, name: string, compute: (scope: Scope) => Promise<T>) =>
  (req: FastifyRequest & { query: { isRefresh: boolean } }) => {
    const scope = scopeOf(currentUser(req));
    return figure(ctx, `${name}|${scopeKey(scope)}`, req.query.isRefresh, () => compute(scope));
  };

/** Local calendar dates the figures are bucketed by, YYYY-MM-DD. */
export function dates(now = new Date()) {
  const day = (d: Date) => formatDate(d, 'YYYY-MM-DD');
  const plusDays = (n: number) => new Date(now.getFullYear(), now.getMonth(), now.getDate() + n);
  return {
    today: day(now),
    yearStart: `${now.getFullYear()}-01-01`,
    yearEnd: `${now.getFullYear()}-12-31`,
    year: now.getFullYear(),
    plusDays: (n: number) => day(plusDays(n)),
    /** First day of the month `back` months before this one. */
    monthStart: (back: number) => day(new Date(now.getFullYear(), now.getMonth() - back, 1)),
  };
}

/** Tons and money as the dashboards show them: 3 decimals, rounded on the decimal value. */
export const three = (n: number) => roundTo(n, 3);
