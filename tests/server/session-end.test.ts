import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { USER } from '../../server/seed/accounts.js';
import { type ApiClient, DEMO_PASSWORD, startTestServer, startTwoInstances, type TestServer } from '../helpers/server.js';
import { Client, type Pushed } from '../helpers/ws-client.js';

/**
 * A websocket lives no longer than its session: logout, a password change, an administrator's reset,
 * a disabled or deleted account and idling all close the session's sockets with 4401, and a closed
 * socket receives none of the user's messages.
 */

const open: Client[] = [];

/** The session id a token carries (its jti). */
function sessionOf(client: ApiClient): string {
  const jwt = String(client.token).replace(/^Bearer /, '');
  return JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString()).jti;
}

/** Opens the user's websocket with the client's token and waits until the server has registered it. */
async function connect(server: TestServer, username: string, client: ApiClient): Promise<Client> {
  const url = new URL(`/websocket/${username}`, server.url.replace(/^http/, 'ws'));
  url.searchParams.set('token', String(client.token));
  const c = new Client(url.toString());
  open.push(c);
  await c.waitFor((m) => m?.flag === 'unread');
  return c;
}

const OPEN = 1;

afterEach(() => {
  for (const c of open.splice(0)) if (c.ws.readyState === OPEN) c.ws.close();
});

describe('sockets close with 4401 when their session ends', () => {
  let server: TestServer;
  let admin: ApiClient;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.login('admin');
  });
  afterAll(() => server?.close());

  const idOf = async (username: string) => {
    const row = await server.ctx.db.selectFrom('sys_user').select('id').where('username', '=', username).executeTakeFirstOrThrow();
    return row.id;
  };

  it('on logout: the session’s socket closes and hears nothing more; another session of the user keeps its socket', async () => {
    const [first, second, disposer] = await Promise.all([server.login('producer'), server.login('producer'), server.login('disposer')]);
    const ended = await connect(server, 'producer', first);
    const kept = await connect(server, 'producer', second);
    expect(server.ctx.realtime.connectedSession(sessionOf(first))).toBe(1);

    expect((await first.delete('/api/auth/logout')).status).toBe(200);
    expect(await ended.closed).toBe(4401);
    expect(server.ctx.realtime.connectedSession(sessionOf(first))).toBe(0);
    expect(server.ctx.realtime.connected(USER.producer)).toBe(1);

    const before = ended.messages.length;
    expect((await disposer.post('/api/leaveMessage', { content: '退出之后的留言', reception: 'producer' })).status).toBe(200);
    const pushed = await kept.waitFor<Pushed>((m) => m?.flag === 'leaveMessage');
    expect(pushed.body.content).toBe('退出之后的留言');
    expect(ended.messages.length).toBe(before);
    expect(kept.ws.readyState).toBe(OPEN);
  });

  it('on a password change: every session of the user, the current one included', async () => {
    const [current, other] = await Promise.all([server.login('collector'), server.login('collector')]);
    const sockets = await Promise.all([connect(server, 'collector', current), connect(server, 'collector', other)]);
    const res = await current.request('POST', '/api/users/updatePass', {
      form: { oldPass: await current.encrypt(DEMO_PASSWORD), newPass: await current.encrypt('Better#2027') },
    });
    expect(res.body).toEqual({ status: 200, message: '密码修改成功，请重新登录' });
    expect(await Promise.all(sockets.map((s) => s.closed))).toEqual([4401, 4401]);
    expect(server.ctx.realtime.connected(USER.collector)).toBe(0);
    // The app signs in again with the new password, and its new socket stays open.
    const again = await server.login('collector', 'Better#2027');
    const fresh = await connect(server, 'collector', again);
    expect(fresh.ws.readyState).toBe(OPEN);
  });

  it('on an administrator’s password reset', async () => {
    const disposer = await server.login('disposer');
    const socket = await connect(server, 'disposer', disposer);
    const res = await admin.post('/api/pwd/reset', { ids: [await idOf('disposer')] });
    expect(res.status).toBe(200);
    expect(await socket.closed).toBe(4401);
    expect((await disposer.get('/api/auth/info')).status).toBe(401);
  });

  it('when the account is disabled', async () => {
    const logistics = await server.login('logistics');
    const socket = await connect(server, 'logistics', logistics);
    const id = await idOf('logistics');
    try {
      expect((await admin.put('/api/users', { id, enabled: false })).status).toBe(200);
      expect(await socket.closed).toBe(4401);
      expect(server.ctx.realtime.connected(USER.logistics)).toBe(0);
    } finally {
      await admin.put('/api/users', { id, enabled: true });
    }
  });

  it('when the account is deleted', async () => {
    const guest = await server.login('guest');
    const socket = await connect(server, 'guest', guest);
    expect((await admin.delete('/api/users', [await idOf('guest')])).status).toBe(200);
    expect(await socket.closed).toBe(4401);
  });

  it('when the session was ended behind the registry’s back, the next check closes its socket', async () => {
    const supervisor = await server.login('supervisor');
    const socket = await connect(server, 'supervisor', supervisor);
    // As when another instance's event was missed: the row is gone, no event came.
    await server.ctx.db.deleteFrom('sys_session').where('id', '=', sessionOf(supervisor)).execute();
    await server.ctx.realtime.check();
    expect(await socket.closed).toBe(4401);
  });

  it('refuses a socket whose token belongs to a session already ended', async () => {
    const producer = await server.login('producer');
    expect((await producer.delete('/api/auth/logout')).status).toBe(200);
    const url = new URL('/websocket/producer', server.url.replace(/^http/, 'ws'));
    url.searchParams.set('token', String(producer.token));
    const c = new Client(url.toString());
    open.push(c);
    expect(await c.closed).toBe(4401);
    expect(c.messages).toEqual([]);
  });
});

