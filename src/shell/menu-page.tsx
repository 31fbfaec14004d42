import { Result, Spin } from 'antd';
import { Suspense } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { generatedRoutes } from '../../generated/routes';
import { useSession } from '../session/session-store';
import { findRoute } from './menu-routes';
import { flatMenusOf } from './use-menus';

function generatedFor(pathname: string) {
  const exact = generatedRoutes.find((r) => r.path === pathname);
  if (exact) return exact;
  const screen = /\/vBuild\/temp\/(\d+)$/.exec(pathname);
  return screen ? generatedRoutes.find((r) => r.kind === 'screen' && r.id === Number(screen[1])) : undefined;
}

/**
 * Every route the server's menus grant that has no page of its own in the route table: low-code
 * pages come from generated/ (the runtime renderer for newer definitions is the engine's); a path
 * the user's menus do not hold goes to /abandonhome (core-platform §2).
 */
export function MenuPage() {
  const { pathname } = useLocation();
  const session = useSession();
  const route = findRoute(flatMenusOf(session.menus), pathname);
  if (!route) return <Navigate to="/abandonhome" replace />;
  const generated = generatedFor(pathname);
  if (generated) {
    const Page = generated.component;
    return (
      <Suspense fallback={<Spin style={{ display: 'block', margin: '64px auto' }} />}>
        <Page />
      </Suspense>
    );
  }
  return <Result status="info" title={route.title} subTitle="该页面正在建设中，敬请期待。" />;
}
