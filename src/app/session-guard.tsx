import { Button, Flex, Result, Spin } from 'antd';
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { FALLBACK_MESSAGE } from '../request';
import { confirmLogout } from '../session/logout';
import { sessionStore, useSession } from '../session/session-store';
import { getToken } from '../session/token';
import { loginPath } from '../shared/app-paths';

/**
 * The navigation guard of every non-public route: without a token, go to
 * /login?redirect={path}; with a token, load user info and menus once.
 *
 * Only a refused token (401) ends the session here. A load that failed for any other reason (the
 * network, a timeout, a server error, the page left while loading) keeps the token and offers to try
 * again: a passing fault must not sign the user out, nor end the session on the server.
 */
export function SessionGuard() {
  const location = useLocation();
  const session = useSession();
  const token = getToken();

  useEffect(() => {
    if (token && session.status === 'idle') void sessionStore.load();
  }, [token, session.status]);

  // A refused token was forgotten when the load failed.
  if (!token) {
    const back = `${location.pathname}${location.search}`;
    return <Navigate to={loginPath(back)} replace />;
  }
  if (session.status === 'failed') {
    return (
      <Result
        status="warning"
        title="用户信息加载失败"
        subTitle={session.error || FALLBACK_MESSAGE}
        extra={
          <Flex gap={12} justify="center" wrap>
            <Button type="primary" autoFocus onClick={() => void sessionStore.retry()}>
              重试
            </Button>
            <Button onClick={() => void confirmLogout()}>退出登录</Button>
          </Flex>
        }
      />
    );
  }
  if (session.status !== 'ready') return <Spin fullscreen tip="加载中…" />;
  return <Outlet />;
}
