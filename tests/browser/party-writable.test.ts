import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, withAppAndBrowser } from '../helpers/browser.js';
import { button, dialog, listPage, rowAction, rows } from '../helpers/engine-page.js';
import { inquiryBody } from '../helpers/inquiry.js';
import { said } from '../helpers/refusal.js';
import type { TestServer } from '../helpers/server.js';

/**
 * The edit dialog of a record its user may change only some fields of: the asked disposer of a producer's
 * inquiry is told which fields it may change, and the others are disabled, keeping their values; once
 * the inquiry is closed the dialog only shows it.
 */

const VIEW = 15;

let server: TestServer;
let browser: Browser;
withAppAndBrowser((s, b) => {
  [server, browser] = [s, b];
});

describe("a party's edit dialog", () => {
  it("shows the asked disposer of a producer's inquiry what it may change, and locks the rest", async () => {
    const [producer, disposer] = await Promise.all([server.login('producer'), server.login('disposer')]);
    const added = await producer.post(`/api/general/add/${VIEW}`, inquiryBody({ quantity: 7, remark: '可写字段' }));
    expect(added.status, said(added)).toBe(200);
    const read = await producer.get('/api/general/formData', { generalId: VIEW, id: added.body.id });
    const inquiryNo = String(read.body.data.inquiryNo);

    const { page, errors } = await openPage(browser, server.url, { token: disposer.token });
    page.setDefaultTimeout(10_000);
    await page.goto(`/dev-tools/temp/page/disposalInquiry/${VIEW}?inquiryNo=${inquiryNo}`);
    const row = rows(listPage(page, VIEW)).filter({ hasText: inquiryNo });
    await row.waitFor();
    await rowAction(row, '编辑');

    const edit = dialog(page, '编辑');
    await expect.poll(() => edit.locator('.ant-alert').innerText()).toBe('您是该记录的相关方，只能修改：询价状态、报价单价、报价时间');
    const input = (label: string) => edit.getByLabel(label, { exact: true });
    for (const label of ['预计数量', '期望单价', '询价说明']) expect(await input(label).isDisabled(), label).toBe(true);
    expect(Number(await input('预计数量').inputValue())).toBe(7);
    expect(await input('询价说明').inputValue()).toBe('可写字段');
    expect(await input('询价状态').isDisabled()).toBe(false);
    expect(await button(edit, '确定').isVisible()).toBe(true);
    await button(edit, '取消').click();
    await edit.waitFor({ state: 'detached' });

    // Closed by its asker, it is no longer the disposer's to answer: the dialog only shows it.
    const closed = await producer.post(`/api/general/update/${VIEW}`, { ...inquiryBody(), id: added.body.id, inquiryStatus: '2' });
    expect(closed.status, said(closed)).toBe(200);
    await page.reload();
    await row.waitFor();
    await rowAction(row, '编辑');
    const look = dialog(page, '查看');
    await expect.poll(() => look.locator('.ant-alert').innerText()).toBe('该记录由其他企业创建，您只能查看');
    expect(await button(look, '确定').count()).toBe(0);
    expect(await button(look.locator('.ant-modal-footer'), '关闭').isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });
});
