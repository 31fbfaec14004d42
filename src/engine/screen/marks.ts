/**
 * User Timing marks of the big-screen renderer, read by bench/big-screen.bench.ts: a data answer
 * taken in, a chart painted with it, and the count of live ECharts instances. Each mark clears the
 * previous one of its name, so a wall display running for days keeps no timeline.
 */
export const SCREEN_MARKS = {
  /** detail: { source, version }: a data source's changed answer reached the charts. */
  data: 'wastegen:screen-data',
  /** detail: { chart, source, version }: a chart has painted its source's data of that version. */
  painted: 'wastegen:screen-painted',
  /** detail: 'running', 'paused' (hidden: no fetch is set until it shows) or 'stopped': the scheduler's state. */
  fetching: 'wastegen:screen-fetching',
  /** detail: the number of live ECharts instances after one was created or disposed. */
  echartsLive: 'wastegen:screen-echarts-live',
} as const;

export function screenMark(name: string, detail: unknown): void {
  const p = globalThis.performance;
  if (typeof p?.mark !== 'function') return;
  p.clearMarks?.(name);
  p.mark(name, { detail });
}

/** Calls `done` once the frame after this call has been painted (a task posted from the next animation frame). */
export function afterNextPaint(done: () => void): () => void {
  let cancelled = false;
  const frame = requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      if (!cancelled) done();
    };
    channel.port2.postMessage(null);
  });
  return () => {
    cancelled = true;
    cancelAnimationFrame(frame);
  };
}
