import type { RemoteOptions } from '../../model';
import { createListeners } from '../../shared/listeners';
import type { LoadStatus, RemoteOption } from './types';

/**
 * Remote options (a field's sportData) and the region tree: one request per url and
 * parameters per page, whoever asks (form fields, search bar, table columns).
 */

export type FetchOptions = (url: string, params: Record<string, string>) => Promise<unknown>;

const isBlank = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && !v.length);

/**
 * The query of a remote-options call: fixed values as they are, and for a `field` parameter the
 * current value of the field it names (a list comma-joined). An empty source field is left out.
 */
export function remoteParams(remote: Pick<RemoteOptions, 'params'>, values: Record<string, unknown> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of remote.params) {
    if (p.source === 'fixed') {
      out[p.key] = p.value;
      continue;
    }
    const v = values[p.value];
    if (isBlank(v)) continue;
    out[p.key] = Array.isArray(v) ? v.map(String).join(',') : String(v);
  }
  return out;
}

/** Cache key: the url and the parameters in key order. */
export function remoteKey(url: string, params: Record<string, string>): string {
  const keys = Object.keys(params).sort();
  return keys.length ? `${url}?${keys.map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(params[k] ?? '')}`).join('&')}` : url;
}

/** The fields whose values a remote field's options depend on. */
export function remoteSources(remote: RemoteOptions | undefined): string[] {
  return remote ? [...new Set(remote.params.filter((p) => p.source === 'field').map((p) => p.value))] : [];
}

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));

function optionOf(raw: unknown): RemoteOption | undefined {
  if (typeof raw !== 'object' || raw === null) {
    if (typeof raw === 'string' || typeof raw === 'number') return { value: String(raw), label: String(raw) };
    return undefined;
  }
  const o = raw as Record<string, unknown>;
  const value = o.value ?? o.id;
  if (value === undefined || value === null) return undefined;
  const label = o.label ?? o.name ?? value;
  const option: RemoteOption = { value: text(value), label: text(label) };
  if (Array.isArray(o.children) && o.children.length) option.children = optionsOf(o.children);
  return option;
}

/** `{content:[...]}`, a plain list, or a tree with `children`; label/value falling back to name/id. */
export function normalizeOptions(answer: unknown): RemoteOption[] {
  const list = Array.isArray(answer)
    ? answer
    : typeof answer === 'object' && answer !== null && Array.isArray((answer as { content?: unknown }).content)
      ? (answer as { content: unknown[] }).content
      : typeof answer === 'object' && answer !== null && Array.isArray((answer as { data?: unknown }).data)
        ? (answer as { data: unknown[] }).data
        : [];
  return optionsOf(list);
}

function optionsOf(list: unknown[]): RemoteOption[] {
  return list.flatMap((x) => {
    const o = optionOf(x);
    return o ? [o] : [];
  });
}

/** Finds an option by value anywhere in a tree. */
export function findOption(options: readonly RemoteOption[], value: unknown): RemoteOption | undefined {
  const wanted = text(value);
  for (const o of options) {
    if (o.value === wanted) return o;
    if (o.children) {
      const hit = findOption(o.children, wanted);
      if (hit) return hit;
    }
  }
  return undefined;
}

/** Labels along a path of codes (a city value), or undefined when a code is not in the tree. */
export function labelPath(tree: readonly RemoteOption[], codes: readonly string[]): string[] | undefined {
  const out: string[] = [];
  let level: readonly RemoteOption[] | undefined = tree;
  for (const code of codes) {
    const node: RemoteOption | undefined = level?.find((o) => o.value === code);
    if (!node) return undefined;
    out.push(node.label);
    level = node.children;
  }
  return out;
}

export interface RemoteCache {
  options(key: string): RemoteOption[] | undefined;
  status(key: string): LoadStatus;
  /** Loads once per key; a failed key loads again when asked again. Never rejects. */
  load(url: string, params: Record<string, string>): Promise<void>;
  subscribe(listener: () => void): () => void;
}

export function createRemoteCache(fetchOptions: FetchOptions): RemoteCache {
  const loaded = new Map<string, RemoteOption[]>();
  const state = new Map<string, LoadStatus>();
  const inFlight = new Map<string, Promise<void>>();
  const { subscribe, emit } = createListeners();
  return {
    options: (key) => loaded.get(key),
    status: (key) => state.get(key) ?? 'idle',
    subscribe,
    load(url, params) {
      const key = remoteKey(url, params);
      if (state.get(key) === 'ready') return Promise.resolve();
      const running = inFlight.get(key);
      if (running) return running;
      state.set(key, 'loading');
      const p = (async () => {
        try {
          loaded.set(key, normalizeOptions(await fetchOptions(url, params)));
          state.set(key, 'ready');
        } catch {
          state.set(key, 'failed');
        } finally {
          inFlight.delete(key);
          emit();
        }
      })();
      inFlight.set(key, p);
      emit();
      return p;
    },
  };
}
