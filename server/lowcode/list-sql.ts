import { type RawBuilder, sql } from 'kysely';
import { isDateOnlyText, normalizeDateTime } from '../../src/model/index.js';
import { badRequest } from '../errors.js';
import { escapeLike, WIRE_TIME_FORMAT, wireTime } from '../lib/sql.js';
import { viewTable } from './ddl.js';
import type { ListFilter, ListQuery, SortKey } from './list-types.js';
import { referenceLabelColumn } from './reference-labels.js';
import { kindOf } from './row-position.js';
import type { ViewField, ViewModel } from './view-model.js';

/**
 * A list query in SQL, over the view's table as `t`: its filters and scope as a condition, its rows in
 * its order, its count, and the record as the wire shows it.
 */

/** A whole-number field compares with whole numbers its bigint column can hold; a decimal with finite numbers. */
function numberValues(f: ViewField, values: string[]): number[] {
  return values.map((v) => {
    const n = Number(v);
    const fits = f.dataType === 'long' ? /^\s*[-+]?\d+\s*$/.test(v) && Number.isSafeInteger(n) : v.trim() !== '' && Number.isFinite(n);
    if (!fits) throw badRequest('LIST_FILTER_INVALID', { field: f.name });
    return n;
  });
}

/** Columns are qualified: an ORDER BY "x" would otherwise sort by the output column "x" (to_char text). */
const ref = (column: string) => sql.ref(`t.${column}`);

function condition(f: ListFilter): RawBuilder<unknown> {
  const col = ref(f.column);
  const field = f.field;
  if (f.column === 'id') return sql`t.id in (${sql.join(f.values.map(Number))})`;
  if (!field) return sql`${col} = ${f.values[0]}`;
  if (field.dataType === 'long' || field.dataType === 'decimal') {
    const nums = numberValues(field, f.values);
    return nums.length === 1 ? sql`${col} = ${nums[0]}` : sql`${col} in (${sql.join(nums)})`;
  }
  if (field.dataType === 'datetime') {
    const times = f.values.map((v) => {
      const t = normalizeDateTime(v);
      if (!t) throw badRequest('LIST_FILTER_INVALID', { field: field.name });
      return { t, dateOnly: isDateOnlyText(v) };
    });
    // Two values are a range (a date picker's start and end); a lone date means that whole day.
    const [a, b] = times;
    if (a && b && times.length === 2) {
      const end = b.dateOnly ? `${b.t.slice(0, 10)} 23:59:59.999999` : b.t;
      return sql`${col} between ${a.t}::timestamp and ${end}::timestamp`;
    }
    return sql`(${sql.join(
      times.map(({ t, dateOnly }) =>
        dateOnly ? sql`(${col} >= ${t}::timestamp and ${col} < ${t}::timestamp + interval '1 day')` : sql`${col} = ${t}::timestamp`,
      ),
      sql` or `,
    )})`;
  }
  if (field.multiple) {
    return sql`string_to_array(${col}, ',') && ${f.values}::text[]`;
  }
  if (f.values.length > 1) return sql`${col} in (${sql.join(f.values)})`;
  const v = f.values[0] as string;
  if (field.city) return sql`${col} like ${`${escapeLike(v)}%`}`;
  if (field.exact) return sql`${col} = ${v}`;
  return sql`${col} ilike ${`%${escapeLike(v)}%`}`;
}

function conditions(q: ListQuery): RawBuilder<unknown>[] {
  const parts = q.filters.map(condition);
  if (q.scope) parts.unshift(q.scope.condition);
  if (q.startTime) parts.push(sql`t.create_time >= ${q.startTime}::timestamp`);
  if (q.endTime) parts.push(sql`t.create_time <= ${q.endTime}::timestamp`);
  return parts;
}

function whereClause(q: ListQuery, after?: RawBuilder<unknown>): RawBuilder<unknown> {
  const parts = conditions(q);
  if (after) parts.push(after);
  return parts.length ? sql`where ${sql.join(parts, sql` and `)}` : sql``;
}

/**
 * The rows that come after the one whose sort key is `key` in the query's order (keyset paging): a page
 * read onwards from the row before it starts where that row is in the order's index, instead of walking
 * and skipping every row before it as OFFSET does. Nulls sort last ascending and first descending, as
 * PostgreSQL sorts them. Undefined when the key does not fit the order.
 */
