import { Col, type ColProps, Row, Statistic } from 'antd';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import type { CallAnswer } from '../../contract/define';
import { formatWeight } from '../../shared/format';
import { FigureBlock, type FigureBlockProps } from './block';
import { type FigureCall, type FigureQuery, useFigure } from './use-figure';

/** Tons: 3 decimals with thousands separators. */
export const tons = (n: number) => formatWeight(n);

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

/** A call whose answer says when it was computed: the figure of a tile block. */
export type TileCall = FigureCall & { answer: z.ZodType<{ computedAt: string }> };

export interface TileBlockProps<C extends TileCall> extends Omit<FigureBlockProps<CallAnswer<C>>, 'figure' | 'children' | 'computedAt'> {
  /** The figure's call and its query. */
  call: C;
  query?: FigureQuery<C>;
  /** The first load computed now; by default as the whole page was opened (RefreshAll). */
  refresh?: boolean;
  /** The tiles' widths: QUARTERS unless told. */
  col?: ColProps;
  tiles: (data: CallAnswer<C>) => TileProps[];
  /** When the figures shown were computed: the answer's computedAt unless told. */
  computedAt?: (data: CallAnswer<C>) => string;
}

/** A block drawing one figure call as a row of tiles. */
export function TileBlock<C extends TileCall>({
  call,
  query,
  refresh,
  col = QUARTERS,
  tiles,
  computedAt = (d) => (d as { computedAt: string }).computedAt,
  ...block
}: TileBlockProps<C>) {
  const figure = useFigure(call, query, refresh);
  return (
    <FigureBlock {...block} figure={figure} computedAt={figure.data && computedAt(figure.data)}>
      {(d) => <TileRow col={col} tiles={tiles(d)} />}
    </FigureBlock>
  );
}

/** A home's block made of a tile block alone: the home passes whether its first load is computed now. */
export function tileBlock<C extends TileCall>(spec: Omit<TileBlockProps<C>, 'refresh'>) {
  return ({ refresh }: { refresh?: boolean }) => <TileBlock<C> {...spec} refresh={refresh} />;
}
