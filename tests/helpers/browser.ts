/**
 * Browser tests: Debian's Chromium driven by playwright-core, against the built app (dist/)
 * served by the real reference server. Build first: `SIGN_SECRET=test-sign-secret npm run build`
 * (`npm test` does this).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import type { ServerConfig } from '../../server/config.js';
import { launchChromium } from './chromium.js';
import { startTestServer, type TestServer } from './server.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The built app; APP_DIST_DIR points elsewhere (e.g. a build of one's own made with `vite build --outDir`). */
export const DIST_DIR = process.env.APP_DIST_DIR ? resolve(ROOT, process.env.APP_DIST_DIR) : join(ROOT, 'dist');
export const RESULTS_DIR = join(ROOT, 'test-results');
/** The secret `npm test` builds the app with; the browser suite's server checks signatures with it. */
export const TEST_SIGN_SECRET = 'test-sign-secret';

export async function launchBrowser(): Promise<Browser> {
  return launchChromium();
}

function assertBuilt(signSecret: string | undefined): void {
  if (!existsSync(join(DIST_DIR, 'index.html'))) {
    throw new Error(`${DIST_DIR}/index.html is missing: run npm run build first (SIGN_SECRET=${TEST_SIGN_SECRET} npm run build)`);
  }
  if (signSecret) {
    // The secret is inlined at build time; a build without it would fail every call with 请求缺少签名.
    const assets = join(DIST_DIR, 'assets');
    const literal = new RegExp(`[\`'"]${signSecret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\`'"]`);
    const signed = readdirSync(assets).some((f) => f.endsWith('.js') && literal.test(readFileSync(join(assets, f), 'utf8')));
    if (!signed) throw new Error(`dist/ was built without SIGN_SECRET=${signSecret}: run SIGN_SECRET=${signSecret} npm run build first`);
  }
}

/**
 * The reference server serving the built app on one origin, over a fresh database, with the
 * captcha fixed to 8888 and request signing on (TEST_SIGN_SECRET) unless overridden.
 */
export async function startAppServer(overrides: Partial<ServerConfig> = {}): Promise<TestServer> {
  const config = { signSecret: TEST_SIGN_SECRET, ...overrides, staticDir: DIST_DIR };
  assertBuilt(config.signSecret);
  return startTestServer(config);
}

/**
 * For a test file: before its tests, the app's server and a browser (started together), handed to
 * `take`; after them, both closed.
 */
export function withAppAndBrowser(take: (server: TestServer, browser: Browser) => void): void {
  let started: [TestServer, Browser] | undefined;
  beforeAll(async () => {
    started = await Promise.all([startAppServer(), launchBrowser()]);
    take(...started);
  });
  afterAll(async () => {
    await started?.[1].close();
    await started?.[0].close();
  });
}

export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  /** Uncaught exceptions thrown in the page so far. */
  errors: string[];
}

/**
 * A fresh context (no shared storage) and page for the current test. When the test fails a
 * full-page screenshot goes to test-results/; the context is closed either way.
 * Call inside a test.
 */
/** `token`: signed in with it (put where the app keeps it, before any page script runs). */
export async function openPage(
  browser: Browser,
  baseURL: string,
  { token, ...options }: BrowserContextOptions & { token?: string | null } = {},
): Promise<OpenedPage> {
  // Reduced motion, as a user may ask of the system: antd opens dialogs and popups without animation,
  // so no click lands on something still sliding in. A test of an animation asks for 'no-preference'.
  const context = await browser.newContext({
    baseURL,
    locale: 'zh-CN',
    viewport: { width: 1280, height: 800 },
    reducedMotion: 'reduce',
    ...options,
  });
  if (token) await context.addInitScript((t) => localStorage.setItem('token', t), token);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // The server's Content-Security-Policy holds for every page a test opens: a refusal fails the test.
  const cspViolations: string[] = [];
  page.on('console', (m) => {
    // DOMPurify parses hostile markup to remove it, and Chromium reports the handlers it meets there
    // (blocked, and gone from what is shown): those reports are not the app running inline script.
    if (/Content Security Policy/i.test(m.text()) && !/\/purify[.-][\w.-]+\.js$/.test(m.location().url)) cspViolations.push(m.text());
  });
  onTestFinished(async ({ task }) => {
    try {
      if (task.result?.state === 'fail' && !page.isClosed()) {
        mkdirSync(RESULTS_DIR, { recursive: true });
        const name = `${basename(task.file?.name ?? 'browser', '.test.ts')}-${task.name}`.replace(/[^\p{L}\p{N}._-]+/gu, '_').slice(0, 150);
        const path = join(RESULTS_DIR, `${name}.png`);
        await page.screenshot({ path, fullPage: true }).catch(() => {});
        console.error(`screenshot of the failed test: ${path}`);
      }
    } finally {
      await context.close().catch(() => {});
    }
    if (cspViolations.length) throw new Error(`Content-Security-Policy refused: ${cspViolations.join(' | ')}`);
  });
  return { page, context, errors };
}
