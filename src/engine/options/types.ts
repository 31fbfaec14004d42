/** One dictionary entry; `type` colours list tags (success, info, warning, danger or ''). */
export interface DictEntry {
  value: string;
  label: string;
  type: string;
}

/** A remote option (sportData) or a region, normalised: value as text, so that ids and codes compare alike. */
export interface RemoteOption {
  value: string;
  label: string;
  children?: RemoteOption[];
}

/** Where a loaded list stands; `failed` lists are retried on the next explicit load. */
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'failed';
