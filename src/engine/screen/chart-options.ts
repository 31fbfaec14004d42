import type { EChartsCoreOption } from 'echarts/core';
import { type ChartModel, isDrawableImageUrl, type ThemeColor } from '../../model/index.js';
import type { DataViewAnswer } from './data-source.js';
import { flagOf, numberOf, recordOf, textOf } from './layout.js';

/**
 * ECharts options of the line-and-bar, pie and radar charts, from a chart's settings and its data
 * view's answer. Pure: no ECharts code runs here, so the options are checked without a browser.
 */

/** Text and lines on the dark canvas. */
export const SCREEN_TEXT = '#C8D8F5';
const AXIS_LINE = '#2A4A8A';
const SPLIT_LINE = 'rgba(200, 216, 245, 0.12)';

export interface LinearGradient {
  type: 'linear';
  x: number;
  y: number;
  x2: number;
  y2: number;
  colorStops: { offset: number; color: string }[];
}

export type ChartColor = string | LinearGradient;

function themeList(v: unknown): ThemeColor[] {
  if (!Array.isArray(v)) return [];
  const out: ThemeColor[] = [];
  for (const x of v) {
    if (typeof x === 'string' && x.trim()) out.push({ start: x.trim(), end: x.trim() });
    else {
      const start = textOf(recordOf(x).start);
      if (start) out.push({ start, end: textOf(recordOf(x).end) ?? start });
    }
  }
  return out;
}

/**
 * The colours a chart draws with. With no theme colours anywhere the chart keeps ECharts' own
 * (undefined). The screen's theme colours apply to every chart, unless the chart has its own and
 * `privateColorFirst`. `colorModel` "gradient" runs each colour from start (top) to end; anything
 * else is the start colour alone.
 */
export function paletteOf(chart: Pick<ChartModel, 'common'>, screenTheme: readonly ThemeColor[]): ChartColor[] | undefined {
  const own = themeList(chart.common.themeColor);
  const screen = themeList(screenTheme);
  const privateFirst = flagOf(chart.common.privateColorFirst, false);
  const list = privateFirst && own.length ? own : screen.length ? screen : own;
  if (!list.length) return undefined;
  const gradient = chart.common.colorModel === 'gradient';
  return list.map((c) =>
    gradient && c.end !== c.start
      ? {
          type: 'linear',
          x: 0,
          y: 0,
          x2: 0,
          y2: 1,
          colorStops: [
            { offset: 0, color: c.start },
            { offset: 1, color: c.end },
          ],
        }
      : c.start,
  );
}

/** Comma-separated names (legendData, yAxisData_bar, …), trimmed, empties dropped. */
export function namesOf(v: unknown): string[] {
  const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(/[,，]/) : [];
  return list.map((x) => String(x).trim()).filter(Boolean);
}

/** A cell as a number for a series; null (a gap) when it is not one. */
export function cellNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

export const columnsOf = (answer: DataViewAnswer): string[] => (answer.columns.length ? answer.columns : Object.keys(answer.list[0] ?? {}));

function legendOf(v: unknown, showByDefault: boolean) {
  const c = recordOf(v);
  const data = namesOf(c.legendData);
  const position = textOf(c.position) ?? 'top';
  const place =
    position === 'bottom'
      ? { bottom: 0, left: 'center' }
      : position === 'left'
        ? { left: 0, top: 'middle', orient: 'vertical' }
        : position === 'right'
          ? { right: 0, top: 'middle', orient: 'vertical' }
          : { top: 0, left: 'center' };
  return {
    show: flagOf(c.show, showByDefault),
    ...(data.length ? { data } : {}),
    textStyle: { color: SCREEN_TEXT, fontSize: numberOf(c.size) ?? 12 },
    ...place,
  };
}

function titleOf(v: unknown) {
  const c = recordOf(v);
  const position = textOf(c.position);
  return {
    show: flagOf(c.show, false),
    text: textOf(c.text) ?? '',
    left: position === 'center' || position === 'right' ? position : 'left',
    textStyle: { color: textOf(c.color) ?? '#FFFFFF', fontSize: numberOf(c.size) ?? 16 },
  };
}

