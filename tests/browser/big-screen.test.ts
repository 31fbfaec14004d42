import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startAppServer } from '../helpers/browser.js';
import type { ApiClient, TestServer } from '../helpers/server.js';

/**
 * Big screens against the real server and the built app: the viewer (/lsPreview) and the in-app
 * page draw every chart kind from data views, fit any window without scrollbars, tick their clock,
 * refresh on their timer with one request per data view, show a failing data view in its own chart,
 * refuse screens that are not enabled or not designed, and open from a share link without a session.
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

const common = { colorModel: 'gradient', privateColorFirst: false, themeColor: [] };

interface ChartSpec {
  kind: string;
  settings?: Record<string, unknown>;
}

/** A 3 × 3 grid of containers, one chart each. */
function layoutOf(charts: ChartSpec[]) {
  return charts.map((c, i) => ({
    i: `c${i}`,
    x: (i % 3) * 8,
    y: Math.floor(i / 3) * 12,
    w: 8,
    h: 12,
    container: { header: { showTitle: true, content: c.kind } },
    chart: [{ fileName: c.kind, chartIndex: 0, flexSize: 1, configure: { common, private: c.settings ?? {} } }],
  }));
}

/** Adds a big screen and saves its design; returns its id. */
async function designScreen(name: string, template: Record<string, unknown> | null, status = 1): Promise<number> {
  const add = await admin.post('/api/screen/add', { name, type: 2, status, disMenu: { name } });
  expect(add.status, JSON.stringify(add.body)).toBe(200);
  const id = add.body.id as number;
  if (template) {
    const design = await admin.post('/api/screen/design', { id, disTemplate: JSON.stringify(template) });
    expect(design.status, JSON.stringify(design.body)).toBe(200);
  }
  return id;
}

async function addDataView(name: string, sql: string): Promise<number> {
  const res = await admin.post('/api/data/add', { name, sql });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as number;
}

/** Seeded data views; the radar draws its sample; a ninth chart names a data view deleted after the design was saved. */
const allKinds = (gone: number): ChartSpec[] => [
  {
    kind: 'lineBar',
    settings: { dataViewId: 7, xAxisData: '月份', yAxisData_bar: '处置量', yAxisData_line: '订单数', legend: { show: true } },
  },
  { kind: 'pie', settings: { dataViewId: 2, seriesDataName: 'name', seriesDataValue: 'value', roseType: 'radius', label: { unit: '吨' } } },
  { kind: 'scrollList', settings: { dataViewId: 8, interval: 1000 } },
  { kind: 'cityTransaction', settings: { dataViewId: 4 } },
  { kind: 'siteInfo', settings: { dataViewId: 9 } },
  { kind: 'provinceInfo', settings: { dataViewId: 9 } },
  { kind: 'companyData', settings: { dataViewId: 9 } },
  { kind: 'radar' },
  { kind: 'lineBar', settings: { dataViewId: gone } },
];

/**
 * The share of a chart's pixels that differ from its most common colour (its background), read
 * from a screenshot of the element decoded in the page.
 */
async function inkOf(page: Page, chart: Locator): Promise<number> {
  const png = await chart.screenshot();
  return page.evaluate(async (b64) => {
    // Decoded by hand: the page's policy allows no fetch of a data: address.
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const blob = new Blob([bytes], { type: 'image/png' });
    const bitmap = await createImageBitmap(blob);
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
    ctx.drawImage(bitmap, 0, 0);
    const d = ctx.getImageData(0, 0, bitmap.width, bitmap.height).data;
    const counts = new Map<number, number>();
    const keyAt = (i: number) => ((d[i] as number) >> 4) * 256 + ((d[i + 1] as number) >> 4) * 16 + ((d[i + 2] as number) >> 4);
    for (let i = 0; i < d.length; i += 4) counts.set(keyAt(i), (counts.get(keyAt(i)) ?? 0) + 1);
    const background = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
    let ink = 0;
    for (let i = 0; i < d.length; i += 4) if (keyAt(i) !== background) ink++;
    return ink / (d.length / 4);
  }, png.toString('base64'));
}

async function openViewer(path: string, viewport = { width: 1366, height: 768 }, token: string | null = admin.token) {
  const opened = await openPage(browser, server.url, { token, viewport });
  opened.page.setDefaultTimeout(15_000);
  await opened.page.goto(path);
  return opened;
}

const charts = (page: Page) => page.locator('.wg-screen-chart');

