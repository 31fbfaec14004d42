import type { ChartModel } from '../../model/index.js';
import type { ScreenDataSource } from './data-source.js';
import { SCREEN_MARKS, screenMark } from './marks.js';

/**
 * One scheduler per screen fetches every data source the charts need:
 * - one request per source (a data view, the city-info call), however many charts read it;
 * - the first fetches are staggered; the next fetch of a source is set only once its answer is in,
 *   so a source never has two requests at once;
 * - nothing runs while the page is hidden (the browser tab, or the screen itself when the caller's
 *   VisibilityWatch says so); what fell due meanwhile runs when it shows again;
 * - a failed fetch is retried later and later (doubling, capped), and a chart that already had data
 *   keeps it, marked stale;
 * - an answer equal to the previous one changes nothing: only the charts whose data changed update;
 * - stop() aborts what is in flight and clears every timer.
 */

export type SourceStatus = 'loading' | 'ready' | 'error';

export interface SourceState {
  status: SourceStatus;
  /** The last good answer; kept (stale) when a later fetch fails. */
  data?: unknown;
  /** The last failure's message. */
  error?: string;
  /** The data shown is older than the last attempt, which failed. */
  stale: boolean;
  /** Bumped each time the data changes; charts push new options only when it does. */
  version: number;
}

export interface SourceSpec {
  key: string;
  load(signal: AbortSignal): Promise<unknown>;
}

export interface VisibilityWatch {
  hidden(): boolean;
  /** Calls back on every change; returns the unsubscribe function. */
  watch(onChange: () => void): () => void;
}

export interface SchedulerOptions {
  /** Milliseconds between the end of one fetch and the next; null fetches once (failures are still retried). */
  refreshMs: number | null;
  /** Delay between the first fetches of successive sources. */
  staggerMs?: number;
  /** Retry delay base when there is no refresh period. */
  retryMs?: number;
  /** Longest retry delay (never shorter than the refresh period). */
  maxBackoffMs?: number;
  visibility?: VisibilityWatch;
}

export const LOADING: SourceState = Object.freeze({ status: 'loading', stale: false, version: 0 });

/** The page's visibility (the browser tab). */
export const documentVisibility: VisibilityWatch = {
  hidden: () => typeof document !== 'undefined' && document.visibilityState === 'hidden',
  watch: (onChange) => {
    if (typeof document === 'undefined') return () => {};
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  },
};

/** The source a chart reads: its data view, or the city-info call for the city-transaction chart; none for a sample. */
export function sourceKeyOf(chart: ChartModel): string | undefined {
  if (chart.kind === 'cityTransaction') return `city:${chart.dataViewId ?? ''}`;
  return chart.dataViewId === undefined ? undefined : `view:${chart.dataViewId}`;
}

/** The distinct sources of a screen's charts, in layout order, each loading through `source`. */
export function sourcesOf(charts: readonly ChartModel[], source: ScreenDataSource): SourceSpec[] {
  const specs = new Map<string, SourceSpec>();
  for (const chart of charts) {
    const key = sourceKeyOf(chart);
    if (!key || specs.has(key)) continue;
    const id = chart.dataViewId;
    specs.set(key, {
      key,
      load: chart.kind === 'cityTransaction' ? (signal) => source.cityInfo(id, signal) : (signal) => source.dataView(id as number, signal),
    });
  }
  return [...specs.values()];
}

interface Entry {
  spec: SourceSpec;
  /** When the next fetch is due (Date.now() time). */
  nextAt: number;
  timer?: ReturnType<typeof setTimeout>;
  controller?: AbortController;
  /** Consecutive failures. */
  errors: number;
  /** Fetched once without a refresh period: nothing more to do. */
  done: boolean;
  /** The last answer as JSON text, to tell a changed answer from the same one. */
  text?: string;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e)) || '数据加载失败';

export class ScreenScheduler {
  private readonly entries: Entry[];
  private readonly states = new Map<string, SourceState>();
  private readonly listeners = new Map<string, Set<() => void>>();
  private readonly options: Required<Omit<SchedulerOptions, 'refreshMs'>> & { refreshMs: number | null };
  private running = false;
  private hidden = false;
  private unwatch: (() => void) | undefined;

  constructor(specs: readonly SourceSpec[], options: SchedulerOptions) {
    this.entries = specs.map((spec) => ({ spec, nextAt: 0, errors: 0, done: false }));
    const refreshMs = options.refreshMs === null ? null : Math.max(1, options.refreshMs);
    this.options = {
      refreshMs,
      staggerMs: options.staggerMs ?? 100,
      retryMs: options.retryMs ?? 10_000,
      maxBackoffMs: Math.max(options.maxBackoffMs ?? 5 * 60_000, refreshMs ?? 0),
      visibility: options.visibility ?? documentVisibility,
    };
  }

  get keys(): string[] {
    return this.entries.map((e) => e.spec.key);
  }

  get(key: string): SourceState {
    return this.states.get(key) ?? LOADING;
  }

