import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startAppServer } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';

// The back-office frame against the real server: sessions are real tokens from the login calls,
// put into localStorage the way the login page leaves them.
let server: TestServer;
let browser: Browser;

const STOCK_IN = '/dev-tools/temp/page/stockIn/12';
const STOCK_OUT = '/dev-tools/temp/page/stockOut/13';
const WAREHOUSE = '/dev-tools/temp/page/warehouse/14';
const DISPOSAL_ORDER = '/dev-tools/temp/page/disposalOrder/19';
const WAREHOUSE_MENU_ID = 1014;

beforeAll(async () => {
  [server, browser] = await Promise.all([startAppServer(), launchBrowser()]);
  // guest sits in department 1, the one whose message badge is hidden.
  await server.ctx.db.updateTable('sys_user').set({ dept_id: 1 }).where('username', '=', 'guest').execute();
  // 企业仓库 is kept alive by the tag bar (menu cache on); the other seeded pages are noCache.
  await server.ctx.db.updateTable('sys_menu').set({ cache: true }).where('id', '=', WAREHOUSE_MENU_ID).execute();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * A fresh context signed in as `user` (a session of its own, so one test logging out or timing out
 * cannot end another's), opened at `path`.
 */
async function open(user: string | null, path: string, options: BrowserContextOptions = {}) {
  const token = user ? (await server.login(user)).token : null;
  const opened = await openPage(browser, server.url, { ...options, token });
  // A failed call is the first thing to know when a test here fails.
  opened.page.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() >= 400) console.error(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  await opened.page.goto(path);
  if (token) await opened.page.locator('.wg-navbar').waitFor();
  return opened;
}

const sidebar = (page: Page) => page.getByRole('navigation', { name: '侧边菜单' });

/** Opens a page from the sidebar (expanding its section) and waits until it is there. */
async function viaSidebar(page: Page, section: string, item: string, path: string): Promise<void> {
  const nav = sidebar(page);
  const entry = nav.getByText(item, { exact: true });
  if (!(await entry.isVisible())) await nav.getByText(section, { exact: true }).click();
  await entry.click();
  await page.waitForURL((u) => u.pathname === path);
}

const tagTitles = (page: Page) => page.locator('.wg-tags .wg-tag-title').allTextContents();
const tag = (page: Page, title: string) => page.locator('.wg-tags .wg-tag').filter({ has: page.getByText(title, { exact: true }) });

/** Right-clicks a tag; the menu, once it has settled where the pointer was. */
async function openTagMenu(page: Page, title: string) {
  const target = tag(page, title);
  const box = await target.boundingBox();
  if (!box) throw new Error(`tag ${title} is not on screen`);
  await target.click({ button: 'right' });
  const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)');
  await menu.waitFor();
  await expect.poll(() => menu.evaluate((el) => el.getAnimations({ subtree: true }).length)).toBe(0);
  // Aligned to the pointer: below the middle of the tag, not where it was first drawn.
  await expect.poll(async () => ((await menu.boundingBox())?.y ?? 0) >= box.y + box.height / 2 - 1).toBe(true);
  return menu;
}

async function contextMenu(page: Page, title: string, action: string): Promise<void> {
  await (await openTagMenu(page, title)).getByText(action, { exact: true }).click();
}

/** The page the user sees: the top element of the page area's one shown page. */
const shownPage = (page: Page) => page.locator('.wg-content > .wg-page:not([hidden]) > *');

/** Waits until the page shown has loaded (no spinner left in it) and is the only one shown. */
async function settled(page: Page): Promise<void> {
  await expect.poll(() => page.locator('.wg-content > .wg-page:not([hidden])').count()).toBe(1);
  await expect.poll(() => page.locator('.wg-content > .wg-page:not([hidden]) .ant-spin-spinning').count()).toBe(0);
  await expect.poll(() => shownPage(page).count()).toBe(1);
}

async function markShownPage(page: Page): Promise<void> {
  await settled(page);
  await shownPage(page).evaluate((el) => el.setAttribute('data-mark', 'kept'));
}

/** The mark of the page shown once `title`'s page is on screen (the breadcrumb renders with it; the URL changes earlier). */
async function shownPageMark(page: Page, title: string): Promise<string | null> {
  await expect.poll(async () => (await page.locator('.wg-breadcrumb li').last().innerText()).trim()).toBe(title);
  await settled(page);
  return shownPage(page).getAttribute('data-mark');
}

describe('navigation guard', () => {
  it('sends a visitor without a token to /login with the way back, query included', async () => {
    const { page } = await open(null, `${STOCK_IN}?from=test`);
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(`${STOCK_IN}?from=test`);
  });

  it('sends / and unknown paths to /abandonhome', async () => {
    const { page, errors } = await open('admin', '/');
    await page.waitForURL((u) => u.pathname === '/abandonhome');
    await page.getByText('欢迎，管理员').waitFor();
    await page.goto('/no/such/page');
    await page.waitForURL((u) => u.pathname === '/abandonhome');
    // A directory of the menu is not a page either.
    await page.goto('/waste');
    await page.waitForURL((u) => u.pathname === '/abandonhome');
    expect(errors).toEqual([]);
  });
});

describe('error pages', () => {
  it('/401 says the user has no permission and whom to ask, goes back, and links to /dashboard; /404 says the page is not open', async () => {
    const { page } = await open('admin', STOCK_IN);
    await page.goto('/401');
    await page.getByText('你没有权限去该页面').waitFor();
    await page.getByText('如需访问该页面，请联系您的上级或系统管理员开通相应权限。').waitFor();
    await page.getByRole('button', { name: /^返\s?回$/ }).click();
    await page.waitForURL((u) => u.pathname === STOCK_IN);
    await page.goto('/401');
    await page.getByRole('link', { name: '前往看板' }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard');

    await page.goto('/404');
    await page.getByText('抱歉，该页面不存在或暂不开放访问').waitFor();
    await page.getByText('请检查网址是否正确；如需访问，请联系系统管理员。').waitFor();
    await page.getByRole('link', { name: '返回首页' }).click();
    await page.waitForURL((u) => u.pathname === '/abandonhome');
  });
});

describe('sidebar, breadcrumb and top bar', () => {
  it('navigates from the sidebar and shows the trail in the breadcrumb, 首页 first', async () => {
    const { page, errors } = await open('admin', '/abandonhome');
    const crumbs = page.locator('.wg-breadcrumb');
    expect((await crumbs.innerText()).replace(/\s+/g, '')).toBe('首页');
    await viaSidebar(page, '危废管理', '危废入库', STOCK_IN);
    await expect.poll(async () => (await crumbs.innerText()).replace(/\s+/g, '')).toBe('首页/危废管理/危废入库');
    // The current page is marked in the sidebar.
    expect(await sidebar(page).locator('.ant-menu-item-selected').innerText()).toBe('危废入库');
    // The trail of the dashboard gets no 首页 in front; 首页 in the breadcrumb leads home.
    await viaSidebar(page, '', '企业看板', '/dashboard');
    await expect.poll(async () => (await crumbs.innerText()).replace(/\s+/g, '')).toBe('企业看板');
    // Only /abandonhome is 首页: the sidebar's first entry, and no other page takes its name.
    expect(await sidebar(page).getByText('首页', { exact: true }).count()).toBe(1);
    await page.goto(STOCK_IN);
    await crumbs.getByRole('link', { name: '首页' }).click();
    await page.waitForURL((u) => u.pathname === '/abandonhome');
    expect(errors).toEqual([]);
  });

  it('heads the sidebar with 首页, where signing in lands, marked while it is open', async () => {
    const { page, errors } = await open('admin', STOCK_IN);
    await viaSidebar(page, '', '首页', '/abandonhome');
    await expect.poll(() => sidebar(page).locator('.ant-menu-item-selected').innerText()).toBe('首页');
    expect(errors).toEqual([]);
  });

  it('keeps the collapsed sidebar and the component size (布局设置成功) in their cookies across a reload', async () => {
    const { page } = await open('admin', '/abandonhome');
    const search = page.locator('.wg-header-search');
    expect((await page.context().cookies()).find((c) => c.name === 'size')).toBeUndefined();
    expect(await search.getAttribute('class')).toContain('ant-select-sm');
    await page.getByRole('button', { name: '布局大小' }).click();
    await page.locator('.ant-dropdown:visible').getByText('默认', { exact: true }).click();
    await page.locator('.ant-message').getByText('布局设置成功').waitFor();
    expect((await page.context().cookies()).find((c) => c.name === 'size')?.value).toBe('default');
    await expect.poll(() => search.getAttribute('class')).toContain('ant-select-lg');
    const aside = page.locator('.wg-aside');
    expect((await aside.boundingBox())?.width).toBe(205);
    await page.getByRole('button', { name: '收起侧边栏' }).click();
    await expect.poll(async () => (await aside.boundingBox())?.width).toBe(64);
    expect((await page.context().cookies()).find((c) => c.name === 'sidebarStatus')?.value).toBe('0');
    await page.reload();
    await expect.poll(async () => (await page.locator('.wg-aside').boundingBox())?.width).toBe(64);
    await page.locator('.wg-header-search').waitFor();
    expect(await page.locator('.wg-header-search').getAttribute('class')).toContain('ant-select-lg');
    expect((await page.context().cookies()).find((c) => c.name === 'size')?.value).toBe('default');
    await page.getByRole('button', { name: '布局大小' }).click();
    expect(await page.locator('.ant-dropdown:visible .ant-dropdown-menu-item-selected').innerText()).toBe('默认');
  });

  it('finds a menu by a misspelled title in the header search and opens it', async () => {
    const { page } = await open('admin', '/abandonhome');
    const input = page.locator('.wg-header-search input');
    await input.click();
    await page.keyboard.type('危废入仓');
    await page.locator('.ant-select-item-option').filter({ hasText: '危废管理 > 危废入库' }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === STOCK_IN);
    // By mouse, with another typo; hidden pages are never offered.
    await input.click();
    await page.keyboard.type('处置丁单');
    await page.locator('.ant-select-item-option').filter({ hasText: '处置管理 > 处置订单' }).click();
    await page.waitForURL((u) => u.pathname === DISPOSAL_ORDER);
    await input.click();
    await page.keyboard.type('物流详情');
    await page.locator('.ant-select-dropdown:visible').waitFor();
    expect(await page.locator('.ant-select-item-option').filter({ hasText: '物流详情' }).count()).toBe(0);
  });

  it('shows the unread badge, the department, the avatar menu and the full-screen warning; no badge for department 1', async () => {
    const { page } = await open('admin', '/abandonhome');
    const {
      sysNum,
      leaveNum,
      total: unread,
    } = (await server.login('admin').then((api) => api.get('/api/sysMessage/getUnreadNum'))).body.data;
    // Both kinds are unread, so a count of one shown as the other's would show.
    expect(sysNum).toBeGreaterThan(0);
    expect(leaveNum).toBeGreaterThan(0);
    const badge = page.getByRole('link', { name: `未读消息 ${unread} 条（系统消息 ${sysNum} 条，留言 ${leaveNum} 条）` });
    await expect.poll(() => badge.locator('.ant-badge-count').innerText()).toBe(String(unread));
    const statistic = page.locator('.ant-statistic').filter({ hasText: '未读系统消息' });
    expect(await statistic.locator('.ant-statistic-content-value').innerText()).toBe(String(sysNum));
    await page.getByText(`未读留言 ${leaveNum} 条`).waitFor();
    expect(await page.locator('.wg-dept').innerText()).toBe('系统管理部');
    await badge.click();
    await page.waitForURL((u) => u.pathname === '/message/systemMessage');
    await page.getByRole('button', { name: '用户菜单：管理员' }).click();
    await page.locator('.ant-dropdown:visible').getByText('个人中心', { exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/user/center');
    await page.getByRole('button', { name: '用户菜单：管理员' }).click();
    await page.locator('.ant-dropdown:visible').getByText('退出登录', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    // A browser without the Fullscreen API gets the warning.
    await page.evaluate(() => Object.defineProperty(Document.prototype, 'fullscreenEnabled', { get: () => false, configurable: true }));
    await page.getByRole('button', { name: '全屏' }).click();
    await page.locator('.ant-message').getByText('您的浏览器不支持全屏').waitFor();

    const guest = await open('guest', '/abandonhome');
    await guest.page.getByText('欢迎，吴思远').waitFor();
    expect(await guest.page.getByRole('link', { name: /^系统消息/ }).count()).toBe(0);
    expect(await guest.page.getByText('未读系统消息').count()).toBe(0);
  });

  it('applies a theme colour from the settings drawer at once and keeps it', async () => {
    const { page } = await open('admin', '/abandonhome');
    const primary = page.getByRole('button', { name: '查看系统消息' });
    const colour = () => primary.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await colour()).toBe('rgb(47, 110, 255)');
    await page.getByRole('button', { name: '系统布局设置' }).click();
    await page.getByRole('button', { name: '薄暮红 #F5222D' }).click();
    await expect.poll(colour).toBe('rgb(245, 34, 45)');
    await page.reload();
    await expect
      .poll(() => page.getByRole('button', { name: '查看系统消息' }).evaluate((el) => getComputedStyle(el).backgroundColor))
      .toBe('rgb(245, 34, 45)');
  });
});

describe('tag bar', () => {
  it('opens a tag per page, closes with ×, close-others and close-all, and never closes 首页', async () => {
    const { page, errors } = await open('admin', '/abandonhome');
    expect(await tagTitles(page)).toEqual(['首页']);
    // The pinned tag has no × and its 关闭 is disabled.
    expect(await tag(page, '首页').getByRole('button').count()).toBe(0);
    const menu = await openTagMenu(page, '首页');
    await expect.poll(async () => (await menu.boundingBox())?.width).toBe(105);
    expect(await menu.locator('.ant-dropdown-menu-item-disabled').filter({ hasText: '关闭' }).first().innerText()).toBe('关闭');
    await page.keyboard.press('Escape');

    await viaSidebar(page, '危废管理', '危废入库', STOCK_IN);
    await viaSidebar(page, '危废管理', '危废出库', STOCK_OUT);
    await viaSidebar(page, '危废管理', '企业仓库', WAREHOUSE);
    expect(await tagTitles(page)).toEqual(['首页', '危废入库', '危废出库', '企业仓库']);

    // Clicking a tag switches to its page.
    await tag(page, '危废出库').click();
    await page.waitForURL((u) => u.pathname === STOCK_OUT);
    // × on the open tag closes it and opens its right neighbour.
    await page.getByRole('button', { name: '关闭 危废出库' }).click();
    await page.waitForURL((u) => u.pathname === WAREHOUSE);
    expect(await tagTitles(page)).toEqual(['首页', '危废入库', '企业仓库']);

    // A reload keeps the tags.
    await page.reload();
    await page.locator('.wg-tags').waitFor();
    await expect.poll(() => tagTitles(page)).toEqual(['首页', '危废入库', '企业仓库']);

    // 关闭其他 on another tag keeps 首页 and that tag, and opens it.
    await contextMenu(page, '危废入库', '关闭其他');
    await page.waitForURL((u) => u.pathname === STOCK_IN);
    expect(await tagTitles(page)).toEqual(['首页', '危废入库']);

    // 关闭所有 leaves the pinned 首页 and goes there.
    await viaSidebar(page, '危废管理', '企业仓库', WAREHOUSE);
    await contextMenu(page, '企业仓库', '关闭所有');
    await page.waitForURL((u) => u.pathname === '/abandonhome');
    expect(await tagTitles(page)).toEqual(['首页']);
    await contextMenu(page, '首页', '关闭所有');
    expect(await tagTitles(page)).toEqual(['首页']);
    expect(errors).toEqual([]);
  });

  it('names the tag of a low-code page no menu names by its definition, also after a reload', async () => {
    const address = '/elsewhere/vBuild/temp/40';
    const { page, errors } = await open('admin', STOCK_IN);
    await page.goto(address);
    await expect.poll(() => tagTitles(page)).toContain('库存管理');
    // Restored from the session, the tag keeps its name while the pages load again, and after.
    await page.reload();
    await page.locator('.wg-tags').waitFor();
    expect(await tagTitles(page)).not.toContain('页面 40');
    await expect.poll(() => tagTitles(page)).toContain('库存管理');
    await tag(page, '危废入库').click();
    await page.waitForURL((u) => u.pathname === STOCK_IN);
    expect((await tagTitles(page)).filter((t) => /^(视图|页面) \d+$/.test(t))).toEqual([]);
    expect(await tagTitles(page)).toContain('库存管理');
    expect(errors).toEqual([]);
  });

  it('names the tag of a page the user may not open by its menu, else by what happened, never by its id', async () => {
    const { page } = await open('producer', STOCK_IN);
    const bare = async () => (await tagTitles(page)).filter((t) => /^(视图|页面) \d+$/.test(t));
    // Another role's page (车辆信息, the carrier's): refused, and its tag bears its menu's title.
    await page.goto('/dev-tools/temp/page/vehicle/17');
    await page.waitForURL((u) => u.pathname === '/401');
    await expect.poll(() => tagTitles(page)).toContain('车辆信息');
    // The same view at an address no menu has: named by the refusal.
    await page.goto('/dev-tools/temp/page/trucks/17');
    await page.waitForURL((u) => u.pathname === '/401');
    await expect.poll(() => tagTitles(page)).toContain('无权访问');
    // A view that does not exist.
    await page.goto('/dev-tools/temp/page/nothing/9999');
    await page.locator('[data-missing-definition="view"]').waitFor();
    await expect.poll(() => tagTitles(page)).toContain('视图不存在');
    expect(await bare()).toEqual([]);
    // The names stay across a reload.
    await page.reload();
    await page.locator('.wg-tags').waitFor();
    await expect.poll(() => tagTitles(page)).toEqual(expect.arrayContaining(['车辆信息', '无权访问', '视图不存在']));
    expect(await bare()).toEqual([]);
  });

  it('keeps a cached page mounted between tags; noCache pages, 刷新 and closing remount', async () => {
    const { page } = await open('admin', WAREHOUSE);
    await markShownPage(page);
    await viaSidebar(page, '危废管理', '危废入库', STOCK_IN);
    await markShownPage(page);

    const listCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/general/list/14')) listCalls.push(r.url());
    });
    await tag(page, '企业仓库').click();
    expect(await shownPageMark(page, '企业仓库')).toBe('kept');
    // Kept, not reloaded: the list was not asked for again.
    expect(listCalls).toEqual([]);
    // 危废入库 is noCache: it mounted afresh.
    await tag(page, '危废入库').click();
    expect(await shownPageMark(page, '危废入库')).toBeNull();

    // 刷新 goes through /redirect and remounts the cached page.
    await tag(page, '企业仓库').click();
    expect(await shownPageMark(page, '企业仓库')).toBe('kept');
    const visited: string[] = [];
    page.on('framenavigated', (f) => visited.push(new URL(f.url()).pathname));
    await contextMenu(page, '企业仓库', '刷新');
    await expect.poll(() => visited).toContain(`/redirect${WAREHOUSE}`);
    await page.waitForURL((u) => u.pathname === WAREHOUSE);
    await expect.poll(() => shownPageMark(page, '企业仓库')).toBeNull();

    // Closing the tag drops the kept page.
    await markShownPage(page);
    await page.getByRole('button', { name: '关闭 企业仓库' }).click();
    await viaSidebar(page, '危废管理', '企业仓库', WAREHOUSE);
    expect(await shownPageMark(page, '企业仓库')).toBeNull();
  });

  it('refreshes through /redirect keeping the query', async () => {
    const { page } = await open('admin', '/logistics/vBuild/temp/25?id=7');
    await tag(page, '物流详情').waitFor();
    await contextMenu(page, '物流详情', '刷新');
    await page.waitForURL((u) => u.pathname === '/logistics/vBuild/temp/25');
    expect(new URL(page.url()).search).toBe('?id=7');
    await page.goto('/redirect/logistics/vBuild/temp/25?id=8');
    await page.waitForURL((u) => u.pathname === '/logistics/vBuild/temp/25' && u.search === '?id=8');
    expect(await tagTitles(page)).toEqual(['首页', '物流详情']);
  });

  it('scrolls the open page’s tag into view when more tags are open than the bar shows, keyboard included', async () => {
    const { page } = await open('admin', '/abandonhome', { viewport: { width: 1000, height: 700 } });
    const bar = page.locator('.wg-tags');
    const active = page.locator('.wg-tags .wg-tag.is-active');
    /** The open page's tag lies wholly inside the bar's visible width. */
    // The tag is shown once the page's navigation has rendered; on a loaded machine that can take longer
    // than the poll's default second, so each wait is bounded by SHOWN instead.
    const SHOWN = { timeout: 10_000 };
    const activeShown = () =>
      page.evaluate(() => {
        const b = document.querySelector('.wg-tags')?.getBoundingClientRect();
        const t = document.querySelector('.wg-tags .wg-tag.is-active')?.getBoundingClientRect();
        return !!b && !!t && t.left >= b.left - 1 && t.right <= b.right + 1;
      });
    const pages = [
      STOCK_IN,
      STOCK_OUT,
      WAREHOUSE,
      DISPOSAL_ORDER,
      '/system/user',
      '/system/role',
      '/system/dept',
      '/system/dict',
      '/system/menu',
    ];
    for (const path of pages) {
      // In-app navigation, as a link does it.
      await page.evaluate((p) => {
        window.history.pushState({}, '', p);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, path);
      await page.locator(`.wg-tags .wg-tag.is-active[data-path="${path}"]`).waitFor();
      await expect.poll(activeShown, { ...SHOWN, message: path }).toBe(true);
    }
    expect(await bar.evaluate((b) => b.scrollWidth > b.clientWidth)).toBe(true);

    // Back to the first page from the sidebar: its tag, far to the left now, comes into view.
    await viaSidebar(page, '危废管理', '危废入库', STOCK_IN);
    await expect.poll(() => active.getAttribute('data-path'), SHOWN).toBe(STOCK_IN);
    await expect.poll(activeShown, SHOWN).toBe(true);

    // Keyboard: the arrows walk to the last tag, Enter opens it, and it is shown.
    await active.focus();
    for (let i = 0; i < pages.length; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/system/menu');
    // The address changes before the page renders: wait until its tag is the open one, or the first
    // page, still open until then, is what the next steps scroll away from and back to.
    await expect.poll(() => active.getAttribute('data-path'), SHOWN).toBe('/system/menu');
    await expect.poll(activeShown, SHOWN).toBe(true);
    // Back to the start with the scroll bar moved away first: the tag still comes into view.
    await bar.evaluate((b) => {
      b.scrollLeft = b.scrollWidth;
    });
    await page.goBack();
    await page.waitForURL((u) => u.pathname === STOCK_IN);
    await expect.poll(activeShown, SHOWN).toBe(true);
  });
});

describe('mobile', () => {
  it('turns the sidebar into a drawer at 800 px that the hamburger opens and navigation closes', async () => {
    const { page } = await open('admin', '/abandonhome', { viewport: { width: 800, height: 800 } });
    expect(await page.locator('.wg-aside').count()).toBe(0);
    expect(await sidebar(page).isVisible()).toBe(false);
    await page.getByRole('button', { name: '展开侧边栏' }).click();
    await sidebar(page).waitFor();
    expect(await page.locator('.wg-sidebar-drawer .ant-drawer-body').isVisible()).toBe(true);
    await viaSidebar(page, '危废管理', '危废入库', STOCK_IN);
    await sidebar(page).waitFor({ state: 'hidden' });
    // Growing past 992 px brings the fixed sidebar back.
    await page.setViewportSize({ width: 1200, height: 800 });
    await page.locator('.wg-aside').waitFor();
  });
});
