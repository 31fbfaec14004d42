/**
 * The list call's query: what the search bar,
 * the table's sorter and the pager hold, turned into the parameters of `GET /api/general/list/{viewId}`
 * and of the export. Pure, so the rules are tested without a browser.
 */

import dayjs, { type Dayjs } from 'dayjs';
import type { ColumnModel } from '../../model';
import { DATE_FORMAT, DEFAULT_RANGE_DAYS, DEFAULT_TIME_FORMAT, NUMBER_TEXT } from '../../model';

export const DEFAULT_PAGE_SIZE = 10;
export const PAGE_SIZES = [10, 20, 30, 40, 50, 100];

export type SortOrder = 'asc' | 'desc';

export interface SortState {
  field: string;
  order: SortOrder;
}

export interface ListQueryState {
  /** 1-based, as the pager shows it. */
  page: number;
  size: number;
  /** The user's sort; null falls back to the model's default sort. */
  sort: SortState | null;
  /** createTime range as wire text (start, end); null sends neither. */
  range: readonly [string, string] | null;
  /** Search values by field name, already in wire shape (see searchValueToWire). */
  values: Readonly<Record<string, unknown>>;
  /** Filters the page always applies (a foreign key from the route query, a dialog's row id). */
  fixed?: Readonly<Record<string, unknown>>;
}

/** Today minus `days` (90 unless told) at 00:00:00 to today at 23:59:59. */
export function defaultCreateRange(now: Dayjs = dayjs(), days: number = DEFAULT_RANGE_DAYS): [Dayjs, Dayjs] {
  return [now.subtract(days, 'day').startOf('day'), now.endOf('day')];
}

export function rangeToWire(
  range: readonly [Dayjs | null | undefined, Dayjs | null | undefined] | null | undefined,
): [string, string] | null {
  const [start, end] = range ?? [];
  if (!start || !end) return null;
  return [start.startOf('second').format(DEFAULT_TIME_FORMAT), end.format(DEFAULT_TIME_FORMAT)];
}

/** A value the search bar holds but that filters nothing. */
export function isEmptySearchValue(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0 || v.every(isEmptySearchValue);
  if (typeof v === 'number') return Number.isNaN(v);
  return false;
}

function isDayjs(v: unknown): v is Dayjs {
  return dayjs.isDayjs(v);
}

/**
 * A search input's value in the shape the server filters on:
 * text trimmed; a date range as two dates (the server reads two values as a range, one as a whole day);
 * a city path as its comma-joined codes (the server matches by prefix); selects as they are.
 */
export function searchValueToWire(kind: ColumnModel['searchKind'], v: unknown): unknown {
  if (isEmptySearchValue(v)) return undefined;
  switch (kind) {
    case 'text':
      return typeof v === 'string' ? v.trim() : v;
    case 'date': {
      const list = Array.isArray(v) ? v : [v];
      const dates = list.filter(isDayjs).map((d) => d.format(DATE_FORMAT));
      if (dates.length === 2 && dates[0] === dates[1]) return dates[0];
      return dates.length ? dates : typeof v === 'string' ? v : undefined;
    }
    case 'city':
      return Array.isArray(v) ? v.map(String).join(',') : String(v);
    case 'number': {
      const n = typeof v === 'number' ? v : Number(v);
      return Number.isFinite(n) ? n : undefined;
    }
    default:
      return v;
  }
}

/** Every search value of the bar in wire shape, empty ones left out. */
export function searchValuesToWire(
  columns: readonly Pick<ColumnModel, 'name' | 'searchKind'>[],
  raw: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of columns) {
    const v = searchValueToWire(c.searchKind, raw[c.name]);
    if (!isEmptySearchValue(v)) out[c.name] = v;
  }
  return out;
}

