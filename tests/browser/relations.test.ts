import { sql } from 'kysely';
import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, withAppAndBrowser } from '../helpers/browser.js';
import { button, dialog, isListCall, listPage, rows } from '../helpers/engine-page.js';
import type { TestServer } from '../helpers/server.js';

/**
 * Each relation action of the demo data, as the accounts that see it use it: the record it opens is
 * the one its row links (by id), shown read-only. 相关合同 and 查看仓库 open the linked record's look
 * dialog; 处置订单 opens the disposal-order list narrowed to the waybill's order, which says so and
 * offers the whole list back; 物流运单 and 出库记录 open the records that name the row. A linked record
 * the account may not see is not shown: the list says it found none.
 */

let server: TestServer;
let browser: Browser;
withAppAndBrowser((s, b) => {
  [server, browser] = [s, b];
});

async function open(username: string, path: string): Promise<{ page: Page; errors: string[] }> {
  const client = await server.login(username);
  const opened = await openPage(browser, server.url, { token: client.token });
  opened.page.setDefaultTimeout(30_000);
  await opened.page.goto(path);
  return opened;
}

async function one<T>(query: ReturnType<typeof sql<T>>): Promise<T> {
  const [row] = (await query.execute(server.ctx.db)).rows;
  expect(row).toBeDefined();
  return row as T;
}

/** Clicks a row's action, inline or under 更多. */
async function rowAction(page: Page, row: Locator, label: string): Promise<void> {
  const inline = row.getByRole('button', { name: label, exact: true });
  if (await inline.count()) return inline.click();
  await row.getByRole('button', { name: /更多/ }).click();
  await page.locator('.ant-dropdown:visible').getByText(label, { exact: true }).click();
}

/** The first row of the list that offers `label`, and its record id. */
async function firstRowWith(page: Page, viewId: number, label: string): Promise<{ row: Locator; id: number }> {
  const list = listPage(page, viewId);
  await rows(list).first().waitFor();
  const all = rows(list);
  for (let i = 0; i < (await all.count()); i++) {
    const row = all.nth(i);
    const labels = await row.locator('[data-action]').allInnerTexts();
    const more = await row.getByRole('button', { name: /更多/ }).count();
    if (labels.map((t) => t.trim()).includes(label) || more) {
      if (!labels.map((t) => t.trim()).includes(label)) {
        await row.getByRole('button', { name: /更多/ }).click();
        const has = await page.locator('.ant-dropdown:visible').getByText(label, { exact: true }).count();
        await page.keyboard.press('Escape');
        if (!has) continue;
      }
      return { row, id: Number(await row.getAttribute('data-row-key')) };
    }
  }
  throw new Error(`no row of view ${viewId} offers ${label}`);
}

/** The look dialog a relation opened: its field's value, shown read-only, and no confirm button. */
async function expectLooked(page: Page, title: string, label: string, value: string): Promise<void> {
  const d = dialog(page, title);
  const input = d.getByLabel(label, { exact: true });
  await expect.poll(() => input.inputValue()).toBe(value);
  expect(await input.getAttribute('readonly')).not.toBeNull();
  expect(await button(d, '确定').count()).toBe(0);
  await button(d.locator('.ant-modal-footer'), '关闭').click();
  await d.waitFor({ state: 'hidden' });
}

