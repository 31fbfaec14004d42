import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startAppServer } from '../helpers/browser.js';
import { button, columnTexts, dialog, listPage, notice, rows, sidebar } from '../helpers/engine-page.js';
import type { ApiClient, TestServer } from '../helpers/server.js';

/**
 * 视图管理 against the real server and the built app, as admin: a view created and designed in the
 * visual designer, published, found in its menu without reloading and used to add a record; a
 * definition with errors (or JSON that does not parse) cannot be saved; a save over someone else's
 * newer save asks first.
 */
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

async function openAsAdmin(path: string) {
  const opened = await openPage(browser, server.url, { token: admin.token });
  opened.page.setDefaultTimeout(15_000);
  opened.page.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() >= 400) console.error(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  await opened.page.goto(path);
  await opened.page.locator('.wg-navbar').waitFor();
  return opened;
}

/** Picks an option by its text in the select that is open now. */
async function pick(page: Page, select: Locator, text: string): Promise<void> {
  await select.click();
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
    .filter({ hasText: text })
    .first()
    .click();
}

const designerRow = (page: Page, list: 'table' | 'form', i: number) =>
  page.locator(`.designer-grid[data-list="${list}"] tr[data-row="${i}"]`);

describe('视图管理 and the view designer', () => {
  it('creates a view in the designer, publishes it, and adds a record on its page', async () => {
    const { page, errors } = await openAsAdmin('/dev-tools/generation');
    const views = page.locator('.generation-page');
    await views.locator('.ant-table-row').first().waitFor();

    // 新增: name, component name and the parent menu.
    await button(views, '新增').click();
    const add = dialog(page, '新增视图');
    await add.getByLabel('视图名称').fill('设备台账');
    await add.getByLabel('组件名称').fill('equipLedger');
    await add.locator('.ant-select').click();
    await page.keyboard.type('危废管理');
    await page.locator('.ant-select-tree-node-content-wrapper').filter({ hasText: '危废管理' }).first().click();
    const added = page.waitForResponse((r) => r.url().includes('/api/generation/add'));
    await button(add, '确定').click();
    expect((await added).status()).toBe(200);
    await notice(page, '新增成功').waitFor();
    const row = views.locator('.ant-table-row').filter({ hasText: 'equipLedger' });
    await row.waitFor();
    expect(await row.innerText()).toContain('未设计');

    // 设计: two fields, the second a whole number.
    await button(row, '设计').click();
    const designer = page.locator('.view-designer');
    await designer.waitFor();
    await button(designer, '添加字段').click();
    await designerRow(page, 'table', 0).locator('[data-cell="name"]').fill('deviceName');
    await designerRow(page, 'table', 0).locator('[data-cell="chName"]').fill('设备名称');
    await button(designer, '添加字段').click();
    await designerRow(page, 'table', 1).locator('[data-cell="name"]').fill('quantity');
    await designerRow(page, 'table', 1).locator('[data-cell="chName"]').fill('数量');
    await pick(page, designerRow(page, 'table', 1).locator('.ant-select').first(), '整数');

    // The live preview draws the unsaved definition.
    const preview = designer.locator('.design-preview');
    await expect
      .poll(() => preview.locator('.engine-list-table [role=columnheader]').allInnerTexts())
      .toEqual(expect.arrayContaining(['设备名称', '数量']));

    // The first field required, from the form's settings (the form uses the table's columns).
    await designer.getByRole('tab', { name: '表单字段' }).click();
    await designerRow(page, 'form', 0).getByRole('switch').first().click();
    // 显示 reads as words, not as the codes 1 to 4.
    const show = designerRow(page, 'form', 0).locator('td').nth(5);
    expect((await show.innerText()).trim()).toBe('显示');
    await show.locator('.ant-select').click();
    const showOptions = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option');
    await expect.poll(() => showOptions.allInnerTexts()).toEqual(['显示', '隐藏', '只读', '隐藏且不提交']);
    await page.keyboard.press('Escape');

    await button(designer, '保存设计').click();
    await notice(page, '保存成功').waitFor();
    // 发布 asks first, as the list's 发布 does.
    await button(designer, '发布').click();
    const confirm = dialog(page, '发布视图');
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('发布后「设备台账」立即在其菜单和路由上可用。确定发布吗？');
    await button(confirm, '发布').click();
    await notice(page, '发布成功').waitFor();
    const saved = (await admin.get('/api/generation/list', { name: '设备台账' })).body.content[0];
    expect(saved.status).toBe(1);
    const template = JSON.parse(saved.disTemplate);
    expect(template.tableOption.map((f: { name: string; dataType: string }) => [f.name, f.dataType])).toEqual([
      ['deviceName', 'varchar'],
      ['quantity', 'long'],
    ]);
    expect(template.tableOption[0].configure.required).toBe(true);

    // In its menu at once, without signing in again or reloading.
    const path = `/dev-tools/temp/page/equipLedger/${saved.id}`;
    const nav = sidebar(page);
    const entry = nav.getByText('设备台账', { exact: true });
    if (!(await entry.isVisible())) await nav.getByText('危废管理', { exact: true }).click();
    await entry.click();
    await page.waitForURL((u) => u.pathname === path);

    // Add a record on the published page.
    const list = listPage(page, saved.id);
    await list.locator('.engine-list-table').waitFor();
    // The menus and definition reloads the publish set off redraw the page: let them finish first.
    await page.waitForLoadState('networkidle');
    await button(list, '新增').click();
    const form = dialog(page, '新增');
    await form.getByLabel('设备名称').waitFor();
    await button(form, '确定').click();
    await expect.poll(() => form.locator('[data-field="deviceName"] .ant-form-item-explain-error').count()).toBe(1);
    await form.getByLabel('设备名称').fill('离心机 A-01');
    await form.getByLabel('数量').fill('3');
    await button(form, '确定').click();
    await notice(page, '新增成功').waitFor();
    await expect.poll(() => columnTexts(list, '设备名称')).toEqual(['离心机 A-01']);
    expect(await rows(list).count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('refuses to save a definition with errors, showing each at its control', async () => {
    const id = (
      await admin.post('/api/generation/add', {
        name: '错误示例',
        disMenu: JSON.stringify({ componentName: 'badExample', name: '错误示例', pid: null }),
        disTemplate: JSON.stringify({
          basicOption: { add: true },
          tableOption: [{ name: 'title', chName: '标题', dataType: 'varchar', configure: { sort: 1, show: 1 } }],
        }),
      })
    ).body.id as number;
    const { page, errors } = await openAsAdmin(`/dev-tools/generation?design=${id}`);
    const designer = page.locator('.view-designer');
    await designer.waitFor();
    const save = button(designer, '保存设计');
    await designerRow(page, 'table', 0).locator('[data-cell="chName"]').fill('标题名');
    expect(await save.isEnabled()).toBe(true);

    // A name that is not an identifier: E_NAME at the row, the save button off, the summary above.
    await designerRow(page, 'table', 0).locator('[data-cell="name"]').fill('1title');
    const at = designer.locator('[data-problem-pointer="/disTemplate/tableOption/0"]');
    await expect.poll(() => at.innerText()).toContain('E_NAME');
    expect(await save.isDisabled()).toBe(true);
    expect(await designer.locator('[data-problems]').innerText()).toContain('/disTemplate/tableOption/0/name');

    // A validator outside the named list, set through the JSON tab: E_VALIDATOR, same pointer as wastegen check.
    await designerRow(page, 'table', 0).locator('[data-cell="name"]').fill('title');
    await expect.poll(() => save.isEnabled()).toBe(true);
    await designer.getByRole('tab', { name: 'JSON' }).click();
    const json = designer.getByLabel('模板 JSON');
    const text = await json.inputValue();
    await json.fill(text.replace('"show": 1', '"show": 1, "validator": "nonsense"'));
    await expect.poll(() => designer.locator('.designer-problem-list').first().innerText()).toContain('E_VALIDATOR');
    expect(await designer.locator('[data-problems]').innerText()).toContain('/disTemplate/tableOption/0/configure/validator');
    expect(await save.isDisabled()).toBe(true);

    // JSON that does not parse is kept, with its error, and blocks saving too.
    await json.fill(`${text.slice(0, -3)}`);
    await designer.locator('[data-json-error]').waitFor();
    expect(await save.isDisabled()).toBe(true);
    await json.fill(text);
    await expect.poll(() => designer.locator('[data-json-error]').count()).toBe(0);
    await expect.poll(() => save.isEnabled()).toBe(true);

    // Nothing of the refused states reached the server; the valid one saves.
    expect(JSON.parse((await admin.get('/api/generation/detail', { id })).body.disTemplate).tableOption[0].chName).toBe('标题');
    await save.click();
    await notice(page, '保存成功').waitFor();
    expect(JSON.parse((await admin.get('/api/generation/detail', { id })).body.disTemplate).tableOption[0].chName).toBe('标题名');

    // Unsaved edits survive a reload: offered back, and restored on 恢复.
    await designer.getByRole('tab', { name: '表格列' }).click();
    await designerRow(page, 'table', 0).locator('[data-cell="chName"]').fill('标题草稿');
    // The draft is in browser storage once the designer has written it.
    await expect
      .poll(() => page.evaluate(() => Object.values(localStorage).some((v) => v.includes('标题草稿'))), { timeout: 10_000 })
      .toBe(true);
    page.on('dialog', (d) => void d.accept());
    await page.reload();
    await designer.locator('[data-draft]').waitFor();
    expect(await designerRow(page, 'table', 0).locator('[data-cell="chName"]').inputValue()).toBe('标题名');
    await button(designer.locator('[data-draft]'), '恢复').click();
    expect(await designerRow(page, 'table', 0).locator('[data-cell="chName"]').inputValue()).toBe('标题草稿');
    expect(await save.isEnabled()).toBe(true);

    // Someone else saves meanwhile, in the same second: this save is refused and asks, not written over theirs.
    const theirs = JSON.parse((await admin.get('/api/generation/detail', { id })).body.disTemplate);
    theirs.tableOption[0].chName = '别人的标题';
    expect((await admin.post('/api/generation/design', { id, disTemplate: JSON.stringify(theirs) })).status).toBe(200);
    await save.click();
    const conflict = page.getByRole('dialog', { name: '视图已被他人修改' });
    await conflict.waitFor();
    expect(JSON.parse((await admin.get('/api/generation/detail', { id })).body.disTemplate).tableOption[0].chName).toBe('别人的标题');
    await conflict.getByRole('button', { name: '覆盖保存' }).click();
    await notice(page, '保存成功').waitFor();
    expect(JSON.parse((await admin.get('/api/generation/detail', { id })).body.disTemplate).tableOption[0].chName).toBe('标题草稿');
    await expect.poll(() => designer.getByText('已保存', { exact: true }).count()).toBe(1);
    expect(errors).toEqual([]);
  });
  it('gives field names and labels room to be read whole in the designer at 1280 px', async () => {
    const id = (
      await admin.post('/api/generation/add', {
        name: '长字段名示例',
        disMenu: JSON.stringify({ componentName: 'longFieldNames', name: '长字段名示例', pid: null }),
        disTemplate: JSON.stringify({
          basicOption: { add: true },
          tableOption: [
            { name: 'disposalContractNo', chName: '处置合同编号（年度）', dataType: 'varchar', configure: { sort: 1, show: 1 } },
          ],
        }),
      })
    ).body.id as number;
    const { page, errors } = await openAsAdmin(`/dev-tools/generation?design=${id}`);
    await page.locator('.view-designer').waitFor();
    for (const cell of ['name', 'chName']) {
      const input = designerRow(page, 'table', 0).locator(`[data-cell="${cell}"]`);
      await input.waitFor();
      // The whole text shows: nothing scrolled out of the input.
      const fits = await input.evaluate((e: HTMLInputElement) => e.scrollWidth <= e.clientWidth);
      expect(fits, `${cell} is read whole`).toBe(true);
    }
    expect(errors).toEqual([]);
  });
});
