import { Result, Spin } from 'antd';
import { type ComponentType, type LazyExoticComponent, lazy, Suspense, useCallback } from 'react';
import { useLocation } from 'react-router-dom';
import { menuComponentLoader } from '../app/menu-components';
import { type HttpError, ResolvedScreen, ResolvedView } from '../engine';
import { trimPath } from '../model';
import { lowcodePageOf, pageTitles } from '../navigation/page-titles';
import { useSession } from '../session/session-store';
import { titleFailedPage } from './failed-page-title';
import { findRoute } from './menu-routes';
import { RefusedRoute } from './refused-route';
import { flatMenusOf } from './use-menus';

/** One lazy component per menu component name, so a page keeps its state across renders. */
const lazyPages = new Map<string, LazyExoticComponent<ComponentType>>();

function lazyPageOf(component: string): LazyExoticComponent<ComponentType> | undefined {
  const cached = lazyPages.get(component);
  if (cached) return cached;
  const load = menuComponentLoader(component);
  if (!load) return undefined;
  const page = lazy(async () => ({ default: await load() }));
  lazyPages.set(component, page);
  return page;
}

/**
 * Low-code pages (`/dev-tools/temp/page/{name}/{viewId}`, `/{x}/vBuild/temp/{screenId}`), drawn from
 * the server's current definition whether or not a menu points at them: the server decides who may
 * read it (a 403 goes to /401, an unknown id shows its panel; either way the tag is named by the page's
 * menu, or by what happened, never by its bare id). A menu of the user's at exactly that
 * address whose component is a page of the app shows that page instead. A route the user's menus grant shows
 * the app's page for the menu's component; a granted route whose component the app does not have
 * names the missing component; a page of a menu the user is not granted goes to /401 with its title as the
 * reason; any other path goes to /abandonhome.
 */
export function MenuPage() {
  const { pathname } = useLocation();
  const session = useSession();
  const clean = trimPath(pathname);
  const onTitle = useCallback((title: string) => pageTitles.set(clean, title), [clean]);
  // A definition refused or not there: the tag is named by the page's menu, or by what happened.
  const onFailed = useCallback((error: HttpError) => void titleFailedPage(clean, error.status), [clean]);
  const page = lowcodePageOf(clean);
  const routes = flatMenusOf(session.menus);
  const standIn = page ? routes.find((r) => !r.isDirectory && r.path === clean) : undefined;
  const Own = standIn ? lazyPageOf(standIn.component) : undefined;
  if (Own) {
    return (
      <Suspense fallback={<Spin style={{ display: 'block', margin: '80px auto' }} />}>
        <Own />
      </Suspense>
    );
  }
  if (page?.kind === 'view') return <ResolvedView key={page.id} viewId={page.id} onTitle={onTitle} onFailed={onFailed} />;
  if (page?.kind === 'screen') return <ResolvedScreen key={page.id} screenId={page.id} onTitle={onTitle} onFailed={onFailed} />;
  const route = findRoute(routes, clean);
  if (!route) return <RefusedRoute path={clean} />;
  const Page = lazyPageOf(route.component);
  if (Page) {
    return (
      <Suspense fallback={<Spin style={{ display: 'block', margin: '80px auto' }} />}>
        <Page />
      </Suspense>
    );
  }
  // A menu an administrator pointed at a component this build does not have: say which, not a blank page.
  return (
    <Result
      status="warning"
      title={route.title}
      subTitle={`菜单的组件「${route.component}」在本应用中不存在，请在菜单管理中检查组件路径。`}
    />
  );
}