describe('relation actions open the record their row links', () => {
  it.each(['producer', 'disposer', 'supervisor'])('相关合同 opens the order’s own contract, read-only (%s)', async (username) => {
    const { page, errors } = await open(username, '/dev-tools/temp/page/disposalOrder/19');
    const { row, id } = await firstRowWith(page, 19, '相关合同');
    const expected = await one(sql<{ no: string }>`
      select c."contractNo" as no from lc_view_19 o join lc_view_16 c on c.id = o."contractId" where o.id = ${id}`);
    // The generic detail is read as the form's record (formData).
    const read = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/general/formData');
    await rowAction(page, row, '相关合同');
    expect(new URL((await read).url()).searchParams.get('generalId')).toBe('16');
    await expectLooked(page, '相关合同', '合同编号', expected.no);
    expect(errors).toEqual([]);
  });

  it.each(['producer', 'supervisor'])('查看仓库 opens the contract’s warehouse, read-only (%s)', async (username) => {
    const { page, errors } = await open(username, '/dev-tools/temp/page/contract/16');
    const { row, id } = await firstRowWith(page, 16, '查看仓库');
    const expected = await one(sql<{ name: string }>`
      select w.name from lc_view_16 c join lc_view_14 w on w.id = c."warehouseId" where c.id = ${id}`);
    await rowAction(page, row, '查看仓库');
    await expectLooked(page, '查看仓库', '仓库名称', expected.name);
    // No warehouse list, and nothing to add, edit or delete.
    expect(await page.locator('.engine-list-page[data-view-id="14"]').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('处置订单 opens the disposal-order list narrowed to the waybill’s order, read-only, and back to the whole list', async () => {
    const { page, errors } = await open('logistics', '/dev-tools/temp/page/logisticsOrder/20');
    const { row, id } = await firstRowWith(page, 20, '处置订单');
    const expected = await one(sql<{ orderId: number; orderNo: string }>`
      select o.id as "orderId", o."orderNo" from lc_view_20 l join lc_view_19 o on o.id = l."disposalOrderId" where l.id = ${id}`);
    const call = page.waitForRequest(isListCall(19));
    await rowAction(page, row, '处置订单');
    expect(new URL((await call).url()).searchParams.get('id')).toBe(String(expected.orderId));
    expect(new URL(page.url()).pathname).toBe('/dispose/vBuild/temp/30');
    expect(new URL(page.url()).searchParams.get('id')).toBe(String(expected.orderId));
    const list = listPage(page, 19);
    await list.locator('.engine-record-filter').getByText('仅显示关联的记录').waitFor();
    await expect.poll(() => rows(list).count()).toBe(1);
    expect(await rows(list).first().getAttribute('data-row-key')).toBe(String(expected.orderId));
    // A row just drawn shows its text from the next frame on (rows skip rendering until seen).
    await expect.poll(() => rows(list).first().innerText()).toContain(expected.orderNo);
    expect(await button(list, '新增').count()).toBe(0);
    expect(await list.locator('[data-action="edit"], [data-action="del"]').count()).toBe(0);
    // 查看全部: the whole list, as the menu opens it.
    const whole = page.waitForRequest(isListCall(19));
    await button(list, '查看全部').click();
    expect(new URL((await whole).url()).searchParams.has('id')).toBe(false);
    await list.locator('.engine-record-filter').waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('says a linked record the account may not see is not found, and shows none of it', async () => {
    const foreign = await one(sql<{ id: number; orderNo: string }>`
      select id, "orderNo" from lc_view_19 where "producerId" <> 1 and "disposerId" <> 1 and "carrierId" is distinct from 1 order by id limit 1`);
    const { page } = await open('producer', `/dispose/vBuild/temp/30?id=${foreign.id}`);
    const list = listPage(page, 19);
    await list.locator('.engine-record-filter').getByText('未找到关联的记录').waitFor();
    expect(await rows(list).count()).toBe(0);
    expect(await page.locator('body').innerText()).not.toContain(foreign.orderNo);
  });

  it('物流运单 opens the waybills of the order', async () => {
    // The order's row alone (its list narrowed by id keeps the buttons that only open something).
    const order = await one(sql<{ id: number }>`
      select id from lc_view_19 where "disposerId" = 2 and "orderStatus" = '1' order by id desc limit 1`);
    const { page } = await open('disposer', `/dev-tools/temp/page/disposalOrder/19?id=${order.id}`);
    const { row, id } = await firstRowWith(page, 19, '物流运单');
    expect(id).toBe(order.id);
    const waybills = page.waitForRequest(isListCall(20));
    await rowAction(page, row, '物流运单');
    expect(new URL((await waybills).url()).searchParams.get('disposalOrderId')).toBe(String(order.id));
  });

  it('出库记录 opens the stock-outs of the stock-in', async () => {
    const stock = await one(sql<{ id: number }>`select id from lc_view_12 where create_company = 1 order by id desc limit 1`);
    const { page } = await open('producer', `/dev-tools/temp/page/stockIn/12?id=${stock.id}`);
    const { row } = await firstRowWith(page, 12, '出库记录');
    const outs = page.waitForRequest(isListCall(13));
    await rowAction(page, row, '出库记录');
    expect(new URL((await outs).url()).searchParams.get('stockInId')).toBe(String(stock.id));
  });
});
