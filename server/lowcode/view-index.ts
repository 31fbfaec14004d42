import type { RowScope, RowTest } from '../access/rows.js';
import { dropOldest, used } from '../lib/recent.js';
import type { IndexedRow, ListFilter, ListQuery, RowBlock, SortKey, WrittenRows } from './list-types.js';
import { CHUNK_PLACES, PackedColumn } from './packed-column.js';
import type { Row } from './record-input.js';
import { jsonTime, rowMatcher, textSearch } from './row-match.js';
import { comparable, comparer, type Held, type Order, RowSet } from './row-order.js';
import { type Kind, kindOf } from './row-position.js';
import type { ViewModel } from './view-model.js';

/**
 * One view's rows in memory, answering a list's pages, counts and records exactly as the database
 * would, or undefined where it cannot: a filter that rowMatcher tests in JavaScript (its scope too), in
 * one column's order (and id), where that column's values compare here as PostgreSQL compares them.
 *
 * It holds either every row of the view, or the rows of one scope only (`within`: a company's), which
 * then answers that scope's lists and records alone.
 *
 * How it stays cheap: the rows of each scope asked for are kept apart (a company walks its own rows);
 * each column's order is a typed array of row places, sorted once and kept sorted (see RowSet); each
 * filter's result is kept as a byte per row, filled in as rows are walked; a text search runs over the
 * column's cells joined in chunks rather than row by row (see PackedColumn).
 */

/** Same state: the same columns and the same listed row. */
function same(a: IndexedRow | undefined, b: IndexedRow | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return JSON.stringify(a.raw) === JSON.stringify(b.raw) && JSON.stringify(a.row) === JSON.stringify(b.row);
}

/** What one write did to one row: the state it found the row in and the one it left it in (none: absent). */
interface RowStep<T> {
  gone?: T;
  come?: T;
}

/** A write's rows by id. */
function byRow<T extends { id: number }>(gone: readonly T[], come: readonly T[]): Map<number, RowStep<T>> {
  const out = new Map<number, RowStep<T>>();
  for (const r of gone) out.set(r.id, { gone: r });
  for (const r of come) {
    const step = out.get(r.id);
    if (step) step.come = r;
    else out.set(r.id, { come: r });
  }
  return out;
}

/** Rows whose passed state apply() remembers. */
const PASSED = 1024;

/** A column's texts are shared between rows while it has at most this many distinct ones, each at most this long. */
const SHARED_VALUES = 1024;
const SHARED_MAX_LENGTH = 64;
/** Fewest places a filter's marks have room for: an index of few rows (a small scope's) stays small. */
const MIN_CAPACITY = 64;
/** Marks arrays let go of that are kept to be filled again. */
const SPARE_MARKS = 4;

/** Most scopes whose rows are kept apart (each a company's or an account's), least recently used out. */
const SCOPES_KEPT = 32;
/**
 * Most filters whose result is kept for every row (a byte a row, filled in as rows are walked), least
 * recently used out: many lists share a filter (every company's, every page and order).
 */
const MARKS_KEPT = 128;
/** Most text searches whose marks are kept apart: each is mostly asked for once, and would push the others out. */
const SEARCH_MARKS_KEPT = 16;
/** A filter's mark for a row: not tested yet, matches, does not, cannot be told here. */
const PENDING = 0;
const NO = 1;
const YES = 2;
const UNTOLD = 3;

/** A filter as the walks test it: its test, and its marks by place (none when every row matches). */
interface Filter {
  test: RowTest;
  marks: Uint8Array | undefined;
}

