import type { RowScope } from '../access/rows.js';
import type { IndexedRow, WrittenRows } from './list-types.js';
import type { Row } from './record-input.js';
import { newStats, ViewIndex } from './view-index.js';
import type { ViewModel } from './view-model.js';

/**
 * The rows of a view held in memory, so that a list miss (a page or a count the list cache does not
 * hold) is answered without a statement. On PGlite a statement costs the one thread 2–6 ms for a page or
 * a count over 100,000 rows; walking the rows here costs a fraction of that, and no other call waits
 * for the database meanwhile.
 *
 * The index answers only what it can answer exactly as the database would (see ViewIndex); anything
 * else returns undefined, and the caller asks the database.
 *
 * It stays equal to the table the way the list cache does: every record write through the list cache
 * (this instance's and, told by the bus, the other instances') hands it the written rows as they were
 * and are; anything else that bumps the view forgets it, and it is read again on a later miss. A write
 * whose "before" is not what the index holds (applied out of order) also forgets it. Rows changed outside
 * the server, of which only the ids are told, are read again by id (see outside).
 */

/** Reads rows with ids above `afterId`, in id order, at most `limit`. */
export type RowLoader = (afterId: number, limit: number) => Promise<IndexedRow[]>;

interface Slot {
  index?: ViewIndex;
  /** Moves on whenever the view is forgotten: a build begun before is not kept. */
  generation: number;
  /** Writes that ended while the index was being read for this generation, in the order they ended. */
  writes?: WrittenRows[];
  /** A build is under way (kept or not). */
  building: boolean;
  /** When the index was last ready. */
  readyAt?: number;
  /** When a build last failed, found the view too large, or was forgotten soon after it was ready. */
  refusedAt?: number;
  /** Rows changed outside the server, to be read again (see outside); the index is not served meanwhile. */
  stale: Set<number>;
  /** Rows are being read again. */
  rereading: boolean;
}

/** Reads the rows of `ids` of the view as they are now (those that exist). */
export type RowsReader = (view: ViewModel, ids: readonly number[]) => Promise<IndexedRow[]>;

/** Rows read per statement while an index is built. */
const CHUNK = 5000;
/** Most rows one view's index holds, and all views' indexes together; a larger view is read by statements. */
const INDEX_MAX_ROWS = 250_000;
const ALL_MAX_ROWS = 500_000;
/** A build that failed is not tried again for this long. */
const RETRY_MS = 30_000;
/**
 * An index forgotten this soon after it was ready is not read again for RETRY_MS: a view whose rows
 * change by other means than the list's writes (imports, scripted actions) is cheaper read by statements.
 */
const SHORT_LIVED_MS = 10_000;

/** The indexes of one server's views (see ViewIndex). */
export class RowIndexes {
  readonly #slots = new Map<number, Slot>();
  /** What the indexes did since the server started (for benches and diagnostics). */
  readonly stats = newStats();

  constructor(
    /** False while other instances' writes may go unheard (see ListCache): no index is served. */
    private readonly trusted: () => boolean = () => true,
  ) {}

