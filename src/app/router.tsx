import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject, useLocation } from 'react-router-dom';
import { Login2Page, LoginPage } from '../pages/login/login-page';
import { captureQueryToken } from '../session/query-token';
import { APP_PATHS } from '../shared/app-paths';
import { RouteErrorPanel } from './error-panel';

/** What the tag bar and breadcrumb show for a route of the table (menu pages take their menu's title). */
export interface RouteHandle {
  title: string;
  /** Pinned in the tag bar: cannot be closed. */
  affix?: boolean;
  /** Not kept alive when left. */
  noCache?: boolean;
  /** Left out of the tag bar and breadcrumb. */
  hidden?: boolean;
}

/**
 * Every page but the login page is loaded on demand, so that the login route's initial JS stays
 * small (budget: 250 KB gzipped, bench/app-bundle.bench.ts).
 */
function lazyPage<M>(path: string, load: () => Promise<M>, pick: PageKey<M> | ((m: M) => ComponentType), handle: RouteHandle): RouteObject {
  return {
    path,
    handle,
    lazy: async () => {
      const m = await load();
      return { Component: typeof pick === 'function' ? pick(m) : (m[pick] as ComponentType) };
    },
  };
}

/** The name of a module's export that is a page component. */
type PageKey<M> = { [K in keyof M]: M[K] extends ComponentType ? K : never }[keyof M];

/** Menu components whose holders may open 视图预览: its own menu, and 视图管理 that opens it. */
const VIEW_PREVIEW_MENUS = ['dev-tools/preview', 'dev-tools/generation'] as const;

/** The back office's frame, loaded on demand; the login page starts it with the login call. */
const loadFrame = () => import('../shell/layout');

/**
 * Shown while the first route's code loads (nothing: the page follows in a moment). Without one, React
 * Router warns on every load that starts on a lazily loaded route.
 */
function Loading() {
  return null;
}

/** The app's route table. Public routes first; everything else is behind the guard and the shell. */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorPanel />,
    HydrateFallback: Loading,
    children: [
      { path: APP_PATHS.login, element: <LoginPage preloadFrame={loadFrame} />, handle: { title: '登录' } },
      // The login page's own module (already in the initial chunk): /login2 signs in with a query token.
      { path: APP_PATHS.login2, element: <Login2Page preloadFrame={loadFrame} />, handle: { title: '登录' } },
      lazyPage(APP_PATHS.init, () => import('../pages/init-page'), 'InitPage', { title: '系统初始化' }),
      lazyPage(
        APP_PATHS.serviceAgreement,
        () => import('../pages/agreement-page'),
        (m) => () => <m.AgreementPage kind="service" />,
        { title: '服务协议' },
      ),
      lazyPage(
        APP_PATHS.privacyPolicy,
        () => import('../pages/agreement-page'),
        (m) => () => <m.AgreementPage kind="privacy" />,
        { title: '隐私政策' },
      ),
      lazyPage(APP_PATHS.entryAgreement, () => import('../pages/entry-agreement-page'), 'EntryAgreementPage', { title: '入驻协议' }),
      // The big-screen viewer: public, outside the shell; a share link or the session feeds it. Opened
      // at its address it is its own page (ls-preview.html); this route serves in-app navigation.
      lazyPage(
        APP_PATHS.bigScreenViewer,
        () => import('../pages/ls-preview-page'),
        (m) =>
          function LsPreviewRoute() {
            const { search } = useLocation();
            return <m.LsPreviewPage key={search} search={search} />;
          },
        { title: '大屏预览' },
      ),
      {
        // The guard loads with the shell's first page, not with the login page.
        lazy: async () => ({ Component: (await import('./session-guard')).SessionGuard }),
        children: [
          {
            lazy: async () => ({ Component: (await loadFrame()).Layout }),
            children: [
              { path: APP_PATHS.root, element: <Navigate to={APP_PATHS.home} replace /> },
              lazyPage(APP_PATHS.home, () => import('../pages/home-page'), 'HomePage', { title: '首页', affix: true, noCache: true }),
              // Every signed-in user's own pages, whatever their menus grant.
              lazyPage(APP_PATHS.dashboard, () => import('../pages/dashboard/dashboard-page'), 'DashboardPage', { title: '企业看板' }),
              lazyPage(APP_PATHS.userCenter, () => import('../pages/user-center/user-center-page'), 'UserCenterPage', {
                title: '个人中心',
              }),
              lazyPage(APP_PATHS.systemMessages, () => import('../pages/messages/system-message-page'), 'SystemMessagePage', {
                title: '系统消息',
              }),
              // Reached from list pages' `system` buttons (`?total=&size=`), not only from its menu.
              lazyPage(APP_PATHS.qrcodePrint, () => import('../pages/qrcode/qrcode-print-page'), 'QrcodePrintPage', {
                title: '打印二维码',
              }),
              // 视图预览 is a designer's tool: for those whose menus hold it or 视图管理, which opens it.
              lazyPage(
                APP_PATHS.viewPreview,
                () => Promise.all([import('../pages/preview-page'), import('../shell/refused-route')]),
                ([page, guard]: [typeof import('../pages/preview-page'), typeof import('../shell/refused-route')]) =>
                  function ViewPreviewRoute() {
                    return (
                      <guard.RequireMenu components={VIEW_PREVIEW_MENUS} title="视图预览">
                        <page.PreviewPage />
                      </guard.RequireMenu>
                    );
                  },
                { title: '视图预览' },
              ),
              lazyPage(APP_PATHS.forbidden, () => import('../pages/error-401-page'), 'Error401Page', { title: '401', hidden: true }),
              lazyPage(APP_PATHS.notFound, () => import('../pages/error-404-page'), 'Error404Page', { title: '404', hidden: true }),
              lazyPage(`${APP_PATHS.redirect}/*`, () => import('../shell/redirect-page'), 'RedirectPage', { title: '', hidden: true }),
              { path: '*', lazy: async () => ({ Component: (await import('../shell/menu-page')).MenuPage }) },
            ],
          },
        ],
      },
    ],
  },
];

// The router reads the address when it is created: a `?token=` must be stored and taken out first.
captureQueryToken();
export const router = createBrowserRouter(routes);
