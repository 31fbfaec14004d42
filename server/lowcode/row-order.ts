import type { IndexedRow } from './list-types.js';
import { compareBytes, type Kind } from './row-position.js';

/**
 * The row index's orders: each column's order of a set of rows as a typed array of row places, sorted
 * once and kept sorted as rows come and go, where that column's values compare here exactly as
 * PostgreSQL compares them (times, numbers as exact decimals, text only in byte order, nulls last
 * ascending, ties by id).
 */

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
export function comparable(kind: Kind, bytes: boolean, v: string | null | undefined): boolean {
  if (v === undefined) return false;
  if (v === null) return true;
  return kind === 'time' ? TIME.test(v) : kind === 'number' ? DECIMAL.test(v) : bytes;
}

/** Ascending, nulls last (PostgreSQL's default), ties by id. */
export function comparer(kind: Kind, column: string): (a: IndexedRow, b: IndexedRow) => number {
  const values =
    kind === 'time' ? (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0) : kind === 'number' ? compareDecimal : compareBytes;
  return (a, b) => {
    const x = a.keys[column] as string | null;
    const y = b.keys[column] as string | null;
    const c = x === y ? 0 : x === null ? 1 : y === null ? -1 : values(x, y);
    return c || a.id - b.id;
  };
}

/** A row as the index holds it: its timestamps read (see ViewIndex), and its place in the filters' marks. */
export interface Held extends IndexedRow {
  place: number;
}

/** Rows in one order, by their places (see Held): walks read a typed array, not objects. */
export class Order {
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

/** Rows, and the same rows sorted by a column as they are asked for. */
export class RowSet {
  readonly rows: Set<Held>;
  /** Ascending with ties by id; null: that column's values cannot be compared here. */
  readonly #orders = new Map<string, Order | null>();

  constructor(
    private readonly comparable: (column: string, row: Held) => boolean,
    private readonly comparer: (column: string) => Order['compare'],
    private readonly held: readonly (Held | undefined)[],
    rows: Iterable<Held>,
    /** Counts an order sorted (see IndexStats.sorted). */
    private readonly sorted: () => void,
  ) {
    this.rows = new Set(rows);
  }

  order(column: string): Order | null {
    let order = this.#orders.get(column);
    if (order !== undefined) return order;
    this.sorted();
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
