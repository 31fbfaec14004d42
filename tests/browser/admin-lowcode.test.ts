import type { Browser, Page } from 'playwright-core';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modulesOfPath } from '../../src/pages/qrcode/qr-svg.js';
import { launchBrowser, openPage, startAppServer } from '../helpers/browser.js';
import { button, dialog } from '../helpers/engine-page.js';
import type { TestServer } from '../helpers/server.js';

// 数据视图, 大屏管理 and 打印二维码 against the real server and the built app.
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  // A short time limit, so the refused slow query is refused quickly.
  [server, browser] = await Promise.all([startAppServer({ dataViewTimeoutMs: 1000 }), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(user: string | null, path: string) {
  const token = user ? (await server.login(user)).token : null;
  const opened = await openPage(browser, server.url, { token });
  opened.page.setDefaultTimeout(15_000);
  await opened.page.goto(path);
  return opened;
}

/** Replaces the SQL editor's text by typing, as a user would. */
async function typeSql(page: Page, text: string): Promise<void> {
  const editor = page.getByTestId('sql-editor');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.type(text);
}

const runError = (page: Page) => page.getByTestId('data-view-run-error');

describe('数据视图', () => {
  it('runs SQL in the editor, shows columns, rows and the time taken, and refuses writing, slow and broken SQL', async () => {
    const { page, errors } = await open('admin', '/dev-tools/dataView');
    const table = page.getByTestId('data-view-page').locator('.ant-table-tbody');
    await table.locator('tr.ant-table-row').first().waitFor();
    const listed = await server.ctx.db
      .selectFrom('lc_data_view')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await expect.poll(() => page.getByText(`共 ${listed.n} 条`).count()).toBe(1);

    await button(page, '新增').click();
    const drawer = dialog(page, '新增数据视图');
    await drawer.getByLabel('名称').fill('企业名单');
    await typeSql(page, 'select id, name from company order by id');
    await button(drawer, '运行').click();
    const result = page.getByTestId('data-view-run-result');
    await result.waitFor();
    const companies = await server.ctx.db.selectFrom('company').select(['id', 'name']).orderBy('id').execute();
    expect(await result.locator('.ant-table-thead th').allTextContents()).toEqual(['#', 'id', 'name']);
    await expect.poll(() => result.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(companies.length);
    expect(await result.locator('.ant-table-tbody tr.ant-table-row').first().locator('td').nth(2).textContent()).toBe(companies[0]?.name);
    expect(await page.getByTestId('data-view-elapsed').textContent()).toMatch(/^耗时 \d+ ms$/);

    // More than 100 rows: the first 100, and the user is told.
    await typeSql(page, 'select g from generate_series(1, 150) g');
    await page.keyboard.press('ControlOrMeta+Enter');
    await expect.poll(() => result.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(100);
    await expect.poll(() => result.textContent()).toContain('只显示前 100 行');

    const before = companies.length;
    await typeSql(page, 'delete from company');
    await button(drawer, '运行').click();
    await expect.poll(() => runError(page).textContent()).toContain('数据视图只能执行查询语句');
    expect(await result.count()).toBe(0);
    const after = await server.ctx.db
      .selectFrom('company')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(before);

    // Accounts and secrets are not for data views, and nothing may stall the server.
    await typeSql(page, 'select username, password from sys_user');
    await button(drawer, '运行').click();
    await expect.poll(() => runError(page).textContent()).toContain('数据视图不能读取表 sys_user');
    await typeSql(page, 'select pg_sleep(30)');
    await button(drawer, '运行').click();
    await expect.poll(() => runError(page).textContent()).toContain('数据视图不能调用函数 pg_sleep');

    await typeSql(page, 'select id, from company');
    await button(drawer, '运行').click();
    await expect.poll(() => runError(page).textContent()).toMatch(/SQL 语法错误：第 1 行第 \d+ 列/);

    // Saving keeps what was typed; the saved view is listed. Undo and redo step over whole edits.
    await typeSql(page, 'select count(*) as n from company');
    const editorText = () => page.getByTestId('sql-editor').textContent();
    await page.keyboard.press('ControlOrMeta+z');
    expect(await editorText()).toBe('select id, from company');
    await page.keyboard.press('ControlOrMeta+Shift+z');
    expect(await editorText()).toBe('select count(*) as n from company');
    await button(drawer, '保存').click();
    await page.getByText('新增成功').waitFor();
    await table.getByText('企业名单').waitFor();
    const saved = await server.ctx.db.selectFrom('lc_data_view').select('sql').where('name', '=', '企业名单').executeTakeFirstOrThrow();
    expect(saved.sql).toBe('select count(*) as n from company');
    expect(errors).toEqual([]);
  });

  it('keeps what was typed across a reload until it is saved or given up', async () => {
    const { page } = await open('admin', '/dev-tools/dataView');
    await button(page, '新增').click();
    const drawer = dialog(page, '新增数据视图');
    await drawer.getByLabel('名称').fill('草稿视图');
    await typeSql(page, 'select 42 as answer');
    await page.reload();
    await button(page, '新增').click();
    await page.getByText('已恢复上次未保存的内容').waitFor();
    expect(await dialog(page, '新增数据视图').getByLabel('名称').inputValue()).toBe('草稿视图');
    expect(await page.getByTestId('sql-editor').textContent()).toBe('select 42 as answer');
    await button(page, '放弃').click();
    expect(await dialog(page, '新增数据视图').getByLabel('名称').inputValue()).toBe('');
    // Empty again: only the placeholder shows.
    expect(await page.getByTestId('sql-editor').textContent()).toBe('select … from …');
    expect(await page.evaluate(() => sessionStorage.getItem('wastegen:data-view-draft:new'))).toBeNull();
  });

  it('refuses to delete a data view a screen reads, naming the screen', async () => {
    const { page } = await open('admin', '/dev-tools/dataView');
    // The seeded big screens whose charts read data view 7, in id order.
    const screens = (
      await server.ctx.db.selectFrom('lc_screen').select(['name', 'dis_template']).where('type', '=', 2).orderBy('id').execute()
    )
      .filter((s) => /"dataViewId":7[,}]/.test(s.dis_template ?? ''))
      .map((s) => `「${s.name}」`);
    expect(screens.length).toBeGreaterThan(0);
    const used = await server.ctx.db.selectFrom('lc_data_view').select('name').where('id', '=', 7).executeTakeFirstOrThrow();
    await page.getByLabel('按名称搜索').fill(used.name);
    await page.getByLabel('按名称搜索').press('Enter');
    const row = page.locator('tr.ant-table-row', { hasText: used.name });
    await expect.poll(() => page.locator('tr.ant-table-row').count()).toBe(1);
    await button(row, '删除').click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.waitFor();
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/data/delete');
    await button(confirm, '确定').click();
    const refused = await answer;
    const text = `数据视图正被大屏${screens.join('、')}使用，不能删除`;
    expect({ status: refused.status(), message: (await refused.json()).message }).toEqual({ status: 400, message: text });
    await page.getByText(text).waitFor();
    expect(await server.ctx.db.selectFrom('lc_data_view').select('id').where('id', '=', 7).executeTakeFirst()).toBeDefined();
  });
});

describe('大屏管理', () => {
  it('shares a big screen: the link opens without a session until the access key is renewed', async () => {
    const { page, context } = await open('admin', '/dev-tools/screen');
    const screen = await server.ctx.db.selectFrom('lc_screen').select('name').where('id', '=', 50).executeTakeFirstOrThrow();
    const row = page.locator('tr.ant-table-row', { hasText: screen.name });
    await row.waitFor();
    expect(await row.textContent()).toContain('大屏');
    await button(row, '分享').click();
    const share = dialog(page, `分享：${screen.name}`);
    await share.getByText('1 小时').click();
    await button(share, '生成链接').click();
    const linkBox = page.getByTestId('share-link');
    await linkBox.waitFor();
    const link = await linkBox.inputValue();
    expect(link).toMatch(new RegExp(`^${server.url}/lsPreview\\?lsId=50&accessKey=[\\w-]+&timestamp=\\d+&signature=[0-9a-f]{64}$`));
    const expiry = Number(new URL(link).searchParams.get('timestamp'));
    expect(expiry - Date.now()).toBeGreaterThan(55 * 60_000);
    expect(expiry - Date.now()).toBeLessThanOrEqual(60 * 60_000);

    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await button(share, '复制').click();
    await page.getByText('链接已复制').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    // No session: a fresh context opens the link.
    const guest = await openPage(browser, server.url, { viewport: { width: 1920, height: 1080 } });
    await guest.page.goto(link);
    await guest.page.locator('.wg-screen-canvas').waitFor({ timeout: 15_000 });
    await guest.page.locator('.wg-screen-chart').first().waitFor();
    expect(await guest.page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    // Renewing the key revokes it.
    await button(share, '更换访问密钥').click();
    await button(page.locator('.ant-modal-confirm'), '更换').click();
    await page.getByText('操作成功，此前的分享链接已失效').waitFor();
    expect(await linkBox.count()).toBe(0);
    const again = await openPage(browser, server.url);
    await again.page.goto(link);
    await again.page.getByText('分享链接已被撤销').waitFor();
  });

  it('adds a container screen, picks its views in order, and deletes it after asking', async () => {
    const { page } = await open('admin', '/dev-tools/screen');
    await page.locator('tr.ant-table-row').first().waitFor();
    await button(page, '新增').click();
    const form = dialog(page, '新增大屏');
    await form.getByLabel('名称').fill('仓储标签页');
    await form.getByLabel('类型').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByText('容器预览', { exact: true }).click();
    await button(form, '确定').click();
    await page.getByText('新增成功').waitFor();
    const row = page.locator('tr.ant-table-row', { hasText: '仓储标签页' });
    await row.waitFor();
    expect(await row.textContent()).toContain('容器预览');

    const views = await server.ctx.db.selectFrom('lc_generation').select(['id', 'name']).where('id', 'in', [13, 12]).execute();
    const nameOf = (id: number) => views.find((v) => v.id === id)?.name ?? '';
    await button(row, '设计').click();
    const picker = dialog(page, '设计：仓储标签页');
    const select = picker.locator('.ant-select');
    await select.waitFor();
    for (const id of [13, 12]) {
      await select.click();
      await page.keyboard.type(nameOf(id));
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: `（${id}）` }).click();
    }
    await page.keyboard.press('Escape');
    await button(picker, '保存设计').click();
    await page.getByText('保存成功').waitFor();
    const stored = await server.ctx.db
      .selectFrom('lc_screen')
      .select(['id', 'dis_template'])
      .where('name', '=', '仓储标签页')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.dis_template ?? '{}')).toEqual({ baseView: [13, 12] });

    // Someone else saves while the editor is open: this save is refused, not written over theirs.
    await button(row, '设计').click();
    await picker.locator('.ant-select').waitFor();
    const other = await server.login('admin');
    expect((await other.post('/api/screen/design', { id: stored.id, disTemplate: { baseView: [12] } })).status).toBe(200);
    await button(picker, '保存设计').click();
    await picker.getByText('该大屏已被他人修改并保存，请重新加载或确认覆盖').waitFor();
    const kept = await server.ctx.db.selectFrom('lc_screen').select('dis_template').where('id', '=', stored.id).executeTakeFirstOrThrow();
    expect(JSON.parse(kept.dis_template ?? '{}')).toEqual({ baseView: [12] });
    await button(picker, '取消').click();

    await button(row, '删除').click();
    await button(page.locator('.ant-modal-confirm'), '取消').click();
    expect(await server.ctx.db.selectFrom('lc_screen').select('id').where('id', '=', stored.id).executeTakeFirst()).toBeDefined();
    await button(row, '删除').click();
    await button(page.locator('.ant-modal-confirm'), '确定').click();
    await page.getByText('删除成功').waitFor();
    await expect.poll(() => row.count()).toBe(0);
    expect(await server.ctx.db.selectFrom('lc_screen').select('id').where('id', '=', stored.id).executeTakeFirst()).toBeUndefined();
  });
});

