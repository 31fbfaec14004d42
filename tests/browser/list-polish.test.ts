import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startAppServer } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';

// What a list looks like on common screens: 用户管理 reads whole at 1440 px, a low-code list draws its
// sideways scrollbar, and its operation column stops covering the data when the list is narrow.
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
  it('用户管理 on a 1440 px screen: 用户 and 状态 first, 所属企业 whole, role tags inside their cells, 编辑 and 更多', async () => {
    const { page } = await openPage(browser, server.url, { token, viewport: { width: 1440, height: 900 } });
    await page.goto('/system/user');
    const table = page.locator('[data-page="system-user"] .ant-table');
    await table.locator('.ant-table-row').first().waitFor();
    const titles = (await table.locator('.ant-table-thead th').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    expect(titles).toEqual(['用户', '状态', '联系方式', '所属企业', '部门', '角色', '创建日期', '操作']);
    const producer = table.locator('.ant-table-row', { hasText: 'producer' });
    const company = producer.locator('td', { hasText: '苏州华瑞精细化工有限公司' });
    // The whole name is drawn: its cell is as wide as its text.
    expect(await company.evaluate((td) => td.scrollWidth <= td.clientWidth)).toBe(true);
    const admin = table.locator('.ant-table-row', { hasText: 'admin@' });
    const inside = await admin.locator('.ant-tag', { hasText: '超级管理员' }).evaluate((tag) => {
      const cell = (tag.closest('td') as HTMLElement).getBoundingClientRect();
      const t = tag.getBoundingClientRect();
      return t.left >= cell.left && t.right <= cell.right;
    });
    expect(inside).toBe(true);
    expect((await producer.locator('td').last().getByRole('button').allInnerTexts()).map((t) => t.replace(/\s/g, ''))).toEqual([
      '编辑',
      '更多',
    ]);
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
    // A phone-sized window: the sidebar moves into a drawer, and the list is still narrower than 720 px
    // whether the shell has switched to its mobile layout yet or not.
    await page.setViewportSize({ width: 720, height: 800 });
    await page.locator('.wg-shell.is-mobile').waitFor();
    expect(await scroll.evaluate((el) => el.clientWidth)).toBeLessThan(720);
    await expect
      .poll(() => scroll.evaluate((el) => getComputedStyle(el.querySelector('.engine-row .engine-cell-operation') as Element).position))
      .toBe('static');
  });
});
