import type { Dayjs } from 'dayjs';
import { type Key, useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { ColumnModel, ListPageModel } from '../../model';
import {
  buildExportQuery,
  buildListQuery,
  DEFAULT_PAGE_SIZE,
  type ListQueryState,
  pageAfterDelete,
  rangeToWire,
  type SortState,
  searchValuesToWire,
  searchValueToWire,
  sortParam,
} from '../list/query';
import { PERF_MARKS, perfMark } from '../perf-marks';
import { type CallOptions, type DataProvider, type ListResult, type RecordRow, useEngineServices, type ViewResource } from '../services';

/**
 * A list's query and its answer (after refine's useTable): the search values and createTime range,
 * page, size and sort; the list call for them; reload; the page after a delete; the rows selected in
 * the current answer. The page only lays these out. The hooks read and delete through
 * `{resource, dataProvider}` (refine's shape): a view's page passes its model's endpoints and the
 * engine's data provider, an administration page its resource and a provider of its own. The query
 * holds `page` 1-based as the pager shows it; the data provider sends it in its server's base.
 */

/** What the list and delete hooks call. The engine's DataProvider is one, over ViewResource. */
export interface ListProvider<R> {
  getList(p: { resource: R; query: Record<string, unknown> } & CallOptions): Promise<ListResult>;
  deleteMany(p: { resource: R; ids: unknown[] } & CallOptions): Promise<unknown>;
}

/** Which records a list shows, and the provider that reads and deletes them. Keep it stable across renders. */
export interface ListSource<R> {
  resource: R;
  dataProvider: ListProvider<R>;
}

/** A view's list source: its model's endpoints over the engine's data provider, stable while the model is. */
export function useViewSource(model: Pick<ListPageModel, 'viewId' | 'api'>): ListSource<ViewResource> {
  const { data } = useEngineServices();
  const { viewId, api } = model;
  return useMemo(() => ({ resource: { viewId, api }, dataProvider: data as DataProvider }), [viewId, api, data]);
}

export interface ListQueryOptions {
  /** The columns whose search values are turned into wire shape; without them values go as they are. */
  columns?: readonly Pick<ColumnModel, 'name' | 'searchKind'>[];
  /** The order when the user picked none; without one no `sort` is sent. */
  defaultSort?: SortState | null;
  /** Filters the list always applies (a foreign key); compared by content. */
  fixed?: Readonly<Record<string, unknown>>;
  /** The createTime range the list starts with. */
  initialRange?: readonly [Dayjs, Dayjs] | null;
  /** Rows a page; 10 when not given. */
  size?: number;
  /** Search values the list starts with, in wire shape. */
  values?: Readonly<Record<string, unknown>>;
}

export type ListQueryAction =
  /** The search bar's values and range, already in wire shape: back to page 1. */
  | { type: 'search'; values: Record<string, unknown>; range: readonly [string, string] | null }
  /** The table's pager and sorter: a new size or sort goes back to page 1. */
  | { type: 'table'; page: number; size: number; sort: SortState | null }
  /** `count` of `total` rows were deleted: step back when the page shown no longer exists. */
  | { type: 'deleted'; count: number; total: number };

const sameSort = (a: SortState | null, b: SortState | null) => a?.field === b?.field && a?.order === b?.order;

export function initialListQuery(range: readonly [string, string] | null): ListQueryState {
  return { page: 1, size: DEFAULT_PAGE_SIZE, sort: null, range, values: {} };
}

/** Pure: the query after an action; the same object when nothing changed (no new list call). */
export function listQueryReducer(state: ListQueryState, action: ListQueryAction): ListQueryState {
  switch (action.type) {
    case 'search':
      return { ...state, page: 1, values: action.values, range: action.range };
    case 'table': {
      const reset = action.size !== state.size || !sameSort(action.sort, state.sort);
      const page = reset ? 1 : Math.max(1, action.page);
      if (page === state.page && action.size === state.size && sameSort(action.sort, state.sort)) return state;
      return { ...state, page, size: action.size, sort: action.sort };
    }
    case 'deleted': {
      const page = pageAfterDelete({ page: state.page, size: state.size, total: action.total, deleted: action.count });
      return page === state.page ? state : { ...state, page };
    }
  }
}

/** One list answer, as the page holds it (the data provider has read the wire shape). */
export interface ListData<T> {
  rows: RecordRow<T>[];
  total: number;
  /** `total` is an estimate (see ListResult). */
  estimated?: boolean;
}

export interface ListQuery<T> {
  query: ListQueryState;
  rows: RecordRow<T>[];
  total: number;
  /** `total` is the database's estimate, not a count: the pager shows 约 N 条. */
  estimated?: boolean;
  /** True while a list call runs. */
  loading: boolean;
  /** The message of the last list call when it failed; null once one answers. */
  error: string | null;
  selected: { keys: Key[]; rows: RecordRow<T>[] };
  select(keys: Key[], rows: RecordRow<T>[]): void;
  search(values: Record<string, unknown>, range?: readonly [Dayjs, Dayjs] | null): void;
  change(p: { page: number; size: number; sort: SortState | null }): void;
  /** The same query again. */
  reload(): void;
  /** `count` rows went: the page steps back if it no longer exists, and the list is asked for again. */
  deleted(count: number): void;
  /** The export's query: the list's filters and order, the columns shown. */
  exportQuery(columns: readonly { name: string; label: string }[]): Record<string, unknown>;
}

const NO_SELECTION = { keys: [], rows: [] };
const NO_FILTER: Readonly<Record<string, unknown>> = {};

/** Search values in wire shape: by the columns' kinds, or trimmed text and non-empty values. */
function valuesToWire(columns: ListQueryOptions['columns'], values: Record<string, unknown>): Record<string, unknown> {
  if (columns) return searchValuesToWire(columns as readonly ColumnModel[], values);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    const wire = searchValueToWire('text', v);
    if (wire !== undefined) out[k] = wire;
  }
  return out;
}

