/**
 * What the browser benchmarks share: the app built once with Vite's API into a temp folder (signed
 * with the browser suite's secret), served by the real reference server over a fresh database,
 * Debian's Chromium through playwright-core, and a page that records the engine's performance marks
 * (src/engine/perf-marks.ts) and the time from each keystroke to the next paint.
 *
 * BENCH_DIST_DIR=<folder> reuses an existing build (made with SIGN_SECRET=test-sign-secret) instead
 * of building; handy while working on a benchmark, never what `npm run bench` does.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { launchChromium } from '../../tests/helpers/chromium.js';
import { type ApiClient, startTestServer, type TestServer } from '../../tests/helpers/server.js';

export const SIGN_SECRET = 'test-sign-secret';

export interface BuiltApp {
  dir: string;
  /** Removes the temp build (nothing when BENCH_DIST_DIR was used). */
  dispose(): void;
}

/** `vite build` into a temp folder with SIGN_SECRET set, as `npm test` builds dist/. */
export async function buildApp(): Promise<BuiltApp> {
  if (process.env.BENCH_DIST_DIR) {
    const dir = resolve(process.env.BENCH_DIST_DIR);
    if (!existsSync(join(dir, 'index.html'))) throw new Error(`BENCH_DIST_DIR=${dir} holds no build`);
    return { dir, dispose: () => {} };
  }
  const dir = mkdtempSync(join(tmpdir(), 'wastegen-bench-app-'));
  const before = process.env.SIGN_SECRET;
  process.env.SIGN_SECRET = SIGN_SECRET;
  const t0 = performance.now();
  try {
    await build({ logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } });
  } finally {
    if (before === undefined) delete process.env.SIGN_SECRET;
    else process.env.SIGN_SECRET = before;
  }
  console.log(`app built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface BenchApp {
  server: TestServer;
  browser: Browser;
  admin: ApiClient;
  /** A fresh context signed in as admin, its pages recording marks and keystrokes (see RECORDER). */
  context(): Promise<BrowserContext>;
  close(): Promise<void>;
}

/** Builds the app, starts the reference server on it and Chromium; signs admin in through the API. */
export async function startBenchApp(): Promise<BenchApp> {
  const app = await buildApp();
  const [server, browser] = await Promise.all([startTestServer({ signSecret: SIGN_SECRET, staticDir: app.dir }), launchChromium()]);
  const admin = await server.login('admin');
  const contexts: BrowserContext[] = [];
  return {
    server,
    browser,
    admin,
    async context() {
      const context = await browser.newContext({ baseURL: server.url, locale: 'zh-CN', viewport: { width: 1280, height: 800 } });
      contexts.push(context);
      await context.addInitScript((t) => localStorage.setItem('token', t), String(admin.token));
      await context.addInitScript({ content: RECORDER });
      return context;
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close().catch(() => {});
      await server.close().catch(() => {});
      app.dispose();
    },
  };
}

/** What the recorder keeps in the page (window.__wg). */
export interface Recorded {
  marks: { name: string; t: number; detail?: unknown }[];
  /** Per keystroke while `recordKeys` is on: keydown's timeStamp to after the next frame was painted. */
  keys: number[];
  /** Event Timing entries (durationThreshold 16) of key and input events: name, duration, processing. */
  slowEvents: { name: string; duration: number; processing: number }[];
  recordKeys: boolean;
}

/**
 * Runs in every page before the app (plain JS text: tsx's helpers do not exist in the page). "After the next paint" is a task posted from the next
 * animation frame: the frame's style, layout and paint run right after its rAF callbacks.
 * performance.mark is wrapped so every mark is kept (the engine clears its previous mark of a name),
 * and `wastegen:list-rendered` also records `wastegen:list-painted` after the next paint.
 */
const RECORDER = `(() => {
  const rec = { marks: [], keys: [], slowEvents: [], recordKeys: false };
  window.__wg = rec;
  const afterPaint = (done) =>
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => done(performance.now());
      ch.port2.postMessage(null);
    });
  const mark = performance.mark.bind(performance);
  performance.mark = (name, options) => {
    const m = mark(name, options);
    rec.marks.push({ name, t: m.startTime, detail: options && options.detail });
    if (name === 'wastegen:list-rendered') afterPaint((t) => rec.marks.push({ name: 'wastegen:list-painted', t }));
    return m;
  };
  document.addEventListener('keydown', (e) => {
    if (!rec.recordKeys) return;
    const t0 = e.timeStamp;
    afterPaint((t) => rec.keys.push(t - t0));
  }, true);
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (!rec.recordKeys || !/^key|input/.test(e.name)) continue;
        rec.slowEvents.push({ name: e.name, duration: e.duration, processing: e.processingEnd - e.processingStart });
      }
    }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  } catch {
    // No Event Timing API: the rAF figures stand alone.
  }
})();`;

export const recorded = (page: Page): Promise<Recorded> => page.evaluate(() => (window as unknown as { __wg: Recorded }).__wg);

/** The first mark of that name recorded in the page, if any. */
export async function firstMark(page: Page, name: string): Promise<{ t: number; detail?: unknown } | undefined> {
  return page.evaluate((n) => (window as unknown as { __wg: Recorded }).__wg.marks.find((m) => m.name === n), name);
}

/** Waits until the page has recorded `count` marks of that name; returns them. */
export async function waitForMarks(page: Page, name: string, count = 1, timeout = 30_000): Promise<{ t: number; detail?: unknown }[]> {
  await page.waitForFunction(
    ([n, c]) => (window as unknown as { __wg: Recorded }).__wg.marks.filter((m) => m.name === n).length >= (c as number),
    [name, count] as const,
    { timeout, polling: 20 },
  );
  return page.evaluate((n) => (window as unknown as { __wg: Recorded }).__wg.marks.filter((m) => m.name === n), name);
}

// ----- figures -----

/** Timings in a browser depend on the machine and on what else runs on it: say both. */
export function machine(): string {
  const c = cpus();
  return `${c.length} CPU(s) ${c[0]?.model ?? ''}, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

export const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (!n) return Number.NaN;
  return n % 2 ? (sorted[(n - 1) / 2] as number) : ((sorted[n / 2 - 1] as number) + (sorted[n / 2] as number)) / 2;
};

export const ms = (n: number) => `${n.toFixed(1)} ms`;

export function summary(values: readonly number[]): string {
  return `median ${ms(median(values))}, p95 ${ms(percentile(values, 95))}, min ${ms(Math.min(...values))}, max ${ms(Math.max(...values))} (n=${values.length})`;
}

/** Publishes a view through the API (add with status 1) and returns its id. */
export async function publishView(admin: ApiClient, view: Record<string, unknown>): Promise<number> {
  const res = await admin.post('/api/generation/add', {
    name: view.name,
    menuId: null,
    status: 1,
    disMenu: view.disMenu,
    disTemplate: JSON.stringify(view.disTemplate),
  });
  if (res.status !== 200 || typeof res.body?.id !== 'number')
    throw new Error(`publishing ${view.name} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}