/** What the indexes did since the server started (for benches and diagnostics). */
export interface IndexStats {
  /** Views or scopes read into memory and kept. */
  built: number;
  forgotten: number;
  broken: number;
  /** Views or scopes found too large before a row of them was read (see RowIndexes). */
  refused: number;
  /** Sizes asked of the database before reading: the planner's estimate, or a count that stops past the bound. */
  sized: number;
  /** Rows read into memory. */
  read: number;
  /** Reads whose rows were not kept: the view or scope grew past the bound meanwhile, changed, or the read failed. */
  discarded: number;
  /** Views or scopes let go of to make room for others. */
  evicted: number;
  /** Views or scopes that fitted the bound but found no room: every other held one was in use. */
  crowded: number;
  /** Rows read again after they changed outside the server. */
  reread: number;
  /** Pages and counts answered here, rows they walked, and filters marked for every row. */
  pages: number;
  counts: number;
  walked: number;
  marked: number;
  /** Rows tested by a filter (not read from its marks). */
  tested: number;
  /** Orders sorted (a column's, for all rows or a scope's). */
  sorted: number;
  /** Text searches answered by the places found for the same text before (not searched again). */
  found: number;
}

export const newStats = (): IndexStats => ({
  built: 0,
  forgotten: 0,
  broken: 0,
  refused: 0,
  sized: 0,
  read: 0,
  discarded: 0,
  evicted: 0,
  crowded: 0,
  reread: 0,
  pages: 0,
  counts: 0,
  walked: 0,
  marked: 0,
  tested: 0,
  sorted: 0,
  found: 0,
});

/**
 * A row's sort key for `sort`. Not a closure in the walk: a loop body whose variables a closure captures
 * is given a context object at every turn, rows skipped included.
 */
function sortKeyOf(sort: ListQuery['sort'], keys: Record<string, string | null>): SortKey {
  const key: (string | null)[] = [];
  for (const s of sort) key.push(keys[s.column] ?? null);
  return key;
}

/** One view's rows in memory. */
export class ViewIndex {
  readonly #byId = new Map<number, Held>();
  /** States rows were in when a write took them out unheld (see apply), by id, most recent last. */
  readonly #passed = new Map<number, Held>();
  /** The rows by place (see Held). */
  readonly #held: (Held | undefined)[] = [];
  readonly #all: RowSet;
  /** The rows of each scope asked for, apart: a company's list walks and counts its own rows only. */
  readonly #scopes = new Map<string, { test: RowTest; rows: RowSet } | null>();
  /** Columns that hold timestamps: held as jsonTime reads them, so that a test reads them as they are. */
  readonly #times: string[];
  /** Places in the marks (see MARKS_KEPT) given so far, and those free again. */
  #used = 0;
  readonly #free: number[] = [];
  #capacity: number;
  /** Filters' marks by filter key, least recently used first: text searches apart from the rest. */
  readonly #marks = new Map<string, { marks: Uint8Array }>();
  readonly #searchMarks = new Map<string, { marks: Uint8Array }>();
  /** Marks let go of, kept for the next filters (a text search each call would otherwise allocate 100 KB). */
  readonly #spare: Uint8Array[] = [];
  readonly #tests = new WeakMap<ListQuery, RowTest | null>();
  /** Text columns packed for searches, by column. */
  readonly #packed = new Map<string, PackedColumn>();
  /** Each column's texts as held (see #shared); null: a column of too many distinct values. */
  readonly #values = new Map<string, Map<string, string> | null>();

  constructor(
    readonly view: ViewModel,
    private readonly textInByteOrder: boolean,
    rows: Iterable<IndexedRow>,
    /** Counters of what was read here (see RowIndexes.stats). */
    private readonly stats: IndexStats = newStats(),
    /** The scope whose rows alone are held (rows out of it are left out); undefined: every row of the view. */
    readonly within?: RowScope & { test: RowTest },
  ) {
    this.#times = ['create_time', 'update_time', ...view.fields.filter((f) => f.dataType === 'datetime').map((f) => f.column)];
    const own: Held[] = [];
    for (const r of rows) if (this.#holds(r)) own.push(this.#own(r));
    this.#capacity = Math.max(MIN_CAPACITY, Math.ceil(own.length * 1.25));
    for (const r of own) {
      this.#byId.set(r.id, r);
      r.place = this.#used++;
      this.#held[r.place] = r;
    }
    this.#all = this.#set(own);
  }

  get size(): number {
    return this.#byId.size;
  }

  #set(rows: Iterable<Held>): RowSet {
    const kinds = new Map<string, Kind>();
    const kind = (column: string) => {
      let k = kinds.get(column);
      if (!k) {
        k = kindOf(this.view, column);
        kinds.set(column, k);
      }
      return k;
    };
    return new RowSet(
      (column, row) => comparable(kind(column), this.textInByteOrder, row.keys[column]),
      (column) => comparer(kind(column), column),
      this.#held,
      rows,
      () => {
        this.stats.sorted++;
      },
    );
  }

