import type { CallInput, CallSpec } from '../../contract/define';
import { api, type QueryParams } from '../../request';

/**
 * Figures asked for before the dashboard is on screen: right after the login call answers, the
 * dashboard's own calls go out alongside the session's, and the blocks take those answers instead of
 * asking again. An answer is taken once, and only within a few seconds of being asked for.
 */
const KEEP_MS = 10_000;
const pending = new Map<string, { at: number; answer: Promise<unknown> }>();

/** The query of a dashboard call: its parameters and whether the figure is to be computed now. */
export function figureQuery(params: QueryParams, refresh: boolean): QueryParams {
  return { ...params, isRefresh: refresh ? 1 : 0 };
}

const keyOf = (call: CallSpec, query: QueryParams) => `${call.path}?${JSON.stringify(query)}`;

export function prefetchFigure<C extends CallSpec>(call: C, query: QueryParams): void {
  const answer = api(call, { query } as CallInput<C>, { silent: true, skipAuthHandlers: true });
  // A failed prefetch is asked again by the block, which shows the failure itself.
  answer.catch(() => {});
  pending.set(keyOf(call, query), { at: Date.now(), answer });
}

/** The answer asked for ahead of time to exactly this call, if it is still fresh; taken once. */
export function takePrefetched<T>(call: CallSpec, query: QueryParams): Promise<T> | undefined {
  const key = keyOf(call, query);
  const hit = pending.get(key);
  pending.delete(key);
  if (!hit || Date.now() - hit.at > KEEP_MS) return undefined;
  return hit.answer as Promise<T>;
}
