import { readFileSync } from 'node:fs';
import dayjs from 'dayjs';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startAppServer } from '../helpers/browser.js';
import {
  button,
  chooseFirstOption,
  columnTexts,
  dialog,
  generatedChunks,
  headers,
  isListCall,
  listCall,
  listPage,
  loginThroughPage,
  notice,
  rowAction,
  rows,
  sidebar,
  watchGeneratedChunks,
} from '../helpers/engine-page.js';
import type { ApiClient, TestServer } from '../helpers/server.js';

/**
 * Generated pages and the runtime renderer end to end: the real server and the built app, as admin.
 * A generated page does its whole journey; a view published after the build is drawn and used at run
 * time; a changed definition, the preview and a broken definition take the runtime path too.
 * (tests/browser/engine-list.test.ts covers the list page's details.)
 */

const STOCK_IN = '/dev-tools/temp/page/stockIn/12';
const definition = (file: string) => JSON.parse(readFileSync(new URL(`../../definitions/views/${file}`, import.meta.url), 'utf8'));

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

/** A page signed in as admin (the token the API login gave), opened at `path`. */
async function openAsAdmin(path: string) {
  const opened = await openPage(browser, server.url, { token: admin.token });
  opened.page.setDefaultTimeout(10_000);
  const chunks = watchGeneratedChunks(opened.page);
  await opened.page.goto(path);
  await opened.page.locator('.wg-navbar').waitFor();
  return { ...opened, chunks };
}

