import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTrustProxy } from '../../server/config.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let staticDir: string;
beforeAll(() => {
  staticDir = mkdtempSync(join(tmpdir(), 'wastegen-headers-static-'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
});
afterAll(() => rmSync(staticDir, { recursive: true, force: true }));

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

/** The operation-log rows of logins, newest first, once the log write (after the answer) has landed. */
async function loginLogIps(server: TestServer, count: number): Promise<string[]> {
  for (;;) {
    const rows = await server.ctx.db
      .selectFrom('sys_log')
      .select('request_ip')
      .where('description', '=', '用户登录')
      .orderBy('id', 'desc')
      .execute();
    if (rows.length >= count) return rows.map((r) => String(r.request_ip));
    await new Promise((r) => setImmediate(r));
  }
}

describe('security headers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ staticDir });
  });
  afterAll(async () => server?.close());

  it('sends a Content-Security-Policy without inline script, frames for this origin only, and nosniff', async () => {
    for (const path of ['/', '/dashboard', '/lsPreview?lsId=50', '/api/health', '/api/no-such-call']) {
      const res = await fetch(new URL(path, server.url));
      const csp = directives(res.headers.get('content-security-policy'));
      expect(csp.get('script-src'), path).toEqual(["'self'"]);
      expect(csp.get('script-src-attr'), path).toEqual(["'none'"]);
      expect(csp.get('object-src'), path).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), path).toEqual(["'self'"]);
      expect(csp.get('default-src'), path).toEqual(["'self'"]);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), path).toBe('SAMEORIGIN');
      await res.arrayBuffer();
    }
  });

  it('answers a missing file of the build with 404, and a client route with the app page', async () => {
    for (const path of ['/assets/index-gone.js', '/assets/style-gone.css', '/no-such-file.js', '/assets/']) {
      const res = await fetch(new URL(path, server.url));
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toMatchObject({ status: 404, code: 'FILE_NOT_FOUND' });
    }
    const page = await fetch(new URL('/waste/stockIn/view/12?x=a.js', server.url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    await page.arrayBuffer();
  });

  it('believes no X-Forwarded-For unless TRUST_PROXY says so', async () => {
    const res = await server.api.loginRaw('admin', 'Waste@2026');
    expect(res.status).toBe(200);
    const forged = await server.api.request('GET', '/api/auth/code', { headers: { 'x-forwarded-for': '6.6.6.6' } });
    expect(forged.status).toBe(200);
    // A login sent with a forged address is logged with the socket's address.
    const cap = await server.api.get('/api/auth/code');
    const login = await server.api.request('POST', '/api/auth/login', {
      headers: { 'x-forwarded-for': '6.6.6.6' },
      form: { username: 'admin', password: await server.api.encrypt('Waste@2026'), code: '8888', uuid: String(cap.body.uuid) },
    });
    expect(login.status).toBe(200);
    const ips = await loginLogIps(server, 2);
    expect(ips[0]).toBe('127.0.0.1');
    expect(ips).not.toContain('6.6.6.6');
  });
});

describe('deployment settings', () => {
  it('widens frame-ancestors for wall displays and then drops X-Frame-Options, which cannot name them', async () => {
    const server = await startTestServer({ staticDir, frameAncestors: ['https://wall.example.cn'] });
    try {
      const res = await fetch(new URL('/', server.url));
      expect(directives(res.headers.get('content-security-policy')).get('frame-ancestors')).toEqual(["'self'", 'https://wall.example.cn']);
      expect(res.headers.get('x-frame-options')).toBeNull();
    } finally {
      await server.close();
    }
  });

  it('logs the forwarded address when the proxy is trusted', async () => {
    const server = await startTestServer({ staticDir, trustProxy: parseTrustProxy('127.0.0.1') });
    try {
      const cap = await server.api.get('/api/auth/code');
      const login = await server.api.request('POST', '/api/auth/login', {
        headers: { 'x-forwarded-for': '10.1.2.3' },
        form: { username: 'admin', password: await server.api.encrypt('Waste@2026'), code: '8888', uuid: String(cap.body.uuid) },
      });
      expect(login.status).toBe(200);
      expect((await loginLogIps(server, 1))[0]).toBe('10.1.2.3');
    } finally {
      await server.close();
    }
  });

  it('reads TRUST_PROXY as off, every hop, a hop count or a list of proxies', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    const hops = parseTrustProxy('2') as (a: string, hop: number) => boolean;
    expect([hops('x', 0), hops('x', 1), hops('x', 2)]).toEqual([true, true, false]);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8')).toBe('127.0.0.1,10.0.0.0/8');
  });
});
