import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startAppServer } from '../helpers/browser.js';
import type { ApiClient, TestServer } from '../helpers/server.js';

// The dashboards against the real server and its seeded business records: every figure a page shows
// is compared with what the server computes, and the stock-in rule is checked end to end.
let server: TestServer;
let browser: Browser;
/** The filling system's address: answered by the test (route below), never reached on the network. */
const GUFEI = 'http://gufei.test/';

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer({ gufeiBaseUrl: GUFEI }), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(user: string, path = '/dashboard') {
  const api = await server.login(user);
  const opened = await openPage(browser, server.url, { token: api.token });
  opened.page.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() >= 400) console.error(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  await opened.page.goto(path);
  return { ...opened, api };
}

async function figure<T = any>(api: ApiClient, path: string, query: Record<string, unknown> = {}): Promise<T> {
  const r = await api.get<T>(path, { isRefresh: 1, ...query });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/** A block once its first answer is shown. */
async function block(page: Page, testId: string) {
  const b = page.getByTestId(testId);
  await expect.poll(() => b.getAttribute('data-state'), { timeout: 15_000 }).toBe('ready');
  return b;
}

/** The text of a statistic tile's value (antd Statistic), without its title. */
const tileValue = (page: Page, testId: string) => page.getByTestId(testId).locator('.ant-statistic-content').innerText();
const tons = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 3, maximumFractionDigits: 3 });
/** Cost figures (the finance panel, prices per unit): 3 decimals. */
const yuan = tons;
/** Money: 2 decimals. */
const money = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

