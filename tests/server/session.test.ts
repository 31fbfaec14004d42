import { SignJWT } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, DEMO_PASSWORD, startTestServer, TEST_CAPTCHA, type TestServer } from '../helpers/server.js';

let server: TestServer;
let api: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  api = server.api;
});
afterAll(async () => {
  await server?.close();
});

/** A login attempt with full control over each field. */
async function attempt(fields: Partial<Record<'username' | 'password' | 'code' | 'uuid', string>>, path = '/api/auth/login') {
  const cap = await api.get('/api/auth/code');
  return api.request('POST', path, {
    form: {
      username: 'producer',
      password: await api.encrypt(DEMO_PASSWORD),
      code: TEST_CAPTCHA,
      uuid: String(cap.body.uuid),
      ...fields,
    },
  });
}

describe('initialisation', () => {
  it('reports the seeded system as initialised and refuses a second initialisation', async () => {
    const check = await api.get('/api/init/check');
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ status: 200, data: { inited: true } });
    const again = await api.post('/api/init', { systemName: '另一个系统' });
    expect(again.status).toBe(403);
  });

  it('lets the first caller initialise a fresh system, once', async () => {
    await server.ctx.db.deleteFrom('sys_setting').where('name', '=', 'inited').execute();
    try {
      expect((await api.get('/api/init/check')).body.data.inited).toBe(false);
      expect((await api.post('/api/init', { systemName: '' })).status).toBe(400);
      const res = await api.post('/api/init', { systemName: '苏州危废监管平台' });
      expect(res.status).toBe(200);
      expect((await api.get('/api/init/check')).body.data.inited).toBe(true);
      const name = await server.ctx.db.selectFrom('sys_setting').select('value').where('name', '=', 'system_name').executeTakeFirst();
      expect(name?.value).toBe('苏州危废监管平台');
      expect((await api.post('/api/init', { systemName: 'x' })).status).toBe(403);
    } finally {
      await server.ctx.db
        .insertInto('sys_setting')
        .values({ name: 'inited', value: '1' })
        .onConflict((oc) => oc.column('name').doUpdateSet({ value: '1' }))
        .execute();
    }
  });
});

