import type { RowScope, RowTest } from '../access/rows.js';
import type { IndexedRow, WrittenRows } from './list-types.js';
import type { Row } from './record-input.js';
import { newStats, ViewIndex } from './view-index.js';
import type { ViewModel } from './view-model.js';

/**
 * Rows of views held in memory, so that a list miss (a page or a count the list cache does not hold) is
 * answered without a statement. On PGlite a statement costs the one thread 2–6 ms for a page or a count
 * over 100,000 rows; walking the rows here costs a fraction of that, and no other call waits for the
 * database meanwhile.
 *
 * What is held is a bounded cache of hot units, each a view's rows (every one of them) or one scope's
 * rows of a view (a company's): at most `maxRows` rows of every unit together, whatever the tables
 * hold. A unit is read once its lists have asked for it a few times (HOT_ASKS) and only after the
 * database told its size: the planner's estimate of the table, then a count that stops one row past the
 * bound (a company's count reads its own index entries). A unit larger than the bound is never read; it
 * is remembered as too large, and asked about again only after a long rest or once the writes told here
 * may have brought it within the bound. A view too large to hold is still held scope by scope: its
 * companies' lists read their own rows here, and the administrator's lists read the database. To make
 * room, units no list asked for lately are let go of, least recently used first. One unit is read at a
 * time.
 *
 * A unit answers only what it can answer exactly as the database would (see ViewIndex); anything else
 * returns undefined, and the caller asks the database.
 *
 * It stays equal to the table the way the list cache does: every record write through the list cache
 * (this instance's and, told by the bus, the other instances') hands it the written rows as they were
 * and are; anything else that bumps the view forgets it, and it is read again on later misses. A write
 * whose "before" is not what a unit holds (applied out of order) also forgets that unit.
 */

/** Where the row index reads a view's rows and their sizes: the view's table. */
export interface RowSource {
  /** The planner's estimate of the table's rows, without reading them; undefined when it has none. */
  estimate(): Promise<number | undefined>;
  /** The rows in `scope` (all rows without one), counted up to `atMost + 1`: more than `atMost` is all it says. */
  count(scope: RowScope | undefined, atMost: number): Promise<number>;
  /** Rows in `scope` (all rows without one) with ids above `afterId`, in id order, at most `limit`. */
  load(scope: RowScope | undefined, afterId: number, limit: number): Promise<IndexedRow[]>;
}

/** A view's rows or one scope's rows of it, and what is known of them. */
interface Unit {
  viewId: number;
  /** The scope whose rows it holds (with a test that tells every row); undefined: the whole view. */
  scope: (RowScope & { test: RowTest }) | undefined;
  index?: ViewIndex;
  /** Moves on whenever the unit is forgotten: a read begun before is not kept. */
  generation: number;
  /** Writes that ended while the unit was being read for this generation, in the order they ended. */
  writes?: WrittenRows[];
  building: boolean;
  /** When the unit was last ready, and last asked for while held. */
  readyAt?: number;
  lastUsed: number;
  /** List calls that asked for it since it was last read, forgotten or rested (see HOT_ASKS). */
  asks: number;
  /** Not read before this time: a read failed, it was forgotten soon after it was ready, or found no room. */
  restUntil?: number;
  /** Its rows when last sized, when that was within the bound (a scope that found no room is asked again by it). */
  lastSize?: number;
  /**
   * Found larger than the bound: its size then (estimated or counted), when, and the rows the writes told
   * since put into it less those they took out.
   */
  tooLarge?: { rows: number; at: number; delta: number };
  /** Rows changed outside the server, to be read again (see outside); the unit is not served meanwhile. */
  stale?: Set<number>;
  /** Its stale rows are being read again. */
  rereading?: boolean;
}

/** Reads the rows of `ids` of the view as they are now (those that exist). */
export type RowsReader = (view: ViewModel, ids: readonly number[]) => Promise<IndexedRow[]>;

/** Rows read per statement while a unit is read. */
const CHUNK = 5000;
/** List calls that ask for a unit before it is read: a scope asked for once is cheaper read by statements. */
const HOT_ASKS = 3;
/**
 * What a unit costs beside its rows, in rows: its maps, orders and filter marks, which a unit of few rows
 * has room for all the same (measured: about 20 KB for an index of a handful of rows, against 1.2 KB a row).
 */
