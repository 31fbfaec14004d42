import { readFileSync } from 'node:fs';
import dayjs from 'dayjs';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startAppServer } from '../helpers/browser.js';
import {
  button,
  chooseFirstOption as chooseOption,
  columnTexts,
  listCall as listCallOf,
  notice,
  rowAction,
  rows,
} from '../helpers/engine-page.js';
import type { ApiClient, TestServer } from '../helpers/server.js';

// The generic list page (search, toolbar, table, dialogs, custom buttons) on the seeded stock-in view (12), as
// admin, through the generated page at its menu path.
const PATH = '/dev-tools/temp/page/stockIn/12';
const LIST = '/api/general/list/12';

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

const isList = (r: Request) => r.method() === 'GET' && new URL(r.url()).pathname === LIST;
const paramsOf = (r: Request) => new URL(r.url()).searchParams;

/** A signed-in page on the stock-in list, its first list call answered. */
async function openList(): Promise<{ page: Page; first: Request; errors: string[] }> {
  const opened = await openPage(browser, server.url, { token: admin.token });
  // A step that cannot happen fails on its own line, well within the test's time.
  opened.page.setDefaultTimeout(10_000);
  const firstList = opened.page.waitForRequest(isList);
  await opened.page.goto(PATH);
  const first = await firstList;
  await rows(opened.page).first().waitFor();
  return { page: opened.page, first, errors: opened.errors };
}

/** Runs an action and returns the list call it causes (view 12's). */
const listCall = (page: Page, action: () => Promise<unknown>): Promise<URLSearchParams> => listCallOf(page, 12, action);

