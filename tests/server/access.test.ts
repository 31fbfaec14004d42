import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_DOC_PATH, renderAccessDoc } from '../../server/access-doc.js';
import { accessOf, routeTable } from '../../server/app.js';
import { refusal } from '../helpers/refusal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** What the app's own page holds, so an answer of it can be told from an API answer. */
const APP_PAGE_MARK = 'wastegen-app-page-for-access-test';

interface RawAnswer {
  status: number;
  type: string;
  text: string;
}

/** Sends the path exactly as written: no client-side normalising of dot segments, slashes or escapes. */
function raw(base: string, method: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const u = new URL(base);
  const body = method === 'GET' || method === 'HEAD' ? undefined : '{}';
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: u.hostname,
        port: u.port,
        method,
        path,
        headers: { ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

/** A concrete address for a route pattern: every parameter becomes 1. */
const concrete = (url: string) => url.replace(/:[A-Za-z_][A-Za-z0-9_]*/g, '1').replace(/\*$/, 'x');

/** The same address spelled the ways a router may read alike but a text test would not. */
function spellings(path: string): string[] {
  const rest = path.slice('/api'.length);
  const firstLetter = rest.match(/[a-z]/i);
  const encodedLetter =
    firstLetter && firstLetter.index !== undefined
      ? `/api${rest.slice(0, firstLetter.index)}%${rest.charCodeAt(firstLetter.index).toString(16)}${rest.slice(firstLetter.index + 1)}`
      : path;
  return [
    path,
    `/%61pi${rest}`,
    `/%61%70%69${rest}`,
    encodedLetter,
    `/API${rest}`,
    `/Api${rest.toUpperCase()}`,
    `//api${rest}`,
    `/api/${rest}`,
    `/x/../api${rest}`,
    `/api/./${rest.slice(1)}`,
    `/./api${rest}`,
    `/api%2f${rest.slice(1)}`,
    `${path}/`,
    `${path};x=1`,
    `${path}?token=`,
  ];
}

/** A refusal, a missing route, or the app's own page: anything else means a handler answered. */
function refusedOrElsewhere(a: RawAnswer, allowed: number[]): boolean {
  if (a.status === 200 && a.type.startsWith('text/html') && a.text.includes(APP_PAGE_MARK)) return true;
  if (!allowed.includes(a.status)) return false;
  // A refusal is the API's own JSON error, never a handler's payload.
  if (!a.type.includes('application/json')) return a.status === 404;
  const body = JSON.parse(a.text) as { status?: number; message?: string };
  return typeof body.message === 'string' && body.status === a.status;
}

let server: TestServer;
let staticDir: string;

beforeAll(async () => {
  staticDir = mkdtempSync(join(tmpdir(), 'wastegen-access-static-'));
  writeFileSync(join(staticDir, 'index.html'), `<!doctype html><title>${APP_PAGE_MARK}</title>`);
  server = await startTestServer({ staticDir });
});

afterAll(async () => {
  await server?.close();
  rmSync(staticDir, { recursive: true, force: true });
});

describe('access is declared by every route and decided after routing', () => {
  it('refuses a route that declares no access, or more than one kind', () => {
    expect(() => accessOf({})).toThrow(/exactly one/);
    expect(() => accessOf({ public: true, permission: 'user:list' })).toThrow(/exactly one/);
    expect(accessOf({ session: true })).toBe('session');
    expect(accessOf({ permission: ['a', 'b'] })).toBe('permission');
  });

  it('lists every API route with exactly one declaration', () => {
    const api = routeTable(server.app).filter((r) => r.url.startsWith('/api'));
    expect(api.length).toBeGreaterThan(150);
    for (const r of api) expect(() => accessOf(r.config), `${r.method} ${r.url}`).not.toThrow();
    // The calls a visitor needs before logging in are public, and nothing that reads or changes accounts is.
    const publicUrls = new Set(api.filter((r) => r.config.public).map((r) => r.url));
    expect(publicUrls.has('/api/auth/login')).toBe(true);
    for (const url of ['/api/users', '/api/roles', '/api/menus', '/api/pwd/reset', '/api/general/list/:viewId']) {
      expect(publicUrls.has(url), url).toBe(false);
    }
  });

  it('is documented route by route: the committed table equals the running route table', () => {
    const committed = readFileSync(ACCESS_DOC_PATH, 'utf8');
    expect(committed, `${ACCESS_DOC_PATH} is stale: run npm run docs:access`).toBe(renderAccessDoc(routeTable(server.app)));
  });

  it('answers no call of a non-public route without a token, however the address is spelled', async () => {
    const routes = routeTable(server.app).filter((r) => r.url.startsWith('/api') && !r.config.public && r.method !== 'HEAD');
    const failures: string[] = [];
    let sent = 0;
    for (const r of routes) {
      for (const path of spellings(concrete(r.url))) {
        const a = await raw(server.url, r.method, path);
        sent++;
        if (!refusedOrElsewhere(a, [401, 404])) failures.push(`${r.method} ${path} → ${a.status} ${a.text.slice(0, 80)}`);
      }
    }
    expect(sent).toBeGreaterThan(routes.length * 10);
    expect(failures).toEqual([]);
  });

  it('answers no permission route to an account without roles, however the address is spelled', async () => {
    const guest = await server.login('guest');
    const routes = routeTable(server.app).filter(
      (r) => r.url.startsWith('/api') && r.config.permission !== undefined && r.method !== 'HEAD',
    );
    expect(routes.length).toBeGreaterThan(50);
    const failures: string[] = [];
    for (const r of routes) {
      for (const path of spellings(concrete(r.url))) {
        const a = await raw(server.url, r.method, path, { authorization: guest.token ?? '' });
        if (!refusedOrElsewhere(a, [403, 404])) failures.push(`${r.method} ${path} → ${a.status} ${a.text.slice(0, 80)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses the encoded spellings that used to slip past, with the login message', async () => {
    for (const path of ['/%61pi/users', '/%61pi/roles', '/%61pi/menus', '/API/users', '//api/users', '/x/../api/users']) {
      const a = await raw(server.url, 'GET', path);
      expect([401, 404, 200], path).toContain(a.status);
      if (a.status === 401) expect(JSON.parse(a.text)).toEqual(refusal(401, 'NOT_SIGNED_IN'));
      if (a.status === 200) expect(a.text).toContain(APP_PAGE_MARK);
    }
    // The encoded spelling reaches the users route itself: the refusal comes from the access check.
    expect((await raw(server.url, 'GET', '/%61pi/users')).status).toBe(401);
    expect((await raw(server.url, 'POST', '/%61pi/pwd/reset')).status).toBe(401);
  });

  it('answers an unknown API address with a JSON 404 and an unknown page address with the app page', async () => {
    const missing = await raw(server.url, 'GET', '/api/no-such-call');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toEqual(refusal(404, 'ROUTE_NOT_FOUND'));
    const encodedMissing = await raw(server.url, 'GET', '/%61pi/no-such-call');
    expect(encodedMissing.status).toBe(404);
    const page = await raw(server.url, 'GET', '/system/user');
    expect(page.status).toBe(200);
    expect(page.text).toContain(APP_PAGE_MARK);
  });
});

describe('accounts that must first change their password or accept the agreement', () => {
  it('may call only what resolves their state; everything else answers 403 with the reason', async () => {
    const expiredLogin = await server.api.loginRaw('expired', 'Waste@2026');
    expect(expiredLogin.body.status).toBe(200);
    const expired = server.api.withToken(expiredLogin.body.token);
    const refused = await expired.get('/api/users', { page: 0, size: 10 });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject(refusal(403, 'PASSWORD_EXPIRED'));
    for (const path of ['/api/dashboard/home', '/api/general/list/12', '/api/messages/unread']) {
      const r = await expired.get(path);
      expect([403, 404], path).toContain(r.status);
      if (r.status === 403) expect(r.body.code, path).toBe('PASSWORD_EXPIRED');
    }
    expect((await expired.get('/api/auth/info')).status).toBe(200);
    expect((await expired.get('/api/menus/build')).status).toBe(200);
    expect((await expired.get('/api/pwd/check')).body.pwdExpired).toBe(true);

    const newcomerLogin = await server.api.loginRaw('newcomer', 'Waste@2026');
    expect(newcomerLogin.body.status).toBe(10001);
    const newcomer = server.api.withToken(newcomerLogin.body.token);
    const held = await newcomer.get('/api/auth/info');
    expect(held.status).toBe(200);
    const blocked = await newcomer.get('/api/users', { page: 0, size: 10 });
    expect(blocked.status).toBe(403);
    expect(blocked.body).toMatchObject(refusal(403, 'AGREEMENT_PENDING'));
    // Accepting the agreement opens the other calls at once, on the same token.
    expect((await newcomer.get('/api/guFeiUrl/enter', { deptCode: newcomerLogin.body.user.deptCode })).status).toBe(200);
    const after = await newcomer.get('/api/menus/build');
    expect(after.status).toBe(200);
    const messages = await newcomer.get('/api/auth/info');
    expect(messages.status).toBe(200);
  });
});