describe('captcha and public key', () => {
  it('answers an SVG captcha image and a uuid', async () => {
    const res = await api.get('/api/auth/code');
    expect(res.status).toBe(200);
    expect(res.body.img).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(res.body.img.split(',')[1], 'base64').toString()).toContain('<svg');
    expect(res.body.uuid).toMatch(/^[0-9a-f-]{36}$/);
    const row = await server.ctx.db.selectFrom('sys_captcha').selectAll().where('uuid', '=', res.body.uuid).executeTakeFirst();
    expect(row?.code).toBe(TEST_CAPTCHA);
  });

  it('answers the RSA public key as PEM text', async () => {
    const res = await api.get('/api/auth/publicKey');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.body).toMatch(/^-----BEGIN PUBLIC KEY-----/);
  });

  it('uses a captcha up on the first attempt, even a failed one', async () => {
    const cap = await api.get('/api/auth/code');
    const wrong = await api.request('POST', '/api/auth/login', {
      form: { username: 'producer', password: await api.encrypt('Wrong@2026'), code: TEST_CAPTCHA, uuid: cap.body.uuid },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual(refusal(400, 'LOGIN_FAILED'));
    const reuse = await api.request('POST', '/api/auth/login', {
      form: { username: 'producer', password: await api.encrypt(DEMO_PASSWORD), code: TEST_CAPTCHA, uuid: cap.body.uuid },
    });
    expect(reuse.status).toBe(400);
    expect(reuse.body).toEqual(refusal(400, 'CAPTCHA_MISSING_OR_EXPIRED'));
  });

  it('refuses an expired captcha', async () => {
    const cap = await api.get('/api/auth/code');
    await server.ctx.db
      .updateTable('sys_captcha')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('uuid', '=', cap.body.uuid)
      .execute();
    const res = await api.request('POST', '/api/auth/login', {
      form: { username: 'producer', password: await api.encrypt(DEMO_PASSWORD), code: TEST_CAPTCHA, uuid: cap.body.uuid },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refusal(400, 'CAPTCHA_MISSING_OR_EXPIRED'));
  });

  it('refuses a wrong captcha and compares case-insensitively', async () => {
    expect((await attempt({ code: '1234' })).body).toEqual(refusal(400, 'CAPTCHA_WRONG'));
    await server.ctx.db
      .insertInto('sys_captcha')
      .values({ uuid: 'mixed-case', code: 'AbXy', expires_at: sql<Date>`now() + interval '1 minute'` })
      .execute();
    const res = await attempt({ uuid: 'mixed-case', code: 'aBxY' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(200);
  });

  it('sweeps expired captchas when a new one is issued', async () => {
    const cap = await api.get('/api/auth/code');
    await server.ctx.db
      .updateTable('sys_captcha')
      .set({ expires_at: sql<Date>`now() - interval '1 minute'` })
      .where('uuid', '=', cap.body.uuid)
      .execute();
    await api.get('/api/auth/code');
    const left = await server.ctx.db.selectFrom('sys_captcha').select('uuid').where('uuid', '=', cap.body.uuid).executeTakeFirst();
    expect(left).toBeUndefined();
  });
});

describe('login', () => {
  it('requires username, password and captcha', async () => {
    expect((await attempt({ username: '' })).body).toEqual({ status: 400, code: 'USERNAME_REQUIRED', message: '用户名不能为空' });
    expect((await attempt({ password: '' })).body).toEqual({ status: 400, code: 'PASSWORD_REQUIRED', message: '密码不能为空' });
    expect((await attempt({ code: '' })).body).toEqual({ status: 400, code: 'CAPTCHA_REQUIRED', message: '验证码不能为空' });
    const empty = await api.request('POST', '/api/auth/login');
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ status: 400, code: 'USERNAME_REQUIRED', message: '用户名不能为空' });
  });

  it('answers 400, not 500, for a password that is not RSA cipher text', async () => {
    const res = await attempt({ password: 'bm90LWEtY2lwaGVy' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refusal(400, 'PASSWORD_DECRYPT_FAILED'));
  });

  it('answers the same for an unknown user as for a wrong password', async () => {
    const res = await attempt({ username: 'nobody' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refusal(400, 'LOGIN_FAILED'));
  });

  it('signs a producer in with token, user and permission strings', async () => {
    const res = await attempt({});
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(200);
    expect(res.body.token).toMatch(/^Bearer /);
    expect(res.body.user).toMatchObject({
      username: 'producer',
      nickName: '王丽华',
      deptCode: '02',
      company: 1,
      isAdmin: false,
      pwdExpired: false,
      enabled: true,
      dept: { id: expect.any(Number), name: '产废企业部' },
    });
    expect(res.body.user).not.toHaveProperty('password');
    expect(res.body.roles).toEqual(expect.arrayContaining(['stockIn:list', 'stockIn:add', 'disposalInquiry:add']));
    expect(res.body.roles).not.toContain('user:add');
    expect(res.body.roles).not.toContain('admin');
  });

  it('accepts JSON as well as a form, and login1 as an alias', async () => {
    const cap = await api.get('/api/auth/code');
    const json = await api.post('/api/auth/login', {
      username: 'disposer',
      password: await api.encrypt(DEMO_PASSWORD),
      code: TEST_CAPTCHA,
      uuid: cap.body.uuid,
    });
    expect(json.body.status).toBe(200);
    const alias = await attempt({ username: 'collector' }, '/api/auth/login1');
    expect(alias.body.status).toBe(200);
    expect(alias.body.user.permission).toBe('collectionPoint');
  });

  it('gives the admin ["admin"] and a user without roles ROLE_SYSTEM_DEFAULT', async () => {
    expect((await attempt({ username: 'admin' })).body.roles).toEqual(['admin']);
    expect((await attempt({ username: 'guest' })).body.roles).toEqual(['ROLE_SYSTEM_DEFAULT']);
  });

  it('flags a password older than 90 days as expired', async () => {
    const res = await attempt({ username: 'expired' });
    expect(res.body.status).toBe(200);
    expect(res.body.user.pwdExpired).toBe(true);
    const client = api.withToken(res.body.token);
    expect((await client.get('/api/users/updatePass/1')).body).toEqual({ pwdExpired: true });
  });

  it('refuses a disabled account and treats a deleted one as unknown', async () => {
    const db = server.ctx.db;
    await db.updateTable('sys_user').set({ status: 1 }).where('username', '=', 'logistics').execute();
    try {
      expect((await attempt({ username: 'logistics' })).body).toEqual(refusal(400, 'ACCOUNT_INACTIVE'));
      await db.updateTable('sys_user').set({ status: 2 }).where('username', '=', 'logistics').execute();
      expect((await attempt({ username: 'logistics' })).body).toEqual(refusal(400, 'LOGIN_FAILED'));
    } finally {
      await db.updateTable('sys_user').set({ status: 0 }).where('username', '=', 'logistics').execute();
    }
  });

  it('asks a newcomer to accept the entry agreement, with a token that can do so', async () => {
    const first = await attempt({ username: 'newcomer' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 10001, message: '请先阅读并同意入驻协议', user: { username: 'newcomer' } });
    const client = api.withToken(first.body.token);
    expect((await client.get('/api/auth/info')).status).toBe(200);
    // The call checks what it is given: another department's code, no code, or a code this server did
    // not issue for the account's company are refused, and the agreement stays pending.
    // The newcomer sits in its own company's department.
    expect(first.body.user.deptCode).toBe('0302');
    expect((await client.get('/api/guFeiUrl/enter', { deptCode: '02' })).body).toEqual(refusal(400, 'ENTRY_DEPT_MISMATCH'));
    expect((await client.get('/api/guFeiUrl/enter')).body).toEqual(refusal(400, 'ENTRY_CODE_REQUIRED'));
    const issue = (companyId: unknown, audience = 'gufei') =>
      new SignJWT({ companyId })
        .setProtectedHeader({ alg: 'HS256' })
        .setAudience(audience)
        .setExpirationTime('5m')
        .sign(server.ctx.secrets.jwtSecret);
    const own =
      first.body.user.company?.id ??
      (await server.ctx.db.selectFrom('sys_user').select('company_id').where('username', '=', 'newcomer').executeTakeFirstOrThrow())
        .company_id;
    for (const code of ['not-a-token', await issue(own, 'other'), await issue(Number(own) + 1)])
      expect((await client.get('/api/guFeiUrl/enter', { code })).body).toEqual(refusal(400, 'ENTRY_CODE_INVALID'));
    expect((await client.get('/api/users', { page: 0, size: 1 })).body.code).toBe('AGREEMENT_PENDING');
    expect((await client.get('/api/guFeiUrl/enter', { code: await issue(own) })).body).toEqual({ status: 200, message: '入驻成功' });
    await server.ctx.db.updateTable('sys_user').set({ agreement_accepted: false }).where('username', '=', 'newcomer').execute();
    server.ctx.sessions.invalidate();
    expect((await client.get('/api/guFeiUrl/enter', { deptCode: '0302' })).body).toEqual({ status: 200, message: '入驻成功' });
    expect((await client.get('/api/guFeiUrl/enter', { deptCode: '0302' })).body).toEqual({ status: 200, message: '已入驻' });
    const second = await attempt({ username: 'newcomer' });
    expect(second.body.status).toBe(200);
    expect(second.body.roles).toContain('contract:add');
  });

  it('records the login in the operation log', async () => {
    const first = await server.login('supervisor');
    const entries = async (client: typeof first) => {
      const logs = await client.get('/api/logs/user');
      expect(logs.status).toBe(200);
      return logs.body as { totalElements: number; content: Record<string, unknown>[] };
    };
    const before = (await entries(first)).totalElements;
    const client = await server.login('supervisor');
    // A call's entry is written once it has answered (the entry holds how long it took): wait for it.
    const logs = await vi.waitFor(
      async () => {
        const e = await entries(client);
        expect(e.totalElements).toBeGreaterThan(before);
        return e;
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(logs.content[0]).toMatchObject({ description: '用户登录', requestIp: expect.any(String) });
  });
});

describe('session', () => {
  it('answers user, roles and company on /api/auth/info', async () => {
    const producer = await server.login('producer');
    const info = await producer.get('/api/auth/info');
    expect(info.status).toBe(200);
    expect(info.body.user.username).toBe('producer');
    expect(info.body.roles).toContain('stockIn:add');
    expect(info.body.company).toMatchObject({ id: 1, type: '1', name: expect.any(String) });
    const admin = await server.login('admin');
    const adminInfo = await admin.get('/api/auth/info');
    expect(adminInfo.body.company).toBeNull();
    expect(adminInfo.body.roles).toEqual(['admin']);
    const supervisor = await server.login('supervisor');
    expect((await supervisor.get('/api/auth/info')).body.user.deptCode).toBe('01');
  });

  it('ends the session on logout', async () => {
    const client = await server.login('disposer');
    expect((await client.get('/api/auth/info')).status).toBe(200);
    const out = await client.delete('/api/auth/logout');
    expect(out.status).toBe(200);
    expect((await client.get('/api/auth/info')).status).toBe(401);
  });

  it("tells a proxy the account's company by a cookie at sign-in, and clears it at sign-out", async () => {
    const signedIn = await api.loginRaw('producer', DEMO_PASSWORD);
    expect(signedIn.body.status).toBe(200);
    const company = (await api.withToken(signedIn.body.token).get('/api/auth/info')).body.company.id;
    const cookie = signedIn.headers.get('set-cookie') ?? '';
    expect(cookie).toBe(`wastegen_route=c${company}; Path=/; HttpOnly; SameSite=Lax`);
    // Without a company (the administrator): one value for all such accounts.
    const admin = await api.loginRaw('admin', DEMO_PASSWORD);
    expect(admin.headers.get('set-cookie')).toBe('wastegen_route=c0; Path=/; HttpOnly; SameSite=Lax');
    // A refused sign-in sets nothing.
    const refused = await api.loginRaw('producer', 'wrong-password');
    expect(refused.body.status).not.toBe(200);
    expect(refused.headers.get('set-cookie')).toBeNull();
    const out = await api.withToken(signedIn.body.token).delete('/api/auth/logout');
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toBe('wastegen_route=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0');
  });

  it('answers 401 without a token on every signed-in route of the accounts module', async () => {
    const routes: [string, string][] = [
      ['GET', '/api/auth/info'],
      ['DELETE', '/api/auth/logout'],
      ['GET', '/api/guFeiUrl/enter'],
      ['GET', '/api/users'],
      ['POST', '/api/users'],
      ['PUT', '/api/users'],
      ['DELETE', '/api/users'],
      ['GET', '/api/users/search'],
      ['PUT', '/api/users/center'],
      ['POST', '/api/users/updatePass'],
      ['GET', '/api/users/updatePass/1'],
      ['POST', '/api/code/resetEmail'],
      ['POST', '/api/users/updateEmail/123456'],
      ['GET', '/api/logs/user'],
      ['GET', '/api/menus/build'],
      ['GET', '/api/menus/tree'],
      ['GET', '/api/menus'],
      ['POST', '/api/menus'],
      ['PUT', '/api/menus'],
      ['DELETE', '/api/menus'],
      ['GET', '/api/dept/list'],
      ['GET', '/api/dept/find'],
      ['GET', '/api/dept'],
      ['POST', '/api/dept'],
      ['PUT', '/api/dept'],
      ['DELETE', '/api/dept'],
      ['GET', '/api/roles'],
      ['POST', '/api/roles'],
      ['PUT', '/api/roles'],
      ['PUT', '/api/roles/menu'],
      ['DELETE', '/api/roles'],
      ['GET', '/api/dictDetail'],
      ['GET', '/api/dictDetail/map'],
      ['POST', '/api/dictDetail'],
      ['PUT', '/api/dictDetail'],
      ['DELETE', '/api/dictDetail/1'],
      ['GET', '/api/dict'],
      ['POST', '/api/dict'],
      ['PUT', '/api/dict'],
      ['DELETE', '/api/dict'],
    ];
    for (const [method, path] of routes) {
      const res = await api.request(method, path, method === 'GET' ? {} : { json: {} });
      expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 401`);
      expect(res.body.status).toBe(401);
    }
    const forged = await api.withToken('Bearer not.a.jwt').get('/api/auth/info');
    expect(forged.status).toBe(401);
  });
});

describe('idle timeout', () => {
  let short: TestServer;
  // The server judges idleness by this clock, which the test moves on instead of waiting.
  let now = Date.now();
  beforeAll(async () => {
    short = await startTestServer({ sessionIdleMs: 1500, clock: () => now });
  });
  afterAll(async () => {
    await short?.close();
  });

  it('ends a session left idle longer than the limit, and keeps an active one', async () => {
    const active = await short.login('producer');
    const idle = await short.login('disposer');
    for (let i = 0; i < 4; i++) {
      now += 500;
      expect((await active.get('/api/auth/info')).status).toBe(200);
    }
    expect((await idle.get('/api/auth/info')).status).toBe(401);
    expect((await active.get('/api/auth/info')).status).toBe(200);
    // Just inside the limit a session lives on; just past it, it is over.
    now += 1500;
    expect((await active.get('/api/auth/info')).status).toBe(200);
    now += 1501;
    expect((await active.get('/api/auth/info')).status).toBe(401);
  });
});

describe('记住我', () => {
  let short: TestServer;
  // Idle after 1.5 s, remembered for 10 s, on a clock the test moves on instead of waiting.
  let now = Date.now();
  beforeAll(async () => {
    short = await startTestServer({ sessionIdleMs: 1500, rememberMeMs: 10_000, clock: () => now });
  });
  afterAll(async () => {
    await short?.close();
  });

  async function signIn(rememberMe: string | undefined) {
    const res = await short.api.loginRaw('producer', DEMO_PASSWORD, TEST_CAPTCHA, rememberMe === undefined ? {} : { rememberMe });
    expect(res.body.status).toBe(200);
    return short.api.withToken(res.body.token);
  }

  it('keeps a remembered session through the idle timeout for its day, then ends it when idle; the password is never kept', async () => {
    const remembered = await signIn('true');
    const plain = await signIn('false');
    const unsaid = await signIn(undefined);
    now += 5_000;
    expect((await plain.get('/api/auth/info')).status).toBe(401);
    expect((await unsaid.get('/api/auth/info')).status).toBe(401);
    expect((await remembered.get('/api/auth/info')).status).toBe(200);
    // Within its day idleness does not end it; past its day it ends like any other session.
    now += 4_000;
    expect((await remembered.get('/api/auth/info')).status).toBe(200);
    now += 1_501;
    expect((await remembered.get('/api/auth/info')).status).toBe(401);
    const stored = await short.ctx.db.selectFrom('sys_session').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(DEMO_PASSWORD);
  });
});
