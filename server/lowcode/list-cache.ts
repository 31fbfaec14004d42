/**
 * In-process cache of /api/general/list rows and filter counts. PGlite runs every query on one thread,
 * so under concurrent load misses queue behind each other: a count(*) over a filter costs 3–40 ms on
 * 100,000 rows, a page 1–2 ms. A known filter's count is reused for every page of it, and pages are
 * read in blocks (see cachedPage), so paging on costs no query.
 *
 * Every entry belongs to a filter (the list query without its order and page). Two kinds of writes:
 * - a record add, update or delete on this instance runs inside write(): the write's own statements
 *   tell, for every cached filter, whether each written row matched it before and after. Counts move by
 *   the difference; rows of a filter a written row matched are revised by the write (the row put in
 *   place or found to sort after them) or dropped when it cannot tell; everything else stays;
 * - any other change (import, scripted actions, design, publish, view deletion, another instance's
 *   writes) calls bump() after it commits: everything cached for the view is dropped;
 * - rows changed outside the server (told by the view table's trigger) drop the entries of the filters
 *   whose scope held or holds them (see outside).
 * An answer is cached only when no write of its view began, ended or was under way while it was
 * computed, so it holds exactly the writes that ended before it and the ones after move it on. So that
 * this holds under a steady stream of writes, the view's misses and writes take turns (a fair
 * readers-writer lock, per view): misses run together, a write runs alone, and whichever came first
 * goes first. Hits never wait. On PGlite, which runs one statement at a time anyway, taking turns costs
 * no throughput; without it almost no miss computed during a write stream would ever be kept.
 *
 * On PostgreSQL, where statements run side by side, taking turns would make every list miss of a view
 * wait for a write's round trip and commit, and every write for the misses under way. There (`turns`
 * off) nothing waits: a miss that a write overlapped is kept when every such write has ended and tells
 * that none of its rows matched the miss's filter, before or after (see WriteEffect.touches), so the
 * answer is the same whether or not it saw the write.
 *
 * The bound is on cached rows (an array weighs its length, anything else 1), least recently used first out.
 */

import { TurnLock } from '../lib/turn-lock.js';
import type { WrittenRows } from './list-types.js';

/** Which rows of a view a cached answer covers; `key` identifies it (equal keys, equal filters). */
export interface CacheFilter<F> {
  key: string;
  filter: F;
  /** How often its answers were served again (handed to writes only). */
  hits?: number;
}

/** For each filter key handed to a write: rows that matched it before and after the write. */
export type WriteMatches = ReadonlyMap<string, { before: number; after: number }>;

/**
 * The groups of a view's filters a write is handed besides its loose filters (see the constructor's
 * `groupOf`): a write judges a group whole when none of its rows is in the group's scope, and its
 * filters one by one (`filters`) otherwise.
 */
export interface WriteGroups {
  /** Each group by its key, with one of its filters (to read the scope from). */
  readonly list: readonly (readonly [group: string, sample: unknown])[];
  /** The group's filters that were cached when the write began. */
  filters(group: string): CacheFilter<unknown>[];
}

/** What a write tells the cache (see write()). */
export interface WriteEffect<T> {
  value: T;
  /** Null when the write cannot tell: everything cached for the view is dropped. */
  matches: WriteMatches | null;
  /**
   * The cached values (not counts) of a filter that a written row matched, by cache key, as they are
   * after the write: the same value when it did not change, a new one; a key left out cannot be told
   * (its entry is dropped).
   */
  revise?: (filterKey: string, values: ReadonlyMap<string, unknown>) => ReadonlyMap<string, unknown>;
  /** Whether a written row matched the filter, before or after; true when that cannot be told. */
  touches?: (filter: CacheFilter<unknown>) => boolean;
  /**
   * The groups whose filters `matches` judges one by one; every other group handed to the write holds
   * none of its rows in its scope, so none of its filters was touched. Without it, filters in groups are
   * judged by `matches` alone.
   */
  touchedGroups?: ReadonlySet<string>;
  /** The written rows, handed on to the observer (see CacheObserver); without them it forgets the view. */
  rows?: WrittenRows;
}

