import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startAppServer } from '../helpers/browser.js';
import type { ApiClient, TestServer } from '../helpers/server.js';

// The full-page form (screen 25 → form view 20, 物流订单) in the built app against the real server:
// messages from the view's schema, the field kinds, the upload rules, and submits that work and fail.
// Drawn by the engine at the generic screen address: the logistics menu's own address for screen 25
// shows the read-only order detail instead.

const FORM_PATH = '/screen/vBuild/temp/25';

let server: TestServer;
let browser: Browser;
let admin: ApiClient;

/** A 1×1 PNG: real magic bytes, so the server accepts it. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082',
  'hex',
);

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchBrowser()]);
  admin = await server.login('admin');
  // The view as published after the build: one more field, with a named validator. The full-page
  // form reads the definition at run time, so it shows up without a rebuild.
  const detail = (await admin.get('/api/generation/detail', { id: 20 })).body;
  const template = JSON.parse(detail.disTemplate);
  const added = (name: string, chName: string, dataType: string, sort: number, configure: Record<string, unknown>) =>
    template.formOption.push({ name, chName, dataType, linked: false, configure: { show: 1, sort, ...configure } });
  added('contactPhone', '联系电话', 'varchar', 6.5, { validator: 'mobile', tips: '司机手机号' });
  added('pieces', '件数', 'long', 13, { min: 1 });
  added('urgent', '是否加急', 'varchar', 14, { dict: 'yesOrNo', showRelation: { item: ['urgentReason'], value: '1' } });
  added('urgentReason', '加急原因', 'varchar', 15, { required: true, textarea: true, rows: 2 });
  added('auditor', '审核人', 'varchar', 16, { show: 3, defaultValue: '系统' });
  added('internalNote', '内部备注', 'varchar', 17, { show: 4 });
  added('notes', '说明', 'varchar', 18, { editor: true });
  const designed = await admin.post('/api/generation/design', { id: 20, disTemplate: JSON.stringify(template) });
  expect(designed.status).toBe(200);
  // Waybill numbers of this test are unique, so that a second submit of the same one is refused.
  await server.ctx.db.schema
    .createIndex('lc_view_20_test_waybill')
    .unique()
    .on('lc_view_20')
    .column('waybillNo')
    .where((eb) => eb('waybillNo', 'like', 'WL2099%'))
    .execute();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openForm(): Promise<{ page: Page; dictCalls: string[]; errors: string[] }> {
  const { page, errors } = await openPage(browser, server.url, { token: admin.token });
  const dictCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/dictDetail')) dictCalls.push(r.url());
  });
  await page.goto(FORM_PATH);
  await page.locator('[data-page-kind="form"] [data-field="waybillNo"] input').waitFor();
  return { page, dictCalls, errors };
}

const field = (page: Page, name: string) => page.locator(`[data-page-kind="form"] [data-field="${name}"]`);
const explain = (page: Page, name: string) => field(page, name).locator('.ant-form-item-explain-error');
const openDropdown = (page: Page) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');

async function pickFirst(page: Page, name: string): Promise<string> {
  await field(page, name).locator('.ant-select').click();
  const option = openDropdown(page).locator('.ant-select-item-option').first();
  await option.waitFor();
  const label = (await option.getAttribute('title')) ?? '';
  await option.click();
  await option.waitFor({ state: 'hidden' });
  return label;
}

async function pickCity(page: Page) {
  await field(page, 'fromRegion').locator('.ant-select').click();
  for (const name of ['上海市', '市辖区', '黄浦区']) await page.locator('.ant-cascader-menu-item', { hasText: name }).first().click();
}

async function fillValid(page: Page, waybillNo: string) {
  await field(page, 'waybillNo').locator('input').fill(waybillNo);
  await pickFirst(page, 'disposalOrderId');
  await pickFirst(page, 'vehicleId');
  await pickCity(page);
  await field(page, 'fromAddress').locator('input').fill('  上海市黄浦区中山东一路1号  ');
  await field(page, 'toAddress').locator('input').fill('江苏省南京市玄武区处置中心');
  await field(page, 'contactPhone').locator('input').fill('13800138000');
  await field(page, 'weight').locator('input').fill('12.5');
  await field(page, 'freight').locator('input').fill('3000.25');
  const loadTime = field(page, 'loadTime').locator('input');
  await loadTime.click();
  await loadTime.fill('2026-03-01 08:30:00');
  await loadTime.press('Enter');
}

async function findRecord(waybillNo: string) {
  const list = await admin.get('/api/general/list/20', { waybillNo, page: 0, size: 10 });
  expect(list.status).toBe(200);
  return list.body.content.find((r: { waybillNo: string }) => r.waybillNo === waybillNo);
}

describe('full-page form (screen 25, view 20)', () => {
  it('validates with the schema messages, renders every kind and submits a record', async () => {
    const { page, dictCalls, errors } = await openForm();
    expect(await page.getByText('物流详情').first().isVisible()).toBe(true);
    // Divider and tips from the model.
    expect(await page.locator('.ant-divider', { hasText: '线路' }).count()).toBe(1);
    expect(await field(page, 'contactPhone').getByText('司机手机号').isVisible()).toBe(true);

    // Pattern and named validator report on blur.
    await field(page, 'waybillNo').locator('input').fill('WL12');
    await field(page, 'waybillNo').locator('input').blur();
    await expect.poll(() => explain(page, 'waybillNo').textContent()).toBe('运单号格式不正确，应为WL（12位数字）');
    const phone = field(page, 'contactPhone').locator('input');
    await phone.fill('12345');
    expect(await explain(page, 'contactPhone').count()).toBe(0);
    await phone.blur();
    await expect.poll(() => explain(page, 'contactPhone').textContent()).toBe('手机号格式错误');

    // Required messages on submit.
    await field(page, 'waybillNo').locator('input').fill('');
    await page.getByRole('button', { name: '提 交' }).click();
    for (const [name, message] of [
      ['disposalOrderId', '请选择处置订单'],
      ['fromRegion', '请选择起运地区'],
      ['weight', '请输入运输重量'],
    ] as const)
      await expect.poll(() => explain(page, name).textContent()).toBe(message);
    // A document number left empty is the server's to assign.
    expect(await explain(page, 'waybillNo').count()).toBe(0);

    // A decimal with more digits than the model allows is refused, not rounded.
    const weight = field(page, 'weight').locator('input');
    await weight.fill('1.23456');
    await weight.blur();
    await expect.poll(() => explain(page, 'weight').textContent()).toBe('运输重量最多保留3位小数');
    expect(await weight.inputValue()).toBe('1.23456');

    // Dict select: the default value's label, and the other entries; one batched dictionary call.
    expect(await field(page, 'orderStatus').locator('.ant-select').textContent()).toContain('待确认');
    await field(page, 'orderStatus').locator('.ant-select').click();
    const done = openDropdown(page).locator('.ant-select-item-option', { hasText: '已完成' });
    await done.click();
    await done.waitFor({ state: 'hidden' });
    expect(await field(page, 'orderStatus').locator('.ant-select').textContent()).toContain('已完成');
    expect(dictCalls.length).toBe(1);
    expect(dictCalls[0]).toContain('/api/dictDetail/map');

    // Upload: a type outside the field's list is refused with the 允许上传 message; a PNG goes up.
    const upload = field(page, 'receiptPhotos').locator('input[type="file"]');
    await upload.setInputFiles({ name: 'receipt.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 test') });
    await page.locator('.ant-message').getByText('允许上传 jpg、png').waitFor();
    await upload.setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PNG });
    await field(page, 'receiptPhotos').locator('.ant-upload-list-item-done, .ant-upload-list-item-container').first().waitFor();

    // show 3 is drawn read-only, show 4 not at all; a showRelation target appears with its trigger and is then required.
    expect(await field(page, 'auditor').locator('input').getAttribute('readonly')).not.toBeNull();
    expect(await field(page, 'internalNote').count()).toBe(0);
    expect(await field(page, 'urgentReason').count()).toBe(0);
    await field(page, 'urgent').locator('.ant-select').click();
    const yes = openDropdown(page).locator('.ant-select-item-option', { hasText: '是' });
    await yes.click();
    await yes.waitFor({ state: 'hidden' });
    await field(page, 'urgentReason').locator('textarea').waitFor();
    await page.getByRole('button', { name: '提 交' }).click();
    await expect.poll(() => explain(page, 'urgentReason').textContent()).toBe('请输入加急原因');
    await field(page, 'urgentReason').locator('textarea').fill('危废暂存将满');
    // The rich-text editor loads on demand.
    const editor = field(page, 'notes').getByRole('textbox');
    await editor.click();
    await page.keyboard.type('轻装轻卸');
    await field(page, 'pieces').locator('input').fill('3');

    // A valid form goes through: 操作成功, and the record is there.
    const waybillNo = 'WL209900000001';
    await fillValid(page, waybillNo);
    await field(page, 'fromAddress').locator('input').blur();
    expect(await field(page, 'fromAddress').locator('input').inputValue()).toBe('上海市黄浦区中山东一路1号');
    expect(await page.locator('.ant-form-item-explain-error').count()).toBe(0);
    const submitted = page.waitForRequest((r) => r.url().includes('/api/general/add/20') && r.method() === 'POST');
    await page.getByRole('button', { name: '提 交' }).click();
    const body = (await submitted).postDataJSON();
    await page.locator('.ant-message').getByText('操作成功').waitFor();
    // Then the page closes its tab, a second later: the tag beside it (首页 here) is shown.
    const formTag = page.locator(`.wg-tags .wg-tag[data-path="${FORM_PATH}"]`);
    expect(await formTag.count()).toBe(1);
    await page.waitForURL((u) => u.pathname === '/abandonhome');
    expect(await formTag.count()).toBe(0);
    expect(body).toMatchObject({
      waybillNo,
      fromRegion: '310000,310100,310101',
      fromRegionFmt: '上海市/市辖区/黄浦区',
      weight: 12.5,
      freight: 3000.25,
      orderStatus: '2',
      loadTime: '2026-03-01 08:30:00',
      arriveTime: null,
      contactPhone: '13800138000',
      pieces: 3,
      urgent: '1',
      urgentReason: '危废暂存将满',
    });
    expect(body.notes).toContain('轻装轻卸');
    expect(body).not.toHaveProperty('auditor');
    expect(body).not.toHaveProperty('internalNote');
    expect(JSON.parse(body.receiptPhotos)).toEqual([expect.objectContaining({ fileName: 'receipt.png', columnName: 'receiptPhotos' })]);
    const record = await findRecord(waybillNo);
    expect(record).toMatchObject({ fromRegion: '310000,310100,310101', orderStatus: '2', loadTime: '2026-03-01 08:30:00' });
    expect(Number(record.weight)).toBe(12.5);

    // ?id= opens the record for editing: values loaded, editLock read-only, the key sent back.
    await page.goto(`${FORM_PATH}?id=${record.id}`);
    await field(page, 'waybillNo').locator('input').waitFor();
    await expect.poll(() => field(page, 'waybillNo').locator('input').inputValue()).toBe(waybillNo);
    expect(await field(page, 'waybillNo').locator('input').getAttribute('readonly')).not.toBeNull();
    expect(await field(page, 'fromRegion').textContent()).toContain('黄浦区');
    expect(await field(page, 'orderStatus').textContent()).toContain('已完成');
    expect(await field(page, 'loadTime').locator('input').inputValue()).toBe('2026-03-01 08:30:00');
    await field(page, 'toAddress').locator('input').fill('浙江省杭州市处置中心');
    const updated = page.waitForRequest((r) => r.url().includes('/api/general/update/20'));
    await page.getByRole('button', { name: '提 交' }).click();
    expect((await updated).postDataJSON()).toMatchObject({ id: record.id, toAddress: '浙江省杭州市处置中心' });
    await page.locator('.ant-message').getByText('操作成功').waitFor();
    await expect.poll(async () => (await findRecord(waybillNo))?.toAddress).toBe('浙江省杭州市处置中心');
    expect(errors).toEqual([]);
  });

  it('keeps every typed value when the server refuses the submit', async () => {
    const waybillNo = 'WL209900000002';
    const first = await admin.post('/api/general/add/20', {
      waybillNo,
      disposalOrderId: 1,
      vehicleId: 1,
      fromRegion: '310000,310100,310101',
      fromRegionFmt: '上海市/市辖区/黄浦区',
      fromAddress: 'a',
      toAddress: 'b',
      weight: 1,
    });
    expect(first.status).toBe(200);
    const { page } = await openForm();
    await fillValid(page, waybillNo);
    const answer = page.waitForResponse((r) => r.url().includes('/api/general/add/20'));
    await page.getByRole('button', { name: '提 交' }).click();
    expect((await answer).status()).toBeGreaterThanOrEqual(400);
    await page.locator('.ant-message-error').first().waitFor();
    // Still on the form, every value as typed, and editable.
    expect(new URL(page.url()).pathname).toBe(FORM_PATH);
    expect(await field(page, 'waybillNo').locator('input').inputValue()).toBe(waybillNo);
    // The input shows the model's 3 decimals.
    expect(await field(page, 'weight').locator('input').inputValue()).toBe('12.500');
    expect(await field(page, 'contactPhone').locator('input').inputValue()).toBe('13800138000');
    expect(await field(page, 'fromRegion').textContent()).toContain('黄浦区');
    expect(await field(page, 'waybillNo').locator('input').isEditable()).toBe(true);
    expect(await page.getByRole('button', { name: '提 交' }).isEnabled()).toBe(true);
    expect((await admin.get('/api/general/list/20', { waybillNo })).body.totalElements).toBe(1);
  });

  it('shows the problems of a definition that fails validation, with their pointers', async () => {
    const { page } = await openPage(browser, server.url, { token: admin.token });
    await page.route('**/api/generation/detail?*', async (route) => {
      const response = await route.fetch();
      const view = await response.json();
      const template = JSON.parse(view.disTemplate);
      template.formOption[0].configure.min = 'abc';
      await route.fulfill({ response, json: { ...view, disTemplate: JSON.stringify(template) } });
    });
    await page.goto(FORM_PATH);
    await page.getByText('视图定义有误，无法显示').waitFor();
    const lines = await page.locator('[data-problems] li').allTextContents();
    expect(lines).toEqual([expect.stringMatching(/^\/disTemplate\/formOption\/0\/configure\/min: .*abc/)]);
  });
});
