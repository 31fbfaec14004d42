import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, withAppAndBrowser } from '../helpers/browser.js';
import { button, isListCall, listPage } from '../helpers/engine-page.js';
import type { ApiClient, TestServer } from '../helpers/server.js';

// Lists show every filter that narrows them. A default 创建时间 range applies only to a list whose search
// form offers 创建时间 (a list of events), filled in the form and carried by the address; lists of things
// start unfiltered; a dashboard tile opens its list with the filter its figure counts, in sight.

let server: TestServer;
let browser: Browser;
withAppAndBrowser((s, b) => {
  [server, browser] = [s, b];
});

async function signedIn(user: string) {
  const api = await server.login(user);
  const opened = await openPage(browser, server.url, { token: api.token });
  opened.page.setDefaultTimeout(15_000);
  return { ...opened, api };
}

/** Opens a list page and answers its first list call's parameters once the table shows its answer. */
async function openList(page: Page, path: string, viewId: number): Promise<URLSearchParams> {
  const call = page.waitForResponse((r) => isListCall(viewId)(r.request()));
  await page.goto(path);
  const r = await call;
  await listPage(page, viewId).and(page.locator('[data-loading="false"]')).waitFor();
  return new URL(r.url()).searchParams;
}

/** The total the list's pager shows (共 N 条), 0 for an empty list. */
async function listTotal(page: Page, viewId: number): Promise<number> {
  const list = listPage(page, viewId);
  await list.and(page.locator('[data-loading="false"]')).waitFor();
  const total = list.locator('.ant-pagination-total-text');
  if (!(await total.count())) return 0;
  return Number((await total.innerText()).replace(/[^\d]/g, ''));
}

/** The number of every row a user may see in a view, with no filter at all. */
async function unfilteredTotal(api: ApiClient, viewId: number): Promise<number> {
  const r = await api.get(`/api/general/list/${viewId}`, { page: 0, size: 1 });
  expect(r.status).toBe(200);
  return r.body.totalElements as number;
}

/** The two inputs of the search bar's 创建时间 range. */
const createRangeInputs = (page: Page, viewId: number) =>
  listPage(page, viewId).locator('.engine-search-bar .ant-form-item').filter({ hasText: '创建时间' }).locator('input');

