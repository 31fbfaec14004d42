import type { RowScope } from '../access/rows.js';
import { dropOldest, used } from '../lib/recent.js';
import { jsonTime, type ListQuery, type RowTest, rowMatcher, textSearch } from './list-query.js';
import type { Row } from './record-input.js';
import { compareBytes, type Kind, kindOf, type SortKey } from './row-position.js';
import type { ViewModel } from './view-model.js';

/**
 * The rows of a view held in memory, so that a list miss (a page or a count the list cache does not
 * hold) is answered without a statement. On PGlite a statement costs the one thread 2–6 ms for a page or
 * a count over 100,000 rows; walking the rows here costs a fraction of that, and no other call waits
 * for the database meanwhile.
 *
 * The index answers only what it can answer exactly as the database would: a filter that rowMatcher
 * tests in JavaScript (its scope too), in one column's order (and id), where that column's values are
 * compared here as PostgreSQL compares them (times, numbers as exact decimals, text only in byte order,
 * nulls last ascending). Anything else returns undefined, and the caller asks the database.
 *
 * How it stays cheap: the rows of each scope asked for are kept apart (a company walks its own rows);
 * each column's order is a typed array of row places, sorted once and kept sorted; each filter's result
 * is kept as a byte per row, filled in as rows are walked; a text search runs over the column's cells
 * joined in chunks rather than row by row.
 *
 * It stays equal to the table the way the list cache does: every record write through the list cache
 * (this instance's and, told by the bus, the other instances') hands it the written rows as they were
 * and are; anything else that bumps the view forgets it, and it is read again on a later miss. A write
 * whose "before" is not what the index holds (applied out of order) also forgets it.
 */

/** One record as the index holds it: the row as the list shows it, its columns (row_to_json), its sort keys. */
export interface IndexedRow {
  id: number;
  row: Row;
  raw: Record<string, unknown>;
  keys: Record<string, string | null>;
}

/** The rows a write changed: as they were (gone) and as they are (come). */
export interface WrittenRows {
  gone: readonly IndexedRow[];
  come: readonly IndexedRow[];
}

/** Reads rows with ids above `afterId`, in id order, at most `limit`. */
export type RowLoader = (afterId: number, limit: number) => Promise<IndexedRow[]>;

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

const TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

function compareDecimal(x: string, y: string): number {
  const xn = x.startsWith('-');
  const yn = y.startsWith('-');
  if (xn !== yn) return xn ? -1 : 1;
  const sign = xn ? -1 : 1;
  const [xi = '', xf = ''] = (xn ? x.slice(1) : x).split('.');
  const [yi = '', yf = ''] = (yn ? y.slice(1) : y).split('.');
  // PostgreSQL prints no leading zeros: a longer whole part is a larger number.
  if (xi.length !== yi.length) return sign * (xi.length - yi.length);
  if (xi !== yi) return sign * (xi < yi ? -1 : 1);
  const n = Math.max(xf.length, yf.length);
  const a = xf.padEnd(n, '0');
  const b = yf.padEnd(n, '0');
  return a === b ? 0 : sign * (a < b ? -1 : 1);
}

/** Whether a key of this kind is compared here exactly as PostgreSQL compares it. */
function comparable(kind: Kind, bytes: boolean, v: string | null | undefined): boolean {
  if (v === undefined) return false;
  if (v === null) return true;
  return kind === 'time' ? TIME.test(v) : kind === 'number' ? DECIMAL.test(v) : bytes;
}

/** Ascending, nulls last (PostgreSQL's default), ties by id. */
function comparer(kind: Kind, column: string): (a: IndexedRow, b: IndexedRow) => number {
  const values =
    kind === 'time' ? (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0) : kind === 'number' ? compareDecimal : compareBytes;
  return (a, b) => {
    const x = a.keys[column] as string | null;
    const y = b.keys[column] as string | null;
    const c = x === y ? 0 : x === null ? 1 : y === null ? -1 : values(x, y);
    return c || a.id - b.id;
  };
}

/** Same state: the same columns and the same listed row. */
function same(a: IndexedRow | undefined, b: IndexedRow | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return JSON.stringify(a.raw) === JSON.stringify(b.raw) && JSON.stringify(a.row) === JSON.stringify(b.row);
}

/** A row as the index holds it: its timestamps read (see ViewIndex), and its place in the filters' marks. */
interface Held extends IndexedRow {
  place: number;
}

/** Rows in one order, by their places (see Held): walks read a typed array, not objects. */
class Order {
  places: Int32Array;
  length: number;

  constructor(
    readonly compare: (a: Held, b: Held) => number,
    private readonly held: readonly (Held | undefined)[],
    rows: Held[],
  ) {
    rows.sort(compare);
    this.length = rows.length;
    this.places = new Int32Array(Math.max(16, Math.ceil(rows.length * 1.25)));
    for (const [i, r] of rows.entries()) this.places[i] = r.place;
  }

