import type { EChartsCoreOption } from 'echarts/core';
import { type RefObject, useContext, useEffect, useRef, useState } from 'react';
import { type EChartsType, init, svgRenderer } from './echarts.js';
import { SCREEN_MARKS, screenMark } from './marks.js';
import { pixelRatioFor, ScaleContext } from './scale.js';

/**
 * The one owner of a chart's ECharts instance:
 * - created once when the element mounts, disposed when it unmounts (React's strict-mode double mount
 *   creates, disposes and creates again: one instance stays);
 * - new data goes in with setOption when `version` changes, never by comparing options, with
 *   `lazyUpdate` and, when the set of series changed, `replaceMerge: ['series']` so that no removed
 *   series lingers;
 * - resized by a ResizeObserver, debounced 100 ms;
 * - canvas charts render at a pixel ratio of at least the canvas scale; when the scale changes by more
 *   than a quarter the instance is made again at the new ratio;
 * - `onPainted(version)` is called on the first frame rendered after that version's options went in.
 */

export type ChartRenderer = 'canvas' | 'svg';

export const RESIZE_DEBOUNCE_MS = 100;

let live = 0;

/** ECharts instances created and not yet disposed, in this page. */
export const liveEChartsInstances = (): number => live;

function seriesKeyOf(option: EChartsCoreOption): string {
  const series = option.series;
  const list = Array.isArray(series) ? series : series ? [series] : [];
  return list.map((s: { type?: string; id?: string | number; name?: string }) => `${s.type}:${s.id ?? s.name ?? ''}`).join('|');
}

export interface EChartsInput {
  /** What to draw; null draws nothing yet. */
  option: EChartsCoreOption | null;
  /** Changes whenever `option` does. */
  version: number;
}

export function useECharts(
  input: EChartsInput,
  { renderer = 'canvas', onPainted }: { renderer?: ChartRenderer; onPainted?: (version: number) => void } = {},
): RefObject<HTMLDivElement | null> {
  const el = useRef<HTMLDivElement | null>(null);
  const chart = useRef<EChartsType | null>(null);
  const latest = useRef({ input, onPainted });
  latest.current = { input, onPainted };
  const applied = useRef({ version: Number.NaN, seriesKey: '' });
  const pending = useRef<number | undefined>(undefined);
  const scale = useContext(ScaleContext);
  const [generation, setGeneration] = useState(0);
  const ratio = useRef(1);

  const apply = (instance: EChartsType) => {
    const { option, version } = latest.current.input;
    if (applied.current.version === version) return;
    if (!option) {
      // Nothing to draw any more (the rows are gone): no old picture stays behind.
      if (applied.current.seriesKey) instance.clear();
      applied.current = { version, seriesKey: '' };
      return;
    }
    const seriesKey = seriesKeyOf(option);
    const replace = seriesKey !== applied.current.seriesKey;
    instance.setOption(option, replace ? { lazyUpdate: true, replaceMerge: ['series'] } : { lazyUpdate: true });
    applied.current = { version, seriesKey };
    pending.current = version;
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: generation asks for a new instance (new pixel ratio); apply reads refs only
  useEffect(() => {
    const dom = el.current;
    if (!dom) return;
    let instance: EChartsType | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let observer: ResizeObserver | undefined;
    let unsubscribe = () => {};
    let cancelled = false;
    const create = () => {
      if (cancelled) return;
      ratio.current = pixelRatioFor(scale.get());
      const made = init(dom, undefined, { renderer, devicePixelRatio: ratio.current });
      instance = made;
      chart.current = made;
      live++;
      screenMark(SCREEN_MARKS.echartsLive, live);
      applied.current = { version: Number.NaN, seriesKey: '' };
      made.on('rendered', () => {
        const version = pending.current;
        if (version === undefined) return;
        pending.current = undefined;
        latest.current.onPainted?.(version);
      });
      apply(made);
      observer = new ResizeObserver(() => {
        clearTimeout(timer);
        timer = setTimeout(() => made.resize(), RESIZE_DEBOUNCE_MS);
      });
      observer.observe(dom);
      if (renderer === 'canvas') {
        unsubscribe = scale.subscribe(() => {
          const wanted = pixelRatioFor(scale.get());
          if (wanted / ratio.current > 1.25 || wanted / ratio.current < 0.8) setGeneration((g) => g + 1);
        });
      }
    };
    if (renderer === 'svg') svgRenderer().then(create, () => {});
    else create();
    return () => {
      cancelled = true;
      unsubscribe();
      observer?.disconnect();
      clearTimeout(timer);
      if (!instance) return;
      instance.dispose();
      chart.current = null;
      pending.current = undefined;
      live--;
      screenMark(SCREEN_MARKS.echartsLive, live);
    };
  }, [renderer, generation, scale]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the version stands for the option; apply reads refs only
  useEffect(() => {
    if (chart.current) apply(chart.current);
  }, [input.version]);

  return el;
}
