import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startAppServer } from '../helpers/browser.js';
import type { ApiClient, TestServer } from '../helpers/server.js';

/**
 * The big-screen designer (/lsDesign) against the real server and the built app, on a new screen:
 * containers and charts added from the gallery and bound to data views, a container resized and
 * dragged at two canvas scales (it lands under the pointer), undo and redo (moving a container past
 * another and undoing it reloads and redraws no chart), a save read back through
 * the API and drawn by /lsPreview, layouts exported and imported, the keyboard, and a save refused
 * while the model reports an error (a pie's inner radius beyond its outer one).
 */

let server: TestServer;
let browser: Browser;
let admin: ApiClient;
let pieView: number;
let lineView: number;

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchBrowser()]);
  admin = await server.login('admin');
  const add = async (name: string, sql: string) => {
    const res = await admin.post('/api/data/add', { name, sql });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id as number;
  };
  pieView = await add('设计器饼图数据', "select '甲类' as name, 3 as value union all select '乙类', 5 union all select '丙类', 2");
  lineView = await add(
    '设计器折线数据',
    "select '1月' as month, 10 as amount, 3 as orders union all select '2月', 14, 5 union all select '3月', 9, 4",
  );
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function newScreen(name: string): Promise<number> {
  const res = await admin.post('/api/screen/add', { name, type: 2, status: 1, disMenu: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as number;
}

async function detailOf(id: number) {
  const res = await admin.get('/api/screen/detail', { id });
  expect(res.status).toBe(200);
  return { ...res.body, template: res.body.disTemplate ? JSON.parse(res.body.disTemplate) : null };
}

async function openDesigner(id: number, viewport = { width: 1600, height: 900 }) {
  const opened = await openPage(browser, server.url, { token: admin.token, viewport });
  opened.page.setDefaultTimeout(15_000);
  await opened.page.goto(`/lsDesign?lsId=${id}`);
  await opened.page.locator('.wg-design-stage').waitFor();
  return opened;
}

/** A button by its text; an icon's name may come before it. */
const button = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`(^| )${name}$`) });
const toast = (page: Page, text: string) => page.locator('.ant-message').getByText(text).waitFor();
const item = (page: Page, i: string) => page.locator(`[data-design-item="${i}"]`);

/** Picks an option of the antd select labelled `label` in the side bar, then closes its list. */
async function choose(page: Page, label: string, option: string) {
  await page.locator('.wg-design-side').getByLabel(label, { exact: true }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first().click();
  if (await page.locator('.ant-select-dropdown:visible').count()) await page.keyboard.press('Escape');
  await expect.poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
}

async function addChart(page: Page, kind: string) {
  await button(page, '添加图表').click();
  const dialog = page.getByRole('dialog', { name: '添加图表' });
  await dialog.getByRole('button', { name: kind, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByRole('region', { name: '图表配置' }).waitFor();
}

async function setZoom(page: Page, label: string) {
  await page.getByLabel('画布缩放').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: label }).first().click();
  const scale = { '50%': '0.5', '100%': '1' }[label];
  if (scale) await page.waitForFunction((s) => document.querySelector('.wg-design-stage')?.getAttribute('data-scale') === s, scale);
  await expect.poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
}

/** The box of `target` once it holds still from one frame to the next. */
async function stillBox(page: Page, target: Locator) {
  let box = await target.boundingBox();
  for (;;) {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const now = await target.boundingBox();
    if (JSON.stringify(now) === JSON.stringify(box)) return box;
    box = now;
  }
}

/**
 * Drags container `i` by whole cells with the mouse, in small steps, and checks that it lands under
 * the pointer: its box moved by the pointer's distance (to within half a cell, the grid's snap).
 */
async function dragBy(page: Page, i: string, cols: number, rows: number) {
  const scale = Number(await page.locator('.wg-design-stage').getAttribute('data-scale'));
  // The grid's steps on screen: (column width + margin) and (row height + margin), times the scale.
  const colStep = ((1920 - 25 * 20) / 24 + 20) * scale;
  const rowStep = ((1080 - 80 - 37 * 20) / 36 + 20) * scale;
  const target = item(page, i);
  await target.scrollIntoViewIfNeeded();
  const before = await target.boundingBox();
  if (!before) throw new Error(`container ${i} is not on screen`);
  const from = { x: before.x + before.width / 2, y: before.y + Math.min(before.height / 2, 60) };
  const to = { x: from.x + cols * colStep, y: from.y + rows * rowStep };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let n = 1; n <= 10; n++) await page.mouse.move(from.x + ((to.x - from.x) * n) / 10, from.y + ((to.y - from.y) * n) / 10);
  await page.mouse.up();
  // The grid animates the drop.
  const after = await stillBox(page, target);
  if (!after) throw new Error(`container ${i} left the screen`);
  expect(Math.abs(after.x - before.x - (to.x - from.x)), `x at scale ${scale}`).toBeLessThanOrEqual(colStep / 2 + 1);
  expect(Math.abs(after.y - before.y - (to.y - from.y)), `y at scale ${scale}`).toBeLessThanOrEqual(rowStep / 2 + 1);
  expect(
    to.x >= after.x && to.x <= after.x + after.width && to.y >= after.y && to.y <= after.y + after.height,
    'pointer inside the container',
  ).toBe(true);
}

