import { type RawBuilder, sql } from 'kysely';
import { isDateOnlyText, LIST_PARAMS, normalizeDateTime, RANGE_PARAMS } from '../../src/model/index.js';
import type { RowScope } from '../access/rows.js';
import { badRequest } from '../errors.js';
import { PAGE_MAX, SIZE_MAX } from '../lib/paging.js';
import { escapeLike, WIRE_TIME_FORMAT, wireTime } from '../lib/sql.js';
import { viewTable } from './ddl.js';
import { referenceLabelColumn } from './reference-labels.js';
import type { ViewField, ViewModel } from './view-model.js';

/**
 * Reads the query of /api/general/list (and of export) against a definition: only its fields filter,
 * only its fields (and id, createTime, updateTime) sort. Identifiers reach SQL only after that check.
 */

const PARAMS = new Set<string>(LIST_PARAMS);
/** System columns every list sorts by, declared or not (a Map: `constructor` is not a column). */
const SYSTEM_SORT = new Map<string, string>([
  ['id', 'id'],
  ['create_time', 'create_time'],
  ['createTime', 'create_time'],
  ['update_time', 'update_time'],
  ['updateTime', 'update_time'],
]);
const MAX_PAGE_SIZE = 1000;

type QueryValue = string | string[] | undefined;

interface Filter {
  field: ViewField | undefined;
  column: string;
  values: string[];
}

export interface ListQuery {
  filters: Filter[];
  startTime: string | undefined;
  endTime: string | undefined;
  sort: { column: string; dir: 'asc' | 'desc' }[];
  page: number;
  size: number;
  /** The records the caller may see; undefined: every record. */
  scope: RowScope | undefined;
  /** Cache keys: scope, filters and order (which rows, in which order), scope and filters (the count), filters alone. */
  orderKey: string;
  countKey: string;
  filterKey: string;
}

const valuesOf = (v: QueryValue): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]).filter((s) => s !== '');

function intParam(v: QueryValue, name: string, dflt: number, max: number): number {
  const s = valuesOf(v)[0];
  if (s === undefined) return dflt;
  if (!/^\d+$/.test(s)) throw badRequest('LIST_PARAM_NOT_WHOLE', { name });
  const n = Number(s);
  if (n > max) throw badRequest('LIST_PARAM_TOO_LARGE', { name, max });
  return n;
}

/** Whether the list parameter `key` names a field of the view (a contract's endTime) rather than the createTime range. */
const rangeField = (view: ViewModel, key: string): boolean => (RANGE_PARAMS as readonly string[]).includes(key) && view.byName.has(key);

function timeParam(v: QueryValue, name: string, end: boolean): string | undefined {
  const s = valuesOf(v)[0];
  if (s === undefined) return undefined;
  const dateOnly = isDateOnlyText(s);
  const t = normalizeDateTime(s);
  if (!t) throw badRequest('LIST_TIME_INVALID', { name });
  return end && dateOnly ? `${t.slice(0, 10)} 23:59:59.999999` : t;
}

/**
 * `scope`: the records the caller may see (rowScope); `extraParams` are parameters a caller reads itself
 * (an export's headers, fields and token).
 */
export function parseListQuery(
  view: ViewModel,
  query: Record<string, QueryValue>,
  scope: RowScope | undefined,
  extraParams: readonly string[] = [],
): ListQuery {
  const filters: Filter[] = [];
  for (const [key, raw] of Object.entries(query)) {
    // startTime/endTime filter the view's field of that name where it declares one, else they are the createTime range.
    if ((PARAMS.has(key) && !rangeField(view, key)) || extraParams.includes(key)) continue;
    if (key === 'id') {
      // Row actions (submit get/download) send the selected ids as a comma list.
      const ids = valuesOf(raw)
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean);
      if (!ids.every((v) => /^\d{1,15}$/.test(v))) throw badRequest('LIST_FILTER_INVALID', { field: 'id' });
      if (ids.length) filters.push({ field: undefined, column: 'id', values: ids });
      continue;
    }
    const field = view.byName.get(key);
    const isFmt = !field && view.columns.some((c) => c.name === key && !c.field);
    if ((!field || field.show === 4) && !isFmt) throw badRequest('LIST_FILTER_FIELD_NOT_FOUND', { field: key });
    const values = valuesOf(raw);
    if (values.length) filters.push({ field, column: field?.column ?? key, values });
  }
  filters.sort((a, b) => a.column.localeCompare(b.column));

  const sort: ListQuery['sort'] = [];
  const sortValues = valuesOf(query.sort);
  if (!sortValues.length) sortValues.push(`${view.page.defaultSort.field},${view.page.defaultSort.order}`);
  for (const s of sortValues) {
    const [name = '', dirRaw = 'asc'] = s.split(',').map((x) => x.trim());
    const dir = dirRaw.toLowerCase();
    const column = view.byName.get(name)?.column ?? SYSTEM_SORT.get(name);
    if (!column) throw badRequest('LIST_SORT_FIELD_NOT_FOUND', { field: name });
    if (dir !== 'asc' && dir !== 'desc') throw badRequest('LIST_SORT_DIRECTION_INVALID', { dir: dirRaw });
    if (!sort.some((x) => x.column === column)) sort.push({ column, dir });
  }
  // id breaks ties for stable paging; running the same way as the last key lets an index on
  // (column, id) serve the whole order in either direction.
  if (!sort.some((x) => x.column === 'id')) sort.push({ column: 'id', dir: sort.at(-1)?.dir ?? 'desc' });

  const startTime = rangeField(view, 'startTime') ? undefined : timeParam(query.startTime, 'startTime', false);
  const endTime = rangeField(view, 'endTime') ? undefined : timeParam(query.endTime, 'endTime', true);
  const page = intParam(query.page, 'page', 0, PAGE_MAX);
  const size = Math.min(Math.max(intParam(query.size, 'size', 10, SIZE_MAX), 1), MAX_PAGE_SIZE);
  const filterKey = JSON.stringify([filters.map((f) => [f.column, f.values]), startTime ?? null, endTime ?? null]);
  const countKey = JSON.stringify([scope?.key ?? null, filterKey]);
  return {
    scope,
    filters,
    startTime,
    endTime,
    sort,
    page,
    size,
    countKey,
    filterKey,
    orderKey: JSON.stringify([countKey, sort]),
  };
}

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

