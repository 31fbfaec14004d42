import type { EChartsCoreOption } from 'echarts/core';
import { useEffect, useRef } from 'react';
import { type EChartsType, loadECharts } from '../../engine';

/**
 * One ECharts chart (through the engine's `loadECharts`, its own chunk): made once ECharts has loaded,
 * given new options when `option` changes, resized with its box, disposed when unmounted. The dashboard's
 * first paint never waits for ECharts.
 */
export function EChart({ option, height = 240, label }: { option: EChartsCoreOption; height?: number; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const latest = useRef(option);
  latest.current = option;

  useEffect(() => {
    let gone = false;
    let observer: ResizeObserver | undefined;
    void loadECharts().then(({ init }) => {
      const el = box.current;
      if (gone || !el) return;
      const c = init(el);
      chart.current = c;
      c.setOption(latest.current, { notMerge: true });
      observer = new ResizeObserver(() => c.resize());
      observer.observe(el);
    });
    return () => {
      gone = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return <div ref={box} role="img" aria-label={label} style={{ width: '100%', height }} />;
}