describe('打印二维码', () => {
  /** The module matrix a label's SVG draws, and the text under it. */
  async function labelsOf(page: Page) {
    return page.locator('.qr-label').evaluateAll((els) =>
      els.map((el) => ({
        path: el.querySelector('svg path')?.getAttribute('d') ?? '',
        side: Number(el.querySelector('svg')?.getAttribute('viewBox')?.split(' ')[2]),
        caption: el.querySelector('figcaption')?.textContent ?? '',
      })),
    );
  }
  const matrixOf = (text: string, level: 'L' | 'M') => {
    const { modules } = QRCode.create(text, { errorCorrectionLevel: level });
    return Array.from({ length: modules.size }, (_, y) =>
      Array.from({ length: modules.size }, (_, x) => (modules.get(y, x) ? '1' : '0')).join(''),
    );
  };

  it('prints 12 labels: 12 QR codes, each encoding its stored code, only the labels on paper', async () => {
    const admin = await server.ctx.db.selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow();
    const { page, errors } = await open('admin', '/qrcode/print?total=12&size=30');
    await expect.poll(() => page.locator('.qr-label svg.qr-code').count(), { timeout: 15_000 }).toBe(12);
    const stored = await server.ctx.db
      .selectFrom('materials_code')
      .select([
        'code_num',
        'operate_dept',
        (eb) => eb.fn<string>('to_char', [eb.ref('create_time'), eb.val('YYYY-MM-DD HH24:MI:SS')]).as('t'),
      ])
      .where('user_id', '=', admin.id)
      .orderBy('id')
      .execute();
    expect(stored).toHaveLength(12);
    const labels = await labelsOf(page);
    expect(labels.map((l) => l.caption)).toEqual(stored.map((s) => s.code_num));
    for (const [i, s] of stored.entries()) {
      const text = `${s.code_num}_${s.operate_dept ?? ''}_${s.t}`;
      const label = labels[i];
      expect(label && modulesOfPath(label.path, label.side), text).toEqual(matrixOf(text, 'L'));
    }
    // 30 mm wide: at 96 px per inch.
    const box = await page.locator('.qr-label svg.qr-code').first().boundingBox();
    expect(box?.width).toBeCloseTo((30 / 25.4) * 96, 0);

    // Level M draws the same texts more robustly.
    await page.getByText('M（污损环境）').click();
    // Another level draws another matrix; its size may stay the same when the text fits both versions alike.
    await expect.poll(async () => (await labelsOf(page))[0]?.path).not.toBe(labels[0]?.path);
    const first = stored[0];
    const m = (await labelsOf(page))[0];
    expect(m && first && modulesOfPath(m.path, m.side)).toEqual(
      first && matrixOf(`${first.code_num}_${first.operate_dept ?? ''}_${first.t}`, 'M'),
    );

    // 打印: after the fonts, with the print rules on; on paper only the labels.
    await page.evaluate(() => {
      const w = window as unknown as { printed: unknown[] };
      w.printed = [];
      window.print = () => {
        w.printed.push({ printing: document.documentElement.classList.contains('qr-printing'), fonts: document.fonts.status });
      };
    });
    await button(page, '打印').click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { printed: unknown[] }).printed))
      .toEqual([{ printing: true, fonts: 'loaded' }]);
    await page.emulateMedia({ media: 'print' });
    await page.evaluate(() => document.documentElement.classList.add('qr-printing'));
    expect(await page.locator('.wg-navbar').isVisible()).toBe(false);
    expect(await button(page, '生成').isVisible()).toBe(false);
    expect(await page.locator('.qr-label').nth(11).isVisible()).toBe(true);
    const sheet = await page.getByTestId('qr-sheet').boundingBox();
    expect(sheet?.x).toBe(0);
    await page.evaluate(() => document.documentElement.classList.remove('qr-printing'));
    await page.emulateMedia({ media: 'screen' });
    expect(await page.locator('.wg-navbar').isVisible()).toBe(true);

    // A reload shows the same batch; no new codes are made.
    await page.reload();
    await expect.poll(() => page.locator('.qr-label').count()).toBe(12);
    expect((await labelsOf(page)).map((l) => l.caption)).toEqual(stored.map((s) => s.code_num));
    const count = await server.ctx.db
      .selectFrom('materials_code')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', admin.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(12);

    // 下载: the batch's list as a file.
    const [file] = await Promise.all([page.waitForEvent('download'), button(page, '下载').click()]);
    expect(file.suggestedFilename()).toMatch(/^二维码清单_\d{14}\.xlsx$/);

    // The same address opened afresh is a new batch.
    await page.goto('/qrcode/print?total=12&size=30');
    await expect.poll(async () => (await labelsOf(page))[0]?.caption, { timeout: 15_000 }).not.toBe(stored[0]?.code_num);
    await expect.poll(() => page.locator('.qr-label').count()).toBe(12);
    const total = await server.ctx.db
      .selectFrom('materials_code')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', admin.id)
      .executeTakeFirstOrThrow();
    expect(Number(total.n)).toBe(24);
    expect(errors).toEqual([]);
  });
});