describe('big-screen designer', () => {
  it('designs a new screen: containers, charts on data views, resize, drag at two scales, undo, save, preview, export and import', async () => {
    const id = await newScreen('设计器测试大屏');
    const { page, errors } = await openDesigner(id);

    // Nothing stored in this browser yet.
    await button(page, '导入容器配置').click();
    await toast(page, '未找到本地容器配置');

    await button(page, '添加容器').click();
    await button(page, '添加容器').click();
    await expect.poll(() => page.locator('.wg-design-item').count()).toBe(2);
    await expect.poll(() => page.locator('.wg-design-dirty').count()).toBe(1);

    // A pie on a data view in the first container.
    await item(page, 'c1').click();
    await page.getByRole('region', { name: '容器配置' }).waitFor();
    await addChart(page, '饼图');
    await choose(page, '数据视图', `（${pieView}）`);
    await choose(page, '名称字段', 'name');
    await choose(page, '数值字段', 'value');
    // A line-and-bar chart in the second.
    await item(page, 'c2').click();
    await addChart(page, '折线柱状图');
    await choose(page, '数据视图', `（${lineView}）`);
    await choose(page, 'X 轴字段', 'month');
    await choose(page, '柱状字段', 'amount');
    await choose(page, '折线字段', 'orders');
    await page.waitForFunction(() => {
      const charts = [...document.querySelectorAll('.wg-design .wg-screen-chart')];
      return charts.length === 2 && charts.every((c) => c.getAttribute('data-status') === 'ready' && c.querySelector('canvas'));
    });

    // Drag the second container at two canvas scales: it follows the pointer at both.
    await setZoom(page, '50%');
    // 12 rows down: the container (18 rows high) still ends on the canvas's 36 rows.
    await dragBy(page, 'c2', 3, 12);
    await setZoom(page, '100%');
    await dragBy(page, 'c2', -2, -10);
    await setZoom(page, '适应宽度');

    // Keyboard: arrows move the selected container one cell, Shift five.
    // Fitting the width settles once the pane has lost the scroll bars of 100%.
    const before = await stillBox(page, item(page, 'c2'));
    const fitScale = Number(await page.locator('.wg-design-stage').getAttribute('data-scale'));
    await item(page, 'c2').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    // One column right (59.17 + 20 design px), five rows down (5 × 27.2); the grid rounds to whole screen pixels.
    await expect
      .poll(async () => {
        const b = await item(page, 'c2').boundingBox();
        const dx = ((b?.x ?? 0) - (before?.x ?? 0)) / fitScale;
        const dy = ((b?.y ?? 0) - (before?.y ?? 0)) / fitScale;
        return Math.abs(dx - 79.17) <= 3 && Math.abs(dy - 136) <= 3;
      })
      .toBe(true);

    // Moving the first container below the second (the page model lists containers by row) and
    // undoing it, step by step, neither reloads a chart's data nor redraws a chart. First the loads and
    // draws of the moves so far end: no call in flight, then two frames for the charts to paint.
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __chartMarks: string[] }).__chartMarks = seen;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) seen.push(e.name);
      }).observe({ entryTypes: ['mark'] });
    });
    const chartMarks = () =>
      page.evaluate(() => (window as unknown as { __chartMarks: string[] }).__chartMarks.filter((n) => /screen-(data|painted)/.test(n)));
    const c1Before = await item(page, 'c1').boundingBox();
    await item(page, 'c1').focus();
    for (let n = 0; n < 4; n++) await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(async () => ((await item(page, 'c1').boundingBox())?.y ?? 0) > (c1Before?.y ?? 0) + 10).toBe(true);
    for (let n = 0; n < 4; n++) await page.keyboard.press('Control+z');
    await expect.poll(async () => Math.round((await item(page, 'c1').boundingBox())?.y ?? 0)).toBe(Math.round(c1Before?.y ?? 0));
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await chartMarks()).toEqual([]);

    // Resize the first container by its corner handle: two columns wider, one step of rows taller.
    const c1 = item(page, 'c1');
    const box = await c1.boundingBox();
    if (!box) throw new Error('no c1');
    const scale = Number(await page.locator('.wg-design-stage').getAttribute('data-scale'));
    const colStep = ((1920 - 25 * 20) / 24 + 20) * scale;
    await c1.hover();
    const handle = c1.locator('.react-resizable-handle-se');
    const hb = await handle.boundingBox();
    if (!hb) throw new Error('no resize handle');
    await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2);
    await page.mouse.down();
    for (let n = 1; n <= 8; n++)
      await page.mouse.move(hb.x + hb.width / 2 + (2 * colStep * n) / 8, hb.y + hb.height / 2 + (40 * scale * n) / 8);
    await page.mouse.up();
    await expect.poll(async () => Math.round(((await c1.boundingBox())?.width ?? 0) - box.width)).toBeGreaterThan(colStep * 1.5);

    // Undo the resize (one step), redo it, by keys and by the buttons.
    await page.locator('.wg-design-stage').focus();
    await page.keyboard.press('Control+z');
    await expect.poll(async () => Math.round((await c1.boundingBox())?.width ?? 0)).toBe(Math.round(box.width));
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(async () => Math.round(((await c1.boundingBox())?.width ?? 0) - box.width)).toBeGreaterThan(colStep * 1.5);
    await button(page, '撤销').click();
    await expect.poll(async () => Math.round((await c1.boundingBox())?.width ?? 0)).toBe(Math.round(box.width));
    await page.keyboard.press('Control+y');
    await expect.poll(async () => Math.round(((await c1.boundingBox())?.width ?? 0) - box.width)).toBeGreaterThan(colStep * 1.5);

    // Save, and read it back through the API.
    await button(page, '保存').click();
    await toast(page, '保存成功');
    await expect.poll(() => page.locator('.wg-design-dirty').count()).toBe(0);
    const saved = await detailOf(id);
    const layout = saved.template.layout as {
      i: string;
      x: number;
      y: number;
      w: number;
      h: number;
      chart: { fileName: string; configure: { private: Record<string, unknown> } }[];
    }[];
    expect(layout.map((x) => x.i).sort()).toEqual(['c1', 'c2']);
    const first = layout.find((x) => x.i === 'c1');
    const second = layout.find((x) => x.i === 'c2');
    expect(first?.w).toBe(8);
    expect(second).toMatchObject({ x: 6 + 3 - 2 + 1, w: 6, h: 18 });
    // Dragged 12 rows down and 10 up (each to the nearest row), then 5 down by the keyboard.
    expect(Math.abs((second?.y ?? 0) - (12 - 10 + 5))).toBeLessThanOrEqual(1);
    expect(first?.chart[0]).toMatchObject({
      fileName: 'pie',
      configure: { private: { dataViewId: pieView, seriesDataName: 'name', seriesDataValue: 'value' } },
    });
    expect(second?.chart[0]).toMatchObject({
      fileName: 'lineBar',
      configure: { private: { dataViewId: lineView, xAxisData: 'month', yAxisData_bar: 'amount', yAxisData_line: 'orders' } },
    });

    // The viewer draws the same charts.
    const viewer = await openPage(browser, server.url, { token: admin.token, viewport: { width: 1366, height: 768 } });
    await viewer.page.goto(`/lsPreview?lsId=${id}`);
    await viewer.page.waitForFunction(() => {
      const charts = [...document.querySelectorAll('.wg-screen-chart')];
      return charts.length === 2 && charts.every((c) => c.getAttribute('data-status') === 'ready');
    });
    const kinds = await viewer.page
      .locator('.wg-screen-chart')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-chart-kind')).sort());
    expect(kinds).toEqual(['lineBar', 'pie']);
    expect(viewer.errors).toEqual([]);

    // Export the layout, change it, import it back.
    await button(page, '导出容器配置').click();
    await toast(page, '容器配置已导出到浏览器缓存');
    await button(page, '添加容器').click();
    await expect.poll(() => page.locator('.wg-design-item').count()).toBe(3);
    await button(page, '导入容器配置').click();
    await toast(page, '容器配置导入成功');
    await expect.poll(() => page.locator('.wg-design-item').count()).toBe(2);

    // Delete asks first.
    await item(page, 'c2').focus();
    await page.keyboard.press('Delete');
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText('确定删除容器 c2').waitFor();
    await confirm.getByRole('button', { name: /取\s?消/ }).click();
    await expect.poll(() => page.locator('.wg-design-item').count()).toBe(2);
    expect(errors).toEqual([]);
  });

  it('keeps a container dragged or resized past the bottom on the canvas, and lists one already below it under 问题', async () => {
    const id = await newScreen('设计器越界大屏');
    const { page, errors } = await openDesigner(id);
    await button(page, '添加容器').click();
    const c1 = item(page, 'c1');
    const stage = page.locator('.wg-design-stage');
    const stageBox = await stillBox(page, stage);
    if (!stageBox) throw new Error('no canvas');
    // Dragged far below the canvas's bottom edge: it stops on the last rows.
    let box = await stillBox(page, c1);
    if (!box) throw new Error('no c1');
    await page.mouse.move(box.x + box.width / 2, box.y + 40);
    await page.mouse.down();
    for (let n = 1; n <= 10; n++) await page.mouse.move(box.x + box.width / 2, box.y + 40 + n * 150);
    await page.mouse.up();
    box = await stillBox(page, c1);
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(stageBox.y + stageBox.height + 1);
    // Resized taller than the canvas by its bottom edge: it stops at the bottom too.
    await button(page, '添加容器').click();
    const c2 = item(page, 'c2');
    await c2.hover();
    const handle = c2.locator('.react-resizable-handle-s');
    const hb = await handle.boundingBox();
    if (!hb) throw new Error('no resize handle');
    await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2);
    await page.mouse.down();
    for (let n = 1; n <= 10; n++) await page.mouse.move(hb.x + hb.width / 2, hb.y + hb.height / 2 + n * 150);
    await page.mouse.up();
    const grown = await stillBox(page, c2);
    expect((grown?.y ?? 0) + (grown?.height ?? 0)).toBeLessThanOrEqual(stageBox.y + stageBox.height + 1);
    expect(grown?.height ?? 0).toBeGreaterThan((box?.height ?? 0) * 1.5);

    await button(page, '保存').click();
    await toast(page, '保存成功');
    const layout = (await detailOf(id)).template.layout as { i: string; y: number; h: number }[];
    expect(layout.map((x) => x.y + x.h)).toEqual([36, 36]);

    // A screen saved with a container below the canvas (by another client) shows it under 问题 and is not saved as it is.
    const saved = await detailOf(id);
    saved.template.layout[0].y = 30;
    expect((await admin.post('/api/screen/design', { id, disTemplate: JSON.stringify(saved.template) })).status).toBe(200);
    await page.reload();
    await page.locator('.wg-design-stage').waitFor();
    await page.locator('.wg-design-alert').getByText('超出画布底部').waitFor();
    await page.getByRole('button', { name: '配置问题' }).click();
    await page
      .locator('.wg-design-problems')
      .getByText('容器 c1 在第 31–48 行，超出画布底部（共 36 行），超出部分在大屏上不显示')
      .waitFor();
    expect(errors).toEqual([]);
  });

  it('refreshes the canvas’s charts every basic.timer seconds when auto update is on, like the viewer', async () => {
    const res = await admin.post('/api/data/add', {
      name: '设计器刷新数据',
      sql: `select "stockNo" as "入库单号", "wasteName" as "危废名称" from lc_view_12 order by id desc limit 8`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const viewId = res.body.id as number;
    const id = await newScreen('设计器刷新大屏');
    const template = {
      canvasConfigure: { basic: { autoUpdate: true, timer: 1 } },
      layout: [
        {
          i: 'c1',
          x: 0,
          y: 0,
          w: 12,
          h: 18,
          container: {},
          chart: [{ fileName: 'scrollList', chartIndex: 0, flexSize: 1, configure: { common: {}, private: { dataViewId: viewId } } }],
        },
      ],
    };
    expect((await admin.post('/api/screen/design', { id, disTemplate: JSON.stringify(template) })).status).toBe(200);
    const { page, errors } = await openDesigner(id);
    const list = page.locator('.wg-design [data-chart-kind="scrollList"]');
    await list.locator('.wg-screen-table-row').first().waitFor();
    const stockNo = `RK${Date.now()}`.slice(0, 14);
    expect(await list.textContent()).not.toContain(stockNo);
    const add = await admin.post('/api/general/add/12', {
      stockNo,
      wasteCategory: 'HW08',
      wasteCode: '900-249-08',
      wasteName: '设计器刷新测试废矿物油',
      quantity: '1.250',
      packageType: '2',
      warehouseId: 1,
      inTime: '2026-11-01 10:00:00',
      handler: '测试员',
      status: '0',
    });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    await expect.poll(() => list.textContent(), { timeout: 8000 }).toContain(stockNo);
    expect(errors).toEqual([]);
  });

  it('sets the header’s width, the title image’s alignment and size, and a chart’s whole theme colour list', async () => {
    const id = await newScreen('设计器头部大屏');
    const { page, errors } = await openDesigner(id);
    const side = page.locator('.wg-design-side');
    const scale = Number(await page.locator('.wg-design-stage').getAttribute('data-scale'));
    // 头部: 800 px wide, centred on the canvas.
    await side.getByRole('tab', { name: '头部' }).click();
    const width = side.getByLabel('头部宽度', { exact: true });
    await width.fill('800');
    await width.blur();
    const header = page.locator('.wg-design .wg-screen-header');
    await expect.poll(async () => Math.round(((await header.boundingBox())?.width ?? 0) / scale)).toBe(800);
    const canvasBox = await page.locator('.wg-design-canvas').boundingBox();
    const headerBox = await header.boundingBox();
    expect(Math.abs((headerBox?.x ?? 0) - (canvasBox?.x ?? 0) - ((canvasBox?.width ?? 0) - (headerBox?.width ?? 0)) / 2)).toBeLessThan(2);
    // 主标题: the image's alignment and size.
    await side.getByRole('tab', { name: '主标题' }).click();
    await choose(page, '标题背景对齐', '顶部');
    await choose(page, '标题背景尺寸', '完整显示');
    const title = page.locator('.wg-design .wg-screen-title');
    await expect
      .poll(() => title.evaluate((e) => [getComputedStyle(e).backgroundPosition, getComputedStyle(e).backgroundSize].join(' / ')))
      .toBe('50% 0% / contain');

    // A chart's own theme colours: the whole list, taken from the presets, one deleted, one moved.
    await addChart(page, '饼图');
    await side
      .getByRole('button', { name: /主题色/ })
      .first()
      .click();
    const list = side.getByRole('group', { name: '图表主题色' });
    await list.getByRole('button', { name: '使用全部预定义主题色' }).click();
    await expect.poll(() => list.locator('.wg-design-theme-row').count()).toBe(8);
    await list.getByRole('button', { name: '删除图表主题色 8' }).click();
    await list.getByRole('button', { name: '下移图表主题色 1' }).click();
    await expect.poll(() => list.locator('.wg-design-theme-row').count()).toBe(7);

    await button(page, '保存').click();
    await toast(page, '保存成功');
    const saved = (await detailOf(id)).template;
    expect(saved.canvasConfigure.header.width).toBe(800);
    expect(saved.canvasConfigure.mainTitle).toMatchObject({ bgPosition: 'top', bgSize: 'contain' });
    const themes = saved.layout[0].chart[0].configure.common.themeColor as { start: string }[];
    expect(themes.map((t) => t.start)).toEqual(['#11A983', '#2F6EFF', '#F7B500', '#F5222D', '#6959CD', '#13C2C2', '#1890FF']);
    expect(errors).toEqual([]);
  });

  it('refuses to save while the pie’s inner radius exceeds its outer one, showing the model’s message at the field', async () => {
    const id = await newScreen('设计器校验大屏');
    const { page } = await openDesigner(id);
    await addChart(page, '饼图');
    const side = page.locator('.wg-design-side');
    await side.getByText('饼图半径').waitFor();
    const inner = side.getByLabel('内半径', { exact: true });
    await inner.fill('90');
    await inner.blur();
    await side.getByText('内半径不能大于外半径').waitFor();
    await side.getByText('pie inner radius 90 exceeds the outer radius 70').waitFor();
    await button(page, '保存').click();
    await page
      .locator('.ant-message')
      .getByText(/无法保存/)
      .waitFor();
    const detail = await detailOf(id);
    expect(detail.template).toBeNull();

    // Fixed, it saves.
    await inner.fill('40');
    await inner.blur();
    await expect.poll(() => side.getByText('内半径不能大于外半径').count()).toBe(0);
    await button(page, '保存').click();
    await toast(page, '保存成功');
    expect((await detailOf(id)).template.layout[0].chart[0].configure.private).toMatchObject({ radiusInside: 40, radiusOutSide: 70 });
  });

  it('keeps an unsaved draft in the browser and offers it back; a save over someone else’s newer save asks first; closing an unsaved tab asks', async () => {
    const id = await newScreen('设计器草稿大屏');
    const { page } = await openDesigner(id);
    await button(page, '添加容器').click();
    await button(page, '保存').click();
    await toast(page, '保存成功');
    await button(page, '添加容器').click();
    await expect.poll(() => page.evaluate((k) => localStorage.getItem(k) !== null, `wg:lsDesign:draft:${id}`)).toBe(true);

    // Reopened (as after a crash): the draft is offered back.
    await page.reload();
    const offer = page.locator('.ant-modal-confirm');
    await offer.getByText('未保存的设计草稿').waitFor();
    await offer.getByRole('button', { name: '恢复草稿' }).click();
    await expect.poll(() => page.locator('.wg-design-item').count()).toBe(2);
    await page.locator('.wg-design-dirty').waitFor();

    // Someone else saves meanwhile.
    const other = await detailOf(id);
    const theirs = { ...other.template, canvasConfigure: { ...other.template.canvasConfigure, mainTitle: { content: '别人的标题' } } };
    expect((await admin.post('/api/screen/design', { id, disTemplate: JSON.stringify(theirs) })).status).toBe(200);

    await button(page, '保存').click();
    const dialog = page.getByRole('dialog', { name: '大屏已被他人修改' });
    await dialog.waitFor();
    expect((await detailOf(id)).template.canvasConfigure.mainTitle.content).toBe('别人的标题');
    await dialog.getByRole('button', { name: '覆盖保存' }).click();
    await toast(page, '保存成功');
    const after = await detailOf(id);
    expect(after.template.layout).toHaveLength(2);

    // Closing the tab with unsaved changes asks first; saved, it closes at once.
    await button(page, '添加容器').click();
    await page.locator('.wg-tag[data-path="/lsDesign"] .wg-tag-close').click();
    const ask = page.locator('.ant-modal-confirm');
    await ask.locator('.ant-modal-confirm-title').getByText('大屏设计尚未保存').waitFor();
    await ask.getByRole('button', { name: /取\s?消/ }).click();
    await ask.waitFor({ state: 'hidden' });
    await page.locator('.wg-design').waitFor();
    await button(page, '撤销').click();
    await expect.poll(() => page.locator('.wg-design-dirty').count()).toBe(0);
    await page.locator('.wg-tag[data-path="/lsDesign"] .wg-tag-close').click();
    await expect.poll(() => page.locator('.wg-design').count()).toBe(0);
  });
});
