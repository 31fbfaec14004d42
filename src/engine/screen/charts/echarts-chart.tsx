import type { EChartsCoreOption } from 'echarts/core';
import { useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { ChartModel } from '../../../model/index.js';
import { ChartMotionContext } from '../chart-motion.js';
import { type ChartBox, type ChartColor, lineBarOption, pieOption, radarOption } from '../chart-options.js';
import type { DataViewAnswer } from '../data-source.js';
import { type ChartRenderer, useECharts } from '../use-echarts.js';

/** The chart kinds drawn by ECharts (line and bar, pie, radar). Loaded on demand with ECharts itself. */

const BUILDERS: Partial<Record<ChartModel['kind'], typeof pieOption>> = {
  lineBar: lineBarOption,
  pie: pieOption,
  radar: radarOption,
};

export interface EChartsChartProps {
  chart: ChartModel;
  answer: DataViewAnswer | undefined;
  palette: ChartColor[] | undefined;
  renderer: ChartRenderer;
  /** The version of the data drawn (the scheduler's). */
  dataVersion: number;
  /** Called with the data version once a frame with it has been rendered. */
  onPainted: (dataVersion: number) => void;
}

export default function EChartsChart({ chart, answer, palette, renderer, dataVersion, onPainted }: EChartsChartProps) {
  // Without motion (the designer's canvas), every change is drawn at once.
  const animate = useContext(ChartMotionContext);
  // The pie fits its labels to its box; the other kinds do not depend on its size.
  const sized = chart.kind === 'pie';
  const [box, setBox] = useState<ChartBox | undefined>(undefined);
  const shownBox = sized ? box : undefined;
  // An option equal to the one drawn is that one: a box that changed by a pixel redraws nothing.
  const drawn = useRef<{ text: string; option: EChartsCoreOption | null }>({ text: 'null', option: null });
  const option = useMemo<EChartsCoreOption | null>(() => {
    const built = BUILDERS[chart.kind]?.(chart, answer, palette, shownBox) ?? null;
    const next = built && !animate ? { ...built, animation: false } : built;
    if (!sized) return next;
    const text = JSON.stringify(next);
    if (text !== drawn.current.text) drawn.current = { text, option: next };
    return drawn.current.option;
  }, [chart, answer, palette, animate, shownBox, sized]);
  // A new option object is a new version; the hook compares versions, never options.
  const last = useRef({ option: null as EChartsCoreOption | null, version: 0, dataVersion });
  if (last.current.option !== option) last.current = { option, version: last.current.version + 1, dataVersion };
  const el = useECharts(
    { option, version: last.current.version },
    { renderer, onPainted: (version) => version === last.current.version && onPainted(last.current.dataVersion) },
  );
  // The box in layout pixels (a scaled canvas's transform does not change them).
  useEffect(() => {
    const dom = el.current;
    if (!sized || !dom) return;
    const read = () =>
      setBox((b) => {
        // In steps of 8 px: a scale's rounding does not make a new box.
        const width = Math.round(dom.clientWidth / 8) * 8;
        const height = Math.round(dom.clientHeight / 8) * 8;
        return b && b.width === width && b.height === height ? b : { width, height };
      });
    read();
    const observer = new ResizeObserver(read);
    observer.observe(dom);
    return () => observer.disconnect();
  }, [sized, el]);
  return <div ref={el} className="wg-screen-chart-canvas" />;
}
