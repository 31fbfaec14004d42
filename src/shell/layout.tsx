import { Drawer, theme } from 'antd';
import { type CSSProperties, useContext, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { UNSAFE_DataRouterContext, useLocation } from 'react-router-dom';
import '../app/dayjs-locale';
import { AppEngineServices } from '../app/engine-services';
import type { RouteHandle } from '../app/router';
import { unreadStore } from '../messages/unread-store';
import { trimPath } from '../model';
import { lowcodePageOf, pageTitles, placeholderTitle, usePageTitles } from '../navigation/page-titles';
import { useRealtime } from '../realtime/use-realtime';
import { ExpiredPasswordPrompt } from '../session/password-dialog';
import { sessionStore, useSession } from '../session/session-store';
import { settingsStore, useSettings } from '../settings/settings-store';
import { APP_PATHS, type ForbiddenState } from '../shared/app-paths';
import { showsMessageBadge } from '../shared/departments';
import { titleFailedPage } from './failed-page-title';
import { Navbar } from './navbar';
import { PageCache } from './page-cache';
import { affixPaths, pageInfo } from './route-handles';
import { SettingsDrawer } from './settings-drawer';
import { SIDEBAR_BG, SIDEBAR_WIDTH, Sidebar } from './sidebar';
import { TagsBar } from './tags-bar';
import { type Tag, tagsStore } from './tags-store';
import { flatMenusOf, useFlatMenus } from './use-menus';
import { useMobile } from './use-mobile';
import { useMatchedHandle, useRouteHandles } from './use-route-handles';
import './shell.css';

/** Whether a title is only what a low-code page is called before its definition has named it (视图 17). */
function isPlaceholder(path: string, title: string): boolean {
  const page = lowcodePageOf(path);
  return page !== undefined && title === placeholderTitle(page);
}

/**
 * The back-office frame: sidebar (a drawer below 992 px), top bar, tag bar and
 * the page, with the visited pages kept alive per tag. Opens the user's realtime channel.
 */
export function Layout() {
  const session = useSession();
  const settings = useSettings();
  const mobile = useMobile();
  const location = useLocation();
  const handles = useRouteHandles();
  const matched = useMatchedHandle();
  const flat = useFlatMenus();
  const titles = usePageTitles();
  const { token } = theme.useToken();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const user = session.info?.user;
  const username = user?.username;

  useRealtime(username);

  const page = useMemo(
    () => pageInfo(location.pathname, { handles, menus: flat, titles }, matched),
    [location.pathname, handles, flat, matched, titles],
  );

  const affix = useMemo<Tag[]>(
    () =>
      affixPaths(handles).map(({ path, title }) => ({
        path,
        fullPath: path,
        title,
        affix: true,
        noCache: Boolean(handles.get(path)?.noCache),
      })),
    [handles],
  );

  // Every navigation gets its tag, read from the router itself: a page left before it finished
  // loading (a transition React never committed) still gets one. Before paint, so the tag bar
  // never shows without its pinned tags or the page being opened.
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  useLayoutEffect(() => {
    if (!username || !router) return;
    tagsStore.init(username, affix);
    let last: unknown = null;
    const visit = ({ location: at, matches }: typeof router.state) => {
      // The router reports every state change; only a new location is a visit (a tag closed
      // while its page is still shown must not come back).
      if (at === last) return;
      last = at;
      const handle = matches[matches.length - 1]?.route.handle as RouteHandle | undefined;
      // A low-code page refused on the way (/401 says which): its tag still bears its id until named otherwise.
      if (at.pathname === APP_PATHS.forbidden) {
        const from = trimPath(String((at.state as ForbiddenState | null)?.from ?? '').split('?')[0] ?? '');
        const tag = tagsStore.get().tags.find((t) => t.path === from);
        if (tag && isPlaceholder(tag.path, tag.title)) void titleFailedPage(from, 403);
      }
      const info = pageInfo(at.pathname, { handles, menus: flatMenusOf(sessionStore.get().menus), titles: pageTitles.get() }, handle);
      if (!info) return;
      // A page whose name is not known yet keeps the name its tag already has (a tag restored after a reload).
      const known = isPlaceholder(info.path, info.title) ? tagsStore.get().tags.find((t) => t.path === info.path)?.title : undefined;
      tagsStore.visit({ ...info, title: known ?? info.title, fullPath: `${info.path}${at.search}` });
    };
    visit(router.state);
    return router.subscribe(visit);
  }, [username, affix, handles, router]);

  // A low-code page no menu names: its tag takes its definition's name once the page has loaded it.
  useEffect(() => {
    for (const tag of tagsStore.get().tags) {
      const title = pageInfo(tag.path, { handles, menus: flat, titles })?.title;
      if (title && title !== tag.title && !tag.affix && !isPlaceholder(tag.path, title)) tagsStore.visit({ ...tag, title });
    }
  }, [titles, flat, handles]);

  // Tags restored from an earlier visit whose page the user can no longer open go away.
  useEffect(() => {
    if (username) tagsStore.retain((t) => pageInfo(t.path, { handles, menus: flat, titles }) !== null);
  }, [username, handles, flat, titles]);

  useEffect(() => {
    if (username && showsMessageBadge(user?.deptId)) void unreadStore.refresh();
  }, [username, user?.deptId]);

  // The mobile drawer closes on navigation and when the window grows past the breakpoint.
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the reaction to the path changing
  useEffect(() => setDrawerOpen(false), [location.pathname, mobile]);

  const collapsed = !mobile && !settings.sidebarOpened;
  const sidebarOpen = mobile ? drawerOpen : settings.sidebarOpened;
  const toggleSidebar = () => {
    if (mobile) setDrawerOpen((o) => !o);
    else settingsStore.set({ sidebarOpened: !settingsStore.get().sidebarOpened });
  };

  return (
    <div className={`wg-shell${mobile ? ' is-mobile' : ''}`} style={{ '--wg-primary': token.colorPrimary } as CSSProperties}>
      {mobile ? (
        <Drawer
          placement="left"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          size={SIDEBAR_WIDTH}
          closable={false}
          rootClassName="wg-sidebar-drawer"
          styles={{ body: { padding: 0, background: SIDEBAR_BG } }}
        >
          <Sidebar collapsed={false} />
        </Drawer>
      ) : (
        <aside className={`wg-aside${collapsed ? ' is-collapsed' : ''}`}>
          <Sidebar collapsed={collapsed} />
        </aside>
      )}
      <div className="wg-main">
        <header className={`wg-header${settings.fixedHeader ? ' is-fixed' : ''}`}>
          <Navbar mobile={mobile} sidebarOpen={sidebarOpen} onToggleSidebar={toggleSidebar} onOpenSettings={() => setSettingsOpen(true)} />
          {settings.tagsView && <TagsBar />}
        </header>
        <main className="wg-content">
          <AppEngineServices>
            <PageCache page={page} enabled={settings.tagsView} />
          </AppEngineServices>
        </main>
      </div>
      <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      {/* An expired password must be changed before anything else, even after a reload. */}
      <ExpiredPasswordPrompt />
    </div>
  );
}
