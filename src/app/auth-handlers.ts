import type { createBrowserRouter } from 'react-router-dom';
import { setAuthHandlers } from '../request';
import { sessionStore } from '../session/session-store';

/**
 * core-platform §4/§8: a 401 asks whether to log in again (clears the session and reloads) or stay;
 * a 403 goes to /401. (Filled in with the request layer.)
 */
export function installAuthHandlers(router: ReturnType<typeof createBrowserRouter>): void {
  setAuthHandlers({
    onUnauthorized: () => {
      sessionStore.clear();
      const { pathname, search } = router.state.location;
      if (pathname !== '/login') void router.navigate(`/login?redirect=${encodeURIComponent(pathname + search)}`, { replace: true });
    },
    onForbidden: () => void router.navigate('/401'),
  });
}
