import { type Kysely, type RawBuilder, sql } from 'kysely';
import { databaseOf } from '../db/audit.js';
import type { DB } from '../db/schema.js';
import { namedTable } from '../lib/named-table.js';
import type { ListQuery, SortKey } from './list-types.js';
import type { ViewModel } from './view-model.js';

/**
 * Where a written row falls in a cached block of list rows: a block stays valid when every matching
 * state of the written row (before and after the write) sorts strictly after the block's last row.
 * Sort keys travel as exact text: times in one fixed format (so text order is time order), numbers as
 * PostgreSQL prints them, text as stored. Whatever cannot be decided in JavaScript (text under a
 * collation other than byte order, nulls, numbers equal as doubles but spelled differently) counts as
 * "cannot tell": the block is dropped.
 */

/** How a column's values compare: times and numbers by value, text by the database's collation. */
export type Kind = 'time' | 'number' | 'text';
const SYSTEM_KIND: Record<string, Kind> = namedTable({ id: 'number', create_time: 'time', update_time: 'time' });
/** json_build_object takes at most 100 arguments: the written row's keys are sent for this many columns. */
const MAX_KEYED_COLUMNS = 45;

/** Each view's column kinds, as they are asked for (a write compares its rows' keys many times). */
const kinds = new WeakMap<ViewModel, Map<string, Kind>>();

export function kindOf(view: ViewModel, column: string): Kind {
  let known = kinds.get(view);
  if (!known) {
    known = new Map();
    kinds.set(view, known);
  }
  let kind = known.get(column);
  if (!kind) {
    const field = view.fields.find((f) => f.column === column);
    kind =
      SYSTEM_KIND[column] ??
      (field?.dataType === 'datetime' ? 'time' : field?.dataType === 'long' || field?.dataType === 'decimal' ? 'number' : 'text');
    known.set(column, kind);
  }
  return kind;
}

function keyExpression(view: ViewModel, column: string): RawBuilder<string | null> {
  const col = sql.ref(`t.${column}`);
  return kindOf(view, column) === 'time' ? sql`to_char(${col}, 'YYYY-MM-DD HH24:MI:SS.US')` : sql`${col}::text`;
}

/** Name of the extra column that carries a listed row's sort key; never a field's name. */
export const SORT_KEY = '#key';

/** The sort key of each listed row, in the query's order, as one more output column. */
export function sortKeyColumn(view: ViewModel, q: ListQuery): RawBuilder<unknown> {
  return sql`json_build_array(${sql.join(q.sort.map((s) => keyExpression(view, s.column)))}) as ${sql.id(SORT_KEY)}`;
}

/** Columns a list can be sorted by whose keys a written row reports: id, the system times, sortable fields. */
function keyedColumns(view: ViewModel): string[] {
  const columns = ['id', 'create_time', 'update_time', ...view.fields.filter((f) => f.sortable).map((f) => f.column)];
  return [...new Set(columns)].slice(0, MAX_KEYED_COLUMNS);
}

/** The written row `t`'s keys, column → exact text, for RETURNING. */
export function rowKeys(view: ViewModel): RawBuilder<Record<string, string | null>> {
  const pairs = keyedColumns(view).flatMap((c) => [sql.lit(c), keyExpression(view, c)]);
  return sql`json_build_object(${sql.join(pairs)})`;
}

/** How the view's rows compare: its fields' kinds, and whether text sorts by its UTF-8 bytes (collation C). */
export interface Ordering {
  view: ViewModel;
  textInByteOrder: boolean;
}

/**
 * Texts whose order tells a code-point collation from a language's: case, accents, combining marks,
 * punctuation and spaces, digits, Han characters, the private use area, and characters past U+FFFF.
 */
const ORDER_PROBE = [
  '',
  ' ',
  '!',
  '-a',
  '1',
  '10',
  '9',
  'A',
  'B',
  'Z',
  '_',
  'a',
  'a b',
  'a-',
  'a-b',
  'a_b',
  'ab',
  'b',
  'e',
  'f',
  'z',
  '~',
  'ss',
  '¥',
  'ß',
  'á',
  'a\u0301',
  'é',
  'İ',
  'Ω',
  'ｱ',
  '中',
  '废',
  '文',
  '矿',
  '\uE000',
  '\uFFFD',
  '😀',
  '𠀀',
];

/**
 * Whether the database sorts text by its bytes, so that JavaScript can compare it: collation C or POSIX
 * by libc; or C.UTF-8 by libc, which sorts by code point (the same order), when a probe of texts that
 * other collations sort differently comes back in byte order.
 */
export async function textInByteOrder(db: Kysely<DB>): Promise<boolean> {
  try {
    const r = await sql<{ collate: string; provider: string | null }>`
      select datcollate as collate, to_jsonb(d) ->> 'datlocprovider' as provider
      from pg_database d where datname = current_database()`.execute(db);
    const row = r.rows[0];
    if (!row || (row.provider !== null && row.provider !== 'c')) return false;
    if (row.collate === 'C' || row.collate === 'POSIX') return true;
    return /^C\.(UTF-?8|utf-?8)$/.test(row.collate) && (await probeSortsByBytes(db));
  } catch {
    return false;
  }
}

