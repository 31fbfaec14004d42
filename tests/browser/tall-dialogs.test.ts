import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, withAppAndBrowser } from '../helpers/browser.js';
import { button, dialog, listPage, notice } from '../helpers/engine-page.js';
import type { TestServer } from '../helpers/server.js';

/**
 * Dialogs whose forms are taller than a 1366×768 screen, in the built app against the real server: the
 * dialog fits the screen, its title and buttons in view and its body scrolling between them; a failed
 * submit shows where the user is looking. The first invalid field comes into view inside the body and
 * has the focus; a server's refusal is a toast on screen; no message shows a regular expression.
 */

const SCREEN = { width: 1366, height: 768 };

let server: TestServer;
let browser: Browser;
withAppAndBrowser((s, b) => {
  [server, browser] = [s, b];
});

async function open(user: string, path: string) {
  const client = await server.login(user);
  const opened = await openPage(browser, server.url, { token: client.token, viewport: SCREEN });
  opened.page.setDefaultTimeout(10_000);
  await opened.page.goto(path);
  await opened.page.locator('.wg-navbar').waitFor();
  return opened;
}

/** The box lies wholly on screen. */
async function onScreen(target: Locator): Promise<boolean> {
  return target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
  });
}

/** The box lies wholly inside the visible part of its dialog's scrolling body. */
async function inBody(target: Locator): Promise<boolean> {
  return target.evaluate((el) => {
    const body = el.closest('.ant-modal-body');
    if (!body) return false;
    const r = el.getBoundingClientRect();
    const b = body.getBoundingClientRect();
    return r.height > 0 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
  });
}

/**
 * The dialog as staff meet it at 1366×768: its form is taller than its body, which scrolls; the dialog,
 * its title and its footer's buttons lie on screen; the page behind does not scroll to reach them.
 */
async function expectFitsScreen(page: Page, d: Locator, buttons: Locator[]): Promise<void> {
  const body = d.locator('.ant-modal-body');
  await expect.poll(() => body.evaluate((el) => el.scrollHeight > el.clientHeight + 40)).toBe(true);
  expect(await body.evaluate((el) => getComputedStyle(el).overflowY)).toBe('auto');
  expect(await onScreen(d.locator('.ant-modal-container'))).toBe(true);
  expect(await onScreen(d.locator('.ant-modal-title'))).toBe(true);
  for (const b of buttons) expect(await onScreen(b)).toBe(true);
  expect(await page.evaluate(() => [...document.querySelectorAll('.ant-modal-wrap')].every((w) => w.scrollHeight <= w.clientHeight))).toBe(
    true,
  );
}

/** The first message of the dialog is in view inside its body, and the focus is in the form item that holds it. */
async function expectFirstErrorShown(d: Locator, text: string): Promise<void> {
  const first = d.locator('.ant-form-item-explain-error').first();
  await expect.poll(() => first.innerText()).toBe(text);
  await expect.poll(() => onScreen(first)).toBe(true);
  await expect.poll(() => inBody(first)).toBe(true);
  await expect
    .poll(() =>
      first.evaluate((el) => {
        const item = el.closest('.ant-form-item');
        return !!item && item.contains(document.activeElement) && document.activeElement !== document.body;
      }),
    )
    .toBe(true);
}

/** The 手工录入 dialog, opened: its form is taller than the screen. */
async function manualOrder() {
  const { page } = await open('disposer', '/dispose/vBuild/temp/30');
  await listPage(page, 19).getByRole('button', { name: '手工录入' }).click();
  const d = dialog(page, '新增手工处置单');
  await d.waitFor();
  return { page, d, submit: d.getByRole('button', { name: /^提\s*交$/ }), cancel: d.getByRole('button', { name: /^取\s*消$/ }) };
}

/** The engine's 新增 dialog of a view, opened (a generated page's). */
async function addDialog(user: string, path: string, view: number) {
  const { page } = await open(user, path);
  const list = listPage(page, view);
  await list.locator('.engine-list-toolbar').waitFor();
  await button(list, '新增').first().click();
  const d = dialog(page, '新增');
  await d.locator('[data-form-mode]').waitFor();
  return { page, d };
}

