import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import type { CallAnswer, CallInput, CallSpec } from '../../contract/define';
import { api, http, RequestError, type RequestOptions } from '../../request';
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

/**
 * Loads one dashboard call. The first load uses `isRefresh` as the page was opened with it; every
 * later reload through the block's refresh control forces `isRefresh=1` (sent to every call: one that
 * reads no `isRefresh` ignores it). A reload while one is under way supersedes it: only the last answer
 * is kept. The answer is the call's, unless the caller names the type it reads it as (`T`).
 */
export function useFigure<T = never, C extends FigureCall = FigureCall>(
  call: C | null,
  query: FigureQuery<C> = {} as FigureQuery<C>,
  refreshFirst?: boolean,
): FigureState<[T] extends [never] ? CallAnswer<C> : T> {
  type Answer = [T] extends [never] ? CallAnswer<C> : T;
  const all = useContext(RefreshAll);
  const initialRefresh = refreshFirst ?? all;
  const [data, setData] = useState<Answer | null>(null);
  const [loading, setLoading] = useState(call !== null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState<{ n: number; refresh: boolean }>({ n: 0, refresh: initialRefresh });
  const key = JSON.stringify(query);
  const seq = useRef(0);

  useEffect(() => {
    if (call === null) return;
    const mine = ++seq.current;
    setLoading(true);
    const q = figureQuery(JSON.parse(key) as Record<string, unknown>, tick.refresh);
    const answer =
      (tick.n === 0 && takePrefetched<Answer>(call, q)) || (api(call, { query: q } as CallInput<C>, FIGURE_CALL) as Promise<Answer>);
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
  }, [call, key, tick]);

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
