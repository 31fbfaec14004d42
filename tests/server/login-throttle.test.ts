import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config.js';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, DEMO_PASSWORD, startTestServer, startTwoInstances, TEST_CAPTCHA, type TestServer } from '../helpers/server.js';

/** The production defaults, as a server started with no environment has them. */
const defaults = configFromEnv({});

const LOCKED = `密码错误次数过多，账号已锁定，请 ${Math.ceil(defaults.loginLockMs / 60_000)} 分钟后再试`;
const WRONG = refusal(400, 'LOGIN_FAILED');

async function attempt(api: ApiClient, username: string, password: string, path = '/api/auth/login') {
  const cap = await api.get('/api/auth/code');
  return api.request('POST', path, {
    form: { username, password: await api.encrypt(password), code: TEST_CAPTCHA, uuid: String(cap.body.uuid) },
  });
}

async function failTimes(api: ApiClient, username: string, n: number) {
  for (let i = 0; i < n; i++) expect((await attempt(api, username, 'Wrong@2026')).body).toEqual(WRONG);
}

describe('per-IP rate limit on the session calls, with the production defaults', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ loginRateMax: defaults.loginRateMax, captchaRateMax: defaults.captchaRateMax });
  });
  afterAll(() => server?.close());

  it('answers 429 with a Chinese message once one IP used up the login allowance, login and login1 together', async () => {
    expect(defaults.loginRateMax).toBe(20);
    expect(defaults.loginRateWindowMs).toBe(60_000);
    const api = server.api;
    for (let i = 0; i < defaults.loginRateMax; i++) {
      const res = await api.request('POST', i % 2 ? '/api/auth/login1' : '/api/auth/login', { form: { username: 'producer' } });
      expect(res.status).toBe(400);
    }
    for (const path of ['/api/auth/login', '/api/auth/login1']) {
      const refused = await api.request('POST', path, { form: { username: 'producer' } });
      expect(refused.status).toBe(429);
      expect(refused.body.status).toBe(429);
      expect(refused.body.code).toBe('RATE_LIMITED');
      expect(refused.body.message).toMatch(/^操作过于频繁，请 \d+ 秒后再试$/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // The right password does not get through either while the allowance is used up.
    expect((await attempt(api, 'producer', DEMO_PASSWORD)).status).toBe(429);
    // Calls without a limit are not affected.
    expect((await api.get('/api/auth/publicKey')).status).toBe(200);
  });

  it('limits captcha images per IP on their own allowance', async () => {
    let n = 0;
    for (;;) {
      const res = await server.api.get('/api/auth/code');
      if (res.status !== 200) {
        expect(res.status).toBe(429);
        expect(res.body.code).toBe('RATE_LIMITED');
        expect(res.body.message).toMatch(/^操作过于频繁，请 \d+ 秒后再试$/);
        break;
      }
      n++;
      expect(n).toBeLessThanOrEqual(defaults.captchaRateMax);
    }
    // The earlier test used one image here.
    expect(n).toBe(defaults.captchaRateMax - 1);
  });
});

