import { createContext, useCallback, useContext, useRef } from 'react';
import { http, type QueryParams, RequestError, type RequestOptions, useLookup } from '../../request';
import { figureQuery, takePrefetched } from './prefetch';

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
async function loadFigure<T>(url: string, query: QueryParams, first: boolean, signal: AbortSignal): Promise<T> {
  try {
    return await ((first && takePrefetched<T>(url, query)) || http.get<T>(url, query, { ...FIGURE_CALL, signal }));
  } catch (e) {
    // An ended session gets the app's re-login confirm; a refused block says so in its place.
    if (e instanceof RequestError && e.status === 401) http.config.onUnauthorized?.(e, FIGURE_CALL);
    throw e;
  }
}

/**
 * One dashboard call on the app's loader. The first load uses `isRefresh` as the page was opened
 * with it; every later reload through the block's refresh control forces `isRefresh=1` (or not, as
 * it asks). A reload while one is under way supersedes it: only the last answer is kept.
 */
export function useFigure<T>(url: string | null, params: QueryParams = {}, refreshFirst?: boolean): FigureState<T> {
  const all = useContext(RefreshAll);
  // What the next load asks: computed now or not, and whether a reload has been asked for yet.
  const next = useRef({ refresh: refreshFirst ?? all, reloaded: false });
  const figure = useLookup<T>(url === null ? null : `${url}?${JSON.stringify(params)}`, (signal) =>
    loadFigure<T>(url as string, figureQuery(params, next.current.refresh), !next.current.reloaded, signal),
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
