import { createBrowserRouter } from 'react-router-dom';
import { setAuthHandlers } from '../request';
import { clearToken } from '../session/token';
import { RouteErrorPanel } from './error-panel';
import { InitPage } from './init-page';
import { LoginPage } from './login-page';
import { NotFoundPage } from './not-found-page';
import { RequireSession } from './require-session';

export const router = createBrowserRouter([
  {
    errorElement: <RouteErrorPanel />,
    children: [
      { path: '/login', element: <LoginPage /> },
      { path: '/init', element: <InitPage /> },
      {
        element: <RequireSession />,
        children: [
          // Behind the session: loaded on demand so the login page's bundle stays small.
          { path: '/', lazy: async () => ({ Component: (await import('./home-page')).HomePage }) },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
]);

// A 401 means the session is gone: drop the token and log in again, then come back here.
// (The re-login confirm of core-platform §8 and the 403 → /401 page arrive with the real shell.)
setAuthHandlers({
  onUnauthorized: () => {
    clearToken();
    const { pathname, search } = router.state.location;
    if (pathname === '/login') return;
    void router.navigate(`/login?redirect=${encodeURIComponent(pathname + search)}`, { replace: true });
  },
});
