import { Table, type TableColumnsType, type TablePaginationConfig, Tag, Tooltip } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { type ReactNode, useEffect, useReducer } from 'react';
import type { ColumnModel } from '../../model/types';
import { useOptionsStore } from '../options';
import { remoteKey, remoteParams } from '../options/remote-options';
import type { DictEntry, RemoteOption } from '../options/types';
import { cellText, dictEntriesOf, dictText, tagColor, valuesOf } from './format';
import { PAGE_SIZES, rowNumber, type SortState } from './query';

export type Row = Record<string, unknown>;

/** §9: selection column 55 px, index column 80 px. */
export const SELECTION_WIDTH = 55;
export const INDEX_WIDTH = 80;
/** antd shows the spinner only when loading lasts longer than this (§9 loading delay). */
export const LOADING_DELAY_MS = 50;

interface Lookups {
  dict: (name: string) => DictEntry[] | undefined;
  remote: (column: ColumnModel) => RemoteOption[] | undefined;
}

/**
 * The dictionaries and remote options of the table's columns, from the page's options store: loaded
 * once per page (dictionaries in one batch), read by every cell without a subscription of its own.
 */
function useColumnLookups(columns: readonly ColumnModel[]): Lookups {
  const store = useOptionsStore();
  const [, changed] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    const off1 = store.dicts.subscribe(changed);
    const off2 = store.remote.subscribe(changed);
    return () => {
      off1();
      off2();
    };
  }, [store]);
  const dictNames = [...new Set(columns.flatMap((c) => (c.dict ? [c.dict] : [])))].join(',');
  const remotes = columns.filter((c) => !c.dict && c.remote);
  const remoteKeys = remotes.map((c) => remoteKey(c.remote!.url, remoteParams(c.remote!))).join('|');
  useEffect(() => {
    if (dictNames) void store.dicts.load(dictNames);
  }, [store, dictNames]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: remoteKeys stands for the remote columns
  useEffect(() => {
    for (const c of remotes) if (c.remote?.url) void store.remote.load(c.remote.url, remoteParams(c.remote));
  }, [store, remoteKeys]);
  return {
    dict: (name) => store.dicts.entries(name),
    remote: (c) => (c.remote ? store.remote.options(remoteKey(c.remote.url, remoteParams(c.remote))) : undefined),
  };
}