  #slot(viewId: number): Slot {
    let s = this.#slots.get(viewId);
    if (!s) {
      s = { generation: 0, building: false, stale: new Set(), rereading: false };
      this.#slots.set(viewId, s);
    }
    return s;
  }

  /** Views whose rows are being read (for benches and diagnostics). */
  get building(): number {
    let n = 0;
    for (const s of this.#slots.values()) if (s.building) n++;
    return n;
  }

  /** Rows held, of all views. */
  get heldRows(): number {
    let n = 0;
    for (const s of this.#slots.values()) n += s.index?.size ?? 0;
    return n;
  }

  /**
   * The view's index when it is ready for this definition of the view; otherwise undefined, and a build
   * is begun (when none is under way and the last one did not fail lately).
   */
  ready(view: ViewModel, load: RowLoader, textInByteOrder: Promise<boolean>): ViewIndex | undefined {
    if (!this.trusted()) return undefined;
    const s = this.#slot(view.id);
    if (s.index?.view === view) return s.stale.size || s.rereading ? undefined : s.index;
    // Read for another definition of the view (which is bumped when it changes, so never expected).
    if (s.index) this.forget(view.id);
    if (s.building || (s.refusedAt !== undefined && performance.now() - s.refusedAt < RETRY_MS)) return undefined;
    void this.#build(view, s, load, textInByteOrder);
    return undefined;
  }

  /**
   * The record as the list shows it, from the view's rows when they are held for this definition (no
   * read is begun): null when there is none within the scope, undefined when the rows cannot tell.
   */
  record(view: ViewModel, id: number, scope: RowScope | undefined): Row | null | undefined {
    if (!this.trusted()) return undefined;
    const s = this.#slots.get(view.id);
    if (!s?.index || s.index.view !== view || s.stale.size || s.rereading) return undefined;
    return s.index.record(id, scope);
  }

  async #build(view: ViewModel, s: Slot, load: RowLoader, textInByteOrder: Promise<boolean>): Promise<void> {
    const generation = s.generation;
    const writes: WrittenRows[] = [];
    s.writes = writes;
    s.building = true;
    try {
      const bytes = await textInByteOrder;
      const rows: IndexedRow[] = [];
      const room = Math.min(INDEX_MAX_ROWS, ALL_MAX_ROWS - this.heldRows);
      for (let after = 0; ; ) {
        const chunk = await load(after, CHUNK);
        rows.push(...chunk);
        if (rows.length > room) {
          s.refusedAt = performance.now();
          this.stats.refused++;
          return;
        }
        if (chunk.length < CHUNK) break;
        after = (chunk.at(-1) as IndexedRow).id;
      }
      if (s.generation !== generation) return;
      const index = new ViewIndex(view, bytes, rows, this.stats);
      index.settle(writes);
      s.index = index;
      s.readyAt = performance.now();
      s.refusedAt = undefined;
      this.stats.built++;
    } catch {
      // The database refused or went away: the lists read it directly until a later try.
      s.refusedAt = performance.now();
      this.stats.refused++;
    } finally {
      s.building = false;
      if (s.writes === writes) s.writes = undefined;
    }
  }

  /** A write of the view's records, once it has ended (or, another instance's, once told). */
  written(viewId: number, w: WrittenRows): void {
    const s = this.#slots.get(viewId);
    if (!s) return;
    s.writes?.push(w);
    if (s.index && !s.index.apply(w)) {
      this.stats.broken++;
      this.forget(viewId);
    }
  }

  /**
   * Rows of the view changed outside the server: only their ids are known. The index is not served until
   * they are read again (by `read`) and put in place; a build under way, which may have read them before
   * they changed, is not kept.
   */
  outside(viewId: number, ids: readonly number[], read: RowsReader): void {
    const s = this.#slots.get(viewId);
    if (!s) return;
    if (s.building) {
      this.forget(viewId);
      return;
    }
    if (!s.index) return;
    for (const id of ids) s.stale.add(id);
    if (!s.rereading) void this.#reread(viewId, s, read);
  }

  /**
   * Reads the stale rows again and puts them in place, until none is left. A write told meanwhile that
   * finds a stale row not as it left it makes the index forget the view (see written).
   */
  async #reread(viewId: number, s: Slot, read: RowsReader): Promise<void> {
    s.rereading = true;
    try {
      while (s.index && s.stale.size) {
        const { index, generation } = s;
        const ids = [...s.stale];
        s.stale.clear();
        const rows = await read(index.view, ids);
        // Forgotten meanwhile: a later index has its own stale rows, if any.
        if (s.generation !== generation || s.index !== index) continue;
        index.replace(ids, rows);
        this.stats.reread += ids.length;
      }
    } catch {
      this.forget(viewId);
    } finally {
      s.rereading = false;
    }
  }

  /** Forgets the view's index (its rows or definition changed in a way not told row by row). */
  forget(viewId: number): void {
    const s = this.#slots.get(viewId);
    if (!s) return;
    if (s.index) {
      this.stats.forgotten++;
      if (s.readyAt !== undefined && performance.now() - s.readyAt < SHORT_LIVED_MS) s.refusedAt = performance.now();
    }
    s.index = undefined;
    // A build under way reads on, but is not kept; the next miss after it begins another.
    s.generation++;
    s.writes = undefined;
    s.stale.clear();
  }

  forgetAll(): void {
    for (const id of this.#slots.keys()) this.forget(id);
  }
}
