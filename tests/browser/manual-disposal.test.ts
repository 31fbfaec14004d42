import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, withAppAndBrowser } from '../helpers/browser.js';
import { dialog, listPage, notice, rowAction } from '../helpers/engine-page.js';
import type { ApiClient, TestServer } from '../helpers/server.js';

/**
 * The manual disposal order on the disposal order page (screen 30) and the logistics detail (screen
 * 25), against the real server and the built app: 手工录入 only for those the server lets add, the
 * dialog's messages, the debounced company search, the contract's and the unloading point's copies,
 * the process cascade, the amount, and the saved order in the list and the dashboard's counter.
 */

const PAGE = '/dispose/vBuild/temp/30';
const DETAIL = '/logistics/vBuild/temp/25';
const ORDERS_VIEW = 19;
const PRODUCER = '苏州华瑞精细化工有限公司';
const TITLE = '新增手工处置单';
/** antd spaces the two characters of a button's label. */
const SUBMIT = /^提\s*交$/;
const CANCEL = /^取\s*消$/;

let server: TestServer;
let browser: Browser;
withAppAndBrowser((s, b) => {
  [server, browser] = [s, b];
});

async function open(client: ApiClient, path: string) {
  const opened = await openPage(browser, server.url, { token: client.token });
  opened.page.setDefaultTimeout(10_000);
  await opened.page.goto(path);
  await opened.page.locator('.wg-navbar').waitFor();
  return opened;
}

/** A form item of the dialog by its label. */
const item = (scope: Locator, label: string) =>
  scope.locator('.ant-form-item').filter({ has: scope.page().getByText(label, { exact: true }) });
const errorsOf = (scope: Locator) => scope.locator('.ant-form-item-explain-error');
const inputOf = (scope: Locator, label: string) => scope.getByLabel(label, { exact: true });

/** Opens a select of the dialog and picks the option whose text contains `text`. */
async function pick(page: Page, scope: Locator, label: string, text: string): Promise<void> {
  const input = inputOf(scope, label);
  const id = String(await input.getAttribute('id'));
  await input.click();
  const option = page
    .locator('.ant-select-dropdown', { has: page.locator(`[id="${id}_list"]`) })
    .locator('.ant-select-item-option')
    .filter({ hasText: text })
    .first();
  await option.click();
  await expect
    .poll(() => item(scope, label).locator('.ant-select-content, .ant-select-selection-item').first().innerText())
    .toContain(text);
}

/** The option texts a select of the dialog offers once opened (closed again after). */
async function optionsOf(page: Page, scope: Locator, label: string): Promise<string[]> {
  const input = inputOf(scope, label);
  const id = String(await input.getAttribute('id'));
  await input.click();
  const list = page.locator('.ant-select-dropdown', { has: page.locator(`[id="${id}_list"]`) }).locator('.ant-select-item-option');
  await list.first().waitFor();
  const texts = (await list.allInnerTexts()).map((t) => t.trim());
  await input.press('Escape');
  return texts;
}