/** Waits until every chart has left its loading state. */
async function settled(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (n) => {
      const all = [...document.querySelectorAll('.wg-screen-chart')];
      return all.length === n && all.every((c) => c.getAttribute('data-status') !== 'loading');
    },
    count,
    { polling: 50 },
  );
}

describe('big screens', () => {
  it('draws every chart kind from its data view, one request per data view; a failing one shows its error and the others draw', async () => {
    const gone = await addDataView('将被删除', 'select 1 as x');
    const ALL_KINDS = allKinds(gone);
    const id = await designScreen('八种图表', {
      canvasConfigure: {
        basic: { autoUpdate: false },
        mainTitle: { content: '八种图表' },
        themeColor: [{ start: '#2F6EFF', end: '#00C6FF' }],
      },
      layout: layoutOf(ALL_KINDS),
    });
    // The delete call refuses a data view a screen reads, so it goes from the table, as an older server left it.
    expect((await admin.post('/api/data/delete', [gone])).status).toBe(400);
    await server.ctx.db.deleteFrom('lc_data_view').where('id', '=', gone).execute();
    const { page, errors } = await openPage(browser, server.url, { token: admin.token, viewport: { width: 1920, height: 1080 } });
    page.setDefaultTimeout(15_000);
    const requests: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === '/api/data/detail') requests.push(url.searchParams.get('id') ?? '');
    });
    await page.goto(`/lsPreview?lsId=${id}`);
    await settled(page, ALL_KINDS.length);
    // ECharts kinds: wait for their canvases; HTML kinds: for their rows and figures.
    for (const k of ['lineBar', 'pie', 'radar']) await page.locator(`[data-chart-kind="${k}"] canvas`).first().waitFor();
    await page.locator('[data-chart-kind="scrollList"] .wg-screen-table-row').first().waitFor();
    await page.locator('[data-chart-kind="cityTransaction"] .wg-screen-table-row').first().waitFor();
    for (let i = 0; i < ALL_KINDS.length - 1; i++) {
      const chart = charts(page).nth(i);
      const kind = ALL_KINDS[i]?.kind;
      expect(await chart.getAttribute('data-chart-kind')).toBe(kind);
      expect(await chart.getAttribute('data-status'), kind).toBe('ready');
      expect(await chart.locator('.wg-screen-chart-error, .wg-screen-chart-note').count(), kind).toBe(0);
      // ECharts draws over its first animation: wait until the chart has drawn.
      await expect.poll(() => inkOf(page, chart), { message: `${kind} draws` }).toBeGreaterThan(0.03);
    }
    // Figures and rows carry the data views' values.
    expect(await page.locator('[data-chart-kind="siteInfo"] .wg-screen-figure-label').allTextContents()).toEqual([
      '入驻企业',
      '累计入库（吨）',
      '处置订单',
      '交易额（元）',
    ]);
    expect(await page.locator('[data-chart-kind="cityTransaction"] .wg-screen-table-head span').allTextContents()).toEqual([
      '城市',
      '交易额（元）',
      '已支付（元）',
    ]);
    expect(await page.locator('[data-chart-kind="cityTransaction"] .wg-screen-table-row').first().textContent()).toMatch(
      /市[\d,]+\.\d{2}[\d,]+\.\d{2}/,
    );
    // The missing data view: a small error in its own chart.
    const failing = charts(page).nth(ALL_KINDS.length - 1);
    expect(await failing.getAttribute('data-status')).toBe('error');
    expect(await failing.locator('.wg-screen-chart-error').textContent()).toBe('数据加载失败：数据视图不存在');
    // siteInfo, provinceInfo and companyData share data view 9: one request.
    expect(requests.filter((r) => r === '9')).toEqual(['9']);
    expect(requests.sort()).toEqual(['2', '4', '7', '8', '9', String(gone)].sort());
    expect(errors).toEqual([]);
  });

  for (const viewport of [
    { width: 1366, height: 768 },
    { width: 3840, height: 1080 },
    { width: 1080, height: 1920 },
  ]) {
    it(`fits the canvas to ${viewport.width}×${viewport.height}, keeping its aspect ratio, without scrollbars`, async () => {
      const { page } = await openViewer('/lsPreview?lsId=50', viewport);
      await settled(page, 6);
      await page.locator('[data-chart-kind="lineBar"] canvas').waitFor();
      const scale = Math.min(viewport.width / 1920, viewport.height / 1080);
      const box = await page.locator('.wg-screen-canvas').boundingBox();
      expect(box).not.toBeNull();
      if (!box) return;
      expect(box.width).toBeCloseTo(1920 * scale, 0);
      expect(box.height).toBeCloseTo(1080 * scale, 0);
      // Letterboxed: centred, inside the window.
      expect(box.x).toBeCloseTo((viewport.width - box.width) / 2, 0);
      expect(box.y).toBeCloseTo((viewport.height - box.height) / 2, 0);
      const scroll = await page.evaluate(() => {
        const e = document.documentElement;
        return { x: e.scrollWidth - e.clientWidth, y: e.scrollHeight - e.clientHeight };
      });
      expect(scroll).toEqual({ x: 0, y: 0 });
    });
  }

  it('renders charts at a pixel ratio of at least the canvas scale on a scaled-up wall, and follows a resize', async () => {
    const { page } = await openViewer('/lsPreview?lsId=50', { width: 3840, height: 2160 });
    const canvas = page.locator('[data-chart-kind="lineBar"] canvas').first();
    await canvas.waitFor();
    const ratio = () => canvas.evaluate((c: HTMLCanvasElement) => c.width / c.offsetWidth);
    expect(await ratio()).toBeGreaterThanOrEqual(2);
    // A smaller window: the canvas follows (100 ms debounce) and charts are made again at the lower ratio.
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.waitForFunction(() => {
      const b = document.querySelector('.wg-screen-canvas')?.getBoundingClientRect();
      return !!b && Math.abs(b.width - 1280) < 1;
    });
    await page.waitForFunction(() => {
      const c = document.querySelector('[data-chart-kind="lineBar"] canvas') as HTMLCanvasElement | null;
      return !!c && c.width / c.offsetWidth < 1.5;
    });
  });

  it('draws with the SVG renderer when asked (renderer=svg)', async () => {
    const { page, errors } = await openViewer('/lsPreview?lsId=50&renderer=svg');
    for (const k of ['lineBar', 'pie', 'radar']) {
      const paths = page.locator(`[data-chart-kind="${k}"] svg path`);
      await paths.first().waitFor({ state: 'attached' });
      expect(await paths.count(), k).toBeGreaterThan(5);
    }
    expect(await page.locator('.wg-screen-chart canvas').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('turns a scrolling container into a carousel of its charts, with a curtain and an absolute placement', async () => {
    const id = await designScreen('轮播', {
      layout: [
        {
          i: 'carousel',
          x: 0,
          y: 0,
          w: 12,
          h: 18,
          container: {
            super: {
              scroll: { enabled: true, direction: 'horizontal', speed: 1000 },
              curtain: { enabled: true, curtainColor: 'rgba(255,0,0,0.5)' },
            },
          },
          chart: [
            { fileName: 'siteInfo', chartIndex: 0, configure: { private: { dataViewId: 9 } } },
            { fileName: 'radar', chartIndex: 1, configure: {} },
          ],
        },
        { i: 'pinned', x: 12, y: 0, w: 6, h: 6, container: { super: { absolute: { enabled: true, top: 300, left: 1500 } } }, chart: [] },
      ],
    });
    const { page } = await openViewer(`/lsPreview?lsId=${id}`, { width: 1920, height: 1080 });
    const carousel = page.locator('[data-item="carousel"] .wg-screen-carousel');
    await expect.poll(() => carousel.getAttribute('data-carousel-index'), { timeout: 5000 }).toBe('1');
    await expect.poll(() => carousel.getAttribute('data-carousel-index'), { timeout: 5000 }).toBe('0');
    expect(await page.locator('[data-item="carousel"] .wg-screen-curtain').evaluate((e) => getComputedStyle(e).backgroundColor)).toBe(
      'rgba(255, 0, 0, 0.5)',
    );
    const pinned = await page.locator('[data-item="pinned"]').boundingBox();
    const layout = await page.locator('.wg-screen-layout').boundingBox();
    expect(pinned && layout && [pinned.x - layout.x, pinned.y - layout.y]).toEqual([1500, 300]);
  });

  it('ticks the header clock every second (yyyy.MM.dd HH:mm:ss)', async () => {
    const { page } = await openViewer('/lsPreview?lsId=50');
    // The viewer's own page: none of the back office is loaded on a wall display.
    expect(await page.evaluate(() => document.querySelector('script[type="module"]')?.getAttribute('src'))).toMatch(/\/assets\/lsPreview-/);
    const clock = page.locator('.wg-screen-subtitle[data-clock]');
    await expect.poll(() => clock.textContent()).toMatch(/^\d{4}\.\d{2}\.\d{2} \d{2}:\d{2}:\d{2}$/);
    const first = await clock.textContent();
    await expect.poll(() => clock.textContent(), { timeout: 2500 }).not.toBe(first);
    const second = await clock.textContent();
    const seconds = (t: string | null) => Number(t?.slice(-2));
    expect((seconds(second) - seconds(first) + 60) % 60).toBe(1);
  });

  it('shows a row added through the API once the timer has run, without a reload', async () => {
    const viewId = await addDataView(
      '最新入库（测试）',
      `select "stockNo" as "入库单号", "wasteName" as "危废名称" from lc_view_12 order by id desc limit 8`,
    );
    const id = await designScreen('自动刷新', {
      canvasConfigure: { basic: { autoUpdate: true, timer: 1 }, subTitle: { time: false, content: '每秒刷新' } },
      layout: layoutOf([{ kind: 'scrollList', settings: { dataViewId: viewId } }]),
    });
    const { page } = await openViewer(`/lsPreview?lsId=${id}`);
    const list = page.locator('[data-chart-kind="scrollList"]');
    await list.locator('.wg-screen-table-row').first().waitFor();
    const stockNo = `RK${Date.now()}`.slice(0, 14);
    expect(await list.textContent()).not.toContain(stockNo);
    const fetched = page.waitForResponse((r) => r.url().includes(`/api/data/detail?id=${viewId}`));
    const add = await admin.post('/api/general/add/12', {
      stockNo,
      wasteCategory: 'HW08',
      wasteCode: '900-249-08',
      wasteName: '大屏刷新测试废矿物油',
      quantity: '1.250',
      packageType: '2',
      warehouseId: 1,
      inTime: '2026-11-01 10:00:00',
      handler: '测试员',
      status: '0',
    });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    await fetched;
    await expect.poll(() => list.textContent(), { timeout: 5000 }).toContain(stockNo);
    expect(await page.locator('.wg-screen-subtitle').textContent()).toBe('每秒刷新');
  });

  it('stops fetching while hidden (the browser tab, or its app tab left open), resumes when shown, and stops for good when closed', async () => {
    const id = await designScreen('隐藏暂停', {
      canvasConfigure: { basic: { autoUpdate: true, timer: 1 } },
      layout: layoutOf([{ kind: 'siteInfo', settings: { dataViewId: 9 } }]),
    });
    const { page } = await openViewer(`/screen/vBuild/temp/${id}`);
    let calls = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/data/detail')) calls++;
    });
    /** The scheduler says it holds every fetch (paused or stopped); once the calls in flight end, none follows. */
    const quiet = async (state: 'paused' | 'stopped') => {
      await page.waitForFunction(
        (s) => (performance.getEntriesByName('wastegen:screen-fetching').at(-1) as PerformanceMark | undefined)?.detail === s,
        state,
      );
      await page.waitForLoadState('networkidle');
      const before = calls;
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      expect(calls).toBe(before);
    };
    const resumes = async () => {
      const before = calls;
      await expect.poll(() => calls, { timeout: 4000 }).toBeGreaterThan(before);
    };
    await page.locator('.wg-screen-figure').first().waitFor();
    await resumes();

    // The browser tab hidden.
    const setHidden = (hidden: boolean) =>
      page.evaluate((h) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
        document.dispatchEvent(new Event('visibilitychange'));
      }, hidden);
    await setHidden(true);
    await quiet('paused');
    await setHidden(false);
    await resumes();

    // Another app tab in front: the screen's page stays mounted, hidden.
    await page.locator('.wg-tags .wg-tag').filter({ hasText: '首页' }).click();
    await page.waitForURL('**/abandonhome');
    expect(await page.locator('.wg-screen').count()).toBe(1);
    await quiet('paused');
    await page.locator('.wg-tags .wg-tag.is-active').waitFor();
    await page.locator('.wg-tags .wg-tag').filter({ hasText: '隐藏暂停' }).click();
    await resumes();

    // Its tag closed: unmounted, nothing more.
    await page.locator('.wg-tags .wg-tag').filter({ hasText: '隐藏暂停' }).locator('.wg-tag-close').click();
    await expect.poll(() => page.locator('.wg-screen').count()).toBe(0);
    await quiet('stopped');
  });

  it('says 该大屏尚未启用 for a screen of status 0 and 该大屏尚未设计 for one without a design', async () => {
    const disabled = await openViewer('/lsPreview?lsId=51');
    await disabled.page.getByText('该大屏尚未启用', { exact: true }).waitFor();
    expect(await disabled.page.locator('.wg-screen-canvas').count()).toBe(0);
    const undesigned = await designScreen('待设计大屏', null, 1);
    const empty = await openViewer(`/lsPreview?lsId=${undesigned}`);
    await empty.page.getByText('该大屏尚未设计', { exact: true }).waitFor();
    expect(await empty.page.locator('.wg-screen-canvas').count()).toBe(0);
  });

  it('says where to switch a screen on, and offers 启用该大屏 to a user who may edit screens', async () => {
    const id = await designScreen('待启用大屏', { layout: layoutOf([{ kind: 'radar' }]) }, 0);
    const { page, errors } = await openViewer(`/lsPreview?lsId=${id}`);
    await page.getByText('该大屏尚未启用', { exact: true }).waitFor();
    await page.getByText('勾选“启用”并保存后即可预览', { exact: false }).waitFor();
    await page.getByRole('button', { name: '启用该大屏' }).click();
    await page.locator('.wg-screen-canvas').waitFor();
    expect((await admin.get('/api/screen/detail', { id })).body.status).toBe(1);
    expect(errors).toEqual([]);

    // Someone who may not edit screens, and whose menus do not lead to it, is refused it: no button.
    const other = await designScreen('仍停用大屏', { layout: layoutOf([{ kind: 'radar' }]) }, 0);
    const supervisor = await server.login('supervisor');
    const seen = await openViewer(`/lsPreview?lsId=${other}`, undefined, supervisor.token);
    await seen.page.waitForURL((u) => u.pathname === '/401');
    expect(await seen.page.getByRole('button', { name: '启用该大屏' }).count()).toBe(0);
  });

  it('draws screen 50 as an in-app page from its menu entry', async () => {
    const { page, errors } = await openViewer('/screen/vBuild/temp/50', { width: 1366, height: 768 });
    await page.locator('.wg-navbar').waitFor();
    await settled(page, 6);
    await page.locator('[data-chart-kind="pie"] canvas').waitFor();
    expect(await page.locator('.wg-screen-title').textContent()).toBe('江苏省危险废物智慧监管运营大屏');
    expect(await page.locator('.wg-screen-chart[data-status="ready"]').count()).toBe(6);
    expect(errors).toEqual([]);
  });

  it('offers 大屏配置 on a template page to a user who may design screens, opening the canvas, container and chart panels', async () => {
    const { page, errors } = await openViewer('/screen/vBuild/temp/50', { width: 1366, height: 768 });
    await settled(page, 6);
    await page.getByRole('button', { name: /大屏配置/ }).click();
    await page.waitForURL(/\/lsDesign\?lsId=50$/);
    await page.getByRole('region', { name: '画布配置' }).waitFor();
    // A container and a chart of the screen open their own panels.
    await page.locator('[data-design-item="trend"]').click();
    const container = page.getByRole('region', { name: '容器配置' });
    await container.waitFor();
    await container.getByRole('button', { name: '配置图表 1' }).click();
    await page.getByRole('region', { name: '图表配置' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('opens from a share link in a fresh browser without a session, through the open calls only; a tampered or revoked link shows its panel', async () => {
    const res = await admin.post('/api/screen/share', { id: 50, expiresIn: 600 });
    expect(res.status).toBe(200);
    const url = res.body.url as string;
    const { page, context } = await openViewer(url, { width: 1366, height: 768 }, null);
    const calls: string[] = [];
    page.on('request', (r) => {
      const p = new URL(r.url()).pathname;
      if (p.startsWith('/api/')) calls.push(p);
    });
    await settled(page, 6);
    expect(await page.locator('.wg-screen-chart[data-status="ready"]').count()).toBe(6);
    expect(await context.storageState().then((s) => s.origins.flatMap((o) => o.localStorage.map((x) => x.name)))).not.toContain('token');
    await page.reload();
    await settled(page, 6);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((p) => p.startsWith('/api/open/'))).toBe(true);

    const tampered = url.replace(/signature=([0-9a-f])/, (_m, c: string) => `signature=${c === '0' ? '1' : '0'}`);
    const bad = await openViewer(tampered, undefined, null);
    await bad.page.getByText('分享链接无效', { exact: true }).waitFor();

    expect((await admin.post('/api/screen/renewKey', { id: 50 })).status).toBe(200);
    const revoked = await openViewer(url, undefined, null);
    await revoked.page.getByText('分享链接已被撤销', { exact: true }).waitFor();
  });
});
