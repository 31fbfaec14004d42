/**
 * The public session pages and dialogs: login, apply to join, the
 * terms dialog, the agreement pages, the expired-password dialog, the entry agreement, /init,
 * /login2 and the token in the query string. Built app, real server, request signing on.
 */

import { SignJWT } from 'jose';
import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, withAppAndBrowser } from '../helpers/browser.js';
import { DEMO_PASSWORD, TEST_CAPTCHA, type TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
withAppAndBrowser((s, b) => {
  [server, browser] = [s, b];
});

const field = (page: Page, placeholder: string) => page.getByPlaceholder(placeholder, { exact: true });
const formErrors = (scope: Page | Locator) => scope.locator('.ant-form-item-explain-error');
const toast = (page: Page, text: string) => page.locator('.ant-message').getByText(text);

async function captchaUuid(page: Page, scope: Page | Locator = page): Promise<string> {
  const img = scope.locator('img[alt="验证码"]');
  await img.waitFor();
  return String(await img.getAttribute('data-uuid'));
}

async function submitLogin(page: Page, username: string, password: string, code = TEST_CAPTCHA): Promise<void> {
  await captchaUuid(page);
  await field(page, '账号').fill(username);
  await field(page, '密码').fill(password);
  await field(page, '验证码').fill(code);
  await page.locator('button[type="submit"]').click();
}

const token = (page: Page) => page.evaluate(() => localStorage.getItem('token'));

async function userFlag(username: string, column: 'agreement_accepted', value: boolean): Promise<void> {
  await server.ctx.db
    .updateTable('sys_user')
    .set({ [column]: value })
    .where('username', '=', username)
    .execute();
}

describe('login page', () => {
  it('shows each validation message and sends nothing', async () => {
    const { page } = await openPage(browser, server.url);
    let loginCalls = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/auth/login')) loginCalls++;
    });
    await page.goto('/login');
    await captchaUuid(page);
    await page.locator('button[type="submit"]').click();
    await expect.poll(() => formErrors(page).allTextContents()).toEqual(['用户名不能为空', '密码不能为空', '验证码不能为空']);

    // Each message goes once its field is filled; blanks do not count as an account name.
    await field(page, '账号').fill('   ');
    await field(page, '密码').fill('x');
    await expect.poll(() => formErrors(page).allTextContents()).toEqual(['用户名不能为空', '验证码不能为空']);
    await field(page, '账号').fill('producer');
    await field(page, '验证码').fill('1');
    await expect.poll(() => formErrors(page).count()).toBe(0);
    expect(loginCalls).toBe(0);
  });

  it('answers a wrong password with the server message, a new captcha and an empty password, keeping the account', async () => {
    const { page } = await openPage(browser, server.url);
    await page.goto('/login');
    const before = await captchaUuid(page);
    await submitLogin(page, 'producer', 'Wrong@2026');
    await toast(page, '用户名或密码错误').waitFor();
    await expect.poll(() => captchaUuid(page)).not.toBe(before);
    expect(await field(page, '验证码').inputValue()).toBe('');
    expect(await field(page, '密码').inputValue()).toBe('');
    expect(await field(page, '账号').inputValue()).toBe('producer');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await token(page)).toBeNull();

    // The captcha image refreshes on a click too.
    const shown = await captchaUuid(page);
    await page.locator('img[alt="验证码"]').click();
    await expect.poll(() => captchaUuid(page)).not.toBe(shown);
  });

  it('logs in to the redirect target and remembers the account name when asked', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await page.goto(`/login?redirect=${encodeURIComponent('/message/systemMessage?tab=unread')}`);
    await page.getByText('记住我').click();
    await submitLogin(page, 'producer', DEMO_PASSWORD);
    await page.waitForURL((url) => url.pathname === '/message/systemMessage');
    expect(new URL(page.url()).searchParams.get('tab')).toBe('unread');
    expect(await token(page)).toMatch(/^Bearer /);
    // The server keeps this session through the idle timeout for its day.
    const remembering = await server.ctx.db
      .selectFrom('sys_session as s')
      .innerJoin('sys_user as u', 'u.id', 's.user_id')
      .select('s.id')
      .where('u.username', '=', 'producer')
      .where('s.remember_until', 'is not', null)
      .execute();
    expect(remembering).toHaveLength(1);

    const remembered = (await context.cookies()).find((c) => c.name === 'username');
    expect(remembered?.value).toBe('producer');
    // The expiry is the configured one (7 days by default), not the session.
    expect(remembered!.expires * 1000 - Date.now()).toBeGreaterThan(6 * 24 * 3600 * 1000);

    // Back on the login page without a session, the account is filled in and remember-me ticked.
    await page.evaluate(() => localStorage.removeItem('token'));
    await context.clearCookies({ name: 'token' });
    await page.goto('/login');
    await captchaUuid(page);
    expect(await field(page, '账号').inputValue()).toBe('producer');
    expect(await page.getByRole('checkbox', { name: '记住我' }).isChecked()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('sends the user to /init when the system is not initialised, where it can be initialised once', async () => {
    const { db } = server.ctx;
    const saved = await db.selectFrom('sys_setting').selectAll().execute();
    await db.deleteFrom('sys_setting').execute();
    try {
      const { page } = await openPage(browser, server.url);
      await page.goto('/login');
      await page.getByText('系统尚未初始化').waitFor();
      expect(new URL(page.url()).pathname).toBe('/init');
      await field(page, '请输入系统名称').fill('');
      await page.getByRole('button', { name: '完成初始化' }).click();
      await formErrors(page).getByText('请输入系统名称').waitFor();
      await field(page, '请输入系统名称').fill('测试危废平台');
      await page.getByRole('button', { name: '完成初始化' }).click();
      await toast(page, '初始化成功').waitFor();
      await page.waitForURL((url) => url.pathname === '/login');
      const stored = await db.selectFrom('sys_setting').select(['name', 'value']).execute();
      expect(Object.fromEntries(stored.map((r) => [r.name, r.value]))).toMatchObject({ inited: '1', system_name: '测试危废平台' });

      // Once initialised, /init says so instead of offering the form again.
      await page.goto('/init');
      await page.getByText('系统已完成初始化').waitFor();
    } finally {
      await db.deleteFrom('sys_setting').execute();
      if (saved.length) await db.insertInto('sys_setting').values(saved).execute();
    }
  });
});

