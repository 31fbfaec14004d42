import type { Command } from 'commander';
import {
  compareText,
  decodeDefinition,
  isRecord,
  isUndesigned,
  screenFileName,
  sortKeysDeep,
  trimChar,
  viewFileName,
} from '../src/model/index.js';
import { signRequest } from '../src/shared/sign.js';
import { type DefinitionKind, KIND_DIRS } from './definitions-dir.js';
import { CliError, EXIT } from './errors.js';
import type { Project } from './project.js';

/**
 * The HTTP side of `wastegen pull` and `wastegen diff`: options, one JSON GET with the token and
 * the request signature, errors turned into CliErrors a user can act on, and fetching every view
 * and screen definition into memory (nothing touches the disk here).
 */

export interface RemoteFlags {
  server?: string;
  token?: string;
  signSecret?: string;
  concurrency?: string;
  timeout?: string;
}

export interface RemoteOptions {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  /** The Authorization value, `Bearer …`. */
  authorization?: string;
  signSecret?: string;
  concurrency: number;
  timeoutMs: number;
}

export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_TIMEOUT_MS = 30_000;

/** The options both commands share, with the environment variables they fall back on. */
export function addRemoteOptions(cmd: Command): Command {
  return cmd
    .option('--server <url>', 'base URL of the API server (env WASTEGEN_SERVER, or "server" in wastegen.config.json)')
    .option('--token <token>', 'session token, sent as Authorization (env WASTEGEN_TOKEN)')
    .option('--sign-secret <secret>', 'secret for request signing, when the server requires it (env WASTEGEN_SIGN_SECRET)')
    .option('--concurrency <n>', `detail requests in flight at once (default ${DEFAULT_CONCURRENCY})`)
    .option('--timeout <ms>', `time limit of each request in milliseconds (default ${DEFAULT_TIMEOUT_MS})`);
}

const SERVER_HINT = 'pass --server http://host:port, set WASTEGEN_SERVER, or put "server" in wastegen.config.json';

function positiveInt(text: string | undefined, fallback: number, flag: string, max: number): number {
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new CliError(`${flag} must be a whole number from 1 to ${max}, got "${text}"`, EXIT.usage);
  return n;
}

/** `project.server` already holds --server, WASTEGEN_SERVER or the config file's server, in that order. */
export function remoteOptions(project: Pick<Project, 'server'>, flags: RemoteFlags, env: NodeJS.ProcessEnv = process.env): RemoteOptions {
  const server = project.server?.trim();
  if (!server) throw new CliError('no server to talk to', EXIT.usage, SERVER_HINT);
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new CliError(`not a valid server URL: "${server}"`, EXIT.usage, SERVER_HINT);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CliError(`the server URL must start with http:// or https://, got "${server}"`, EXIT.usage, SERVER_HINT);
  const token = (flags.token ?? env.WASTEGEN_TOKEN ?? '').trim();
  const signSecret = flags.signSecret ?? env.WASTEGEN_SIGN_SECRET;
  return {
    baseUrl: `${url.origin}${trimChar(url.pathname, '/', 'end')}`,
    authorization: token ? (/^bearer\s/i.test(token) ? token : `Bearer ${token}`) : undefined,
    signSecret: signSecret || undefined,
    concurrency: positiveInt(flags.concurrency, DEFAULT_CONCURRENCY, '--concurrency', 64),
    timeoutMs: positiveInt(flags.timeout, DEFAULT_TIMEOUT_MS, '--timeout', 600_000),
  };
}

// ----- one request -----

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset by the server',
  EPIPE: 'connection closed by the server',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  UND_ERR_BODY_TIMEOUT: 'the answer stopped arriving',
  ERR_SSL_WRONG_VERSION_NUMBER: 'TLS failed (is it http rather than https?)',
};

/** The first error code along the `cause` chain, and the innermost message. */
function errorCause(e: unknown): { code?: string; message?: string } {
  let code: string | undefined;
  let message: string | undefined;
  for (let x: unknown = e, depth = 0; x && depth < 5; depth++) {
    const c = (x as { code?: unknown }).code;
    if (typeof c === 'string') code ??= c;
    const m = (x as { message?: unknown }).message;
    if (typeof m === 'string' && m) message = m;
    x = (x as { cause?: unknown }).cause;
  }
  return { code, message };
}

