import type { EChartsCoreOption } from 'echarts/core';
import { useMemo, useRef } from 'react';
import type { ChartModel } from '../../../model/index.js';
import { type ChartColor, lineBarOption, pieOption, radarOption } from '../chart-options.js';
import type { DataViewAnswer } from '../data-source.js';
import { type ChartRenderer, useECharts } from '../use-echarts.js';

/** The chart kinds drawn by ECharts (line and bar, pie, radar). Loaded on demand with ECharts itself. */

const BUILDERS: Partial<Record<ChartModel['kind'], typeof lineBarOption>> = {
  lineBar: lineBarOption,
  pie: pieOption,
  radar: radarOption,
};

export interface EChartsChartProps {
  chart: ChartModel;
  answer: DataViewAnswer | undefined;
  palette: ChartColor[] | undefined;
  renderer: ChartRenderer;
  /** False draws every change at once, without ECharts' animations. */
  animate?: boolean;
  /** The version of the data drawn (the scheduler's). */
  dataVersion: number;
  /** Called with the data version once a frame with it has been rendered. */
  onPainted: (dataVersion: number) => void;
}

export default function EChartsChart({ chart, answer, palette, renderer, animate = true, dataVersion, onPainted }: EChartsChartProps) {
  const option = useMemo<EChartsCoreOption | null>(() => {
    const built = BUILDERS[chart.kind]?.(chart, answer, palette) ?? null;
    return built && !animate ? { ...built, animation: false } : built;
  }, [chart, answer, palette, animate]);
  // A new option object is a new version; the hook compares versions, never options.
  const last = useRef({ option: null as EChartsCoreOption | null, version: 0, dataVersion });
  if (last.current.option !== option) last.current = { option, version: last.current.version + 1, dataVersion };
  const el = useECharts(
    { option, version: last.current.version },
    { renderer, onPainted: (version) => version === last.current.version && onPainted(last.current.dataVersion) },
  );
  return <div ref={el} className="wg-screen-chart-canvas" />;
}