describe('apply to join', () => {
  async function openApply(page: Page): Promise<Locator> {
    await page.goto('/login');
    await page.getByRole('button', { name: '申请入驻' }).click();
    const dialog = page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: '申请入驻' }) });
    await captchaUuid(page, dialog);
    return dialog;
  }

  async function fillApplication(page: Page, dialog: Locator, name: string): Promise<void> {
    await field(page, '请输入企业名称（与营业执照一致）').fill(name);
    await dialog.locator('.ant-form-item').filter({ hasText: '企业类型' }).locator('.ant-select').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '处置企业' }).click();
    await dialog.locator('.ant-form-item').filter({ hasText: '企业类型' }).getByTitle('处置企业').waitFor();
    await dialog.locator('.ant-form-item').filter({ hasText: '企业地址' }).locator('.ant-select').click();
    for (const level of ['江苏省', '南京市', '玄武区']) {
      await page.locator('.ant-cascader-menu-item').filter({ hasText: level }).first().click();
    }
    await field(page, '请输入申请人姓名').fill('李明');
    await field(page, '请输入手机号').fill('13912345678');
    await field(page, '请输入验证码').fill(TEST_CAPTCHA);
  }

  it('shows the specification messages, and the terms dialog with its two agreements', async () => {
    const { page } = await openPage(browser, server.url);
    const previews: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/privacyPolicy/preview')) previews.push(new URL(r.url()).searchParams.get('type') ?? '');
    });
    const dialog = await openApply(page);
    await dialog.getByRole('button', { name: '提交申请' }).click();
    await expect
      .poll(() => formErrors(dialog).allTextContents())
      .toEqual(['企业名称不能为空', '请选择企业类型', '请选择企业地址', '请输入申请人姓名', '请输入手机号', '请输入验证码']);
    for (const bad of ['12912345678', '1391234567', '2391234567a']) {
      await field(page, '请输入手机号').fill(bad);
      await formErrors(dialog).getByText('手机号格式错误').waitFor();
    }
    await field(page, '请输入手机号').fill('13912345678');
    await formErrors(dialog).getByText('手机号格式错误').waitFor({ state: 'detached' });

    await dialog.getByRole('button', { name: '《入驻协议》和《授权协议》' }).click();
    const terms = page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: '平台协议' }) });
    await terms.getByRole('tab', { name: '入驻协议' }).waitFor();
    await terms.locator('.policy-content').getByText('企业入驻协议').waitFor();
    await terms.getByRole('tab', { name: '授权协议' }).click();
    await terms.locator('.policy-content').getByText('数据授权协议').waitFor();
    expect(previews).toEqual(['2', '4']);
    await terms.getByRole('button', { name: '我知道了' }).click();
    await terms.waitFor({ state: 'hidden' });
    // What was typed in the application is still there.
    expect(await field(page, '请输入手机号').inputValue()).toBe('13912345678');
  });

  it('shows the server message and a new captcha for a refused application, then submits one', async () => {
    // The region cascader is on the login page, used before anyone is signed in.
    expect((await server.api.get('/api/region/regionTreeList')).status, 'GET /api/region/regionTreeList without a session').toBe(200);
    const { page } = await openPage(browser, server.url);
    let sent: Record<string, unknown> = {};
    page.on('request', (r) => {
      if (r.url().endsWith('/api/companyApplication/insert')) sent = r.postDataJSON();
    });
    const dialog = await openApply(page);
    // A company whose application is still pending (seeded): the server refuses a second one.
    await fillApplication(page, dialog, '苏州相城恒远塑业有限公司');
    const before = await captchaUuid(page, dialog);
    await dialog.getByRole('button', { name: '提交申请' }).click();
    await toast(page, '该企业已提交申请，请耐心等待').waitFor();
    await expect.poll(() => captchaUuid(page, dialog)).not.toBe(before);
    expect(await field(page, '请输入验证码').inputValue()).toBe('');
    expect(await field(page, '请输入申请人姓名').inputValue()).toBe('李明');
    expect(await dialog.isVisible()).toBe(true);

    await field(page, '请输入企业名称（与营业执照一致）').fill('南京青禾环保科技有限公司');
    await field(page, '请输入验证码').fill(TEST_CAPTCHA);
    await dialog.getByRole('button', { name: '提交申请' }).click();
    await toast(page, '申请已经提交，请耐心等待').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(sent).toMatchObject({
      name: '南京青禾环保科技有限公司',
      type: '2',
      comtype: '处置企业',
      region: '320000,320100,320102',
      regionFmt: '江苏省/南京市/玄武区',
      applicant: '李明',
      phone: '13912345678',
      source: 2,
      code: TEST_CAPTCHA,
    });
    const row = await server.ctx.db
      .selectFrom('company_application')
      .selectAll()
      .where('name', '=', '南京青禾环保科技有限公司')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ region: '320000,320100,320102', region_fmt: '江苏省/南京市/玄武区', source: 2, status: 0 });

    // A successful application clears the form for the next one.
    await page.getByRole('button', { name: '申请入驻' }).click();
    await dialog.waitFor();
    expect(await field(page, '请输入企业名称（与营业执照一致）').inputValue()).toBe('');
  });
});

