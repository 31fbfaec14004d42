import { describe, expect, it } from 'vitest';
import type { ChartModel } from '../../model/index.js';
import {
  cellNumber,
  lineBarOption,
  lineSymbolOf,
  namesOf,
  paletteOf,
  pieOption,
  pieRadiusFor,
  RADAR_ANIMATION_MS,
  RADAR_SAMPLE,
  radarOption,
  textWidth,
} from './chart-options.js';

const chart = (
  kind: ChartModel['kind'],
  options: Record<string, unknown> = {},
  common: Record<string, unknown> = {},
  dataViewId = 1,
): ChartModel => ({
  kind,
  chartIndex: 0,
  flexSize: 1,
  dataViewId,
  common,
  options,
});

const MONTHS = {
  columns: ['月份', '处置量', '订单数'],
  list: [
    { 月份: '2026-09', 处置量: '12.500', 订单数: '3' },
    { 月份: '2026-10', 处置量: 20, 订单数: 5 },
    { 月份: '2026-11', 处置量: null, 订单数: 'x' },
  ],
};

type Series = { type: string; id: string; name: string; data: unknown[]; [k: string]: unknown };

describe('theme colours', () => {
  const screen = [{ start: '#111111', end: '#222222' }];
  it('keeps ECharts’ own colours when nothing is set', () => {
    expect(paletteOf(chart('pie'), [])).toBeUndefined();
  });
  it('uses the screen’s colours, solid or as a gradient from start to end', () => {
    expect(paletteOf(chart('pie'), screen)).toEqual(['#111111']);
    const gradients = paletteOf(chart('pie', {}, { colorModel: 'gradient' }), screen);
    expect(gradients).toHaveLength(1);
    // Top to bottom, from the start colour to the end colour.
    expect(gradients?.[0]).toMatchObject({ type: 'linear', x: 0, y: 0, x2: 0, y2: 1 });
    expect(gradients?.[0]).toHaveProperty('colorStops', [
      { offset: 0, color: '#111111' },
      { offset: 1, color: '#222222' },
    ]);
  });
  it('puts the chart’s own colours first only with privateColorFirst', () => {
    const own = { themeColor: [{ start: '#abcdef', end: '#abcdef' }] };
    expect(paletteOf(chart('pie', {}, own), screen)).toEqual(['#111111']);
    expect(paletteOf(chart('pie', {}, { ...own, privateColorFirst: true }), screen)).toEqual(['#abcdef']);
    expect(paletteOf(chart('pie', {}, own), [])).toEqual(['#abcdef']);
  });
});