export function afterKey(view: ViewModel, q: ListQuery, key: SortKey): RawBuilder<unknown> | undefined {
  if (key.length !== q.sort.length) return undefined;
  const value = (column: string, k: string | number) => (kindOf(view, column) === 'time' ? sql`${String(k)}::timestamp` : sql`${k}`);
  const same = (column: string, k: string | number | null) =>
    k === null ? sql`${ref(column)} is null` : sql`${ref(column)} = ${value(column, k)}`;
  const beyond = (column: string, dir: 'asc' | 'desc', k: string | number | null): RawBuilder<unknown> | null => {
    if (dir === 'asc') return k === null ? null : sql`(${ref(column)} > ${value(column, k)} or ${ref(column)} is null)`;
    return k === null ? sql`${ref(column)} is not null` : sql`${ref(column)} < ${value(column, k)}`;
  };
  const alternatives: RawBuilder<unknown>[] = [];
  for (let i = 0; i < q.sort.length; i++) {
    const term = q.sort[i] as { column: string; dir: 'asc' | 'desc' };
    const past = beyond(term.column, term.dir, key[i] ?? null);
    if (past) alternatives.push(sql.join([...q.sort.slice(0, i).map((s, j) => same(s.column, key[j] ?? null)), past], sql` and `));
  }
  if (!alternatives.length) return sql`false`;
  const rows = sql`(${sql.join(alternatives, sql` or `)})`;
  // A bound on the first key that the order's index can start from: descending, nothing after a value
  // is above it (nulls come first); ascending, nulls come after every value, so there is no such bound.
  const lead = q.sort[0] as { column: string; dir: 'asc' | 'desc' };
  const k0 = key[0] ?? null;
  return lead.dir === 'desc' && k0 !== null ? sql`${ref(lead.column)} <= ${value(lead.column, k0)} and ${rows}` : rows;
}

/** True when the row `t` is one the query selects (its filters, not its order or page); never null. */
export function matchExpression(q: ListQuery): RawBuilder<boolean> {
  const parts = conditions(q);
  return parts.length ? sql<boolean>`coalesce((${sql.join(parts, sql` and `)}), false)` : sql<boolean>`true`;
}

/**
 * Whether the query filters by something no index serves in the list's order (a text search, a time
 * range): the planner may then walk an order's index hoping to meet matching rows early, and rows that
 * match together often lie together (a number prefix, a day), far down that order: 100 rows cost a walk
 * over most of the table. When such a filter selects few rows, sorting them is the cheap way (`fence`).
 */
export function needsFence(q: ListQuery): boolean {
  // A time range on the column the list is sorted by is read in order from that column's index.
  const lead = q.sort[0]?.column;
  if ((q.startTime || q.endTime) && lead !== 'create_time') return true;
  return q.filters.some((f) => f.field !== undefined && !f.field.exact && (f.field.dataType !== 'datetime' || f.column !== lead));
}

/** Whether what makes the query need a fence (see needsFence) is a time range only: no other inexact filter. */
export function fencedForTimeOnly(q: ListQuery): boolean {
  return !q.filters.some((f) => f.field !== undefined && !f.field.exact && f.field.dataType !== 'datetime');
}

/**
 * Whether the query searches a text: the database finds its rows from the trigram index, and a walk along
 * an order's index filtering row by row costs the whole order when the text is frequent. Such a query is
 * always read fenced, however many rows it selects.
 */
export function searchesText(q: ListQuery): boolean {
  return q.filters.some((f) => f.field !== undefined && !f.field.exact && f.field.dataType !== 'datetime' && !f.field.city);
}

const orderBy = (q: ListQuery) => sql.join(q.sort.map((s) => sql`${ref(s.column)} ${sql.raw(s.dir)}`));

/** The rows a list query selects, in its order: by default the record as the wire shows it. */
export function rowsQuery<R>(
  view: ViewModel,
  q: ListQuery,
  limit: number,
  offset = 0,
  columns = selectList(view),
  fence = false,
  /** Only rows after this one (see afterKey); offset then counts from it. */
  after?: RawBuilder<unknown>,
): RawBuilder<R> {
  const order = orderBy(q);
  const table = sql.table(viewTable(view.id));
  if (fence) {
    // The selected rows' ids and sort keys only are gathered and sorted; then the page's rows are read by id.
    const keys = sql.join([...new Set(['id', ...q.sort.map((s) => s.column)])].map((c) => ref(c)));
    return sql<R>`with m as materialized (select ${keys} from ${table} as t ${whereClause(q)}),
      k as (select t.id as "#id" from m as t order by ${order} limit ${limit} offset ${offset})
      select ${columns} from k join ${table} as t on t.id = k."#id" order by ${order}`;
  }
  return sql<R>`select ${columns} from ${table} as t ${whereClause(q, after)} order by ${order} limit ${limit} offset ${offset}`;
}

