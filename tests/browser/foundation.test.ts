import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startAppServer, TEST_SIGN_SECRET } from '../helpers/browser.js';
import { refusal } from '../helpers/refusal.js';
import { DEMO_PASSWORD, TEST_CAPTCHA, type TestServer } from '../helpers/server.js';

// The built app, served with request signing on by the real server: every call the app makes in
// these tests has to carry a signature the server accepts.
let server: TestServer;
let browser: Browser;
let producer: { nickName: string };

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer({ signSecret: TEST_SIGN_SECRET }), launchBrowser()]);
  const api = await server.login('producer');
  const info = (await api.get('/api/auth/info')).body;
  producer = { nickName: info.user.nickName };
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function captchaUuid(page: Page): Promise<string> {
  const img = page.locator('img[alt="验证码"]');
  await img.waitFor();
  return String(await img.getAttribute('data-uuid'));
}

async function submitLogin(page: Page, username: string, password: string, code = TEST_CAPTCHA): Promise<void> {
  await captchaUuid(page);
  await page.getByPlaceholder('账号', { exact: true }).fill(username);
  await page.getByPlaceholder('密码', { exact: true }).fill(password);
  await page.getByPlaceholder('验证码', { exact: true }).fill(code);
  await page.locator('button[type="submit"]').click();
}

/** The shell's avatar menu names the signed-in user once the guard has loaded the session. */
const userMenu = (page: Page) => page.getByRole('button', { name: `用户菜单：${producer.nickName}` });

/** `/` is the home page, /abandonhome. */
async function landedHome(page: Page): Promise<void> {
  await page.waitForURL((url) => url.pathname === '/abandonhome');
  await userMenu(page).waitFor();
}

async function loginAsProducer(page: Page): Promise<void> {
  await page.goto('/login?redirect=/');
  await submitLogin(page, 'producer', DEMO_PASSWORD);
  await landedHome(page);
}

describe('login page', () => {
  it('renders in Chinese with a captcha image from the server', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await page.goto('/login');
    await page.getByText('账号登录').waitFor();
    expect(await page.title()).toBe('wastegen 危废管理平台');
    await expect(page.getByText('wastegen 危废管理平台').isVisible()).resolves.toBe(true);
    for (const placeholder of ['账号', '密码', '验证码'])
      expect(await page.getByPlaceholder(placeholder, { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText('记住我').isVisible()).toBe(true);
    const img = page.locator('img[alt="验证码"]');
    await img.waitFor();
    expect(await img.getAttribute('src')).toMatch(/^data:image\//);
    // The data URL actually decodes to a picture.
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  it('sends a visitor without a session to /login with the way back', async () => {
    const { page } = await openPage(browser, server.url);
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/');
    await page.getByText('账号登录').waitFor();
  });
});

describe('logging in', () => {
  it('logs the producer in with signed requests and lands on the redirect target', async () => {
    const { page, errors } = await openPage(browser, server.url);
    const scripts: string[] = [];
    let loginHeaders: Record<string, string> = {};
    const signed = new Map<string, string>();
    const answered = new Map<string, number>();
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
      if (r.url().endsWith('/api/auth/login')) loginHeaders = r.headers();
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/')) signed.set(path, r.headers().sign ?? '');
    });
    page.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/')) answered.set(path, r.status());
    });
    await loginAsProducer(page);

    expect(loginHeaders.sign).toMatch(/^[0-9A-F]{64}$/);
    expect(Math.abs(Date.now() - Number(loginHeaders.timestamp))).toBeLessThan(60_000);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toMatch(/^Bearer /);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'token')?.value).toBe(encodeURIComponent(String(token)));

    // The guard's session calls went out signed and were accepted.
    for (const call of ['/api/auth/info', '/api/menus/build']) {
      expect(signed.get(call), call).toMatch(/^[0-9A-F]{64}$/);
      expect(answered.get(call), call).toBe(200);
    }
    // WebCrypto was there, so the RSA fallback was never downloaded.
    expect(scripts.some((s) => s.includes('node-forge'))).toBe(false);
    expect(errors).toEqual([]);
  });

  it('proves the server really checks signatures: an unsigned call is refused', async () => {
    const res = await fetch(`${server.url}/api/auth/code`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(refusal(400, 'SIGNATURE_MISSING'));
  });

  it('logs in without WebCrypto (plain http on a LAN host) through the node-forge fallback', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await page.addInitScript(() => {
      Object.defineProperty(Crypto.prototype, 'subtle', { get: () => undefined, configurable: true });
    });
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await page.goto('/login?redirect=/');
    expect(await page.evaluate(() => typeof crypto.subtle)).toBe('undefined');
    await submitLogin(page, 'producer', DEMO_PASSWORD);
    await landedHome(page);
    expect(scripts.some((s) => s.includes('node-forge'))).toBe(true);
    expect(errors).toEqual([]);
  });

  it('sends a logged-in user who opens /login straight on', async () => {
    const { page } = await openPage(browser, server.url);
    await loginAsProducer(page);
    await page.goto('/login');
    await landedHome(page);
  });
});

