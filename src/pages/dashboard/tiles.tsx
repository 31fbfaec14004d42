import { Col, type ColProps, Row, Statistic } from 'antd';
import type { ReactNode } from 'react';
import { formatMoney } from '../../shared/format';

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
