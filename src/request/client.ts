/**
 * The one request layer every call goes through: token header, query and body encoding,
 * `timestamp` + `sign` headers (src/shared/sign.ts), timeout, and error normalisation.
 *
 * It holds no app state: the token, the signing secret, the error toast and the 401/403 reactions
 * are injected, so the same client runs in the browser, in unit tests and in the CLI.
 *
 * Every failed call is reported once, then rejected: a 401 to onUnauthorized
 * (the re-login confirm), a 403 to onForbidden (/401), anything else to onError (the server
 * message for 5 s, 接口请求失败 without one, 网络请求超时 on timeout).
 */
import type { ErrorCode } from '../shared/error-catalogue';
import { type SignInput, signRequest } from '../shared/sign';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
export type QueryParams = Record<string, unknown>;

export interface RequestOptions {
  method?: Method;
  /** Query parameters; arrays go out unindexed (`a=1&a=2`), null and undefined are left out. */
  params?: QueryParams;
  /** JSON body. */
  data?: unknown;
  /** Form-encoded body (`application/x-www-form-urlencoded`). */
  form?: Record<string, unknown>;
  /** Multipart body; only its query and timestamp are signed. */
  multipart?: FormData;
  headers?: Record<string, string>;
  /** Milliseconds before the call is abandoned with 网络请求超时. */
  timeout?: number;
  /**
   * How to read a successful answer; JSON answers are always parsed as JSON unless `blob` is asked for.
   * `response` resolves with the unread Response (headers included), e.g. for downloads.
   */
  responseType?: 'json' | 'text' | 'blob' | 'response';
  signal?: AbortSignal;
  /** For callers that show failures themselves (login page, forms): no error toast. 401/403 still react. */
  silent?: boolean;
  /** No 401 confirm and no 403 redirect either, for calls where those are expected (logout of an expired session). */
  skipAuthHandlers?: boolean;
}

export interface ClientConfig {
  /** Prefix for relative URLs; '' means same origin. */
  baseUrl?: string;
  getToken?: () => string | null | undefined;
  /** Signing is on only when this is a non-empty string. */
  signSecret?: string;
  timeout?: number;
  onUnauthorized?: (error: RequestError, options: RequestOptions) => void;
  onForbidden?: (error: RequestError, options: RequestOptions) => void;
  /** Any other failure (status, timeout, network) of a call that is not `silent`. */
  onError?: (error: RequestError, options: RequestOptions) => void;
  fetch?: typeof fetch;
  now?: () => number;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

/** The request timeout the configuration gives (VITE_REQUEST_TIMEOUT_MS when building): a positive number of ms, else 30 s. */
/**
 * A path of the app's own (not `//host` nor `/\host`, which browsers read as another host), judged
 * without tabs and line breaks, which browsers drop from an address before reading it.
 */
const APP_PATH = /^\/(?![/\\])/;

export function requestTimeoutMs(configured: unknown): number {
  const ms = typeof configured === 'string' && configured.trim() === '' ? Number.NaN : Number(configured);
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms) : DEFAULT_TIMEOUT_MS;
}
export const TIMEOUT_MESSAGE = '网络请求超时';
/** A failure without a status or a server message (an unreachable server included). */
export const FALLBACK_MESSAGE = '接口请求失败';

/** What a failed call or load says: its own message, else 接口请求失败. */
export function failureText(e: unknown): string {
  return e instanceof Error && e.message ? e.message : FALLBACK_MESSAGE;
}

/** A failed call: HTTP status (0 when nothing came back) and the server's answer when there was one. */
export class RequestError extends Error {
  /** When the failed call was sent (the client's clock, ms); set by the client before reporting. */
  sentAt?: number;
  /** The catalogue code of the server's refusal, when its answer carried one. */
  readonly code: ErrorCode | undefined;
  constructor(
    message: string,
    readonly status: number,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'RequestError';
    const code = body && typeof body === 'object' ? (body as { code?: unknown }).code : undefined;
    this.code = isCodeShaped(code) ? code : undefined;
  }
}

/**
 * A refusal's code as the server names it (upper-case words joined by `_`). The catalogue itself is not
 * loaded here: the client goes with every page, the login route's first, and needs only the shape.
 */
const isCodeShaped = (v: unknown): v is ErrorCode => typeof v === 'string' && /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(v);

function stringValue(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

/** Appends params the way the server will read them back: repeated keys for arrays, nothing for null/undefined. */
export function appendParams(search: URLSearchParams, params: Record<string, unknown> | undefined): void {
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (item !== undefined && item !== null) search.append(key, stringValue(item));
    } else {
      search.append(key, stringValue(value));
    }
  }
}

/**
 * What the server's parser makes of encoded pairs: a string per key, an array for repeated keys.
 * Signing this (rather than the caller's object) guarantees both sides hash the same values.
 */
export function parsedPairs(search: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(search.keys())) {
    const all = search.getAll(key);
    out[key] = all.length > 1 ? all : (all[0] as string);
  }
  return out;
}

function splitUrl(url: string): { path: string; search: URLSearchParams } {
  const q = url.indexOf('?');
  return q < 0 ? { path: url, search: new URLSearchParams() } : { path: url.slice(0, q), search: new URLSearchParams(url.slice(q + 1)) };
}

function messageOf(body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as { status?: unknown; code?: unknown; message?: unknown };
    if ((b.status !== undefined || b.code !== undefined) && typeof b.message === 'string' && b.message) return b.message;
  }
  return FALLBACK_MESSAGE;
}