describe('manual disposal order', () => {
  it('is added by hand with every copy, cascade and message, and appears in the list and the counters', async () => {
    const disposer = await server.login('disposer');
    const before = (await disposer.get('/api/produceOrderDashboard', { isRefresh: 1 })).body.ongoingDisposalOrder as number;
    const point = (await disposer.get('/api/companyWarehouse/unloadingPoint')).body.data[0];
    const contract = (await disposer.get('/api/disposalOrder/effectiveContract', { partyACompany: '1' })).body.data[0];
    expect(point && contract, 'the seed has an unloading point and a contract').toBeTruthy();

    const { page, errors } = await open(disposer, PAGE);
    const list = listPage(page, ORDERS_VIEW);
    await list.locator('.engine-row').first().waitFor();
    await list.getByRole('button', { name: '手工录入' }).click();
    const d = dialog(page, TITLE);
    await d.waitFor();

    // Nothing typed: each required field says what it needs; no prepayment asked for.
    await d.getByRole('button', { name: SUBMIT }).click();
    await expect
      .poll(() => errorsOf(d).allInnerTexts())
      .toEqual(['请选择处置类型', '请选择签约企业', '请输入危废代码', '请输入危废名称', '请输入数量', '请选择计量单位', '请输入单价']);
    expect(await d.getByText('预付金额（元）').count()).toBe(0);

    // needPrepay starts at 否; 是 asks for the prepayment, 否 takes the field away again.
    expect(await d.getByLabel('否').isChecked()).toBe(true);
    await d.getByLabel('是').check();
    await d.getByRole('button', { name: SUBMIT }).click();
    await expect.poll(() => item(d, '预付金额（元）').locator('.ant-form-item-explain-error').innerText()).toBe('请输入预付金额');
    await d.getByLabel('否').check();
    await expect.poll(() => d.getByText('预付金额（元）').count()).toBe(0);
    // Closed with 是 chosen, the next opening starts at 否 again.
    await d.getByLabel('是').check();
    await d.getByRole('button', { name: /^取\s*消$/ }).click();
    await d.waitFor({ state: 'hidden' });
    await list.getByRole('button', { name: '手工录入' }).click();
    await d.waitFor();
    expect(await d.getByLabel('否').isChecked()).toBe(true);
    expect(await d.getByText('预付金额（元）').count()).toBe(0);

    // The company search asks the server once, 1000 ms after the last keystroke.
    const searches: { at: number; blurry: string | null }[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname === '/api/company/list') searches.push({ at: Date.now(), blurry: u.searchParams.get('blurry') });
    });
    const company = inputOf(d, '签约企业');
    await company.click();
    await company.pressSequentially('华瑞精细', { delay: 150 });
    const typed = Date.now();
    await expect.poll(() => searches.filter((s) => s.blurry === '华瑞精细').length, { timeout: 5000 }).toBe(1);
    const sent = searches.find((s) => s.blurry === '华瑞精细')!;
    expect(sent.at - typed).toBeGreaterThanOrEqual(900);
    expect(searches.filter((s) => s.blurry && s.blurry !== '华瑞精细')).toEqual([]);
    const found = page.locator('.ant-select-dropdown .ant-select-item-option').filter({ hasText: PRODUCER });
    await found.click();

    // The company's effective contracts; a contract copies party A.
    const contracts = await optionsOf(page, d, '合同');
    expect(contracts.some((t) => t.includes(contract.contractNo))).toBe(true);
    await pick(page, d, '合同', contract.contractNo);
    await expect.poll(() => inputOf(d, '甲方联系人').inputValue()).toBe(contract.partyAName);
    expect(await inputOf(d, '甲方联系电话').inputValue()).toBe(contract.partyAPhone);
    expect(await inputOf(d, '甲方详细地址').inputValue()).toBe(contract.partyAAddress);
    expect(await item(d, '甲方所在地区').innerText()).toContain(contract.partyARegionFmt.split('/').at(-1));

    // An unloading point copies party B.
    await pick(page, d, '卸货点', point.name);
    await expect.poll(() => inputOf(d, '乙方联系人').inputValue()).toBe(point.linkmanName);
    expect(await inputOf(d, '乙方联系电话').inputValue()).toBe(point.phone);
    expect(await inputOf(d, '乙方详细地址').inputValue()).toBe(point.address);

    // A wrong phone is refused with the form's message; an empty one is fine.
    await inputOf(d, '乙方联系电话').fill('12345678901');
    await d.getByRole('button', { name: SUBMIT }).click();
    await expect.poll(() => item(d, '乙方联系电话').locator('.ant-form-item-explain-error').innerText()).toBe('手机号格式错误');
    await inputOf(d, '乙方联系电话').fill('');

    // Process cascade: a sub-process picked first sets its parent; a process loads its sub-processes;
    // another process clears the picked one.
    const every = await optionsOf(page, d, '处置子方式');
    expect(every.some((t) => t.includes('D10-')) && every.some((t) => t.includes('D1-'))).toBe(true);
    await pick(page, d, '处置子方式', every.find((t) => t.includes('D9-'))!.split('（')[0]!);
    await expect
      .poll(() => item(d, '处置方式').locator('.ant-select-content, .ant-select-selection-item').first().innerText())
      .toContain('物化处理');
    await pick(page, d, '处置方式', '焚烧');
    const subs = await optionsOf(page, d, '处置子方式');
    expect(subs.length).toBeGreaterThan(0);
    expect(subs.every((t) => t.includes('D10-'))).toBe(true);
    await pick(page, d, '处置子方式', subs[0]!.split('（')[0]!);
    await pick(page, d, '处置方式', '填埋');
    await expect
      .poll(() => item(d, '处置子方式').locator('.ant-select-content, .ant-select-selection-item').first().innerText())
      .not.toContain(subs[0]!.split('（')[0]!);
    const landfill = await optionsOf(page, d, '处置子方式');
    expect(landfill.every((t) => t.includes('D1-'))).toBe(true);
    await pick(page, d, '处置子方式', landfill[0]!.split('（')[0]!);

    // The rest of the order; amount = price × quantity to 5 decimals, recomputed on each change.
    await pick(page, d, '处置类型', '焚烧处置');
    await inputOf(d, '危废代码').fill('900-249-08');
    await inputOf(d, '危废名称').fill('废矿物油');
    await inputOf(d, '数量').fill('12.345');
    await inputOf(d, '单价（元）').fill('2800.125');
    await inputOf(d, '单价（元）').press('Tab');
    await expect.poll(() => inputOf(d, '金额（元）').inputValue()).toBe('34567.54313');
    expect(await d.locator('[data-amount-text]').innerText()).toBe('34,567.54313 元');
    await inputOf(d, '数量').fill('2');
    await inputOf(d, '数量').press('Tab');
    await expect.poll(() => inputOf(d, '金额（元）').inputValue()).toBe('5600.25000');
    expect(await inputOf(d, '金额（元）').getAttribute('readonly')).not.toBeNull();
    await pick(page, d, '计量单位', '吨');

    // The server's refusal is its error toast, and nothing typed is lost.
    await inputOf(d, '危废代码').fill('999-999-99');
    await d.getByRole('button', { name: SUBMIT }).click();
    await notice(page, '危废代码不存在').waitFor();
    expect(await inputOf(d, '危废名称').inputValue()).toBe('废矿物油');
    expect(await inputOf(d, '乙方联系人').inputValue()).toBe(point.linkmanName);
    await inputOf(d, '危废代码').fill('900-249-08');
    // Leaving the field closes its suggestions, as a user tabbing on does.
    await inputOf(d, '危废代码').press('Tab');

    const submit = d.locator('.ant-modal-footer .ant-btn-primary');
    await expect.poll(() => submit.getAttribute('class')).not.toContain('ant-btn-loading');
    const saved = page.waitForResponse((r) => r.url().includes('/api/disposalOrder/insertManualDisposalOrder'));
    await submit.click();
    const answer = await (await saved).json();
    expect(answer.orderNo, JSON.stringify(answer)).toBeTruthy();
    await notice(page, '操作成功').waitFor();
    await d.waitFor({ state: 'hidden' });
    await expect.poll(() => list.locator('.engine-row').filter({ hasText: answer.orderNo }).count()).toBe(1);

    // Every field was kept, and the order counts on the dashboard.
    const kept = await server.ctx.db
      .selectFrom('disposal_order_manual')
      .select('payload')
      .where('record_id', '=', answer.id)
      .executeTakeFirstOrThrow();
    const payload = (typeof kept.payload === 'string' ? JSON.parse(kept.payload) : kept.payload) as Record<string, unknown>;
    expect(payload).toMatchObject({
      types: '1',
      needPrepay: 0,
      partyACompany: '1',
      partyACompanyName: PRODUCER,
      contractId: contract.id,
      contractNo: contract.contractNo,
      partyAName: contract.partyAName,
      partyAPhone: contract.partyAPhone,
      partyARegion: contract.partyARegion,
      partyAAddress: contract.partyAAddress,
      partyBWarehouseId: point.id,
      partyBName: point.linkmanName,
      partyBAddress: point.address,
      wasteCategoryCode: '900-249-08',
      wasteCategoryName: '废矿物油',
      quantity: 2,
      price: 2800.125,
      amount: 5600.25,
      unit: '吨',
      processIdFmt: '填埋',
    });
    expect(payload).not.toHaveProperty('partyBPhone');
    const after = (await disposer.get('/api/produceOrderDashboard', { isRefresh: 1 })).body.ongoingDisposalOrder as number;
    expect(after).toBe(before + 1);
    expect(errors).toEqual([]);
  });

  it('starts afresh after 取消 or ×, its messages gone too', async () => {
    const disposer = await server.login('disposer');
    const { page } = await open(disposer, PAGE);
    const list = listPage(page, ORDERS_VIEW);
    await list.getByRole('button', { name: '手工录入' }).click();
    const d = dialog(page, TITLE);
    await d.waitFor();
    await pick(page, d, '签约企业', PRODUCER);
    await inputOf(d, '危废名称').fill('废乳化液');
    await inputOf(d, '数量').fill('2');
    await d.getByRole('button', { name: SUBMIT }).click();
    await expect.poll(() => errorsOf(d).count()).toBeGreaterThan(0);
    await d.getByRole('button', { name: CANCEL }).click();
    await d.waitFor({ state: 'hidden' });
    await list.getByRole('button', { name: '手工录入' }).click();
    await d.waitFor();
    expect(await inputOf(d, '危废名称').inputValue()).toBe('');
    expect(await inputOf(d, '数量').inputValue()).toBe('');
    expect(await item(d, '签约企业').innerText()).not.toContain(PRODUCER);
    expect(await errorsOf(d).count()).toBe(0);

    // × clears as 取消 does.
    await inputOf(d, '危废名称').fill('废乳化液');
    await d.locator('.ant-modal-close').click();
    await d.waitFor({ state: 'hidden' });
    await list.getByRole('button', { name: '手工录入' }).click();
    await d.waitFor();
    expect(await inputOf(d, '危废名称').inputValue()).toBe('');
  });

  it('is not offered to a user the server does not let add orders', async () => {
    const producer = await server.login('producer');
    const opened = await openPage(browser, server.url, { token: producer.token });
    const answered = opened.page.waitForResponse((r) => r.url().includes('/api/disposalOrder/addBtnShow'));
    await opened.page.goto(PAGE);
    const list = listPage(opened.page, ORDERS_VIEW);
    await list.locator('.engine-list-toolbar').waitFor();
    expect((await (await answered).json()).addBtnShow).toBe(0);
    expect(await list.getByRole('button', { name: '刷新' }).count()).toBe(1);
    expect(await list.getByRole('button', { name: '手工录入' }).count()).toBe(0);
  });
});

