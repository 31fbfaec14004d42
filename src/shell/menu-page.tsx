import { Result } from 'antd';
import { useCallback } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { ResolvedScreen, ResolvedView } from '../engine/runtime/resolved-page';
import { useSession } from '../session/session-store';
import { findRoute } from './menu-routes';
import { lowcodePageOf, pageTitles } from './page-titles';
import { flatMenusOf } from './use-menus';

/**
 * Low-code pages (`/dev-tools/temp/page/{name}/{viewId}`, `/{x}/vBuild/temp/{screenId}`), drawn from
 * the server's current definition whether or not a menu points at them: the server decides who may
 * read it (a 403 goes to /401, an unknown id shows its panel). Every other route the server's menus
 * grant that has no page of its own says it is being built; any other path goes to /abandonhome.
 */
export function MenuPage() {
  const { pathname } = useLocation();
  const session = useSession();
  const clean = pathname.replace(/\/+$/, '');
  const onTitle = useCallback((title: string) => pageTitles.set(clean, title), [clean]);
  const page = lowcodePageOf(clean);
  if (page?.kind === 'view') return <ResolvedView key={page.id} viewId={page.id} onTitle={onTitle} />;
  if (page?.kind === 'screen') return <ResolvedScreen key={page.id} screenId={page.id} onTitle={onTitle} />;
  const route = findRoute(flatMenusOf(session.menus), clean);
  if (!route) return <Navigate to="/abandonhome" replace />;
  return <Result status="info" title={route.title} subTitle="该页面正在建设中，敬请期待。" />;
}