describe('the tallest dialogs at 1366×768', () => {
  it('手工录入 keeps its title and 提交/取消 on screen, its form scrolling inside', async () => {
    const { page, d, submit, cancel } = await manualOrder();
    await expectFitsScreen(page, d, [submit, cancel]);
    // The body scrolls to its last field, the buttons staying where they are.
    const at = await submit.boundingBox();
    await d.locator('.ant-modal-body').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await expect.poll(() => d.locator('.ant-modal-body').evaluate((el) => el.scrollTop > 0)).toBe(true);
    expect(await submit.boundingBox()).toEqual(at);
  });

  it('a generated page’s 新增 with many fields (处置订单) keeps its title and 确定/取消 on screen', async () => {
    const { page, d } = await addDialog('admin', '/dev-tools/temp/page/disposalOrder/19', 19);
    await expectFitsScreen(page, d, [button(d, '确定'), button(d, '取消')]);
  });
});

describe('a failed submit at 1366×768', () => {
  it('手工录入: the first invalid field comes into view with the focus', async () => {
    const { d, submit } = await manualOrder();
    await submit.click();
    await expectFirstErrorShown(d, '请选择处置类型');
  });

  it('手工录入: submitted with the body scrolled to its end, the first invalid field is scrolled back into view', async () => {
    const { d, submit } = await manualOrder();
    const body = d.locator('.ant-modal-body');
    await body.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    const bottom = await body.evaluate((el) => el.scrollTop);
    expect(bottom).toBeGreaterThan(0);
    await submit.click();
    await expectFirstErrorShown(d, '请选择处置类型');
    expect(await body.evaluate((el) => el.scrollTop)).toBeLessThan(bottom);
  });

  it('手工录入: a refusal of the server is a toast on screen, and nothing typed is lost', async () => {
    const { page, d, submit } = await manualOrder();
    // Every required field filled, with a code the server does not know.
    const input = (label: string) => d.getByLabel(label, { exact: true });
    const choose = async (label: string, text: string) => {
      const select = input(label);
      const id = String(await select.getAttribute('id'));
      await select.click();
      await page
        .locator('.ant-select-dropdown', { has: page.locator(`[id="${id}_list"]`) })
        .locator('.ant-select-item-option')
        .filter({ hasText: text })
        .first()
        .click();
    };
    await choose('处置类型', '焚烧处置');
    await choose('签约企业', '苏州华瑞精细化工有限公司');
    await input('危废代码').fill('HW08');
    await input('危废名称').fill('废矿物油');
    await input('数量').fill('2.5');
    await choose('计量单位', '吨');
    await input('单价（元）').fill('1000.123');
    await input('单价（元）').press('Tab');
    const answered = page.waitForResponse((r) => r.url().includes('/api/disposalOrder/insertManualDisposalOrder'));
    await submit.click();
    expect((await answered).status()).toBe(400);
    const toast = notice(page, '危废代码不存在');
    await toast.waitFor();
    expect(await onScreen(toast)).toBe(true);
    // Nothing typed is lost.
    expect(await input('危废名称').inputValue()).toBe('废矿物油');
    expect(await input('数量').inputValue()).toBe('2.500');
  });

  for (const { user, path, view, first } of [
    { user: 'admin', path: '/dev-tools/temp/page/contract/16', view: 16, first: '请输入合同编号' },
    { user: 'admin', path: '/dev-tools/temp/page/disposalOrder/19', view: 19, first: '请选择产废单位' },
    { user: 'admin', path: '/dev-tools/temp/page/stockIn/12', view: 12, first: '请选择危废类别' },
    { user: 'logistics', path: '/dev-tools/temp/page/vehicle/17', view: 17, first: '请输入车牌号' },
  ]) {
    it(`the engine's 新增 of view ${view}: the first invalid field comes into view with the focus`, async () => {
      const { d } = await addDialog(user, path, view);
      await button(d, '确定').click();
      await expectFirstErrorShown(d, first);
    });
  }

  it('车牌号 that does not match says 格式不正确, never the pattern', async () => {
    const { page } = await open('logistics', '/dev-tools/temp/page/vehicle/17');
    const list = listPage(page, 17);
    await list.locator('.engine-list-toolbar').waitFor();
    await button(list, '新增').first().click();
    const d = dialog(page, '新增');
    const plate = d.getByLabel('车牌号', { exact: true });
    await plate.fill('测试A123');
    await plate.press('Tab');
    const message = d.locator('[data-field="plateNo"] .ant-form-item-explain-error');
    await expect.poll(() => message.innerText()).toBe('车牌号格式不正确');
  });
});
