import type { createBrowserRouter } from 'react-router-dom';
import { type Notifier, notify } from '../notify/notifier';
import { type ClientConfig, setAuthHandlers } from '../request';
import { type SessionState, sessionStore } from '../session/session-store';
import { APP_PATHS, forbiddenState, loginPath } from '../shared/app-paths';

export const EXPIRED_TITLE = '系统提示';
export const EXPIRED_MESSAGE = '登录状态已过期，您可以继续留在该页面，或者重新登录';
export const RELOGIN_TEXT = '重新登录';
export const STAY_TEXT = '取消';

export interface AuthHandlerDeps {
  /** Where the user is now (path and query). */
  location: () => { pathname: string; search: string };
  /** `state`: the history state of the navigation (/401's reason). */
  navigate: (path: string, state?: unknown) => void;
  /** A full page load, so nothing of the old session survives in memory. */
  reload: (url: string) => void;
  session: { status: () => SessionState['status']; clear: () => void };
  notifier: Pick<Notifier, 'confirm'>;
  /** The clock the request client stamps its calls with (Date.now). */
  now?: () => number;
}

/** Where to come back to after logging in again; never with a (stale) token in it. */
function returnPath({ pathname, search }: { pathname: string; search: string }): string {
  const query = new URLSearchParams(search);
  query.delete('token');
  const rest = query.toString();
  return `${pathname}${rest ? `?${rest}` : ''}`;
}

/**
 * A 401 asks whether to log in again (clears the session and reloads into
 * /login?redirect=here) or stay on the page; a 403 goes to /401.
 *
 * One confirm at a time, however many calls fail together. Once the user has chosen to stay, a 401
 * of a call sent before that choice does not ask again (it was answered); a later call's does. None
 * on the public pages (nothing to go back to) and none while the guard loads the session or after
 * that failed: a refused token is forgotten there and the guard sends the user to /login.
 */
/** The public routes: a 401 there has no session to re-enter (their pages handle it). */
export const PUBLIC_PATHS: readonly string[] = [
  APP_PATHS.login,
  APP_PATHS.login2,
  APP_PATHS.init,
  APP_PATHS.serviceAgreement,
  APP_PATHS.privacyPolicy,
  APP_PATHS.bigScreenViewer,
  APP_PATHS.entryAgreement,
];

export function createAuthHandlers(deps: AuthHandlerDeps): Required<Pick<ClientConfig, 'onUnauthorized' | 'onForbidden'>> {
  let asking = false;
  /** When the user last chose to stay. */
  let stayedAt = Number.NEGATIVE_INFINITY;
  const now = deps.now ?? Date.now;
  return {
    onUnauthorized: (error) => {
      const status = deps.session.status();
      if (asking || PUBLIC_PATHS.includes(deps.location().pathname) || status === 'loading' || status === 'failed') return;
      if (error.sentAt !== undefined && error.sentAt <= stayedAt) return;
      asking = true;
      void deps.notifier.confirm({ title: EXPIRED_TITLE, content: EXPIRED_MESSAGE, okText: RELOGIN_TEXT, cancelText: STAY_TEXT }).then(
        (relogin) => {
          // Staying: the next 401 asks again. Leaving: no second confirm while the page reloads.
          if (!relogin) {
            asking = false;
            stayedAt = now();
            return;
          }
          deps.session.clear();
          deps.reload(loginPath(returnPath(deps.location())));
        },
        () => {
          asking = false;
        },
      );
    },
    onForbidden: (error) => {
      const code = (error.body as { code?: unknown } | undefined)?.code;
      // An expired password: the shell's forced dialog is already open over the page, nothing to leave.
      if (code === 'PASSWORD_EXPIRED') return;
      // An agreement not yet accepted: the agreement page is where the account may go on.
      if (code === 'AGREEMENT_PENDING') {
        if (deps.location().pathname !== APP_PATHS.entryAgreement) deps.navigate(APP_PATHS.entryAgreement);
        return;
      }
      // The server's refusal is the reason /401 shows, with the address it was refused on.
      const where = deps.location();
      if (where.pathname !== APP_PATHS.forbidden) {
        const state = forbiddenState(error.message, returnPath(where));
        if (state) deps.navigate(APP_PATHS.forbidden, state);
        else deps.navigate(APP_PATHS.forbidden);
      }
    },
  };
}

export function installAuthHandlers(router: ReturnType<typeof createBrowserRouter>): void {
  setAuthHandlers(
    createAuthHandlers({
      // The address bar, not the router's state: the router was created before the query token was
      // taken out of the address (src/session/query-token.ts), so its location may still hold it.
      location: () => window.location,
      navigate: (path, state) => void router.navigate(path, state === undefined ? undefined : { state }),
      reload: (url) => window.location.assign(url),
      session: { status: () => sessionStore.get().status, clear: () => sessionStore.clear() },
      notifier: notify,
    }),
  );
}