describe('per-account lock, with the production defaults', () => {
  let server: TestServer;
  let api: ApiClient;
  beforeAll(async () => {
    server = await startTestServer();
    api = server.api;
  });
  afterAll(() => server?.close());

  it('locks an account after 5 wrong passwords and then refuses the right one, saying when to try again', async () => {
    expect(defaults.loginLockFailures).toBe(5);
    expect(defaults.loginLockWindowMs).toBe(15 * 60_000);
    await failTimes(api, 'producer', defaults.loginLockFailures - 1);
    const fifth = await attempt(api, 'producer', 'Wrong@2026');
    expect(fifth.status).toBe(429);
    expect(fifth.body).toMatchObject({ status: 429, message: LOCKED });
    const right = await attempt(api, 'producer', DEMO_PASSWORD);
    expect(right.status).toBe(429);
    expect(right.body).toMatchObject({ status: 429, message: LOCKED });
    expect(right.body).not.toHaveProperty('token');
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(defaults.loginLockMs / 1000 - 60);
    // login1 is the same door.
    expect((await attempt(api, 'producer', DEMO_PASSWORD, '/api/auth/login1')).body).toMatchObject({ status: 429, message: LOCKED });
  });

  it("lifts the lock when an administrator resets the account's password", async () => {
    await failTimes(api, 'expired', defaults.loginLockFailures - 1);
    expect((await attempt(api, 'expired', 'Wrong@2026')).status).toBe(429);
    expect((await attempt(api, 'expired', DEMO_PASSWORD)).body).toMatchObject({ status: 429, message: LOCKED });
    const admin = await server.login('admin');
    const target = await server.ctx.db.selectFrom('sys_user').select('id').where('username', '=', 'expired').executeTakeFirstOrThrow();
    const reset = await admin.post('/api/pwd/reset', [target.id]);
    expect(reset.status).toBe(200);
    // The reset puts the account on the default password, which now signs in.
    expect((await attempt(api, 'expired', DEMO_PASSWORD)).body.status).toBe(200);
  });

  it('leaves other accounts alone', async () => {
    expect((await attempt(api, 'disposer', DEMO_PASSWORD)).body.status).toBe(200);
  });

  it('treats an unknown username exactly like a known one', async () => {
    await failTimes(api, 'no-such-user', defaults.loginLockFailures - 1);
    expect((await attempt(api, 'no-such-user', 'Wrong@2026')).body).toMatchObject({ status: 429, message: LOCKED });
    expect((await attempt(api, 'no-such-user', DEMO_PASSWORD)).body).toMatchObject({ status: 429, message: LOCKED });
  });

  it('counts spaces around a name as the same name, so they open no fresh allowance', async () => {
    await failTimes(api, 'newcomer', 2);
    await failTimes(api, ' newcomer', 1);
    await failTimes(api, 'newcomer  ', 1);
    expect((await attempt(api, '\tnewcomer ', 'Wrong@2026')).body).toMatchObject({ status: 429, message: LOCKED });
    expect((await attempt(api, 'newcomer', DEMO_PASSWORD)).body).toMatchObject({ status: 429, message: LOCKED });
  });

  it('forgets the failures after a successful login', async () => {
    await failTimes(api, 'collector', defaults.loginLockFailures - 1);
    expect((await attempt(api, 'collector', DEMO_PASSWORD)).body.status).toBe(200);
    await failTimes(api, 'collector', defaults.loginLockFailures - 1);
    expect((await attempt(api, 'collector', DEMO_PASSWORD)).body.status).toBe(200);
  });

  it('counts only the failures within the window', async () => {
    await failTimes(api, 'supervisor', defaults.loginLockFailures - 1);
    // The window began 16 minutes ago.
    await sql`update sys_login_guard set window_start = now() - interval '16 minutes' where username = 'supervisor'`.execute(server.ctx.db);
    await failTimes(api, 'supervisor', defaults.loginLockFailures - 1);
    expect((await attempt(api, 'supervisor', DEMO_PASSWORD)).body.status).toBe(200);
  });

  it('opens again when the lock is over, with the full allowance', async () => {
    await failTimes(api, 'logistics', defaults.loginLockFailures - 1);
    expect((await attempt(api, 'logistics', 'Wrong@2026')).status).toBe(429);
    await sql`update sys_login_guard set locked_until = now() - interval '1 second' where username = 'logistics'`.execute(server.ctx.db);
    await failTimes(api, 'logistics', defaults.loginLockFailures - 1);
    expect((await attempt(api, 'logistics', DEMO_PASSWORD)).body.status).toBe(200);
  });

  it('keeps failed captchas out of the count', async () => {
    for (let i = 0; i < defaults.loginLockFailures + 1; i++) {
      const cap = await api.get('/api/auth/code');
      const res = await api.request('POST', '/api/auth/login', {
        form: { username: 'guest', password: await api.encrypt('Wrong@2026'), code: '0000', uuid: String(cap.body.uuid) },
      });
      expect(res.body).toEqual(refusal(400, 'CAPTCHA_WRONG'));
    }
    expect((await attempt(api, 'guest', DEMO_PASSWORD)).body.status).toBe(200);
  });
});

/** Runs when TEST_DATABASE_URL points at a PostgreSQL server: two instances share the failure counts. */
const pgOnly = process.env.TEST_DATABASE_URL ? describe : describe.skip;

pgOnly('per-account lock across two instances on one PostgreSQL', () => {
  let a: TestServer;
  let b: TestServer;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ a, b, close } = await startTwoInstances());
  }, 120_000);
  afterAll(async () => close?.());

  it('counts failures seen by either instance and holds the lock on both', async () => {
    await failTimes(a.api, 'producer', 2);
    await failTimes(b.api, 'producer', 2);
    expect((await attempt(a.api, 'producer', 'Wrong@2026')).body).toMatchObject({ status: 429, message: LOCKED });
    expect((await attempt(b.api, 'producer', DEMO_PASSWORD)).body).toMatchObject({ status: 429, message: LOCKED });
    expect((await attempt(a.api, 'disposer', DEMO_PASSWORD)).body.status).toBe(200);
  });
});
