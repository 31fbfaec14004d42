import { createContext, useCallback, useContext, useRef } from 'react';
import type { z } from 'zod';
import type { CallAnswer, CallInput, CallSpec } from '../../contract/define';
import { api, http, type QueryParams, RequestError, type RequestOptions, useLookup } from '../../request';
import { figureQuery, takePrefetched } from './prefetch';

/** A call a block loads: a read of the contract that answers JSON. */
export type FigureCall = CallSpec & { method: 'GET'; answer: z.ZodType };

/** What a block passes to its call: the call's query without `isRefresh`, which the block adds. */
export type FigureQuery<C extends CallSpec> = C['query'] extends z.ZodType
  ? Omit<z.input<C['query']>, 'isRefresh'>
  : Record<string, unknown>;

/** A figure the server computed, with when it was computed (`computedAt`, `YYYY-MM-DD HH:mm:ss`). */
export interface FigureState<T> {
  data: T | null;
  loading: boolean;
  /** The server's message when the last load failed; the last figure stays shown. */
  error: string | null;
  /** Loads again; `refresh` asks the server to compute it now (`isRefresh=1`) instead of its cached figure. */
  reload: (refresh?: boolean) => void;
}

/**
 * How a block calls: failures are shown in the block itself, not as a toast, and a call the user may
 * not make (403) leaves the rest of the home on screen instead of going to /401.
 */
export const FIGURE_CALL: RequestOptions = { silent: true, skipAuthHandlers: true };

/** Whether the page was opened (or reloaded as a whole) to have every figure computed now. */
export const RefreshAll = createContext(false);

/** One dashboard call: the answer asked for ahead of time when `first` and there is one, else the call. */
async function loadFigure<T, C extends FigureCall>(call: C, query: QueryParams, first: boolean, signal: AbortSignal): Promise<T> {
  try {
    return await ((first && takePrefetched<T>(call, query)) ||
      (api(call, { query } as CallInput<C>, { ...FIGURE_CALL, signal }) as Promise<T>));
  } catch (e) {
    // An ended session gets the app's re-login confirm; a refused block says so in its place.
    if (e instanceof RequestError && e.status === 401) http.config.onUnauthorized?.(e, FIGURE_CALL);
    throw e;
  }
}

/**
 * One dashboard call on the app's loader. The first load uses `isRefresh` as the page was opened
 * with it; every later reload through the block's refresh control forces `isRefresh=1` (or not, as
 * it asks; sent to every call: one that reads no `isRefresh` ignores it). A reload while one is under
 * way supersedes it: only the last answer is kept. The answer is the call's, unless the caller names
 * the type it reads it as (`T`).
 */
export function useFigure<T = never, C extends FigureCall = FigureCall>(
  call: C | null,
  query: FigureQuery<C> = {} as FigureQuery<C>,
  refreshFirst?: boolean,
): FigureState<[T] extends [never] ? CallAnswer<C> : T> {
  type Answer = [T] extends [never] ? CallAnswer<C> : T;
  const all = useContext(RefreshAll);
  // What the next load asks: computed now or not, and whether a reload has been asked for yet.
  const next = useRef({ refresh: refreshFirst ?? all, reloaded: false });
  const params = query as QueryParams;
  const figure = useLookup<Answer>(call === null ? null : `${call.method} ${call.path}?${JSON.stringify(params)}`, (signal) =>
    loadFigure<Answer, C>(call as C, figureQuery(params, next.current.refresh), !next.current.reloaded, signal),
  );
  const { reload: again } = figure;
  const reload = useCallback(
    (refresh = true) => {
      next.current = { refresh, reloaded: true };
      again();
    },
    [again],
  );
  return { data: figure.data ?? null, loading: figure.loading, error: figure.error, reload };
}