/** Per database: whether text sorts by its bytes, asked once; `known` once answered. */
const byteOrder = new WeakMap<object, { asked: Promise<boolean>; known?: boolean }>();

/** Whether the database sorts text by its bytes, asked once per database (`known` once answered). */
export function byteOrderOf(db: Kysely<DB>): { asked: Promise<boolean>; known?: boolean } {
  let bytes = byteOrder.get(databaseOf(db));
  if (!bytes) {
    const entry: { asked: Promise<boolean>; known?: boolean } = { asked: textInByteOrder(db) };
    // A failed question is answered to the writes that await it; nothing is known until then.
    entry.asked.then(
      (b) => {
        entry.known = b;
      },
      () => {},
    );
    byteOrder.set(databaseOf(db), entry);
    bytes = entry;
  }
  return bytes;
}

/** Whether the database sorts text by its bytes (asked once per database). */
export const textSortsByBytes = (ctx: { db: Kysely<DB> }): Promise<boolean> => byteOrderOf(ctx.db).asked;

/** Whether the database sorts the probe's texts in byte order, by its default collation or the one named. */
export async function probeSortsByBytes(db: Kysely<DB>, collation?: string): Promise<boolean> {
  const by = collation === undefined ? sql`x` : sql`x collate ${sql.id(collation)}`;
  const probe = await sql<{ sorted: string[] }>`
    select array_agg(x order by ${by}) as sorted from unnest(${[...ORDER_PROBE].reverse()}::text[]) as x`.execute(db);
  const sorted = probe.rows[0]?.sorted ?? [];
  const expected = [...ORDER_PROBE].sort(compareBytes);
  return sorted.length === expected.length && sorted.every((x, i) => x === expected[i]);
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Two texts in the order of their UTF-8 bytes (collation C), as -1, 0 or 1. */
export function compareBytes(x: string, y: string): -1 | 0 | 1 {
  if (x === y) return 0;
  // UTF-16 code units sort as UTF-8 bytes do, except surrogates against U+E000–U+FFFF.
  if (!SURROGATE.test(x) && !SURROGATE.test(y)) return x < y ? -1 : 1;
  return Buffer.compare(Buffer.from(x), Buffer.from(y)) as -1 | 0 | 1;
}

/** x against y in ascending order, or undefined when it cannot be told here. */
function compare(kind: Kind, x: string | null | undefined, y: string | null | undefined, bytes: boolean): -1 | 0 | 1 | undefined {
  if (x === undefined || y === undefined) return undefined;
  if (x === null || y === null) return x === y ? 0 : undefined;
  if (x === y) return 0;
  if (kind === 'time') return x < y ? -1 : 1;
  if (kind === 'text') return bytes ? compareBytes(x, y) : undefined;
  if (kind === 'number') {
    const a = Number(x);
    const b = Number(y);
    // Rounding to doubles keeps order, so doubles that differ tell; equal ones do not.
    return a < b ? -1 : a > b ? 1 : undefined;
  }
  return undefined;
}

/** Whether a row with keys `row` sorts before (-1) or after (1) the row whose sort key is `other`, or undefined. */
function side(how: Ordering, order: ListQuery['sort'], row: Record<string, string | null>, other: SortKey): -1 | 1 | undefined {
  for (const [i, s] of order.entries()) {
    const o = other[i];
    const c = compare(kindOf(how.view, s.column), row[s.column], o === null || o === undefined ? o : String(o), how.textInByteOrder);
    if (c === undefined) return undefined;
    if (c !== 0) return (s.dir === 'asc' ? c : -c) as -1 | 1;
  }
  // The same key is the same row (id closes every order): not a place another row can take.
  return undefined;
}

/** True when a row with keys `row` sorts strictly before the row whose sort key is `first`, in `order`. */
export function sortsBefore(how: Ordering, order: ListQuery['sort'], row: Record<string, string | null>, first: SortKey): boolean {
  return side(how, order, row, first) === -1;
}

/** True when a row with keys `row` sorts strictly after the row whose sort key is `last`, in `order`. */
export function sortsAfter(how: Ordering, order: ListQuery['sort'], row: Record<string, string | null>, last: SortKey): boolean {
  return side(how, order, row, last) === 1;
}

/**
 * Where a row with keys `row` goes among rows sorted by `order` with these keys: the index of the first
 * row it sorts before, keys.length when after them all, undefined when that cannot be told here.
 */
export function placeAmong(
  how: Ordering,
  order: ListQuery['sort'],
  row: Record<string, string | null>,
  keys: readonly SortKey[],
): number | undefined {
  const last = keys.at(-1);
  if (!last) return 0;
  const end = side(how, order, row, last);
  if (end !== -1) return end === 1 ? keys.length : undefined;
  // Binary search for the first row it sorts before.
  let lo = 0;
  let hi = keys.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const c = side(how, order, row, keys[mid] as SortKey);
    if (c === undefined) return undefined;
    if (c < 0) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