export const UNIT_ROWS = 16;
/**
 * A table whose planner estimate is more than this many times the bound is too large without a count.
 * The estimate is reltuples scaled to the table's pages now, as the planner scales it; the slack covers
 * what it misses (rows deleted since it was taken).
 */
const ESTIMATE_SLACK = 2;
/** A unit found too large is not sized again for this long, unless the writes told here may have brought it within the bound. */
const TOO_LARGE_MS = 10 * 60_000;
/** A read that failed is not tried again for this long. */
const RETRY_MS = 30_000;
/**
 * A unit forgotten this soon after it was ready is not read again for RETRY_MS: a view whose rows change by
 * other means than the list's writes (imports, scripted actions) is cheaper read by statements.
 */
const SHORT_LIVED_MS = 10_000;
/** A unit asked for within this long is in use: it is not let go of to make room for another. */
const IN_USE_MS = 5_000;
/** A unit that found no room is not tried again for this long. */
const CROWDED_MS = 10_000;
/** Units remembered without rows (their asks, their sizes), least recently asked for dropped first. */
const COLD_KEPT = 10_000;

/** A unit's charge against the bound. */
const charge = (rows: number) => rows + UNIT_ROWS;

/** The key of a unit: the view, and the scope or none. */
const unitKey = (viewId: number, scope: RowScope | undefined) => (scope ? `${viewId}|${scope.key}` : `${viewId}`);

/** The units of one server's views (see ViewIndex). */
export class RowIndexes {
  /** Every unit remembered, least recently asked for first. */
  readonly #units = new Map<string, Unit>();
  /** The units of each view. */
  readonly #byView = new Map<number, Set<Unit>>();
  /** Units holding rows, being read, or found too large: those a write is told to. */
  readonly #live = new Set<Unit>();
  /** Rows held by every unit, and what they are charged against the bound (their rows and UNIT_ROWS each). */
  #rows = 0;
  #charged = 0;
  /** Units being read (at most one). */
  #reading = 0;
  /** What the indexes did since the server started (for benches and diagnostics). */
  readonly stats = newStats();

  constructor(
    /** False while other instances' writes may go unheard (see ListCache): no index is served. */
    private readonly trusted: () => boolean = () => true,
    /** Most rows held, of every unit together (see UNIT_ROWS for what a unit is charged beside its rows). */
    readonly maxRows = 125_000,
  ) {}

  /** Units being read (for benches and diagnostics). */
  get building(): number {
    return this.#reading;
  }

  /** Rows held, of every unit. */
  get heldRows(): number {
    return this.#rows;
  }

  /** Units holding rows (for benches and diagnostics). */
  get heldUnits(): number {
    let n = 0;
    for (const u of this.#live) if (u.index) n++;
    return n;
  }

  #unit(viewId: number, scope: RowScope | undefined, asking: boolean): Unit | undefined {
    const key = unitKey(viewId, scope);
    let u = this.#units.get(key);
    if (u) {
      if (asking) {
        this.#units.delete(key);
        this.#units.set(key, u);
      }
      return u;
    }
    if (!asking) return undefined;
    const test = scope?.test;
    u = {
      viewId,
      scope: scope && test ? { ...scope, test } : undefined,
      generation: 0,
      building: false,
      lastUsed: 0,
      asks: 0,
    };
    this.#units.set(key, u);
    let units = this.#byView.get(viewId);
    if (!units) {
      units = new Set();
      this.#byView.set(viewId, units);
    }
    units.add(u);
    if (this.#units.size > COLD_KEPT) this.#dropCold();
    return u;
  }

  /** Lets go of the least recently asked units that hold nothing and are not being read or remembered as too large. */
  #dropCold(): void {
    for (const [key, u] of this.#units) {
      if (this.#units.size <= COLD_KEPT * 0.9) break;
      if (this.#live.has(u)) continue;
      this.#units.delete(key);
      const units = this.#byView.get(u.viewId);
      units?.delete(u);
      if (units && !units.size) this.#byView.delete(u.viewId);
    }
  }

  /** The unit's index when it holds rows for this definition of the view; one for another definition is let go of. */
  #current(u: Unit | undefined, view: ViewModel): ViewIndex | undefined {
    if (!u?.index) return undefined;
    // Rows changed outside the server are being read again: the database answers until they are in place.
    if (u.stale?.size || u.rereading) return undefined;
    if (u.index.view === view) return u.index;
    // Read for another definition of the view (which is bumped when it changes, so never expected).
    this.#forgetUnit(u);
    return undefined;
  }

  /** Whether the unit may be read now: not held, not being read, not resting, not known to be too large. */
  #open(u: Unit, now: number): boolean {
    if (u.index || u.building) return false;
    if (u.restUntil !== undefined && now < u.restUntil) return false;
    const big = u.tooLarge;
    if (big && now - big.at < TOO_LARGE_MS && charge(big.rows + big.delta) > this.maxRows) return false;
    return true;
  }

