/**
 * The app's request client: same origin, the stored token, and the signing secret baked in at
 * build time from the SIGN_SECRET environment variable (see vite.config.ts). Failures show as error
 * toasts for 5 s unless the call is `silent`; the app installs its 401/403
 * reactions with setAuthHandlers once the router exists (src/app/auth-handlers.ts).
 */
import { ERROR_SECONDS, notify } from '../notify/notifier';
import { getToken } from '../session/token';
import { contractCaller } from './api';
import { type ClientConfig, createClient, requestTimeoutMs } from './client';
import { createDownload, saveBlob } from './download';
import { downloadProgress } from './download-progress';

export type { CallOptions } from './api';
export type { ClientConfig, Method, QueryParams, RequestClient, RequestOptions } from './client';
export { DEFAULT_TIMEOUT_MS, FALLBACK_MESSAGE, failureText, RequestError, requestTimeoutMs, TIMEOUT_MESSAGE } from './client';
export type { DownloadProgress } from './download';
export { DOWNLOAD_EMPTY_MESSAGE, filenameFromDisposition } from './download';
export { downloadProgress } from './download-progress';
export { type Load, type Lookup, useLookup } from './use-lookup';

export const http = createClient({
  baseUrl: '',
  getToken,
  signSecret: import.meta.env.VITE_SIGN_SECRET || undefined,
  timeout: requestTimeoutMs(import.meta.env.VITE_REQUEST_TIMEOUT_MS),
  onError: (error) => notify.error(error.message, ERROR_SECONDS),
});

/**
 * `download(url, params, fileName?)`: fetches a file with the session token and saves it under the
 * server's file name (else `fileName`); JSON error answers and empty files are reported instead. While
 * the file arrives, downloadProgress holds how far it is (the 文件下载 dialog shows it).
 */
export const download = createDownload({
  client: http,
  notifier: notify,
  save: saveBlob,
  errorSeconds: ERROR_SECONDS,
  onProgress: downloadProgress.set,
});

export function setAuthHandlers(handlers: Pick<ClientConfig, 'onUnauthorized' | 'onForbidden'>): void {
  http.config.onUnauthorized = handlers.onUnauthorized;
  http.config.onForbidden = handlers.onForbidden;
}

/** Calls a declaration of the API contract (src/contract) through the app's client. */
export const api = contractCaller(http);
