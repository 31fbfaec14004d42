import { resolve } from 'node:path';
import { type LogFormat, logFormatOf } from './request-log.js';

export interface ServerConfig {
  host: string;
  port: number;
  /** PostgreSQL URL; when absent the embedded PGlite database in `dataDir/pglite` is used. */
  databaseUrl: string | undefined;
  /**
   * PostgreSQL only: connections this instance keeps open. Every instance holds its own pool, so the
   * instances together must stay below the server's max_connections, with room for the bus's one
   * listening connection per instance, migrations and administrators.
   */
  databasePoolSize: number;
  /** Root of everything the server keeps on disk (PGlite data, uploaded files). `memory://` for tests. */
  dataDir: string;
  filesDir: string;
  /** Built app to serve on the same origin; skipped when the folder does not exist. */
  staticDir: string;
  /** When set, every /api request must carry a valid `timestamp` + `sign` (see src/shared/sign.ts). */
  signSecret: string | undefined;
  /** Test hook: every captcha answer is this code. Off unless set. */
  captchaFixed: string | undefined;
  sessionIdleMs: number;
  /** How long a session signed in with 记住我 lives without the idle timeout (1 day). */
  rememberMeMs: number;
  /** The clock idle sessions are judged by; the system clock unless a test moves its own. */
  clock?: () => number;
  /** Login calls (login and login1 together) one IP may make per window, on each instance. */
  loginRateMax: number;
  /** Captcha images one IP may fetch per window, on each instance. */
  captchaRateMax: number;
  loginRateWindowMs: number;
  /** Failed passwords for one username within loginLockWindowMs that lock it for loginLockMs, on every instance. */
  loginLockFailures: number;
  loginLockWindowMs: number;
  loginLockMs: number;
  maxUploadBytes: number;
  /** Whether /api/docs serves the API document and its viewer (API_DOCS=0 turns it off). */
  apiDocs: boolean;
  /** Largest workbook a view's import accepts, in bytes (never more than maxUploadBytes). */
  importMaxBytes: number;
  /** Most bytes an imported workbook may unpack to, as declared by its zip directory and as actually inflated. */
  importMaxUnpackedBytes: number;
  /** Most data rows one import reads; more are refused before anything is written. */
  importMaxRows: number;
  /** Most columns of an import's header row. */
  importMaxColumns: number;
  /** Most unpacked bytes per compressed byte of an import's parts (past their first MB), declared or actual. */
  importMaxRatio: number;
  /**
   * Most characters of text in an import's sheet, a shared string counted for each cell that shows it:
   * what the rows and the result workbook hold in memory and on the wire grows with it.
   */
  importMaxTextChars: number;
  /** Statement time limit for SQL data views. */
  dataViewTimeoutMs: number;
  /** Most rows a data view answers; more are reported as truncated. */
  dataViewMaxRows: number;
  /** Most bytes of row text a data view answers; rows past it are cut, as past the row cap. */
  dataViewMaxBytes: number;
  /**
   * PostgreSQL only: the login SQL data views connect as (DATA_VIEW_DATABASE_URL), a role that may read the
   * allowed tables and nothing else. Unset: the login migration 0023 made for this database.
   */
  dataViewDatabaseUrl: string | undefined;
  /** List/count cache for /api/general/list; invalidated on every write to the view. */
  listCache: boolean;
  /** Views' rows held in memory to answer list misses (with the list cache). */
  listIndex: boolean;
  /**
   * Most rows held in memory for list misses (LIST_INDEX_ROWS), of every view and company scope of this
   * instance together: what bounds the rows' share of the heap, whatever the tables hold. A view or scope
   * larger than this is never read into memory; its lists are read from the database.
   */
  listIndexRows: number;
  /**
   * What the list cache keeps (LIST_CACHE_ROWS), counted in cached rows (a block's rows, a count as one):
   * about 0.7 KB of heap each, with the JSON of their pages. Unset: 150,000, or 80,000 beside rows in memory.
   */
  listCacheRows: number | undefined;
  logLevel: string;
  /** How log lines are written (LOG_FORMAT): `pretty` for people, `json` for collectors; a terminal gets `pretty`. */
  logFormat: LogFormat;
  /** Base address of the environmental authority's filling system (its order/danger and plan/query pages); unset: no entry. */
  gufeiBaseUrl: string | undefined;
  /** Host → entry site rules, `host=site,…` (src/shared/site.ts). */
  siteHosts: string | undefined;
  /** Which proxies to believe about the client's address: off unless set (hop count, or addresses and CIDRs). */
  trustProxy: boolean | string | ((address: string, hop: number) => boolean);
  /** Origins besides this one that may show the app in a frame (wall displays), for `frame-ancestors`. */
  frameAncestors: string[];
}

