import { isDateOnlyText, LIST_PARAMS, normalizeDateTime, RANGE_PARAMS } from '../../src/model/index.js';
import type { RowScope } from '../access/rows.js';
import { badRequest } from '../errors.js';
import { PAGE_MAX, SIZE_MAX } from '../lib/paging.js';
import type { ListFilter, ListQuery, QueryValue } from './list-types.js';
import type { ViewModel } from './view-model.js';

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
  const filters: ListFilter[] = [];
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
