import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ScreenScheduler, type SourceSpec, type sourceKeyOf, sourcesOf, type VisibilityWatch } from './scheduler.js';

/** A source whose answers the test hands out one request at a time. */
function controlled(key: string) {
  const calls: { signal: AbortSignal; resolve: (v: unknown) => void; reject: (e: unknown) => void; at: number }[] = [];
  const spec: SourceSpec = {
    key,
    load: (signal) =>
      new Promise((resolve, reject) => {
        calls.push({ signal, resolve, reject, at: Date.now() });
      }),
  };
  return { spec, calls };
}

/** The source's next request goes out exactly `ms` from now: none a millisecond before. */
async function expectNextCallIn(source: ReturnType<typeof controlled>, ms: number) {
  const made = source.calls.length;
  await vi.advanceTimersByTimeAsync(ms - 1);
  expect(source.calls.length).toBe(made);
  await vi.advanceTimersByTimeAsync(1);
  expect(source.calls.length).toBe(made + 1);
}

/** A scheduler without a refresh period whose one source has answered this. */
async function answeredScheduler(source: ReturnType<typeof controlled>, answer: unknown) {
  const s = new ScreenScheduler([source.spec], { refreshMs: null, staggerMs: 0, visibility: visibility().watch });
  s.start();
  await vi.advanceTimersByTimeAsync(0);
  source.calls[0]?.resolve(answer);
  await vi.advanceTimersByTimeAsync(0);
  return s;
}

