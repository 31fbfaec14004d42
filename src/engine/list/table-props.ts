import type { Key, KeyboardEvent } from 'react';
import type { ListQuery } from '../hooks/use-list-query';

/**
 * The one pager of the lists that lay out an antd Table themselves (administration pages, messages,
 * logs): `共 N 条`, then the size changer and the quick jumper where the list has them. Only this
 * module writes a Table's `pagination`.
 */
export interface TablePropsOptions {
  /** Rows can be checked (for a delete); the checked ones are the list's selection. */
  selectable?: boolean;
  /** The size changer (antd's 10, 20, 50, 100). */
  sizes?: boolean;
  /** The quick jumper. */
  jumper?: boolean;
  /** `共 N 条`; on unless false. */
  total?: boolean;
  /** The rows' key field; `id` when not given. */
  rowKey?: string;
  /** Every row on one page, no pager (a list read whole). */
  whole?: boolean;
}

/** A table of rows already in hand (a tree, a result, a few figures): no pager. */
export const UNPAGED = { pagination: false } as const;

export const totalText = (t: number) => `共 ${t} 条`;
/** The pager's total when it is the database's estimate (more rows than a count tells exactly). */
export const estimatedTotalText = (t: number) => `约 ${t.toLocaleString('zh-CN')} 条`;

/** A pager whose page the caller holds (a list read by other means than useListQuery). */
export interface PagerState {
  page: number;
  size: number;
  total: number;
  onChange(page: number, size: number): void;
}

/** The pager of a Table whose page the caller holds, laid out as the lists' own. */
export function tablePager(
  p: PagerState,
  options: Pick<TablePropsOptions, 'sizes' | 'jumper'> & { totalText?: (t: number) => string } = {},
) {
  const { sizes = false, jumper = false } = options;
  return {
    current: p.page,
    pageSize: p.size,
    total: p.total,
    showSizeChanger: sizes,
    showQuickJumper: jumper || undefined,
    showTotal: options.totalText ?? totalText,
    onChange: p.onChange,
  };
}

/** What the table reads of useListQuery's answer, for rows of type R. */
export interface TableList<R> extends Pick<ListQuery<unknown>, 'query' | 'total' | 'estimated' | 'loading' | 'change'> {
  rows: R[];
  selected: { keys: Key[] };
  select(keys: Key[], rows: R[]): void;
}

/** What a list's antd Table takes from useListQuery: rows, loading, selection, and the pager whose changes go back to it. */
export function listTableProps<R>(list: TableList<R>, options: TablePropsOptions = {}) {
  const { selectable = false, sizes = false, jumper = false, total = true, rowKey = 'id', whole = false } = options;
  return {
    rowKey,
    loading: list.loading,
    dataSource: list.rows,
    rowSelection: selectable ? { selectedRowKeys: list.selected.keys, onChange: list.select } : undefined,
    pagination: whole
      ? UNPAGED.pagination
      : {
          current: list.query.page,
          pageSize: list.query.size,
          total: list.total,
          showSizeChanger: sizes,
          showQuickJumper: jumper || undefined,
          showTotal: total ? (list.estimated ? estimatedTotalText : totalText) : undefined,
        },
    onChange: (p: { current?: number; pageSize?: number }) =>
      list.change({ page: p.current ?? 1, size: p.pageSize ?? list.query.size, sort: null }),
  };
}

/**
 * A list whose rows are picked (master and detail): a click, or Enter or Space on the focused row,
 * picks it; the `current` row shows selected.
 */
export function pickableTableProps<R extends { id: unknown }>(
  list: TableList<R>,
  current: R | null,
  pick: (row: R) => void,
  options?: TablePropsOptions,
) {
  const isSelected = (row: R) => row.id === current?.id;
  return {
    ...listTableProps(list, options),
    rowClassName: (row: R) => (isSelected(row) ? 'ant-table-row-selected' : ''),
    onRow: (row: R) => ({
      onClick: () => pick(row),
      onKeyDown: (e: KeyboardEvent<HTMLElement>) => {
        if ((e.key === 'Enter' || e.key === ' ') && e.target === e.currentTarget) {
          e.preventDefault();
          pick(row);
        }
      },
      tabIndex: 0,
      'aria-selected': isSelected(row),
      style: { cursor: 'pointer' },
    }),
  };
}