export interface Prepared {
  url: string;
  init: RequestInit & { headers: Record<string, string> };
}

export interface RequestClient {
  request<T = unknown>(url: string, options?: RequestOptions): Promise<T>;
  get<T = unknown>(url: string, params?: QueryParams, options?: RequestOptions): Promise<T>;
  post<T = unknown>(url: string, data?: unknown, options?: RequestOptions): Promise<T>;
  put<T = unknown>(url: string, data?: unknown, options?: RequestOptions): Promise<T>;
  delete<T = unknown>(url: string, data?: unknown, options?: RequestOptions): Promise<T>;
  postForm<T = unknown>(url: string, form: Record<string, unknown>, options?: RequestOptions): Promise<T>;
  /** Builds the URL and fetch init (headers, body, signature) without sending; exported for tests. */
  prepare(url: string, options?: RequestOptions): Prepared;
  config: ClientConfig;
}

export function createClient(config: ClientConfig = {}): RequestClient {
  function prepare(url: string, options: RequestOptions = {}): Prepared {
    const { path, search } = splitUrl(url);
    appendParams(search, options.params);
    const headers: Record<string, string> = {};
    const token = config.getToken?.();
    // The session goes only to the app's own calls: an address from a definition that names another
    // host (`https://…`, `//…`, `/\…`) is sent without it.
    if (token && APP_PATH.test(path.replace(/[\t\n\r]/g, ''))) headers.Authorization = token;

    let body: BodyInit | undefined;
    let signBody: SignInput;
    if (options.multipart) {
      body = options.multipart;
    } else if (options.form) {
      const form = new URLSearchParams();
      appendParams(form, options.form);
      headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
      body = form.toString();
      signBody = parsedPairs(form);
    } else if (options.data !== undefined) {
      headers['Content-Type'] = 'application/json;charset=UTF-8';
      body = JSON.stringify(options.data);
      // Sign what the server will parse, so Dates, undefined fields and toJSON() agree on both sides.
      const parsed: unknown = JSON.parse(body);
      signBody = typeof parsed === 'object' && parsed !== null ? (parsed as SignInput) : undefined;
    }

    const timestamp = String((config.now ?? Date.now)());
    headers.timestamp = timestamp;
    if (config.signSecret) headers.sign = signRequest(parsedPairs(search), signBody, timestamp, config.signSecret);
    Object.assign(headers, options.headers);

    const qs = search.toString();
    return {
      url: `${config.baseUrl ?? ''}${path}${qs ? `?${qs}` : ''}`,
      init: { method: options.method ?? 'GET', headers, body },
    };
  }

  /** Tells the app about a failure once; a throwing hook must not hide the original error. */
  function report(error: RequestError, options: RequestOptions): void {
    try {
      if (error.status === 401 || error.status === 403) {
        if (options.skipAuthHandlers) return;
        if (error.status === 401) config.onUnauthorized?.(error, options);
        else config.onForbidden?.(error, options);
      } else if (!options.silent) {
        config.onError?.(error, options);
      }
    } catch (e) {
      console.error(e);
    }
  }

  async function send(target: string, init: RequestInit, options: RequestOptions): Promise<unknown> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        controller.abort();
      },
      options.timeout ?? config.timeout ?? DEFAULT_TIMEOUT_MS,
    );
    const outer = options.signal;
    const forward = () => controller.abort();
    if (outer?.aborted) controller.abort();
    outer?.addEventListener('abort', forward);
    try {
      let response: Response;
      try {
        response = await (config.fetch ?? fetch)(target, { ...init, signal: controller.signal });
      } catch (e) {
        if (timedOut) throw new RequestError(TIMEOUT_MESSAGE, 0);
        if (outer?.aborted) throw e;
        throw new RequestError(FALLBACK_MESSAGE, 0);
      }
      const type = response.headers.get('content-type') ?? '';
      let body: unknown;
      if (response.ok && options.responseType === 'response') return response;
      try {
        if (response.ok && options.responseType === 'blob') body = await response.blob();
        else if (type.includes('json')) body = await response.json();
        else body = await response.text();
      } catch (e) {
        if (timedOut) throw new RequestError(TIMEOUT_MESSAGE, 0);
        if (outer?.aborted) throw e;
        if (!response.ok) body = undefined;
        else throw new RequestError(FALLBACK_MESSAGE, response.status, e);
      }
      if (!response.ok) throw new RequestError(messageOf(body), response.status, body);
      return body;
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', forward);
    }
  }

  async function request<T>(url: string, options: RequestOptions = {}): Promise<T> {
    const { url: target, init } = prepare(url, options);
    const sentAt = (config.now ?? Date.now)();
    try {
      return (await send(target, init, options)) as T;
    } catch (e) {
      // A caller's own abort is not a failure to report.
      if (e instanceof RequestError) {
        e.sentAt ??= sentAt;
        report(e, options);
      }
      throw e;
    }
  }

  return {
    config,
    prepare,
    request,
    get: (url, params, options) => request(url, { ...options, method: 'GET', params }),
    post: (url, data, options) => request(url, { ...options, method: 'POST', data }),
    put: (url, data, options) => request(url, { ...options, method: 'PUT', data }),
    delete: (url, data, options) => request(url, { ...options, method: 'DELETE', data }),
    postForm: (url, form, options) => request(url, { ...options, method: 'POST', form }),
  };
}
