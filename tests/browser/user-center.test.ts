/**
 * The personal centre as a user sees it, against the real server and the built app: the profile
 * form's every message and its save, the operation log's time tags, the e-mail change with its
 * countdown and messages, the password dialog, the avatar upload, the cities and the visit charts.
 */
import { sql } from 'kysely';
import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PASSWORD_RULE_MESSAGE } from '../../src/shared/password-rule.js';
import { openPage, withAppAndBrowser } from '../helpers/browser.js';
import { DEMO_PASSWORD, type TestServer } from '../helpers/server.js';

let server: TestServer;
let browser: Browser;
withAppAndBrowser((s, b) => {
  [server, browser] = [s, b];
});

async function openCenter(username: string, clock = false): Promise<Page> {
  const api = await server.login(username);
  const { page } = await openPage(browser, server.url, { token: String(api.token) });
  if (clock) await page.clock.install();
  await page.goto('/user/center');
  await page.getByTestId('user-info').getByText(username, { exact: true }).waitFor();
  return page;
}

/** The validation message shown under a form item, by its label. */
function itemOf(scope: Page | Locator, label: string): Locator {
  const page = 'page' in scope ? scope.page() : scope;
  return scope.locator('.ant-form-item').filter({ has: page.locator(`label:text-is("${label}")`) });
}

async function errorsOf(scope: Page | Locator, label: string): Promise<string> {
  const explain = itemOf(scope, label).locator('.ant-form-item-explain-error');
  await explain.first().waitFor();
  return (await explain.allInnerTexts()).join('|');
}