function visibility() {
  let hidden = false;
  const listeners = new Set<() => void>();
  const watch: VisibilityWatch = {
    hidden: () => hidden,
    watch: (fn) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
  return {
    watch,
    set(h: boolean) {
      hidden = h;
      for (const fn of listeners) fn();
    },
    get listening() {
      return listeners.size;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-03-01T08:00:00'));
});
afterEach(() => {
  vi.useRealTimers();
});

describe('sources of a screen', () => {
  const chart = (kind: string, dataViewId?: number) =>
    ({ kind, chartIndex: 0, flexSize: 1, dataViewId, common: {}, options: {} }) as Parameters<typeof sourceKeyOf>[0];

  it('one source per data view however many charts read it; the city chart reads the city-info call; a sample reads none', async () => {
    const calls: string[] = [];
    const source = {
      dataView: async (id: number) => {
        calls.push(`view ${id}`);
        return { columns: [], list: [] };
      },
      cityInfo: async (id: number | undefined) => {
        calls.push(`city ${id}`);
        return [];
      },
    };
    const specs = sourcesOf(
      [chart('lineBar', 7), chart('pie', 7), chart('cityTransaction', 4), chart('radar'), chart('siteInfo', 9)],
      source,
    );
    expect(specs.map((s) => s.key)).toEqual(['view:7', 'city:4', 'view:9']);
    for (const s of specs) await s.load(new AbortController().signal);
    expect(calls).toEqual(['view 7', 'city 4', 'view 9']);
  });
});

describe('ScreenScheduler', () => {
  it('staggers the first fetches, sets the next fetch only after the answer, and never overlaps a source', async () => {
    const a = controlled('view:1');
    const b = controlled('view:2');
    const s = new ScreenScheduler([a.spec, b.spec], { refreshMs: 1000, staggerMs: 100, visibility: visibility().watch });
    s.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(a.calls.length).toBe(1);
    expect(b.calls.length).toBe(0);
    await vi.advanceTimersByTimeAsync(100);
    expect(b.calls.length).toBe(1);
    // The answer is slow: no second request in the meantime, however long it takes.
    await vi.advanceTimersByTimeAsync(5000);
    expect(a.calls.length).toBe(1);
    const answeredAt = Date.now();
    a.calls[0]?.resolve({ columns: ['x'], list: [{ x: 1 }] });
    await expectNextCallIn(a, 1000);
    expect(a.calls[1]?.at).toBe(answeredAt + 1000);
    s.stop();
  });

  it('bumps the version only when the answer changed, and notifies only that source', async () => {
    const a = controlled('view:1');
    const b = controlled('view:2');
    const s = new ScreenScheduler([a.spec, b.spec], { refreshMs: 1000, staggerMs: 0, visibility: visibility().watch });
    const heardA = vi.fn();
    const heardB = vi.fn();
    s.subscribe('view:1', heardA);
    s.subscribe('view:2', heardB);
    s.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(s.get('view:1')).toMatchObject({ status: 'loading', version: 0 });
    a.calls[0]?.resolve({ list: [{ x: 1 }] });
    await vi.advanceTimersByTimeAsync(0);
    expect(s.get('view:1')).toMatchObject({ status: 'ready', version: 1, data: { list: [{ x: 1 }] } });
    expect(heardA).toHaveBeenCalledTimes(1);
    expect(heardB).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    a.calls[1]?.resolve({ list: [{ x: 1 }] });
    await vi.advanceTimersByTimeAsync(0);
    const same = s.get('view:1');
    expect(same.version).toBe(1);
    expect(heardA).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    a.calls[2]?.resolve({ list: [{ x: 2 }] });
    await vi.advanceTimersByTimeAsync(0);
    expect(s.get('view:1')).toMatchObject({ version: 2, data: { list: [{ x: 2 }] } });
    expect(heardA).toHaveBeenCalledTimes(2);
    expect(heardB).not.toHaveBeenCalled();
    s.stop();
  });

  it('fetches once without a refresh period', async () => {
    const a = controlled('view:1');
    const s = new ScreenScheduler([a.spec], { refreshMs: null, visibility: visibility().watch });
    s.start();
    await vi.advanceTimersByTimeAsync(0);
    a.calls[0]?.resolve({ list: [] });
    await vi.advanceTimersByTimeAsync(600_000);
    expect(a.calls.length).toBe(1);
    s.stop();
  });

  it('backs off after errors, keeps the last data marked stale, and clears the mark on the next good answer', async () => {
    const a = controlled('view:1');
    const s = new ScreenScheduler([a.spec], { refreshMs: 1000, staggerMs: 0, visibility: visibility().watch });
    s.start();
    await vi.advanceTimersByTimeAsync(0);
    a.calls[0]?.reject(new Error('数据视图执行失败'));
    await vi.advanceTimersByTimeAsync(0);
    expect(s.get('view:1')).toMatchObject({ status: 'error', error: '数据视图执行失败', stale: false });
    // First retry after 2 s, the next after 4 s more.
    await expectNextCallIn(a, 2000);
    a.calls[1]?.resolve({ list: [{ n: 1 }] });
    await vi.advanceTimersByTimeAsync(1000);
    expect(s.get('view:1')).toMatchObject({ status: 'ready', version: 1, stale: false });
    a.calls[2]?.reject(new Error('网络请求超时'));
    await vi.advanceTimersByTimeAsync(0);
    expect(s.get('view:1')).toMatchObject({ status: 'ready', version: 1, stale: true, error: '网络请求超时', data: { list: [{ n: 1 }] } });
    await expectNextCallIn(a, 2000);
    a.calls[3]?.reject(new Error('网络请求超时'));
    await expectNextCallIn(a, 4000);
    a.calls[4]?.resolve({ list: [{ n: 1 }] });
    await vi.advanceTimersByTimeAsync(0);
    expect(s.get('view:1')).toMatchObject({ status: 'ready', version: 1, stale: false });
    // Back to the normal period.
    await expectNextCallIn(a, 1000);
    s.stop();
  });

  it('pauses while the page is hidden and catches up when it shows', async () => {
    const a = controlled('view:1');
    const vis = visibility();
    const s = new ScreenScheduler([a.spec], { refreshMs: 1000, staggerMs: 0, visibility: vis.watch });
    s.start();
    await vi.advanceTimersByTimeAsync(0);
    a.calls[0]?.resolve({ list: [] });
    await vi.advanceTimersByTimeAsync(0);
    vis.set(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(a.calls.length).toBe(1);
    vis.set(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(a.calls.length).toBe(2);
    s.stop();
  });

  it('stop() aborts the request in flight, clears its timers and stops listening; start() resumes', async () => {
    const a = controlled('view:1');
    const b = controlled('view:2');
    const vis = visibility();
    const s = new ScreenScheduler([a.spec, b.spec], { refreshMs: 1000, staggerMs: 100, visibility: vis.watch });
    s.start();
    expect(vis.listening).toBe(1);
    await vi.advanceTimersByTimeAsync(0);
    s.stop();
    expect(a.calls[0]?.signal.aborted).toBe(true);
    expect(vis.listening).toBe(0);
    a.calls[0]?.resolve({ list: [{ late: true }] });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(b.calls.length).toBe(0);
    expect(s.get('view:1').status).toBe('loading');
    // Restarted (a remount): both fetched again, staggered.
    s.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(a.calls.length).toBe(2);
    await vi.advanceTimersByTimeAsync(100);
    expect(b.calls.length).toBe(1);
    s.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('adopt() takes over the answers of the sources it shares with an earlier scheduler; a new source still loads', async () => {
    const a = controlled('view:1');
    const b = controlled('view:2');
    const first = await answeredScheduler(a, { list: [{ x: 1 }] });
    first.stop();
    const kept = first.get('view:1');
    const next = new ScreenScheduler([b.spec, a.spec], { refreshMs: null, staggerMs: 0, visibility: visibility().watch });
    next.adopt(first);
    expect(next.get('view:1')).toBe(kept);
    expect(next.get('view:2')).toMatchObject({ status: 'loading' });
    next.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(a.calls.length).toBe(1);
    expect(b.calls.length).toBe(1);
    next.stop();
  });

  it('adopt() into a scheduler with a refresh period fetches the adopted sources again one period later', async () => {
    const a = controlled('view:1');
    const once = await answeredScheduler(a, { list: [{ x: 1 }] });
    const timed = new ScreenScheduler([a.spec], { refreshMs: 5000, staggerMs: 0, visibility: visibility().watch });
    timed.adopt(once);
    once.stop();
    timed.start();
    await vi.advanceTimersByTimeAsync(4900);
    expect(a.calls.length).toBe(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(a.calls.length).toBe(2);
    a.calls[1]?.resolve({ list: [{ x: 2 }] });
    await vi.advanceTimersByTimeAsync(0);
    expect(timed.get('view:1')).toMatchObject({ status: 'ready', data: { list: [{ x: 2 }] }, version: 2 });
    // Back to no period: the answer is kept and nothing more is fetched.
    const untimed = new ScreenScheduler([a.spec], { refreshMs: null, staggerMs: 0, visibility: visibility().watch });
    untimed.adopt(timed);
    timed.stop();
    untimed.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(a.calls.length).toBe(2);
    untimed.stop();
  });
});
