import type { EChartsCoreOption } from 'echarts/core';
import type { ChartModel, ThemeColor } from '../../model/index.js';
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

/** Line and bar series over one category axis; null when there is no answer or no row. */
export function lineBarOption(chart: ChartModel, answer: DataViewAnswer | undefined, palette?: ChartColor[]): EChartsCoreOption | null {
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
  const series = [
    ...bars.map((name) => ({
      type: 'bar',
      id: `bar:${name}`,
      name,
      data: rows.map((r) => cellNumber(r[name])),
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
      data: rows.map((r) => cellNumber(r[name])),
      symbol: textOf(line.symbol) ?? 'emptyCircle',
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
    grid: gridMarginsOf(o.grid),
    xAxis: axisOf(
      o.xAxis,
      'category',
      rows.map((r) => String(r[xColumn] ?? '')),
    ),
    yAxis: axisOf(o.yAxis, 'value'),
    series,
  };
}

/** Slices named by one column and sized by another; null when there is no answer or no row. */
export function pieOption(chart: ChartModel, answer: DataViewAnswer | undefined, palette?: ChartColor[]): EChartsCoreOption | null {
  if (!answer?.list.length) return null;
  const o = chart.options;
  const columns = columnsOf(answer);
  const nameColumn = textOf(o.seriesDataName) ?? columns[0] ?? '';
  const valueColumn = textOf(o.seriesDataValue) ?? columns[1] ?? columns[0] ?? '';
  const inner = Math.min(100, Math.max(0, numberOf(o.radiusInside) ?? 0));
  const outer = Math.min(100, Math.max(inner, numberOf(o.radiusOutSide) ?? 70));
  const roseType = o.roseType === 'radius' || o.roseType === 'area' ? o.roseType : false;
  const labelSettings = recordOf(o.label);
  const unit = textOf(labelSettings.unit) ?? textOf(o.unit) ?? '';
  const fontSize = numberOf(labelSettings.fontSize) ?? numberOf(o.fontSize) ?? 12;
  const showLabel = flagOf(labelSettings.show, true);
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
        data: answer.list.map((r) => ({ name: String(r[nameColumn] ?? ''), value: cellNumber(r[valueColumn]) })),
        label: { show: showLabel, color: SCREEN_TEXT, fontSize, formatter: `{b}\n{c}${unit}` },
        labelLine: { show: showLabel },
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