describe('line and bar', () => {
  it('draws the bar and line columns over the x column, numbers read leniently, gaps for the rest', () => {
    const option = lineBarOption(chart('lineBar', { xAxisData: '月份', yAxisData_bar: '处置量', yAxisData_line: '订单数' }), MONTHS) as {
      xAxis: { data: string[] };
      series: Series[];
      legend: { show: boolean };
    };
    expect(option.xAxis.data).toEqual(['2026-09', '2026-10', '2026-11']);
    expect(option.series.map((s) => [s.type, s.name, s.data])).toEqual([
      ['bar', '处置量', [12.5, 20, null]],
      ['line', '订单数', [3, 5, null]],
    ]);
    expect(option.legend.show).toBe(true);
  });

  it('shows every x label when they fit: side by side, else turned, else as ECharts thins them', () => {
    const eleven = {
      columns: ['公司', '数量'],
      list: Array.from({ length: 11 }, (_, i) => ({ 公司: `第${i + 1}家处置公司`, 数量: i })),
    };
    type Axis = { xAxis: { axisLabel: { interval?: number; rotate?: number } }; grid: { bottom: number } };
    const wide = lineBarOption(chart('lineBar'), eleven, undefined, { width: 1600, height: 300 }) as Axis;
    expect(wide.xAxis.axisLabel).toMatchObject({ interval: 0 });
    expect(wide.xAxis.axisLabel.rotate).toBeUndefined();
    const narrow = lineBarOption(chart('lineBar'), eleven, undefined, { width: 500, height: 300 }) as Axis;
    expect(narrow.xAxis.axisLabel).toMatchObject({ interval: 0, rotate: 45 });
    expect(narrow.grid.bottom).toBeGreaterThan(60);
    const tiny = lineBarOption(chart('lineBar'), eleven, undefined, { width: 200, height: 300 }) as Axis;
    expect(tiny.xAxis.axisLabel.interval).toBeUndefined();
    // Without the box's size, a dozen labels or fewer are all shown.
    expect((lineBarOption(chart('lineBar'), eleven) as Axis).xAxis.axisLabel.interval).toBe(0);
  });

  it('takes every other column as bars when none is named', () => {
    const option = lineBarOption(chart('lineBar'), MONTHS) as { series: Series[] };
    expect(option.series.map((s) => s.id)).toEqual(['bar:处置量', 'bar:订单数']);
  });

  it('applies the axis, line, bar, label, legend, grid and title settings', () => {
    const option = lineBarOption(
      chart('lineBar', {
        xAxisData: '月份',
        yAxisData_bar: '处置量',
        yAxisData_line: '订单数',
        xAxis: { name: '月', axisLabel: false, axisLine: true, splitLine: true },
        yAxis: { name: '吨', min: '0', max: 100, splitLine: false },
        line: { symbol: 'circle', symbolSize: 8, step: true, area: true, smooth: true },
        bar: { showBackground: true, radius: 4, barWidth: 18 },
        label: { show: true },
        legend: { show: true, position: 'bottom', legendData: '处置量，订单数', size: 14 },
        grid: { top: 10, right: 11, bottom: 12, left: 13 },
        title: { show: true, text: '趋势', position: 'center', color: '#f00', size: 20 },
      }),
      MONTHS,
    ) as Record<string, any>;
    expect(option.xAxis).toMatchObject({ name: '月', axisLabel: { show: false }, axisLine: { show: true }, splitLine: { show: true } });
    // 处置量 (up to 20) and 订单数 (up to 5): the line reads on its own axis.
    expect(option.yAxis[0]).toMatchObject({ name: '吨', min: 0, max: 100, splitLine: { show: false } });
    const [bar, line] = option.series as Series[];
    expect(bar).toMatchObject({ showBackground: true, barWidth: 18, itemStyle: { borderRadius: [4, 4, 0, 0] }, label: { show: true } });
    expect(line).toMatchObject({ symbol: 'circle', symbolSize: 8, step: 'middle', smooth: true, areaStyle: { opacity: 0.25 } });
    expect(option.legend).toMatchObject({ show: true, bottom: 0, data: ['处置量', '订单数'], textStyle: { fontSize: 14 } });
    expect(option.grid).toEqual({ top: 10, right: 11, bottom: 12, left: 13 });
    expect(option.title).toMatchObject({ show: true, text: '趋势', left: 'center', textStyle: { color: '#f00', fontSize: 20 } });
  });

  it('gives lines of another scale than the bars an axis of their own on the right, so they are not flat at 0', () => {
    const big = {
      columns: ['月份', '金额', '订单数'],
      list: [
        { 月份: '1月', 金额: 12000, 订单数: 3 },
        { 月份: '2月', 金额: 15000, 订单数: 5 },
      ],
    };
    const option = lineBarOption(chart('lineBar', { xAxisData: '月份', yAxisData_bar: '金额', yAxisData_line: '订单数' }), big) as Record<
      string,
      any
    >;
    expect(option.yAxis).toHaveLength(2);
    expect(option.yAxis[0]).toMatchObject({ type: 'value', name: '金额' });
    expect(option.yAxis[1]).toMatchObject({ type: 'value', name: '订单数', position: 'right', splitLine: { show: false } });
    const [bar, line] = option.series as Series[];
    expect(bar?.yAxisIndex).toBeUndefined();
    expect(line?.yAxisIndex).toBe(1);
    // Of one scale, they share the axis.
    const near = { columns: big.columns, list: big.list.map((r) => ({ ...r, 订单数: r.金额 / 2 })) };
    const one = lineBarOption(chart('lineBar', { xAxisData: '月份', yAxisData_bar: '金额', yAxisData_line: '订单数' }), near) as Record<
      string,
      any
    >;
    expect(Array.isArray(one.yAxis)).toBe(false);
    expect((one.series as Series[])[1]?.yAxisIndex).toBeUndefined();
  });

  it('draws nothing without rows', () => {
    expect(lineBarOption(chart('lineBar'), undefined)).toBeNull();
    expect(lineBarOption(chart('lineBar'), { columns: ['a'], list: [] })).toBeNull();
  });
});

describe('pie', () => {
  const rows = {
    columns: ['name', 'value'],
    list: [
      { name: 'HW08', value: '3.5' },
      { name: 'HW12', value: 2 },
    ],
  };
  it('names slices by one column and sizes them by another, with the radius, rose type and unit', () => {
    const option = pieOption(
      chart('pie', {
        seriesDataName: 'name',
        seriesDataValue: 'value',
        radiusInside: 30,
        radiusOutSide: 70,
        roseType: 'area',
        label: { unit: '吨' },
      }),
      rows,
    ) as Record<string, any>;
    const [s] = option.series as Record<string, any>[];
    expect(s?.data).toEqual([
      { name: 'HW08', value: 3.5 },
      { name: 'HW12', value: 2 },
    ]);
    expect(s?.radius).toEqual(['30%', '70%']);
    expect(s?.roseType).toBe('area');
    expect(s?.label).toMatchObject({ show: true, fontSize: 12, formatter: '{b}\n{c}吨' });
  });
  it('defaults to a full pie of 70% and never lets the inner radius pass the outer', () => {
    const [s] = (pieOption(chart('pie'), rows) as { series: Record<string, any>[] }).series;
    expect(s?.radius).toEqual(['0%', '70%']);
    expect(s?.roseType).toBe(false);
    const [t] = (pieOption(chart('pie', { radiusInside: 90, radiusOutSide: 40 }), rows) as { series: Record<string, any>[] }).series;
    expect(t?.radius).toEqual(['90%', '90%']);
  });
});

