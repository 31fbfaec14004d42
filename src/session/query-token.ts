import { setToken } from './token';

/**
 * A token in the query string of any route is stored as the session token. It is
 * taken out of the address so that it is not bookmarked, shared or sent on as a Referer.
 */
export function captureQueryToken(): void {
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  if (!token) return;
  setToken(token.startsWith('Bearer ') ? token : `Bearer ${token}`);
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}