export function useListQuery<T, R = unknown>(source: ListSource<R>, options: ListQueryOptions = {}): ListQuery<T> {
  const { resource, dataProvider } = source;
  const { columns, defaultSort = null, fixed = NO_FILTER, initialRange = null, size = DEFAULT_PAGE_SIZE, values = NO_FILTER } = options;
  const fixedKey = JSON.stringify(fixed);
  // biome-ignore lint/correctness/useExhaustiveDependencies: compared by content
  const fixedValue = useMemo(() => fixed, [fixedKey]);
  const sortKey = defaultSort ? sortParam(null, defaultSort) : '';
  const [query, dispatch] = useReducer(listQueryReducer, initialRange, (r) => ({ ...initialListQuery(rangeToWire(r)), size, values }));
  const [error, setError] = useState<string | null>(null);
  const [answer, setAnswer] = useState<ListData<T>>({ rows: [], total: 0 });
  const [loading, setLoading] = useState(true);
  const [selected, setSelected] = useState<{ keys: Key[]; rows: RecordRow<T>[] }>(NO_SELECTION);
  const [tick, setTick] = useState(0);
  // Set when an answer goes into state, so that the commit showing it can be marked.
  const answered = useRef(false);
  const totalRef = useRef(0);
  totalRef.current = answer.total;
  const sortRef = useRef(defaultSort);
  sortRef.current = defaultSort;

  // tick: a reload asks for the same query again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: tick is the reload signal, sortKey the default sort
  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    dataProvider
      .getList({ resource, query: buildListQuery({ ...query, fixed: fixedValue }, sortRef.current), signal: controller.signal })
      .then((result) => {
        if (controller.signal.aborted) return;
        // A page emptied meanwhile (deletes, reads elsewhere) steps back to the last page with rows.
        // An estimated total may promise pages past the end: an empty page within it is shown as it is.
        const last = Math.max(1, Math.ceil(result.total / query.size));
        if (!result.rows.length && query.page > 1 && result.total > 0 && last < query.page) {
          dispatch({ type: 'table', page: last, size: query.size, sort: query.sort });
          return;
        }
        perfMark(PERF_MARKS.listData);
        answered.current = true;
        setAnswer({ rows: result.rows as RecordRow<T>[], total: result.total, estimated: result.estimated === true });
        setSelected(NO_SELECTION);
        setError(null);
      })
      .catch((e: unknown) => {
        // The data provider has reported the failure; the page may show it in place too.
        if (!controller.signal.aborted) setError(e instanceof Error && e.message ? e.message : '接口请求失败');
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [dataProvider, resource, sortKey, query, fixedValue, tick]);

  // After the commit that put the answer's rows into the table's DOM (before the browser paints it).
  // biome-ignore lint/correctness/useExhaustiveDependencies: answer is the commit to mark
  useLayoutEffect(() => {
    if (!answered.current) return;
    answered.current = false;
    perfMark(PERF_MARKS.listRendered);
  }, [answer]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  const search = useCallback(
    (values: Record<string, unknown>, range: readonly [Dayjs, Dayjs] | null = null) =>
      dispatch({ type: 'search', values: valuesToWire(columns, values), range: rangeToWire(range) }),
    [columns],
  );
  const change = useCallback((p: { page: number; size: number; sort: SortState | null }) => dispatch({ type: 'table', ...p }), []);
  const deleted = useCallback(
    (count: number) => {
      dispatch({ type: 'deleted', count, total: totalRef.current });
      reload();
    },
    [reload],
  );
  const select = useCallback((keys: Key[], rows: RecordRow<T>[]) => setSelected({ keys, rows }), []);
  const exportQuery = useCallback(
    (shown: readonly { name: string; label: string }[]) => buildExportQuery({ ...query, fixed: fixedValue }, sortRef.current, shown),
    [query, fixedValue],
  );

  return {
    query,
    rows: answer.rows,
    total: answer.total,
    estimated: answer.estimated === true,
    loading,
    error,
    selected,
    select,
    search,
    change,
    reload,
    deleted,
    exportQuery,
  };
}