/** A short text of the server's answer for a message: its `message`, or the start of the body. */
function answerText(body: unknown, text: string): string {
  if (isRecord(body) && typeof body.message === 'string' && body.message) return body.message;
  const plain = text.replace(/\s+/g, ' ').trim();
  return plain.length > 120 ? `${plain.slice(0, 120)}…` : plain;
}

/** Thrown once any request fails; the other requests in flight are aborted and their errors dropped. */
export class RemoteClient {
  private readonly abort = new AbortController();

  constructor(readonly options: RemoteOptions) {}

  url(path: string, query: Record<string, string> = {}): URL {
    const url = new URL(this.options.baseUrl + path);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return url;
  }

  /** Stops every request still in flight (after the first failure). */
  cancel(): void {
    this.abort.abort();
  }

  getJson(path: string, query: Record<string, string> = {}): Promise<unknown> {
    return this.request('GET', path, query);
  }

  /** A POST with a JSON body (the writes of `wastegen push`). */
  postJson(path: string, body: Record<string, unknown>): Promise<unknown> {
    return this.request('POST', path, {}, body);
  }

  private async request(
    method: 'GET' | 'POST',
    path: string,
    query: Record<string, string>,
    payload?: Record<string, unknown>,
  ): Promise<unknown> {
    const url = this.url(path, query);
    const shown = `${this.options.baseUrl}${path}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (payload) headers['content-type'] = 'application/json';
    if (this.options.authorization) headers.authorization = this.options.authorization;
    if (this.options.signSecret) {
      const ts = String(Date.now());
      headers.timestamp = ts;
      headers.sign = signRequest(query, payload, ts, this.options.signSecret);
    }
    // One controller per request for its time limit and the cancel-all: on Node 20, AbortSignal.any
    // over AbortSignal.timeout can miss the timeout altogether.
    const request = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      request.abort();
    }, this.options.timeoutMs);
    const cancel = () => request.abort();
    this.abort.signal.addEventListener('abort', cancel);
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        method,
        headers,
        signal: request.signal,
        redirect: 'follow',
        ...(payload ? { body: JSON.stringify(payload) } : {}),
      });
      text = await res.text();
    } catch (e) {
      throw this.networkError(e, shown, timedOut);
    } finally {
      clearTimeout(timer);
      this.abort.signal.removeEventListener('abort', cancel);
    }
    const type = res.headers.get('content-type') ?? '';
    let body: unknown;
    let json = false;
    const trimmed = text.trimStart();
    if (!/html/i.test(type) && (trimmed.startsWith('{') || trimmed.startsWith('['))) {
      try {
        body = JSON.parse(text);
        json = true;
      } catch {
        // Reported below as a non-JSON answer.
      }
    }
    // Some servers of this family answer HTTP 200 with an error body `{ status: 401, message }`.
    const inBody = isRecord(body) && typeof body.status === 'number' && body.status >= 400 ? body.status : undefined;
    if (!res.ok || inBody !== undefined)
      throw this.httpError(res.ok ? (inBody as number) : res.status, json ? body : undefined, text, shown, method);
    if (!json)
      throw new CliError(
        `${shown} answered ${type ? `"${type.split(';')[0]}"` : 'without a content type'}, not JSON${trimmed ? `: ${answerText(undefined, text).slice(0, 60)}` : ''}`,
        EXIT.network,
        `is ${this.options.baseUrl} the API server? --server (or WASTEGEN_SERVER) must point at the server that answers /api/…, not at the app's dev server or a page under it`,
      );
    return body;
  }

  private networkError(e: unknown, shown: string, timedOut: boolean): CliError {
    if (this.abort.signal.aborted && !timedOut) return new CliError('cancelled', EXIT.network);
    const { code, message } = errorCause(e);
    const reason = timedOut
      ? `no answer within ${this.options.timeoutMs / 1000} s`
      : ((code && NETWORK_CODES[code]) ?? message ?? code ?? 'failed');
    return new CliError(
      `cannot reach the server at ${this.options.baseUrl} (${reason}) while fetching ${shown}`,
      EXIT.network,
      `is the server running? It is taken from --server, WASTEGEN_SERVER or wastegen.config.json; now ${this.options.baseUrl}${
        timedOut ? '. A slow server needs a larger --timeout' : ''
      }`,
    );
  }

  private httpError(status: number, body: unknown, text: string, shown: string, method: 'GET' | 'POST'): CliError {
    const said = answerText(body, text);
    const server = said ? `: ${said}` : '';
    if (status === 401) {
      const hint =
        'log in to the back office in a browser, copy the `token` value (developer tools → Application → Local Storage) and pass it with --token or WASTEGEN_TOKEN';
      return this.options.authorization
        ? new CliError(`the server rejected the token, or it has expired (HTTP 401${server})`, EXIT.network, hint)
        : new CliError(`the server needs a token (HTTP 401${server})`, EXIT.network, hint);
    }
    if (status === 403 && method === 'POST') {
      const permission = `${shown.includes('/api/screen/') ? 'screen' : 'generation'}:${shown.split('/').at(-1)}`;
      return new CliError(
        `the token's user may not change definitions (HTTP 403${server}) at ${shown}`,
        EXIT.network,
        `push needs generation:add, :edit, :design, :publish, :del and screen:add, :edit, :design, :del; use an account that has them (e.g. admin), missing here: ${permission.replace('update', 'edit').replace('delete', 'del')}`,
      );
    }
    if (status === 403) {
      const permission = shown.includes('/api/screen/') ? 'screen:list' : 'generation:list';
      return new CliError(
        `the token's user may not read definitions (HTTP 403${server}) at ${shown}`,
        EXIT.network,
        `pull and diff need the permissions generation:list and screen:list; use an account that has them (e.g. admin), missing here: ${permission}`,
      );
    }
    return new CliError(
      `${shown} failed with HTTP ${status}${server}`,
      EXIT.network,
      status === 404 ? `is ${this.options.baseUrl} the API server?` : undefined,
    );
  }
}