describe('logistics detail', () => {
  it('shows one order, its parties and its transport, read only, to a read-only role', async () => {
    const supervisor = await server.login('supervisor');
    const id = 1;
    const [linkman, transport] = await Promise.all([
      supervisor.get('/api/logisticsOrder/getLogisticsLinkman', { id }),
      supervisor.get('/api/logisticsOrder/getTransportInfo', { id }),
    ]);
    expect(linkman.status).toBe(200);
    expect(transport.status).toBe(200);
    const { page, errors } = await open(supervisor, `${DETAIL}?id=${id}`);
    const detail = page.locator(`.logistics-detail[data-order-id="${id}"]`);
    await detail.waitFor();
    const text = await detail.innerText();
    expect(text).toContain(`运单 ${transport.body.waybillNo}`);
    expect(text).toContain(transport.body.orderStatusLabel);
    for (const party of [linkman.body.shipper, linkman.body.receiver]) if (party.companyName) expect(text).toContain(party.companyName);
    if (transport.body.disposalOrder?.orderNo) expect(text).toContain(transport.body.disposalOrder.orderNo);
    // The waste class by code and name, as its dictionary names it (HW49 其他废物).
    const category = transport.body.disposalOrder?.wasteCategory;
    if (category) {
      expect(transport.body.disposalOrder.wasteCategoryLabel).toMatch(new RegExp(`^${category} \\S`));
      expect(text).toContain(transport.body.disposalOrder.wasteCategoryLabel);
    }
    if (transport.body.vehicle?.plateNo) expect(text).toContain(transport.body.vehicle.plateNo);
    // Times are absolute, to the minute; an unfilled field is left out, never a dash.
    expect(transport.body.loadTime).toBeTruthy();
    expect(text).toContain(String(transport.body.loadTime).slice(0, 16));
    expect(text).not.toMatch(/刚刚|分钟前|小时前|天前/);
    // Freight is money: 2 decimals, as the logistics order list shows it.
    expect(transport.body.freight).not.toBeNull();
    const freight = Number(transport.body.freight).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    expect(text).toContain(`${freight} 元`);
    expect(
      await detail
        .locator('.ant-descriptions-item-content')
        .filter({ hasText: /^\s*-\s*$/ })
        .count(),
    ).toBe(0);
    // Read only: no field to type in, nothing to submit.
    expect(await detail.locator('input, textarea, .ant-select').count()).toBe(0);
    expect(await page.getByRole('button', { name: /提交|保存|确 定|确定/ }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('is opened from a row of the logistics order list', async () => {
    const supervisor = await server.login('supervisor');
    const { page } = await open(supervisor, '/dev-tools/temp/page/logisticsOrder/20');
    const row = listPage(page, 20).locator('.engine-row').first();
    await row.waitFor();
    const waybill = (await row.innerText()).match(/WL\d+/)?.[0];
    expect(waybill).toBeTruthy();
    await rowAction(row, '物流详情');
    await page.waitForURL((u) => u.pathname === DETAIL);
    await expect.poll(() => page.locator('.logistics-detail').innerText()).toContain(`运单 ${waybill}`);
  });

  it('says which order is missing instead of a blank page', async () => {
    const supervisor = await server.login('supervisor');
    const { page } = await open(supervisor, DETAIL);
    await page.getByText('请选择物流订单').waitFor();
    await page.goto(`${DETAIL}?id=999999`);
    await page.getByText('物流订单不存在').waitFor();
  });
});
