import { session } from '../contract/bare.gen';
import { notifierInstalled, notify } from '../notify/notifier';
import { api, RequestError } from '../request';
import type { ConfirmOptions } from '../shared/notice';
import { getToken, setToken } from './token';

/**
 * A `?token=` on any route (a filling-system link brings one) signs the browser in with it. It is taken
 * out of the address at once, whatever comes of it, so that it is not bookmarked, shared or sent on as a
 * Referer. Then:
 * - nobody is signed in here (no token, or one the server refuses): the link's token is taken;
 * - the link's token is of the signed-in account (another session of it): taken;
 * - it is of another account: the user is asked, naming both (当前已登录 A，是否切换为 B？), and only
 *   OK switches; cancel keeps the session and the link's token is dropped, never stored;
 * - the server refuses the link's token: nothing changes.
 *
 * Which account a token is for: its own `uid` claim tells when both tokens agree (no call needed); else
 * The session's information (`session.info`) with each token, in the Authorization header of a call to this server only (never
 * in an address), quietly (a refused token brings up no re-login dialog). Until the question is
 * answered the signed-in session is the one in use, and sessionStore.load waits for the answer
 * (queryTokenSettled), so no page loads one account and shows another.
 */

/** An account as the question names it. */
export interface TokenAccount {
  id: number;
  username: string;
  nickName?: string | null;
}

export interface QueryTokenDeps {
  /** The address now. */
  href: () => string;
  /** Shows this address instead, without loading it (history.replaceState). */
  replace: (url: string) => void;
  getToken: () => string | null;
  setToken: (token: string) => void;
  /** The account of a token, or null when the server refuses it; throws when the server cannot say. */
  whoIs: (token: string) => Promise<TokenAccount | null>;
  confirm: (options: ConfirmOptions) => Promise<boolean>;
}

const bearer = (token: string) => (/^Bearer\s/i.test(token) ? token : `Bearer ${token}`);

/** The account id a token claims (`uid`), read without checking it; undefined when it claims none. */
export function claimedUser(token: string): number | undefined {
  try {
    const part = token.replace(/^Bearer\s+/i, '').split('.')[1];
    if (!part) return undefined;
    const json = atob(
      part
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(part.length / 4) * 4, '='),
    );
    const uid = (JSON.parse(json) as { uid?: unknown }).uid;
    return typeof uid === 'number' && Number.isInteger(uid) ? uid : undefined;
  } catch {
    return undefined;
  }
}

const accountLabel = (a: TokenAccount) => (a.nickName && a.nickName !== a.username ? `${a.nickName}（${a.username}）` : a.username);

/** The question asked before the link's account replaces the signed-in one. */
export function switchQuestion(current: TokenAccount, next: TokenAccount): ConfirmOptions {
  return {
    title: '切换账号',
    content: `当前已登录 ${accountLabel(current)}，是否切换为 ${accountLabel(next)}？`,
    okText: '切换',
    cancelText: '取消',
  };
}

/**
 * Takes a `?token=` out of the address and decides whether it replaces the stored token. Resolves when
 * that is decided (at once unless the user must be asked or the server consulted); never rejects.
 */
export function takeQueryToken(deps: QueryTokenDeps): Promise<void> {
  const url = new URL(deps.href());
  const raw = url.searchParams.get('token');
  if (raw === null) return Promise.resolve();
  url.searchParams.delete('token');
  deps.replace(`${url.pathname}${url.search}${url.hash}`);
  if (!raw.trim()) return Promise.resolve();
  const offered = bearer(raw.trim());
  const current = deps.getToken();
  const uid = claimedUser(offered);
  if (!current || current === offered || (uid !== undefined && uid === claimedUser(current))) {
    deps.setToken(offered);
    return Promise.resolve();
  }
  return decide(deps, current, offered).catch(() => {
    // The server could not say whose tokens these are: the signed-in session stays.
  });
}

async function decide(deps: QueryTokenDeps, current: string, offered: string): Promise<void> {
  const [signedIn, linked] = await Promise.all([deps.whoIs(current), deps.whoIs(offered)]);
  // A token the server refuses signs nobody in.
  if (!linked) return;
  if (!signedIn || signedIn.id === linked.id) {
    deps.setToken(offered);
    return;
  }
  if (await deps.confirm(switchQuestion(signedIn, linked))) deps.setToken(offered);
}

/** The session's information (`session.info`) with this token: its account, or null when refused (401). */
async function whoIs(token: string): Promise<TokenAccount | null> {
  try {
    const info: { user?: TokenAccount } = await api(
      session.info,
      {},
      {
        headers: { Authorization: token },
        silent: true,
        skipAuthHandlers: true,
      },
    );
    return info.user ?? null;
  } catch (e) {
    if (e instanceof RequestError && e.status === 401) return null;
    throw e;
  }
}

let settled: Promise<void> = Promise.resolve();

/** Resolves once a `?token=` of this page load has been taken or declined. */
export function queryTokenSettled(): Promise<void> {
  return settled;
}

/**
 * Reads the `?token=` of the page's address (at startup, before the router reads the address). `confirm`
 * asks the switch question: by default the app's antd confirm, once the app has installed it.
 */
export function captureQueryToken(confirm: QueryTokenDeps['confirm'] = (o) => notifierInstalled().then(() => notify.confirm(o))): void {
  settled = takeQueryToken({
    href: () => window.location.href,
    replace: (url) => window.history.replaceState(window.history.state, '', url),
    getToken,
    setToken,
    whoIs,
    confirm,
  });
}
