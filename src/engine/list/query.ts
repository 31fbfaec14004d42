/**
 * The list call's query: what the search bar,
 * the table's sorter and the pager hold, turned into the parameters of `GET /api/general/list/{viewId}`
 * and of the export. Pure, so the rules are tested without a browser.
 */

import dayjs, { type Dayjs } from 'dayjs';
import type { ColumnModel } from '../../model';
import { DATE_FORMAT, DEFAULT_TIME_FORMAT, NUMBER_TEXT } from '../../model';

export const DEFAULT_PAGE_SIZE = 10;
export const PAGE_SIZES = [10, 20, 30, 40, 50, 100];
/** The createTime range starts this many days back by default. */
export const DEFAULT_RANGE_DAYS = 90;

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

/** Today minus 90 days at 00:00:00 to today at 23:59:59. */
export function defaultCreateRange(now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  return [now.subtract(DEFAULT_RANGE_DAYS, 'day').startOf('day'), now.endOf('day')];
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

/**
 * Filters a link may carry by a name of their own, each read as a set of values of one field of the page.
 * `auditStatus=1` (服务监管 from 本年服务) is the orders that count as services: 待确认, 执行中 and 已完成,
 * not 已取消 or 已驳回; `auditStatus=0` is the orders still to confirm.
 */
export const ROUTE_FILTER_ALIASES: Readonly<Record<string, { field: string; values: Readonly<Record<string, readonly string[]>> }>> = {
  auditStatus: { field: 'orderStatus', values: { '0': ['0'], '1': ['0', '1', '2'] } },
};

/**
 * Route query values that name a field of the page become fixed filters (a `view` button's foreign
 * key, a dashboard tile's subset); numeric text is sent as a number, as the form submits it. A filter
 * named in ROUTE_FILTER_ALIASES becomes its field's values where the page has that field.
 */
export function routeFilters(search: URLSearchParams, fieldNames: ReadonlySet<string>): Record<string, string | number | string[]> {
  const out: Record<string, string | number | string[]> = {};
  for (const [k, v] of search) {
    if (v.trim() === '') continue;
    const alias = Object.hasOwn(ROUTE_FILTER_ALIASES, k) ? ROUTE_FILTER_ALIASES[k] : undefined;
    if (alias && !fieldNames.has(k)) {
      const values = Object.hasOwn(alias.values, v.trim()) ? alias.values[v.trim()] : undefined;
      if (values && fieldNames.has(alias.field) && !(alias.field in out)) out[alias.field] = [...values];
      continue;
    }
    if (!fieldNames.has(k)) continue;
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
