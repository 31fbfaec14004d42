/**
 * The session token, kept in localStorage and mirrored into a `token` cookie (1 day) so that
 * plain links the server answers directly (downloads, previews) carry the session too.
 */
const KEY = 'token';
const COOKIE_MAX_AGE_S = 24 * 60 * 60;

export function getToken(): string | null {
  try {
    const stored = localStorage.getItem(KEY);
    if (stored) return stored;
  } catch {
    // Storage can be blocked (privacy mode); the cookie still works.
  }
  const match = document.cookie.match(/(?:^|;\s*)token=([^;]*)/);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

export function setToken(token: string): void {
  try {
    localStorage.setItem(KEY, token);
  } catch {
    // See getToken.
  }
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API needs a secure context, which plain-http LAN hosts lack
  document.cookie = `${KEY}=${encodeURIComponent(token)}; max-age=${COOKIE_MAX_AGE_S}; path=/; SameSite=Lax`;
}

export function clearToken(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // See getToken.
  }
  // biome-ignore lint/suspicious/noDocumentCookie: see setToken
  document.cookie = `${KEY}=; max-age=0; path=/; SameSite=Lax`;
}
