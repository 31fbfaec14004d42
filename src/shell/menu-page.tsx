import { Result, Spin } from 'antd';
import { Navigate, useLocation } from 'react-router-dom';
import { ContainerPage, FormPage } from '../engine';
import {
  DefinitionProblems,
  GeneratedPage,
  LoadFailed,
  ResolvedView,
  resolveDefinition,
  useDefinition,
} from '../engine/container/resolve-view';
import { BigScreenPage } from '../engine/pages';
import { useSession } from '../session/session-store';
import { findRoute } from './menu-routes';
import { flatMenusOf } from './use-menus';

const spinner = <Spin style={{ display: 'block', margin: '64px auto' }} />;

/**
 * A screen by id (`/{x}/vBuild/temp/{id}`): the generated page when its hash matches the server's
 * current definition, otherwise the runtime renderer; a definition that fails validation lists its
 * problems.
 */
export function ResolvedScreen({ screenId }: { screenId: number }) {
  const loaded = useDefinition('screen', screenId);
  if (loaded.status === 'loading') return spinner;
  if (loaded.status === 'failed')
    return <LoadFailed title={`页面 ${screenId} 加载失败`} message={loaded.message} onRetry={loaded.reload} />;
  const r = resolveDefinition('screen', loaded.raw);
  switch (r.kind) {
    case 'generated':
      return <GeneratedPage route={r.route} />;
    case 'runtime':
      if (r.page.kind === 'container') return <ContainerPage key={r.hash} model={r.page} />;
      if (r.page.kind === 'form') return <FormPage key={r.hash} model={r.page} />;
      if (r.page.kind === 'bigScreen') return <BigScreenPage key={r.hash} model={r.page} />;
      return <Result status="warning" title="无法显示该页面" />;
    case 'invalid':
      return <DefinitionProblems title="页面定义有误，无法显示" problems={r.problems} />;
    case 'undesigned':
      return <Result status="info" title="该页面尚未设计" />;
  }
}

const VIEW_PATH = /\/dev-tools\/temp\/page\/[^/]+\/(\d+)$/;
const SCREEN_PATH = /\/vBuild\/temp\/(\d+)$/;

/**
 * Low-code pages (`/dev-tools/temp/page/{name}/{viewId}`, `/{x}/vBuild/temp/{screenId}`), drawn from
 * the server's current definition (generated when it matches the build, at run time otherwise), and
 * every other route the server's menus grant that has no page of its own. Any other path goes to
 * /abandonhome.
 */
export function MenuPage() {
  const { pathname } = useLocation();
  const session = useSession();
  const clean = pathname.replace(/\/+$/, '');
  // A published view or screen opens at its address whether or not a menu points at it: the server
  // decides who may read its definition (403 goes to /401, an unknown id shows its panel).
  const view = VIEW_PATH.exec(clean);
  if (view) return <ResolvedView key={view[1]} viewId={Number(view[1])} />;
  const screen = SCREEN_PATH.exec(clean);
  if (screen) return <ResolvedScreen key={screen[1]} screenId={Number(screen[1])} />;
  const route = findRoute(flatMenusOf(session.menus), clean);
  if (!route) return <Navigate to="/abandonhome" replace />;
  return <Result status="info" title={route.title} subTitle="该页面正在建设中，敬请期待。" />;
}
