import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { ChartModel } from '../../../model/index.js';
import { type ChartColor, columnsOf } from '../chart-options.js';
import type { DataViewAnswer } from '../data-source.js';
import { cellText, figureText, moneyText } from '../format.js';
import { numberOf, recordOf } from '../layout.js';

/** The chart kinds drawn as HTML: the scrolling list, the city-transaction list and the figure blocks. */

export const ROW_HEIGHT = 40;
const STEP_MS = 500;
export const DEFAULT_SCROLL_INTERVAL = 3000;

interface Column {
  title: string;
  cell: (row: Record<string, unknown>) => ReactNode;
  numeric?: boolean;
}

/** Rows that move up one at a time every `interval` ms when they do not all fit, round and round. */
function ScrollTable({ columns, rows, interval }: { columns: Column[]; rows: Record<string, unknown>[]; interval: number }) {
  const body = useRef<HTMLDivElement | null>(null);
  const [fits, setFits] = useState(0);
  const [step, setStep] = useState({ offset: 0, animate: false });

  useEffect(() => {
    const el = body.current;
    if (!el) return;
    const measure = () => setFits(Math.floor(el.clientHeight / ROW_HEIGHT));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const scrolling = fits > 0 && rows.length > fits;
  useEffect(() => {
    if (!scrolling) return;
    const timer = setInterval(() => setStep((s) => ({ offset: s.offset + 1, animate: true })), Math.max(STEP_MS * 2, interval));
    return () => {
      clearInterval(timer);
      setStep({ offset: 0, animate: false });
    };
  }, [scrolling, interval]);

  // Past the last row (its copy is showing): jump back to the start without animation.
  const count = rows.length;
  useEffect(() => {
    if (!count || step.offset < count) return;
    const timer = setTimeout(() => setStep({ offset: step.offset % count, animate: false }), STEP_MS);
    return () => clearTimeout(timer);
  }, [step.offset, count]);

  const offset = count && step.offset > count ? step.offset % count : step.offset;
  const shown = scrolling ? [...rows, ...rows.slice(0, fits)] : rows;
  return (
    <div className="wg-screen-table">
      <div className="wg-screen-table-head">
        {columns.map((c) => (
          <span key={c.title} className={c.numeric ? 'num' : undefined} title={c.title}>
            {c.title}
          </span>
        ))}
      </div>
      <div className="wg-screen-table-body" ref={body}>
        <div
          className="wg-screen-table-rows"
          style={{
            transform: offset ? `translateY(${-offset * ROW_HEIGHT}px)` : undefined,
            transition: step.animate ? `transform ${STEP_MS}ms ease` : undefined,
          }}
        >
          {shown.map((row, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own; position is what scrolls
            <div className="wg-screen-table-row" key={i}>
              {columns.map((c) => {
                const v = c.cell(row);
                return (
                  <span key={c.title} className={c.numeric ? 'num' : undefined} title={typeof v === 'string' ? v : undefined}>
                    {v}
                  </span>
                );
              })}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

const intervalOf = (chart: ChartModel) => numberOf(chart.options.interval) ?? DEFAULT_SCROLL_INTERVAL;

/** The data view's rows, every column, scrolling every `interval` ms (3000). */
export function ScrollList({ chart, answer }: { chart: ChartModel; answer: DataViewAnswer }) {
  const columns = columnsOf(answer).map((name): Column => ({ title: name, cell: (r) => cellText(r[name]) }));
  return <ScrollTable columns={columns} rows={answer.list} interval={intervalOf(chart)} />;
}

/** The first present of several names, else the column at `index`. */
function pick(row: Record<string, unknown>, names: string[], index: number): unknown {
  for (const n of names) if (row[n] !== undefined) return row[n];
  return Object.values(row)[index];
}

/** City, transaction amount and paid amount in yuan, scrolling like the list. */
export function CityTransaction({ chart, rows }: { chart: ChartModel; rows: Record<string, unknown>[] }) {
  const columns: Column[] = [
    { title: '城市', cell: (r) => cellText(pick(r, ['city', 'cityName', 'name'], 0)) },
    { title: '交易额（元）', numeric: true, cell: (r) => moneyText(pick(r, ['transactionAmount', 'managementOrderAdd'], 1)) },
    { title: '已支付（元）', numeric: true, cell: (r) => moneyText(pick(r, ['paidAmount', 'managementOrderComplete'], 2)) },
  ];
  return <ScrollTable columns={columns} rows={rows} interval={intervalOf(chart)} />;
}

const colorText = (c: ChartColor | undefined) => (typeof c === 'string' ? c : c?.colorStops[0]?.color);

/** One block per column of the first row: the figure above its name (the whole site, the province, one company). */
export function FigureBlocks({ chart, answer, palette }: { chart: ChartModel; answer: DataViewAnswer; palette?: ChartColor[] }) {
  const row = recordOf(answer.list[0]);
  return (
    <div className={`wg-screen-figures wg-screen-figures-${chart.kind}`}>
      {columnsOf(answer).map((name, i) => (
        <div className="wg-screen-figure" key={name}>
          <div className="wg-screen-figure-value" style={palette ? { color: colorText(palette[i % palette.length]) } : undefined}>
            {figureText(row[name])}
          </div>
          <div className="wg-screen-figure-label">{name}</div>
        </div>
      ))}
    </div>
  );
}
