import { Spin } from 'antd';
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { sessionStore, useSession } from '../session/session-store';
import { getToken } from '../session/token';

/**
 * The navigation guard of every non-public route: without a token, go to
 * /login?redirect={path}; with a token, load user info and menus once; if that fails, log out and
 * reload.
 */
export function SessionGuard() {
  const location = useLocation();
  const session = useSession();
  const token = getToken();

  useEffect(() => {
    if (token && session.status === 'idle') void sessionStore.load();
    if (token && session.status === 'failed') {
      void sessionStore.logout().then(() => window.location.reload());
    }
  }, [token, session.status]);

  if (!token) {
    const back = `${location.pathname}${location.search}`;
    return <Navigate to={`/login?redirect=${encodeURIComponent(back)}`} replace />;
  }
  if (session.status !== 'ready') return <Spin fullscreen tip="加载中…" />;
  return <Outlet />;
}