/** Told what the cache is told, in the same order: each write's rows when it moves the cache on, and every bump. */
export interface CacheObserver {
  written(viewId: number, rows: WrittenRows): void;
  forget(viewId: number): void;
  forgetAll(): void;
}

/** A write of a view as the misses it overlapped judge it: under way (no effect yet), or ended. */
interface WriteRecord {
  ended: boolean;
  touches: (filter: CacheFilter<unknown>) => boolean;
  /** Settles when the write has ended and moved the cache on. */
  done: Promise<void>;
}

/** Writes of a view remembered for the misses they overlap; a miss that overlapped more is not kept. */
const WRITES_REMEMBERED = 256;
/** How many times a miss's answer waits for writes under way before it is given up (see keepWhenSettled). */
const SETTLE_ROUNDS = 3;
const UNKNOWN = () => true;

export interface CacheOptions {
  filter: CacheFilter<unknown>;
  /** A count of the filter's rows, which writes move on; any other value a write revises when a written row matched the filter. */
  count?: boolean;
  /** For a count: whether a value writes moved it to is to be counted again (the count is then dropped). */
  recount?: (held: number) => boolean;
  /** What the value weighs against the bound; 1 when not told. */
  weight?: (value: unknown) => number;
}

interface Entry {
  viewId: number;
  filterKey: string;
  count: boolean;
  recount?: (held: number) => boolean;
  value: unknown;
  weight: number;
  weigh: (value: unknown) => number;
}

interface ViewState {
  /** Moves on when a write begins or ends and when the view is bumped: answers computed across it are not kept. */
  epoch: number;
  writing: number;
  /** Misses and writes of the view take turns (when the cache takes turns). */
  turns: TurnLock;
  /** Without turns: writes begun so far, and the latest of them by their number. */
  begun: number;
  writes: Map<number, WriteRecord>;
  /** Without turns: the numbers of the writes under way (a miss reads these, not every write remembered). */
  unended: Set<number>;
  /** Without turns: moves on with every bump, so no miss across it is kept. */
  bumps: number;
  /** Other instances' writes told here so far (remoteWrite), and whether each touched a filter, by number. */
  remote: number;
  remoteWrites: Map<number, (filter: CacheFilter<unknown>) => boolean>;
  entries: Set<string>;
  /** Filters of the entries, most recently used last, with their entries. */
  filters: Map<string, FilterState>;
  /** The filters in no group (see groupOf), most recently used last. */
  loose: Map<string, FilterState>;
  /** The filters in groups, by group. */
  groups: Map<string, GroupState>;
  /** Filters and groups made so far: each is numbered, so a write tells those made after it began. */
  made: number;
}

interface FilterState {
  filter: unknown;
  entries: Set<string>;
  hits: number;
  group: string | undefined;
  made: number;
}

interface GroupState {
  keys: Set<string>;
  sample: unknown;
  made: number;
}

/** What the cache did since it started (for benches and diagnostics). */
export interface CacheStats {
  hits: number;
  /** Served by a computation already under way for the same key. */
  shared: number;
  misses: number;
  /** Misses whose answer was not kept (a write or bump came across it). */
  notKept: number;
  /** Entries dropped for the bound. */
  evicted: number;
  /** Entries a write dropped: of filters it did not judge, and values it could not revise. */
  unjudged: number;
  unrevised: number;
  /** Values a write revised in place (a new value), and counts it moved. */
  revised: number;
  counted: number;
  /** Entries dropped by bump and bumpAll. */
  bumped: number;
  /** Entries dropped for rows changed outside the server (see outside). */
  outside: number;
  /** Milliseconds writes spent moving the cache on (counts and revised blocks), on this instance's thread. */
  writeMs: number;
}

