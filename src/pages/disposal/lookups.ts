import { useEffect, useState } from 'react';
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

/** Look-ups report their failure in the dialog, not as a toast. */
const silent = (signal?: AbortSignal) => ({ silent: true, signal });

export const lookups = {
  dict: async (dictName: string, signal?: AbortSignal): Promise<Option[]> =>
    (await api(dict.calls.entries, { query: { dictName, page: 0, size: 9999 } }, silent(signal))).content.map((o) => ({
      value: String(o.value),
      label: o.label,
    })),
  companies: async (blurry: string, signal?: AbortSignal): Promise<Company[]> =>
    (await api(companies.calls.list, { query: { type: PRODUCER_TYPE, blurry: blurry || undefined } }, silent(signal))).content,
  contracts: async (partyACompany: string, signal?: AbortSignal): Promise<Contract[]> =>
    (await api(companyContracts.calls.effective, { query: { partyACompany } }, silent(signal))).data,
  unloadingPoints: async (signal?: AbortSignal): Promise<UnloadingPoint[]> =>
    (await api(warehouses.calls.unloadingPoints, {}, silent(signal))).data,
  processes: async (signal?: AbortSignal): Promise<Process[]> =>
    (await api(disposalProcesses.calls.primary, { query: { page: 1, size: 999 } }, silent(signal))).content,
  subProcesses: async (processId: number, signal?: AbortSignal): Promise<Process[]> =>
    (await api(disposalProcesses.calls.under, { query: { page: 1, size: 999, processID: String(processId) } }, silent(signal))).content,
  wasteCategories: async (companyId: string, signal?: AbortSignal): Promise<WasteCategory[]> =>
    (await api(wasteCategories.calls.ofCompany, { query: { companyId } }, silent(signal))).content,
  regions: async (signal?: AbortSignal): Promise<RegionNode[]> => api(regions.calls.tree, {}, silent(signal)),
};

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