  /** Where `row` is or would go (the first row not before it). */
  #at(row: Held): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.compare(this.held[this.places[mid] as number] as Held, row) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(row: Held): void {
    if (this.length === this.places.length) {
      const grown = new Int32Array(this.places.length * 2);
      grown.set(this.places);
      this.places = grown;
    }
    const at = this.#at(row);
    this.places.copyWithin(at + 1, at, this.length);
    this.places[at] = row.place;
    this.length++;
  }

  /** False when the row is not where its keys put it (the order no longer knows its rows). */
  remove(row: Held): boolean {
    const at = this.#at(row);
    if (at >= this.length || this.places[at] !== row.place) return false;
    this.places.copyWithin(at, at + 1, this.length);
    this.length--;
    return true;
  }
}

/** A page of a list as the index reads it: like the block query's rows, with their sort keys. */
export interface IndexedPage {
  rows: Row[];
  keys: SortKey[];
  /** Fewer rows than asked for: the list ends in them. */
  toEnd: boolean;
}

/** Rows, and the same rows sorted by a column as they are asked for. */
class RowSet {
  readonly rows: Set<Held>;
  /** Ascending with ties by id; null: that column's values cannot be compared here. */
  readonly #orders = new Map<string, Order | null>();

  constructor(
    private readonly comparable: (column: string, row: Held) => boolean,
    private readonly comparer: (column: string) => Order['compare'],
    private readonly held: readonly (Held | undefined)[],
    rows: Iterable<Held>,
    private readonly stats: IndexStats,
  ) {
    this.rows = new Set(rows);
  }

  order(column: string): Order | null {
    let order = this.#orders.get(column);
    if (order !== undefined) return order;
    this.stats.sorted++;
    const rows = [...this.rows];
    order = rows.every((r) => this.comparable(column, r)) ? new Order(this.comparer(column), this.held, rows) : null;
    this.#orders.set(column, order);
    return order;
  }

  add(row: Held): void {
    this.rows.add(row);
    for (const [column, order] of this.#orders) {
      if (!order) continue;
      // A value this order cannot compare: the order is read again (and refused) when next asked for.
      if (!this.comparable(column, row)) this.#orders.delete(column);
      else order.insert(row);
    }
  }

  /** Takes the row out; call it before its place is given to another row. */
  remove(row: Held): void {
    if (!this.rows.delete(row)) return;
    for (const [column, order] of this.#orders) if (order && !order.remove(row)) this.#orders.delete(column);
  }
}

/** Marks arrays let go of that are kept to be filled again. */
const SPARE_MARKS = 4;
/** Places per chunk of a packed text column: a write has the chunk joined again, so chunks stay small. */
const CHUNK_PLACES = 1024;

/**
 * A text column's cells, joined by line breaks in chunks of places (an empty place or cell as nothing),
 * so that a search for text without line breaks runs over contiguous text. A chunk is joined again
 * after a row in it changed, when next searched.
 */
class PackedColumn {
  /** Each chunk's text and where each place's cell starts in it; null: a cell is not text. */
  readonly #chunks: ({ text: string; starts: Int32Array } | null | undefined)[] = [];
  /**
   * The places whose cell holds each text searched for lately (searches that found few rows), least
   * recently used first: the same text asked again, in another order, scope or with other filters, is not
   * searched for again. Each is brought up to date when it is asked for, by the places changed since
   * (`at`, a position in the log of changed places), so a write costs no more than a note.
   */
  readonly #found = new Map<string, { places: Set<number>; at: number }>();
  /** Places changed while texts were remembered; `#logStart` is the position of its first. */
  #log: number[] = [];
  #logStart = 0;

  constructor(readonly column: string) {}

