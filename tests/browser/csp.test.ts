import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startAppServer } from '../helpers/browser.js';
import type { ApiClient, TestServer } from '../helpers/server.js';

/**
 * The server's Content-Security-Policy is enforced in Chromium, and the app, both designers and the
 * big-screen viewer work under it: every page a browser test opens fails on a refusal (see openPage).
 */

let server: TestServer;
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchBrowser()]);
  admin = await server.login('admin');
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('Content-Security-Policy in the browser', () => {
  it('refuses a script injected into the page', async () => {
    const { page } = await openPage(browser, server.url);
    await page.goto('/login');
    await page.getByPlaceholder('账号').waitFor();
    // The refusal is what this test expects, so it is taken out of the page's own check.
    page.removeAllListeners('console');
    const refused = page.waitForEvent('console', (m) => /Content Security Policy/i.test(m.text()));
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__injected = true';
      document.body.appendChild(s);
    });
    await refused;
    expect(await page.evaluate(() => (window as { __injected?: boolean }).__injected)).toBeUndefined();
  });

  it('draws the home page, the view designer, the screen designer and the viewer without a refusal', async () => {
    const { page, errors } = await openPage(browser, server.url, { token: admin.token, viewport: { width: 1600, height: 900 } });
    page.setDefaultTimeout(20_000);
    await page.goto('/dashboard');
    await page.locator('.wg-navbar').waitFor();
    await page.goto('/dev-tools/generation?design=12');
    await page.locator('.wg-navbar').waitFor();
    await page.waitForLoadState('networkidle');
    await page.goto('/lsDesign?lsId=50');
    await page.locator('.wg-design-stage').waitFor();
    await page.locator('.wg-design-stage canvas').first().waitFor();
    await page.goto('/lsPreview?lsId=50');
    await page.locator('canvas').first().waitFor();
    expect(errors).toEqual([]);
  });
});