function axisOf(v: unknown, type: 'category' | 'value', data?: string[]) {
  const c = recordOf(v);
  const min = numberOf(c.min);
  const max = numberOf(c.max);
  return {
    type,
    ...(data ? { data } : {}),
    ...(textOf(c.name) ? { name: textOf(c.name) } : {}),
    ...(min !== undefined ? { min } : {}),
    ...(max !== undefined ? { max } : {}),
    nameTextStyle: { color: SCREEN_TEXT },
    axisLabel: { show: flagOf(c.axisLabel, true), color: SCREEN_TEXT },
    axisLine: { show: flagOf(c.axisLine, type === 'category'), lineStyle: { color: AXIS_LINE } },
    axisTick: { show: false },
    splitLine: { show: flagOf(c.splitLine, type === 'value'), lineStyle: { color: SPLIT_LINE } },
  };
}

function gridMarginsOf(v: unknown) {
  const c = recordOf(v);
  return { top: numberOf(c.top) ?? 40, right: numberOf(c.right) ?? 20, bottom: numberOf(c.bottom) ?? 30, left: numberOf(c.left) ?? 50 };
}

const withPalette = (palette: ChartColor[] | undefined) => (palette ? { color: palette } : {});

/** The size in pixels of the box a chart draws in, when known. */
export interface ChartBox {
  width: number;
  height: number;
}

/** Bars and lines whose largest values differ by this factor or more get an axis each. */
export const SECOND_AXIS_RATIO = 3;

/** A line's symbol: ECharts draws `image://{address}` from that address, so such a symbol needs an address the app may draw. */
export function lineSymbolOf(v: unknown): string {
  const symbol = textOf(v);
  if (!symbol) return 'emptyCircle';
  const image = /^image:\/\/(.*)$/is.exec(symbol)?.[1];
  return image === undefined || isDrawableImageUrl(image) ? symbol : 'emptyCircle';
}

const largest = (values: readonly (number | null)[]) => values.reduce<number>((m, v) => (v === null ? m : Math.max(m, Math.abs(v))), 0);

/** Line and bar series over one category axis; null when there is no answer or no row. */
export function lineBarOption(
  chart: ChartModel,
  answer: DataViewAnswer | undefined,
  palette?: ChartColor[],
  box?: ChartBox,
): EChartsCoreOption | null {
  if (!answer?.list.length) return null;
  const o = chart.options;
  const columns = columnsOf(answer);
  const xColumn = textOf(o.xAxisData) ?? columns[0] ?? '';
  let bars = namesOf(o.yAxisData_bar);
  const lines = namesOf(o.yAxisData_line);
  if (!bars.length && !lines.length) bars = columns.filter((c) => c !== xColumn);
  const rows = answer.list;
  const line = recordOf(o.line);
  const bar = recordOf(o.bar);
  const labelSettings = recordOf(o.label);
  const label = {
    show: flagOf(labelSettings.show, false),
    position: 'top',
    color: SCREEN_TEXT,
    fontSize: numberOf(labelSettings.fontSize) ?? 12,
  };
  const radius = numberOf(bar.radius) ?? 0;
  const column = (name: string) => rows.map((r) => cellNumber(r[name]));
  // Lines of another scale than the bars (订单数 beside 处置量 in tons) read on their own axis on the right.
  const barTop = largest(bars.flatMap(column));
  const lineTop = largest(lines.flatMap(column));
  const twoAxes =
    bars.length > 0 &&
    lines.length > 0 &&
    barTop > 0 &&
    lineTop > 0 &&
    Math.max(barTop, lineTop) / Math.min(barTop, lineTop) >= SECOND_AXIS_RATIO;
  const series = [
    ...bars.map((name) => ({
      type: 'bar',
      id: `bar:${name}`,
      name,
      data: column(name),
      ...(numberOf(bar.barWidth) ? { barWidth: numberOf(bar.barWidth) } : {}),
      showBackground: flagOf(bar.showBackground, false),
      backgroundStyle: { color: 'rgba(200, 216, 245, 0.08)' },
      itemStyle: { borderRadius: [radius, radius, 0, 0] },
      label,
    })),
    ...lines.map((name) => ({
      type: 'line',
      id: `line:${name}`,
      name,
      data: column(name),
      ...(twoAxes ? { yAxisIndex: 1 } : {}),
      symbol: lineSymbolOf(line.symbol),
      symbolSize: numberOf(line.symbolSize) ?? 4,
      step: flagOf(line.step, false) ? 'middle' : false,
      smooth: flagOf(line.smooth, false),
      areaStyle: flagOf(line.area, false) ? { opacity: 0.25 } : undefined,
      label,
    })),
  ];
  return {
    ...withPalette(palette),
    animationDurationUpdate: 500,
    title: titleOf(o.title),
    legend: legendOf(o.legend, series.length > 1),
    tooltip: { trigger: 'axis' },
    ...categoryLayout(
      axisOf(
        o.xAxis,
        'category',
        rows.map((r) => String(r[xColumn] ?? '')),
      ),
      gridMarginsOf(o.grid),
      box,
    ),
    yAxis: twoAxes ? twoValueAxes(o.yAxis, bars, lines) : axisOf(o.yAxis, 'value'),
    series,
  };
}

