/**
 * The app's request client: same origin, the stored token, and the signing secret baked in at
 * build time from the SIGN_SECRET environment variable (see vite.config.ts). The app installs
 * its 401/403 reactions with setAuthHandlers once the router exists.
 */
import { getToken } from '../session/token';
import { type ClientConfig, createClient } from './client';

export type { Method, QueryParams, RequestClient, RequestOptions } from './client';
export { DEFAULT_TIMEOUT_MS, FALLBACK_MESSAGE, RequestError, TIMEOUT_MESSAGE } from './client';

export const http = createClient({
  baseUrl: '',
  getToken,
  signSecret: import.meta.env.VITE_SIGN_SECRET || undefined,
});

export function setAuthHandlers(handlers: Pick<ClientConfig, 'onUnauthorized' | 'onForbidden'>): void {
  http.config.onUnauthorized = handlers.onUnauthorized;
  http.config.onForbidden = handlers.onForbidden;
}