/**
 * Rows held in memory by default (LIST_INDEX_ROWS): about 150 MB of heap at the stock-in view's 1.2 KB a
 * row, its filters' marks and orders included (docs/deploy.md says how that was measured).
 */
export const LIST_INDEX_ROWS = 125_000;

export function configFromEnv(env: NodeJS.ProcessEnv = process.env, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const dataDir = overrides.dataDir ?? env.DATA_DIR ?? resolve('.data');
  const int = (v: string | undefined, d: number) => {
    const n = v === undefined || v === '' ? Number.NaN : Number(v);
    return Number.isFinite(n) ? n : d;
  };
  return {
    host: env.HOST || '127.0.0.1',
    port: int(env.PORT, 8080),
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolSize: Math.min(200, Math.max(2, int(env.DATABASE_POOL_SIZE, 10))),
    dataDir,
    filesDir: dataDir.startsWith('memory://') ? '' : resolve(dataDir, 'files'),
    staticDir: env.STATIC_DIR || resolve('dist'),
    signSecret: env.SIGN_SECRET || undefined,
    captchaFixed: env.CAPTCHA_FIXED || undefined,
    sessionIdleMs: int(env.SESSION_IDLE_MS, 20 * 60 * 1000),
    rememberMeMs: Math.max(60_000, int(env.REMEMBER_ME_MS, 24 * 60 * 60 * 1000)),
    loginRateMax: Math.max(1, int(env.LOGIN_RATE_MAX, 20)),
    captchaRateMax: Math.max(1, int(env.CAPTCHA_RATE_MAX, 40)),
    loginRateWindowMs: Math.max(1000, int(env.LOGIN_RATE_WINDOW_MS, 60 * 1000)),
    loginLockFailures: Math.max(1, int(env.LOGIN_LOCK_FAILURES, 5)),
    loginLockWindowMs: Math.max(1000, int(env.LOGIN_LOCK_WINDOW_MS, 15 * 60 * 1000)),
    loginLockMs: Math.max(1000, int(env.LOGIN_LOCK_MS, 15 * 60 * 1000)),
    maxUploadBytes: int(env.MAX_UPLOAD_BYTES, 10 * 1024 * 1024),
    apiDocs: env.API_DOCS !== '0',
    importMaxBytes: Math.max(1, int(env.IMPORT_MAX_BYTES, 10 * 1024 * 1024)),
    importMaxUnpackedBytes: Math.max(1, int(env.IMPORT_MAX_UNPACKED_BYTES, 100 * 1024 * 1024)),
    importMaxRows: Math.max(1, int(env.IMPORT_MAX_ROWS, 50_000)),
    importMaxColumns: Math.max(1, int(env.IMPORT_MAX_COLUMNS, 200)),
    importMaxRatio: Math.max(1, int(env.IMPORT_MAX_RATIO, 100)),
    importMaxTextChars: Math.max(1, int(env.IMPORT_MAX_TEXT_CHARS, 20 * 1024 * 1024)),
    dataViewTimeoutMs: int(env.DATA_VIEW_TIMEOUT_MS, 5000),
    dataViewMaxRows: Math.max(1, int(env.DATA_VIEW_MAX_ROWS, 5000)),
    dataViewMaxBytes: Math.max(1024, int(env.DATA_VIEW_MAX_BYTES, 8 * 1024 * 1024)),
    dataViewDatabaseUrl: env.DATA_VIEW_DATABASE_URL || undefined,
    listCache: env.LIST_CACHE !== '0',
    listIndex: env.LIST_INDEX !== '0',
    listIndexRows: Math.max(0, int(env.LIST_INDEX_ROWS, LIST_INDEX_ROWS)),
    listCacheRows: env.LIST_CACHE_ROWS ? Math.max(1, int(env.LIST_CACHE_ROWS, 150_000)) : undefined,
    logLevel: env.LOG_LEVEL || 'info',
    logFormat: logFormatOf(env.LOG_FORMAT),
    gufeiBaseUrl: env.GUFEI_BASE_URL || undefined,
    siteHosts: env.SITE_HOSTS || undefined,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    frameAncestors: (env.FRAME_ANCESTORS ?? '').split(/[\s,]+/).filter(Boolean),
    ...overrides,
  };
}

/**
 * TRUST_PROXY: unset or `false` believes no proxy (the socket's address is the client's); `true` believes
 * every hop; a number believes that many hops; anything else is a comma list of proxy addresses or CIDRs.
 */
export function parseTrustProxy(value: string | undefined): ServerConfig['trustProxy'] {
  const v = (value ?? '').trim();
  if (!v || v === 'false' || v === '0') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    return (_address: string, hop: number) => hop < hops;
  }
  return v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .join(',');
}