  /** Whether the row is one this index holds: in its scope (undefined when the scope's test cannot tell it). */
  #holds(row: IndexedRow): boolean | undefined {
    return this.within ? this.within.test(row.raw) : true;
  }

  /** The row with its timestamps read once (a value jsonTime cannot read becomes `false`: never told). */
  #own(row: IndexedRow): Held {
    const raw = { ...row.raw };
    for (const c in raw) {
      const v = raw[c];
      if (typeof v === 'string') raw[c] = this.#shared(c, v);
    }
    // The listed row and the sort keys hold the same texts as the columns mostly: one copy of each is kept.
    // (The same text in another string: nothing a reader of these objects can tell apart.)
    const listed = row.row;
    for (const k in listed) {
      const v = listed[k];
      if (typeof v !== 'string') continue;
      const same = raw[k];
      listed[k] = same === v ? same : this.#shared(k, v);
    }
    const keys = row.keys;
    for (const k in keys) {
      const v = keys[k];
      if (typeof v === 'string' && raw[k] === v) keys[k] = raw[k] as string;
    }
    for (const c of this.#times) if (c in raw) raw[c] = jsonTime(raw[c]) ?? false;
    return { id: row.id, row: listed, raw, keys, place: -1 };
  }

  /**
   * The column's text as other rows hold it already, when the column has few distinct values (a
   * dictionary's, a picked record's label): each is then held once, not once a row.
   */
  #shared(column: string, v: string): string {
    if (v.length > SHARED_MAX_LENGTH) return v;
    let values = this.#values.get(column);
    if (values === null) return v;
    if (!values) {
      values = new Map();
      this.#values.set(column, values);
    }
    const known = values.get(v);
    if (known !== undefined) return known;
    // Too many distinct values to share: the texts shared so far stay shared, the map goes.
    if (values.size >= SHARED_VALUES) this.#values.set(column, null);
    else values.set(v, v);
    return v;
  }

  /** The rows in the scope (all rows without one); null when its test cannot tell them. */
  #rowsOf(scope: RowScope | undefined): RowSet | null {
    // The rows of one scope answer that scope only.
    if (this.within) return scope?.key === this.within.key ? this.#all : null;
    if (!scope) return this.#all;
    const known = used(this.#scopes, scope.key);
    if (known !== undefined) return known?.rows ?? null;
    const test = scope.test;
    let kept: { test: RowTest; rows: RowSet } | null = null;
    if (test) {
      const rows: Held[] = [];
      let told = true;
      for (const r of this.#all.rows) {
        const m = test(r.raw);
        if (m === undefined) {
          told = false;
          break;
        }
        if (m) rows.push(r);
      }
      if (told) kept = { test, rows: this.#set(rows) };
    }
    this.#scopes.set(scope.key, kept);
    dropOldest(this.#scopes, SCOPES_KEPT);
    return kept?.rows ?? null;
  }

  #remove(row: Held): void {
    this.#byId.delete(row.id);
    this.#all.remove(row);
    for (const s of this.#scopes.values()) s?.rows.remove(row);
    this.#held[row.place] = undefined;
    for (const p of this.#packed.values()) p.changed(row.place);
    this.#free.push(row.place);
  }

  #add(row: Held): void {
    this.#byId.set(row.id, row);
    const place = this.#free.pop() ?? this.#used++;
    row.place = place;
    this.#held[place] = row;
    if (place >= this.#capacity) {
      this.#capacity *= 2;
      for (const m of [...this.#marks.values(), ...this.#searchMarks.values()]) {
        const grown = new Uint8Array(this.#capacity);
        grown.set(m.marks);
        m.marks = grown;
      }
    }
    for (const m of this.#marks.values()) m.marks[place] = PENDING;
    for (const m of this.#searchMarks.values()) m.marks[place] = PENDING;
    for (const p of this.#packed.values()) p.changed(place, row);
    this.#all.add(row);
    for (const [key, s] of this.#scopes) {
      if (!s) continue;
      const m = s.test(row.raw);
      if (m === undefined) this.#scopes.set(key, null);
      else if (m) s.rows.add(row);
    }
  }

  /**
   * Applies a write. A row already in its written state is left (the index was read after the write
   * committed); otherwise it must be in the state the write found it in. False when it is in neither:
   * the index no longer knows the table.
   */
  apply(w: WrittenRows): boolean {
    const gone = this.#heldOf(w.gone);
    const come = this.#heldOf(w.come);
    if (!gone || !come) return false;
    for (const [id, { gone: before, come: after }] of byRow(gone, come)) {
      const current = this.#byId.get(id);
      // A state some write already took the row out of: this write ended after a later one (another server's).
      if (after && same(this.#passed.get(id), after)) return false;
      if (same(current, after)) {
        // Neither held nor held after: read after the write, or a later write of the row ended first.
        if (!current && before) this.#pass(id, before);
        continue;
      }
      if (!same(current, before)) return false;
      if (current) this.#remove(current);
      if (after) this.#add(after);
    }
    return true;
  }

  /** Remembers the state a write found a row in that the index did not hold (see apply), for PASSED rows. */
  #pass(id: number, state: Held): void {
    this.#passed.delete(id);
    this.#passed.set(id, state);
    if (this.#passed.size > PASSED)
      for (const oldest of this.#passed.keys()) {
        this.#passed.delete(oldest);
        break;
      }
  }

  /** The rows as held, those out of the scope left out; undefined when the scope cannot tell one. */
  #heldOf(rows: readonly IndexedRow[]): Held[] | undefined {
    const out: Held[] = [];
    for (const r of rows) {
      const m = this.#holds(r);
      if (m === undefined) return undefined;
      if (m) out.push(this.#own(r));
    }
    return out;
  }

  /**
   * Sets each row to its last written state (or takes it out), for writes that ended while the index was
   * read. A row's writes chain (each found the row as the one before left it), whatever order they ended
   * in here; the last is the one whose state no other write found. False when the scope cannot tell a
   * written row, or a row's writes do not chain: the index no longer knows its rows.
   */
  settle(writes: readonly WrittenRows[]): boolean {
    const steps = new Map<number, RowStep<IndexedRow>[]>();
    for (const w of writes)
      for (const [id, step] of byRow(w.gone, w.come)) {
        const chain = steps.get(id);
        if (chain) chain.push(step);
        else steps.set(id, [step]);
      }
    for (const [id, chain] of steps) {
      const ends = chain.filter((s, i) => !chain.some((t, j) => j !== i && t.gone && s.come && same(t.gone, s.come)));
      if (ends.length !== 1) return false;
      const row = (ends[0] as RowStep<IndexedRow>).come;
      const m = row ? this.#holds(row) : false;
      if (m === undefined) return false;
      const current = this.#byId.get(id);
      if (current) this.#remove(current);
      if (row && m) this.#add(this.#own(row));
    }
    return true;
  }

  /**
   * Sets the rows of `ids` to `rows`, as read from the table now; an id without a row, or whose row is
   * now outside the scope held, is taken out. False when a row's place in the scope cannot be told here
   * (the index must then be let go of).
   */
  replace(ids: readonly number[], rows: readonly IndexedRow[]): boolean {
    const read = new Map(rows.map((r) => [r.id, r]));
    for (const id of ids) {
      const current = this.#byId.get(id);
      if (current) this.#remove(current);
      const row = read.get(id);
      const m = row ? this.#holds(row) : false;
      if (m === undefined) return false;
      if (row && m) this.#add(this.#own(row));
    }
    return true;
  }

  /** The filter's test without the scope, made once per list call (which asks up to three times). */
  #testOf(q: ListQuery): RowTest | undefined {
    let test = this.#tests.get(q);
    if (test === undefined) {
      test = rowMatcher(q, { scope: false, plainTimes: true }) ?? null;
      this.#tests.set(q, test);
    }
    return test ?? undefined;
  }

  /** The filter without the scope (the scope's rows are walked), with its marks; undefined when it cannot be told here. */
  #filter(q: ListQuery): Filter | undefined {
    const test = this.#testOf(q);
    if (!test) return undefined;
    if (!q.filters.length && !q.startTime && !q.endTime) return { test, marks: undefined };
    const search = q.filters.find((f) => textSearch(f) !== undefined);
    const all = search ? this.#searchMarks : this.#marks;
    let kept = used(all, q.filterKey);
    if (!kept) {
      kept = { marks: search ? this.#searched(q, search, test) : this.#blankMarks(PENDING) };
      this.stats.marked++;
      all.set(q.filterKey, kept);
      // Walks never keep marks past the call that asked for them: the bytes serve the next filter.
      dropOldest(all, search ? SEARCH_MARKS_KEPT : MARKS_KEPT, (out) => {
        if (this.#spare.length < SPARE_MARKS) this.#spare.push(out.marks);
      });
    }
    return { test, marks: kept.marks };
  }

  /** Marks for a new filter, every row set to `mark`: bytes let go of by another filter when there are some. */
  #blankMarks(mark: number): Uint8Array {
    let marks = this.#spare.pop();
    while (marks && marks.length !== this.#capacity) marks = this.#spare.pop();
    return (marks ?? new Uint8Array(this.#capacity)).fill(mark);
  }

  /**
   * Every row's mark for a filter with a text search, found by searching the column's text packed in
   * chunks (one search over contiguous text, not a test per row); the rows it finds are tested by the
   * rest of the filter. A chunk holding a cell that is not text is tested row by row.
   */
  #searched(q: ListQuery, search: ListFilter, test: RowTest): Uint8Array {
    const { column, text } = textSearch(search) as { column: string; text: string };
    const rest = rowMatcher({ ...q, filters: q.filters.filter((f) => f !== search) }, { scope: false, plainTimes: true });
    const marks = this.#blankMarks(NO);
    let packed = this.#packed.get(column);
    if (!packed) {
      packed = new PackedColumn(column);
      this.#packed.set(column, packed);
    }
    const mark = (place: number, t: RowTest | undefined) => {
      const r = t ? t((this.#held[place] as Held).raw) : undefined;
      marks[place] = r === undefined ? UNTOLD : r ? YES : NO;
    };
    const known = packed.found(text, this.#held);
    if (known) {
      this.stats.found++;
      for (const place of known) if (this.#held[place]) mark(place, rest);
      return marks;
    }
    // The places found, remembered when every chunk was text.
    let found: Set<number> | undefined = new Set<number>();
    for (let chunk = 0; chunk * CHUNK_PLACES < this.#used; chunk++) {
      const c = packed.chunk(chunk, this.#held, this.#used);
      if (!c) {
        found = undefined;
        for (let p = chunk * CHUNK_PLACES; p < Math.min(this.#used, (chunk + 1) * CHUNK_PLACES); p++) if (this.#held[p]) mark(p, test);
        continue;
      }
      for (let at = c.text.indexOf(text); at >= 0; ) {
        // The cell the text was found in (the last that starts at or before it); its next cell is searched on.
        let lo = 0;
        let hi = c.starts.length - 1;
        while (lo < hi) {
          const mid = (lo + hi + 1) >> 1;
          if ((c.starts[mid] as number) <= at) lo = mid;
          else hi = mid - 1;
        }
        const place = chunk * CHUNK_PLACES + lo;
        if (this.#held[place]) {
          found?.add(place);
          mark(place, rest);
        }
        at = lo + 1 < c.starts.length ? c.text.indexOf(text, c.starts[lo + 1]) : -1;
      }
    }
    if (found) packed.keep(text, found);
    return marks;
  }

  /** The mark of the row at `place`, tested now when it is not yet. */
  #match(filter: Filter, place: number): number {
    const marks = filter.marks;
    if (!marks) return YES;
    const m = marks[place] as number;
    if (m !== PENDING) return m;
    const r = filter.test((this.#held[place] as Held).raw);
    this.stats.tested++;
    const mark = r === undefined ? UNTOLD : r ? YES : NO;
    marks[place] = mark;
    return mark;
  }

  /** The order of `q`'s rows here (of its scope); undefined when it cannot be read here. */
  #order(q: ListQuery): Order | undefined {
    const lead = q.sort[0];
    // One column and id, or id alone; the tie-break runs the same way as the column.
    if (!lead || q.sort.length > 2 || (q.sort.length === 2 && (q.sort[1]?.column !== 'id' || q.sort[1]?.dir !== lead.dir)))
      return undefined;
    return this.#rowsOf(q.scope)?.order(lead.column) ?? undefined;
  }

  /** The order of `q`'s rows here (of its scope), with its filter; undefined when it cannot be read here. */
  #walk(q: ListQuery): { order: Order; filter: Filter } | undefined {
    const order = this.#order(q);
    const filter = order && this.#filter(q);
    return order && filter ? { order, filter } : undefined;
  }

  /** Whether `q`'s pages can be read here (a row a test cannot tell may still turn them down); marks nothing. */
  answers(q: ListQuery): boolean {
    return this.#order(q) !== undefined && this.#testOf(q) !== undefined;
  }

  /** The rows of `q` from `offset`, at most `limit`, in its order; undefined when that cannot be told here. */
  page(q: ListQuery, offset: number, limit: number): RowBlock | undefined {
    const walk = this.#walk(q);
    if (!walk) return undefined;
    const { order, filter } = walk;
    const lead = q.sort[0] as ListQuery['sort'][number];
    const rows: Row[] = [];
    const keys: SortKey[] = [];
    const places = order.places;
    const n = order.length;
    const step = lead.dir === 'asc' ? 1 : -1;
    let skip = offset;
    const first = step === 1 ? 0 : n - 1;
    let i = first;
    // Every row matches when there is no filter: the page starts `offset` rows in.
    if (!filter.marks) {
      i = first + step * Math.min(offset, n);
      skip = 0;
    }
    const start = i;
    for (; i >= 0 && i < n && rows.length < limit; i += step) {
      const place = places[i] as number;
      const m = this.#match(filter, place);
      if (m === NO) continue;
      if (m === UNTOLD) return undefined;
      if (skip > 0) {
        skip--;
        continue;
      }
      const r = this.#held[place] as Held;
      rows.push(r.row);
      keys.push(sortKeyOf(q.sort, r.keys));
    }
    this.stats.pages++;
    this.stats.walked += Math.abs(i - start);
    return { rows, keys, toEnd: rows.length < limit };
  }

  /** The record as the list shows it (a copy), null when there is none within the scope, undefined when that cannot be told here. */
  record(id: number, scope: RowScope | undefined): Row | null | undefined {
    if (this.within && scope?.key !== this.within.key) return undefined;
    const r = this.#byId.get(id);
    if (!r) return null;
    const m = scope ? scope.test?.(r.raw) : true;
    return m === undefined ? undefined : m ? { ...r.row } : null;
  }

  /** How many rows `q` selects; undefined when that cannot be told here. */
  count(q: ListQuery): number | undefined {
    const rows = this.#rowsOf(q.scope);
    const filter = rows && this.#filter(q);
    if (!rows || !filter) return undefined;
    if (!filter.marks) return rows.rows.size;
    const byId = rows.order('id');
    if (!byId) return undefined;
    let n = 0;
    const { places, length } = byId;
    for (let i = 0; i < length; i++) {
      const m = this.#match(filter, places[i] as number);
      if (m === YES) n++;
      else if (m === UNTOLD) return undefined;
    }
    this.stats.counts++;
    this.stats.walked += length;
    return n;
  }
}
