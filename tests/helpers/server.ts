import { constants, publicEncrypt, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { ServerConfig } from '../../server/config.js';
import { type RunningServer, startServer } from '../../server/start.js';
import { signRequest } from '../../src/shared/sign.js';

export const DEMO_PASSWORD = 'Waste@2026';
export const TEST_CAPTCHA = '8888';

export interface TestServer extends RunningServer {
  /** Unauthenticated client. */
  api: ApiClient;
  /** Logs in through the real captcha + RSA + login calls and returns a client carrying the token. */
  login(username: string, password?: string): Promise<ApiClient>;
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  raw: Response;
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly token: string | null = null,
    readonly signSecret: string | undefined = undefined,
  ) {}

  withToken(token: string | null): ApiClient {
    return new ApiClient(this.baseUrl, token, this.signSecret);
  }

  async request<T = any>(
    method: string,
    path: string,
    opts: {
      query?: Record<string, unknown>;
      json?: unknown;
      form?: Record<string, string>;
      body?: BodyInit;
      headers?: Record<string, string>;
    } = {},
  ): Promise<ApiResponse<T>> {
    const url = new URL(path, this.baseUrl);
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (v === undefined || v === null) continue;
      if (Array.isArray(v)) for (const x of v) url.searchParams.append(k, String(x));
      else url.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (this.token) headers.authorization = this.token;
    let body: BodyInit | undefined = opts.body;
    let signBody: Record<string, unknown> | unknown[] | undefined;
    if (opts.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.json);
      signBody = opts.json as Record<string, unknown>;
    } else if (opts.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(opts.form).toString();
      signBody = opts.form;
    }
    if (this.signSecret) {
      const q: Record<string, unknown> = {};
      for (const k of new Set(url.searchParams.keys())) {
        const all = url.searchParams.getAll(k);
        q[k] = all.length > 1 ? all : all[0];
      }
      const ts = String(Date.now());
      headers.timestamp = ts;
      headers.sign = signRequest(q, signBody, ts, this.signSecret);
    }
    const raw = await fetch(url, { method, headers, body });
    const type = raw.headers.get('content-type') ?? '';
    const parsed = type.includes('application/json')
      ? await raw.json()
      : type.startsWith('text/')
        ? await raw.text()
        : Buffer.from(await raw.arrayBuffer());
    return { status: raw.status, body: parsed as T, headers: raw.headers, raw };
  }

  get<T = any>(path: string, query?: Record<string, unknown>) {
    return this.request<T>('GET', path, { query });
  }
  post<T = any>(path: string, json?: unknown, query?: Record<string, unknown>) {
    return this.request<T>('POST', path, { json, query });
  }
  put<T = any>(path: string, json?: unknown) {
    return this.request<T>('PUT', path, { json });
  }
  delete<T = any>(path: string, json?: unknown) {
    return this.request<T>('DELETE', path, { json });
  }

  /** RSA-OAEP (SHA-256) with the server's public key, base64 — what every client must send. */
  async encrypt(plain: string): Promise<string> {
    const { body } = await this.get<string | { publicKey?: string }>('/api/auth/publicKey');
    const pem = typeof body === 'string' ? body : String(body.publicKey);
    return publicEncrypt({ key: pem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(plain)).toString(
      'base64',
    );
  }

  /** Changes the signed-in account's password through the real call; the server then ends its sessions. */
  async changePassword(oldPassword: string, newPassword: string): Promise<ApiResponse> {
    return this.request('POST', '/api/users/updatePass', {
      form: { oldPass: await this.encrypt(oldPassword), newPass: await this.encrypt(newPassword) },
    });
  }

  /** `extra`: further fields of the login form (rememberMe). */
  async loginRaw(username: string, password: string, code = TEST_CAPTCHA, extra: Record<string, string> = {}): Promise<ApiResponse> {
    const cap = await this.get('/api/auth/code');
    return this.request('POST', '/api/auth/login', {
      form: { username, password: await this.encrypt(password), code, uuid: String(cap.body.uuid), ...extra },
    });
  }
}

/** What the suites' global setup prepared (tests/helpers/database-template.setup.ts); nothing outside vitest. */
async function prepared(): Promise<{ snapshot: Blob | undefined; template: string }> {
  if (!process.env.VITEST) return { snapshot: undefined, template: '' };
  const { inject } = await import('vitest');
  const file = inject('pgliteSnapshot');
  snapshotBlob ??= file ? new Blob([readFileSync(file)]) : undefined;
  return { snapshot: snapshotBlob, template: inject('postgresTemplate') ?? '' };
}
let snapshotBlob: Blob | undefined;

/** The values of a dictionary's entries, in their order, as the client reads them. */
export async function dictValues(client: ApiClient, dictName: string): Promise<string[]> {
  const res = await client.get('/api/dictDetail', { dictName, page: 0, size: 999 });
  return (res.body.content as { value: string }[]).map((d) => d.value);
}

/**
 * A PostgreSQL database of its own for one test file, when TEST_DATABASE_URL points at a server: empty,
 * or with `seeded` a copy of the suite's migrated and seeded template when there is one.
 */
export async function freshPostgres({ seeded = false } = {}): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) return null;
  const name = `wg_test_${randomBytes(6).toString('hex')}`;
  const template = seeded ? (await prepared()).template : '';
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await c.end();
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const d = new pg.Client({ connectionString: admin });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
    },
  };
}

/**
 * Starts the real reference server on 127.0.0.1 and a free port, on a fresh in-memory PGlite
 * (or a fresh PostgreSQL database when TEST_DATABASE_URL is set), migrated and seeded.
 */
export async function startTestServer(overrides: Partial<ServerConfig> = {}): Promise<TestServer> {
  const pgdb = overrides.databaseUrl ? null : await freshPostgres({ seeded: true });
  const filesDir = overrides.filesDir ?? mkdtempSync(join(tmpdir(), 'wastegen-files-'));
  const server = await startServer(
    {
      host: '127.0.0.1',
      port: 0,
      dataDir: 'memory://',
      databaseUrl: pgdb?.url,
      captchaFixed: TEST_CAPTCHA,
      // Tests log in often from 127.0.0.1: a generous per-IP limit unless a test sets the real one.
      loginRateMax: 100_000,
      captchaRateMax: 100_000,
      logLevel: 'silent',
      staticDir: '/nonexistent',
      filesDir,
      ...overrides,
    },
    {},
    { snapshot: (await prepared()).snapshot },
  );
  const api = new ApiClient(server.url, null, server.config.signSecret);
  return {
    ...server,
    api,
    async login(username: string, password = DEMO_PASSWORD) {
      const res = await api.loginRaw(username, password);
      if (res.status !== 200 || res.body.status !== 200)
        throw new Error(`login ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
      return api.withToken(res.body.token);
    },
    async close() {
      await server.close();
      await pgdb?.drop();
      if (!overrides.filesDir) rmSync(filesDir, { recursive: true, force: true });
    },
  };
}

/** Two instances of the server on one fresh PostgreSQL database (TEST_DATABASE_URL must be set). */
export async function startTwoInstances(): Promise<{ a: TestServer; b: TestServer; close: () => Promise<void> }> {
  const database = await freshPostgres();
  if (!database) throw new Error('two instances need TEST_DATABASE_URL');
  const [a, b] = await Promise.all([startTestServer({ databaseUrl: database.url }), startTestServer({ databaseUrl: database.url })]);
  return {
    a,
    b,
    close: async () => {
      await a.close();
      await b.close();
      await database.drop();
    },
  };
}