describe('idle expiry', () => {
  let short: TestServer;
  beforeAll(async () => {
    short = await startTestServer({ sessionIdleMs: 1500 });
  });
  afterAll(() => short?.close());

  it('closes the socket of a session left idle, and keeps the socket of an active one', async () => {
    const [idle, active] = await Promise.all([short.login('producer'), short.login('disposer')]);
    const idleSocket = await connect(short, 'producer', idle);
    const activeSocket = await connect(short, 'disposer', active);
    // The socket itself is not activity: only calls keep a session alive.
    let closed = false;
    void idleSocket.closed.then(() => {
      closed = true;
    });
    // Calls one after another keep the other session active until the idle one's socket closes.
    while (!closed) expect((await active.get('/api/auth/info')).status).toBe(200);
    expect(idleSocket.closeCode).toBe(4401);
    expect(activeSocket.ws.readyState).toBe(OPEN);
    expect((await idle.get('/api/auth/info')).status).toBe(401);
    expect((await active.get('/api/auth/info')).status).toBe(200);
  });
});

/** Runs when TEST_DATABASE_URL points at a PostgreSQL server: two instances share the database and the bus. */
const pgOnly = process.env.TEST_DATABASE_URL ? describe : describe.skip;

pgOnly('across two instances on one PostgreSQL', () => {
  let a: TestServer;
  let b: TestServer;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ a, b, close } = await startTwoInstances());
  }, 120_000);
  afterAll(async () => close?.());

  it('a logout on instance A closes the session’s socket on instance B', async () => {
    const viaA = await a.login('producer');
    const onB = await connect(b, 'producer', b.api.withToken(viaA.token));
    expect(b.ctx.realtime.connected(USER.producer)).toBe(1);
    expect((await viaA.delete('/api/auth/logout')).status).toBe(200);
    expect(await onB.closed).toBe(4401);
    expect(b.ctx.realtime.connected(USER.producer)).toBe(0);
  });

  it('a password change on instance B closes the user’s sockets on instance A', async () => {
    const viaB = await b.login('disposer');
    const onA = await connect(a, 'disposer', a.api.withToken(viaB.token));
    const res = await viaB.request('POST', '/api/users/updatePass', {
      form: { oldPass: await viaB.encrypt(DEMO_PASSWORD), newPass: await viaB.encrypt('Better#2027') },
    });
    expect(res.status).toBe(200);
    expect(await onA.closed).toBe(4401);
  });
});
