import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startAppServer } from '../helpers/browser.js';
import { button, columnTexts, dialog, isListCall, listCall, listPage, notice, rowAction } from '../helpers/engine-page.js';
import type { ApiClient, TestServer } from '../helpers/server.js';

// A contract view that declares beginTime and endTime, published at run time: its list sends no
// createTime range (its endTime parameter filters the field), searches and sorts by endTime, and edits it.

let server: TestServer;
let browser: Browser;
let admin: ApiClient;

const item = (name: string, chName: string, dataType: string, sort: number, extra: Record<string, unknown> = {}) => ({
  name,
  chName,
  dataType,
  linked: false,
  configure: { sort, ...extra },
});

const template = {
  basicOption: { add: true, edit: true, del: true, look: true, operation: true, sortName: 'endTime', sortType: 'asc' },
  dialogOption: { key: 'id', width: '1200px' },
  tableOption: [
    item('contractNo', '合同编号', 'varchar', 1, { show: true, search: true }),
    item('beginTime', '开始时间', 'datetime', 2, { show: true, timeFmt: 'yyyy-MM-dd' }),
    item('endTime', '结束时间', 'datetime', 3, { show: true, search: true, sortable: true, timeFmt: 'yyyy-MM-dd' }),
  ],
  formOption: [
    item('contractNo', '合同编号', 'varchar', 1, { show: 1, required: true }),
    item('beginTime', '开始时间', 'datetime', 2, { show: 1, required: true, timeFmt: 'yyyy-MM-dd' }),
    item('endTime', '结束时间', 'datetime', 3, { show: 1, required: true, timeFmt: 'yyyy-MM-dd' }),
    item('contractStatus', '合同状态', 'varchar', 4, { show: 1, dict: 'contractStatus', inputWidth: '900px' }),
    item('remark', '合同说明', 'varchar', 5, { show: 1, editor: true }),
  ],
};

