import type { Browser, Locator, Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { VIEW_SEEDS } from '../../server/seed/lowcode-definitions.js';
import type { MenuRoute } from '../../src/shared/menu-route.js';
import { sidebarItems, visiblePages } from '../../src/shell/sidebar-items.js';
import { openPage, withAppAndBrowser } from '../helpers/browser.js';
import { headers, loginThroughPage, rows, sidebar } from '../helpers/engine-page.js';
import type { ApiClient, TestServer } from '../helpers/server.js';

// The tour: every demo account signs in through the login page and opens every page of its sidebar. On
// each low-code list every row of the first page must be readable by the account, and each row action
// that only shows something (查看 and 编辑 dialogs, dialog views, pages such as 物流详情) is opened once
// per view on the first row offering it, then closed without saving; other tables' 查看/编辑 likewise.
// No step may end on /401 or /404, get a 403 (or any error answer) from /api, show an error panel or
// toast, log a console error, or show a bare id where a list shows the label of a referenced record.
// Problems are collected per account, each with the menu, the action and the failing call, and reported
// together. TOUR_DEBUG=1 logs every step with its time.

const ACCOUNTS = ['admin', 'supervisor', 'producer', 'disposer', 'logistics', 'collector'] as const;

/** How long one step may take to settle before it is reported as hanging. */
const SETTLE_MS = 15_000;

let server: TestServer;
let browser: Browser;
withAppAndBrowser((s, b) => {
  [server, browser] = [s, b];
});

type Kind = 'dialog' | 'navigate' | 'skip';

/**
 * What a low-code row action does, by view and label: the built-in 查看/编辑 and custom `dialog` buttons
 * open a dialog, `view` and `system` buttons go to a page; 删除, scripts, submits and external links act
 * or leave the app, so the tour does not press them.
 */
const ROW_ACTIONS = new Map<string, Kind>();
/** The list headers, per view, of the columns that show a referenced record's or a dictionary's label. */
const LABEL_HEADERS = new Map<number, string[]>();
for (const v of VIEW_SEEDS) {
  ROW_ACTIONS.set(`${v.id}:查看`, 'dialog');
  ROW_ACTIONS.set(`${v.id}:编辑`, 'dialog');
  ROW_ACTIONS.set(`${v.id}:删除`, 'skip');
  const buttons = (v.template.btnDIYOption ?? []) as { chName: string; configure: { action?: string; position?: string } }[];
  for (const b of buttons) {
    if (b.configure.position !== 'opt') continue;
    const action = b.configure.action;
    ROW_ACTIONS.set(`${v.id}:${b.chName}`, action === 'dialog' ? 'dialog' : action === 'view' || action === 'system' ? 'navigate' : 'skip');
  }
  LABEL_HEADERS.set(
    v.id,
    v.specs
      .filter((s) => s.table !== false)
      .filter((s) => {
        const conf = { ...s.common, ...(s.table || {}) };
        return Boolean(conf.sportData && conf.sportData !== 'false') || Boolean(conf.dict);
      })
      .map((s) => s.chName),
  );
}

/** Row actions of the other (non-engine) tables that only open something. */
const SAFE_TABLE_ACTIONS = new Set(['查看', '编辑', '详情']);

/** A cell showing an id instead of a label: digits, or a comma list of them. */
const BARE_ID = /^\d+(,\d+)*$/;

interface Tour {
  account: string;
  page: Page;
  /** Where the tour is: account › menu › action, named in every problem. */
  step: string;
  problems: string[];
  /** Problem reports still reading an answer's body. */
  pending: Promise<void>[];
  /** Calls to /api under way, as the browser reports them: named when a step does not settle. */
  inflight: Set<Request>;
  skipped: Set<string>;
  /** Views whose row actions this account has tried (a view shown again, in tabs or another menu, is not). */
  walkedViews: Set<number>;
  /** The account's own session for calls made beside the page. */
  api: ApiClient;
}

/** The tour moves on to `where` (TOUR_DEBUG=1 logs each step with its time). */
function enter(tour: Tour, where: string): void {
  tour.step = `${tour.account} › ${where}`;
  if (process.env.TOUR_DEBUG) console.log(`[tour] ${new Date().toISOString()} ${tour.step}`);
}

function report(tour: Tour, problem: string): void {
  const line = `${tour.step}: ${problem}`;
  if (tour.problems.includes(line)) return;
  tour.problems.push(line);
  console.error(`[tour] ${line}`);
}

/** Waits for a condition of the page; false (and no throw) when it does not come about in time. */
async function until(check: () => Promise<boolean> | boolean, timeout = SETTLE_MS): Promise<boolean> {
  try {
    await expect.poll(check, { timeout }).toBe(true);
    return true;
  } catch {
    return false;
  }
}

/** The top element of the page area's one shown page. */
const shownPage = (page: Page) => page.locator('.wg-content > .wg-page:not([hidden])');
const openDialogs = (page: Page) => page.locator('.ant-modal-wrap:visible [role="dialog"]');

/**
 * Waits until the page has no call under way (counted in the page, around fetch) and nothing shown is
 * loading: no spinner, no list waiting for its answer.
 */
async function settle(tour: Tour): Promise<void> {
  const { page } = tour;
  const quiet = await page
    .waitForFunction(
      () =>
        (window as unknown as { __tourInflight: number }).__tourInflight === 0 &&
        ![...document.querySelectorAll('.ant-spin-spinning, .engine-list-page[data-loading="true"]')].some((e) => e.checkVisibility()),
      undefined,
      { timeout: SETTLE_MS, polling: 'raf' },
    )
    .then(
      () => true,
      () => false,
    );
  if (!quiet) {
    const calls = [...tour.inflight].map((r) => `${r.method()} ${new URL(r.url()).pathname}`);
    report(tour, `did not settle within ${SETTLE_MS} ms${calls.length ? ` (waiting for ${calls.join(', ')})` : ' (a spinner stays)'}`);
  }
}

/** Error panels, error alerts and error toasts on screen, and the error pages. */
async function checkScreen(tour: Tour): Promise<void> {
  const { page } = tour;
  const path = new URL(page.url()).pathname;
  if (path === '/401' || path === '/404') report(tour, `ended on the error page ${path}`);
  const panels = page.locator(
    '.ant-result-error:visible, .ant-result-warning:visible, .ant-result-403:visible, .ant-result-404:visible, .ant-result-500:visible, .ant-alert-error:visible',
  );
  for (const text of await panels.allInnerTexts()) report(tour, `error panel: ${text.replace(/\s+/g, ' ').trim()}`);
  const toasts = await page.evaluate(() => {
    const w = window as unknown as { __tourToasts?: string[] };
    return (w.__tourToasts ?? []).splice(0);
  });
  for (const t of toasts) report(tour, `error toast: ${t}`);
}

/**
 * Cells of the label columns of the lists in `scope` that show a bare id instead of a label, or the
 * list's placeholder for a referenced record it found no label for.
 */
async function missingLabels(scope: Locator): Promise<string[]> {
  const out: string[] = [];
  for (const list of await scope.locator('.engine-list-page:visible').all()) {
    const viewId = Number(await list.getAttribute('data-view-id'));
    const shown = await headers(list);
    const keys = await rows(list).evaluateAll((els) => els.map((e) => e.getAttribute('data-row-key') ?? ''));
    for (const title of LABEL_HEADERS.get(viewId) ?? []) {
      const index = shown.indexOf(title);
      if (index < 0) continue;
      const cells = await rows(list)
        .locator(`[role=cell]:nth-child(${index + 1})`)
        .evaluateAll((els) =>
          els.map((e) => ({ text: (e as HTMLElement).innerText.trim(), placeholder: !!e.querySelector('.engine-cell-unresolved') })),
        );
      for (const [i, cell] of cells.entries()) {
        const where = `view ${viewId} row ${i + 1} (id ${keys[i]}) 「${title}」`;
        if (BARE_ID.test(cell.text)) out.push(`bare id instead of a label: ${where} shows ${cell.text}`);
        else if (cell.placeholder) out.push(`no label found for a referenced record: ${where} shows ${cell.text}`);
      }
    }
  }
  return out;
}

/** Every label column of the lists in `scope` shows labels once the options are in. */
async function checkLabels(tour: Tour, scope: Locator): Promise<void> {
  let found: string[] = [];
  const clean = await until(async () => {
    found = await missingLabels(scope);
    return found.length === 0;
  }, 3_000);
  if (!clean) for (const f of found) report(tour, f);
}

/** The labels of a row's actions, 更多's included. */
async function rowActionLabels(page: Page, row: Locator): Promise<string[]> {
  const labels = (await row.locator('.engine-row-action:not([aria-haspopup])').allInnerTexts()).map((t) => t.trim());
  const more = row.locator('.engine-row-action[aria-haspopup]');
  if (await more.count()) {
    await more.click();
    const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu');
    await menu.waitFor();
    labels.push(...(await menu.locator('.ant-dropdown-menu-item').allInnerTexts()).map((t) => t.trim()));
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
  }
  return labels;
}

async function pressRowAction(page: Page, row: Locator, label: string): Promise<void> {
  const inline = row.locator('.engine-row-action:not([aria-haspopup])', { hasText: label });
  if (await inline.count()) {
    await inline.first().click();
    return;
  }
  await row.locator('.engine-row-action[aria-haspopup]').click();
  await page.locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item', { hasText: label }).first().click();
}

/** Closes the top dialog by its close button, if it has not closed itself (a failed load closes it). */
async function closeDialog(tour: Tour, before: number): Promise<void> {
  const { page } = tour;
  const dialogs = openDialogs(page);
  if ((await dialogs.count()) > before) await dialogs.last().locator('.ant-modal-close').click();
  if (!(await until(async () => (await dialogs.count()) <= before))) report(tour, 'the dialog did not close');
}

/** A confirm (转处置单 asks first) is answered yes: what follows only opens a page. */
async function confirmIfAsked(tour: Tour): Promise<void> {
  const confirm = tour.page.locator('.ant-modal-confirm:visible');
  if (await confirm.count()) await confirm.locator('.ant-btn-primary').click();
}

/** Opens what a row action opens, checks it, and closes it again (a dialog) or goes back (a page). */
async function runRowAction(tour: Tour, list: Locator, viewId: number, rowIndex: number, label: string, kind: Kind): Promise<void> {
  const { page } = tour;
  const from = page.url();
  const dialogsBefore = await openDialogs(page).count();
  const row = rows(list).nth(rowIndex);
  await pressRowAction(page, row, label);
  if (kind === 'dialog') {
    await until(
      async () => (await openDialogs(page).count()) > dialogsBefore || (await page.locator('.ant-modal-confirm:visible').count()) > 0,
    );
    await confirmIfAsked(tour);
    await settle(tour);
    await checkScreen(tour);
    await checkLabels(tour, openDialogs(page).last());
    await closeDialog(tour, dialogsBefore);
    return;
  }
  await until(async () => page.url() !== from || (await page.locator('.ant-modal-confirm:visible').count()) > 0);
  await confirmIfAsked(tour);
  if (!(await until(() => page.url() !== from))) {
    report(tour, 'did not open a page');
    return;
  }
  await settle(tour);
  await checkScreen(tour);
  await checkLabels(tour, shownPage(page));
  await page.goBack();
  if (!(await until(() => page.url() === from))) report(tour, `did not come back to ${from}`);
  await settle(tour);
  // The list is drawn again when its page is not kept: wait for its rows before the next action.
  await until(async () => (await rows(shownPage(page).locator(`.engine-list-page[data-view-id="${viewId}"]:visible`)).count()) > rowIndex);
}

/**
 * On each low-code list shown: every row of the first page can be read (its detail answers the account),
 * and each row action that only shows something is opened once per view and account, on the first row
 * that offers it.
 */
async function walkLists(tour: Tour, where: string): Promise<void> {
  const { page } = tour;
  const scope = shownPage(page);
  await checkLabels(tour, scope);
  const lists = scope.locator('.engine-list-page:visible');
  const listCount = await lists.count();
  for (let l = 0; l < listCount; l++) {
    const list = lists.nth(l);
    const viewId = Number(await list.getAttribute('data-view-id'));
    await checkDetails(tour, where, viewId, await rows(list).evaluateAll((els) => els.map((e) => e.getAttribute('data-row-key') ?? '')));
    if (tour.walkedViews.has(viewId)) continue;
    tour.walkedViews.add(viewId);
    const wanted = new Set(
      [...ROW_ACTIONS]
        .filter(([key, kind]) => key.startsWith(`${viewId}:`) && kind !== 'skip')
        .map(([key]) => key.slice(`${viewId}:`.length)),
    );
    const rowCount = await rows(list).count();
    for (let r = 0; r < rowCount && wanted.size > 0; r++) {
      for (const label of await rowActionLabels(page, rows(list).nth(r))) {
        const kind = ROW_ACTIONS.get(`${viewId}:${label}`);
        if (kind === undefined) tour.skipped.add(`view ${viewId} 「${label}」 (unknown action)`);
        if (kind === undefined || kind === 'skip' || !wanted.delete(label)) continue;
        enter(tour, `${where} › row ${r + 1} ${label}`);
        await runRowAction(tour, list, viewId, r, label, kind);
      }
    }
  }
}

/** Every row a list shows can be read by the account that sees it (the call 查看 and detail pages make). */
async function checkDetails(tour: Tour, where: string, viewId: number, ids: string[]): Promise<void> {
  const results = await Promise.all(ids.map((id) => tour.api.get('/api/general/detail', { generalId: viewId, id })));
  results.forEach((r, i) => {
    if (r.status !== 200)
      report(
        tour,
        `row id ${ids[i]} is listed but GET /api/general/detail?generalId=${viewId}&id=${ids[i]} answers ${r.status} ${JSON.stringify(r.body).slice(0, 120)} (${where})`,
      );
  });
}

/** The other tables' row buttons that only open a dialog or a drawer (编辑 opens, 取消 closes). */
async function walkTables(tour: Tour, where: string): Promise<void> {
  const { page } = tour;
  const tableRows = shownPage(page).locator('.ant-table-tbody > tr.ant-table-row:visible');
  const count = await tableRows.count();
  const done = new Set<string>();
  for (let r = 0; r < count && done.size < SAFE_TABLE_ACTIONS.size; r++) {
    const buttons = tableRows.nth(r).locator('button:visible');
    const labels = (await buttons.allInnerTexts()).map((t) => t.replace(/\s+/g, ''));
    for (const label of labels) {
      if (!SAFE_TABLE_ACTIONS.has(label) || done.has(label)) continue;
      done.add(label);
      enter(tour, `${where} › row ${r + 1} ${label}`);
      const from = page.url();
      const before = await openDialogs(page).count();
      const drawersBefore = await page.locator('.ant-drawer-open').count();
      await tableRows
        .nth(r)
        .getByRole('button', { name: new RegExp(`^${[...label].join('\\s*')}$`) })
        .first()
        .click();
      await until(
        async () =>
          page.url() !== from ||
          (await openDialogs(page).count()) > before ||
          (await page.locator('.ant-drawer-open').count()) > drawersBefore,
      );
      await settle(tour);
      await checkScreen(tour);
      if (page.url() !== from) {
        await page.goBack();
        await until(() => page.url() === from);
        await settle(tour);
      } else if ((await page.locator('.ant-drawer-open').count()) > drawersBefore) {
        await page.locator('.ant-drawer-open .ant-drawer-close').last().click();
        await until(async () => (await page.locator('.ant-drawer-open').count()) <= drawersBefore);
      } else {
        await closeDialog(tour, before);
      }
    }
  }
}

/** Opens a sidebar page (expanding its directories) and checks it, its tabs, lists and row actions. */
async function visit(tour: Tour, entry: { path: string; trail: string[] }): Promise<void> {
  const { page } = tour;
  const where = entry.trail.join(' › ');
  enter(tour, where);
  const nav = sidebar(page);
  const item = nav.locator(`li.ant-menu-item[data-menu-id$="-${entry.path}"]`);
  for (const directory of entry.trail.slice(0, -1)) {
    if (await item.isVisible()) break;
    await nav.locator('.ant-menu-submenu-title', { hasText: directory }).first().click();
  }
  await item.click();
  if (!(await until(() => new URL(page.url()).pathname === entry.path))) {
    report(tour, `the menu led to ${new URL(page.url()).pathname} instead of ${entry.path}`);
    await checkScreen(tour);
    return;
  }
  const title = entry.trail[entry.trail.length - 1] ?? '';
  const crumbs = page.locator('.wg-breadcrumb');
  if (!(await until(async () => (await crumbs.innerText()).replace(/\s+/g, '').includes(title))))
    report(tour, `the breadcrumb does not name ${title}: ${await crumbs.innerText()}`);
  await settle(tour);
  await checkScreen(tour);
  const tabs = shownPage(page).locator('.ant-tabs-tab');
  const tabCount = await tabs.count();
  if (tabCount === 0) {
    await walkLists(tour, where);
    await walkTables(tour, where);
    return;
  }
  for (let t = 0; t < tabCount; t++) {
    const title = (await tabs.nth(t).innerText()).trim();
    enter(tour, `${where} › tab ${title}`);
    await tabs.nth(t).click();
    await settle(tour);
    await checkScreen(tour);
    await walkLists(tour, `${where} › ${title}`);
  }
}

describe('the tour of every menu', () => {
  for (const account of ACCOUNTS) {
    it(`${account}: every page and row action opens without a refusal, an error or a bare id`, { timeout: 240_000 }, async () => {
      const { page, errors } = await openPage(browser, server.url);
      page.setDefaultTimeout(10_000);
      const tour: Tour = {
        account,
        page,
        step: `${account} › 登录`,
        problems: [],
        pending: [],
        inflight: new Set(),
        skipped: new Set(),
        walkedViews: new Set(),
        api: await server.login(account),
      };
      await page.addInitScript(() => {
        const w = window as unknown as { __tourToasts: string[]; __tourInflight: number };
        // Calls under way, counted where they start, so that a wait cannot miss one just begun.
        w.__tourInflight = 0;
        const fetch = window.fetch;
        window.fetch = function (this: unknown, ...args: Parameters<typeof fetch>) {
          w.__tourInflight++;
          const answer = fetch.apply(this, args);
          const done = () => {
            w.__tourInflight--;
          };
          answer.then(done, done);
          return answer;
        };
        // Error toasts are gone within seconds: record each as it appears.
        w.__tourToasts = [];
        new MutationObserver((records) => {
          for (const r of records)
            for (const n of r.addedNodes) {
              if (!(n instanceof HTMLElement)) continue;
              const hits = n.matches('.ant-message-error, .ant-notification-notice-error')
                ? [n]
                : [...n.querySelectorAll<HTMLElement>('.ant-message-error, .ant-notification-notice-error')];
              for (const h of hits) w.__tourToasts.push((h.textContent ?? '').trim());
            }
        }).observe(document, { childList: true, subtree: true });
      });
      page.on('request', (r) => {
        if (new URL(r.url()).pathname.startsWith('/api/')) tour.inflight.add(r);
      });
      page.on('requestfinished', (r) => tour.inflight.delete(r));
      page.on('requestfailed', (r) => tour.inflight.delete(r));
      page.on('response', (r) => {
        const url = new URL(r.url());
        if (url.origin !== new URL(server.url).origin || r.status() < 400) return;
        const step = tour.step;
        tour.pending.push(
          (async () => {
            const body = (await r.text().catch(() => '')).replace(/\s+/g, ' ').slice(0, 160);
            const line = `${step}: ${r.status()} ${r.request().method()} ${url.pathname}${url.search}${body ? ` → ${body}` : ''}`;
            if (!tour.problems.includes(line)) tour.problems.push(line);
            console.error(`[tour] ${line}`);
          })(),
        );
      });
      page.on('console', (m) => {
        // A failed call is reported with its answer by the response listener.
        if (m.type() === 'error' && !m.text().startsWith('Failed to load resource'))
          report(tour, `console error: ${m.text().slice(0, 300)}`);
      });
      page.on('framenavigated', (f) => {
        if (f !== page.mainFrame()) return;
        const path = new URL(f.url()).pathname;
        if (path === '/401' || path === '/404') report(tour, `navigated to the error page ${path}`);
      });

      const log = (what: string) => process.env.TOUR_DEBUG && console.log(`[tour] ${new Date().toISOString()} ${account} ${what}`);
      log('login');
      await loginThroughPage(page, account);
      log('logged in');
      await settle(tour);
      await checkScreen(tour);
      log('settled');
      const menus = (await tour.api.get<MenuRoute[]>('/api/menus/build')).body;
      const pages = visiblePages(sidebarItems(menus)).filter((p) => !/^https?:/.test(p.path));
      expect(pages.length).toBeGreaterThan(0);
      for (const entry of pages) await visit(tour, entry);

      log('walked');
      await Promise.all(tour.pending);
      for (const e of errors) tour.problems.push(`${account}: uncaught exception: ${e}`);
      if (tour.skipped.size) console.log(`[tour] ${account}: not pressed: ${[...tour.skipped].join('; ')}`);
      expect(tour.problems).toEqual([]);
    });
  }
});
