import type { Dayjs } from 'dayjs';
import { type Key, useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import type { ListPageModel } from '../../model/types';
import {
  buildExportQuery,
  buildListQuery,
  DEFAULT_PAGE_SIZE,
  type ListQueryState,
  pageAfterDelete,
  rangeToWire,
  type SortState,
  searchValuesToWire,
} from '../list/query';
import { PERF_MARKS, perfMark } from '../perf-marks';
import { type RecordRow, useEngineServices } from '../services';

/**
 * The list page's query and its answer (after refine's useTable): the search values and createTime
 * range, page, size and sort; the list call for them; reload; the page after a delete; the rows
 * selected in the current answer. The page only lays these out.
 */

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
}

export interface ListQuery<T> {
  query: ListQueryState;
  rows: RecordRow<T>[];
  total: number;
  /** True while a list call runs. */
  loading: boolean;
  selected: { keys: Key[]; rows: RecordRow<T>[] };
  select(keys: Key[], rows: RecordRow<T>[]): void;
  search(values: Record<string, unknown>, range: readonly [Dayjs, Dayjs] | null): void;
  change(p: { page: number; size: number; sort: SortState | null }): void;
  /** The same query again. */
  reload(): void;
  /** `count` rows went: the page steps back if it no longer exists, and the list is asked for again. */
  deleted(count: number): void;
  /** The export's query: the list's filters and order, the columns shown. */
  exportQuery(columns: readonly { name: string; label: string }[]): Record<string, unknown>;
}

const NO_SELECTION = { keys: [], rows: [] };

export function useListQuery<T>(
  model: Pick<ListPageModel, 'viewId' | 'api' | 'columns' | 'defaultSort'>,
  /** Filters the page always applies (a foreign key); compared by content. */
  fixed: Readonly<Record<string, unknown>>,
  initialRange: readonly [Dayjs, Dayjs] | null,
): ListQuery<T> {
  const { data } = useEngineServices();
  const [query, dispatch] = useReducer(listQueryReducer, initialRange, (r) => initialListQuery(rangeToWire(r)));
  const [answer, setAnswer] = useState<ListData<T>>({ rows: [], total: 0 });
  const [loading, setLoading] = useState(true);
  const [selected, setSelected] = useState<{ keys: Key[]; rows: RecordRow<T>[] }>(NO_SELECTION);
  const [tick, setTick] = useState(0);
  // Set when an answer goes into state, so that the commit showing it can be marked.
  const answered = useRef(false);
  const totalRef = useRef(0);
  totalRef.current = answer.total;
  const { viewId, api, columns, defaultSort } = model;

  // tick: a reload asks for the same query again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: tick is the reload signal
  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    data
      .getList({ resource: { viewId, api }, query: buildListQuery({ ...query, fixed }, defaultSort), signal: controller.signal })
      .then((result) => {
        if (controller.signal.aborted) return;
        perfMark(PERF_MARKS.listData);
        answered.current = true;
        setAnswer({ rows: result.rows, total: result.total });
        setSelected(NO_SELECTION);
      })
      .catch(() => {
        // A failed list only stops the loading indicator (the data provider has reported it).
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [data, viewId, api, defaultSort, query, fixed, tick]);

  // After the commit that put the answer's rows into the table's DOM (before the browser paints it).
  // biome-ignore lint/correctness/useExhaustiveDependencies: answer is the commit to mark
  useLayoutEffect(() => {
    if (!answered.current) return;
    answered.current = false;
    perfMark(PERF_MARKS.listRendered);
  }, [answer]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  const search = useCallback(
    (values: Record<string, unknown>, range: readonly [Dayjs, Dayjs] | null) =>
      dispatch({ type: 'search', values: searchValuesToWire(columns, values), range: rangeToWire(range) }),
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
    (shown: readonly { name: string; label: string }[]) => buildExportQuery({ ...query, fixed }, defaultSort, shown),
    [query, fixed, defaultSort],
  );

  return { query, rows: answer.rows, total: answer.total, loading, selected, select, search, change, reload, deleted, exportQuery };
}
