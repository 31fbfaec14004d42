/**
 * The audit trail as a user reads it: a record the user just added shows in 个人中心 › 操作日志 with its
 * view, its id and each field it set.
 */
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, withAppAndBrowser } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';
import { field } from '../helpers/wire-field.js';

let server: TestServer;
let browser: Browser;
withAppAndBrowser((s, b) => {
  [server, browser] = [s, b];
});

describe('操作日志', () => {
  it('shows an add the user just made, with its record and fields', async () => {
    const admin = await server.login('admin');
    const view = await admin.post('/api/generation/add', {
      name: '点检记录',
      disMenu: JSON.stringify({ componentName: 'auditChecks', name: '点检记录' }),
    });
    const viewId = view.body.id as number;
    const design = {
      basicOption: { sortName: 'id', sortType: 'desc' },
      tableOption: [field('title', '名称', 'varchar')],
      formOption: [field('title', '名称', 'varchar', { required: true })],
    };
    expect((await admin.post('/api/generation/design', { id: viewId, disTemplate: JSON.stringify(design) })).status).toBe(200);
    const added = await admin.post(`/api/general/add/${viewId}`, { title: '一号库点检' });
    expect(added.status).toBe(200);

    const { page } = await openPage(browser, server.url, { token: String(admin.token) });
    await page.goto('/user/center');
    await page.getByRole('tab', { name: '操作日志' }).click();
    const row = page.locator('.ant-table-row').filter({ has: page.locator(`[data-log-record="lc_view_${viewId}:${added.body.id}"]`) });
    await row.waitFor();
    expect(await row.locator('[data-log-record]').innerText()).toBe(`新增点检记录 #${added.body.id}`);
    expect(await row.locator('[data-log-change="title"]').innerText()).toBe('名称：空 → 一号库点检');
    expect(await row.innerText()).toContain('新增记录');
  });
});