/** How many keys sighted() remembers: some 100 bytes each. */
const SIGHTINGS = 50_000;

export class ListCache {
  readonly stats: CacheStats = {
    hits: 0,
    shared: 0,
    misses: 0,
    notKept: 0,
    evicted: 0,
    unjudged: 0,
    unrevised: 0,
    revised: 0,
    counted: 0,
    bumped: 0,
    outside: 0,
    writeMs: 0,
  };
  readonly #versions = new Map<number, number>();
  /** Moves every version on at once (bumpAll). */
  #generation = 0;
  readonly #views = new Map<number, ViewState>();
  readonly #entries = new Map<string, Entry>();
  #weight = 0;
  readonly #inFlight = new Map<string, Promise<unknown>>();
  /** Keys asked for before (see sighted), oldest first. */
  readonly #sightings = new Set<string>();
  /** Answers of misses waiting to be judged before they are kept (see #keepWhenSettled). */
  #settling = 0;

  constructor(
    readonly enabled: boolean,
    // About 100 MB of typical rows (some 0.7 KB each with the JSON of their pages served).
    private readonly maxWeight = 150_000,
    /** False while invalidations may be missed (another instance's writes unheard): nothing is served from the cache. */
    private readonly trusted: () => boolean = () => true,
    /** Misses and writes of a view take turns (one database connection); off, nothing waits (a pool). */
    private readonly turns = true,
    /** Settles once every other instance's write committed before the call has been told here (see remoteWrite). */
    private readonly barrier: () => Promise<void> = () => Promise.resolve(),
    /** Kept in step with the view's rows: the row index. */
    private readonly observer?: CacheObserver,
    /**
     * The group a filter belongs to, if any: filters of one group have one scope (the rows they can
     * hold), so that a write whose rows are all outside it passes them over together instead of one by
     * one. Without groups, a write of a view with thousands of cached filters (one per company and
     * search) spends milliseconds walking them.
     */
    private readonly groupOf: (filter: unknown) => string | undefined = () => undefined,
  ) {}

  /** What the cached values weigh together (see the bound). */
  get weight(): number {
    return this.#weight;
  }

