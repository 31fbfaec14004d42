import { useEffect, useReducer, useRef } from 'react';
import { failureText } from './client';

/**
 * The app's one loader of look-ups (pickers' choices, trees, figures, texts): what `load` answers for
 * a key, with its loading, its failure and a reload. Small and free of the contract, so that the
 * login route can use it.
 */

/** What a look-up holds. */
export interface Lookup<T> {
  /** The last answer: kept while the same or another key loads, gone when a load of another key fails. */
  data: T;
  /** True while a load runs. */
  loading: boolean;
  /** The last load's failure, until a load answers. */
  error: string | null;
  /** Loads the same key again. */
  reload: () => void;
}

/** Loads one answer; the signal aborts when the load is superseded or its component goes. */
export type Load<T> = (signal: AbortSignal) => Promise<T>;

export interface LookupState<T> {
  /** The key the answer belongs to. */
  of: string | null;
  data: T | undefined;
  loading: boolean;
  error: string | null;
}

export type LookupEvent<T> =
  | { type: 'idle' }
  | { type: 'start' }
  | { type: 'answer'; key: string; data: T }
  | { type: 'fail'; key: string; error: string };

const IDLE: LookupState<never> = { of: null, data: undefined, loading: false, error: null };

/** Pure: a look-up's state after an event; the same object when nothing changed. */
export function lookupReducer<T>(state: LookupState<T>, event: LookupEvent<T>): LookupState<T> {
  switch (event.type) {
    case 'idle':
      return state.of === null && state.data === undefined && !state.loading && !state.error ? state : IDLE;
    case 'start':
      return state.loading ? state : { ...state, loading: true };
    case 'answer':
      return { of: event.key, data: event.data, loading: false, error: null };
    case 'fail':
      return { of: event.key, data: state.of === event.key ? state.data : undefined, loading: false, error: event.error };
  }
}

/**
 * What `load` answers for `key`, loaded when the key changes and on reload; a null key loads nothing
 * and holds no answer. `load` is read when a load starts: what it depends on belongs in the key. A
 * newer load aborts the one under way, and leaving the page aborts the last; their answers are
 * dropped. `empty` stands for the answer until one has come.
 */
export function useLookup<T>(key: string | null, load: Load<T>): Lookup<T | undefined>;
export function useLookup<T>(key: string | null, load: Load<T>, empty: T): Lookup<T>;
export function useLookup<T>(key: string | null, load: Load<T>, empty?: T): Lookup<T | undefined> {
  const [state, dispatch] = useReducer(lookupReducer<T>, key, (k) => ({ ...IDLE, loading: k !== null }));
  const [tick, reload] = useReducer((n: number) => n + 1, 0);
  const loadRef = useRef(load);
  loadRef.current = load;

  // biome-ignore lint/correctness/useExhaustiveDependencies: tick is the reload signal
  useEffect(() => {
    if (key === null) {
      dispatch({ type: 'idle' });
      return;
    }
    const controller = new AbortController();
    const { signal } = controller;
    dispatch({ type: 'start' });
    loadRef.current(signal).then(
      (data) => !signal.aborted && dispatch({ type: 'answer', key, data }),
      (e: unknown) => !signal.aborted && dispatch({ type: 'fail', key, error: failureText(e) }),
    );
    return () => controller.abort();
  }, [key, tick]);

  return { data: state.data ?? empty, loading: state.loading, error: state.error, reload };
}