  /** The row at `place` is taken out (`held` undefined) or put in. */
  changed(place: number, held?: Held): void {
    this.#chunks[Math.floor(place / CHUNK_PLACES)] = undefined;
    if (!this.#found.size) return;
    // A cell that is not text is tested row by row: what was found cannot tell it.
    if (held && typeof (held.raw[this.column] ?? '') !== 'string') {
      this.#found.clear();
      return;
    }
    this.#log.push(place);
    if (this.#log.length > LOG_MAX) {
      // The oldest half goes; texts not brought up to date since are searched for again.
      const dropped = this.#log.length >> 1;
      this.#log = this.#log.slice(dropped);
      this.#logStart += dropped;
    }
  }

  /** The places whose cell holds `text` now, when they were found lately. */
  found(text: string, held: readonly (Held | undefined)[]): ReadonlySet<number> | undefined {
    const entry = used(this.#found, text);
    if (!entry) return undefined;
    if (entry.at < this.#logStart) {
      this.#found.delete(text);
      return undefined;
    }
    const { places } = entry;
    for (let i = entry.at - this.#logStart; i < this.#log.length; i++) {
      const place = this.#log[i] as number;
      const v = held[place]?.raw[this.column] ?? '';
      if ((v as string).includes(text)) places.add(place);
      else places.delete(place);
    }
    entry.at = this.#logStart + this.#log.length;
    return places;
  }

  /** Remembers the places found to hold `text` (every chunk searched was text), when they are few. */
  keep(text: string, places: Set<number>): void {
    if (places.size > FOUND_MAX_PLACES) return;
    if (!this.#found.size) {
      // Nothing remembered needs the log: it starts again.
      this.#logStart += this.#log.length;
      this.#log = [];
    }
    this.#found.set(text, { places, at: this.#logStart + this.#log.length });
    dropOldest(this.#found, FOUND_KEPT);
  }

  chunk(n: number, held: readonly (Held | undefined)[], used: number): { text: string; starts: Int32Array } | null {
    let c = this.#chunks[n];
    if (c === undefined) {
      const from = n * CHUNK_PLACES;
      const to = Math.min(used, from + CHUNK_PLACES);
      const cells: string[] = [];
      const starts = new Int32Array(to - from);
      let length = 0;
      c = { text: '', starts };
      for (let p = from; p < to; p++) {
        const v = held[p]?.raw[this.column] ?? '';
        if (typeof v !== 'string') {
          c = null;
          break;
        }
        starts[p - from] = length;
        cells.push(v);
        length += v.length + 1;
      }
      if (c) c.text = cells.join('\n');
      this.#chunks[n] = c;
    }
    return c;
  }
}

/**
 * Texts whose places are remembered per column, and the most places remembered for one: a search is
 * mostly for a text few rows hold; a text many hold is searched for again (its marks are kept apart).
 */
const FOUND_KEPT = 1024;
const FOUND_MAX_PLACES = 512;
/** Changed places noted for the remembered texts: a text asked for again re-tests at most these. */
const LOG_MAX = 8192;

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
  built: number;
  forgotten: number;
  broken: number;
  refused: number;
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

const newStats = (): IndexStats => ({
  built: 0,
  forgotten: 0,
  broken: 0,
  refused: 0,
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

  constructor(
    readonly view: ViewModel,
    private readonly textInByteOrder: boolean,
    rows: Iterable<IndexedRow>,
    /** Counters of what was read here (see RowIndexes.stats). */
    private readonly stats: IndexStats = newStats(),
  ) {
    this.#times = ['create_time', 'update_time', ...view.fields.filter((f) => f.dataType === 'datetime').map((f) => f.column)];
    const own = [...rows].map((r) => this.#own(r));
    this.#capacity = Math.max(1024, Math.ceil(own.length * 1.25));
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
      this.stats,
    );
  }

  /** The row with its timestamps read once (a value jsonTime cannot read becomes `false`: never told). */
  #own(row: IndexedRow): Held {
    const raw = { ...row.raw };
    for (const c of this.#times) if (c in raw) raw[c] = jsonTime(raw[c]) ?? false;
    return { id: row.id, row: row.row, raw, keys: row.keys, place: -1 };
  }

  /** The rows in the scope (all rows without one); null when its test cannot tell them. */
  #rowsOf(scope: RowScope | undefined): RowSet | null {
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
    const gone = w.gone.map((r) => this.#own(r));
    const come = w.come.map((r) => this.#own(r));
    const ids = new Set([...gone.map((r) => r.id), ...come.map((r) => r.id)]);
    for (const id of ids) {
      const current = this.#byId.get(id);
      const before = gone.find((r) => r.id === id);
      const after = come.find((r) => r.id === id);
      if (same(current, after)) continue;
      if (!same(current, before)) return false;
      if (current) this.#remove(current);
      if (after) this.#add(after);
    }
    return true;
  }

  /** Sets each row to its last written state (or takes it out), for writes that ended while the index was read. */
  settle(writes: readonly WrittenRows[]): void {
    const last = new Map<number, IndexedRow | null>();
    for (const w of writes) {
      for (const r of w.gone) last.set(r.id, null);
      for (const r of w.come) last.set(r.id, r);
    }
    for (const [id, row] of last) {
      const current = this.#byId.get(id);
      if (current) this.#remove(current);
      if (row) this.#add(this.#own(row));
    }
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
  #searched(q: ListQuery, search: ListQuery['filters'][number], test: RowTest): Uint8Array {
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
  page(q: ListQuery, offset: number, limit: number): IndexedPage | undefined {
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
}

/** The indexes of one server's views (see ViewIndex). */
export class RowIndexes {
  readonly #slots = new Map<number, Slot>();
  /** What the indexes did since the server started (for benches and diagnostics). */
  readonly stats = newStats();

  constructor(
    readonly enabled: boolean,
    /** False while other instances' writes may go unheard (see ListCache): no index is served. */
    private readonly trusted: () => boolean = () => true,
  ) {}

  #slot(viewId: number): Slot {
    let s = this.#slots.get(viewId);
    if (!s) {
      s = { generation: 0, building: false };
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
    if (!this.enabled || !this.trusted()) return undefined;
    const s = this.#slot(view.id);
    if (s.index?.view === view) return s.index;
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
    if (!this.enabled || !this.trusted()) return undefined;
    const index = this.#slots.get(view.id)?.index;
    return index?.view === view ? index.record(id, scope) : undefined;
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
  }

  forgetAll(): void {
    for (const id of this.#slots.keys()) this.forget(id);
  }
}