describe('lists of things start unfiltered', () => {
  it('logistics › 车辆信息 shows all 12 vehicles, with nothing in its 创建时间 range', async () => {
    const { page, api, errors } = await signedIn('logistics');
    const q = await openList(page, '/dev-tools/temp/page/vehicle/17', 17);
    expect(q.get('startTime')).toBeNull();
    expect(q.get('endTime')).toBeNull();
    expect(await unfilteredTotal(api, 17)).toBe(12);
    expect(await listTotal(page, 17)).toBe(12);
    expect(await createRangeInputs(page, 17).evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual(['', '']);
    expect(new URL(page.url()).search).toBe('');
    expect(errors).toEqual([]);
  });

  it('disposer › 合同管理 shows every contract', async () => {
    const { page, api, errors } = await signedIn('disposer');
    const q = await openList(page, '/dev-tools/temp/page/contract/16', 16);
    expect(q.get('startTime')).toBeNull();
    const all = await unfilteredTotal(api, 16);
    expect(all).toBeGreaterThan(0);
    expect(await listTotal(page, 16)).toBe(all);
    expect(errors).toEqual([]);
  });
});

describe('a list of events', () => {
  it('starts with its default 创建时间 range filled and in the address; cleared, it shows every record, also after a reload', async () => {
    const { page, api, errors } = await signedIn('producer');
    const q = await openList(page, '/dev-tools/temp/page/stockIn/12', 12);
    const start = q.get('startTime');
    const end = q.get('endTime');
    expect(start).toMatch(/^\d{4}-\d{2}-\d{2} 00:00:00$/);
    expect(end).toMatch(/^\d{4}-\d{2}-\d{2} 23:59:59$/);
    // The range is in the form and in the address.
    expect(await createRangeInputs(page, 12).evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual([
      start,
      end,
    ]);
    await expect.poll(() => new URL(page.url()).searchParams.get('startTime'), { timeout: 15_000 }).toBe(start);
    expect(new URL(page.url()).searchParams.get('endTime')).toBe(end);
    const ranged = await listTotal(page, 12);
    const all = await unfilteredTotal(api, 12);
    expect(all).toBeGreaterThan(ranged);

    // Cleared: no range goes out, every record shows, and the address says the range is empty.
    const bar = listPage(page, 12).locator('.engine-search-bar');
    await createRangeInputs(page, 12).first().hover();
    await bar.locator('.ant-picker-clear').click();
    const cleared = page.waitForRequest(isListCall(12));
    await button(bar, '搜索').click();
    const c = new URL((await cleared).url()).searchParams;
    expect(c.get('startTime')).toBeNull();
    await expect.poll(() => listTotal(page, 12), { timeout: 15_000 }).toBe(all);
    await expect.poll(() => new URL(page.url()).searchParams.get('startTime'), { timeout: 15_000 }).toBe('');

    // A reload keeps the cleared range.
    const again = await openList(page, page.url(), 12);
    expect(again.get('startTime')).toBeNull();
    expect(await listTotal(page, 12)).toBe(all);
    expect(await createRangeInputs(page, 12).evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual(['', '']);

    // 重置 brings the default back.
    const reset = page.waitForRequest(isListCall(12));
    await button(bar, '重置').click();
    expect(new URL((await reset).url()).searchParams.get('startTime')).toBe(start);
    await expect.poll(() => listTotal(page, 12), { timeout: 15_000 }).toBe(ranged);
    expect(errors).toEqual([]);
  });
});

describe("the supervisor's tiles", () => {
  /** A tile's number, as the dashboard shows it. */
  const tileNumber = async (page: Page, testId: string) =>
    Number((await page.getByTestId(testId).locator('.ant-statistic-content').innerText()).replace(/[^\d]/g, ''));

  const tiles = [
    { testId: 'summary-server', viewId: 19, shown: ['订单状态', '创建时间'] },
    { testId: 'summary-contract', viewId: 16, shown: ['合同状态', '签订日期'] },
    { testId: 'summary-transshipment', viewId: 20, shown: ['运单状态', '装车时间'] },
  ];

  it.each(tiles)('$testId opens its list on the filter its figure counts, in the search form: the total is the number', async (t) => {
    const { page, errors } = await signedIn('supervisor');
    await page.goto('/dashboard');
    await expect.poll(() => page.getByTestId('dash-summary').getAttribute('data-state'), { timeout: 20_000 }).toBe('ready');
    const figure = await tileNumber(page, t.testId);
    expect(figure).toBeGreaterThan(0);
    const call = page.waitForResponse((r) => isListCall(t.viewId)(r.request()));
    await page.getByTestId(t.testId).click();
    await call;
    await expect.poll(() => listTotal(page, t.viewId), { timeout: 15_000 }).toBe(figure);
    // The filter is in the address and filled in the search form.
    const address = new URL(page.url()).searchParams;
    expect(address.getAll(t.viewId === 16 ? 'contractStatus' : 'orderStatus').length).toBeGreaterThan(0);
    const bar = listPage(page, t.viewId).locator('.engine-search-bar');
    for (const label of t.shown) {
      const item = bar.locator('.ant-form-item').filter({ hasText: label }).first();
      await item.waitFor();
      const filled = await item.evaluate(
        (el) => [...el.querySelectorAll('input')].some((i) => i.value !== '') || !!el.querySelector('.ant-select-selection-item'),
      );
      expect(filled, label).toBe(true);
    }
    expect(errors).toEqual([]);
  });

  it('小微企业 opens the small and micro companies it counts', async () => {
    const { page, errors } = await signedIn('supervisor');
    await page.goto('/dashboard');
    await expect.poll(() => page.getByTestId('dash-summary').getAttribute('data-state'), { timeout: 20_000 }).toBe('ready');
    const micro = await tileNumber(page, 'summary-micro');
    await page.getByTestId('summary-micro').click();
    await page.waitForURL((u) => u.pathname === '/supervision/summaryPage' && u.searchParams.get('micro') === '1');
    if (micro > 0) await page.getByText(`共 ${micro} 家`).waitFor();
    else await page.getByText('暂无符合条件的企业').waitFor();
    expect(errors).toEqual([]);
  });

  it('a tile opens its list on its own filter also when the list is already open in a tab', async () => {
    const { page, errors } = await signedIn('supervisor');
    await page.goto('/dashboard');
    await expect.poll(() => page.getByTestId('dash-summary').getAttribute('data-state'), { timeout: 20_000 }).toBe('ready');
    const figure = await tileNumber(page, 'summary-server');
    await page.getByTestId('summary-server').click();
    await expect.poll(() => listTotal(page, 19), { timeout: 15_000 }).toBe(figure);
    // Reset on the list: its default search, written to its address.
    const bar = listPage(page, 19).locator('.engine-search-bar');
    const reset = page.waitForRequest(isListCall(19));
    await button(bar, '重置').click();
    expect(new URL((await reset).url()).searchParams.getAll('orderStatus')).toEqual([]);
    await expect.poll(() => new URL(page.url()).searchParams.getAll('orderStatus'), { timeout: 15_000 }).toEqual([]);
    // Back on the home, the tile opens the kept list on the tile's filter again.
    await page.goBack();
    await page.getByTestId('summary-server').waitFor();
    const again = page.waitForRequest(isListCall(19));
    await page.getByTestId('summary-server').click();
    expect(new URL((await again).url()).searchParams.getAll('orderStatus').sort()).toEqual(['0', '1', '2']);
    await expect.poll(() => listTotal(page, 19), { timeout: 15_000 }).toBe(figure);
    await bar.locator('.ant-select-selection-item').first().waitFor();
    expect(errors).toEqual([]);
  });
});

describe('other homes', () => {
  it('have no tile that opens a list, so none can disagree with one', async () => {
    for (const user of ['producer', 'disposer', 'logistics', 'collector']) {
      const { page, errors } = await signedIn(user);
      await page.goto('/dashboard');
      await page.locator('.wg-dashboard').waitFor();
      await expect.poll(() => page.locator('.wg-dash-tile').count(), { message: user }).toBeGreaterThan(0);
      expect(await page.locator('.wg-dash-link-tile').count(), user).toBe(0);
      expect(errors, user).toEqual([]);
      await page.close();
    }
  });
});
