import { Col, type ColProps, Row, Statistic } from 'antd';
import type { ReactNode } from 'react';
import type { QueryParams } from '../../request';
import { formatMoney } from '../../shared/format';
import { FigureBlock, type FigureBlockProps } from './block';
import { useFigure } from './use-figure';

/** Tons: 3 decimals with thousands separators. */
export const tons = (n: number) => formatMoney(n, 3);

export interface TileProps {
  label: string;
  value?: string | number;
  /** Draws the value instead of `value` (a figure counting up). */
  valueRender?: () => ReactNode;
  suffix?: string;
  danger?: boolean;
  testId?: string;
  /** Opens the figure's details: the tile becomes a button. */
  onOpen?: () => void;
}

/** One figure of a dashboard block; a button when it opens its details. */
export function Tile({ label, value, valueRender, suffix, danger, testId, onOpen }: TileProps) {
  const figure = (
    <Statistic
      title={label}
      value={value}
      valueRender={valueRender}
      suffix={suffix}
      styles={{ content: danger ? { color: '#cf1322' } : undefined }}
    />
  );
  if (!onOpen) {
    return (
      <div data-testid={testId} className="wg-dash-tile">
        {figure}
      </div>
    );
  }
  return (
    <button
      type="button"
      data-testid={testId}
      onClick={onOpen}
      className="wg-dash-link-tile"
      style={{ all: 'unset', cursor: 'pointer', display: 'block', width: '100%' }}
      aria-label={`${label} ${value}${suffix ?? ''}，查看详情`}
    >
      <div className="wg-dash-tile">{figure}</div>
    </button>
  );
}

/** A block's figures as a row of tiles, each in a column of the given widths. */
export function TileRow({ tiles, col }: { tiles: TileProps[]; col: ColProps }) {
  return (
    <Row gutter={[16, 16]}>
      {tiles.map((t) => (
        <Col {...col} key={t.testId ?? t.label}>
          <Tile {...t} />
        </Col>
      ))}
    </Row>
  );
}

/** Two tiles a row on phones, four on wider screens. */
export const QUARTERS: ColProps = { xs: 12, md: 6 };

export interface TileBlockProps<T> extends Omit<FigureBlockProps<T>, 'figure' | 'children' | 'computedAt'> {
  /** The figure's call and its parameters. */
  url: string;
  params?: QueryParams;
  /** The first load computed now; by default as the whole page was opened (RefreshAll). */
  refresh?: boolean;
  /** The tiles' widths: QUARTERS unless told. */
  col?: ColProps;
  tiles: (data: T) => TileProps[];
  /** When the figures shown were computed: the answer's computedAt unless told. */
  computedAt?: (data: T) => string;
}

/** A block drawing one figure call as a row of tiles. */
export function TileBlock<T extends { computedAt: string }>({
  url,
  params,
  refresh,
  col = QUARTERS,
  tiles,
  computedAt = (d) => d.computedAt,
  ...block
}: TileBlockProps<T>) {
  const figure = useFigure<T>(url, params, refresh);
  return (
    <FigureBlock {...block} figure={figure} computedAt={figure.data && computedAt(figure.data)}>
      {(d) => <TileRow col={col} tiles={tiles(d)} />}
    </FigureBlock>
  );
}

/** A home's block made of a tile block alone: the home passes whether its first load is computed now. */
export function tileBlock<T extends { computedAt: string }>(spec: Omit<TileBlockProps<T>, 'refresh'>) {
  return ({ refresh }: { refresh?: boolean }) => <TileBlock<T> {...spec} refresh={refresh} />;
}