describe('agreement pages', () => {
  it('shows the privacy policy with its 15 clauses, from the server or built in', async () => {
    const { page } = await openPage(browser, server.url);
    await page.goto('/privacyPolicy');
    await page.getByRole('heading', { name: '隐私政策', level: 2, exact: true }).waitFor();
    const clauses = page.locator('.policy-content h3');
    await expect.poll(() => clauses.count()).toBe(15);
    expect(await page.locator('.policy-content').getAttribute('data-policy-type')).toBe('3');
    expect(await clauses.first().textContent()).toMatch(/^一、/);
    expect(await clauses.last().textContent()).toMatch(/^十五、/);

    await page.route('**/api/privacyPolicy/preview**', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: '{"status":404,"message":"协议不存在"}' }),
    );
    await page.reload();
    await expect.poll(() => clauses.count()).toBe(15);
    expect(await page.locator('.policy-content').getAttribute('data-policy-type')).toBe('built-in');
    expect(await page.locator('.ant-message').count()).toBe(0);
  });

  it('shows the service agreement and never runs script from its HTML', async () => {
    const { page, errors } = await openPage(browser, server.url);
    await page.goto('/serviceAgreement');
    await page.getByRole('heading', { name: '服务协议', level: 2, exact: true }).waitFor();
    await page.locator('.policy-content').getByText('一、服务内容').waitFor();

    const hostile = [
      '<h2>服务协议</h2><p id="ok">第一条 正文</p>',
      '<script>window.__pwned = 1</script>',
      '<img src="x" onerror="window.__pwned = 2">',
      '<a href="javascript:window.__pwned = 3">点我</a>',
      '<iframe srcdoc="<script>parent.__pwned = 4</script>"></iframe>',
      '<p style="position:fixed;inset:0;background:red">覆盖</p>',
    ].join('');
    await page.route('**/api/privacyPolicy/preview**', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ status: 200, data: { type: 1, title: '服务协议', content: hostile } }),
      }),
    );
    await page.reload();
    const content = page.locator('.policy-content');
    await content.getByText('第一条 正文').waitFor();
    await content.getByText('点我').click();
    // Whatever the click set off has run once the page has drawn twice since.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await content.locator('script, iframe, [onerror], [style]').count()).toBe(0);
    expect(await content.locator('a').getAttribute('href')).toBeNull();
    // The page's title is not repeated by the text's own heading.
    expect(await content.locator('h2').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe('expired password', () => {
  it('opens the forced password dialog after login, checks reading B, and signs in again after the change', async () => {
    const { page } = await openPage(browser, server.url);
    await page.goto('/login');
    await submitLogin(page, 'expired', DEMO_PASSWORD);
    const dialog = page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: '修改密码' }) });
    await dialog.getByText('您的密码已过期').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    // Forced: no close button, Escape does nothing, and no phone field for a non-admin.
    expect(await dialog.locator('.ant-modal-close').count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialog.getByPlaceholder('请输入电话号码').count()).toBe(0);

    await dialog.getByRole('button', { name: '确认修改' }).click();
    await expect.poll(() => formErrors(dialog).allTextContents()).toEqual(['请输入旧密码', '请输入新密码', '请再次输入密码']);

    // The hint says the rule in the words of its error.
    expect(await dialog.locator('.ant-form-item-extra').innerText()).toBe('由字母、数字、特殊字符组成，8个字符以上');
    await field(page, '请输入旧密码').fill(DEMO_PASSWORD);
    for (const weak of ['password1', 'Short#1', 'Has Space#12']) {
      await field(page, '请输入新密码').fill(weak);
      await formErrors(dialog).getByText('由字母、数字、特殊字符组成，8个字符以上', { exact: true }).waitFor();
    }
    await field(page, '请输入新密码').fill('Fresh#2027');
    await formErrors(dialog).getByText('由字母、数字、特殊字符组成，8个字符以上').waitFor({ state: 'detached' });
    await field(page, '请再次输入密码').fill('Fresh#2028');
    await formErrors(dialog).getByText('两次输入的密码不一致').waitFor();
    await field(page, '请再次输入密码').fill('Fresh#2027');

    let sent = '';
    page.on('request', (r) => {
      if (r.url().endsWith('/api/users/updatePass')) sent = r.postData() ?? '';
    });
    await dialog.getByRole('button', { name: '确认修改' }).click();
    await toast(page, '密码修改成功，请重新登录').waitFor();
    const changedAt = Date.now();
    // Form-encoded, and no password travels in clear.
    const form = new URLSearchParams(sent);
    expect([...form.keys()].sort()).toEqual(['newPass', 'oldPass']);
    expect(sent).not.toContain('Fresh');
    expect(sent).not.toContain('Waste');

    await page.waitForFunction(() => localStorage.getItem('token') === null);
    expect(Date.now() - changedAt).toBeGreaterThan(1000);
    await page.waitForURL((url) => url.pathname === '/login');
    await dialog.waitFor({ state: 'hidden' });

    await submitLogin(page, 'expired', 'Fresh#2027');
    await page.waitForURL((url) => url.pathname === '/abandonhome');
    expect(await page.locator('.ant-modal-title', { hasText: '修改密码' }).count()).toBe(0);
  });
});

