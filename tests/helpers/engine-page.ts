/**
 * Locators and steps for the low-code list page (src/engine/list) in browser tests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Locator, Page, Request } from 'playwright-core';
import { expect } from 'vitest';
import { DIST_DIR } from './browser.js';
import { DEMO_PASSWORD, TEST_CAPTCHA } from './server.js';

export const listPage = (page: Page, viewId: number) => page.locator(`.engine-list-page[data-view-id="${viewId}"]`);
export const rows = (scope: Page | Locator) => scope.locator('.engine-list-table .engine-row');
/** antd spaces two-character labels (确 定) and icons add their own name (plus 新增). */
export const button = (scope: Page | Locator, text: string) =>
  scope.getByRole('button', { name: new RegExp(`(^|\\s)${[...text].join('\\s*')}$`) });
export const notice = (page: Page, text: string) => page.locator('.ant-message').getByText(text);
export const dialog = (page: Page, title: string) => page.getByRole('dialog').filter({ hasText: title });
export const sidebar = (page: Page) => page.getByRole('navigation', { name: '侧边菜单' });

export async function headers(scope: Page | Locator): Promise<string[]> {
  return (await scope.locator('.engine-list-table [role=columnheader]').allInnerTexts()).map((h) => h.trim());
}

/** The column's cells, by header title. */
export async function columnTexts(scope: Page | Locator, title: string): Promise<string[]> {
  const index = (await headers(scope)).indexOf(title);
  expect(index, `column ${title}`).toBeGreaterThanOrEqual(0);
  return rows(scope)
    .locator(`[role=cell]:nth-child(${index + 1})`)
    .allInnerTexts();
}

export const isListCall = (viewId: number) => (r: Request) =>
  r.method() === 'GET' && new URL(r.url()).pathname === `/api/general/list/${viewId}`;

/** Runs an action and waits for the list call it causes and the table after it. */
export async function listCall(page: Page, viewId: number, action: () => Promise<unknown>): Promise<URLSearchParams> {
  const req = page.waitForRequest(isListCall(viewId));
  await action();
  const r = await req;
  await r.response();
  await page.locator(`.engine-list-page[data-view-id="${viewId}"][data-loading="false"]`).waitFor();
  return new URL(r.url()).searchParams;
}

/** Picks the first option of a select in a dialog (keyboard: the dropdown's active option). */
export async function chooseFirstOption(page: Page, scope: Locator, label: string): Promise<string> {
  const input = scope.getByLabel(label, { exact: true });
  const id = String(await input.getAttribute('id'));
  await input.click();
  const option = page
    .locator('.ant-select-dropdown', { has: page.locator(`[id="${id}_list"]`) })
    .locator('.ant-select-item-option')
    .first();
  await option.waitFor();
  const text = (await option.innerText()).trim();
  await input.press('Enter');
  const select = scope.locator('.ant-select').filter({ has: page.locator(`[id="${id}"]`) });
  await expect.poll(() => select.innerText()).toContain(text.slice(0, 4));
  return text;
}

/** Logs in through the real login page (captcha fixed by the test server) and waits for the shell. */
export async function loginThroughPage(page: Page, username: string, redirect = '/'): Promise<void> {
  await page.goto(`/login?redirect=${encodeURIComponent(redirect)}`);
  await page.locator('img[alt="验证码"]').waitFor();
  await page.getByPlaceholder('账号', { exact: true }).fill(username);
  await page.getByPlaceholder('密码', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByPlaceholder('验证码', { exact: true }).fill(TEST_CAPTCHA);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((u) => u.pathname !== '/login');
  await page.locator('.wg-navbar').waitFor();
}

/**
 * The generated page chunks of the build: `assets/page-*.js` (generated/views|screens/…/page.tsx),
 * each with the list URL of the view it draws, if any.
 */
export function generatedChunks(): Map<string, string> {
  const assets = join(DIST_DIR, 'assets');
  const out = new Map<string, string>();
  for (const name of readdirSync(assets)) {
    // A generated page is a module named page.tsx: its chunk is page-{8-character hash}.js.
    if (!/^page-[\w-]{8}\.js$/.test(name)) continue;
    const text = readFileSync(join(assets, name), 'utf8');
    out.set(name, /\/api\/general\/list\/\d+/.exec(text)?.[0] ?? '');
  }
  return out;
}

/** Records the generated page chunks the page loads, as the list URLs they draw. */
export function watchGeneratedChunks(page: Page): string[] {
  const chunks = generatedChunks();
  const loaded: string[] = [];
  page.on('request', (r) => {
    const name = basename(new URL(r.url()).pathname);
    if (chunks.has(name)) loaded.push(chunks.get(name) || name);
  });
  return loaded;
}

/**
 * Runs a row's action by its label: the one shown in the row (查看, or a table's first link), or one
 * from the row's 更多 menu.
 */
export async function rowAction(row: Locator, label: string): Promise<void> {
  const inline = row.getByRole('button', { name: new RegExp(`^\\s*${[...label].join('\\s*')}\\s*$`) });
  if (await inline.count()) {
    await inline.first().click();
    return;
  }
  await row.getByRole('button', { name: /更多/ }).click();
  await row.page().locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem', { name: label, exact: true }).click();
}
