import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { dict } from '../../contract/dict';
import { regions } from '../../contract/regions';
import type { RemoteOptions } from '../../model';
import { type DataProvider, useEngineServices } from '../services';
import { createDictLoader, type DictLoader, dictNames } from './dict-loader';
import { createRemoteCache, findOption, type RemoteCache, remoteKey, remoteParams } from './remote-options';
import type { DictEntry, LoadStatus, RemoteOption } from './types';

/**
 * Options of one page: dictionaries (batched, once each), remote options and the region tree
 * (once per url and parameters), fetched through the data provider. A page wraps itself in
 * <OptionsProvider>, naming the dictionaries it knows it needs so they go out in the first batch;
 * hooks outside any provider share one store per data provider, so nothing breaks, it is only
 * cached longer.
 */

export const DICT_MAP_URL = dict.calls.entryMap.path;
export const REGION_TREE_URL = regions.calls.tree.path;

export interface OptionsStore {
  dicts: DictLoader;
  remote: RemoteCache;
}

export function createOptionsStore(data: Pick<DataProvider, 'custom'>): OptionsStore {
  return {
    dicts: createDictLoader((names) => data.custom<Record<string, unknown>>({ url: DICT_MAP_URL, query: { dictName: names.join(',') } })),
    remote: createRemoteCache((url, params) => data.custom({ url, query: params })),
  };
}

const fallbacks = new WeakMap<object, OptionsStore>();
const OptionsContext = createContext<OptionsStore | null>(null);

export function useOptionsStore(): OptionsStore {
  const store = useContext(OptionsContext);
  const { data } = useEngineServices();
  if (store) return store;
  let fallback = fallbacks.get(data);
  if (!fallback) {
    fallback = createOptionsStore(data);
    fallbacks.set(data, fallback);
  }
  return fallback;
}

export function OptionsProvider({ dicts, children }: { dicts?: readonly (string | undefined)[]; children?: ReactNode }) {
  const { data } = useEngineServices();
  const [store] = useState(() => createOptionsStore(data));
  const names = dictNames(dicts ?? []).join(',');
  useEffect(() => {
    if (names) void store.dicts.load(names);
  }, [store, names]);
  return <OptionsContext.Provider value={store}>{children}</OptionsContext.Provider>;
}

const EMPTY_ENTRIES: DictEntry[] = [];
const EMPTY_OPTIONS: RemoteOption[] = [];

export interface DictState {
  entries: DictEntry[];
  status: LoadStatus;
}

/** A dictionary's entries ([] while loading or without a name). */
export function useDict(name: string | undefined): DictState {
  const { dicts } = useOptionsStore();
  const getEntries = () => (name ? dicts.entries(name) : undefined) ?? EMPTY_ENTRIES;
  const getStatus = () => (name ? dicts.status(name) : 'ready');
  // The same getter serves server rendering (the parity test renders pages with react-dom/server).
  const entries = useSyncExternalStore(dicts.subscribe, getEntries, getEntries);
  const status = useSyncExternalStore(dicts.subscribe, getStatus, getStatus);
  useEffect(() => {
    if (name && dicts.status(name) !== 'ready') void dicts.load(name);
  }, [dicts, name]);
  return { entries, status };
}

/** value → entry of a dictionary; a list value (`1,2` or an array) gives the entry of each part with `entriesOf`. */
export function useDictLabel(name: string | undefined): ((value: unknown) => DictEntry | undefined) & {
  entriesOf: (value: unknown) => DictEntry[];
} {
  const { entries } = useDict(name);
  return useMemo(() => {
    const byValue = new Map(entries.map((e) => [e.value, e]));
    const one = (value: unknown) => (value === undefined || value === null ? undefined : byValue.get(String(value)));
    const many = (value: unknown) => {
      const parts = Array.isArray(value) ? value : value === undefined || value === null || value === '' ? [] : String(value).split(',');
      return parts.flatMap((p) => {
        const e = byValue.get(String(p).trim());
        return e ? [e] : [];
      });
    };
    return Object.assign(one, { entriesOf: many });
  }, [entries]);
}

export interface RemoteOptionsState {
  options: RemoteOption[];
  status: LoadStatus;
  /** The option of a value, searched through the whole tree. */
  find: (value: unknown) => RemoteOption | undefined;
}

/**
 * A remote field's options for the current values of the fields its type-2 parameters name (pass
 * the form's values, or {} where there are none, e.g. a table column). A change of those values
 * loads the options for the new parameters, once.
 */
export function useRemoteOptions(remote: RemoteOptions | undefined, values?: Record<string, unknown>): RemoteOptionsState {
  const store = useOptionsStore().remote;
  const params = remote ? remoteParams(remote, values) : undefined;
  const key = remote && params ? remoteKey(remote.url, params) : '';
  const getOptions = () => (key ? store.options(key) : undefined) ?? EMPTY_OPTIONS;
  const getStatus = () => (key ? store.status(key) : 'ready');
  const options = useSyncExternalStore(store.subscribe, getOptions, getOptions);
  const status = useSyncExternalStore(store.subscribe, getStatus, getStatus);
  // params is rebuilt every render; the key says the same thing and is stable.
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for url and params
  useEffect(() => {
    if (remote?.url && params && store.status(key) !== 'ready') void store.load(remote.url, params);
  }, [store, key]);
  const find = useCallback((value: unknown) => findOption(options, value), [options]);
  return { options, status, find };
}

const REGION_REMOTE: RemoteOptions = { url: REGION_TREE_URL, tree: true, multiple: false, params: [] };

/** The region tree of city fields (regions.tree), loaded once per page. */
export function useRegionTree(enabled = true): RemoteOptionsState {
  return useRemoteOptions(enabled ? REGION_REMOTE : undefined);
}
