import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREEN_PAGE_COMPONENT, VIEW_PAGE_COMPONENT } from '../../src/model/index.js';
import type { MenuRoute } from '../../src/shared/menu-route.js';
import { joinPath } from '../../src/shell/menu-routes.js';
import { launchBrowser, openPage, startAppServer } from '../helpers/browser.js';
import type { ApiClient, TestServer } from '../helpers/server.js';

// A working day in the back office at 1366×768, the smallest common office screen: every demo account
// opens every list its sidebar leads to (the low-code views, the screens made of them and the
// hand-written lists), and each list must be readable as it opens, before any sideways scroll:
// - a key column (the first data column, which holds the record's number or name; any 状态 column; a
//   quantity: 数量, 重量) is neither under the fixed 操作 column nor past the table's right edge, and its
//   text is whole;
// - text cut short (wider than its box) carries its whole text as a tooltip, and no text runs into
//   the next cell;
// - a tag stays inside its cell.
let server: TestServer;
let browser: Browser;

const VIEWPORT = { width: 1366, height: 768 };
const ACCOUNTS = ['admin', 'supervisor', 'producer', 'disposer', 'logistics', 'collector'] as const;

/** The hand-written pages that are lists (antd tables). */
const HAND_LISTS = new Set([
  'system/user/index',
  'system/role/index',
  'system/menu/index',
  'system/dept/index',
  'system/dict/index',
  'system/companyApply/index',
  'dev-tools/generation',
  'dev-tools/screen',
  'dev-tools/dataView',
  'supervision/company/index',
  'message/systemMessage',
  'message/leaveMessage',
]);

interface SidebarPage {
  path: string;
  title: string;
  component: string;
}

