import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, withAppAndBrowser } from '../helpers/browser.js';
import { button, dialog, listPage, notice } from '../helpers/engine-page.js';
import type { TestServer } from '../helpers/server.js';

/**
 * Dialogs taller than a 1366×768 screen, in the built app against the real server: a failed submit
 * shows where the user is looking. The first invalid field comes into view and has the focus; a
 * server's refusal is a toast on screen; no message shows a regular expression.
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

/** Scrolls the dialog's overlay to its end, where the footer's buttons are. */
async function scrollToFooter(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const wrap of document.querySelectorAll<HTMLElement>('.ant-modal-wrap')) wrap.scrollTop = wrap.scrollHeight;
  });
}

/** The box lies wholly on screen. */
async function onScreen(target: Locator): Promise<boolean> {
  return target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
  });
}

/** The first message of the dialog is on screen, and the focus is in the form item that holds it. */
async function expectFirstErrorShown(d: Locator, text: string): Promise<void> {
  const first = d.locator('.ant-form-item-explain-error').first();
  await expect.poll(() => first.innerText()).toBe(text);
  await expect.poll(() => onScreen(first)).toBe(true);
  await expect
    .poll(() =>
      first.evaluate((el) => {
        const item = el.closest('.ant-form-item');
        return !!item && item.contains(document.activeElement) && document.activeElement !== document.body;
      }),
    )
    .toBe(true);
}

describe('a failed submit at 1366×768', () => {
  /** The 手工录入 dialog, opened: taller than the screen. */
  async function manualOrder() {
    const { page } = await open('disposer', '/dispose/vBuild/temp/30');
    await listPage(page, 19).getByRole('button', { name: '手工录入' }).click();
    const d = dialog(page, '新增手工处置单');
    await d.waitFor();
    expect((await d.locator('.ant-modal-container, .ant-modal-content').first().boundingBox())!.height).toBeGreaterThan(SCREEN.height);
    return { page, d, submit: d.getByRole('button', { name: /^提\s*交$/ }) };
  }

  it('手工录入: the first invalid field comes into view with the focus', async () => {
    const { page, d, submit } = await manualOrder();
    await scrollToFooter(page);
    await submit.click();
    await expectFirstErrorShown(d, '请选择处置类型');
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
    await scrollToFooter(page);
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
      const { page } = await open(user, path);
      const list = listPage(page, view);
      await list.locator('.engine-list-toolbar').waitFor();
      await button(list, '新增').first().click();
      const d = dialog(page, '新增');
      await d.locator('[data-form-mode]').waitFor();
      await scrollToFooter(page);
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