describe('entry agreement', () => {
  async function loginNewcomer(page: Page): Promise<Locator> {
    await userFlag('newcomer', 'agreement_accepted', false);
    await page.goto('/login');
    await submitLogin(page, 'newcomer', DEMO_PASSWORD);
    await page.waitForURL((url) => url.pathname === '/entryAgreement');
    const agreement = page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: '入驻协议' }) });
    await agreement.locator('.policy-content').getByText('企业入驻协议').waitFor();
    return agreement;
  }

  it('brings a newcomer (status 10001) to the agreement; cancel logs out', async () => {
    const { page } = await openPage(browser, server.url);
    const agreement = await loginNewcomer(page);
    const stored = String(await token(page));
    expect(stored).toMatch(/^Bearer /);
    expect(new URL(page.url()).searchParams.get('deptCode')).toBeTruthy();

    await agreement.getByRole('button', { name: /取\s*消/ }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await token(page)).toBeNull();
    expect((await server.api.withToken(stored).get('/api/auth/info')).status).toBe(401);
  });

  it('shows the failure dialog for a refusal, the server message for an error, and asks to sign in again after agreeing', async () => {
    const { page } = await openPage(browser, server.url);
    const agreement = await loginNewcomer(page);
    const agree = agreement.getByRole('button', { name: /同\s*意/ });

    await page.route('**/api/guFeiUrl/enter**', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"status":500,"message":"授权服务暂不可用"}' }),
    );
    await agree.click();
    const failure = page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: '入驻失败' }) });
    await failure.getByText('授权服务暂不可用').waitFor();
    await agreement.waitFor({ state: 'hidden' });
    await failure.getByRole('button', { name: '重新阅读协议' }).click();
    await agreement.waitFor();

    await page.unroute('**/api/guFeiUrl/enter**');
    await page.route('**/api/guFeiUrl/enter**', (route) =>
      route.fulfill({ status: 400, contentType: 'application/json', body: '{"status":400,"message":"入驻服务维护中"}' }),
    );
    await agree.click();
    await toast(page, '入驻服务维护中').waitFor();
    expect(await agreement.isVisible()).toBe(true);

    await page.unroute('**/api/guFeiUrl/enter**');
    let asked = '';
    page.on('request', (r) => {
      if (r.url().includes('/api/guFeiUrl/enter')) asked = r.url();
    });
    await agree.click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText('授权成功，请重新登录').waitFor();
    expect(new URL(asked).searchParams.get('deptCode')).toBeTruthy();
    const accepted = await server.ctx.db
      .selectFrom('sys_user')
      .select('agreement_accepted')
      .where('username', '=', 'newcomer')
      .executeTakeFirstOrThrow();
    expect(accepted.agreement_accepted).toBe(true);
    await confirm.getByRole('button', { name: '重新登录' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await token(page)).toBeNull();

    await submitLogin(page, 'newcomer', DEMO_PASSWORD);
    await page.waitForURL((url) => url.pathname === '/abandonhome');
  });

  it('with an authorisation code: cancel asks and says 取消成功; agree shows the server message', async () => {
    await userFlag('newcomer', 'agreement_accepted', false);
    const login = await server.api.loginRaw('newcomer', DEMO_PASSWORD);
    expect(login.body.status).toBe(10001);
    const { page } = await openPage(browser, server.url);
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/guFeiUrl/enter')) asked.push(r.url());
    });
    // An authorisation code is one this server issued to the filling system for the account's company.
    const own = await server.ctx.db
      .selectFrom('sys_user')
      .select('company_id')
      .where('username', '=', 'newcomer')
      .executeTakeFirstOrThrow();
    const code = await new SignJWT({ companyId: own.company_id })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience('gufei')
      .setExpirationTime('5m')
      .sign(server.ctx.secrets.jwtSecret);
    await page.goto(`/entryAgreement?code=${encodeURIComponent(code)}&token=${encodeURIComponent(login.body.token)}`);
    const agreement = page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: '授权协议' }) });
    await agreement.locator('.policy-content').getByText('数据授权协议').waitFor();
    expect(new URL(page.url()).searchParams.has('token')).toBe(false);

    await agreement.getByRole('button', { name: /取\s*消/ }).click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText('确定取消本次授权吗？').waitFor();
    await confirm.getByRole('button', { name: /确\s*定/ }).click();
    await toast(page, '取消成功').waitFor();
    expect(await token(page)).toBe(login.body.token);
    expect(new URL(page.url()).pathname).toBe('/entryAgreement');

    await page.getByRole('button', { name: '重新阅读协议' }).click();
    await agreement.getByRole('button', { name: /同\s*意/ }).click();
    await toast(page, '入驻成功').waitFor();
    await page.getByText('授权成功', { exact: true }).waitFor();
    expect(asked.map((u) => new URL(u).searchParams.get('code'))).toEqual([code]);
  });
});