const userRow = (username: string) =>
  server.ctx.db
    .selectFrom('sys_user')
    .select(['id', 'nick_name', 'phone', 'sex', 'email', 'avatar'])
    .where('username', '=', username)
    .executeTakeFirstOrThrow();

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('personal centre', () => {
  it('checks the profile form with every message, refuses another user’s phone and saves', async () => {
    const page = await openCenter('producer');
    const form = page.locator('form#user-profile');
    const nick = itemOf(form, '昵称').locator('input');
    const phone = itemOf(form, '手机号').locator('input');
    const save = form.getByRole('button', { name: '保存配置' });

    await nick.fill('');
    await phone.fill('');
    await save.click();
    expect(await errorsOf(form, '昵称')).toBe('请输入用户昵称');
    expect(await errorsOf(form, '手机号')).toBe('请输入电话号码');

    await nick.fill('王');
    await phone.fill('1395180');
    await save.click();
    await expect.poll(() => errorsOf(form, '昵称')).toBe('长度在 2 到 20 个字符');
    await expect.poll(() => errorsOf(form, '手机号')).toBe('请输入正确的11位手机号码');
    await nick.fill('字'.repeat(21));
    await expect.poll(() => errorsOf(form, '昵称')).toBe('长度在 2 到 20 个字符');

    // Another user's phone: the server refuses, and says so under the field; nothing typed is lost.
    const other = await userRow('disposer');
    await nick.fill('王丽华改');
    await phone.fill(other.phone!);
    await save.click();
    await expect.poll(() => errorsOf(form, '手机号')).toBe('手机号已存在');
    expect(await nick.inputValue()).toBe('王丽华改');
    expect((await userRow('producer')).nick_name).not.toBe('王丽华改');

    await phone.fill('13900001111');
    await itemOf(form, '性别').getByText('女', { exact: true }).click();
    await save.click();
    await page.locator('.ant-message-success').getByText('保存成功').waitFor();
    await expect.poll(async () => userRow('producer')).toMatchObject({ nick_name: '王丽华改', phone: '13900001111', sex: '女' });
    await page.getByTestId('user-info').getByText('13900001111').waitFor();
    // The top bar shows the new nickname without a reload.
    await page.locator('header').getByRole('button', { name: '用户菜单：王丽华改' }).waitFor();

    // The operation log shows the save, with its time tag.
    await page.getByRole('tab', { name: '操作日志' }).click();
    const row = page.locator('.ant-table-row').filter({ hasText: '修改个人信息' }).first();
    await row.waitFor();
    const tag = row.locator('[data-time-tag]');
    const ms = Number((await tag.innerText()).replace('ms', ''));
    const expected = ms <= 300 ? 'success' : ms <= 1000 ? 'warning' : 'error';
    expect(await tag.getAttribute('data-time-tag')).toBe(expected);
    expect(await tag.getAttribute('class')).toContain(`ant-tag-${expected}`);
  });

  it('keeps the company’s bank information in 银行信息, checking the account number', async () => {
    const page = await openCenter('disposer');
    await page.getByRole('tab', { name: '银行信息' }).click();
    const form = page.locator('form#company-bank');
    await form.getByRole('button', { name: /^保\s?存$/ }).waitFor();
    await form.getByRole('button', { name: /^保\s?存$/ }).click();
    await expect.poll(() => errorsOf(form, '开户银行')).toBe('请输入开户银行');
    await expect.poll(() => errorsOf(form, '银行账号')).toBe('请输入银行账号');
    await itemOf(form, '开户银行').locator('input').fill('中国建设银行南京江宁支行');
    await itemOf(form, '账户名称').locator('input').fill('江苏绿源环保科技有限公司');
    await itemOf(form, '银行账号').locator('input').fill('3205 0159 ab');
    await form.getByRole('button', { name: /^保\s?存$/ }).click();
    await expect.poll(() => errorsOf(form, '银行账号')).toBe('银行账号格式不正确');
    await itemOf(form, '银行账号').locator('input').fill('3205 0159 3600 0000 1234');
    await form.getByRole('button', { name: /^保\s?存$/ }).click();
    await page.locator('.ant-message-success').getByText('保存成功').waitFor();
    const api = await server.login('disposer');
    expect((await api.get('/api/companyBank/info')).body).toMatchObject({
      bankName: '中国建设银行南京江宁支行',
      accountName: '江苏绿源环保科技有限公司',
      accountNo: '32050159360000001234',
    });
    await form.getByText(/^更新于 /).waitFor();
  });

  it('changes the e-mail with a 60 s resend countdown and every message', async () => {
    const page = await openCenter('disposer', true);
    const before = await userRow('disposer');
    await page.getByTestId('user-info').getByRole('button', { name: '修改邮箱' }).click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '修改邮箱' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: '确认修改' }).click();
    expect(await errorsOf(dialog, '新邮箱')).toBe('请输入新邮箱');
    expect(await errorsOf(dialog, '验证码')).toBe('请输入验证码');
    expect(await errorsOf(dialog, '当前密码')).toBe('请输入当前密码');

    const email = itemOf(dialog, '新邮箱').locator('input');
    await email.fill(before.email!.toUpperCase());
    await expect.poll(() => errorsOf(dialog, '新邮箱')).toBe('新邮箱不能与旧邮箱相同');
    await email.fill('not-an-email');
    await expect.poll(() => errorsOf(dialog, '新邮箱')).toBe('邮箱格式错误');

    // The code goes only to a well-formed address.
    const send = dialog.getByRole('button', { name: '获取验证码' });
    await send.click();
    expect(await page.locator('.ant-message-success').count()).toBe(0);

    await email.fill('disposer.new@wastegen.cn');
    await send.click();
    await page.locator('.ant-message-success').getByText('发送成功，验证码有效期5分钟').waitFor();
    const countdown = dialog.getByRole('button', { name: /秒后重新发送/ });
    await countdown.waitFor();
    expect(await countdown.isDisabled()).toBe(true);
    await page.clock.fastForward(30_000);
    await expect.poll(async () => Number(/(\d+)秒/.exec(await countdown.innerText())?.[1])).toBeLessThanOrEqual(30);
    await page.clock.fastForward(31_000);
    const resend = dialog.getByRole('button', { name: '重新发送' });
    await resend.waitFor();
    expect(await resend.isEnabled()).toBe(true);

    // A wrong password is refused under its field; the right one with the code changes the e-mail.
    await itemOf(dialog, '验证码').locator('input').fill('8888');
    await itemOf(dialog, '当前密码').locator('input').fill('Wrong@2026');
    await dialog.getByRole('button', { name: '确认修改' }).click();
    await expect.poll(() => errorsOf(dialog, '当前密码')).toBe('密码错误');
    expect((await userRow('disposer')).email).toBe(before.email);

    // Enter in a field submits the dialog.
    await itemOf(dialog, '当前密码').locator('input').fill(DEMO_PASSWORD);
    await itemOf(dialog, '当前密码').locator('input').press('Enter');
    await page.locator('.ant-message-success').getByText('邮箱修改成功').waitFor();
    await expect.poll(async () => (await userRow('disposer')).email).toBe('disposer.new@wastegen.cn');
    await page.getByTestId('user-info').getByText('disposer.new@wastegen.cn').waitFor();
  });

  it('opens the password dialog with its messages', async () => {
    const page = await openCenter('logistics');
    await page.getByTestId('user-info').getByRole('button', { name: '修改密码' }).click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '确认修改' }).filter({ hasText: '旧密码' });
    await dialog.getByRole('button', { name: '确认修改' }).click();
    expect(await errorsOf(dialog, '旧密码')).toBe('请输入旧密码');
    expect(await errorsOf(dialog, '新密码')).toBe('请输入新密码');
    expect(await errorsOf(dialog, '确认密码')).toBe('请再次输入密码');
    await itemOf(dialog, '新密码').locator('input').fill('abc');
    await expect.poll(() => errorsOf(dialog, '新密码')).toBe(PASSWORD_RULE_MESSAGE);
  });

  it('uploads a png avatar, refuses other types, and shows the cities and the week’s visits', async () => {
    const page = await openCenter('supervisor');
    const input = page.locator('.wg-user-center input[type=file]');
    await input.setInputFiles({ name: 'me.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    await page.locator('.ant-message-error').getByText('头像只能是 jpg 或 png 格式').waitFor();
    expect((await userRow('supervisor')).avatar).toBeNull();

    await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    await page.locator('.ant-message-success').getByText('头像修改成功').waitFor();
    await expect.poll(async () => (await userRow('supervisor')).avatar).toMatch(/\.png$/);
    await page.locator('.wg-avatar-upload img[src^="blob:"]').waitFor();
    await page.locator('header .wg-user img[src^="blob:"]').waitFor();

    // Cities of the province: 6 on the first slide, the rest on the second, counted from the companies.
    const { body } = await (await server.login('supervisor')).get('/api/users/center/cities');
    const cities = body.cities as { code: string; companies: number }[];
    expect(cities.length).toBeGreaterThan(6);
    const slides = page.getByTestId('city-carousel').locator('.slick-slide:not(.slick-cloned) .wg-city-slide');
    await expect.poll(() => slides.count()).toBe(2);
    expect(await slides.nth(0).locator('.wg-city').count()).toBe(6);
    expect(await slides.nth(1).locator('.wg-city').count()).toBe(cities.length - 6);
    expect(await slides.nth(0).locator('.wg-city').first().getAttribute('data-code')).toBe(cities[0]!.code);

    // The shell posted this session's visit; both weekly cards draw their line.
    const today = await server.ctx.db.selectFrom('visits').select(['pv']).where(sql<boolean>`date = current_date`).executeTakeFirst();
    expect(Number(today?.pv ?? 0)).toBeGreaterThan(0);
    for (const id of ['recent-visits', 'recent-ip']) {
      await page.getByTestId(id).locator('canvas').first().waitFor();
    }
    const chart = await (await server.login('supervisor')).get('/api/visits/chartData');
    const label = await page.getByTestId('recent-visits').getByRole('img').getAttribute('aria-label');
    expect(label).toContain(`${chart.body.weekDays.at(-1)} ${chart.body.visitsData.at(-1)}`);
  });
});
