/**
 * The request layer's and the realtime channel's reactions as a user sees them, against the real
 * server and the built app: a websocket notice arriving as a toast with the badge going up, an
 * expired session bringing up the re-login confirm, and a 403 going to /401.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER } from '../../server/seed/accounts.js';
import { accountId } from '../helpers/accounts.js';
import { launchBrowser, openPage, startAppServer, TEST_SIGN_SECRET } from '../helpers/browser.js';
import type { ApiClient, TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
let admin: ApiClient;

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer({ signSecret: TEST_SIGN_SECRET }), launchBrowser()]);
  admin = await server.login('admin');
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens the app signed in as `username` (a token in the query is taken as the session) with its websocket up. */
async function openAs(username: string): Promise<{ page: Page; api: ApiClient }> {
  const api = await server.login(username);
  const { page } = await openPage(browser, server.url);
  await page.goto(`/abandonhome?token=${encodeURIComponent(String(api.token))}`);
  const id = await accountId(server, username);
  await expect.poll(() => server.ctx.realtime.connected(id), { timeout: 15_000 }).toBeGreaterThan(0);
  return { page, api };
}

async function sendSystemMessage(username: string, title: string): Promise<void> {
  const res = await admin.post('/api/sysMessage', { title, content: `<p>${title}</p>`, usernames: [username] });
  expect(res.status).toBe(200);
  expect(res.body.data.count).toBe(1);
}

/**
 * The unread count of the top bar's message badge (src/shell/navbar.tsx): the link to the system
 * messages reads 未读消息 N 条（…）, and the antd badge on it shows N.
 */
async function badgeCount(page: Page): Promise<number> {
  const link = page.locator('header a[href="/message/systemMessage"]');
  const label = (await link.getAttribute('aria-label')) ?? '';
  const n = Number(/^未读消息 (\d+) 条/.exec(label)?.[1] ?? 0);
  const shown = link.locator('.ant-badge-count');
  const badge = (await shown.count()) ? Number(await shown.getAttribute('title')) : 0;
  // Both must agree, or the test reports the mismatch as a wrong count.
  return n === badge ? n : Number.NaN;
}

async function unreadTotal(api: ApiClient): Promise<number> {
  const res = await api.get('/api/sysMessage/getUnreadNum');
  expect(res.status).toBe(200);
  return res.body.data.total;
}

describe('realtime channel', () => {
  it('shows a notice as a success toast and raises the unread badge', async () => {
    const { page, api } = await openAs('producer');
    const before = await unreadTotal(api);
    // The count sent on connect reaches the badge.
    await expect.poll(() => badgeCount(page)).toBe(before);

    await sendSystemMessage('producer', '危废转移联单待确认');
    await page.locator('.ant-message-success').getByText('危废转移联单待确认').waitFor();
    await expect.poll(() => badgeCount(page)).toBe(before + 1);
    expect(await unreadTotal(api)).toBe(before + 1);
  });
});

describe('request layer', () => {
  it('offers to log in again when the session has expired, once, and lets the user stay', async () => {
    const { page, api } = await openAs('collector');
    await page.getByRole('button', { name: '查看系统消息' }).click();
    await page.waitForURL((url) => url.pathname === '/message/systemMessage');
    const reload = page.getByRole('button', { name: '刷新' });
    await reload.waitFor();
    // The session ends on the server while the page stays open; its websocket is closed with it.
    expect((await api.delete('/api/auth/logout')).status).toBe(200);
    await expect.poll(() => server.ctx.realtime.connected(USER.collector)).toBe(0);

    // The next calls of the page are answered 401: a reload, then another while the confirm is open.
    let refused = 0;
    page.on('response', (r) => {
      if (r.url().includes('/api/sysMessage/page') && r.status() === 401) refused++;
    });
    const reloadBehindModal = () => reload.evaluate((el: HTMLElement) => el.click());
    await reloadBehindModal();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText('登录状态已过期，您可以继续留在该页面，或者重新登录').waitFor();
    await expect.poll(() => refused).toBe(1);
    await reloadBehindModal();
    await expect.poll(() => refused).toBeGreaterThanOrEqual(2);
    expect(await confirm.count()).toBe(1);
    // A 401 is the confirm, not also an error toast.
    expect(await page.locator('.ant-message-error').count()).toBe(0);

    // Staying keeps the page (and what is on it).
    await confirm.getByRole('button', { name: /^取\s*消$/ }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe('/message/systemMessage');
    await reload.waitFor();

    await reload.click();
    await confirm.getByText('登录状态已过期，您可以继续留在该页面，或者重新登录').waitFor();
    await confirm.getByRole('button', { name: /^重新登录$/ }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/message/systemMessage');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.locator('img[alt="验证码"]').waitFor();
  });

  it('sends a user to /401 when the server answers 403', async () => {
    const { page, api } = await openAs('guest');
    // What the guest may not do: the user list. It really answers 403 to them.
    expect((await api.get('/api/users')).status).toBe(403);
    // The page's next call (the unread refresh after a notice) goes to that forbidden address instead.
    await page.route('**/api/sysMessage/getUnreadNum', (route) => route.continue({ url: `${server.url}/api/users` }));
    await sendSystemMessage('guest', '访客通知');
    await page.waitForURL((url) => url.pathname === '/401');
    await page.getByText('你没有权限去该页面').waitFor();
  });
});
