/**
 * The message pages as users see them, against the real server and the built app: reading a system
 * message (sanitised, 850 px) moves the top bar's badge at once, the read filter, 全部已读 and a
 * confirmed delete; a leave message to the administrator arrives live in the administrator's inbox
 * at screen 97's address, and reading it there marks it read; so does a 留言 addressed to a department,
 * for that department's users.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountId } from '../helpers/accounts.js';
import { launchBrowser, openPage, startAppServer } from '../helpers/browser.js';
import type { ApiClient, TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchBrowser()]);
  admin = await server.login('admin');
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Signed in as `username` at `path`, with the realtime channel up. */
async function openAs(username: string, path: string): Promise<{ page: Page; api: ApiClient }> {
  const api = await server.login(username);
  const { page } = await openPage(browser, server.url, { token: String(api.token) });
  await page.goto(path);
  const id = await accountId(server, username);
  await expect.poll(() => server.ctx.realtime.connected(id), { timeout: 15_000 }).toBeGreaterThan(0);
  return { page, api };
}

/** The top bar's unread count: its label and the antd badge must agree. */
async function badgeCount(page: Page): Promise<number> {
  const link = page.locator('header a[href="/message/systemMessage"]');
  const label = (await link.getAttribute('aria-label')) ?? '';
  const n = Number(/^未读消息 (\d+) 条/.exec(label)?.[1] ?? 0);
  const shown = link.locator('.ant-badge-count');
  const badge = (await shown.count()) ? Number(await shown.getAttribute('title')) : 0;
  return n === badge ? n : Number.NaN;
}

/** Chooses the list's read filter (全部, 未读, 已读). */
async function filterBy(page: Page, label: string): Promise<void> {
  await page
    .locator('.ant-radio-button-wrapper')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .click();
}

async function unread(api: ApiClient): Promise<{ sysNum: number; leaveNum: number; total: number }> {
  return (await api.get('/api/sysMessage/getUnreadNum')).body.data;
}