/** Adds and publishes a view (no menu entry); its id. */
async function publishView(name: string, componentName: string, template: Record<string, unknown>): Promise<number> {
  const added = await admin.post('/api/generation/add', {
    name,
    disMenu: JSON.stringify({ componentName, name }),
    disTemplate: JSON.stringify(template),
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  const id = Number(added.body.id);
  expect((await admin.post('/api/generation/publish', { id })).status).toBe(200);
  return id;
}

/** Opens a sidebar entry under its section. */
async function viaSidebar(page: Page, section: string, item: string): Promise<void> {
  const nav = sidebar(page);
  const entry = nav.getByText(item, { exact: true });
  // The section is drawn with the menus; its entries with it when it is open.
  await nav.getByText(section, { exact: true }).waitFor();
  if (!(await entry.isVisible())) await nav.getByText(section, { exact: true }).click();
  await entry.click();
}

describe('low-code pages end to end', () => {
  it('logs in and works a generated page: add, edit, look, delete, search, page, export and import', async () => {
    const { page, errors } = await openPage(browser, server.url);
    page.setDefaultTimeout(10_000);
    const chunks = watchGeneratedChunks(page);
    await loginThroughPage(page, 'admin');

    // The stock-in menu entry is the generated page's path.
    const menus = (await admin.get('/api/menus/build')).body as { path: string; children?: { path: string; meta: { title: string } }[] }[];
    const entry = menus.flatMap((m) => m.children ?? []).find((c) => c.meta.title === '危废入库');
    expect(entry?.path).toBe(STOCK_IN);

    const first = page.waitForRequest(isListCall(12));
    await viaSidebar(page, '危废管理', '危废入库');
    await page.waitForURL((u) => u.pathname === STOCK_IN);
    await first;
    const list = listPage(page, 12);
    await rows(list).first().waitFor();
    // Drawn by its generated page: the build's chunk for view 12 was loaded.
    expect(chunks).toContain('/api/general/list/12');

    // Page 2, numbering continues; back to page 1.
    let q = await listCall(page, 12, () => page.locator('.ant-pagination-item-2').click());
    expect(q.get('page')).toBe('1');
    expect((await columnTexts(list, '序号'))[0]).toBe('11');
    await listCall(page, 12, () => page.locator('.ant-pagination-item-1').click());

    // Add.
    const stockNo = `RK2098${String(Date.now()).slice(-8)}`;
    await button(list, '新增').click();
    const add = dialog(page, '新增');
    await add.getByLabel('入库单号').fill(stockNo);
    await chooseFirstOption(page, add, '危废类别');
    await add.getByLabel('废物代码').fill('900-249-08');
    await add.getByLabel('危废名称').fill('端到端废液');
    await add.getByLabel('入库数量').fill('2');
    await chooseFirstOption(page, add, '入库仓库');
    await add.getByLabel('入库时间').click();
    await add.getByLabel('入库时间').fill(dayjs().format('YYYY-MM-DD 10:00:00'));
    await add.getByLabel('入库时间').press('Enter');
    await add.getByLabel('经办人', { exact: true }).fill('端到端');
    await button(add, '确定').click();
    await notice(page, '新增成功').waitFor();
    await add.waitFor({ state: 'hidden' });

    // Search finds it.
    await page.locator('.engine-search-bar').getByLabel('入库单号').fill(stockNo);
    q = await listCall(page, 12, () => button(page.locator('.engine-search-bar'), '搜索').click());
    expect(q.get('stockNo')).toBe(stockNo);
    expect(await columnTexts(list, '入库单号')).toEqual([stockNo]);

    // Edit.
    await rowAction(rows(list).first(), '编辑');
    const edit = dialog(page, '编辑');
    await expect.poll(() => edit.getByLabel('危废名称').inputValue()).toBe('端到端废液');
    await edit.getByLabel('危废名称').fill('端到端废液（改）');
    await button(edit, '确定').click();
    await notice(page, '编辑成功').waitFor();
    await expect.poll(async () => (await columnTexts(list, '危废名称'))[0]).toBe('端到端废液（改）');

    // Look: read-only, no confirm.
    await rows(list).first().getByRole('button', { name: '查看' }).click();
    const look = dialog(page, '查看');
    await expect.poll(() => look.getByLabel('危废名称').inputValue()).toBe('端到端废液（改）');
    expect(await button(look, '确定').count()).toBe(0);
    // A click while the dialog still zooms in can be lost on a loaded machine: close it once it has settled.
    await expect.poll(() => look.evaluate((el) => el.getAnimations({ subtree: true }).length)).toBe(0);
    await button(look.locator('.ant-modal-footer'), '关闭').click();
    await look.waitFor({ state: 'hidden' });

    // Export: an xlsx of what the search shows.
    const download = page.waitForEvent('download');
    await button(list, '导出').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
    const xlsx = readFileSync(String(await file.path()));
    expect(xlsx.subarray(0, 2).toString()).toBe('PK');

    // Delete, after the confirm.
    await rowAction(rows(list).first(), '删除');
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText('确认删除选中的1条数据？').waitFor();
    await listCall(page, 12, () => button(confirm, '确定').click());
    await notice(page, '删除成功').waitFor();
    expect(await rows(list).count()).toBe(0);

    // Import the exported sheet back: the server's verdicts are offered as a spreadsheet.
    await button(list, '导入').click();
    const importer = dialog(page, '将文件拖到此处');
    const imported = page.waitForResponse((r) => r.url().includes('/api/general/12/import'));
    await importer.locator('input[type=file]').setInputFiles({ name: '危废入库.xlsx', mimeType: 'application/octet-stream', buffer: xlsx });
    expect((await imported).status()).toBe(200);
    await importer.getByText('导入成功，详见返回的文件').waitFor();
    const verdicts = page.waitForEvent('download');
    await button(importer, '下载导入结果').click();
    expect((await verdicts).suggestedFilename()).toMatch(/\.xlsx$/);
    await button(importer.locator('.ant-modal-footer'), '关闭').click();
    // The re-imported row is back.
    await expect.poll(async () => (await admin.get('/api/general/list/12', { stockNo })).body.totalElements).toBe(1);
    expect(errors).toEqual([]);
  });

  it('opens a published view by its address although no menu points at it, titled by its name; the server decides who may', async () => {
    const componentName = 'noMenuView';
    const template = {
      basicOption: { add: true, edit: true, del: true, look: true, operation: true },
      tableOption: [{ name: 'title', chName: '标题', dataType: 'varchar', configure: { sort: 1, show: true } }],
      formOption: [{ name: 'title', chName: '标题', dataType: 'varchar', configure: { sort: 1, show: 1, required: true } }],
    };
    const id = await publishView('无菜单视图', componentName, template);
    const path = `/dev-tools/temp/page/${componentName}/${id}`;
    expect(JSON.stringify((await admin.get('/api/menus/build')).body)).not.toContain(path);

    const { page, errors } = await openAsAdmin(path);
    await listPage(page, id).locator('.engine-list-table').waitFor();
    expect(new URL(page.url()).pathname).toBe(path);
    expect(await headers(listPage(page, id))).toEqual(expect.arrayContaining(['标题']));
    // The tag and the breadcrumb take the view's name.
    const tag = page.locator(`.wg-tags .wg-tag[data-path="${path}"]`);
    await expect.poll(() => tag.locator('.wg-tag-title').innerText()).toBe('无菜单视图');
    expect(await tag.getAttribute('aria-selected')).toBe('true');
    await expect.poll(async () => (await page.locator('.wg-breadcrumb li').last().innerText()).trim()).toBe('无菜单视图');

    // A user whose roles do not grant the view's list permission is sent to /401 by the server's 403.
    const producer = await server.login('producer');
    const asProducer = await openPage(browser, server.url, { token: producer.token });
    await asProducer.page.goto(path);
    await asProducer.page.waitForURL((u) => u.pathname === '/401');

    // An unknown id says so instead of sending the user home.
    await page.goto('/dev-tools/temp/page/nothing/987654');
    await page.getByText('视图 987654 不存在').waitFor();
    expect(await page.locator('[data-missing-definition="view"]').count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/dev-tools/temp/page/nothing/987654');
    // No retry for what is not there, and no white screen.
    expect(await button(page, '重试').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('shows each message of a record the server refuses under its field, keeping what was typed', async () => {
    // 金额 has no maximum in the form: the schema accepts 1e14, the table's numeric(20,6) column does not.
    const componentName = 'refusedRecord';
    const template = {
      basicOption: { add: true, edit: true, del: true, look: true, operation: true },
      tableOption: [
        { name: 'title', chName: '标题', dataType: 'varchar', configure: { sort: 1, show: true } },
        { name: 'amount', chName: '金额', dataType: 'decimal', configure: { sort: 2, show: true } },
      ],
      formOption: [
        { name: 'title', chName: '标题', dataType: 'varchar', configure: { sort: 1, show: 1, required: true } },
        { name: 'amount', chName: '金额', dataType: 'decimal', configure: { sort: 2, show: 1 } },
      ],
    };
    const id = await publishView('拒收记录', componentName, template);
    const { page, errors } = await openAsAdmin(`/dev-tools/temp/page/${componentName}/${id}`);
    const list = listPage(page, id);
    await list.locator('.engine-list-table').waitFor();

    await button(list, '新增').click();
    const add = dialog(page, '新增');
    await add.getByLabel('标题').fill('一张大额单据');
    await add.getByLabel('金额').fill('100000000000000');
    const answer = page.waitForResponse((r) => r.url().includes(`/api/general/add/${id}`));
    await button(add, '确定').click();
    const refused = await answer;
    expect(refused.status()).toBe(400);
    expect(await refused.json()).toMatchObject({ errors: [{ field: 'amount', message: '金额超出范围' }] });

    // The message sits under 金额, the dialog stays open with every value as typed.
    const amount = add.locator('[data-field="amount"]');
    await expect.poll(() => amount.locator('.ant-form-item-explain-error').innerText()).toBe('金额超出范围');
    expect(await add.locator('[data-field="title"] .ant-form-item-explain-error').count()).toBe(0);
    expect(await add.getByLabel('标题').inputValue()).toBe('一张大额单据');
    expect((await add.getByLabel('金额').inputValue()).replace(/,/g, '')).toBe('100000000000000');
    expect(await listPage(page, id).getAttribute('data-crud-add')).toBe('1');

    // Corrected, the message goes and the record is saved.
    await add.getByLabel('金额').fill('1280.5');
    await expect.poll(() => amount.locator('.ant-form-item-explain-error').count()).toBe(0);
    await button(add, '确定').click();
    await notice(page, '新增成功').waitFor();
    await expect.poll(() => columnTexts(list, '标题')).toEqual(['一张大额单据']);
    expect(errors).toEqual([]);
  });

  it('publishes a new view through the API and works with it through the runtime renderer', async () => {
    const { page, errors, chunks } = await openAsAdmin('/abandonhome');
    await sidebar(page).waitFor();
    await sidebar(page).getByText('危废管理', { exact: true }).click();
    await sidebar(page).getByText('危废入库', { exact: true }).waitFor();
    expect(await sidebar(page).getByText('样品检测', { exact: true }).count()).toBe(0);

    // Publish without rebuilding: add (with its design), publish, then a menu entry.
    const componentName = 'sampleCheck';
    const item = (name: string, chName: string, dataType: string, sort: number, extra: Record<string, unknown> = {}) => ({
      name,
      chName,
      dataType,
      linked: false,
      configure: { sort, ...extra },
    });
    const template = {
      basicOption: {
        add: true,
        edit: true,
        del: true,
        look: true,
        download: true,
        import: false,
        template: false,
        operation: true,
        orderNumber: true,
      },
      btnDIYOption: [],
      dialogOption: { key: 'id', width: '700px', labelWidth: '100px', inputWidth: '250px', inline: 'true' },
      formDividerOption: [],
      tableOption: [
        item('sampleNo', '样品编号', 'varchar', 1, { show: true, search: true, width: 160 }),
        item('checkItem', '检测项目', 'varchar', 2, { show: true, width: 160 }),
        item('moisture', '含水率', 'decimal', 3, { show: true, decimals: 2, unit: '%' }),
      ],
      formOption: [
        item('sampleNo', '样品编号', 'varchar', 1, { show: 1, required: true }),
        item('checkItem', '检测项目', 'varchar', 2, { show: 1, required: true }),
        item('moisture', '含水率', 'decimal', 3, { show: 1, decimals: 2, min: 0, max: 100 }),
      ],
    };
    const added = await admin.post('/api/generation/add', {
      name: '样品检测',
      disMenu: JSON.stringify({ componentName, name: '样品检测' }),
      disTemplate: JSON.stringify(template),
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const id = Number(added.body.id);
    expect((await admin.post('/api/generation/publish', { id })).status).toBe(200);
    const path = `/dev-tools/temp/page/${componentName}/${id}`;
    const parent = (await admin.get('/api/menus', { blurry: '危废入库' })).body.content[0].pid;
    const menu = await admin.post('/api/menus', {
      pid: parent,
      type: 1,
      title: '样品检测',
      componentName,
      component: 'dev-tools/temp/page',
      path,
      permission: `${componentName}:list`,
      menuSort: 99,
    });
    expect(menu.status, JSON.stringify(menu.body)).toBe(201);

    // Reload: the menus are fetched again and hold the new entry.
    const menusAgain = page.waitForResponse((r) => r.url().includes('/api/menus/build'));
    await page.reload();
    await menusAgain;
    const firstList = page.waitForRequest(isListCall(id));
    await viaSidebar(page, '危废管理', '样品检测');
    await page.waitForURL((u) => u.pathname === path);
    await firstList;
    const list = listPage(page, id);
    await list.locator('.engine-list-table').waitFor();
    expect(await headers(list)).toEqual(expect.arrayContaining(['序号', '样品编号', '检测项目', '含水率', '操作']));
    // The runtime renderer drew it: no generated chunk was loaded at all.
    expect(chunks).toEqual([]);

    // Add a record; it is listed.
    await button(list, '新增').click();
    const add = dialog(page, '新增');
    await add.getByLabel('样品编号').fill('S-001');
    await add.getByLabel('检测项目').fill('含油率');
    await add.getByLabel('含水率').fill('12.5');
    const saved = page.waitForRequest((r) => r.url().includes(`/api/general/add/${id}`));
    await button(add, '确定').click();
    expect((await saved).postDataJSON()).toMatchObject({ sampleNo: 'S-001', checkItem: '含油率', moisture: 12.5 });
    await notice(page, '新增成功').waitFor();
    await expect.poll(() => columnTexts(list, '样品编号')).toEqual(['S-001']);
    expect((await columnTexts(list, '含水率'))[0]).toContain('12.50');

    // Edit it.
    await rowAction(rows(list).first(), '编辑');
    const edit = dialog(page, '编辑');
    await expect.poll(() => edit.getByLabel('检测项目').inputValue()).toBe('含油率');
    await edit.getByLabel('检测项目').fill('含硫率');
    await button(edit, '确定').click();
    await notice(page, '编辑成功').waitFor();
    await expect.poll(async () => (await columnTexts(list, '检测项目'))[0]).toBe('含硫率');
    expect((await admin.get(`/api/general/list/${id}`)).body.content[0]).toMatchObject({ sampleNo: 'S-001', checkItem: '含硫率' });
    expect(chunks).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('draws a generated view at run time once its definition changed on the server', async () => {
    const stockOut = definition('13-stock-out.json');
    const extra = { name: 'reviewer', chName: '复核人', dataType: 'varchar', linked: false };
    stockOut.disTemplate.tableOption.push({ ...extra, configure: { show: true, sort: 99, width: 120 } });
    stockOut.disTemplate.formOption.push({ ...extra, configure: { show: 1, sort: 99 } });
    const designed = await admin.post('/api/generation/design', { id: 13, disTemplate: JSON.stringify(stockOut.disTemplate) });
    expect(designed.status, JSON.stringify(designed.body)).toBe(200);

    const { page, errors } = await openAsAdmin('/dev-tools/temp/page/stockOut/13');
    const list = listPage(page, 13);
    // The new column is drawn: the runtime renderer drew the page (view 13's generated chunk may
    // have been fetched beside the definition, before its hash was known, but it was not used).
    await list.locator('.engine-list-table [role=columnheader]', { hasText: '复核人' }).waitFor();
    // And the form has the new field.
    await button(list, '新增').click();
    await dialog(page, '新增').getByLabel('复核人').waitFor();
    expect(errors).toEqual([]);
  });

  it("says so when a generated page's chunk fails to load, and draws it on 重试", async () => {
    const chunk = [...generatedChunks()].find(([, list]) => list === '/api/general/list/12')?.[0];
    expect(chunk, 'the build has a page chunk for view 12').toBeDefined();
    const opened = await openPage(browser, server.url, { token: admin.token });
    const { page, errors } = opened;
    page.setDefaultTimeout(10_000);
    const failing = (route: Route) => route.abort('connectionreset');
    // The chunk under any query too: a retry may ask for it under another address.
    await page.route(`**/assets/${chunk}*`, failing);
    await page.goto(STOCK_IN);
    const panel = page.locator('.ant-result-error', { hasText: '页面 危废入库 加载失败' });
    await panel.waitFor();
    await page.unroute(`**/assets/${chunk}*`, failing);
    await panel.getByRole('button', { name: /重\s*试/ }).click();
    await rows(listPage(page, 12)).first().waitFor();
    expect(await panel.count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('previews a view at run time (视图预览)', async () => {
    const { page, errors, chunks } = await openAsAdmin('/dev-tools/preview?viewId=12');
    // Its title in the shell (tag or breadcrumb).
    await page.getByText('视图预览', { exact: true }).first().waitFor();
    const list = listPage(page, 12);
    await rows(list).first().waitFor();
    expect(await headers(list)).toContain('入库单号');
    // Never the generated page, even though its hash agrees.
    expect(chunks).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('lists the problems of a definition that fails validation, with their pointers', async () => {
    // The API refuses such a design, so it goes into the database directly.
    const vehicle = definition('17-vehicle.json');
    vehicle.disTemplate.formOption[0].configure.pattern = '([';
    vehicle.disTemplate.formOption[1].configure.validator = 'noSuchRule';
    await server.ctx.db
      .updateTable('lc_generation')
      .set({ dis_template: JSON.stringify(vehicle.disTemplate) })
      .where('id', '=', 17)
      .execute();

    const { page, errors } = await openAsAdmin('/dev-tools/temp/page/vehicle/17');
    const panel = page.locator('.engine-definition-problems');
    await panel.waitFor();
    expect(await panel.innerText()).toContain('视图定义有误，无法显示');
    const problems = await panel.locator('li').allInnerTexts();
    expect(problems.some((p) => p.startsWith('/disTemplate/formOption/0/configure/pattern'))).toBe(true);
    expect(problems.some((p) => p.startsWith('/disTemplate/formOption/1/configure/validator'))).toBe(true);
    // Not a white screen: the shell is still there around it.
    expect(await sidebar(page).isVisible()).toBe(true);
    expect(await page.locator('.engine-list-page').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