describe('pie labels', () => {
  const names = {
    columns: ['name', 'value'],
    list: [
      { name: 'Hazardous waste', value: 120 },
      { name: '医疗废物', value: 80 },
    ],
  };
  it('shrinks the pie in a narrow box so that the widest label fits beside it, and wraps rather than cuts', () => {
    expect(textWidth('Hazardous waste', 12)).toBe(108);
    const narrow = (pieOption(chart('pie'), names, undefined, { width: 360, height: 360 }) as { series: Record<string, any>[] }).series[0];
    // Half the width, 180, less the label (108) and its line (10 + 8 + 8): 46 px of a half side of 180.
    expect(narrow?.radius).toEqual(['0%', '26%']);
    expect(narrow?.label).toMatchObject({ overflow: 'break' });
    const wide = (
      pieOption(chart('pie', { radiusInside: 35 }), names, undefined, { width: 900, height: 360 }) as { series: Record<string, any>[] }
    ).series[0];
    expect(wide?.radius).toEqual(['35%', '70%']);
    // The inner radius keeps its share of the outer one.
    const ring = (
      pieOption(chart('pie', { radiusInside: 35 }), names, undefined, { width: 500, height: 500 }) as {
        series: Record<string, any>[];
      }
    ).series[0];
    expect(pieRadiusFor(70, 108, { width: 500, height: 500 })).toBe(46);
    expect(ring?.radius).toEqual(['23%', '46%']);
    // Without labels there is nothing to make room for.
    const bare = (
      pieOption(chart('pie', { label: { show: false } }), names, undefined, { width: 360, height: 360 }) as {
        series: Record<string, any>[];
      }
    ).series[0];
    expect(bare?.radius).toEqual(['0%', '70%']);
  });
});

describe('radar', () => {
  it('draws the sample with a 3000 ms animation when it names no data view', () => {
    const option = radarOption({ ...chart('radar'), dataViewId: undefined }, undefined) as Record<string, any>;
    expect(option.animationDuration).toBe(RADAR_ANIMATION_MS);
    expect(option.radar.indicator.map((i: { name: string }) => i.name)).toEqual(RADAR_SAMPLE.list.map((r) => r.name));
  });
  it('draws a data view’s rows as indicators', () => {
    const option = radarOption(chart('radar', { seriesDataName: 'n', seriesDataValue: 'v' }), {
      columns: ['n', 'v'],
      list: [
        { n: 'a', v: 10 },
        { n: 'b', v: '20' },
        { n: 'c', v: 5 },
      ],
    }) as Record<string, any>;
    expect(option.radar.indicator).toEqual([
      { name: 'a', max: 24 },
      { name: 'b', max: 24 },
      { name: 'c', max: 24 },
    ]);
    expect(option.series[0].data[0].value).toEqual([10, 20, 5]);
  });
});

describe('reading cells and names', () => {
  it('reads numbers leniently', () => {
    expect([cellNumber('1.5'), cellNumber(2), cellNumber(''), cellNumber('abc'), cellNumber(null), cellNumber(Number.NaN)]).toEqual([
      1.5,
      2,
      null,
      null,
      null,
      null,
    ]);
  });
  it('splits comma-separated names, full-width commas too', () => {
    expect(namesOf(' a, b，c ,,')).toEqual(['a', 'b', 'c']);
    expect(namesOf(['x', ' y '])).toEqual(['x', 'y']);
    expect(namesOf(undefined)).toEqual([]);
  });
});

describe('line symbols', () => {
  it('draws an image symbol only from an address the app may draw', () => {
    expect(lineSymbolOf(undefined)).toBe('emptyCircle');
    expect(lineSymbolOf('diamond')).toBe('diamond');
    expect(lineSymbolOf('image:///api/file/preview?source=dot.png')).toBe('image:///api/file/preview?source=dot.png');
    expect(lineSymbolOf('image://https://cdn.example.com/dot.png')).toBe('image://https://cdn.example.com/dot.png');
    for (const bad of ['image://http://evil.example/dot.png', 'image://data:image/png;base64,AA', 'image:////evil.example/dot.png'])
      expect(lineSymbolOf(bad), bad).toBe('emptyCircle');
  });
});
