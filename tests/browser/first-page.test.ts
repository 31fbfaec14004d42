import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, withAppAndBrowser } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';

// The first page staff open every morning: what the login route costs in the browser, and what every
// load says on the console.

/** Budget: the JS the login route loads, gzipped (bench/app-bundle.bench.ts measures the build's side). */
const LOGIN_JS_BUDGET_KB = 250;

let server: TestServer;
let browser: Browser;
withAppAndBrowser((s, b) => {
  [server, browser] = [s, b];
});

describe('the login route', () => {
  it(`loads at most ${LOGIN_JS_BUDGET_KB} KB of JS, gzipped, until the page is idle`, async () => {
    const { page, errors } = await openPage(browser, server.url);
    const scripts = new Map<string, Promise<number>>();
    page.on('response', (res) => {
      if (res.request().resourceType() !== 'script') return;
      scripts.set(
        res.url(),
        res.body().then((b) => gzipSync(b, { level: 9 }).length),
      );
    });
    await page.goto('/login', { waitUntil: 'networkidle' });
    await page.locator('img[alt="验证码"]').waitFor();
    const sizes = await Promise.all([...scripts.values()]);
    const total = sizes.reduce((s, n) => s + n, 0);
    const listing = [...scripts.keys()].map((u, i) => `${new URL(u).pathname} ${((sizes[i] ?? 0) / 1024).toFixed(1)} KB`).join('\n');
    expect(scripts.size).toBeGreaterThan(0);
    expect(total / 1024, listing).toBeLessThanOrEqual(LOGIN_JS_BUDGET_KB);
    expect(errors).toEqual([]);
  });
});

describe('every load', () => {
  it('warns of no missing HydrateFallback, on the login page nor on a lazily loaded page', async () => {
    const token = (await server.login('producer')).token;
    for (const [path, text] of [
      ['/login', '账号登录'],
      ['/abandonhome', '欢迎'],
    ] as const) {
      const { page } = await openPage(browser, server.url, { token: path === '/login' ? null : token });
      const warnings: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text());
      });
      await page.goto(path);
      await page.getByText(text).first().waitFor();
      expect(warnings.filter((w) => /HydrateFallback/.test(w))).toEqual([]);
    }
  });

  it('answers a missing script with 404, not the app page', async () => {
    const res = await fetch(new URL('/assets/no-such-chunk-1234.js', server.url));
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).not.toMatch(/text\/html/);
  });
});
