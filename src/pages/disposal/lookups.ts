import { useEffect, useRef, useState } from 'react';
import { companies } from '../../contract/companies';
import { companyContracts } from '../../contract/company-contracts';
import { dict } from '../../contract/dict';
import { disposalProcesses } from '../../contract/disposal-processes';
import { regions } from '../../contract/regions';
import { warehouses } from '../../contract/warehouses';
import { wasteCategories } from '../../contract/waste-categories';
import { labelPath } from '../../engine';
import { api } from '../../request';

/**
 * The look-ups of the manual disposal order: dictionaries, companies, effective contracts, unloading
 * points, processes, waste categories and the region tree, as the server answers them.
 */

export interface Option {
  value: string;
  label: string;
}

export interface RegionNode {
  value: string;
  label: string;
  children?: RegionNode[];
}

export interface Company {
  id: number;
  name: string;
  type: string;
}

export interface Contract {
  id: number;
  contractNo: string;
  partyAName: string | null;
  partyAPhone: string | null;
  partyARegionFmt: string | null;
  partyAAddress: string | null;
  partyAUserId: number | null;
  partyARegion: string | null;
  beginTime: string;
  endTime: string;
}

export interface UnloadingPoint {
  id: number;
  name: string;
  region: string | null;
  regionFmt: string | null;
  address: string | null;
  linkmanId: number | null;
  linkmanName: string | null;
  phone: string | null;
}

export interface Process {
  id: number;
  name: string;
  code: string;
  pid: number | null;
}

export interface WasteCategory {
  code: string;
  name: string;
  category: string;
}

/** companyType 1: waste-producing company, the party A of a disposal order. */
export const PRODUCER_TYPE = '1';
/** The company search waits this long after the last keystroke. */
export const COMPANY_SEARCH_DEBOUNCE_MS = 1000;

const silent = { silent: true } as const;

export const lookups = {
  dict: async (dictName: string): Promise<Option[]> =>
    (await api(dict.calls.entries, { query: { dictName, page: 0, size: 9999 } }, silent)).content.map((o) => ({
      value: String(o.value),
      label: o.label,
    })),
  companies: async (blurry: string): Promise<Company[]> =>
    (await api(companies.calls.list, { query: { type: PRODUCER_TYPE, blurry: blurry || undefined } }, silent)).content,
  contracts: async (partyACompany: string): Promise<Contract[]> =>
    (await api(companyContracts.calls.effective, { query: { partyACompany } }, silent)).data,
  unloadingPoints: async (): Promise<UnloadingPoint[]> => (await api(warehouses.calls.unloadingPoints, {}, silent)).data,
  processes: async (): Promise<Process[]> =>
    (await api(disposalProcesses.calls.primary, { query: { page: 1, size: 999 } }, silent)).content,
  subProcesses: async (processId: number): Promise<Process[]> =>
    (await api(disposalProcesses.calls.under, { query: { page: 1, size: 999, processID: String(processId) } }, silent)).content,
  wasteCategories: async (companyId: string): Promise<WasteCategory[]> =>
    (await api(wasteCategories.calls.ofCompany, { query: { companyId } }, silent)).content,
  regions: async (): Promise<RegionNode[]> => api(regions.calls.tree, {}, silent),
};

export interface Loaded<T> {
  data: T;
  loading: boolean;
  /** The server's message when the load failed. */
  error: string | null;
}

const messageOf = (e: unknown) => (e instanceof Error && e.message ? e.message : '接口请求失败');

/**
 * One look-up's answer for `key` (null: nothing to load, the answer is `empty`). A newer key
 * supersedes an answer still on its way.
 */
export function useLookup<T>(key: string | null, load: () => Promise<T>, empty: T): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ data: empty, loading: key !== null, error: null });
  const loader = useRef(load);
  loader.current = load;
  const emptyRef = useRef(empty);
  useEffect(() => {
    if (key === null) {
      setState({ data: emptyRef.current, loading: false, error: null });
      return;
    }
    let live = true;
    setState((s) => ({ ...s, loading: true, error: null }));
    loader
      .current()
      .then((data) => live && setState({ data, loading: false, error: null }))
      .catch((e: unknown) => live && setState({ data: emptyRef.current, loading: false, error: messageOf(e) }));
    return () => {
      live = false;
    };
  }, [key]);
  return state;
}

/** `value`, once it has stayed the same for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/** The labels of a path of region codes, joined by a slash (江苏省/苏州市/虎丘区), or undefined when a code is unknown. */
export function regionLabels(tree: readonly RegionNode[], codes: readonly string[]): string | undefined {
  return labelPath(tree, codes)?.join('/');
}