/** The pages the sidebar shows (its rules: hidden routes left out, paths joined), with their components. */
function sidebarPages(menus: readonly MenuRoute[], parent = '/'): SidebarPage[] {
  return menus.flatMap((m) => {
    if (m.hidden) return [];
    const path = joinPath(parent, m.path);
    return m.children?.length ? sidebarPages(m.children, path) : [{ path, title: m.meta.title, component: m.component }];
  });
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function signedIn(user: string): Promise<{ page: Page; api: ApiClient }> {
  const api = await server.login(user);
  const { page } = await openPage(browser, server.url, { token: api.token, viewport: VIEWPORT });
  page.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() >= 500) console.error(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  return { page, api };
}

async function menusOf(api: ApiClient): Promise<SidebarPage[]> {
  const r = await api.get<MenuRoute[]>('/api/menus/build');
  expect(r.status).toBe(200);
  return sidebarPages(r.body);
}

/**
 * Goes to a page of the app as a sidebar click does (the router follows the address; no reload), and
 * resolves with the element of the page's lists once each has its first answer drawn; null when the
 * page (a screen) holds no list. The previous page's tables are marked, so they are not taken for the new page's.
 */
async function openList(page: Page, p: SidebarPage): Promise<Locator | null> {
  await page.evaluate(() => {
    for (const t of document.querySelectorAll('.ant-table, .engine-list-page')) t.setAttribute('data-left', '');
  });
  await page.evaluate((path) => {
    history.pushState(null, '', path);
    dispatchEvent(new PopStateEvent('popstate'));
  }, p.path);
  await page.waitForURL((u) => u.pathname === p.path);
  const id = p.path.split('/').at(-1);
  let list: Locator;
  if (p.component === VIEW_PAGE_COMPONENT) list = page.locator(`.engine-list-page[data-view-id="${id}"]:visible`).first();
  else if (p.component === SCREEN_PAGE_COMPONENT) {
    await page.locator(`.engine-container-page[data-screen-id="${id}"], .wg-screen[data-screen="${id}"]`).first().waitFor();
    const container = page.locator(`.engine-container-page[data-screen-id="${id}"]`);
    if ((await container.count()) === 0) return null;
    list = container.locator('.engine-list-page:visible').first();
  } else {
    list = page.locator('.ant-table:not([data-left]):visible').first();
    await list.waitFor();
    await list.locator('.ant-table-row, .ant-table-placeholder').first().waitFor();
    await expect.poll(() => page.locator('.ant-table-wrapper .ant-spin-spinning:visible').count()).toBe(0);
    return list;
  }
  await list.waitFor();
  await list.locator('.engine-row, .engine-empty:not([hidden])').first().waitFor();
  await expect.poll(() => list.getAttribute('data-loading')).toBe('false');
  return list;
}

/**
 * What is wrong with the lists on the page as drawn, one line each. Runs in the page: it compares the
 * boxes of the header and of every row in view with the fixed 操作 column's and the table's edge, and
 * each cell's content with its box.
 */
function inspectLists(): string[] {
  // One line per column and problem, with the rows it was seen on.
  const found = new Map<string, string[]>();
  const px = 0.5;
  const isKey = (title: string, first: boolean) => first || /状态$/.test(title) || /数量|重量/.test(title);
  const tables: { scroller: Element; head: Element[]; rows: Element[][] }[] = [];
  for (const scroller of document.querySelectorAll('.engine-table-scroll')) {
    const cells = (row: Element) => [...row.children].filter((c) => c.matches('[role=cell], [role=columnheader]'));
    const head = scroller.querySelector('.engine-head-row');
    if (!head) continue;
    tables.push({ scroller, head: cells(head), rows: [...scroller.querySelectorAll('.engine-body > .engine-row')].map(cells) });
  }
  for (const table of document.querySelectorAll('.ant-table')) {
    if ((table as HTMLElement).closest('.engine-list-page, .ant-modal, .ant-drawer')) continue;
    const scroller = table.querySelector('.ant-table-body') ?? table.querySelector('.ant-table-content') ?? table;
    const headRow = [...table.querySelectorAll('thead > tr')].at(-1);
    if (!headRow) continue;
    tables.push({
      scroller,
      head: [...headRow.children],
      rows: [...table.querySelectorAll('tbody > tr.ant-table-row')].map((r) => [...r.children]),
    });
  }
  for (const { scroller, head, rows } of tables) {
    if (!(scroller as HTMLElement).offsetParent && scroller.getClientRects().length === 0) continue;
    const box = scroller.getBoundingClientRect();
    const right = box.left + scroller.clientWidth;
    const titles = head.map((h) => (h as HTMLElement).innerText.trim());
    const isData = (i: number) => {
      const h = head[i] as HTMLElement;
      return !!titles[i] && titles[i] !== '序号' && titles[i] !== '操作' && !h.querySelector('input[type=checkbox]');
    };
    const firstData = titles.findIndex((_, i) => isData(i));
    const sticky = head.findIndex((h) => {
      const s = getComputedStyle(h);
      return s.position === 'sticky' && s.right !== 'auto';
    });
    const add = (r: number, i: number, problem: string) => {
      const line = `「${titles[i] || '?'}」${problem}`;
      found.set(line, [...(found.get(line) ?? []), r < 0 ? '表头' : `第 ${r + 1} 行`]);
    };
    [head, ...rows].forEach((cells, ri) => {
      const r = ri - 1;
      const rowBox = cells[0]?.getBoundingClientRect();
      if (!rowBox || rowBox.bottom <= 0 || rowBox.top >= window.innerHeight || rowBox.height === 0) return;
      const fixed = sticky >= 0 ? cells[sticky]?.getBoundingClientRect() : undefined;
      cells.forEach((cell, i) => {
        const c = cell.getBoundingClientRect();
        if (c.width === 0) return;
        const key = isData(i) && isKey(titles[i] ?? '', i === firstData);
        if (key && fixed && i !== sticky && c.right > fixed.left + px && c.left < fixed.right - px) add(r, i, '被固定的操作列遮住');
        if (key && c.right > right + px) add(r, i, '超出表格右边，需横向滚动才能看到');
        for (const tag of cell.querySelectorAll('.engine-tag, .ant-tag')) {
          const t = tag.getBoundingClientRect();
          if (t.left < c.left - px || t.right > c.right + px) add(r, i, `的标签「${(tag as HTMLElement).innerText}」超出单元格`);
        }
        if (r < 0) return;
        for (const el of [cell, ...cell.querySelectorAll('*')] as HTMLElement[]) {
          if (el.scrollWidth <= el.clientWidth + 1 || el.clientWidth === 0) continue;
          if (el.matches('input, textarea, button, .ant-switch, svg, .anticon') || el.closest('button, .ant-switch, .ant-checkbox, input'))
            continue;
          const overflow = getComputedStyle(el).overflowX;
          const text = el.innerText.trim();
          if (!text) continue;
          if (overflow === 'visible') {
            add(r, i, `的文字「${text}」伸进了相邻单元格`);
            continue;
          }
          if (key) add(r, i, `的文字「${text}」被截断`);
          else if (!el.closest('[title], [data-tooltip]')) add(r, i, `的文字「${text}」被截断且没有提示`);
        }
      });
    });
  }
  return [...found].map(([line, rows]) => `${line}（${rows.join('、')}）`);
}

describe('a working day at 1366×768', () => {
  for (const user of ACCOUNTS) {
    it(`${user}: every list of the sidebar shows its key columns whole, and no tag or text spills`, async () => {
      const { page, api } = await signedIn(user);
      const lists = (await menusOf(api)).filter(
        (p) => p.component === VIEW_PAGE_COMPONENT || HAND_LISTS.has(p.component) || p.component === SCREEN_PAGE_COMPONENT,
      );
      expect(lists.length).toBeGreaterThan(0);
      const problems: string[] = [];
      let walked = 0;
      await page.goto('/');
      await page.locator('.wg-navbar').waitFor();
      for (const p of lists) {
        // A screen page is a list only when it is made of views.
        if (!(await openList(page, p))) continue;
        walked++;
        // Labels of related records arrive after the rows: the page is judged once they are drawn.
        const found = await expect
          .poll(() => page.evaluate(inspectLists), { timeout: 2_000 })
          .toEqual([])
          .then(() => [])
          .catch(async () => page.evaluate(inspectLists));
        if (found.length) console.error(`${user} › ${p.title}（${p.path}）\n  ${found.join('\n  ')}`);
        problems.push(...found.map((f) => `${p.title}（${p.path}）: ${f}`));
      }
      expect(walked).toBeGreaterThan(0);
      expect(problems).toEqual([]);
    }, 120_000);
  }

  it('a cut cell shows its whole text on hover, and 更多 opens the other row actions from the keyboard', async () => {
    const { page } = await signedIn('producer');
    await page.goto('/dev-tools/temp/page/stockIn/12');
    await page.locator('.engine-list-page[data-loading="false"] .engine-row').first().waitFor();
    const row = page.locator('.engine-list-table .engine-row').first();
    // The operation column holds 查看 and 更多, nothing else.
    const actions = row.locator('.engine-cell-operation .engine-row-action');
    expect((await actions.allInnerTexts()).map((t) => t.trim())).toEqual(['查看', '更多']);
    const more = row.locator('.engine-cell-operation [aria-haspopup]');
    await more.focus();
    await page.keyboard.press('Enter');
    const menu = page.locator('.ant-dropdown:visible [role=menu]');
    await menu.waitFor();
    await expect.poll(() => menu.locator('[role=menuitem]').allInnerTexts()).toEqual(expect.arrayContaining(['编辑', '删除']));
    // The menu takes the keyboard: the arrows move through its items, Escape closes it and gives the focus back.
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('[role=menu]'))).toBe(true);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('menuitem');
    const items = await menu.locator('[role=menuitem]').allInnerTexts();
    expect(items).toContain(await page.evaluate(() => (document.activeElement as HTMLElement).innerText.trim()));
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    await expect.poll(() => more.evaluate((el) => el === document.activeElement)).toBe(true);
    // Enter opens it again.
    await page.keyboard.press('Enter');
    await menu.waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });

    // A cell cut short by its column shows the whole text on hover.
    const cut: Locator = page.locator('.engine-row [data-tooltip]').filter({ hasText: /./ });
    const index = await cut.evaluateAll((els) => els.findIndex((e) => e.scrollWidth > e.clientWidth + 1));
    expect(index, 'a cell cut short on the stock-in list').toBeGreaterThanOrEqual(0);
    const target = cut.nth(index);
    const whole = (await target.innerText()).trim();
    await target.hover();
    await expect.poll(() => page.locator('.ant-tooltip:visible').innerText()).toBe(whole);
  }, 120_000);

  // A low-code list whose total is below what the account may read (the same list call without filters)
  // must show the filter that narrows it; a tile's figure must equal the total of the list it opens.
  it('a list is narrower than its unfiltered total only when it shows the filter that narrows it', async () => {
    const problems: string[] = [];
    for (const user of ACCOUNTS) {
      const { page, api } = await signedIn(user);
      await page.goto('/');
      await page.locator('.wg-navbar').waitFor();
      for (const p of (await menusOf(api)).filter((m) => m.component === VIEW_PAGE_COMPONENT)) {
        const list = (await openList(page, p)) as Locator;
        const viewId = Number(await list.getAttribute('data-view-id'));
        const shown = await shownTotal(list);
        const all = await api.get(`/api/general/list/${viewId}`, { page: 1, size: 1 });
        expect(all.status).toBe(200);
        const total = Number(all.body.totalElements);
        if (shown < total && !(await hasVisibleFilter(list)))
          problems.push(`${user} › ${p.title}: 显示 ${shown} 条，共有 ${total} 条，却没有可见的筛选`);
      }
    }
    expect(problems).toEqual([]);
  }, 150_000);

  it('each dashboard tile that opens a list counts what the list shows', async () => {
    const problems: string[] = [];
    for (const user of ACCOUNTS) {
      const { page } = await signedIn(user);
      await page.goto('/dashboard');
      await page.locator('.wg-dashboard').waitFor();
      await expect.poll(() => page.locator('[data-state="loading"]').count()).toBe(0);
      const labels = await page
        .locator('button.wg-dash-link-tile')
        .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
      for (const [i, label] of labels.entries()) {
        const figure = /^(\S+) ([\d,]+)(份|条|单|家|个|次|辆)?，/.exec(label);
        if (!figure) continue;
        const [, name, value = ''] = figure;
        await page.goto('/dashboard');
        await expect.poll(() => page.locator('[data-state="loading"]').count()).toBe(0);
        await page.locator('button.wg-dash-link-tile').nth(i).click();
        await page.waitForURL((u) => u.pathname !== '/dashboard');
        const list = page.locator('.engine-list-page[data-loading="false"], .ant-table-wrapper').first();
        await list.locator('.engine-row, .engine-empty:not([hidden]), .ant-table-row, .ant-table-placeholder').first().waitFor();
        await expect.poll(() => page.locator('.ant-spin-spinning:visible').count()).toBe(0);
        const shown = await shownTotal(list);
        if (shown !== Number(value.replaceAll(',', ''))) problems.push(`${user} › ${name} ${value}: 打开的列表共 ${shown} 条`);
      }
    }
    expect(problems).toEqual([]);
  }, 150_000);
});

/** The total a list's pager shows (共 N 条), 0 when the list is empty and shows no pager. */
async function shownTotal(scope: Locator): Promise<number> {
  const pager = scope.locator('.ant-pagination-total-text').first();
  if ((await pager.count()) === 0 || !(await pager.isVisible())) return 0;
  // 共 n 条, or the list's own unit (共 n 家 of companies).
  return Number(/共\s*(\d+)\s*(条|家|份|单|个|次|辆)/.exec(await pager.innerText())?.[1] ?? Number.NaN);
}

/** Whether the list's search bar shows a value that filters it (a typed text, a chosen option, a date). */
async function hasVisibleFilter(list: Locator): Promise<boolean> {
  return list.evaluate((el) => {
    const inputs = [...el.querySelectorAll<HTMLInputElement>('input:not([type=checkbox]):not([type=radio])')].filter(
      (i) => !i.closest('.engine-list-table, .ant-pagination') && i.offsetParent !== null,
    );
    return inputs.some((i) => i.value.trim() !== '') || el.querySelector('.ant-select-selection-item') !== null;
  });
}