  subscribe(key: string, listener: () => void): () => void {
    const set = this.listeners.get(key) ?? new Set<() => void>();
    this.listeners.set(key, set);
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  /**
   * Takes over, before start(), the good answers `previous` already holds for sources this
   * scheduler shares with it: their charts keep their data and version instead of loading again.
   * Each refreshes on this scheduler's period: from where `previous` left it, or one period from now
   * when `previous` had none.
   */
  adopt(previous: ScreenScheduler): void {
    const before = new Map(previous.entries.map((e) => [e.spec.key, e]));
    for (const e of this.entries) {
      const key = e.spec.key;
      const old = before.get(key);
      const state = previous.states.get(key);
      if (!old || !state || state.status !== 'ready' || state.stale) continue;
      this.states.set(key, state);
      e.text = old.text;
      const { refreshMs } = this.options;
      e.done = refreshMs === null;
      e.nextAt = refreshMs !== null && (old.done || previous.options.refreshMs !== refreshMs) ? Date.now() + refreshMs : old.nextAt;
    }
  }

  /** Starts (or restarts after stop()) fetching: sources not yet fetched, or due, run staggered. */
  start(): void {
    if (this.running) return;
    this.running = true;
    const { visibility } = this.options;
    this.hidden = visibility.hidden();
    this.unwatch = visibility.watch(() => this.visibilityChanged());
    screenMark(SCREEN_MARKS.fetching, this.hidden ? 'paused' : 'running');
    this.resume();
  }

  stop(): void {
    this.running = false;
    this.unwatch?.();
    this.unwatch = undefined;
    for (const e of this.entries) {
      clearTimeout(e.timer);
      e.timer = undefined;
      e.controller?.abort();
      e.controller = undefined;
    }
    screenMark(SCREEN_MARKS.fetching, 'stopped');
  }

  private visibilityChanged(): void {
    const hidden = this.options.visibility.hidden();
    if (hidden === this.hidden) return;
    this.hidden = hidden;
    screenMark(SCREEN_MARKS.fetching, hidden ? 'paused' : 'running');
    if (hidden) {
      // In-flight requests finish; the next fetches wait until the page shows again.
      for (const e of this.entries) {
        clearTimeout(e.timer);
        e.timer = undefined;
      }
    } else {
      this.resume();
    }
  }

  /** Schedules every source that is not fetching, not finished, and not already scheduled; overdue ones staggered. */
  private resume(): void {
    if (!this.running || this.hidden) return;
    const now = Date.now();
    let overdue = 0;
    for (const e of this.entries) {
      if (e.done || e.controller || e.timer) continue;
      if (e.nextAt <= now) e.nextAt = now + overdue++ * this.options.staggerMs;
      this.schedule(e);
    }
  }

  private schedule(e: Entry): void {
    clearTimeout(e.timer);
    e.timer = undefined;
    if (!this.running || this.hidden) return;
    e.timer = setTimeout(() => void this.run(e), Math.max(0, e.nextAt - Date.now()));
  }

  private async run(e: Entry): Promise<void> {
    e.timer = undefined;
    if (!this.running || this.hidden) return;
    const controller = new AbortController();
    e.controller = controller;
    let answer: unknown;
    let failure: unknown;
    let failed = false;
    try {
      answer = await e.spec.load(controller.signal);
    } catch (err) {
      failed = true;
      failure = err;
    }
    if (e.controller !== controller) return;
    e.controller = undefined;
    if (controller.signal.aborted) return;
    const { refreshMs } = this.options;
    if (failed) {
      e.errors++;
      this.fail(e, messageOf(failure));
      const base = refreshMs ?? this.options.retryMs;
      e.nextAt = Date.now() + Math.min(base * 2 ** e.errors, this.options.maxBackoffMs);
      this.schedule(e);
      return;
    }
    e.errors = 0;
    this.take(e, answer);
    if (refreshMs === null) {
      e.done = true;
      return;
    }
    e.nextAt = Date.now() + refreshMs;
    this.schedule(e);
  }

  private take(e: Entry, data: unknown): void {
    const key = e.spec.key;
    const prev = this.get(key);
    const text = JSON.stringify(data) ?? 'null';
    if (text === e.text && prev.status === 'ready') {
      if (prev.stale) this.set(key, { ...prev, stale: false, error: undefined });
      return;
    }
    e.text = text;
    const version = prev.version + 1;
    this.set(key, { status: 'ready', data, stale: false, version });
    screenMark(SCREEN_MARKS.data, { source: key, version });
  }

  private fail(e: Entry, message: string): void {
    const key = e.spec.key;
    const prev = this.get(key);
    if (prev.data !== undefined) this.set(key, { ...prev, status: 'ready', stale: true, error: message });
    else this.set(key, { status: 'error', error: message, stale: false, version: prev.version });
  }

  private set(key: string, state: SourceState): void {
    this.states.set(key, state);
    for (const listener of [...(this.listeners.get(key) ?? [])]) listener();
  }
}
