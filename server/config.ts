import { resolve } from 'node:path';

export interface ServerConfig {
  host: string;
  port: number;
  /** PostgreSQL URL; when absent the embedded PGlite database in `dataDir/pglite` is used. */
  databaseUrl: string | undefined;
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
  maxUploadBytes: number;
  /** Statement time limit for SQL data views. */
  dataViewTimeoutMs: number;
  /** Most rows a data view answers; more are reported as truncated. */
  dataViewMaxRows: number;
  /** List/count cache for /api/general/list; invalidated on every write to the view. */
  listCache: boolean;
  logLevel: string;
  /** Base address of the environmental authority's filling system (its order/danger and plan/query pages); unset: no entry. */
  gufeiBaseUrl: string | undefined;
  /** Host → entry site rules, `host=site,…` (src/shared/site.ts). */
  siteHosts: string | undefined;
}

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
    dataDir,
    filesDir: dataDir.startsWith('memory://') ? '' : resolve(dataDir, 'files'),
    staticDir: env.STATIC_DIR || resolve('dist'),
    signSecret: env.SIGN_SECRET || undefined,
    captchaFixed: env.CAPTCHA_FIXED || undefined,
    sessionIdleMs: int(env.SESSION_IDLE_MS, 20 * 60 * 1000),
    maxUploadBytes: int(env.MAX_UPLOAD_BYTES, 10 * 1024 * 1024),
    dataViewTimeoutMs: int(env.DATA_VIEW_TIMEOUT_MS, 5000),
    dataViewMaxRows: Math.max(1, int(env.DATA_VIEW_MAX_ROWS, 5000)),
    listCache: env.LIST_CACHE !== '0',
    logLevel: env.LOG_LEVEL || 'info',
    gufeiBaseUrl: env.GUFEI_BASE_URL || undefined,
    siteHosts: env.SITE_HOSTS || undefined,
    ...overrides,
  };
}
