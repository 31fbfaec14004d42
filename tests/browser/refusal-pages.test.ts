/**
 * Every refused page shows /401 with its reason, against the real server and the built app: pages of
 * menus the producer is not granted (administration, designers, supervision), the designers' 视图预览,
 * and the platform's big screen at its in-app address and in the viewer. An account whose menus lead
 * to the big screen still sees it, and an address that is no page at all still goes home.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '../../src/shared/error-catalogue.js';
import { launchBrowser, openPage, startAppServer } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openAs(user: string): Promise<{ page: Page; errors: string[] }> {
  const { token } = await server.login(user);
  const { page, errors } = await openPage(browser, server.url, { token });
  page.setDefaultTimeout(30_000);
  return { page, errors };
}

/** Waits for /401 and answers the reason it shows. */
async function refusalOf(page: Page): Promise<string> {
  await page.waitForURL((u) => u.pathname === '/401');
  await page.getByText('你没有权限去该页面').waitFor();
  const reason = page.getByTestId('forbidden-reason');
  await reason.waitFor();
  return (await reason.textContent()) ?? '';
}

const SCREEN_REFUSED = ERROR_MESSAGES.SCREEN_FORBIDDEN;

/** Routes the producer's menus do not lead to, with the reason /401 gives. */
const REFUSED: [string, string][] = [
  ['/system/user', '原因：你的菜单中没有「用户管理」页面（/system/user）'],
  ['/dev-tools/generation', '原因：你的菜单中没有「视图管理」页面（/dev-tools/generation）'],
  ['/dev-tools/dataView', '原因：你的菜单中没有「数据视图」页面（/dev-tools/dataView）'],
  ['/dev-tools/screen', '原因：你的菜单中没有「大屏管理」页面（/dev-tools/screen）'],
  ['/lsDesign?lsId=50', '原因：你的菜单中没有「大屏设计」页面（/lsDesign?lsId=50）'],
  ['/supervision/companyMange', '原因：你的菜单中没有「企业管理」页面（/supervision/companyMange）'],
  ['/system/role', '原因：你的菜单中没有「角色管理」页面（/system/role）'],
  ['/dev-tools/preview?viewId=12', '原因：你的菜单中没有「视图预览」页面（/dev-tools/preview?viewId=12）'],
  ['/screen/vBuild/temp/50', `原因：${SCREEN_REFUSED}（/screen/vBuild/temp/50）`],
  ['/lsPreview?lsId=50', `原因：${SCREEN_REFUSED}（/lsPreview?lsId=50）`],
];

describe('refused pages', () => {
  for (const [path, reason] of REFUSED) {
    it(`${path} shows the producer /401 with its reason`, async () => {
      const { page, errors } = await openAs('producer');
      const data: string[] = [];
      page.on('response', (r) => {
        const url = new URL(r.url());
        if (url.pathname === '/api/data/detail' && r.status() === 200) data.push(url.search);
      });
      await page.goto(path);
      expect(await refusalOf(page)).toBe(reason);
      // Nothing of the refused page was drawn: no screen, no design tool, no chart's rows.
      expect(await page.locator('.wg-screen, .wg-screen-chart').count()).toBe(0);
      expect(data).toEqual([]);
      expect(errors).toEqual([]);
    });
  }

  it('an address that is no page goes home, not to /401', async () => {
    const { page } = await openAs('producer');
    await page.goto('/no-such/page');
    await page.waitForURL((u) => u.pathname === '/abandonhome');
  });

  it('/401 opened by itself says no more than the page asks of everyone, and a forged code says nothing', async () => {
    const { page } = await openAs('producer');
    await page.goto('/401');
    await page.getByText('你没有权限去该页面').waitFor();
    expect(await page.getByTestId('forbidden-reason').count()).toBe(0);
    await page.goto('/401?code=%E4%BD%A0%E5%B7%B2%E4%B8%AD%E5%A5%96&from=https://evil.example');
    await page.getByText('你没有权限去该页面').waitFor();
    expect(await page.getByTestId('forbidden-reason').count()).toBe(0);
  });
});

describe('pages the menus lead to', () => {
  it('the supervisor, whose 数据大屏 menu leads to it, sees the big screen in the app and in the viewer', async () => {
    const { page, errors } = await openAs('supervisor');
    await page.goto('/screen/vBuild/temp/50');
    await page.locator('.wg-screen-chart[data-status="ready"]').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/screen/vBuild/temp/50');
    await page.goto('/lsPreview?lsId=50');
    await page.locator('.wg-screen-chart[data-status="ready"]').first().waitFor();
    expect(await page.locator('.wg-screen-chart-error').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('the administrator opens the tools the producer is refused', async () => {
    const { page } = await openAs('admin');
    await page.goto('/dev-tools/preview?viewId=12');
    await page
      .getByRole('columnheader', { name: /入库单号/ })
      .first()
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/dev-tools/preview');
    await page.goto('/system/user');
    await page.getByRole('columnheader', { name: '联系方式' }).first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/system/user');
  });
});