  /** Entries and the filters they are kept under, of every view (for benches and diagnostics). */
  get size(): { entries: number; filters: number } {
    let filters = 0;
    for (const v of this.#views.values()) filters += v.filters.size;
    return { entries: this.#entries.size, filters };
  }

  /** Answers already served that are still being judged before they are kept (tests wait for none). */
  get settling(): number {
    return this.#settling;
  }

  /** Moves on with every bump: what was read of the view (its definition too) before may be out of date. */
  version(viewId: number): number {
    return (this.#versions.get(viewId) ?? 0) + this.#generation * 1_000_000_000;
  }

  #view(viewId: number): ViewState {
    let v = this.#views.get(viewId);
    if (!v) {
      v = {
        epoch: 0,
        writing: 0,
        turns: new TurnLock(),
        begun: 0,
        writes: new Map(),
        unended: new Set(),
        bumps: 0,
        remote: 0,
        remoteWrites: new Map(),
        entries: new Set(),
        filters: new Map(),
        loose: new Map(),
        groups: new Map(),
        made: 0,
      };
      this.#views.set(viewId, v);
    }
    return v;
  }

  /** Forgets everything cached for the view. */
  bump(viewId: number): void {
    this.#versions.set(viewId, (this.#versions.get(viewId) ?? 0) + 1);
    const v = this.#view(viewId);
    v.epoch++;
    v.bumps++;
    this.stats.bumped += v.entries.size;
    for (const k of [...v.entries]) this.#delete(k);
    this.observer?.forget(viewId);
  }

  /** Forgets everything: every view's version moves on, so no entry or answer in flight is served again. */
  bumpAll(): void {
    this.#generation++;
    for (const v of this.#views.values()) {
      v.epoch++;
      v.bumps++;
    }
    this.stats.bumped += this.#entries.size;
    for (const k of [...this.#entries.keys()]) this.#delete(k);
    this.observer?.forgetAll();
  }

  #delete(k: string): void {
    const e = this.#entries.get(k);
    if (!e) return;
    this.#entries.delete(k);
    this.#weight -= e.weight;
    const v = this.#view(e.viewId);
    v.entries.delete(k);
    const f = v.filters.get(e.filterKey);
    f?.entries.delete(k);
    if (f && !f.entries.size) this.#dropFilter(v, e.filterKey, f);
  }

  #dropFilter(v: ViewState, key: string, f: FilterState): void {
    v.filters.delete(key);
    if (f.group === undefined) {
      v.loose.delete(key);
      return;
    }
    const g = v.groups.get(f.group);
    if (!g) return;
    g.keys.delete(key);
    if (!g.keys.size) v.groups.delete(f.group);
    else if (g.sample === f.filter) g.sample = v.filters.get(g.keys.values().next().value as string)?.filter;
  }

  #get<T>(k: string): T | undefined {
    const hit = this.#entries.get(k);
    if (!hit) return undefined;
    this.#entries.delete(k);
    this.#entries.set(k, hit); // most recently used goes last
    const filters = this.#view(hit.viewId).filters;
    const f = filters.get(hit.filterKey);
    if (f) {
      f.hits++;
      filters.delete(hit.filterKey);
      filters.set(hit.filterKey, f);
      if (f.group === undefined) {
        const loose = this.#view(hit.viewId).loose;
        loose.delete(hit.filterKey);
        loose.set(hit.filterKey, f);
      }
    }
    return hit.value as T;
  }

  #set(viewId: number, k: string, opts: CacheOptions, value: unknown): void {
    const filter = opts.filter;
    this.#delete(k);
    const weigh = opts.weight ?? (() => 1);
    const weight = Math.max(1, weigh(value));
    this.#entries.set(k, { viewId, filterKey: filter.key, count: opts.count === true, recount: opts.recount, value, weight, weigh });
    this.#weight += weight;
    const v = this.#view(viewId);
    v.entries.add(k);
    let f = v.filters.get(filter.key);
    if (!f) {
      f = { filter: filter.filter, entries: new Set<string>(), hits: 0, group: this.groupOf(filter.filter), made: ++v.made };
      if (f.group !== undefined) {
        let g = v.groups.get(f.group);
        if (!g) {
          g = { keys: new Set(), sample: f.filter, made: ++v.made };
          v.groups.set(f.group, g);
        }
        g.keys.add(filter.key);
      }
    }
    f.entries.add(k);
    v.filters.delete(filter.key);
    v.filters.set(filter.key, f);
    if (f.group === undefined) {
      v.loose.delete(filter.key);
      v.loose.set(filter.key, f);
    }
    for (const oldest of this.#entries.keys()) {
      if (this.#weight <= this.maxWeight) break;
      this.stats.evicted++;
      this.#delete(oldest);
    }
  }

  /**
   * Whether the key was asked for before (its answer may since have gone); marks it asked. Remembers the
   * last SIGHTINGS keys, forgetting the oldest first.
   */
  sighted(viewId: number, key: string): boolean {
    if (!this.enabled) return false;
    const k = `${viewId}|${key}`;
    const seen = this.#sightings.delete(k);
    this.#sightings.add(k);
    if (this.#sightings.size > SIGHTINGS)
      for (const oldest of this.#sightings) {
        this.#sightings.delete(oldest);
        break;
      }
    return seen;
  }

  /** The value cached for the key now, if any, without counting it as used. */
  peek<T>(viewId: number, key: string): T | undefined {
    if (!this.enabled || !this.trusted()) return undefined;
    return this.#entries.get(`${viewId}|${key}`)?.value as T | undefined;
  }

  /** Whether a value is cached for the key now (it may be gone by the next await). */
  has(viewId: number, key: string): boolean {
    return this.enabled && this.trusted() && this.#entries.has(`${viewId}|${key}`);
  }

  /**
   * The cached value, or the one being computed for the same key (50 clients asking for the same new
   * block run one query, not 50), or a fresh computation that is then cached.
   */
  async through<T>(viewId: number, key: string, opts: CacheOptions, compute: () => Promise<T>): Promise<T> {
    if (!this.enabled || !this.trusted()) return compute();
    const k = `${viewId}|${key}`;
    const hit = this.#get<T>(k);
    if (hit !== undefined) {
      this.stats.hits++;
      return hit;
    }
    const v = this.#view(viewId);
    const flightKey = `${v.epoch}|${k}`;
    const pending = this.#inFlight.get(flightKey);
    if (pending) {
      this.stats.shared++;
      return pending as Promise<T>;
    }
    this.stats.misses++;
    const run = (
      this.turns ? v.turns.run(false, () => this.#miss(v, viewId, k, opts, compute)) : this.#overlapped(v, viewId, k, opts, compute)
    ).finally(() => this.#inFlight.delete(flightKey));
    this.#inFlight.set(flightKey, run);
    return run;
  }

  async #miss<T>(v: ViewState, viewId: number, k: string, opts: CacheOptions, compute: () => Promise<T>): Promise<T> {
    // A write may have ended while this waited its turn: judge from when the computation starts.
    const epoch = v.epoch;
    const quiet = v.writing === 0;
    const value = await compute();
    if (quiet && v.epoch === epoch && this.trusted()) this.#set(viewId, k, opts, value);
    else this.stats.notKept++;
    return value;
  }

  /**
   * A miss beside writes (no turns): kept when no write it overlapped touched its filter. The answer is
   * served at once; when writes it overlapped are still under way, it is judged once they have ended.
   */
  async #overlapped<T>(v: ViewState, viewId: number, k: string, opts: CacheOptions, compute: () => Promise<T>): Promise<T> {
    const bumps = v.bumps;
    const begun = v.begun;
    // Writes under way when it starts: their statements may or may not come before its own.
    const open: number[] = [];
    for (const n of v.unended) if (v.writes.has(n)) open.push(n);
    // A write under way that is no longer remembered cannot be judged.
    const known = open.length === v.writing;
    const remote = v.remote;
    const value = await compute();
    if (known) {
      this.#settling++;
      void this.#keepWhenSettled(v, viewId, k, opts, value, bumps, begun, open, remote).finally(() => this.#settling--);
    } else this.stats.notKept++;
    return value;
  }

  /**
   * Keeps a miss's answer once every write that began before it was kept (those under way when the miss
   * started, and all begun since) has ended without touching its filter; a write begun after the answer
   * was computed is not in it, and is judged the same way, as the cache could not move the answer on.
   * Gives up after SETTLE_ROUNDS waits for writes still under way.
   */
  async #keepWhenSettled(
    v: ViewState,
    viewId: number,
    k: string,
    opts: CacheOptions,
    value: unknown,
    bumps: number,
    begun: number,
    open: number[],
    remote: number,
  ): Promise<void> {
    // Other instances' writes that the answer may hold have all been told here once the barrier settles:
    // the answer is kept only if none told since it started touched its filter.
    await this.barrier();
    for (let round = 0; ; round++) {
      const numbers = [...open];
      for (let n = begun + 1; n <= v.begun; n++) numbers.push(n);
      const writes = numbers.map((n) => v.writes.get(n));
      const judged =
        v.bumps === bumps &&
        this.#untouchedRemotely(v, remote, opts.filter) &&
        this.trusted() &&
        writes.every((w) => w !== undefined && !(w.ended && w.touches(opts.filter)));
      const pending = judged ? (writes as WriteRecord[]).filter((w) => !w.ended) : [];
      if (judged && !pending.length) {
        this.#set(viewId, k, opts, value);
        return;
      }
      if (!judged || round >= SETTLE_ROUNDS) {
        this.stats.notKept++;
        return;
      }
      await Promise.all(pending.map((w) => w.done));
    }
  }

  /**
   * Runs a write of the view's records. `run` gets the filters cached for the view, least recently used
   * first, and answers the write's result with, for those filters it judged, how many written rows
   * matched each before and after, or null when it cannot tell: then the view is bumped. Entries of
   * filters it did not judge are dropped.
   */
  async write<T>(viewId: number, run: (filters: CacheFilter<unknown>[], groups: WriteGroups) => Promise<WriteEffect<T>>): Promise<T> {
    const v = this.#view(viewId);
    return this.turns ? v.turns.run(true, () => this.#write(v, viewId, run)) : this.#write(v, viewId, run);
  }

  /** The view's loose filters, least recently used first, and its groups, as a write is handed them. */
  #handed(v: ViewState): { filters: CacheFilter<unknown>[]; groups: WriteGroups; made: number } {
    const made = v.made;
    const filters = [...v.loose].map(([key, f]) => ({ key, filter: f.filter, hits: f.hits }));
    const list = [...v.groups].map(([group, g]) => [group, g.sample] as const);
    const groups: WriteGroups = {
      list,
      filters: (group) => {
        const out: CacheFilter<unknown>[] = [];
        for (const key of v.groups.get(group)?.keys ?? []) {
          const f = v.filters.get(key);
          if (f && f.made <= made) out.push({ key, filter: f.filter, hits: f.hits });
        }
        return out;
      },
    };
    return { filters, groups, made };
  }

  async #write<T>(
    v: ViewState,
    viewId: number,
    run: (filters: CacheFilter<unknown>[], groups: WriteGroups) => Promise<WriteEffect<T>>,
  ): Promise<T> {
    const handed = this.#handed(v);
    v.writing++;
    v.epoch++;
    let settle = () => {};
    const record: WriteRecord = {
      ended: false,
      touches: UNKNOWN,
      done: new Promise<void>((r) => {
        settle = r;
      }),
    };
    const number = this.turns ? 0 : ++v.begun;
    if (number) {
      v.writes.set(number, record);
      v.writes.delete(number - WRITES_REMEMBERED);
      v.unended.add(number);
    }
    let effect: Pick<WriteEffect<T>, 'matches' | 'revise' | 'rows' | 'touchedGroups'> = { matches: null };
    try {
      const r = await run(handed.filters, handed.groups);
      effect = r;
      if (r.matches && r.touches) record.touches = r.touches;
      return r.value;
    } finally {
      // Misses waiting on it go on after this block, which moves the cache on without awaiting.
      settle();
      record.ended = true;
      v.unended.delete(number);
      v.writing--;
      v.epoch++;
      this.#moveOn(v, viewId, effect, handed.made);
    }
  }