describe('routes', () => {
  it('answers JSON 404 for an unknown API call and the app for an unknown page', async () => {
    const api = await fetch(`${server.url}/api/no-such-call`);
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toContain('application/json');
    expect(await api.json()).toEqual(refusal(404, 'ROUTE_NOT_FOUND'));

    const html = await fetch(`${server.url}/some/deep/page?x=1`);
    expect(html.status).toBe(200);
    expect(await html.text()).toContain('<div id="root"></div>');

    // In the browser the unknown page asks for a session first, comes back to it, and, as no
    // menu of the user holds it, goes on to the home page.
    const { page } = await openPage(browser, server.url);
    await page.goto('/some/deep/page?x=1');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/some/deep/page?x=1');
    const visited: string[] = [];
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) visited.push(new URL(f.url()).pathname);
    });
    await submitLogin(page, 'producer', DEMO_PASSWORD);
    await landedHome(page);
    expect(visited).toContain('/some/deep/page');
  });

  it('does not follow a redirect to another site', async () => {
    const { page } = await openPage(browser, server.url);
    await page.goto('/login?redirect=//example.com/');
    await submitLogin(page, 'producer', DEMO_PASSWORD);
    await landedHome(page);
    expect(new URL(page.url()).origin).toBe(server.url);
  });
});

describe('session', () => {
  it('asks before logging out, then ends the session and returns to /login', async () => {
    const { page } = await openPage(browser, server.url);
    await loginAsProducer(page);
    const token = String(await page.evaluate(() => localStorage.getItem('token')));

    const logout = async () => {
      await userMenu(page).click();
      await page.getByRole('menuitem', { name: /退出登录/ }).click();
    };
    await logout();
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.getByText('确定注销并退出系统吗？').waitFor();
    await dialog.getByRole('button', { name: /取/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe('/abandonhome');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(token);

    await logout();
    await dialog.getByText('确定注销并退出系统吗？').waitFor();
    await dialog.getByRole('button', { name: /确/ }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByText('账号登录').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    expect((await page.context().cookies()).some((c) => c.name === 'token')).toBe(false);
    // The server forgot the session too.
    expect((await server.api.withToken(token).get('/api/auth/info')).status).toBe(401);
  });

  it('drops a token the server no longer accepts and sends the user to /login', async () => {
    const { page } = await openPage(browser, server.url);
    await page.addInitScript(() => {
      if (!sessionStorage.getItem('seeded')) {
        sessionStorage.setItem('seeded', '1');
        localStorage.setItem('token', 'Bearer not-a-real-token');
      }
    });
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.getByText('账号登录').waitFor();
    // No re-login confirm on top of the login form.
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
  });

  it('keeps the session when loading it fails for another reason than a refused token, and tries again', async () => {
    const { page } = await openPage(browser, server.url);
    await loginAsProducer(page);
    // The user info cannot be fetched once (a dropped connection, or the page left while loading).
    let dropped = 0;
    await page.route('**/api/auth/info', (route) => (dropped++ === 0 ? route.abort('connectionreset') : route.fallback()));
    const token = await page.evaluate(() => localStorage.getItem('token'));
    await page.reload();
    await page.getByText('用户信息加载失败').waitFor();
    // Still signed in, here and on the server: no trip to /login, the token kept.
    expect(new URL(page.url()).pathname).not.toBe('/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(token);
    // 重试 has the focus: Enter tries again, and the frame loads with the same session.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.replace(/\s/g, ''))).toBe('重试');
    await page.keyboard.press('Enter');
    await page.locator('.wg-navbar').waitFor();
    expect(dropped).toBe(2);
  });

  it('shows an error panel, not a blank page, when a page fails to render', async () => {
    const { page } = await openPage(browser, server.url);
    await loginAsProducer(page);
    // An answer the page cannot render: no user in it.
    await page.route('**/api/auth/info', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{"roles":[]}' }));
    await page.reload();
    await page.getByText('页面出错了').waitFor();
    expect(await page.getByRole('button', { name: /重新加载/ }).isVisible()).toBe(true);
    // The panel says what failed, under its title.
    expect((await page.getByRole('alert').innerText()).replace('页面出错了', '').replace('重新加载', '').trim()).not.toBe('');
  });
});