/** The category axis's label size, as axisOf sets it (ECharts' default). */
const AXIS_FONT = 12;
/** The turn given to category labels that do not fit side by side. */
const LABEL_TURN = 45;

/**
 * The category axis and the grid, with every category's label shown when they fit: side by side when
 * the widest fits its category's width, else turned 45° when their line height does (the grid's
 * bottom grows to hold them). Only when not even that fits, or the box is not known and the labels are
 * many, does ECharts leave some out.
 */
export function categoryLayout<A extends { data?: string[]; axisLabel: Record<string, unknown> }>(
  axis: A,
  grid: { top: number; right: number; bottom: number; left: number },
  box: ChartBox | undefined,
): { xAxis: A; grid: typeof grid } {
  const labels = axis.data ?? [];
  if (!labels.length || axis.axisLabel.show === false) return { xAxis: axis, grid };
  const widest = Math.max(...labels.map((l) => textWidth(l, AXIS_FONT)));
  const all = (extra: Record<string, unknown>) => ({ ...axis, axisLabel: { ...axis.axisLabel, interval: 0, ...extra } });
  if (!box || box.width <= 0) return labels.length <= 12 ? { xAxis: all({}), grid } : { xAxis: axis, grid };
  const each = (box.width - grid.left - grid.right) / labels.length;
  if (widest + 4 <= each) return { xAxis: all({}), grid };
  if (AXIS_FONT * 1.5 <= each) {
    const drop = Math.ceil(widest * Math.sin((LABEL_TURN * Math.PI) / 180)) + AXIS_FONT;
    return { xAxis: all({ rotate: LABEL_TURN }), grid: { ...grid, bottom: Math.max(grid.bottom, drop) } };
  }
  return { xAxis: axis, grid };
}

/**
 * The bars' axis on the left (the configured y axis, named after the bar when there is one) and the
 * lines' on the right, named after the line when there is one, without split lines of its own.
 */
function twoValueAxes(settings: unknown, bars: string[], lines: string[]) {
  const c = recordOf(settings);
  const left = axisOf({ ...c, name: textOf(c.name) ?? (bars.length === 1 ? bars[0] : undefined) }, 'value');
  const right = axisOf({ name: lines.length === 1 ? lines[0] : undefined, axisLabel: c.axisLabel, splitLine: false }, 'value');
  return [left, { ...right, position: 'right' }];
}

/** Width in pixels of one line of label text: CJK characters a full font size, others about 0.6 of it. */
export function textWidth(text: string, fontSize: number): number {
  let width = 0;
  for (const ch of text) width += (ch.codePointAt(0) ?? 0) >= 0x2e80 ? fontSize : fontSize * 0.6;
  return Math.ceil(Math.round(width * 100) / 100);
}

/** The pie's label lines: from the slice, then along to the label. */
const PIE_LABEL_LINE = { length: 10, length2: 8 };
/** The pie never shrinks below this share of its outer radius to make room for labels. */
const PIE_MIN_SHARE = 0.35;

/**
 * The outer radius (percent of half the box's shorter side) that leaves room on both sides for the
 * widest label beside the pie; the configured one when it fits or the box is not known.
 */
export function pieRadiusFor(outer: number, labelWidth: number, box: ChartBox | undefined): number {
  if (!box || box.width <= 0 || box.height <= 0) return outer;
  const half = Math.min(box.width, box.height) / 2;
  const room = box.width / 2 - labelWidth - PIE_LABEL_LINE.length - PIE_LABEL_LINE.length2 - 8;
  const wanted = (outer / 100) * half;
  if (wanted <= room) return outer;
  return Math.round(Math.max(outer * PIE_MIN_SHARE, (Math.max(0, room) / half) * 100));
}