function findLabel(options: readonly RemoteOption[] | undefined, value: string): string | undefined {
  for (const o of options ?? []) {
    if (o.value === value) return o.label;
    const hit = findLabel(o.children, value);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** A cell's content: tags, dictionary labels, remote labels, a city's labels, or the formatted value. */
function renderCell(column: ColumnModel, row: Row, lookups: Lookups): { node: ReactNode; text: string } {
  const value = row[column.name];
  if (column.dict) {
    const entries = lookups.dict(column.dict);
    if (column.tags) {
      const parts = dictEntriesOf(value, entries);
      return {
        text: parts.map((e) => e.label).join(','),
        node: parts.map((e) => (
          <Tag key={String(e.value)} color={tagColor(e.type)}>
            {e.label}
          </Tag>
        )),
      };
    }
    const text = dictText(value, entries);
    return { text, node: text };
  }
  if (column.searchKind === 'city') {
    const fmt = row[`${column.name}Fmt`];
    const text = typeof fmt === 'string' && fmt ? fmt : cellText(column, value);
    return { text, node: text };
  }
  if (column.remote) {
    const options = lookups.remote(column);
    const text = valuesOf(value)
      .map((v) => findLabel(options, v) ?? v)
      .join(',');
    return { text, node: text };
  }
  const text = cellText(column, value);
  if (column.tags && text) return { text, node: <Tag color="processing">{text}</Tag> };
  return { text, node: text };
}

export interface ListTableProps {
  columns: readonly ColumnModel[];
  rows: Row[];
  rowKey: string;
  loading: boolean;
  page: number;
  size: number;
  total: number;
  sort: SortState | null;
  defaultSort: SortState;
  index: boolean;
  selectable: boolean;
  selectedKeys: React.Key[];
  onSelect: (keys: React.Key[], rows: Row[]) => void;
  onChange: (p: { page: number; size: number; sort: SortState | null }) => void;
  operation?: { width?: number | string; render: (row: Row) => ReactNode };
}

function buildColumns(props: ListTableProps, lookups: Lookups, activeSort: SortState): TableColumnsType<Row> {
  const { columns, page, size } = props;
  const out: TableColumnsType<Row> = [];
  if (props.index)
    out.push({
      key: '__index',
      title: '序号',
      width: INDEX_WIDTH,
      align: 'center',
      render: (_v, _r, i) => rowNumber(page, size, i),
    });
  for (const c of columns) {
    out.push({
      key: c.name,
      dataIndex: c.name,
      title: c.label,
      width: c.width,
      align: c.align,
      ellipsis: c.overflow ? { showTitle: false } : undefined,
      sorter: c.sortable ? true : undefined,
      sortOrder: c.sortable && activeSort.field === c.name ? (activeSort.order === 'asc' ? 'ascend' : 'descend') : null,
      sortDirections: ['ascend', 'descend'],
      render: (_v, row) => {
        const { node, text } = renderCell(c, row, lookups);
        if (!c.overflow || !text) return node;
        return (
          // The cell clips with CSS (column ellipsis); the tooltip shows the whole text.
          <Tooltip title={text} placement="topLeft">
            <span>{node}</span>
          </Tooltip>
        );
      },
    });
  }
  if (props.operation)
    out.push({
      key: '__operation',
      title: '操作',
      width: props.operation.width,
      fixed: 'right',
      align: 'center',
      render: (_v, row) => props.operation?.render(row),
    });
  return out;
}

/** Pages with more rows than this render virtually (only the rows in view), so 100 × 30 stays fast. */
export const VIRTUAL_ROWS = 50;
const VIRTUAL_HEIGHT = 560;
const DEFAULT_COLUMN_WIDTH = 150;

function tableWidth(columns: { width?: number | string }[]): number {
  return columns.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : DEFAULT_COLUMN_WIDTH), 0);
}

/** The table with its pager (§2.1): total, sizes, prev, pager, next, jumper; sorting on the server. */
export function ListTable(props: ListTableProps) {
  const { columns, page, size, sort, defaultSort } = props;
  const lookups = useColumnLookups(columns);
  const activeSort = sort ?? defaultSort;

  // Rebuilt every render: the cells read dictionaries and options as they arrive.
  const tableColumns = buildColumns(props, lookups, activeSort);

  const pagination: TablePaginationConfig = {
    current: page,
    pageSize: size,
    total: props.total,
    showSizeChanger: true,
    showQuickJumper: true,
    pageSizeOptions: PAGE_SIZES,
    showTotal: (t) => `共 ${t} 条`,
  };

  return (
    <Table<Row>
      className="engine-list-table"
      size="middle"
      bordered
      rowKey={(r) => String(r[props.rowKey] ?? '')}
      columns={tableColumns}
      dataSource={props.rows}
      loading={{ spinning: props.loading, delay: LOADING_DELAY_MS }}
      virtual={props.rows.length > VIRTUAL_ROWS}
      scroll={props.rows.length > VIRTUAL_ROWS ? { x: tableWidth(tableColumns), y: VIRTUAL_HEIGHT } : { x: 'max-content' }}
      rowSelection={
        props.selectable
          ? {
              columnWidth: SELECTION_WIDTH,
              selectedRowKeys: props.selectedKeys,
              preserveSelectedRowKeys: false,
              onChange: (keys, rows) => props.onSelect(keys, rows),
            }
          : undefined
      }
      pagination={pagination}
      onChange={(p, _filters, sorter, extra) => {
        const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<Row> | undefined;
        const nextSize = p.pageSize ?? size;
        const nextSort: SortState | null =
          s?.order && s.columnKey ? { field: String(s.columnKey), order: s.order === 'ascend' ? 'asc' : 'desc' } : null;
        // A sort or a page-size change starts again at page 1.
        const nextPage = extra.action === 'sort' || nextSize !== size ? 1 : (p.current ?? page);
        props.onChange({ page: nextPage, size: nextSize, sort: extra.action === 'sort' ? nextSort : sort });
      }}
    />
  );
}