// ----- every definition -----

export interface RemoteDefinition {
  kind: DefinitionKind;
  id: number;
  name: string;
  /** Relative to definitionsDir, e.g. views/12-stock-in.json */
  rel: string;
  /** Decoded and key-sorted, as written to definitions/. */
  json: Record<string, unknown>;
  /** The file's bytes: JSON with 2-space indent and a final newline. */
  text: string;
  /** disTemplate null or empty: created but not designed yet. */
  undesigned: boolean;
  /** The server's save counter, sent back by push so that it cannot overwrite a save made since. */
  version?: number;
}

const KINDS = {
  view: { list: '/api/generation/list', detail: '/api/generation/detail' },
  screen: { list: '/api/screen/list', detail: '/api/screen/detail' },
} as const;

const LIST_SIZE = 9999;

function idOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

async function listIds(client: RemoteClient, kind: DefinitionKind): Promise<number[]> {
  const path = KINDS[kind].list;
  const ids: number[] = [];
  for (let page = 0; page < 1000; page++) {
    const body = await client.getJson(path, { page: String(page), size: String(LIST_SIZE) });
    const content = Array.isArray(body) ? body : isRecord(body) && Array.isArray(body.content) ? body.content : undefined;
    if (!content)
      throw new CliError(
        `${client.options.baseUrl}${path} answered JSON without a "content" list`,
        EXIT.network,
        `is ${client.options.baseUrl} the API server?`,
      );
    content.forEach((item, i) => {
      const id = isRecord(item) ? idOf(item.id) : undefined;
      if (id === undefined)
        throw new CliError(`${client.options.baseUrl}${path} answered an item without a valid id at content[${i}]`, EXIT.network);
      ids.push(id);
    });
    const total = isRecord(body) ? Number(body.totalElements) : Number.NaN;
    if (!content.length || !Number.isFinite(total) || ids.length >= total) break;
  }
  return [...new Set(ids)].sort((a, b) => a - b);
}