export function sortParam(sort: SortState | null, defaultSort: SortState): string;
export function sortParam(sort: SortState | null, defaultSort: SortState | null | undefined): string | undefined;
export function sortParam(sort: SortState | null, defaultSort: SortState | null | undefined): string | undefined {
  const s = sort ?? defaultSort;
  return s ? `${s.field},${s.order}` : undefined;
}

/**
 * The list call's parameters: `page` 1-based as the pager shows it (the data provider sends it in its
 * server's base), no `sort` when neither the user nor the list has one.
 */
export function buildListQuery(state: ListQueryState, defaultSort?: SortState | null): Record<string, unknown> {
  const params: Record<string, unknown> = { page: Math.max(1, state.page), size: state.size };
  const sort = sortParam(state.sort, defaultSort);
  if (sort) params.sort = sort;
  if (state.range) {
    params.startTime = state.range[0];
    params.endTime = state.range[1];
  }
  for (const [k, v] of Object.entries(state.fixed ?? {})) if (!isEmptySearchValue(v)) params[k] = v;
  for (const [k, v] of Object.entries(state.values)) if (!isEmptySearchValue(v)) params[k] = v;
  return params;
}

/**
 * `{export}/download`: the same filters and order as the list, every matching row (no page), and the
 * visible columns as `fields` with their titles as `headers`.
 */
export function buildExportQuery(
  state: ListQueryState,
  defaultSort: SortState | null | undefined,
  columns: readonly Pick<ColumnModel, 'name' | 'label'>[],
): Record<string, unknown> {
  const { page: _page, size: _size, ...rest } = buildListQuery(state, defaultSort);
  return { ...rest, fields: columns.map((c) => c.name), headers: columns.map((c) => c.label) };
}

/**
 * The page to show after `deleted` rows went: when the current page no longer exists (its last
 * rows were deleted) step back, never before page 1.
 */
export function pageAfterDelete(p: { page: number; size: number; total: number; deleted: number }): number {
  const remaining = Math.max(0, p.total - p.deleted);
  const last = Math.max(1, Math.ceil(remaining / Math.max(1, p.size)));
  return Math.min(p.page, last);
}

/** The number of a row in the index column: numbering continues across pages. */
export function rowNumber(page: number, size: number, index: number): number {
  return (Math.max(1, page) - 1) * size + index + 1;
}

/** The 创建时间 range's parameters in the list call and in the page's address. */
export const RANGE_START = 'startTime';
export const RANGE_END = 'endTime';

/** A search form's values (as its inputs hold them) and its 创建时间 range. */
export interface SearchState {
  values: Record<string, unknown>;
  range: [Dayjs, Dayjs] | null;
}

type SearchColumn = Pick<ColumnModel, 'name' | 'searchKind'>;

/** A day or a time of the address, or undefined when it is neither. */
function dayOf(text: string, end: boolean): Dayjs | undefined {
  const t = text.trim();
  if (!/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/.test(t)) return undefined;
  const d = dayjs(t);
  // dayjs rolls 2026-13-45 over into another day: a date that does not read back is none.
  if (!d.isValid() || d.format(DATE_FORMAT) !== t.slice(0, 10)) return undefined;
  return t.length === 10 ? (end ? d.endOf('day') : d.startOf('day')) : d;
}

/** One search input's value from the address's values of its field, as the input holds it; undefined when none is usable. */
function inputValueOf(kind: ColumnModel['searchKind'], raw: readonly string[]): unknown {
  const values = raw.map((v) => v.trim()).filter((v) => v !== '');
  if (!values.length) return undefined;
  switch (kind) {
    case 'date': {
      const [a, b = a] = values;
      const start = a === undefined ? undefined : dayOf(a, false);
      const end = b === undefined ? undefined : dayOf(b, true);
      return start && end ? [start, end] : undefined;
    }
    case 'number': {
      const n = Number(values[0]);
      return Number.isFinite(n) ? n : undefined;
    }
    case 'city':
      return (values[0] ?? '').split(',').filter(Boolean);
    case 'dict':
    case 'remote':
      return values.length > 1 ? values : values[0];
    default:
      return values[0];
  }
}