  /**
   * The index that answers lists of the view in `scope` (every record without one) when it is held for
   * this definition of the view: the view's, or else the scope's. Otherwise undefined; with `ask` (a list
   * call's first question, not its later ones) the call counts towards reading them, and a unit asked for
   * often enough is read: the view's, or once the view is known to be too large, the scope's.
   */
  ready(view: ViewModel, source: RowSource, textInByteOrder: Promise<boolean>, scope?: RowScope, ask = true): ViewIndex | undefined {
    if (!this.trusted()) return undefined;
    const now = performance.now();
    const whole = this.#unit(view.id, undefined, true) as Unit;
    const held = this.#current(whole, view);
    if (held) {
      whole.lastUsed = now;
      return held;
    }
    // A scope whose test cannot tell every row is never held apart.
    const scoped = scope?.test ? (this.#unit(view.id, scope, true) as Unit) : undefined;
    const own = this.#current(scoped, view);
    if (own && scoped) {
      scoped.lastUsed = now;
      return own;
    }
    // The view's rows, held but being read again, answer again shortly: no scope is read apart meanwhile.
    if (!ask || whole.building || whole.index) return undefined;
    const unit = this.#open(whole, now) ? whole : scoped && this.#open(scoped, now) ? scoped : undefined;
    if (!unit) return undefined;
    unit.asks++;
    if (unit.asks >= HOT_ASKS && !this.#reading) void this.#build(unit, view, source, textInByteOrder);
    return undefined;
  }

  /**
   * The record as the list shows it, from the rows held for this definition of the view (no read is
   * begun): null when there is none within the scope, undefined when the rows cannot tell.
   */
  record(view: ViewModel, id: number, scope: RowScope | undefined): Row | null | undefined {
    if (!this.trusted()) return undefined;
    for (const u of [this.#unit(view.id, undefined, false), scope ? this.#unit(view.id, scope, false) : undefined]) {
      const index = u?.index;
      if (!u || index?.view !== view || u.stale?.size || u.rereading) continue;
      u.lastUsed = performance.now();
      return index.record(id, scope);
    }
    return undefined;
  }

  /**
   * Makes room for `rows` more rows, letting go of units not in use (and, for a view's rows, of its
   * scopes', which these hold): false when there is none to be made.
   */
  #makeRoom(unit: Unit, rows: number): boolean {
    const need = charge(rows);
    if (this.#charged + need <= this.maxRows) return true;
    const now = performance.now();
    const spare = [...this.#live]
      .filter((u) => u !== unit && u.index && (now - u.lastUsed >= IN_USE_MS || (!unit.scope && u.viewId === unit.viewId)))
      .sort((a, b) => a.lastUsed - b.lastUsed);
    let free = 0;
    const out: Unit[] = [];
    for (const u of spare) {
      if (this.#charged - free + need <= this.maxRows) break;
      free += charge(u.index?.size ?? 0);
      out.push(u);
    }
    if (this.#charged - free + need > this.maxRows) return false;
    for (const u of out) {
      this.stats.evicted++;
      this.#forgetUnit(u, false);
    }
    return true;
  }

  /** Could room for a unit of `rows` rows be made at all (nothing is let go of)? */
  #roomFor(unit: Unit, rows: number): boolean {
    const need = charge(rows);
    if (this.#charged + need <= this.maxRows) return true;
    const now = performance.now();
    let free = 0;
    for (const u of this.#live)
      if (u !== unit && u.index && (now - u.lastUsed >= IN_USE_MS || (!unit.scope && u.viewId === unit.viewId)))
        free += charge(u.index.size);
    return this.#charged - free + need <= this.maxRows;
  }

  #held(u: Unit, index: ViewIndex | undefined): void {
    const before = u.index?.size ?? 0;
    if (u.index) this.#charged -= charge(before);
    this.#rows -= before;
    u.index = index;
    if (index) {
      this.#rows += index.size;
      this.#charged += charge(index.size);
    }
    this.#liveness(u);
  }

  #liveness(u: Unit): void {
    if (u.index || u.building || u.tooLarge) this.#live.add(u);
    else this.#live.delete(u);
  }

  /** Remembers the unit as too large, at `rows` rows. */
  #tooLarge(u: Unit, rows: number): void {
    u.tooLarge = { rows, at: performance.now(), delta: 0 };
    u.lastSize = undefined;
    this.stats.refused++;
  }

  async #build(u: Unit, view: ViewModel, source: RowSource, textInByteOrder: Promise<boolean>): Promise<void> {
    const generation = u.generation;
    const writes: WrittenRows[] = [];
    u.writes = writes;
    u.building = true;
    u.asks = 0;
    this.#reading++;
    this.#liveness(u);
    const max = this.maxRows;
    let reading = false;
    try {
      // A scope known to fit the bound that found no room before: asked again only when room could be made.
      if (u.lastSize !== undefined && !this.#roomFor(u, u.lastSize)) {
        this.#crowded(u);
        return;
      }
      if (!u.scope) {
        this.stats.sized++;
        const estimate = await source.estimate();
        if (estimate !== undefined && estimate > max * ESTIMATE_SLACK) {
          this.#tooLarge(u, estimate);
          return;
        }
      }
      this.stats.sized++;
      const size = await source.count(u.scope, max);
      if (charge(size) > max) {
        this.#tooLarge(u, size);
        return;
      }
      u.tooLarge = undefined;
      u.lastSize = size;
      if (u.generation !== generation) return;
      if (!this.#makeRoom(u, size)) {
        this.#crowded(u);
        return;
      }
      reading = true;
      const bytes = await textInByteOrder;
      const rows: IndexedRow[] = [];
      for (let after = 0; ; ) {
        const chunk = await source.load(u.scope, after, CHUNK);
        this.stats.read += chunk.length;
        for (const r of chunk) rows.push(r);
        // Forgotten meanwhile (its rows changed in a way not told row by row): what was read is not kept.
        if (u.generation !== generation) {
          this.stats.discarded++;
          return;
        }
        // Grown past the bound since it was counted.
        if (charge(rows.length) > max) {
          this.stats.discarded++;
          this.#tooLarge(u, rows.length);
          return;
        }
        if (chunk.length < CHUNK) break;
        after = (chunk.at(-1) as IndexedRow).id;
      }
      const index = new ViewIndex(view, bytes, rows, this.stats, u.scope);
      if (!index.settle(writes) || !this.#makeRoom(u, index.size)) {
        this.stats.discarded++;
        u.restUntil = performance.now() + RETRY_MS;
        return;
      }
      this.#held(u, index);
      const now = performance.now();
      u.readyAt = now;
      u.lastUsed = now;
      u.restUntil = undefined;
      this.stats.built++;
      // The view's rows hold every scope's: the scopes' own go.
      if (!u.scope) for (const s of this.#byView.get(u.viewId) ?? []) if (s !== u && s.index) this.#forgetUnit(s, false);
    } catch {
      // The database refused or went away: the lists read it directly until a later try.
      if (reading) this.stats.discarded++;
      u.restUntil = performance.now() + RETRY_MS;
    } finally {
      u.building = false;
      this.#reading--;
      if (u.writes === writes) u.writes = undefined;
      this.#liveness(u);
    }
  }

  #crowded(u: Unit): void {
    this.stats.crowded++;
    u.restUntil = performance.now() + CROWDED_MS;
  }

  /** A write of the view's records, once it has ended (or, another instance's, once told). */
  written(viewId: number, w: WrittenRows): void {
    for (const u of [...this.#live]) {
      if (u.viewId !== viewId) continue;
      u.writes?.push(w);
      if (u.tooLarge) u.tooLarge.delta += this.#inUnit(u, w.come) - this.#inUnit(u, w.gone);
      const index = u.index;
      if (!index) continue;
      const before = index.size;
      if (!index.apply(w)) {
        this.stats.broken++;
        this.#forgetUnit(u);
        continue;
      }
      this.#rows += index.size - before;
      this.#charged += index.size - before;
    }
    // Rows added by writes may take the units past the bound: the least recently used go.
    if (this.#charged > this.maxRows) this.#trim();
  }

  /**
   * Rows of the view changed outside the server, of which only the ids are known: every unit holding the
   * view's rows is not served until they are read again (by `read`) and put in place; a read under way,
   * which may have read them before they changed, is not kept.
   */
  outside(viewId: number, ids: readonly number[], read: RowsReader): void {
    for (const u of [...(this.#byView.get(viewId) ?? [])]) {
      if (u.building) {
        this.#forgetUnit(u);
        continue;
      }
      if (!u.index) continue;
      u.stale ??= new Set();
      for (const id of ids) u.stale.add(id);
      if (!u.rereading) void this.#reread(u, read);
    }
  }

  /** Reads the unit's stale rows again and puts them in place, until none is left. */
  async #reread(u: Unit, read: RowsReader): Promise<void> {
    u.rereading = true;
    try {
      while (u.index && u.stale?.size) {
        const { index, generation } = u;
        const ids = [...u.stale];
        u.stale.clear();
        const rows = await read(index.view, ids);
        // Forgotten meanwhile: a later read has its own rows.
        if (u.generation !== generation || u.index !== index) continue;
        const before = index.size;
        if (!index.replace(ids, rows)) {
          this.stats.broken++;
          this.#forgetUnit(u);
          break;
        }
        this.#rows += index.size - before;
        this.#charged += index.size - before;
        this.stats.reread += ids.length;
      }
    } catch {
      this.#forgetUnit(u);
    } finally {
      u.rereading = false;
    }
    if (this.#charged > this.maxRows) this.#trim();
  }

  /** Rows of `rows` in the unit's scope (all of them for a view's). */
  #inUnit(u: Unit, rows: readonly IndexedRow[]): number {
    if (!u.scope) return rows.length;
    let n = 0;
    for (const r of rows) if (u.scope.test(r.raw)) n++;
    return n;
  }

  /** Lets go of units, least recently used first, until the rest are within the bound. */
  #trim(): void {
    const held = [...this.#live].filter((u) => u.index).sort((a, b) => a.lastUsed - b.lastUsed);
    for (const u of held) {
      if (this.#charged <= this.maxRows) break;
      this.stats.evicted++;
      this.#forgetUnit(u, false);
    }
  }

  /**
   * Lets go of the unit's rows; a read under way reads on, but is not kept. `rest`: forgotten because its
   * rows changed, so a unit forgotten soon after it was ready rests.
   */
  #forgetUnit(u: Unit, rest = true): void {
    if (u.index) {
      this.stats.forgotten++;
      const now = performance.now();
      if (rest && u.readyAt !== undefined && now - u.readyAt < SHORT_LIVED_MS) u.restUntil = now + RETRY_MS;
      this.#held(u, undefined);
    }
    u.generation++;
    u.writes = undefined;
    u.stale?.clear();
    u.asks = 0;
    this.#liveness(u);
  }

  /** Forgets the view's rows, every unit of it (its rows or definition changed in a way not told row by row). */
  forget(viewId: number): void {
    for (const u of this.#byView.get(viewId) ?? []) this.#forgetUnit(u);
  }

  forgetAll(): void {
    for (const viewId of this.#byView.keys()) this.forget(viewId);
  }
}
