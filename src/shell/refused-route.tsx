import { Spin } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { menus as menuCalls } from '../contract/bare.gen';
import { api } from '../request';
import { useSession } from '../session/session-store';
import { APP_PATHS, forbiddenState, notInMenusReason } from '../shared/app-paths';
import { flatMenusOf } from './use-menus';

/**
 * An address the user's menus do not lead to. When it is a page of some menu (a page of the app that
 * another role is granted), the user is refused: /401 with the page's title as the reason. Any other
 * address is no page at all and goes home.
 */
export function RefusedRoute({ path }: { path: string }) {
  const { pathname, search } = useLocation();
  const [title, setTitle] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    api(menuCalls.page, { query: { path } }, { silent: true }).then(
      (answer) => live && setTitle(answer.title),
      // Not known to be a page: nothing to refuse, so home.
      () => live && setTitle(null),
    );
    return () => {
      live = false;
    };
  }, [path]);
  if (title === undefined) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (title === null) return <Navigate to={APP_PATHS.home} replace />;
  return <RefusedPage reason={notInMenusReason(title)} from={`${pathname}${search}`} />;
}

/** Goes to /401 with the reason, replacing the refused address in the history. */
export function RefusedPage({ reason, from }: { reason: string; from: string }) {
  return <Navigate to={APP_PATHS.forbidden} replace state={forbiddenState(reason, from)} />;
}

/**
 * A page of the route table that is an administrator's tool: open when one of the user's menus is a page
 * of one of `components` (the tool's own menu, or the page that opens it), refused to /401 otherwise.
 */
export function RequireMenu({ components, title, children }: { components: readonly string[]; title: string; children: ReactNode }) {
  const { pathname, search } = useLocation();
  const { menus } = useSession();
  const granted = flatMenusOf(menus).some((r) => !r.isDirectory && components.includes(r.component));
  if (granted) return children;
  return <RefusedPage reason={notInMenusReason(title)} from={`${pathname}${search}`} />;
}