/**
 * The search a page's address carries, or null when it carries none (the list then starts with its
 * default range). Each search column's value is its parameter (repeated for several choices, two
 * dates for a date range); the 创建时间 range is `startTime` and `endTime` (empty: cleared) where the
 * list has it. A dashboard tile opens a list with the filter its figure counts this way, and the list
 * writes every search back, so a reload or 后退 keeps it.
 */
export function searchFromAddress(search: URLSearchParams, columns: readonly SearchColumn[], createRange: boolean): SearchState | null {
  let carried = false;
  const values: Record<string, unknown> = {};
  for (const c of columns) {
    if (!search.has(c.name)) continue;
    carried = true;
    const v = inputValueOf(c.searchKind, search.getAll(c.name));
    if (v !== undefined) values[c.name] = v;
  }
  let range: [Dayjs, Dayjs] | null = null;
  if (createRange && (search.has(RANGE_START) || search.has(RANGE_END))) {
    carried = true;
    const start = dayOf(search.get(RANGE_START) ?? '', false);
    const end = dayOf(search.get(RANGE_END) ?? '', true);
    range = start && end ? [start, end] : null;
  }
  return carried ? { values, range } : null;
}

/**
 * The address's query with a search written in: the search columns' and the range's parameters
 * replaced, the others (a relation's foreign key) kept. An empty range of a list that has a default
 * is written as empty `startTime` and `endTime`, so that a reload does not bring the default back.
 */
export function searchToAddress(
  search: URLSearchParams,
  columns: readonly SearchColumn[],
  state: SearchState,
  opts: { createRange: boolean; hasDefault: boolean },
): URLSearchParams {
  const out = new URLSearchParams(search);
  for (const c of columns) out.delete(c.name);
  if (opts.createRange) {
    out.delete(RANGE_START);
    out.delete(RANGE_END);
  }
  for (const c of columns) {
    const wire = searchValueToWire(c.searchKind, state.values[c.name]);
    if (isEmptySearchValue(wire)) continue;
    for (const v of Array.isArray(wire) ? wire : [wire]) out.append(c.name, String(v));
  }
  if (opts.createRange) {
    const wire = rangeToWire(state.range);
    if (wire || opts.hasDefault) {
      out.set(RANGE_START, wire?.[0] ?? '');
      out.set(RANGE_END, wire?.[1] ?? '');
    }
  }
  return out;
}

/** The part of an address a list's search owns, as one comparable text. */
export function searchKeyOf(search: URLSearchParams, columns: readonly SearchColumn[], createRange: boolean): string {
  const names = [...columns.map((c) => c.name), ...(createRange ? [RANGE_START, RANGE_END] : [])];
  return JSON.stringify(names.map((n) => search.getAll(n)));
}

/**
 * Route query values that name a field of the page and are no search of it become fixed filters (a
 * `view` button's foreign key); numeric text is sent as a number, as the form submits it. Search
 * columns and the 创建时间 range are the search form's (searchFromAddress): shown there, never hidden.
 */
export function routeFilters(
  search: URLSearchParams,
  fieldNames: ReadonlySet<string>,
  searched: ReadonlySet<string> = new Set(),
): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of search) {
    if (v.trim() === '' || !fieldNames.has(k) || searched.has(k)) continue;
    out[k] = NUMBER_TEXT.test(v) && Number.isSafeInteger(Math.trunc(Number(v))) ? Number(v) : v;
  }
  return out;
}

/**
 * The records a list's address names by key (`?id=7`, or `?id=7,9`): a relation's linked record. Only
 * well-formed keys count; anything else names none.
 */
export function routeRecords(search: URLSearchParams, param = 'id'): string | undefined {
  const ids = search
    .getAll(param)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  return ids.length && ids.every((v) => /^\d{1,15}$/.test(v)) ? ids.join(',') : undefined;
}
