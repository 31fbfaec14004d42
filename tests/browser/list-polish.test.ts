import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startAppServer } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';

// What a list looks like on common screens: 用户管理 fits 1440 px, a low-code list draws its sideways
// scrollbar, and its operation column stops covering the data when the list is narrow.
let server: TestServer;
let browser: Browser;
let token: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchBrowser()]);
  token = (await server.login('admin')).token as string;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('lists on common screens', () => {
  it('用户管理 fits a 1440 px screen: no sideways scroll', async () => {
    const { page } = await openPage(browser, server.url, { token, viewport: { width: 1440, height: 900 } });
    await page.goto('/system/user');
    const table = page.locator('[data-page="system-user"] .ant-table');
    await table.locator('.ant-table-row').first().waitFor();
    const area = table.locator('.ant-table-content, .ant-table-body').first();
    const sizes = await area.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(sizes.scroll).toBeLessThanOrEqual(sizes.client);
    for (const title of ['用户', '联系方式', '部门', '所属企业', '角色', '状态', '创建日期', '操作']) {
      await expect.poll(() => table.locator('.ant-table-thead th', { hasText: title }).first().isVisible()).toBe(true);
    }
  });

  it('a wide low-code list draws its sideways scrollbar; narrow, its operation column scrolls with the rows', async () => {
    const { page } = await openPage(browser, server.url, { token, viewport: { width: 1280, height: 800 } });
    await page.goto('/dev-tools/temp/page/stockIn/12');
    const scroll = page.locator('.engine-table-scroll').first();
    await scroll.locator('.engine-row').first().waitFor();
    const bar = await scroll.evaluate((el) => ({
      wide: el.scrollWidth > el.clientWidth,
      // Headless Chromium draws no scrollbar at all: the rule that keeps it drawn is read instead.
      thickness: getComputedStyle(el, '::-webkit-scrollbar').height,
      op: getComputedStyle(el.querySelector('.engine-row .engine-cell-operation') as Element).position,
    }));
    expect(bar).toEqual({ wide: true, thickness: '10px', op: 'sticky' });
    await page.setViewportSize({ width: 900, height: 800 });
    await expect
      .poll(() => scroll.evaluate((el) => getComputedStyle(el.querySelector('.engine-row .engine-cell-operation') as Element).position))
      .toBe('static');
  });
});
