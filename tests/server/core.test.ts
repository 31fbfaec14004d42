import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest } from '../../src/shared/sign.js';
import { refusal } from '../helpers/refusal.js';
import { ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

describe('error shape and body parsing', () => {
  let server: TestServer;
  let admin: ApiClient;
  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.login('admin');
  });
  afterAll(() => server?.close());

  it('answers unknown API paths with a JSON 404', async () => {
    const r = await server.api.get('/api/no/such/call');
    expect(r.status).toBe(404);
    expect(r.body).toEqual(refusal(404, 'ROUTE_NOT_FOUND'));
  });

  it('answers 401 with {status, message} without a token, and for a forged token', async () => {
    const r = await server.api.get('/api/auth/info');
    expect(r.status).toBe(401);
    expect(r.body.status).toBe(401);
    expect(typeof r.body.message).toBe('string');
    const forged = await server.api.withToken('Bearer eyJhbGciOiJIUzI1NiJ9.eyJ1aWQiOjF9.c2lnbmF0dXJl').get('/api/auth/info');
    expect(forged.status).toBe(401);
  });

  it('turns malformed JSON into a 400, not a 500', async () => {
    const r = await admin.request('POST', '/api/users', { body: '{"username": ', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(refusal(400, 'BODY_NOT_JSON'));
  });

  it('turns wrong types into a 400 naming the field', async () => {
    const r = await admin.post('/api/users', { username: 12, nickName: ['x'] });
    expect(r.status).toBe(400);
    expect(r.body.status).toBe(400);
    expect(r.body.code).toBe('INVALID_INPUT');
    expect(r.body.message).toMatch(/username|nickName|用户名|昵称/);
  });
});

describe('request signing (SIGN_SECRET)', () => {
  const secret = 'core-test-secret';
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ signSecret: secret });
  });
  afterAll(() => server?.close());

  const raw = (path: string, headers: Record<string, string>) => fetch(new URL(path, server.url), { headers });

  it('accepts a correctly signed request (the test client signs like the app)', async () => {
    const r = await server.api.get('/api/init/check', { a: 'x', list: ['1', '2'] });
    expect(r.status).toBe(200);
  });

  it('rejects a missing, wrong or stale signature with 400', async () => {
    const missing = await raw('/api/init/check', {});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual(refusal(400, 'SIGNATURE_MISSING'));

    const ts = String(Date.now());
    const wrong = await raw('/api/init/check?a=1', { timestamp: ts, sign: signRequest({ a: '2' }, undefined, ts, secret) });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual(refusal(400, 'SIGNATURE_INVALID'));

    const old = String(Date.now() - 6 * 60 * 1000);
    const stale = await raw('/api/init/check?a=1', { timestamp: old, sign: signRequest({ a: '1' }, undefined, old, secret) });
    expect(stale.status).toBe(400);
    expect(await stale.json()).toEqual(refusal(400, 'SIGNATURE_EXPIRED'));

    const good = await raw('/api/init/check?a=1', { timestamp: ts, sign: signRequest({ a: '1' }, undefined, ts, secret) });
    expect(good.status).toBe(200);
  });

  it('covers the body: a signed JSON body that is altered in transit is refused', async () => {
    const admin = await server.login('admin');
    const ts = String(Date.now());
    const sign = signRequest(undefined, { label: '甲', value: '1' }, ts, secret);
    const r = await fetch(new URL('/api/dictDetail', server.url), {
      method: 'POST',
      headers: { authorization: admin.token as string, 'content-type': 'application/json', timestamp: ts, sign },
      body: JSON.stringify({ label: '乙', value: '1' }),
    });
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual(refusal(400, 'SIGNATURE_INVALID'));
  });
});

describe('persistence across a restart (embedded PGlite in a folder)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wastegen-persist-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps data, keys and sessions when the server restarts on the same folder', async () => {
    if (process.env.TEST_DATABASE_URL) return; // this case is about the embedded database's folder
    const first = await startTestServer({ dataDir: dir });
    const admin = await first.login('admin');
    const created = await admin.post('/api/users', {
      username: 'persisted',
      nickName: '持久化用户',
      phone: '13912345678',
      email: 'persisted@example.com',
      sex: '男',
      deptId: 3,
      job: '测试',
      roles: [],
    });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    const key1 = (await first.api.get('/api/auth/publicKey')).body;
    await first.close();

    const second = await startTestServer({ dataDir: dir });
    try {
      const again = new ApiClient(second.url, admin.token);
      const users = await again.get('/api/users', { blurry: 'persisted', page: 0, size: 10 });
      expect(users.status).toBe(200);
      expect(users.body.content.map((u: { username: string }) => u.username)).toContain('persisted');
      expect((await second.api.get('/api/auth/publicKey')).body).toBe(key1);
      // Seeding ran once: the demo accounts were not duplicated.
      const admins = await again.get('/api/users', { blurry: 'admin', page: 0, size: 50 });
      expect(admins.body.content.filter((u: { username: string }) => u.username === 'admin')).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

describe('refusals carry {status, code, message} from the error catalogue', () => {
  let server: TestServer;
  let admin: ApiClient;
  let guest: ApiClient;
  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.login('admin');
    guest = await server.login('guest');
  });
  afterAll(() => server?.close());

  it('answers each kind of refusal with its code and the catalogue text', async () => {
    expect((await server.api.get('/api/auth/info')).body).toEqual(refusal(401, 'NOT_SIGNED_IN'));
    expect((await guest.get('/api/users')).body).toEqual(refusal(403, 'NO_PERMISSION'));
    expect((await server.api.get('/api/privacyPolicy/preview', { type: '0' })).body).toEqual(refusal(404, 'AGREEMENT_NOT_FOUND'));
    expect((await admin.get('/api/users', { sort: 'nope,asc' })).body).toEqual(refusal(400, 'SORT_FIELD_UNSUPPORTED', { field: 'nope' }));
  });

  it("answers a schema's field message as INVALID_INPUT, and keeps the problems a form answer carries", async () => {
    const paged = await admin.get('/api/users', { page: -1 });
    expect(paged.body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    expect(paged.body.message).toEqual(expect.any(String));
    const order = await admin.post('/api/disposalOrder/insertManualDisposalOrder', {});
    expect(order.status).toBe(400);
    expect(order.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', message: order.body.errors[0].message });
    expect(order.body.errors.length).toBeGreaterThan(0);
  });
});
