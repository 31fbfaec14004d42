/** Plain cookies (the `size` and `sidebarStatus` settings, the token mirror). */
export function getCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const match = document.cookie.match(new RegExp(`(?:^|;\\s*)${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}=([^;]*)`));
  return match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
}

export function setCookie(name: string, value: string, maxAgeSeconds = 365 * 24 * 3600): void {
  if (typeof document === 'undefined') return;
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API needs a secure context, which plain-http LAN hosts lack
  document.cookie = `${name}=${encodeURIComponent(value)}; max-age=${maxAgeSeconds}; path=/; SameSite=Lax`;
}
