/**
 * A `?token=` in the address (a filling-system link brings one) over a browser already signed in:
 * another account's token asks before switching, naming both, and cancel keeps the session; the token
 * leaves the address either way. Built app, real server, request signing on.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, withAppAndBrowser } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
withAppAndBrowser((s, b) => {
  [server, browser] = [s, b];
});

const stored = (page: Page) => page.evaluate(() => localStorage.getItem('token'));
const userMenu = (page: Page, nickName: string) => page.getByRole('button', { name: `用户菜单：${nickName}` });

async function signedIn(username: string) {
  const api = await server.login(username);
  const info = (await api.get('/api/auth/info')).body as { user: { nickName: string; username: string } };
  return { token: String(api.token), nickName: info.user.nickName, username: info.user.username };
}

describe('a token in the address over a signed-in browser', () => {
  it('of another account asks first, naming both; cancel keeps the session and the token leaves the address', async () => {
    const [producer, disposer] = await Promise.all([signedIn('producer'), signedIn('disposer')]);
    const { page, errors } = await openPage(browser, server.url, { token: producer.token });
    const infoCalls: (string | null)[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/auth/info') infoCalls.push(r.headers().authorization ?? null);
    });
    await page.goto(`/abandonhome?token=${encodeURIComponent(disposer.token)}&tab=1`);
    const confirm = page.locator('.ant-modal-confirm');
    await confirm
      .getByText(`当前已登录 ${producer.nickName}（${producer.username}），是否切换为 ${disposer.nickName}（${disposer.username}）？`)
      .waitFor();
    // Out of the address before anyone answers.
    const url = new URL(page.url());
    expect(url.searchParams.has('token')).toBe(false);
    expect(url.searchParams.get('tab')).toBe('1');
    // The offered token went only in the Authorization header of this server's own call, and is not stored.
    expect(infoCalls).toContain(disposer.token);
    expect(await stored(page)).toBe(producer.token);

    await confirm.getByRole('button', { name: /取\s*消/ }).click();
    await userMenu(page, producer.nickName).waitFor();
    expect(await stored(page)).toBe(producer.token);
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);
    expect(errors).toEqual([]);
  });

  it('of another account switches to it when the user says so', async () => {
    const [producer, disposer] = await Promise.all([signedIn('producer'), signedIn('disposer')]);
    const { page, errors } = await openPage(browser, server.url, { token: producer.token });
    await page.goto(`/abandonhome?token=${encodeURIComponent(disposer.token.replace(/^Bearer /, ''))}`);
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText(`是否切换为 ${disposer.nickName}（${disposer.username}）？`).waitFor();
    await confirm.getByRole('button', { name: /切\s*换/ }).click();
    await userMenu(page, disposer.nickName).waitFor();
    expect(await stored(page)).toBe(disposer.token);
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);
    expect(errors).toEqual([]);
  });

  it('of the signed-in account, or over a session that has ended, is taken without asking', async () => {
    const producer = await signedIn('producer');
    const again = await signedIn('producer');
    const { page } = await openPage(browser, server.url, { token: producer.token });
    await page.goto(`/abandonhome?token=${encodeURIComponent(again.token)}`);
    await userMenu(page, producer.nickName).waitFor();
    expect(await stored(page)).toBe(again.token);
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);

    // A stored token whose session is over signs nobody in: the link's token is taken.
    const ended = await signedIn('collector');
    await server.api.withToken(ended.token).delete('/api/auth/logout');
    const disposer = await signedIn('disposer');
    const other = await openPage(browser, server.url, { token: ended.token });
    await other.page.goto(`/abandonhome?token=${encodeURIComponent(disposer.token)}`);
    await userMenu(other.page, disposer.nickName).waitFor();
    expect(await stored(other.page)).toBe(disposer.token);
    expect(await other.page.locator('.ant-modal-confirm').count()).toBe(0);
  });
});