/** The file name of a decoded definition, from disMenu.componentName (and the screen type). */
export function definitionRel(kind: DefinitionKind, id: number, json: Record<string, unknown>): string {
  const menu = json.disMenu;
  const componentName = isRecord(menu) && typeof menu.componentName === 'string' ? menu.componentName : undefined;
  const type = idOf(json.type);
  return `${KIND_DIRS[kind]}/${kind === 'view' ? viewFileName(id, componentName) : screenFileName(id, componentName, type)}`;
}

export function toRemoteDefinition(kind: DefinitionKind, id: number, raw: Record<string, unknown>): RemoteDefinition {
  // The save counter belongs to the server, like ids and times of day, not to the definition's file.
  const { version, ...definition } = raw;
  const json = sortKeysDeep(decodeDefinition(definition)) as Record<string, unknown>;
  return {
    kind,
    id,
    name: typeof json.name === 'string' ? json.name : '',
    rel: definitionRel(kind, id, json),
    json,
    text: `${JSON.stringify(json, null, 2)}\n`,
    undesigned: isUndesigned(json),
    ...(typeof version === 'number' && Number.isSafeInteger(version) ? { version } : {}),
  };
}

/** Runs `work` over `items` with at most `limit` at once; the first failure cancels the rest. */
async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>, cancel: () => void): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  let firstError: unknown;
  const worker = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        results[i] = await work(items[i] as T);
      } catch (e) {
        if (!failed) {
          failed = true;
          firstError = e;
          cancel();
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failed) throw firstError;
  return results;
}

export interface FetchedDefinitions {
  definitions: RemoteDefinition[];
  views: number;
  screens: number;
}

/**
 * Every view and screen definition, fetched into memory: both lists, then each detail with
 * bounded concurrency. Any failure throws (a CliError) and nothing is returned.
 */
export async function fetchAllDefinitions(
  options: RemoteOptions,
  onProgress?: (done: number, total: number) => void,
): Promise<FetchedDefinitions> {
  const client = new RemoteClient(options);
  const cancel = () => client.cancel();
  const [viewIds, screenIds] = await pool(['view', 'screen'] as const, 2, (kind) => listIds(client, kind), cancel);
  const jobs = [
    ...(viewIds ?? []).map((id) => ({ kind: 'view' as const, id })),
    ...(screenIds ?? []).map((id) => ({ kind: 'screen' as const, id })),
  ];
  let done = 0;
  onProgress?.(0, jobs.length);
  const definitions = await pool(
    jobs,
    options.concurrency,
    async ({ kind, id }) => {
      const path = KINDS[kind].detail;
      const body = await client.getJson(path, { id: String(id) });
      if (!isRecord(body)) throw new CliError(`${options.baseUrl}${path}?id=${id} answered JSON that is not an object`, EXIT.network);
      onProgress?.(++done, jobs.length);
      return toRemoteDefinition(kind, id, 'id' in body ? body : { ...body, id });
    },
    cancel,
  );
  definitions.sort((a, b) => compareText(a.rel, b.rel));
  return { definitions, views: viewIds?.length ?? 0, screens: screenIds?.length ?? 0 };
}

/**
 * definitions/data-views.json: the id and name of every data view of the server pulled from, so
 * that push can find the target's data view of the same name for each chart.
 */
export const DATA_VIEWS_FILE = 'data-views.json';

export const dataViewsText = (views: readonly { id: number; name: string }[]) =>
  `${JSON.stringify(
    views.map((v) => ({ id: v.id, name: v.name })),
    null,
    2,
  )}\n`;

/** The data views of a server (id and name): what screens' charts name, matched across servers by name. */
export async function fetchDataViews(options: RemoteOptions): Promise<{ id: number; name: string }[]> {
  const client = new RemoteClient(options);
  const path = '/api/data/list';
  const body = await client.getJson(path, { page: '0', size: String(LIST_SIZE) });
  const content = isRecord(body) && Array.isArray(body.content) ? body.content : Array.isArray(body) ? body : undefined;
  if (!content) throw new CliError(`${options.baseUrl}${path} answered JSON without a "content" list`, EXIT.network);
  return content
    .flatMap((item) => {
      const id = isRecord(item) ? idOf(item.id) : undefined;
      return id !== undefined && isRecord(item) && typeof item.name === 'string' ? [{ id, name: item.name }] : [];
    })
    .sort((a, b) => a.id - b.id);
}
