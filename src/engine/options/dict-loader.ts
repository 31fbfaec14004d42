import { createListeners } from '../../shared/listeners';
import type { DictEntry, LoadStatus } from './types';

/**
 * Dictionaries of one page, loaded once: every name asked for within one tick goes out in a single
 * `GET /api/dictDetail/map?dictName=a,b,c`; a name already loaded or on its way is never asked for
 * again. A failed batch marks its names `failed`, so the next load retries them (once more, batched).
 */

/** `GET /api/dictDetail/map`: dictionary name → its entries. */
export type FetchDicts = (names: string[]) => Promise<Record<string, unknown>>;

export interface DictLoader {
  /** The entries once loaded, else undefined; the same array every time, so it can feed useSyncExternalStore. */
  entries(name: string): DictEntry[] | undefined;
  status(name: string): LoadStatus;
  /** Asks for dictionaries; resolves once they are loaded (or failed). Never rejects. */
  load(names: string | readonly string[]): Promise<void>;
  subscribe(listener: () => void): () => void;
}

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/** The answer's entries for one name; anything that is not a list of objects reads as no entries. */
export function entriesOf(raw: unknown): DictEntry[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((e) => {
    if (typeof e !== 'object' || e === null) return [];
    const o = e as Record<string, unknown>;
    return [{ value: text(o.value), label: text(o.label ?? o.value), type: text(o.type) }];
  });
}

/** Splits, trims and de-duplicates names; `a,b` counts as two. */
export function dictNames(names: string | readonly (string | undefined)[]): string[] {
  const list = (typeof names === 'string' ? [names] : names).flatMap((n) => (n ? n.split(',') : []));
  return [...new Set(list.map((n) => n.trim()).filter(Boolean))];
}

export function createDictLoader(fetchDicts: FetchDicts, schedule: (flush: () => void) => void = (f) => setTimeout(f, 0)): DictLoader {
  const loaded = new Map<string, DictEntry[]>();
  const state = new Map<string, LoadStatus>();
  const waiting = new Map<string, Promise<void>>();
  const { subscribe, emit } = createListeners();
  let queue: string[] = [];
  let batch: { promise: Promise<void>; resolve: () => void } | null = null;

  async function flush(names: string[], done: () => void) {
    try {
      const answer = await fetchDicts(names);
      for (const name of names) {
        loaded.set(name, entriesOf(answer?.[name]));
        state.set(name, 'ready');
      }
    } catch {
      for (const name of names) state.set(name, 'failed');
    } finally {
      for (const name of names) waiting.delete(name);
      done();
      emit();
    }
  }

  return {
    entries: (name) => loaded.get(name),
    status: (name) => state.get(name) ?? 'idle',
    subscribe,
    load(names) {
      const wanted = dictNames(names);
      const pending: Promise<void>[] = [];
      let queued = false;
      for (const name of wanted) {
        const s = state.get(name);
        if (s === 'ready') continue;
        const inFlight = waiting.get(name);
        if (inFlight) {
          pending.push(inFlight);
          continue;
        }
        if (!batch) {
          let resolve!: () => void;
          const promise = new Promise<void>((r) => {
            resolve = r;
          });
          batch = { promise, resolve };
          schedule(() => {
            const current = batch;
            const names = queue;
            batch = null;
            queue = [];
            if (current) void flush(names, current.resolve);
          });
        }
        queue.push(name);
        state.set(name, 'loading');
        waiting.set(name, batch.promise);
        pending.push(batch.promise);
        queued = true;
      }
      if (queued) emit();
      return Promise.all(pending).then(() => undefined);
    },
  };
}