describe('stock-in list page', () => {
  it('loads with dictionary labels, coloured tags, the default range and sort', async () => {
    const { page, first, errors } = await openList();
    const q = paramsOf(first);
    expect(q.get('page')).toBe('0');
    expect(q.get('size')).toBe('10');
    expect(q.get('sort')).toBe('inTime,desc');
    const start = dayjs(q.get('startTime'));
    expect(dayjs().startOf('day').diff(start, 'day')).toBe(90);
    expect(q.get('endTime')).toBe(`${dayjs().format('YYYY-MM-DD')} 23:59:59`);

    const api = (await admin.get(LIST, Object.fromEntries(q))).body;
    expect(await rows(page).count()).toBe(Math.min(10, api.content.length));
    // Category labels, not codes: the dictionary went out once for the whole page.
    await expect.poll(async () => (await columnTexts(page, '危废类别'))[0]).toMatch(/^HW\d\d /);
    const statuses = await page.locator('.engine-list-table .engine-row .engine-tag').allInnerTexts();
    expect(statuses.length).toBe(await rows(page).count());
    expect(new Set(statuses).size).toBeGreaterThan(0);
    for (const s of statuses) expect(['待入库', '已入库', '已出库']).toContain(s);
    const waiting = page.locator('.engine-list-table .engine-tag', { hasText: '待入库' }).first();
    if (await waiting.count()) expect(await waiting.getAttribute('class')).toContain('engine-tag-warning');
    const done = page.locator('.engine-list-table .engine-tag', { hasText: '已入库' }).first();
    if (await done.count()) expect(await done.getAttribute('class')).toContain('engine-tag-success');
    expect(await page.locator('.ant-pagination-total-text').innerText()).toBe(`共 ${api.totalElements} 条`);
    // The pager reads total, sizes, prev, pages, next, jumper, from left to right.
    const pager = page.locator('.engine-pager .ant-pagination');
    const parts = ['total-text', 'options-size-changer', 'prev', 'item-1', 'next', 'options-quick-jumper'];
    const xs: number[] = [];
    for (const part of parts) xs.push((await pager.locator(`.ant-pagination-${part}`).boundingBox())?.x ?? Number.NaN);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect(errors).toEqual([]);
  });

  it('searches by a field, expands the bar, sorts on the server and pages', async () => {
    const { page } = await openList();
    const stockNos = await columnTexts(page, '入库单号');
    const wanted = stockNos[3] as string;

    // Search by stock number: page 1, one row.
    await page.locator('.engine-search-bar').getByLabel('入库单号').fill(wanted);
    let q = await listCall(page, () => button(page.locator('.engine-search-bar'), '搜索').click());
    expect(q.get('stockNo')).toBe(wanted);
    expect(q.get('page')).toBe('0');
    expect(await columnTexts(page, '入库单号')).toEqual([wanted]);

    // Expand shows the other search fields; reset clears the search.
    await button(page, '展开').click();
    await page.locator('.engine-search-bar').getByLabel('状态').waitFor();
    q = await listCall(page, () => button(page.locator('.engine-search-bar'), '重置').click());
    expect(q.get('stockNo')).toBeNull();
    expect(q.get('startTime')).not.toBeNull();

    // Server-side sort on a sortable column.
    q = await listCall(page, () => page.locator('.engine-list-table [role=columnheader]', { hasText: '入库单号' }).click());
    expect(q.get('sort')).toBe('stockNo,asc');
    const asc = await columnTexts(page, '入库单号');
    expect(asc).toEqual([...asc].sort());
    q = await listCall(page, () => page.locator('.engine-list-table [role=columnheader]', { hasText: '入库单号' }).click());
    expect(q.get('sort')).toBe('stockNo,desc');

    // Page 2: 0-based on the wire, numbering continues.
    q = await listCall(page, () => page.locator('.ant-pagination-item-2').click());
    expect(q.get('page')).toBe('1');
    expect((await columnTexts(page, '序号'))[0]).toBe('11');

    // A size change goes back to page 1.
    q = await listCall(page, async () => {
      await page.locator('.ant-pagination-options .ant-select').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '20 条/页' }).click();
    });
    expect(q.get('page')).toBe('0');
    expect(q.get('size')).toBe('20');
    expect(await rows(page).count()).toBeGreaterThan(10);
    expect((await columnTexts(page, '序号'))[0]).toBe('1');
  });

  it('selects rows, sorts from the keyboard, shows clipped text in a tooltip and keeps the operation column in view', async () => {
    const { page, errors } = await openList();
    const toolbar = page.locator('.engine-list-toolbar');
    // Selection: 修改 needs exactly one row, 删除 one or more; the header box selects the page.
    await expect.poll(() => button(toolbar, '修改').isDisabled()).toBe(true);
    await rows(page).nth(0).getByRole('checkbox').check();
    await expect.poll(() => button(toolbar, '修改').isEnabled()).toBe(true);
    await rows(page).nth(1).getByRole('checkbox').check();
    expect(await button(toolbar, '修改').isDisabled()).toBe(true);
    expect(await button(toolbar, '删除').isEnabled()).toBe(true);
    const all = page.getByRole('checkbox', { name: '全选本页' });
    expect(await all.evaluate((e) => (e as HTMLInputElement).indeterminate)).toBe(true);
    expect(await rows(page).nth(0).getAttribute('class')).toContain('engine-row-selected');
    await all.check();
    expect(await page.locator('.engine-list-table .engine-row-selected').count()).toBe(await rows(page).count());
    await all.uncheck();
    expect(await page.locator('.engine-list-table .engine-row-selected').count()).toBe(0);
    expect(await button(toolbar, '删除').isDisabled()).toBe(true);

    // Sorting from the keyboard: Tab to the header's button, Enter; aria-sort tells the order.
    const header = page.locator('.engine-list-table [role=columnheader]', { hasText: '入库数量' });
    expect(await header.getAttribute('aria-sort')).toBe('none');
    await header.getByRole('button').focus();
    let q = await listCall(page, () => page.keyboard.press('Enter'));
    expect(q.get('sort')).toBe('quantity,asc');
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('ascending');
    q = await listCall(page, () => page.keyboard.press('Enter'));
    expect(q.get('sort')).toBe('quantity,desc');
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('descending');

    // A text too long for its column (危废类别) clips to one line; hovering shows the whole text.
    const clips = rows(page).locator('.engine-cell-ellipsis .engine-cell-clip');
    const index = await clips.evaluateAll((els) => els.findIndex((e) => e.scrollWidth > e.clientWidth + 1));
    expect(index).toBeGreaterThanOrEqual(0);
    const clip = clips.nth(index);
    const text = (await clip.innerText()).trim();
    expect(text.length).toBeGreaterThan(0);
    expect(await clip.evaluate((e) => getComputedStyle(e).whiteSpace)).toBe('nowrap');
    await clip.hover();
    await expect.poll(() => page.locator('.ant-tooltip:visible').innerText()).toBe(text);

    // The operation column stays at the right edge when the table scrolls sideways.
    const scroller = page.locator('.engine-list-table .engine-table-scroll');
    const operation = rows(page).first().locator('.engine-cell-operation');
    const edge = async () => {
      const [box, op] = [await scroller.boundingBox(), await operation.boundingBox()];
      return Math.round((box?.x ?? 0) + (box?.width ?? 0) - ((op?.x ?? 0) + (op?.width ?? 0)));
    };
    const before = await edge();
    await scroller.evaluate((e) => e.scrollTo({ left: e.scrollWidth }));
    expect(Math.abs((await edge()) - before)).toBeLessThanOrEqual(2);

    // A search that finds nothing: the empty state, no pager.
    await page.getByPlaceholder('请输入入库单号', { exact: true }).fill('没有这张入库单');
    await listCall(page, () => page.getByPlaceholder('请输入入库单号', { exact: true }).press('Enter'));
    expect(await page.locator('.engine-list-table .engine-empty .ant-empty-description').innerText()).toBe('暂无数据');
    expect(await rows(page).count()).toBe(0);
    expect(await page.locator('.engine-list-table .ant-pagination').isVisible()).toBe(false);
    expect(errors).toEqual([]);
  });

  it('adds, edits, looks at and deletes a record', async () => {
    const { page } = await openList();
    const stockNo = `RK2099${String(Date.now()).slice(-8)}`;

    await button(page, '新增').click();
    const add = page.getByRole('dialog').filter({ hasText: '新增' });
    await add.getByLabel('入库单号').waitFor();
    await add.getByLabel('入库单号').fill(stockNo);
    await chooseOption(page, add, '危废类别');
    await add.getByLabel('废物代码').fill('900-249-08');
    await add.getByLabel('危废名称').fill('测试废矿物油');
    await add.getByLabel('入库数量').fill('1.5');
    await chooseOption(page, add, '入库仓库');
    await add.getByLabel('入库时间').click();
    await add.getByLabel('入库时间').fill(dayjs().format('YYYY-MM-DD 09:30:00'));
    await add.getByLabel('入库时间').press('Enter');
    await add.getByLabel('经办人', { exact: true }).fill('测试员');
    const saved = page.waitForResponse((r) => r.url().includes('/api/general/add/12'));
    await button(add, '确定').click();
    expect((await saved).status()).toBe(200);
    await notice(page, '新增成功').waitFor();
    await add.waitFor({ state: 'hidden' });

    // Find it.
    await page.locator('.engine-search-bar').getByLabel('入库单号').fill(stockNo);
    await listCall(page, () => button(page.locator('.engine-search-bar'), '搜索').click());
    expect(await columnTexts(page, '入库单号')).toEqual([stockNo]);
    expect(await columnTexts(page, '危废名称')).toEqual(['测试废矿物油']);
    expect((await columnTexts(page, '入库数量'))[0]).toBe('1.500 吨');

    // Edit: the record is loaded with the detail call (the generic detail read as formData), the key goes with the update.
    const detail = page.waitForRequest((r) => r.url().includes('/api/general/formData'));
    await rowAction(rows(page).first(), '编辑');
    const detailParams = paramsOf(await detail);
    expect(detailParams.get('generalId')).toBe('12');
    const edit = page.getByRole('dialog').filter({ hasText: '编辑' });
    await expect.poll(() => edit.getByLabel('危废名称').inputValue()).toBe('测试废矿物油');
    await edit.getByLabel('危废名称').fill('测试废矿物油（复核）');
    const updated = page.waitForRequest((r) => r.url().includes('/api/general/update/12'));
    await button(edit, '确定').click();
    expect((await updated).postDataJSON()).toMatchObject({ id: Number(detailParams.get('id')), wasteName: '测试废矿物油（复核）' });
    await notice(page, '编辑成功').waitFor();
    await expect.poll(async () => (await columnTexts(page, '危废名称'))[0]).toBe('测试废矿物油（复核）');

    // Look: read-only, no confirm button.
    await rows(page).first().getByRole('button', { name: '查看' }).click();
    const look = page.getByRole('dialog').filter({ hasText: '查看' });
    await expect.poll(() => look.getByLabel('危废名称').inputValue()).toBe('测试废矿物油（复核）');
    expect(await button(look, '确定').count()).toBe(0);
    // What the record holds, no more: no empty photo block, no help for typing.
    expect(await look.getByText('现场照片').count()).toBe(0);
    expect(await look.getByText(/格式：RK/).count()).toBe(0);
    expect(await look.locator('.ant-form-item-extra').count()).toBe(0);
    await button(look.locator('.ant-modal-footer'), '关闭').click();
    await look.waitFor({ state: 'hidden' });

    // Delete, after the confirm.
    await rowAction(rows(page).first(), '删除');
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText('确认删除选中的1条数据？').waitFor();
    const q = await listCall(page, () => button(confirm, '确定').click());
    expect(q.get('stockNo')).toBe(stockNo);
    await notice(page, '删除成功').waitFor();
    expect(await rows(page).count()).toBe(0);
    const left = (await admin.get(LIST, { stockNo })).body;
    expect(left.totalElements).toBe(0);
  });

  it('keeps one column visible, exports, imports and runs row buttons', async () => {
    const { page } = await openList();

    // Column chooser: every column can go but the last.
    await page.getByRole('button', { name: '列设置' }).click();
    const chooser = page.locator('.engine-column-chooser');
    await chooser.waitFor();
    const checked = chooser.locator('.ant-checkbox-wrapper-checked');
    while ((await checked.count()) > 1) await checked.first().click();
    const lastTitle = (await checked.first().innerText()).trim();
    await checked.first().click();
    await page.locator('.ant-message').getByText('请至少选择一列').waitFor();
    expect(await chooser.locator('.ant-checkbox-wrapper-checked').count()).toBe(1);
    const headers = (await page.locator('.engine-list-table [role=columnheader]').allInnerTexts()).map((h) => h.trim()).filter(Boolean);
    expect(headers).toEqual(['序号', lastTitle, '操作']);
    await page.keyboard.press('Escape');

    // Export: an xlsx of the visible columns, fetched with the token.
    const exported = page.waitForRequest((r) => r.url().includes('/api/general/export/12/download'));
    const download = page.waitForEvent('download');
    await button(page, '导出').click();
    const exportParams = paramsOf(await exported);
    expect((await exported).headers().authorization).toBe(admin.token);
    expect(exportParams.getAll('headers')).toEqual([lastTitle]);
    expect(exportParams.get('page')).toBeNull();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
    const xlsx = String(await file.path());
    expect(readFileSync(xlsx).subarray(0, 2).toString()).toBe('PK');

    // Import: spreadsheets only; the server's verdict per row comes back as a file to download.
    await button(page, '导入').click();
    const importer = page.getByRole('dialog').filter({ hasText: '将文件拖到此处' });
    const input = importer.locator('input[type=file]');
    await input.setInputFiles({ name: 'rows.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
    await page.locator('.ant-message').getByText('允许上传 xls、xlsx').waitFor();
    const imported = page.waitForResponse((r) => r.url().includes('/api/general/12/import'));
    await input.setInputFiles({ name: '危废入库.xlsx', mimeType: 'application/octet-stream', buffer: readFileSync(xlsx) });
    expect((await imported).status()).toBe(200);
    // The dialog and the toast tell the same counts.
    const summary = importer.locator('.ant-alert');
    await summary.waitFor();
    const counts = (await summary.locator('.ant-alert-description').textContent()) ?? '';
    expect(counts).toMatch(/^成功 \d+ 条，失败 \d+ 条$/);
    await page.locator('.ant-message').getByText(counts).waitFor();
    const verdicts = page.waitForEvent('download');
    await button(importer, '下载导入结果').click();
    expect((await verdicts).suggestedFilename()).toMatch(/导入结果\.xlsx$/);
    await button(importer.locator('.ant-modal-footer'), '关闭').click();

    // Row button 确认入库 (groovy, confirm) on a row waiting for stock-in.
    await page.reload();
    await rows(page).first().waitFor();
    const waitingRow = rows(page)
      .filter({ has: page.locator('.engine-tag', { hasText: '待入库' }) })
      .first();
    await waitingRow.waitFor();
    const id = await waitingRow.getAttribute('data-row-key');
    await rowAction(waitingRow, '确认入库');
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText('确认执行该操作？').waitFor();
    const groovy = page.waitForRequest((r) => r.url().includes('/api/general/groovy/12'));
    await button(confirm, '确定').click();
    expect((await groovy).postDataJSON()).toMatchObject({ ids: [Number(id)], groovyQueryParam: { groovyAction: 'markStocked' } });
    await notice(page, '操作成功').waitFor();
    await expect.poll(() => page.locator(`.engine-row[data-row-key="${id}"] .engine-tag`).innerText()).toBe('已入库');

    // Now six row actions, 确认入库 gone: 查看 in the row, the other five in 更多; 出库记录 opens the
    // stock-out view filtered by this row.
    const target = page.locator(`.engine-row[data-row-key="${id}"]`);
    expect(await target.locator('[data-action]').allInnerTexts()).toEqual(['查看']);
    await target.getByRole('button', { name: /更多/ }).click();
    const more = page.locator('.ant-dropdown:visible');
    await expect.poll(() => more.getByRole('menuitem').allInnerTexts()).toEqual(['编辑', '删除', '生成处置单', '出库记录', '发起询价']);
    const outList = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/general/list/13');
    await more.getByText('出库记录').click();
    expect(paramsOf(await outList).get('stockInId')).toBe(id);
    expect(page.url()).toContain(`/dev-tools/temp/page/stockOut/13?stockInId=${id}`);
  });

  it('searches by region (cascader) and, in the advanced query, by department (tree select)', async () => {
    const { page, errors } = await openPage(browser, server.url, { token: admin.token });
    page.setDefaultTimeout(10_000);
    await page.goto('/dev-tools/temp/page/warehouse/14');
    const list = page.locator('.engine-list-page[data-view-id="14"]');
    await rows(list).first().waitFor();
    const bar = list.locator('.engine-search-bar');

    // 所在地区: a region tree (value/label/children), province then city, sent as the codes.
    await bar.getByLabel('所在地区', { exact: true }).click();
    const menus = page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu');
    await menus.first().locator('.ant-cascader-menu-item').first().click();
    await menus.nth(1).locator('.ant-cascader-menu-item').first().click();
    await page.keyboard.press('Escape');
    let q = await listCallOf(page, 14, () => button(bar, '搜索').click());
    expect(q.get('region')).toMatch(/^\d{6},\d{6}$/);

    // 所属部门 (advanced query): a remote tree, searchable by its labels.
    await button(list, '高级查询').click();
    const dept = bar.getByLabel('所属部门', { exact: true });
    await dept.click();
    const node = page.locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper').first();
    const title = (await node.innerText()).trim();
    expect(title.length).toBeGreaterThan(0);
    await dept.fill(title);
    await page.locator('.ant-select-dropdown:visible .ant-select-tree-node-content-wrapper', { hasText: title }).first().click();
    q = await listCallOf(page, 14, () => button(bar, '搜索').click());
    expect(q.get('deptId')).toMatch(/^\d+$/);
    expect(errors).toEqual([]);
  });

  it("shows a container's views as tabs, generated when the hashes agree, at run time when the definition changed", async () => {
    // Republish view 14 with a renamed column: its generated page no longer matches.
    const warehouse = JSON.parse(readFileSync(new URL('../../definitions/views/14-warehouse.json', import.meta.url), 'utf8'));
    warehouse.disTemplate.tableOption.items[0].chName = '仓库全称';
    const saved = await admin.post('/api/generation/update', {
      id: 14,
      name: warehouse.name,
      disMenu: JSON.stringify(warehouse.disMenu),
      disTemplate: JSON.stringify(warehouse.disTemplate),
    });
    expect(saved.status).toBe(200);

    const { page, errors } = await openPage(browser, server.url, { token: admin.token });
    page.setDefaultTimeout(10_000);
    const details: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/generation/detail')) details.push(String(paramsOf(r).get('id')));
    });
    await page.goto('/stock/vBuild/temp/40');
    const tabs = page.locator('.engine-container-page .ant-tabs-tab');
    // The tab titles come with the three definitions, once each is fetched and resolved.
    await expect.poll(() => tabs.allInnerTexts(), { timeout: 10_000 }).toEqual(['危废入库', '危废出库', '企业仓库']);
    expect([...details].sort()).toEqual(['12', '13', '14']);
    await rows(page).first().waitFor();
    expect(await page.locator('.engine-list-page[data-view-id="12"]').count()).toBe(1);

    const outList = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/general/list/13');
    await tabs.filter({ hasText: '危废出库' }).click();
    await outList;
    await page.locator('.engine-list-page[data-view-id="13"] .engine-list-table').waitFor();

    await tabs.filter({ hasText: '企业仓库' }).click();
    const runtime = page.locator('.engine-list-page[data-view-id="14"]');
    await runtime.locator('.engine-list-table [role=columnheader]', { hasText: '仓库全称' }).waitFor();
    expect(errors).toEqual([]);
  });
});
