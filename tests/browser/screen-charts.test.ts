import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startAppServer } from '../helpers/browser.js';
import type { ApiClient, TestServer } from '../helpers/server.js';

/**
 * Every chart kind read at a 1920×1080 screen and on a 32:9 wall (3840×1080): each draws inside its
 * own box, and the pie's labels are read whole, never cut to "H…", even in a narrow container.
 * Drawn with the SVG renderer, whose texts and shapes the page can measure.
 */

let server: TestServer;
let browser: Browser;
let admin: ApiClient;
let longNames: number;

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchBrowser()]);
  admin = await server.login('admin');
  const res = await admin.post('/api/data/add', {
    name: '长名称饼图',
    sql: "select 'Hazardous waste' as name, 120 as value union all select '医疗废物焚烧残渣', 80 union all select 'Waste oil', 40",
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  longNames = res.body.id as number;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const common = { colorModel: 'gradient', privateColorFirst: false, themeColor: [] };

/** Every kind, on the seeded data views, in a 4 × 2 grid; the ninth, a pie of long names in a narrow container. */
const kinds = (): { kind: string; settings?: Record<string, unknown> }[] => [
  { kind: 'lineBar', settings: { dataViewId: 7, xAxisData: '月份', yAxisData_bar: '处置量', yAxisData_line: '订单数' } },
  { kind: 'pie', settings: { dataViewId: 2, seriesDataName: 'name', seriesDataValue: 'value', label: { unit: '吨' } } },
  { kind: 'scrollList', settings: { dataViewId: 8, interval: 1000 } },
  { kind: 'cityTransaction', settings: { dataViewId: 4 } },
  { kind: 'siteInfo', settings: { dataViewId: 9 } },
  { kind: 'provinceInfo', settings: { dataViewId: 9 } },
  { kind: 'companyData', settings: { dataViewId: 9 } },
  { kind: 'radar' },
  { kind: 'pie', settings: { dataViewId: longNames, seriesDataName: 'name', seriesDataValue: 'value' } },
];

function templateOf(width: number) {
  const list = kinds();
  return {
    canvasConfigure: { basic: { width, height: 1080, autoUpdate: false }, mainTitle: { content: `图表 ${width}×1080` } },
    layout: list.map((c, i) => ({
      i: `c${i}`,
      // Eight of 5 columns in two rows; the last 4 columns wide at the right.
      x: i < 8 ? (i % 4) * 5 : 20,
      y: i < 8 ? Math.floor(i / 4) * 18 : 0,
      w: i < 8 ? 5 : 4,
      h: 18,
      container: { header: { showTitle: true, content: c.kind } },
      chart: [{ fileName: c.kind, chartIndex: 0, flexSize: 1, configure: { common, private: c.settings ?? {} } }],
    })),
  };
}

async function designScreen(name: string, template: Record<string, unknown>): Promise<number> {
  const add = await admin.post('/api/screen/add', { name, type: 2, status: 1, disMenu: { name } });
  expect(add.status, JSON.stringify(add.body)).toBe(200);
  const id = add.body.id as number;
  const design = await admin.post('/api/screen/design', { id, disTemplate: JSON.stringify(template) });
  expect(design.status, JSON.stringify(design.body)).toBe(200);
  return id;
}

interface Outside {
  chart: string;
  what: string;
}

/** What each chart draws that lies outside its own box (to within a pixel), and the boxes that leave the canvas. */
function outsideOfBoxes(page: Page): Promise<Outside[]> {
  return page.evaluate(() => {
    const out: { chart: string; what: string }[] = [];
    const canvas = document.querySelector('.wg-screen-canvas')?.getBoundingClientRect();
    const inside = (r: DOMRect, b: DOMRect) =>
      r.left >= b.left - 1 && r.top >= b.top - 1 && r.right <= b.right + 1 && r.bottom <= b.bottom + 1;
    for (const chart of document.querySelectorAll<HTMLElement>('.wg-screen-chart')) {
      const name = chart.getAttribute('data-chart') ?? '';
      const box = chart.getBoundingClientRect();
      if (box.width < 20 || box.height < 20) out.push({ chart: name, what: `box ${box.width}×${box.height}` });
      if (canvas && !inside(box, canvas)) out.push({ chart: name, what: 'box leaves the canvas' });
      // Texts and shapes of the SVG charts; rows and figures of the HTML ones (a scrolling list's rows scroll by design).
      const marks = chart.querySelector('svg')
        ? chart.querySelectorAll<SVGGraphicsElement>('svg text, svg path')
        : chart.querySelectorAll<HTMLElement>('.wg-screen-figure, .wg-screen-table-head');
      for (const mark of marks) {
        const r = mark.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        if (!inside(r, box)) out.push({ chart: name, what: `${mark.tagName} ${mark.textContent ?? ''}`.trim() });
      }
    }
    return out;
  });
}

describe('charts at 1920×1080 and on a 32:9 wall', () => {
  for (const size of [
    { width: 1920, viewport: { width: 1920, height: 1080 } },
    { width: 3840, viewport: { width: 1920, height: 540 } },
  ]) {
    it(`draws every kind inside its box on a ${size.width}×1080 canvas, pie labels whole`, async () => {
      const id = await designScreen(`图表 ${size.width}`, templateOf(size.width));
      const { page, errors } = await openPage(browser, server.url, { token: admin.token, viewport: size.viewport });
      page.setDefaultTimeout(15_000);
      await page.goto(`/lsPreview?lsId=${id}&renderer=svg`);
      const count = kinds().length;
      await page.waitForFunction(
        (n) => {
          const all = [...document.querySelectorAll('.wg-screen-chart')];
          return all.length === n && all.every((c) => c.getAttribute('data-status') === 'ready');
        },
        count,
        { polling: 50 },
      );
      // The SVG charts have drawn their texts; the HTML ones their rows and figures.
      await page.waitForFunction(
        () =>
          ['lineBar', 'pie', 'radar'].every((k) =>
            [...document.querySelectorAll(`[data-chart-kind="${k}"]`)].every((c) => c.querySelectorAll('svg text').length > 2),
          ),
        undefined,
        { polling: 100 },
      );
      await page.locator('[data-chart-kind="cityTransaction"] .wg-screen-table-row').first().waitFor();
      await page.locator('[data-chart-kind="siteInfo"] .wg-screen-figure').first().waitFor();
      // Pie labels settle after their layout pass: poll until every label is read whole.
      const labels = () =>
        page
          .locator('[data-chart="c8/0"] svg text')
          .evaluateAll((els) => els.map((e) => e.textContent ?? '').join('|'))
          .then((t) => t);
      await expect.poll(labels).toMatch(/Hazardous/);
      const text = await labels();
      expect(text, 'no label cut short').not.toMatch(/…/);
      for (const name of ['Hazardous', 'waste', 'Waste oil']) expect(text).toContain(name);
      expect(text.replace(/\|/g, '')).toContain('医疗废物焚烧残渣');
      expect(await page.locator('[data-chart="c1/0"] svg text').evaluateAll((els) => els.some((e) => /…/.test(e.textContent ?? '')))).toBe(
        false,
      );
      expect(await outsideOfBoxes(page)).toEqual([]);
      expect(errors).toEqual([]);
    });
  }
});
