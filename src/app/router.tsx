import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { AgreementPage } from '../pages/agreement-page';
import { EntryAgreementPage } from '../pages/entry-agreement-page';
import { Error401Page } from '../pages/error-401-page';
import { Error404Page } from '../pages/error-404-page';
import { HomePage } from '../pages/home-page';
import { InitPage } from '../pages/init-page';
import { Login2Page, LoginPage } from '../pages/login/login-page';
import { PendingPage } from '../pages/pending-page';
import { RedirectPage } from '../pages/redirect-page';
import { Layout } from '../shell/layout';
import { MenuPage } from '../shell/menu-page';
import { RouteErrorPanel } from './error-panel';
import { SessionGuard } from './session-guard';

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

const page = (path: string, element: React.ReactNode, handle: RouteHandle): RouteObject => ({ path, element, handle });

/** core-platform §2's route table. Public routes first; everything else is behind the guard and the shell. */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorPanel />,
    children: [
      page('/login', <LoginPage />, { title: '登录' }),
      page('/login2', <Login2Page />, { title: '登录' }),
      page('/init', <InitPage />, { title: '系统初始化' }),
      page('/serviceAgreement', <AgreementPage kind="service" />, { title: '服务协议' }),
      page('/privacyPolicy', <AgreementPage kind="privacy" />, { title: '隐私政策' }),
      page('/entryAgreement', <EntryAgreementPage />, { title: '入驻协议' }),
      page('/lsPreview', <PendingPage title="大屏预览" />, { title: '大屏预览' }),
      {
        element: <SessionGuard />,
        children: [
          {
            element: <Layout />,
            children: [
              { path: '/', element: <Navigate to="/abandonhome" replace /> },
              page('/abandonhome', <HomePage />, { title: '首页', affix: true, noCache: true }),
              page('/dashboard', <PendingPage title="首页看板" />, { title: '首页看板' }),
              page('/user/center', <PendingPage title="个人中心" />, { title: '个人中心' }),
              page('/message/systemMessage', <PendingPage title="系统消息" />, { title: '系统消息' }),
              page('/qrcode/print', <PendingPage title="标签打印" />, { title: '标签打印' }),
              page('/401', <Error401Page />, { title: '401', hidden: true }),
              page('/404', <Error404Page />, { title: '404', hidden: true }),
              page('/redirect/*', <RedirectPage />, { title: '', hidden: true }),
              { path: '*', element: <MenuPage /> },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
