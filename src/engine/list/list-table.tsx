import { CaretDownOutlined, CaretUpOutlined } from '@ant-design/icons';
import { Empty, Pagination, Spin, Tooltip, theme } from 'antd';
import {
  type CSSProperties,
  type Key,
  memo,
  type ReactNode,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from 'react';
import { type ColumnModel, PIXEL_TEXT } from '../../model';
import { useOptionsStore } from '../options';
import { remoteKey, remoteParams } from '../options/remote-options';
import type { DictEntry, LoadStatus, RemoteOption } from '../options/types';
import { keyColumns } from './columns';
import { cellText, dictEntriesOf, dictText, remoteText, tagColor } from './format';
import './list-table.css';
import { PAGE_SIZES, rowNumber, type SortState } from './query';
import { estimatedTotalText, totalText } from './table-props';

export type Row = Record<string, unknown>;

/** Selection column 55 px, index column 80 px. */
export const SELECTION_WIDTH = 55;
export const INDEX_WIDTH = 80;
/** The spinner shows only when loading lasts longer than this. */
export const LOADING_DELAY_MS = 50;
/** A column without a width in its definition. */
export const DEFAULT_COLUMN_WIDTH = 150;
/** The operation column: 查看 and 更多. */
export const OPERATION_WIDTH = 130;

interface Lookups {
  dict: (name: string) => DictEntry[] | undefined;
  remote: (column: ColumnModel) => RemoteOption[] | undefined;
  remoteStatus: (column: ColumnModel) => LoadStatus;
}

/**
 * The dictionaries and remote options of the table's columns, from the page's options store: loaded
 * once per page (dictionaries in one batch), read by every cell without a subscription of its own.
 * `version` changes whenever something arrives, so the cells are drawn again with the labels.
 */
function useColumnLookups(columns: readonly ColumnModel[]): { lookups: Lookups; version: number } {
  const store = useOptionsStore();
  const [version, changed] = useReducer((n: number) => n + 1, 0);
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
  const lookups = useMemo<Lookups>(
    () => ({
      dict: (name) => store.dicts.entries(name),
      remote: (c) => (c.remote ? store.remote.options(remoteKey(c.remote.url, remoteParams(c.remote))) : undefined),
      remoteStatus: (c) => (c.remote ? store.remote.status(remoteKey(c.remote.url, remoteParams(c.remote))) : 'ready'),
    }),
    [store],
  );
  return { lookups, version };
}

/**
 * A tag: a plain span styled by list-table.css from the theme (antd's Tag component costs a style
 * registration and several hooks per instance, and a 100-row page can hold hundreds of them). It
 * never grows wider than its cell: a longer label ends in an ellipsis, with the whole label as its title.
 */
function tag(key: string, color: string, label: string): ReactNode {
  return (
    <span key={key} className={`engine-tag engine-tag-${color}`} title={label}>
      {label}
    </span>
  );
}

/** A cell's tags, wrapping onto more lines rather than running into the next cell. */
const tags = (nodes: ReactNode) => <span className="engine-tags">{nodes}</span>;

/** The hover text of a remote value shown without its label. */
const UNRESOLVED_TITLE = '关联记录已删除或不在您的数据范围内';

/** A cell's content: tags, dictionary labels, remote labels, a city's labels, or the formatted value. */
function renderCell(column: ColumnModel, row: Row, lookups: Lookups): { node: ReactNode; text: string } {
  const value = row[column.name];
  if (column.dict) {
    const entries = lookups.dict(column.dict);
    if (column.tags) {
      const parts = dictEntriesOf(value, entries);
      return {
        text: parts.map((e) => e.label).join(','),
        node: parts.length ? tags(parts.map((e) => tag(String(e.value), tagColor(e.type), e.label))) : '',
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
    const { text, unresolved } = remoteText(value, row[`${column.name}Fmt`], lookups.remote(column), lookups.remoteStatus(column));
    if (!unresolved) return { text, node: text };
    return {
      text,
      node: (
        <span className="engine-cell-unresolved" title={UNRESOLVED_TITLE}>
          {text}
        </span>
      ),
    };
  }
  const text = cellText(column, value);
  if (column.tags && text) return { text, node: tags(tag(text, 'processing', text)) };
  return { text, node: text };
}

/**
 * A cell's text on one line, clipped with an ellipsis when the column is narrower. The tooltip with
 * the whole text is mounted on the first hover of a clipped text only: a tooltip per cell up front
 * would cost more than the rest of the row. `data-tooltip` says the cell has one.
 */
function OverflowText({ text, children }: { text: string; children: ReactNode }) {
  const [armed, setArmed] = useState(false);
  if (!armed)
    return (
      // biome-ignore lint/a11y/noStaticElementInteractions: hover only arms the tooltip; the whole text is in the DOM for assistive tech
      <span
        className="engine-cell-clip"
        data-tooltip
        onMouseEnter={(e) => {
          const el = e.currentTarget;
          if (el.scrollWidth > el.clientWidth) setArmed(true);
        }}
      >
        {children}
      </span>
    );
  return (
    <Tooltip title={text} placement="topLeft" defaultOpen>
      <span className="engine-cell-clip" data-tooltip>
        {children}
      </span>
    </Tooltip>
  );
}

export interface ListTableProps {
  columns: readonly ColumnModel[];
  rows: Row[];
  rowKey: string;
  loading: boolean;
  page: number;
  size: number;
  total: number;
  /** `total` is an estimate: the pager says 约 N 条. */
  estimated?: boolean;
  sort: SortState | null;
  defaultSort: SortState;
  index: boolean;
  selectable: boolean;
  selectedKeys: Key[];
  onSelect: (keys: Key[], rows: Row[]) => void;
  onChange: (p: { page: number; size: number; sort: SortState | null }) => void;
  operation?: { width?: number | string; render: (row: Row) => ReactNode };
}

/** One drawn column of the body: its class, and what a row shows in it. */
interface BodyColumn {
  key: string;
  className: string;
  cell: (row: Row) => ReactNode;
}

const alignClass = (align: string | undefined) => (align === 'center' || align === 'right' ? ` engine-align-${align}` : '');
/**
 * A column's grid track: at least its width from the definition, sharing out the room a wide
 * screen leaves in proportion to the widths. A width that is not pixels (`20%`) counts as the default.
 */
function track(width: number | string | undefined): { css: string; min: number } {
  const n = typeof width === 'number' ? width : typeof width === 'string' && PIXEL_TEXT.test(width) ? Number.parseFloat(width) : NaN;
  const w = Number.isFinite(n) && n > 0 ? n : DEFAULT_COLUMN_WIDTH;
  return { css: `minmax(${w}px, ${w}fr)`, min: w };
}

/** A row, drawn again only when its record, number, selection or the columns change. */
const BodyRow = memo(function BodyRow(props: {
  row: Row;
  rowKey: string;
  number: number;
  index: boolean;
  selectable: boolean;
  checked: boolean;
  onCheck: (key: string, checked: boolean) => void;
  columns: readonly BodyColumn[];
  operation?: (row: Row) => ReactNode;
}) {
  const { row, rowKey } = props;
  return (
    <div role="row" className={`engine-row${props.checked ? ' engine-row-selected' : ''}`} data-row-key={rowKey}>
      {props.selectable && (
        <div role="cell" className="engine-cell engine-cell-selection">
          <input
            type="checkbox"
            className="engine-check"
            aria-label={`选择第 ${props.number} 行`}
            checked={props.checked}
            onChange={(e) => props.onCheck(rowKey, e.currentTarget.checked)}
          />
        </div>
      )}
      {props.index && (
        <div role="cell" className="engine-cell engine-align-center">
          {props.number}
        </div>
      )}
      {props.columns.map((c) => (
        <div role="cell" key={c.key} className={c.className}>
          {c.cell(row)}
        </div>
      ))}
      {props.operation && (
        <div role="cell" className="engine-cell engine-cell-operation engine-align-center">
          {props.operation(row)}
        </div>
      )}
    </div>
  );
});

/** The select-all box: checked when every row of the page is, indeterminate when some are. */
function SelectAll({ all, some, onChange }: { all: boolean; some: boolean; onChange: (checked: boolean) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    if (ref.current) ref.current.indeterminate = some && !all;
  }, [all, some]);
  return (
    <input
      ref={ref}
      type="checkbox"
      className="engine-check"
      aria-label="全选本页"
      checked={all}
      onChange={(e) => onChange(e.currentTarget.checked)}
    />
  );
}

/** Theme colours for list-table.css, as custom properties on the table (they follow a live theme change). */
function useThemeVars(): CSSProperties {
  const { token } = theme.useToken();
  return useMemo(
    () =>
      ({
        '--engine-primary': token.colorPrimary,
        '--engine-border': token.colorBorderSecondary,
        '--engine-header-bg': token.colorFillAlter,
        '--engine-bg': token.colorBgContainer,
        '--engine-hover': token.controlItemBgHover,
        '--engine-selected': token.controlItemBgActive,
        '--engine-text': token.colorText,
        '--engine-text-secondary': token.colorTextTertiary,
        '--engine-radius': `${token.borderRadiusSM}px`,
        '--engine-font-size': `${token.fontSize}px`,
        '--engine-success': token.colorSuccessText,
        '--engine-success-bg': token.colorSuccessBg,
        '--engine-success-border': token.colorSuccessBorder,
        '--engine-warning': token.colorWarningText,
        '--engine-warning-bg': token.colorWarningBg,
        '--engine-warning-border': token.colorWarningBorder,
        '--engine-error': token.colorErrorText,
        '--engine-error-bg': token.colorErrorBg,
        '--engine-error-border': token.colorErrorBorder,
        '--engine-info': token.colorInfoText,
        '--engine-info-bg': token.colorInfoBg,
        '--engine-info-border': token.colorInfoBorder,
        '--engine-default-bg': token.colorFillQuaternary,
        '--engine-default-border': token.colorBorder,
      }) as CSSProperties,
    [token],
  );
}

/**
 * The list table with its pager: selection (55 px) and index (80 px) columns, dictionary
 * labels and coloured tags (wrapping inside their cell), money, units, text on one line clipped with a
 * tooltip (key columns wrap instead), sorting on the server, an operation column fixed on the right,
 * the pager (total, sizes, prev, pager, next, jumper).
 *
 * Drawn with plain elements rather than antd's Table: 100 rows × 30 columns must paint within 150 ms
 * of the data arriving (the list-render benchmark's budget). antd's Table runs several hooks per cell, measures itself
 * and renders again, and its virtual mode adds measuring passes of its own. Here a cell is a plain
 * element, a row is memoised, the column tracks are fixed up front in one CSS grid, and each row has
 * `content-visibility: auto`, so the browser lays out and paints only the rows in view while every
 * row stays in the page (find in page, selection, tests). ARIA roles make it a table to assistive tech
 * (biome.json turns off the lint rules that would have these be <table> elements).
 */
export function ListTable(props: ListTableProps) {
  const { columns, rows, page, size, sort, defaultSort, rowKey, selectedKeys, onSelect, onChange } = props;
  const { lookups, version } = useColumnLookups(columns);
  const activeSort = sort ?? defaultSort;
  const vars = useThemeVars();

  // Key columns (the record's number, state, quantity) wrap rather than clip: their values are read whole.
  const keys = useMemo(() => keyColumns(columns), [columns]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version: labels arrived, draw the cells again
  const bodyColumns = useMemo<BodyColumn[]>(
    () =>
      columns.map((c) => {
        const clip = !keys.has(c.name) && !c.tags;
        return {
          key: c.name,
          className: `engine-cell${alignClass(c.align)}${clip ? ' engine-cell-ellipsis' : ''}`,
          cell: (row: Row) => {
            const { node, text } = renderCell(c, row, lookups);
            return clip && text ? <OverflowText text={text}>{node}</OverflowText> : node;
          },
        };
      }),
    [columns, keys, lookups, version],
  );

  const keyOf = useCallback((r: Row) => String(r[rowKey] ?? ''), [rowKey]);
  const selected = useMemo(() => new Set(selectedKeys.map(String)), [selectedKeys]);
  // Read by the memoised rows' checkbox handler, so a selection change redraws only the rows it touches.
  const latest = useRef({ rows, selected, onSelect, keyOf });
  latest.current = { rows, selected, onSelect, keyOf };
  const onCheck = useCallback((key: string, checked: boolean) => {
    const { rows, selected, onSelect, keyOf } = latest.current;
    const next = new Set(selected);
    if (checked) next.add(key);
    else next.delete(key);
    const picked = rows.filter((r) => next.has(keyOf(r)));
    onSelect(picked.map(keyOf), picked);
  }, []);
  const checkedCount = rows.reduce((n, r) => (selected.has(keyOf(r)) ? n + 1 : n), 0);
  const selectAll = (checked: boolean) => onSelect(checked ? rows.map(keyOf) : [], checked ? rows : []);

  const sortBy = (c: ColumnModel) => {
    const order = activeSort.field === c.name && activeSort.order === 'asc' ? 'desc' : 'asc';
    // A sort starts again at page 1.
    onChange({ page: 1, size, sort: { field: c.name, order } });
  };

  const operation = props.operation;
  const tracks = [
    ...(props.selectable ? [track(SELECTION_WIDTH)] : []),
    ...(props.index ? [track(INDEX_WIDTH)] : []),
    ...columns.map((c) => track(c.width)),
    ...(operation ? [track(operation.width)] : []),
  ];
  const gridStyle: CSSProperties = {
    gridTemplateColumns: tracks.map((t) => t.css).join(' '),
    minWidth: tracks.reduce((sum, t) => sum + t.min, 0),
  };

  return (
    <div className="engine-list-table" style={vars}>
      <Spin spinning={props.loading} delay={LOADING_DELAY_MS}>
        <div className="engine-table-scroll">
          <div role="table" className="engine-table" aria-rowcount={rows.length + 1} style={gridStyle}>
            <div role="rowgroup" className="engine-head">
              <div role="row" className="engine-head-row">
                {props.selectable && (
                  <div role="columnheader" className="engine-cell engine-cell-selection">
                    <SelectAll all={rows.length > 0 && checkedCount === rows.length} some={checkedCount > 0} onChange={selectAll} />
                  </div>
                )}
                {props.index && (
                  <div role="columnheader" className="engine-cell engine-align-center">
                    序号
                  </div>
                )}
                {columns.map((c) => {
                  if (!c.sortable)
                    return (
                      <div
                        role="columnheader"
                        key={c.name}
                        className={`engine-cell${alignClass(c.align)}`}
                        data-key-column={keys.get(c.name)}
                      >
                        {c.label}
                      </div>
                    );
                  const order = activeSort.field === c.name ? activeSort.order : undefined;
                  return (
                    // biome-ignore lint/a11y/useKeyWithClickEvents: the header's button takes the keyboard (Enter and Space click it, and the click comes up here)
                    <div
                      role="columnheader"
                      key={c.name}
                      className={`engine-cell engine-sortable${alignClass(c.align)}`}
                      data-key-column={keys.get(c.name)}
                      aria-sort={order === 'asc' ? 'ascending' : order === 'desc' ? 'descending' : 'none'}
                      onClick={() => sortBy(c)}
                    >
                      <button type="button" className="engine-sort-button" title={order === 'asc' ? '点击降序' : '点击升序'}>
                        <span>{c.label}</span>
                        <span className="engine-sorter" aria-hidden>
                          <CaretUpOutlined className={order === 'asc' ? 'active' : undefined} />
                          <CaretDownOutlined className={order === 'desc' ? 'active' : undefined} />
                        </span>
                      </button>
                    </div>
                  );
                })}
                {operation && (
                  <div role="columnheader" className="engine-cell engine-cell-operation engine-align-center">
                    操作
                  </div>
                )}
              </div>
            </div>
            <div role="rowgroup" className="engine-body">
              {rows.map((row, i) => {
                const key = keyOf(row);
                return (
                  <BodyRow
                    key={key || `#${i}`}
                    row={row}
                    rowKey={key}
                    number={rowNumber(page, size, i)}
                    index={props.index}
                    selectable={props.selectable}
                    checked={selected.has(key)}
                    onCheck={onCheck}
                    columns={bodyColumns}
                    operation={operation?.render}
                  />
                );
              })}
            </div>
          </div>
          {/* Kept mounted (and in the viewport while the table scrolls sideways): mounting antd's
              Empty or Pagination registers their styles again, which costs a 100-row answer ~30 ms. */}
          <div className="engine-empty" hidden={rows.length > 0}>
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={props.loading ? '加载中' : '暂无数据'} />
          </div>
        </div>
      </Spin>
      <div className="engine-pager" hidden={props.total <= 0}>
        <Pagination
          current={page}
          pageSize={size}
          total={props.total}
          showSizeChanger
          showQuickJumper
          pageSizeOptions={PAGE_SIZES}
          showTotal={props.estimated ? estimatedTotalText : totalText}
          onChange={(nextPage, nextSize) =>
            // A page-size change starts again at page 1.
            onChange({ page: nextSize !== size ? 1 : nextPage, size: nextSize, sort })
          }
        />
      </div>
    </div>
  );
}