describe('full dashboard', () => {
  it('producer: inventory, orders, finance counting up to the server figures, bulletins, messages, entries', async () => {
    const { page, api, errors } = await open('producer');
    await expect.poll(() => page.locator('.wg-dashboard').getAttribute('data-kind')).toBe('full');

    const inv = await figure(api, '/api/inventoryInfo');
    const inventory = await block(page, 'dash-inventory');
    expect(await tileValue(page, 'inventory-total')).toBe(`${tons(inv.inventoryTotal)}吨`);
    expect(await tileValue(page, 'inventory-inquiring')).toBe(`${tons(inv.inquiringNum)}吨`);
    expect(await tileValue(page, 'inventory-disposal')).toBe(`${tons(inv.disposalNum)}吨`);
    expect(await tileValue(page, 'inventory-in')).toBe(`${tons(inv.inNum)}吨`);
    await expect.poll(() => inventory.locator('.wg-computed-at').innerText()).toMatch(/^更新于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    // Filtered by one of the company's warehouses: the one with the most waste in inquiry, so that 询价中
    // shows that warehouse's share, not the company's.
    const warehouses = (await api.get('/api/companyWarehouse/list')).body.content as { id: number; name: string }[];
    expect(warehouses.length).toBeGreaterThan(0);
    const perWarehouse = await Promise.all(warehouses.map((x) => figure(api, '/api/inventoryInfo', { warehouseId: x.id })));
    const k = perWarehouse.reduce((best, f, i) => (f.inquiringNum > perWarehouse[best]!.inquiringNum ? i : best), 0);
    const w = warehouses[k]!;
    const invW = perWarehouse[k]!;
    expect(invW.inquiringNum).toBeGreaterThan(0);
    expect(invW.inquiringNum).not.toBe(inv.inquiringNum);
    await inventory.getByRole('combobox', { name: '仓库' }).click();
    await page.locator('.ant-select-item-option').filter({ hasText: w.name }).click();
    await expect.poll(() => tileValue(page, 'inventory-total')).toBe(`${tons(invW.inventoryTotal)}吨`);
    expect(await tileValue(page, 'inventory-inquiring')).toBe(`${tons(invW.inquiringNum)}吨`);
    expect(await tileValue(page, 'inventory-disposal')).toBe(`${tons(invW.disposalNum)}吨`);
    expect(await tileValue(page, 'inventory-in')).toBe(`${tons(invW.inNum)}吨`);

    const orders = await figure<{
      ongoingDisposalInquiry: number;
      ongoingDisposalOrder: number;
      ongoingLogisticsOrder: number;
      count: number;
      countLabel: string;
    }>(api, '/api/produceOrderDashboard');
    await block(page, 'dash-orders');
    expect(await tileValue(page, 'orders-inquiry')).toBe(String(orders.ongoingDisposalInquiry));
    expect(await tileValue(page, 'orders-disposal')).toBe(String(orders.ongoingDisposalOrder));
    expect(await tileValue(page, 'orders-logistics')).toBe(String(orders.ongoingLogisticsOrder));
    expect(await tileValue(page, 'orders-count')).toBe(String(orders.count));
    await page.getByTestId('orders-count').getByText(orders.countLabel).waitFor();
    const red = await page
      .getByTestId('orders-count')
      .locator('.ant-statistic-content')
      .evaluate((e) => getComputedStyle(e).color);
    expect(red).toBe('rgb(207, 19, 34)');

    // Finance counts up for 3.6 s to the server's figures, 3 decimals, 元.
    const fin = await figure(api, '/api/finAcc/dashboard');
    await block(page, 'dash-finance');
    const paid = page.getByTestId('finance-yearPaid');
    expect(await paid.locator('.wg-count-up').getAttribute('data-value')).toBe(fin.yearPaid.toFixed(3));
    for (const key of ['payable', 'yearPaid', 'receivable', 'yearReceived'] as const) {
      await expect
        .poll(() => page.getByTestId(`finance-${key}`).locator('.ant-statistic-content').innerText(), { timeout: 8000 })
        .toBe(`${yuan(fin[key])}元`);
    }
    expect(fin.payable + fin.yearPaid + fin.receivable + fin.yearReceived).toBeGreaterThan(0);

    // Bulletins: the published ones only.
    const bulletins = await block(page, 'dash-bulletins');
    const published = (await api.get('/api/bulletin', { status: 10 })).body.content as { title: string }[];
    expect(published.length).toBeGreaterThan(0);
    await bulletins.getByText(published[0]!.title).waitFor();
    expect(await bulletins.getByText('（草稿）').count()).toBe(0);

    // Unread leave messages: the first three, and 查看更多.
    const leave = await block(page, 'dash-leave-messages');
    const unreadLeave = (await api.get('/api/unreadLeaveMessage', { page: 1, size: 3 })).body.content as { content: string }[];
    expect(unreadLeave.length).toBeGreaterThan(0);
    // The same text may be both a message left for the producer and one to its department (as seeded).
    await leave.getByText(unreadLeave[0]!.content).first().waitFor();

    // Filling-system entries: the producer has a company id on file; its company is asked for by its deptCode.
    await block(page, 'dash-filling');
    const me = (await api.get('/api/auth/info')).body.user as { deptCode: string };
    const infoUrl = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .find((n) => n.includes('/api/companyApi/info')),
    );
    expect(me.deptCode).toBeTruthy();
    expect(new URL(infoUrl ?? 'http://x/').searchParams.get('deptCode')).toBe(me.deptCode);
    await page
      .context()
      .route(`${GUFEI}**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>固废系统</h1>' }));
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: /危废转移联单填报/ }).click()]);
    await popup.waitForURL((u) => u.href.startsWith(`${GUFEI}order/danger?token=`));
    await popup.close();
    // An answer other than 00000 is ignored: the popup closes and no message shows.
    await page.route('**/api/guFeiUrl/getTokenByCompayCode**', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'A0404', message: '企业不存在', data: null }),
      }),
    );
    const [ignored] = await Promise.all([
      page.waitForEvent('popup'),
      page.waitForResponse((r) => r.url().includes('/api/guFeiUrl/getTokenByCompayCode')),
      page.getByRole('button', { name: /管理计划查询/ }).click(),
    ]);
    await expect.poll(() => ignored.isClosed()).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: /管理计划查询/ }).getAttribute('class')).not.toContain('ant-btn-loading');
    expect(await page.locator('.ant-message').getByText('企业不存在').count()).toBe(0);
    await page.unroute('**/api/guFeiUrl/getTokenByCompayCode**');

    await leave.getByRole('button', { name: '查看更多' }).click();
    await page.waitForURL((u) => u.pathname === '/message/vBuild/temp/97');
    expect(errors).toEqual([]);
  });

  it('system information: carousel, the 系统通知 dialog with sanitised HTML marks read, then 暂无未读系统消息', async () => {
    const admin = await server.login('admin');
    const disposer = await server.login('disposer');
    // Start from no unread message, then send one carrying markup that must not run.
    expect((await disposer.get('/api/sysMessage/readAll')).status).toBe(200);
    const sent = await admin.post('/api/sysMessage', {
      // Titles may carry markup too: the block shows their text.
      title: '<p>危废贮存检查通知</p>',
      content: '<p>请于周五前完成<b>贮存场所</b>自查。</p><img src="x" onerror="window.__xss=1"><script>window.__xss=2</script>',
      usernames: ['disposer'],
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);

    const { page, errors } = await open('disposer');
    const info = await block(page, 'dash-system-info');
    expect(await info.locator('.wg-vertical-carousel').getAttribute('data-interval')).toBe('5000');
    const item = info.getByRole('button', { name: /危废贮存检查通知/ });
    expect(await item.innerText()).not.toContain('<p>');
    await item.click();
    const dialog = page.getByRole('dialog', { name: '系统通知' });
    await dialog.getByText('贮存场所').waitFor();
    expect(await dialog.locator('h5').innerText()).toBe('危废贮存检查通知');
    // Measured once the opening animation is over.
    await expect.poll(() => dialog.evaluate((e) => (e.closest('.ant-modal') ?? e).getBoundingClientRect().width)).toBe(850);
    expect(await dialog.locator('.wg-sys-message-content script').count()).toBe(0);
    expect(await dialog.locator('.wg-sys-message-content img').getAttribute('onerror')).toBeNull();
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    await expect.poll(async () => (await disposer.get('/api/sysMessage/getUnreadNum')).body.data.sysNum).toBe(0);
    await page.locator('.ant-modal-close').click();
    await info.getByText('暂无未读系统消息').waitFor();
    await info.getByRole('button', { name: '查看更多' }).click();
    await page.waitForURL((u) => u.pathname === '/message/systemMessage');
    expect(errors).toEqual([]);
  });

  it('admin gets the full dashboard over every company', async () => {
    const { page, api } = await open('admin');
    await expect.poll(() => page.locator('.wg-dashboard').getAttribute('data-kind')).toBe('full');
    const inv = await figure(api, '/api/inventoryInfo');
    await block(page, 'dash-inventory');
    expect(await tileValue(page, 'inventory-total')).toBe(`${tons(inv.inventoryTotal)}吨`);
  });

  it('stock-in rule: 2.5 t entered in 危废入库, the dashboard reloaded with isRefresh=1 shows 2.5 more', async () => {
    const { page, api } = await open('producer');
    await block(page, 'dash-inventory');
    const before = await figure(api, '/api/inventoryInfo');
    expect(await tileValue(page, 'inventory-total')).toBe(`${tons(before.inventoryTotal)}吨`);
    // A cached figure (isRefresh=0) is there now for the next load to answer.
    const warehouses = (await api.get('/api/companyWarehouse/list')).body.content as { id: number }[];
    const added = await api.post('/api/general/add/12', {
      stockNo: `RK${String(Date.now()).slice(-12)}`,
      wasteCategory: 'HW08',
      wasteCode: '900-249-08',
      wasteName: '废矿物油',
      quantity: 2.5,
      packageType: '1',
      warehouseId: warehouses[0]!.id,
      inTime: new Date().toISOString().slice(0, 19).replace('T', ' '),
      handler: '王丽华',
      status: '0',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);

    await page.goto('/dashboard?isRefresh=1');
    await block(page, 'dash-inventory');
    const expected = Math.round((before.inventoryTotal + 2.5) * 1000) / 1000;
    expect(await tileValue(page, 'inventory-total')).toBe(`${tons(expected)}吨`);

    // 全部刷新 recomputes too: another 2.5 t shows without leaving the page.
    const again = await api.post('/api/general/add/12', {
      stockNo: `RK${String(Date.now() + 1).slice(-12)}`,
      wasteCategory: 'HW08',
      wasteCode: '900-249-08',
      wasteName: '废矿物油',
      quantity: 2.5,
      packageType: '1',
      warehouseId: warehouses[0]!.id,
      inTime: new Date().toISOString().slice(0, 19).replace('T', ' '),
      handler: '王丽华',
      status: '0',
    });
    expect(again.status).toBe(200);
    await page.getByRole('button', { name: '全部刷新' }).click();
    await expect.poll(() => tileValue(page, 'inventory-total')).toBe(`${tons(expected + 2.5)}吨`);
  });
});

describe('询价中 follows the warehouse', () => {
  it('an inquiry raised from a stock-in row (发起询价) counts in that stock’s warehouse', async () => {
    const { page, api } = await open('producer', '/dev-tools/temp/page/stockIn/12?status=1');
    const row = page.locator('.engine-row').first();
    await row.waitFor();
    const stockId = Number(await row.getAttribute('data-row-key'));
    const stock = (await api.get('/api/general/detail', { generalId: 12, id: stockId })).body as { warehouseId: number };
    const warehouse = ((await api.get('/api/companyWarehouse/list')).body.content as { id: number; name: string }[]).find(
      (x) => x.id === stock.warehouseId,
    );
    if (!warehouse) throw new Error(`stock-in ${stockId} is in no warehouse of the company`);
    const before = await figure(api, '/api/inventoryInfo', { warehouseId: warehouse.id });

    // 发起询价 opens the inquiries of the row; an inquiry added there names it as 来源入库单.
    await row.getByRole('button', { name: /更多/ }).click();
    const listed = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/general/list/15');
    await page.locator('.ant-dropdown:visible').getByText('发起询价').click();
    expect(new URL((await listed).url()).searchParams.get('stockId')).toBe(String(stockId));
    expect(page.url()).toContain(`/dev-tools/temp/page/disposalInquiry/15?stockId=${stockId}`);
    const added = await api.post('/api/general/add/15', {
      companyId: 2,
      stockId,
      wasteCategory: 'HW08',
      quantity: 3.5,
      inquiryStatus: '0',
      needTransport: '2',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);

    await page.goto('/dashboard?isRefresh=1');
    const inventory = await block(page, 'dash-inventory');
    await inventory.getByRole('combobox', { name: '仓库' }).click();
    await page.locator('.ant-select-item-option').filter({ hasText: warehouse.name }).click();
    const expected = Math.round((before.inquiringNum + 3.5) * 1000) / 1000;
    await expect.poll(() => tileValue(page, 'inventory-inquiring')).toBe(`${tons(expected)}吨`);
    expect(await tileValue(page, 'inventory-total')).toBe(`${tons(before.inventoryTotal)}吨`);
    // That is the warehouse's share: the company's inquiries from other warehouses are not in it.
    expect((await figure(api, '/api/inventoryInfo')).inquiringNum).toBeGreaterThan(expected);
  });
});

describe('other homes', () => {
  it('logistics: order figures, capacity counting up, monthly chart, orders per warehouse', async () => {
    const { page, api, errors } = await open('logistics');
    await expect.poll(() => page.locator('.wg-dashboard').getAttribute('data-kind')).toBe('logistics');
    const d = await figure(api, '/api/logisticsOrder/dashboard');
    const orders = await block(page, 'dash-logistics-orders');
    await orders.getByText('订单总数').waitFor();
    // The order states are named as the orderStatus dictionary the lists and the detail use.
    const states = (await api.get('/api/dictDetail', { dictName: 'orderStatus', page: 0, size: 9999 })).body.content as { label: string }[];
    expect(states.map((e) => e.label)).toEqual(['待确认', '执行中', '已完成', '已取消', '已驳回']);
    for (const { label } of states) await orders.getByText(label, { exact: true }).waitFor();
    expect(await orders.getByText(/待接单|运输中|已拒绝/).count()).toBe(0);
    // Freight is money: 2 decimals.
    await orders.getByText(money(d.yearFreight), { exact: true }).waitFor();
    expect(await orders.locator('.ant-statistic').first().locator('.ant-statistic-content').innerText()).toBe(String(d.total));

    const t = await figure(api, '/api/companyTransportInfo');
    expect(t.existingCount).toBeGreaterThan(0);
    await block(page, 'dash-capacity');
    await expect
      .poll(() => page.getByTestId('capacity-existing').locator('.wg-count-up').innerText(), { timeout: 8000 })
      .toBe(String(t.existingCount));
    await expect
      .poll(() => page.getByTestId('capacity-idle').locator('.wg-count-up').innerText(), { timeout: 8000 })
      .toBe(String(t.idleCount));

    const monthly = await block(page, 'dash-logistics-monthly');
    await monthly.locator('canvas').first().waitFor();

    const list = (await api.get('/api/logisticsOrder/byWarehouseId', { page: 0, size: 10 })).body;
    const byWarehouse = await block(page, 'dash-by-warehouse');
    await expect.poll(() => byWarehouse.locator('tbody tr.ant-table-row').count()).toBe(Math.min(10, list.content.length));
    // The picker offers the warehouses the carrier's orders load from; picking one lists its orders only.
    const [first] = (await api.get('/api/logisticsOrder/warehouses')).body.content as { id: number; name: string }[];
    if (!first) throw new Error('the carrier has no orders with a warehouse');
    const ofFirst = (await api.get('/api/logisticsOrder/byWarehouseId', { warehouseId: first.id, page: 0, size: 10 })).body;
    await byWarehouse.locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: first.name }).first().click();
    await expect.poll(() => byWarehouse.locator('.ant-pagination-total-text').innerText()).toBe(`共 ${ofFirst.totalElements} 条`);
    const names = await byWarehouse.locator('tbody tr.ant-table-row td:nth-child(4)').allInnerTexts();
    expect(names.length).toBe(Math.min(10, ofFirst.content.length));
    expect(names.every((n) => n === first.name)).toBe(true);
    expect(await page.getByTestId('dash-inventory').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('collection point: inventory and its warehouses with their categories', async () => {
    const { page, api, errors } = await open('collector');
    await expect.poll(() => page.locator('.wg-dashboard').getAttribute('data-kind')).toBe('collectionPoint');
    const inv = await figure(api, '/api/inventoryInfo');
    await block(page, 'dash-inventory');
    expect(await tileValue(page, 'inventory-total')).toBe(`${tons(inv.inventoryTotal)}吨`);
    const w = await figure<{ content: { name: string; inventory: number }[] }>(api, '/api/companyWarehouse/warehouse');
    const warehouses = await block(page, 'dash-warehouses');
    expect(w.content.length).toBeGreaterThan(0);
    const row = warehouses.locator('tr.ant-table-row').filter({ hasText: w.content[0]!.name });
    await row.getByText(tons(w.content[0]!.inventory)).first().waitFor();
    await row.locator('.ant-table-row-expand-icon').click();
    await warehouses
      .locator('.ant-table-expanded-row')
      .getByText(/危废类别|该仓库暂无库存/)
      .first()
      .waitFor();
    expect(await page.getByTestId('dash-finance').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('supervisor: summary, cost, pies, to-do and statistics against their targets', async () => {
    const { page, api, errors } = await open('supervisor');
    await expect.poll(() => page.locator('.wg-dashboard').getAttribute('data-kind')).toBe('supervisor');
    const base = '/api/companyApi/homePage';
    const s = await figure(api, `${base}/dataSummary`);
    const summary = await block(page, 'dash-summary');
    expect(await tileValue(page, 'summary-micro')).toBe(`${s.microCompanyCount}家`);
    expect(await tileValue(page, 'summary-server')).toBe(`${s.yearServerCount}次`);
    expect(await tileValue(page, 'summary-contract')).toBe(`${s.yearContractCount}份`);
    expect(await tileValue(page, 'summary-transshipment')).toBe(`${s.yearTransshipmentCount}次`);
    await expect.poll(() => summary.locator('.wg-computed-at').innerText()).toMatch(/^更新于 \d{4}-/);

    const c = await figure(api, `${base}/contractSummary`);
    const contractPie = await block(page, 'dash-contract-pie');
    await contractPie.getByText(`已签约 ${c.haveContractCompanyCount} 家`).waitFor();
    await contractPie.getByText(`未签约 ${c.unContractCompanyCount} 家`).waitFor();
    if (c.totalContractCompanyCount > 0) await contractPie.locator('canvas').first().waitFor();
    const sv = await figure(api, `${base}/serverSummary`);
    const serverPie = await block(page, 'dash-server-pie');
    await serverPie.getByText(`已服务 ${sv.haveServerCompanyCount} 家`).waitFor();

    const todo = await figure(api, `${base}/toDoData`);
    const todoBlock = await block(page, 'dash-todo');
    await todoBlock.getByText('待审核入驻申请').waitFor();
    const item = todoBlock.locator('.ant-list-item').filter({ hasText: '未完成转运' });
    expect(await item.innerText()).toContain(String(todo.unFinishTransshipmentCount));

    const cost = await figure(api, `${base}/costInfo`);
    const costBlock = await block(page, 'dash-cost');
    // Amounts in 2 decimals, prices per ton as cost figures in 3.
    await costBlock
      .getByText(`${money(cost.disposalAmount)}`)
      .first()
      .waitFor();
    await costBlock
      .getByText(`${yuan(cost.avgDisposalPrice)}`)
      .first()
      .waitFor();

    const st = await figure<Record<string, number | null>>(api, `${base}/statistics`);
    await block(page, 'dash-statistics');
    const producers = page.getByTestId('statistic-allCompany');
    expect(await producers.locator('.ant-statistic-content').innerText()).toBe(`${st.allCompany}家`);
    expect(await producers.locator('.ant-progress-indicator').innerText()).toBe(`${st.allCompanyProgress}%`);

    // A refresh recomputes: a changed target shows in the progress.
    expect((await api.put(`${base}/target`, { name: 'allCompany', value: 100 })).status).toBe(200);
    await page.getByTestId('dash-statistics').getByRole('button', { name: /刷新/ }).click();
    const progress = Math.round(((st.allCompany as number) / 100) * 100 * 100) / 100;
    await expect.poll(() => producers.locator('.ant-progress-indicator').innerText()).toBe(`${progress}%`);
    expect(await page.getByTestId('dash-inventory').count()).toBe(0);

    // The tiles and pie legends open their named routes' pages, whose totals are the figures.
    const listed = async (count: number) => {
      if (count > 0) await page.getByText(`共 ${count} 家`).waitFor();
      else await page.getByText('暂无符合条件的企业').waitFor();
    };
    await page.getByTestId('summary-micro').click();
    await page.waitForURL((u) => u.pathname === '/supervision/summaryPage');
    await listed(s.microCompanyCount);
    await page.goto('/dashboard');
    await (await block(page, 'dash-contract-pie')).getByRole('button', { name: `已签约 ${c.haveContractCompanyCount} 家` }).click();
    await page.waitForURL((u) => u.pathname === '/supervision/companyMange' && u.searchParams.get('haveYearCount') === '1');
    await listed(c.haveContractCompanyCount);
    await page.goto('/dashboard');
    await (await block(page, 'dash-server-pie')).getByRole('button', { name: `未服务 ${sv.unServerCompanyCount} 家` }).click();
    await page.waitForURL((u) => u.pathname === '/supervision/companyMange' && u.searchParams.get('haveServerCount') === '0');
    await listed(sv.unServerCompanyCount);
    await page.goto('/dashboard');
    await block(page, 'dash-summary');
    // 本年服务 opens 服务监管 on the orders that count as services this year, in its search form and address.
    const served = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/general/list/19');
    await page.getByTestId('summary-server').click();
    await page.waitForURL((u) => u.pathname === '/dev-tools/temp/page/microServe/19' && u.searchParams.getAll('orderStatus').length === 3);
    const q = new URL((await served).url()).searchParams;
    expect(q.getAll('orderStatus').sort()).toEqual(['0', '1', '2']);
    expect(q.get('startTime')).toBe(`${new Date().getFullYear()}-01-01 00:00:00`);
    await page.locator('.engine-list-table').waitFor();
    expect(errors).toEqual([]);
  });
});

describe('accounts without data or rights', () => {
  it('a user without a company sees zeros; a refused block says why and the rest of the home stays', async () => {
    const { page, errors } = await open('guest');
    await expect.poll(() => page.locator('.wg-dashboard').getAttribute('data-kind')).toBe('full');
    await block(page, 'dash-inventory');
    expect(await tileValue(page, 'inventory-total')).toBe('0.000吨');
    await block(page, 'dash-finance');
    await expect.poll(() => page.getByTestId('finance-payable').locator('.ant-statistic-content').innerText()).toBe('0.000元');

    // The same account as a logistics operator: the orders-per-warehouse call needs a right it lacks.
    await server.ctx.db.updateTable('sys_user').set({ permission: 'logistics' }).where('username', '=', 'guest').execute();
    try {
      const again = await open('guest');
      await expect.poll(() => again.page.locator('.wg-dashboard').getAttribute('data-kind')).toBe('logistics');
      const refused = again.page.getByTestId('dash-by-warehouse');
      await expect.poll(() => refused.getAttribute('data-state'), { timeout: 15_000 }).toBe('error');
      await refused.locator('.ant-alert').waitFor();
      await block(again.page, 'dash-capacity');
      expect(new URL(again.page.url()).pathname).toBe('/dashboard');
      expect(again.errors).toEqual([]);
    } finally {
      await server.ctx.db.updateTable('sys_user').set({ permission: null }).where('username', '=', 'guest').execute();
    }
    expect(errors).toEqual([]);
  });
});

describe('entry site by host name', () => {
  it('the login page takes the label and colour of the host it is opened at', async () => {
    const port = new URL(server.url).port;
    const cases = [
      ['producer.localhost', 'producer', '产废企业端'],
      ['disposal.localhost', 'disposal', '处置企业端'],
      ['logistics.localhost', 'logistics', '物流企业端'],
      ['localhost', 'management', '管理端'],
    ] as const;
    const { page, errors } = await openPage(browser, server.url);
    for (const [host, kind, label] of cases) {
      await page.goto(`http://${host}:${port}/login`);
      await page.getByText('账号登录').waitFor();
      await expect.poll(() => page.locator('[data-site]').getAttribute('data-site')).toBe(kind);
      expect(await page.locator('.wg-site-label').innerText()).toBe(label);
      // The primary button takes the site's colour.
      const color = await page.getByRole('button', { name: /登\s*录/ }).evaluate((e) => getComputedStyle(e).backgroundColor);
      const hex = { producer: '#13A36B', disposal: '#E6782A', logistics: '#7A5AF8', management: '#2F6EFF' }[kind];
      const rgb = `rgb(${Number.parseInt(hex.slice(1, 3), 16)}, ${Number.parseInt(hex.slice(3, 5), 16)}, ${Number.parseInt(hex.slice(5, 7), 16)})`;
      expect(color).toBe(rgb);
    }
    expect(errors).toEqual([]);
  });
});