  /**
   * A write of another instance, told here after it committed (see the bus): the view's cached entries
   * move on as after a write of this instance; a miss under way is kept only if the write touched none
   * of its filter's rows.
   */
  remoteWrite(
    viewId: number,
    judge: (
      filters: CacheFilter<unknown>[],
      groups: WriteGroups,
    ) => Pick<WriteEffect<unknown>, 'matches' | 'revise' | 'touches' | 'rows' | 'touchedGroups'>,
  ): void {
    const v = this.#view(viewId);
    v.epoch++;
    const handed = this.#handed(v);
    const effect = judge(handed.filters, handed.groups);
    v.remoteWrites.set(++v.remote, effect.matches && effect.touches ? effect.touches : UNKNOWN);
    v.remoteWrites.delete(v.remote - WRITES_REMEMBERED);
    this.#moveOn(v, viewId, effect, handed.made);
  }

  /**
   * Rows of the view changed outside the server's record writes (told by the database, see row-notify.ts),
   * of which only the ids and scopes are known: the entries of every filter that `touches` says may hold
   * them are dropped, the others stay; a miss under way is kept only if its filter is not touched. The
   * observer is not told: the caller has the rows in memory read again.
   */
  outside(viewId: number, touches: (filter: CacheFilter<unknown>) => boolean): void {
    const v = this.#view(viewId);
    v.epoch++;
    v.remoteWrites.set(++v.remote, touches);
    v.remoteWrites.delete(v.remote - WRITES_REMEMBERED);
    for (const [key, f] of [...v.filters]) {
      if (!touches({ key, filter: f.filter, hits: f.hits })) continue;
      this.stats.outside += f.entries.size;
      for (const k of [...f.entries]) this.#delete(k);
    }
  }

