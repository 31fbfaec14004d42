import type { EChartsCoreOption } from 'echarts/core';
import { useEffect, useRef } from 'react';
import { type EChartsType, init } from '../../engine/screen/echarts';

/**
 * One ECharts chart (through the engine's `echarts/core` loader): made when mounted, given new options
 * when `option` changes, resized with its box, disposed when unmounted. Loaded lazily with the blocks
 * that draw charts, so the dashboard's first paint does not wait for ECharts.
 */
export function EChart({ option, height = 240, label }: { option: EChartsCoreOption; height?: number; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const c = init(el);
    chart.current = c;
    const observer = new ResizeObserver(() => c.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return <div ref={box} role="img" aria-label={label} style={{ width: '100%', height }} />;
}