/**
 * The same rows as one JSON array, in the subquery's order. PGlite decodes result rows field by field in
 * JavaScript, which costs more than the query itself for a block of rows; one json value is decoded natively.
 * Past the first rows, the page's ids are found first and only those rows are read and formatted: PostgreSQL
 * computes the output columns of every row an OFFSET skips, which at 2,400 rows costs three times the page.
 */
export function rowsJsonQuery(
  view: ViewModel,
  q: ListQuery,
  limit: number,
  offset: number,
  columns = selectList(view),
  fence = false,
  after?: RawBuilder<unknown>,
): RawBuilder<{ rows: unknown }> {
  if (offset === 0 || fence) {
    return sql<{
      rows: unknown;
    }>`select coalesce(json_agg(r), '[]') as rows from (${rowsQuery(view, q, limit, offset, columns, fence, after)}) r`;
  }
  // The ids' column is named so that no field can take it: the output columns stay those of the view's table.
  const ids = rowsQuery(view, q, limit, offset, sql`t.id as "#id"`, false, after);
  return sql<{ rows: unknown }>`select coalesce(json_agg(r), '[]') as rows from (
    select ${columns} from (${ids}) k join ${sql.table(viewTable(view.id))} as t on t.id = k."#id" order by ${orderBy(q)}) r`;
}

/**
 * Most rows a list's count tells exactly. Counting more reads every selected row (400 ms for one filter
 * over a million rows); above it the planner's estimate is answered, and the app shows it as 约 N 条.
 */
export const EXACT_COUNT_MAX = 10_000;

/**
 * A count as the list cache holds it: an estimate is held as its value plus one half, so that writes
 * move it by whole rows as they move an exact count, and it still reads as an estimate (see countValue).
 */
export const estimatedCount = (n: number): number => Math.max(Math.round(n), EXACT_COUNT_MAX + 1) + 0.5;

/** A held count's value and whether it is an estimate. */
export function countValue(held: number): { n: number; estimated: boolean } {
  const n = Math.floor(held);
  return { n: Math.max(0, n), estimated: held !== n };
}

/** The query's rows counted up to one past EXACT_COUNT_MAX: reads at most that many of them. */
export function countQuery(view: ViewModel, q: ListQuery): RawBuilder<{ n: number }> {
  return sql<{ n: number }>`select count(*) as n from (select 1 from ${sql.table(viewTable(view.id))} as t ${whereClause(q)}
    limit ${EXACT_COUNT_MAX + 1}) c`;
}

/** The planner's estimate of the query's rows, as EXPLAIN (FORMAT JSON) gives it: nothing is read. */
export function estimateQuery(view: ViewModel, q: ListQuery): RawBuilder<{ 'QUERY PLAN': unknown }> {
  return sql<{ 'QUERY PLAN': unknown }>`explain (format json) select 1 from ${sql.table(viewTable(view.id))} as t ${whereClause(q)}`;
}

/** The row estimate of the top node of an EXPLAIN (FORMAT JSON) answer, whichever driver decoded it. */
export function plannedRows(plan: unknown): number | undefined {
  const doc = typeof plan === 'string' ? (JSON.parse(plan) as unknown) : plan;
  const rows = (doc as { Plan?: { 'Plan Rows'?: unknown } }[] | undefined)?.[0]?.Plan?.['Plan Rows'];
  return typeof rows === 'number' && Number.isFinite(rows) ? rows : undefined;
}

/**
 * The record as the wire shows it: exact field names plus id, createTime, updateTime, createBy (declared or
 * not), and createCompany and createDept where declared.
 */
export function selectList(view: ViewModel): RawBuilder<unknown> {
  const cols: RawBuilder<unknown>[] = [
    sql`id`,
    sql`${wireTime('create_time')} as "createTime"`,
    sql`${wireTime('update_time')} as "updateTime"`,
    sql`create_by as "createBy"`,
  ];
  for (const r of view.references ?? []) cols.push(referenceLabelColumn(r));
  // The owner's company and department are answered where the definition lists them (所属企业, say).
  for (const f of view.fields) {
    if (f.system === 'createCompany' || f.system === 'createDept') cols.push(sql`${sql.ref(f.column)} as ${sql.id(f.name)}`);
  }
  for (const c of view.columns) {
    if (c.field?.dataType === 'datetime') {
      const fmt = c.field.dateOnly ? 'YYYY-MM-DD' : WIRE_TIME_FORMAT;
      cols.push(sql`to_char(${sql.ref(c.name)}, ${sql.lit(fmt)}) as ${sql.id(c.name)}`);
    } else cols.push(sql.ref(c.name));
  }
  return sql.join(cols);
}