let viewId: number;
const componentName = 'effectiveContract';

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchBrowser()]);
  admin = await server.login('admin');
  const added = await admin.post('/api/generation/add', {
    name: '有效合同',
    disMenu: JSON.stringify({ componentName, name: '有效合同' }),
    disTemplate: JSON.stringify(template),
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  viewId = Number(added.body.id);
  expect((await admin.post('/api/generation/publish', { id: viewId })).status).toBe(200);
  for (const r of [
    { contractNo: 'HT-A', beginTime: '2026-01-01', endTime: '2026-06-30' },
    { contractNo: 'HT-B', beginTime: '2026-02-01', endTime: '2026-12-31' },
    { contractNo: 'HT-C', beginTime: '2026-03-01', endTime: '2026-09-30' },
  ])
    expect((await admin.post(`/api/general/add/${viewId}`, r)).status).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The contract page signed in as the administrator, once its first list call went out. */
async function openContracts() {
  const { page, errors } = await openPage(browser, server.url, { token: admin.token });
  page.setDefaultTimeout(10_000);
  const list = listPage(page, viewId);
  const first = page.waitForRequest(isListCall(viewId), { timeout: 30_000 });
  await page.goto(`/dev-tools/temp/page/${componentName}/${viewId}`);
  return { page, errors, list, first: await first };
}

describe('a contract page with endTime', () => {
  it('lists without a createTime range, searches and sorts by endTime, and edits it', async () => {
    const { page, errors, list, first } = await openContracts();
    let q = new URL(first.url()).searchParams;
    expect(q.get('startTime')).toBeNull();
    expect(q.get('endTime')).toBeNull();
    expect(q.get('sort')).toBe('endTime,asc');
    await expect.poll(() => columnTexts(list, '合同编号')).toEqual(['HT-A', 'HT-C', 'HT-B']);
    const bar = list.locator('.engine-search-bar');
    expect(await bar.getByText('创建时间').count()).toBe(0);

    // Search: the endTime range goes out as the field's two dates.
    await bar.getByPlaceholder('开始日期').fill('2026-06-01');
    await bar.getByPlaceholder('开始日期').press('Enter');
    await bar.getByPlaceholder('结束日期').fill('2026-10-01');
    await bar.getByPlaceholder('结束日期').press('Enter');
    q = await listCall(page, viewId, () => button(bar, '搜索').click());
    expect(q.getAll('endTime')).toEqual(['2026-06-01', '2026-10-01']);
    expect(q.get('startTime')).toBeNull();
    await expect.poll(() => columnTexts(list, '合同编号')).toEqual(['HT-A', 'HT-C']);

    // Sort by the column; reset brings every row back.
    q = await listCall(page, viewId, () => button(bar, '重置').click());
    expect(q.get('endTime')).toBeNull();
    const header = list.locator('.engine-list-table [role=columnheader]', { hasText: '结束时间' });
    q = await listCall(page, viewId, () => header.click());
    expect(q.get('sort')).toMatch(/^endTime,/);
    const order = q.get('sort') === 'endTime,asc' ? ['HT-A', 'HT-C', 'HT-B'] : ['HT-B', 'HT-C', 'HT-A'];
    await expect.poll(() => columnTexts(list, '合同编号')).toEqual(order);

    // The edit form reads and writes endTime.
    const rowA = list.locator('.engine-list-table .engine-row', { hasText: 'HT-A' });
    await rowAction(rowA, '编辑');
    const edit = dialog(page, '编辑');
    const end = edit.getByLabel('结束时间');
    await expect.poll(() => end.inputValue()).toBe('2026-06-30');
    await end.click();
    await end.fill('2027-01-31');
    await end.press('Enter');
    await button(edit, '确定').click();
    await notice(page, '编辑成功').waitFor();
    const saved = await admin.get(`/api/general/list/${viewId}`, { contractNo: 'HT-A' });
    expect(saved.body.content[0]).toMatchObject({ endTime: '2027-01-31' });
    expect(errors).toEqual([]);
  });

  it('counts an open 查看 as prepared, and after a failed delete only stops the loading', async () => {
    const { page, list } = await openContracts();
    await list.locator('.engine-list-table .engine-row').first().waitFor();

    // 查看: read-only, no confirm button; the dialog counts as prepared while open.
    await list.locator('.engine-list-table .engine-row', { hasText: 'HT-C' }).getByRole('button', { name: '查看' }).click();
    const look = dialog(page, '查看');
    await expect.poll(() => look.getByLabel('结束时间').inputValue()).toBe('2026-09-30');
    expect(await button(look, '确定').count()).toBe(0);
    // It looks read-only: the disabled fill, no edit border, no text caret.
    const looks = await look.getByLabel('合同编号').evaluate((el) => {
      const s = getComputedStyle(el);
      return { border: s.borderTopColor, cursor: s.cursor, readOnly: (el as HTMLInputElement).readOnly };
    });
    expect(looks).toEqual({ border: 'rgba(0, 0, 0, 0)', cursor: 'default', readOnly: true });
    expect(await list.getAttribute('data-crud-look')).toBe('1');
    expect(await list.getAttribute('data-crud-dialog')).toBe('1');
    await button(look.locator('.ant-modal-footer'), '关闭').click();
    await look.waitFor({ state: 'hidden' });
    await expect.poll(() => list.getAttribute('data-crud-look')).toBe('0');
    expect(await list.getAttribute('data-crud-dialog')).toBe('0');

    // A delete the server refuses: the selection, rows and page stay, del is prepared again, no list call.
    await page.route(`**/api/general/delete/${viewId}`, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ status: 500, message: '删除失败' }) }),
    );
    const before = await columnTexts(list, '合同编号');
    const row = list.locator('.engine-list-table .engine-row', { hasText: 'HT-C' });
    await row.getByRole('checkbox').check();
    let listCalls = 0;
    page.on('request', (r) => {
      if (isListCall(viewId)(r)) listCalls++;
    });
    const toolbar = list.locator('.engine-list-toolbar');
    await button(toolbar, '删除').click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText('确认删除选中的1条数据？').waitFor();
    const refused = page.waitForResponse((r) => r.url().includes(`/api/general/delete/${viewId}`));
    await button(confirm, '确定').click();
    expect((await refused).status()).toBe(500);
    await expect.poll(() => list.getAttribute('data-crud-del')).toBe('1');
    await expect.poll(() => button(toolbar, '删除').getAttribute('class')).not.toContain('ant-btn-loading');
    expect(await row.getByRole('checkbox').isChecked()).toBe(true);
    expect(await button(toolbar, '删除').isEnabled()).toBe(true);
    expect(await columnTexts(list, '合同编号')).toEqual(before);
    expect(listCalls).toBe(0);
    await page.unroute(`**/api/general/delete/${viewId}`);
  });

  it('opens a select dropdown at most 600 px wide, however wide its input', async () => {
    const { page, list } = await openContracts();
    await button(list, '新增').click();
    const add = dialog(page, '新增');
    const input = add.getByLabel('合同状态', { exact: true });
    const id = String(await input.getAttribute('id'));
    const select = add.locator('.ant-select').filter({ has: page.locator(`[id="${id}"]`) });
    expect((await select.boundingBox())?.width).toBeGreaterThan(600);
    await input.click();
    const dropdown = page.locator('.ant-select-dropdown', { has: page.locator(`[id="${id}_list"]`) });
    await dropdown.locator('.ant-select-item-option').first().waitFor();
    const width = (await dropdown.boundingBox())?.width ?? 0;
    expect(width).toBeGreaterThan(100);
    expect(width).toBeLessThanOrEqual(600);
  });

  it('inserts a picture into rich text through the upload call, and saves it with the record', async () => {
    const { page, errors, list } = await openContracts();
    await rowAction(list.locator('.engine-list-table .engine-row', { hasText: 'HT-B' }), '编辑');
    const edit = dialog(page, '编辑');
    await expect.poll(() => edit.getByLabel('合同编号').inputValue()).toBe('HT-B');
    const box = edit.getByRole('textbox', { name: '合同说明' });
    await box.click();
    await box.pressSequentially('见附图');

    // A 1×1 PNG, sent as the upload call's multipart file with the field's name.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const chooser = page.waitForEvent('filechooser');
    const upload = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/file/upload');
    await edit.getByRole('button', { name: '插入图片' }).click();
    await (await chooser).setFiles({ name: '现场照片.png', mimeType: 'image/png', buffer: png });
    const sent = await upload;
    const answer = await (await sent.response())?.json();
    // The server echoes the columnName the multipart form carried: the field's name.
    expect(answer).toMatchObject({ status: 200, fileName: '现场照片.png', columnName: 'remark' });
    const img = box.locator('img');
    await img.waitFor();
    expect(await img.getAttribute('src')).toBe(`/api/open/image?source=${encodeURIComponent(answer.filePath)}`);
    expect(await img.getAttribute('alt')).toBe('现场照片.png');
    await expect.poll(() => img.evaluate((e) => (e as HTMLImageElement).naturalWidth)).toBe(1);

    await button(edit, '确定').click();
    await notice(page, '编辑成功').waitFor();
    const saved = (await admin.get(`/api/general/list/${viewId}`, { contractNo: 'HT-B' })).body.content[0];
    expect(saved.remark).toContain('见附图');
    expect(saved.remark).toContain(`src="/api/open/image?source=${encodeURIComponent(answer.filePath)}"`);
    expect(errors).toEqual([]);
  });

  it('shows rich text another party wrote as text and plain markup: no style, class or script, links in a new window', async () => {
    // Written through the API, as any caller may: a link stretched over the whole window, the app's own
    // overlay class, a script hook and links to other schemes.
    const hostile =
      '<p>条款</p><a href="https://evil.example/login" style="position:fixed;top:0;left:0;width:100vw;height:100vh;z-index:2147483647;background:#fff">会话已过期，请点击此处重新登录</a>' +
      '<div class="ant-modal-mask" id="root">遮罩</div><img src=x onerror="window.__hit=1"><a href="javascript:window.__hit=2">脚本链接</a><a href="//evil.example/x">协议相对</a>' +
      // Addresses that read as the site's own but lead off it, a link naming the file it saves, and
      // presentational markup that sizes, colours, animates or reorders the text.
      '<a href="/\\evil.example/login">反斜杠</a><a href="/contract" download="整改通知.bat">下载</a><img src="/\\evil.example/p.png">' +
      '<font size="7" color="red">大</font><big><big>更大</big></big><marquee>滚动</marquee><table width="6000"><tr><td>宽表</td></tr></table><p>方向\u202e反转</p>';
    const added = await admin.post(`/api/general/add/${viewId}`, {
      contractNo: 'HT-X',
      beginTime: '2026-01-01',
      endTime: '2026-03-31',
      remark: hostile,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const { page, errors, list } = await openContracts();
    await rowAction(list.locator('.engine-list-table .engine-row', { hasText: 'HT-X' }), '查看');
    const look = dialog(page, '查看');
    const box = look.getByRole('textbox', { name: '合同说明' });
    await box.getByText('会话已过期').waitFor();
    const shown = await box.evaluate((el) => ({
      presentational: el.querySelectorAll('font, big, marquee, [width], [size], [color], [download]').length,
      reversed: (el.textContent ?? '').includes('\u202e'),
      tableFits: (el.querySelector('table')?.getBoundingClientRect().width ?? 0) <= el.getBoundingClientRect().width,
      styled: el.querySelectorAll('[style]').length,
      classed: el.querySelectorAll('[class]').length,
      ided: el.querySelectorAll('[id]').length,
      links: [...el.querySelectorAll('a')].map((a) => [a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')]),
      images: [...el.querySelectorAll('img')].map((i) => [i.getAttribute('src'), i.getAttribute('onerror')]),
    }));
    expect(shown).toEqual({
      presentational: 0,
      reversed: false,
      tableFits: true,
      styled: 0,
      classed: 0,
      ided: 0,
      // Addresses are judged where the browser takes them: one that leaves the site is kept as the
      // outside link it is, written out in full, and opens in a new window.
      links: [
        ['https://evil.example/login', '_blank', 'noopener noreferrer'],
        [null, null, null],
        ['http://evil.example/x', '_blank', 'noopener noreferrer'],
        ['http://evil.example/login', '_blank', 'noopener noreferrer'],
        ['/contract', '_blank', 'noopener noreferrer'],
      ],
      // A relative picture is the site's own; one that leads off it over plain http is dropped.
      images: [
        [`/dev-tools/temp/page/${componentName}/x`, null],
        [null, null],
      ],
    });
    // The middle of the window is the dialog's, not the stored link's.
    const centre = await page.evaluate(
      () => document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2)?.closest('a')?.href ?? null,
    );
    expect(centre).toBeNull();
    expect(await page.evaluate(() => (window as { __hit?: number }).__hit)).toBeUndefined();
    expect(errors).toEqual([]);
  });
});