describe('tokens from elsewhere', () => {
  it('stores a token from the query string and takes it out of the address', async () => {
    const api = await server.login('producer');
    const info = (await api.get('/api/auth/info')).body;
    const { page } = await openPage(browser, server.url);
    await page.goto(`/abandonhome?token=${encodeURIComponent(String(api.token))}&tab=1`);
    await page.getByRole('button', { name: `用户菜单：${info.user.nickName}` }).waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toBe('/abandonhome');
    expect(url.searchParams.has('token')).toBe(false);
    expect(url.searchParams.get('tab')).toBe('1');
    expect(await token(page)).toBe(api.token);
  });

  it('/login2 signs in with a token and falls back to the form when the token is refused', async () => {
    const api = await server.login('producer');
    const { page } = await openPage(browser, server.url);
    await page.goto(`/login2?token=${encodeURIComponent(String(api.token))}&redirect=${encodeURIComponent('/message/systemMessage')}`);
    await page.waitForURL((url) => url.pathname === '/message/systemMessage');
    expect(await token(page)).toBe(api.token);

    const other = await openPage(browser, server.url);
    await other.page.goto('/login2?token=not-a-real-token');
    await other.page.getByText('自动登录失败').waitFor();
    expect(await token(other.page)).toBeNull();
    expect(new URL(other.page.url()).pathname).toBe('/login2');
    await submitLogin(other.page, 'producer', DEMO_PASSWORD);
    await other.page.waitForURL((url) => url.pathname === '/abandonhome');
  });
});
