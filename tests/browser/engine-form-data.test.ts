import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startAppServer } from '../helpers/browser.js';
import { rowAction } from '../helpers/engine-page.js';
import type { ApiClient, TestServer } from '../helpers/server.js';

// View 20 (物流订单) redesigned after the build, so both pages draw it at run time: a long
// dictionary trigger whose showRelation shows a show 2 field, one submit URL for the form, no
// detailUrl (the form reads formData), and initial values (the full page asks dynamicQuery).

const FORM_PATH = '/screen/vBuild/temp/25';
const LIST_PATH = '/dev-tools/temp/page/logisticsOrder/20';

let server: TestServer;
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchBrowser()]);
  admin = await server.login('admin');
  const detail = (await admin.get('/api/generation/detail', { id: 20 })).body;
  const template = JSON.parse(detail.disTemplate);
  const add = (name: string, chName: string, dataType: string, sort: number, configure: Record<string, unknown>) =>
    template.formOption.push({ name, chName, dataType, linked: false, configure: { show: 1, sort, ...configure } });
  add('carType', '危化品车辆', 'long', 14, { dict: 'yesOrNo', showRelation: { item: 'permitNo', value: 1 } });
  add('permitNo', '危运许可证号', 'varchar', 15, { show: 2, required: true });
  template.dialogOption = { ...template.dialogOption, submitUrl: '/api/general/add/20', detailUrl: '', initGroovy: true };
  expect((await admin.post('/api/generation/design', { id: 20, disTemplate: JSON.stringify(template) })).status).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const openDropdown = (page: Page) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');

async function choose(page: Page, field: ReturnType<Page['locator']>, label: string) {
  await field.locator('.ant-select').click();
  const option = openDropdown(page).locator('.ant-select-item-option', { hasText: label });
  await option.click();
  await option.waitFor({ state: 'hidden' });
}

const pathIs = (path: string) => (r: Request) => new URL(r.url()).pathname === path;

describe('a showRelation on a long dictionary select', () => {
  it('shows its show 2 field on the full-page form while 是 is chosen, and starts from dynamicQuery', async () => {
    const { page, errors } = await openPage(browser, server.url, { token: admin.token });
    const initial = page.waitForRequest(pathIs('/api/general/dynamicQuery'));
    await page.goto(`${FORM_PATH}?weight=12.5`);
    const query = new URL((await initial).url()).searchParams;
    expect(Object.fromEntries(query)).toEqual({ weight: '12.5', generalId: '20' });
    const field = (name: string) => page.locator(`[data-page-kind="form"] [data-field="${name}"]`);
    await field('waybillNo').locator('input').waitFor();
    await expect.poll(() => field('weight').locator('input').inputValue()).toBe('12.500');

    expect(await field('permitNo').count()).toBe(0);
    await choose(page, field('carType'), '是');
    await field('permitNo').locator('input').waitFor();
    await page.getByRole('button', { name: '提 交' }).click();
    await expect.poll(() => field('permitNo').locator('.ant-form-item-explain-error').textContent()).toBe('请输入危运许可证号');
    await choose(page, field('carType'), '否');
    await field('permitNo').waitFor({ state: 'detached' });
    await choose(page, field('carType'), '是');
    await field('permitNo').locator('input').fill('XK-2026-01');
    await expect.poll(() => field('permitNo').locator('.ant-form-item-explain-error').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('in the list dialog: hidden until 是, posts to the submit URL with generalId, says 操作成功, and reads formData', async () => {
    const { page, errors } = await openPage(browser, server.url, { token: admin.token });
    await page.goto(LIST_PATH);
    await page.locator('.engine-list-page[data-view-id="20"][data-loading="false"]').waitFor();

    // Look at a row: the form reads the record with formData.
    const read = page.waitForRequest(pathIs('/api/general/formData'));
    await page.locator('.engine-list-table .engine-row').first().getByRole('button', { name: '查看' }).click();
    const params = new URL((await read).url()).searchParams;
    expect(params.get('generalId')).toBe('20');
    expect(Number(params.get('id'))).toBeGreaterThan(0);
    expect((await (await read).response())?.status()).toBe(200);
    const look = page.getByRole('dialog').filter({ hasText: '查看' });
    await look.locator('[data-field="waybillNo"]').waitFor();
    expect(await look.locator('[data-field="permitNo"]').count()).toBe(0);
    await page.keyboard.press('Escape');
    await look.waitFor({ state: 'hidden' });

    // A record whose trigger is 1 shows the field, read-only, in the look dialog.
    const id = (await admin.post('/api/general/add/20', await validRecord('WL209911110001', { carType: 1, permitNo: 'XK-9' }))).body.id;
    expect(id).toBeGreaterThan(0);
    await page.goto(LIST_PATH);
    await page.locator('.engine-list-page[data-view-id="20"][data-loading="false"]').waitFor();
    const row = page.locator('.engine-list-table .engine-row', { hasText: 'WL209911110001' });
    await row.getByRole('button', { name: '查看' }).click();
    const look2 = page.getByRole('dialog').filter({ hasText: '查看' });
    await expect.poll(() => look2.locator('[data-field="permitNo"] input').inputValue()).toBe('XK-9');
    expect(await look2.locator('[data-field="permitNo"] input').getAttribute('readonly')).not.toBeNull();
    await page.keyboard.press('Escape');
    await look2.waitFor({ state: 'hidden' });

    // Edit posts to the view's one submit URL, with generalId, and says 操作成功.
    await rowAction(row, '编辑');
    const edit = page.getByRole('dialog').filter({ hasText: '编辑' });
    await expect.poll(() => edit.locator('[data-field="permitNo"] input').inputValue()).toBe('XK-9');
    await edit.locator('[data-field="permitNo"] input').fill('');
    await edit.getByRole('button', { name: /确\s*定/ }).click();
    await expect.poll(() => edit.locator('[data-field="permitNo"] .ant-form-item-explain-error').textContent()).toBe('请输入危运许可证号');
    await edit.locator('[data-field="permitNo"] input').fill('XK-10');
    const posted = page.waitForRequest((r) => pathIs('/api/general/add/20')(r) && r.method() === 'POST');
    await edit.getByRole('button', { name: /确\s*定/ }).click();
    expect((await posted).postDataJSON()).toMatchObject({ generalId: 20, id, carType: '1', permitNo: 'XK-10' });
    await page.locator('.ant-message').getByText('操作成功').waitFor();
    // The record changed in place: one row with its number, no copy.
    await expect.poll(() => page.locator('.engine-list-table .engine-row', { hasText: 'WL209911110001' }).count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });
});

/** A logistics order the server accepts, from a stored one with a new waybill number. */
async function validRecord(waybillNo: string, extra: Record<string, unknown>): Promise<Record<string, unknown>> {
  const list = (await admin.get('/api/general/list/20', { page: 0, size: 1 })).body.content[0];
  const { id: _, createTime: _c, updateTime: _u, createBy: _b, ...rest } = list;
  return { ...rest, waybillNo, ...extra };
}