function condition(f: Filter): RawBuilder<unknown> {
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

/** A row's test in JavaScript: undefined when this row cannot be told here. */
export type RowTest = (row: Record<string, unknown>) => boolean | undefined;

/** A timestamp as row_to_json gives it, as 'YYYY-MM-DD HH:mm:ss[.ffffff]' (text order is time order), or undefined. */
export function jsonTime(v: unknown): string | null | undefined {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?$/.test(v) ? v.replace('T', ' ') : undefined;
}

/** 'YYYY-MM-DD 00:00:00' of the day after the day of `t` ('YYYY-MM-DD …'). */
function nextDay(t: string): string {
  const d = new Date(Date.UTC(Number(t.slice(0, 4)), Number(t.slice(5, 7)) - 1, Number(t.slice(8, 10)) + 1));
  return `${d.toISOString().slice(0, 10)} 00:00:00`;
}

/** A timestamp already read by jsonTime (see MatcherOptions.plainTimes); anything else cannot be told. */
const plainTime = (v: unknown): string | null | undefined => (v === null || v === undefined ? null : typeof v === 'string' ? v : undefined);

/** condition() for a time column, in JavaScript: the same bounds, compared as text. */
function timeTest(column: string, values: string[], time: typeof jsonTime): RowTest | undefined {
  const times = values.map((v) => ({ t: normalizeDateTime(v), dateOnly: isDateOnlyText(v) }));
  if (times.some((x) => !x.t)) return undefined;
  const [a, b] = times as { t: string; dateOnly: boolean }[];
  const inRange = (from: string, to: string, toIncluded: boolean) => (v: string) => v >= from && (toIncluded ? v <= to : v < to);
  const ranges =
    a && b && times.length === 2
      ? [inRange(a.t, b.dateOnly ? `${b.t.slice(0, 10)} 23:59:59.999999` : b.t, true)]
      : (times as { t: string; dateOnly: boolean }[]).map(({ t, dateOnly }) =>
          dateOnly ? inRange(t, nextDay(t), false) : (v: string) => v === t,
        );
  return (row) => {
    const v = time(row[column]);
    return v === undefined ? undefined : v !== null && ranges.some((r) => r(v));
  };
}

/**
 * Characters that no case mapping changes or produces: ASCII digits, punctuation and space, CJK
 * punctuation and ideographs, full-width digits. A text search for such text matches exactly where the
 * text occurs, whatever the locale folds (lower() turns a cased letter only into letters and marks).
 */
const CASELESS = /^[\u0020-\u0040\u005b-\u0060\u007b-\u007e\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff10-\uff19]+$/;

/**
 * A filter that rowMatcher tests as a text search (the cell's text holds `text`), as its column and
 * text; undefined for any other filter.
 */
export function textSearch(f: ListQuery['filters'][number]): { column: string; text: string } | undefined {
  const field = f.field;
  if (!field || f.column === 'id' || field.dataType === 'datetime' || field.multiple) return undefined;
  if (field.dataType === 'long' || field.dataType === 'decimal' || field.city || field.exact || f.values.length !== 1) return undefined;
  const text = f.values[0] as string;
  return CASELESS.test(text) ? { column: f.column, text } : undefined;
}

/**
 * The same test as matchExpression, in JavaScript, when every condition of the query is equality with
 * text (dictionary values, options), a time range, a region prefix or a text search for text without
 * cased letters: `row` holds the row's columns as row_to_json gives them. Undefined for any other query
 * (numbers, text search for letters, several values per cell, ids).
 */
export function rowMatcher(q: ListQuery, options: MatcherOptions = {}): RowTest | undefined {
  const tests: RowTest[] = [];
  const time = options.plainTimes ? plainTime : jsonTime;
  if (q.scope && options.scope !== false) {
    if (!q.scope.test) return undefined;
    tests.push(q.scope.test);
  }
  if (q.startTime) {
    const from = q.startTime;
    tests.push((row) => {
      const v = time(row.create_time);
      return v === undefined ? undefined : v !== null && v >= from;
    });
  }
  if (q.endTime) {
    const to = q.endTime;
    tests.push((row) => {
      const v = time(row.create_time);
      return v === undefined ? undefined : v !== null && v <= to;
    });
  }
  for (const f of q.filters) {
    const field = f.field;
    if (!field || f.column === 'id') return undefined;
    if (field.dataType === 'datetime') {
      const test = timeTest(f.column, f.values, time);
      if (!test) return undefined;
      tests.push(test);
      continue;
    }
    if (field.multiple || field.dataType === 'long' || field.dataType === 'decimal') return undefined;
    const values = f.values;
    const text = (row: Record<string, unknown>) => {
      const v = row[f.column];
      // A null cell matches nothing; a cell that is not text is not told here.
      return v === null || v === undefined ? null : typeof v === 'string' ? v : undefined;
    };
    const one = values[0] as string;
    if (values.length === 1 && field.city) {
      // like 'v%': LIKE compares characters exactly.
      tests.push((row) => {
        const v = text(row);
        return v === undefined ? undefined : v === null ? false : v.startsWith(one);
      });
    } else if (values.length === 1 && !field.exact) {
      // ilike '%v%' folds case as the database's locale does; a text without cased letters is the same folded.
      if (!textSearch(f)) return undefined;
      tests.push((row) => {
        const v = text(row);
        return v === undefined ? undefined : v === null ? false : v.includes(one);
      });
    } else {
      // condition(): `in` for several values, `=` for one; a null cell matches neither.
      tests.push((row) => {
        const v = text(row);
        return v === undefined ? undefined : v !== null && values.includes(v);
      });
    }
  }
  if (tests.length === 1) return tests[0];
  // A row some test cannot tell still fails when another test rejects it.
  return (row) => {
    let unknown = false;
    for (const t of tests) {
      const r = t(row);
      if (r === false) return false;
      if (r === undefined) unknown = true;
    }
    return unknown ? undefined : true;
  };
}

export interface MatcherOptions {
  /** False: the scope is left out (the caller tests it apart). */
  scope?: boolean;
  /** Time columns hold jsonTime's text already (the row index reads them once). */
  plainTimes?: boolean;
}

function conditions(q: ListQuery): RawBuilder<unknown>[] {
  const parts = q.filters.map(condition);
  if (q.scope) parts.unshift(q.scope.condition);
  if (q.startTime) parts.push(sql`t.create_time >= ${q.startTime}::timestamp`);
  if (q.endTime) parts.push(sql`t.create_time <= ${q.endTime}::timestamp`);
  return parts;
}

function whereClause(q: ListQuery): RawBuilder<unknown> {
  const parts = conditions(q);
  return parts.length ? sql`where ${sql.join(parts, sql` and `)}` : sql``;
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

const orderBy = (q: ListQuery) => sql.join(q.sort.map((s) => sql`${ref(s.column)} ${sql.raw(s.dir)}`));

/** The rows a list query selects, in its order: by default the record as the wire shows it. */
export function rowsQuery<R>(
  view: ViewModel,
  q: ListQuery,
  limit: number,
  offset = 0,
  columns = selectList(view),
  fence = false,
): RawBuilder<R> {
  const order = orderBy(q);
  const table = sql.table(viewTable(view.id));
  if (fence) {
    return sql<R>`with m as materialized (select * from ${table} as t ${whereClause(q)})
      select ${columns} from m as t order by ${order} limit ${limit} offset ${offset}`;
  }
  return sql<R>`select ${columns} from ${table} as t ${whereClause(q)} order by ${order} limit ${limit} offset ${offset}`;
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
): RawBuilder<{ rows: unknown }> {
  if (offset === 0 || fence) {
    return sql<{ rows: unknown }>`select coalesce(json_agg(r), '[]') as rows from (${rowsQuery(view, q, limit, offset, columns, fence)}) r`;
  }
  // The ids' column is named so that no field can take it: the output columns stay those of the view's table.
  const ids = rowsQuery(view, q, limit, offset, sql`t.id as "#id"`);
  return sql<{ rows: unknown }>`select coalesce(json_agg(r), '[]') as rows from (
    select ${columns} from (${ids}) k join ${sql.table(viewTable(view.id))} as t on t.id = k."#id" order by ${orderBy(q)}) r`;
}

export function countQuery(view: ViewModel, q: ListQuery): RawBuilder<{ n: number }> {
  return sql<{ n: number }>`select count(*) as n from ${sql.table(viewTable(view.id))} as t ${whereClause(q)}`;
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