/** Slices named by one column and sized by another; null when there is no answer or no row. */
export function pieOption(
  chart: ChartModel,
  answer: DataViewAnswer | undefined,
  palette?: ChartColor[],
  box?: ChartBox,
): EChartsCoreOption | null {
  if (!answer?.list.length) return null;
  const o = chart.options;
  const columns = columnsOf(answer);
  const nameColumn = textOf(o.seriesDataName) ?? columns[0] ?? '';
  const valueColumn = textOf(o.seriesDataValue) ?? columns[1] ?? columns[0] ?? '';
  const innerSet = Math.min(100, Math.max(0, numberOf(o.radiusInside) ?? 0));
  const outerSet = Math.min(100, Math.max(innerSet, numberOf(o.radiusOutSide) ?? 70));
  const roseType = o.roseType === 'radius' || o.roseType === 'area' ? o.roseType : false;
  const labelSettings = recordOf(o.label);
  const unit = textOf(labelSettings.unit) ?? textOf(o.unit) ?? '';
  const fontSize = numberOf(labelSettings.fontSize) ?? numberOf(o.fontSize) ?? 12;
  const showLabel = flagOf(labelSettings.show, true);
  const data = answer.list.map((r) => ({ name: String(r[nameColumn] ?? ''), value: cellNumber(r[valueColumn]) }));
  // Labels sit beside the pie: in a narrow box the pie shrinks so that they are read whole, never cut to "H…".
  const labelWidth = showLabel
    ? Math.max(0, ...data.flatMap((d) => [textWidth(d.name, fontSize), textWidth(`${d.value ?? '-'}${unit}`, fontSize)]))
    : 0;
  const outer = pieRadiusFor(outerSet, labelWidth, box);
  const inner = outerSet > 0 ? Math.round((innerSet * outer) / outerSet) : innerSet;
  return {
    ...withPalette(palette),
    animationDurationUpdate: 500,
    title: titleOf(o.title),
    legend: legendOf(o.legend, false),
    tooltip: { trigger: 'item', formatter: `{b}: {c}${unit} ({d}%)` },
    series: [
      {
        type: 'pie',
        id: 'pie',
        name: valueColumn,
        radius: [`${inner}%`, `${outer}%`],
        center: ['50%', '55%'],
        roseType,
        data,
        // What still does not fit wraps onto another line rather than being cut short.
        label: { show: showLabel, color: SCREEN_TEXT, fontSize, formatter: `{b}\n{c}${unit}`, overflow: 'break' },
        labelLine: { show: showLabel, ...PIE_LABEL_LINE },
      },
    ],
  };
}

/** The radar's sample: placeholder figures shown when the chart names no data view. */
export const RADAR_SAMPLE: DataViewAnswer = {
  columns: ['name', 'value'],
  list: [
    { name: '收集', value: 82 },
    { name: '贮存', value: 68 },
    { name: '运输', value: 74 },
    { name: '利用', value: 56 },
    { name: '处置', value: 90 },
    { name: '监管', value: 63 },
  ],
};

export const RADAR_ANIMATION_MS = 3000;

/** One radar series over the rows (indicator name, value); the sample when there is no data view. */
export function radarOption(chart: ChartModel, answer: DataViewAnswer | undefined, palette?: ChartColor[]): EChartsCoreOption | null {
  const data = chart.dataViewId === undefined ? RADAR_SAMPLE : answer;
  if (!data?.list.length) return null;
  const o = chart.options;
  const columns = columnsOf(data);
  const nameColumn = textOf(o.seriesDataName) ?? columns[0] ?? '';
  const valueColumn = textOf(o.seriesDataValue) ?? columns[1] ?? columns[0] ?? '';
  const values = data.list.map((r) => cellNumber(r[valueColumn]) ?? 0);
  const top = Math.max(0, ...values);
  const max = top > 0 ? Math.ceil(top * 1.2) : 1;
  const title = titleOf(o.title);
  return {
    ...withPalette(palette),
    animationDuration: RADAR_ANIMATION_MS,
    animationDurationUpdate: 500,
    title,
    legend: legendOf(o.legend, false),
    tooltip: {},
    radar: {
      radius: '65%',
      center: ['50%', '55%'],
      indicator: data.list.map((r) => ({ name: String(r[nameColumn] ?? ''), max })),
      axisName: { color: SCREEN_TEXT },
      axisLine: { lineStyle: { color: AXIS_LINE } },
      splitLine: { lineStyle: { color: SPLIT_LINE } },
      splitArea: { show: false },
    },
    series: [
      {
        type: 'radar',
        id: 'radar',
        data: [{ name: title.text || valueColumn, value: values, areaStyle: { opacity: 0.3 } }],
      },
    ],
  };
}
