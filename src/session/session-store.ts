/**
 * The signed-in user: info, roles and menus, loaded once per session by the navigation guard
 * and cleared on logout. Components read it with useSession().
 */
import { useSyncExternalStore } from 'react';
import { menus as menuCalls } from '../contract/bare.gen';
import { api, RequestError } from '../request';
import { createListeners } from '../shared/listeners';
import type { MenuRoute } from '../shared/menu-route';
import { queryTokenSettled } from './query-token';
import { fetchSessionInfo, logout as logoutCall, type SessionInfo } from './session-api';
import { clearToken } from './token';

export type { MenuRoute } from '../shared/menu-route';

export interface SessionState {
  status: 'idle' | 'loading' | 'ready' | 'failed';
  info: SessionInfo | null;
  /** Permission strings; ROLE_SYSTEM_DEFAULT when the user has none. */
  roles: string[];
  menus: MenuRoute[];
  /** Why loading failed ('failed': the network, a timeout, a server error; a refused token is cleared instead). */
  error?: string;
}

export const DEFAULT_ROLE = 'ROLE_SYSTEM_DEFAULT';
/** Stored fund-account info that logout must clear. */
export const FUND_ACCOUNT_KEY = 'fundAccountInfo';

const EMPTY: SessionState = { status: 'idle', info: null, roles: [], menus: [] };
let state: SessionState = EMPTY;
let inflight: Promise<SessionState> | null = null;
const listeners = createListeners();

function set(next: SessionState): void {
  state = next;
  listeners.emit();
}

export const sessionStore = {
  get: (): SessionState => state,
  subscribe: listeners.subscribe,
  /** Loads user info and menus once; concurrent callers share the request. */
  load(): Promise<SessionState> {
    if (state.status === 'ready') return Promise.resolve(state);
    if (inflight) return inflight;
    set({ ...state, status: 'loading' });
    inflight = (async () => {
      try {
        // A `?token=` of another account is being decided: the session loaded is the one chosen.
        await queryTokenSettled();
        const [info, menus] = await Promise.all([fetchSessionInfo(), api(menuCalls.build)]);
        const roles = info.roles?.length ? info.roles : [DEFAULT_ROLE];
        set({ status: 'ready', info, roles, menus: Array.isArray(menus) ? menus : [] });
      } catch (e) {
        // A refused token is dead on the server already: forget it (the guard then sends the user to
        // /login). Any other failure keeps the token for another try.
        if (e instanceof RequestError && e.status === 401) sessionStore.clear();
        else set({ ...EMPTY, status: 'failed', error: e instanceof Error ? e.message : String(e) });
      } finally {
        inflight = null;
      }
      return state;
    })();
    return inflight;
  },
  /** Tries a failed load again. */
  retry(): Promise<SessionState> {
    if (state.status === 'failed') set(EMPTY);
    return sessionStore.load();
  },
  /** Fetches the menus again (a page just published or granted shows in the sidebar without signing in again). */
  async reloadMenus(): Promise<void> {
    if (state.status !== 'ready') return;
    const menus = await api(menuCalls.build);
    if (state.status === 'ready') set({ ...state, menus: Array.isArray(menus) ? menus : [] });
  },
  /** Forgets the user locally: token, roles, menus and fund-account info. */
  clear(): void {
    clearToken();
    try {
      localStorage.removeItem(FUND_ACCOUNT_KEY);
      sessionStorage.removeItem(FUND_ACCOUNT_KEY);
    } catch {
      // nothing stored
    }
    inflight = null;
    set(EMPTY);
  },
  /** Ends the session on the server (best effort) and clears it here. */
  async logout(): Promise<void> {
    try {
      await logoutCall();
    } catch {
      // An expired session is logged out already.
    }
    sessionStore.clear();
  },
};

export function useSession(): SessionState {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.get);
}