  /**
   * Whether no other instance's write told here since `since` touched the filter: then the answer is the
   * same whether or not it holds them, and none is applied to it twice (it moves nothing of that filter).
   */
  #untouchedRemotely(v: ViewState, since: number, filter: CacheFilter<unknown>): boolean {
    for (let n = since + 1; n <= v.remote; n++) {
      const touches = v.remoteWrites.get(n);
      if (!touches || touches(filter)) return false;
    }
    return true;
  }

  /**
   * The filters a write's matches are to move on: the loose ones, and those of the groups it touched or
   * that were made after it began (`made`, which it cannot have judged); the other groups' filters are
   * untouched.
   */
  #judgedBy(v: ViewState, touchedGroups: ReadonlySet<string> | undefined, made: number): [string, FilterState][] {
    if (!touchedGroups) return [...v.filters];
    const out = [...v.loose];
    for (const [group, g] of v.groups) {
      if (g.made <= made && !touchedGroups.has(group)) continue;
      for (const key of g.keys) out.push([key, v.filters.get(key) as FilterState]);
    }
    return out;
  }

  /** Moves the view's entries on by a write's matches (null: the view is bumped) and revisions. */
  #moveOn(
    v: ViewState,
    viewId: number,
    { matches, revise, rows, touchedGroups }: Pick<WriteEffect<unknown>, 'matches' | 'revise' | 'rows' | 'touchedGroups'>,
    made: number,
  ): void {
    const moving = performance.now();
    if (!matches) this.bump(viewId);
    else {
      if (rows) this.observer?.written(viewId, rows);
      else this.observer?.forget(viewId);
      const touched = new Map<string, Map<string, unknown>>();
      for (const [filterKey, f] of this.#judgedBy(v, touchedGroups, made)) {
        const m = matches.get(filterKey);
        if (!m) {
          this.stats.unjudged += f.entries.size;
          for (const k of [...f.entries]) this.#delete(k);
          continue;
        }
        // Only the entries of filters a written row matched change.
        if (!m.before && !m.after) continue;
        const values = new Map<string, unknown>();
        const recount: string[] = [];
        for (const k of f.entries) {
          const e = this.#entries.get(k) as Entry;
          if (e.count) {
            const held = (e.value as number) + m.after - m.before;
            if (e.recount?.(held)) recount.push(k);
            else {
              e.value = held;
              this.stats.counted++;
            }
          } else values.set(k, e.value);
        }
        for (const k of recount) this.#delete(k);
        if (values.size) touched.set(filterKey, values);
      }
      for (const [filterKey, values] of touched) {
        const kept = revise?.(filterKey, values);
        for (const [k, old] of values) {
          const value = kept?.get(k);
          const e = this.#entries.get(k) as Entry;
          if (value === undefined) {
            this.stats.unrevised++;
            this.#delete(k);
          } else if (value !== old) {
            this.stats.revised++;
            const weight = Math.max(1, e.weigh(value));
            this.#weight += weight - e.weight;
            Object.assign(e, { value, weight });
          }
        }
      }
    }
    this.stats.writeMs += performance.now() - moving;
  }
}
