import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { http, type QueryParams, RequestError, type RequestOptions } from '../../request';
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

/**
 * Loads one dashboard call. The first load uses `isRefresh` as the page was opened with it; every
 * later reload through the block's refresh control forces `isRefresh=1`. A reload while one is under
 * way supersedes it: only the last answer is kept.
 */
export function useFigure<T>(url: string | null, params: QueryParams = {}, refreshFirst?: boolean): FigureState<T> {
  const all = useContext(RefreshAll);
  const initialRefresh = refreshFirst ?? all;
  const [data, setData] = useState<T | null>(null);
  const [loading, setLoading] = useState(url !== null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState<{ n: number; refresh: boolean }>({ n: 0, refresh: initialRefresh });
  const key = JSON.stringify(params);
  const seq = useRef(0);

  useEffect(() => {
    if (url === null) return;
    const mine = ++seq.current;
    setLoading(true);
    const query = figureQuery(JSON.parse(key) as QueryParams, tick.refresh);
    const answer = (tick.n === 0 && takePrefetched<T>(url, query)) || http.get<T>(url, query, FIGURE_CALL);
    answer
      .then((answer) => {
        if (mine !== seq.current) return;
        setData(answer);
        setError(null);
      })
      .catch((e: unknown) => {
        // An ended session gets the app's re-login confirm; a refused block says so in its place.
        if (e instanceof RequestError && e.status === 401) http.config.onUnauthorized?.(e, FIGURE_CALL);
        if (mine !== seq.current) return;
        setError(e instanceof Error && e.message ? e.message : '接口请求失败');
      })
      .finally(() => {
        if (mine === seq.current) setLoading(false);
      });
  }, [url, key, tick]);

  useEffect(
    () => () => {
      // Answers arriving after the page is gone are dropped.
      seq.current++;
    },
    [],
  );

  const reload = useCallback((refresh = true) => setTick((t) => ({ n: t.n + 1, refresh })), []);
  return { data, loading, error, reload };
}