describe('system messages', () => {
  it('reads a message (sanitised, 850 px), moving the badge at once; filters, reads all and deletes after confirming', async () => {
    const title = '<p>关于<strong>年度危废管理计划</strong>备案的通知</p>';
    const sent = await admin.post('/api/sysMessage', {
      title,
      content: '<p>请于本月底前完成备案。</p><img src="x" onerror="window.__hacked = 1"><script>window.__hacked = 2</script>',
      usernames: ['producer'],
    });
    expect(sent.status).toBe(200);
    const { page, api } = await openAs('producer', '/message/systemMessage');
    const before = await unread(api);
    expect(before.sysNum).toBeGreaterThan(1);
    await expect.poll(() => badgeCount(page)).toBe(before.total);

    // Unread first: the newest unread message heads the list, in bold.
    const rows = page.locator('.ant-table-tbody .ant-table-row');
    await rows.first().waitFor();
    await expect.poll(() => rows.first().innerText()).toContain('关于年度危废管理计划备案的通知');
    expect(await rows.first().getAttribute('class')).toContain('wg-message-unread');

    await rows.first().getByRole('button', { name: '关于年度危废管理计划备案的通知' }).click();
    const modal = page.locator('.ant-modal').filter({ hasText: '系统通知' });
    await modal.getByText('请于本月底前完成备案。').waitFor();
    // Measured once the opening animation has ended.
    await expect.poll(() => modal.evaluate((el) => Math.round(el.getBoundingClientRect().width))).toBe(850);
    expect(await modal.locator('strong').innerText()).toBe('年度危废管理计划');
    expect(await modal.locator('img').getAttribute('onerror')).toBeNull();
    expect(await modal.locator('script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __hacked?: number }).__hacked)).toBeUndefined();
    // The badge moves at once, and the server agrees.
    await expect.poll(() => badgeCount(page), { timeout: 2000 }).toBe(before.total - 1);
    expect(await unread(api)).toMatchObject({ sysNum: before.sysNum - 1 });
    await page.keyboard.press('Escape');
    await modal.waitFor({ state: 'hidden' });
    await expect
      .poll(async () => (await rows.filter({ hasText: '关于年度危废管理计划备案的通知' }).getAttribute('class')) ?? '')
      .toContain('wg-message-read');

    // The read filter.
    await filterBy(page, '已读');
    await expect.poll(async () => (await rows.allInnerTexts()).every((t) => t.includes('已读'))).toBe(true);
    expect(await rows.filter({ hasText: '关于年度危废管理计划备案的通知' }).count()).toBe(1);
    await filterBy(page, '未读');
    await expect.poll(() => rows.count()).toBe(before.sysNum - 1);
    expect(await rows.filter({ hasText: '关于年度危废管理计划备案的通知' }).count()).toBe(0);

    // 全部已读: nothing unread is left, and the badge keeps only the leave messages.
    await page.getByRole('button', { name: '全部已读' }).click();
    await page.locator('.ant-message-success').getByText('操作成功').waitFor();
    await expect.poll(() => badgeCount(page)).toBe(before.leaveNum);
    expect((await unread(api)).sysNum).toBe(0);
    await expect.poll(() => rows.count()).toBe(0);
    await page.locator('.ant-table-tbody').getByText('暂无系统消息').waitFor();

    // 删除 asks first: cancelling keeps the message, confirming removes it.
    await filterBy(page, '全部');
    const target = rows.filter({ hasText: '关于年度危废管理计划备案的通知' });
    await target.waitFor();
    const total = (await api.get('/api/sysMessage/page', { page: 1, size: 1 })).body.totalElements as number;
    await target.getByRole('button', { name: /^删\s*除$/ }).click();
    const confirm = page.locator('.ant-modal-confirm').filter({ hasText: '确定删除该消息吗？' });
    await confirm.getByRole('button', { name: /^取\s*消$/ }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect((await api.get('/api/sysMessage/page', { page: 1, size: 1 })).body.totalElements).toBe(total);
    await target.getByRole('button', { name: /^删\s*除$/ }).click();
    await confirm.getByRole('button', { name: /^确\s*定$/ }).click();
    await page.locator('.ant-message-success').getByText('删除成功').waitFor();
    await expect.poll(() => target.count()).toBe(0);
    expect((await api.get('/api/sysMessage/page', { page: 1, size: 1 })).body.totalElements).toBe(total - 1);
  });
});

describe('leave messages', () => {
  it('a message left for the administrator arrives live in the inbox at screen 97, and reading it marks it read', async () => {
    const adminSide = await openAs('admin', '/message/vBuild/temp/97');
    const inbox = adminSide.page.locator('.ant-table-tbody');
    await expect.poll(async () => (await adminSide.page.locator('.wg-breadcrumb').innerText()).replace(/\s+/g, '')).toContain('未读留言');
    const before = await unread(adminSide.api);
    await expect.poll(() => badgeCount(adminSide.page)).toBe(before.total);
    const listed = (await adminSide.api.get('/api/unreadLeaveMessage', { page: 1, size: 10 })).body.totalElements as number;
    await expect.poll(() => inbox.locator('.ant-table-row').count()).toBe(Math.min(listed, 10));

    // The producer writes from the same page; an empty message is refused with its message.
    const producerSide = await openAs('producer', '/message/vBuild/temp/97');
    await producerSide.page.getByRole('button', { name: '给管理员留言' }).click();
    const dialog = producerSide.page.locator('.ant-modal').filter({ hasText: '给管理员留言' });
    await dialog.getByRole('button', { name: /^发\s*送$/ }).click();
    await dialog.getByText('留言内容不能为空').waitFor();
    const text = '本周五需要增派一辆危废运输车，请安排。';
    await dialog.locator('textarea').fill(text);
    await dialog.getByRole('button', { name: /^发\s*送$/ }).click();
    await producerSide.page.locator('.ant-message-success').getByText('留言成功').waitFor();

    // Live on the administrator's page: the notice, the badge and the row, without a reload.
    await adminSide.page.locator('.ant-message-success').getByText('您有一条新留言').waitFor();
    await expect.poll(() => badgeCount(adminSide.page)).toBe(before.total + 1);
    const row = inbox.locator('.ant-table-row').filter({ hasText: text });
    await row.waitFor();
    expect(await row.innerText()).toContain('王丽华');
    const stored = await server.ctx.db
      .selectFrom('leave_message as l')
      .innerJoin('sys_user as u', 'u.id', 'l.user_id')
      .select(['l.id', 'l.have_read', 'u.username'])
      .where('l.content', '=', text)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ have_read: false, username: 'admin' });

    // Reading it shows it and marks it read: it leaves the inbox and the badge.
    await row.getByRole('button', { name: /^查\s*看$/ }).click();
    const modal = adminSide.page.locator('.ant-modal').filter({ hasText: '留言详情' });
    await modal.getByText(text).waitFor();
    await expect.poll(() => badgeCount(adminSide.page), { timeout: 2000 }).toBe(before.total);
    await expect
      .poll(
        async () =>
          (await server.ctx.db.selectFrom('leave_message').select('have_read').where('id', '=', stored.id).executeTakeFirstOrThrow())
            .have_read,
      )
      .toBe(true);
    await adminSide.page.keyboard.press('Escape');
    await expect.poll(() => row.count()).toBe(0);
  });

  it('a 留言 addressed to a department reaches its users live in 未读留言, and one reading it marks it read', async () => {
    const producerSide = await openAs('producer', '/message/vBuild/temp/97');
    const inbox = producerSide.page.locator('.ant-table-tbody');
    const before = await unread(producerSide.api);
    await expect.poll(() => badgeCount(producerSide.page)).toBe(before.total);

    // The disposer leaves a 留言 in 留言管理 for 产废企业部, the producer's department.
    const title = '周四卸料区检修';
    const content = '本周四焚烧车间卸料区检修，当天请勿安排车辆进场。';
    const disposer = await server.login('disposer');
    const { dept_id: dept } = await server.ctx.db
      .selectFrom('sys_user')
      .select('dept_id')
      .where('username', '=', 'producer')
      .executeTakeFirstOrThrow();
    const added = await disposer.post('/api/general/add/18', { title, content, contactName: '处置方调度', deptId: dept });
    expect(added.status).toBe(200);

    // Live: the notice, the badge and the row, with its title and its sender's account.
    await producerSide.page.locator('.ant-message-success').getByText('您有一条新留言').waitFor();
    await expect.poll(() => badgeCount(producerSide.page)).toBe(before.total + 1);
    const row = inbox.locator('.ant-table-row').filter({ hasText: title });
    await row.waitFor();
    expect(await row.innerText()).toContain(`【${title}】${content.slice(0, 20)}`);
    expect(await row.innerText()).toContain('disposer');

    // Reading it marks it read for the department: it leaves the inbox and the badge.
    await row.getByRole('button', { name: /^查\s*看$/ }).click();
    const modal = producerSide.page.locator('.ant-modal').filter({ hasText: '留言详情' });
    await modal.getByText(content, { exact: false }).waitFor();
    await expect.poll(() => badgeCount(producerSide.page), { timeout: 2000 }).toBe(before.total);
    await producerSide.page.keyboard.press('Escape');
    await expect.poll(() => row.count()).toBe(0);
    expect((await unread(producerSide.api)).leaveNum).toBe(before.leaveNum);
  });
});
