import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { USER } from '../../server/seed/accounts.js';
import type { ApiClient, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';
import { Client, type Pushed } from '../helpers/ws-client.js';

describe('websocket /websocket/{username}', () => {
  let server: TestServer;
  let admin: ApiClient;
  let producer: ApiClient;
  let disposer: ApiClient;
  const open: Client[] = [];

  const connect = (username: string, token?: string | null) => {
    const url = new URL(`/websocket/${username}`, server.url.replace(/^http/, 'ws'));
    if (token) url.searchParams.set('token', token);
    const c = new Client(url.toString());
    open.push(c);
    return c;
  };

  beforeAll(async () => {
    server = await startTestServer();
    [admin, producer, disposer] = await Promise.all([server.login('admin'), server.login('producer'), server.login('disposer')]);
  });
  afterEach(() => {
    for (const c of open.splice(0)) c.ws.close();
  });
  afterAll(() => server?.close());

  const unreadTotal = async (c: ApiClient) => (await c.get('/api/sysMessage/getUnreadNum')).body.data.total as number;

  it('pushes the unread count on connect and answers heartbeats', async () => {
    const c = connect('producer', producer.token);
    await c.opened;
    const first = await c.waitFor<Pushed>((m) => m?.flag === 'unread');
    expect(first).toEqual({ sender: 'system', reception: 'producer', body: { unreadNum: await unreadTotal(producer) }, flag: 'unread' });
    expect(server.ctx.realtime.connected(USER.producer)).toBe(1);

    c.ws.send('ping');
    await c.waitFor((m) => m?.type === 'pong');
    c.messages.length = 0;
    c.ws.send(JSON.stringify({ type: 'heartbeat' }));
    expect(await c.waitFor((m) => m?.type === 'pong')).toEqual({ type: 'pong' });
  });

  it('accepts the bare JWT as well as the Bearer value', async () => {
    const c = connect('disposer', disposer.token!.replace(/^Bearer /, ''));
    await c.opened;
    await c.waitFor((m) => m?.flag === 'unread');
  });

  it('closes with 4401 for a missing, invalid or foreign token', async () => {
    const cases = [connect('producer'), connect('producer', 'Bearer not-a-jwt'), connect('admin', producer.token)];
    for (const c of cases) expect(await c.closed).toBe(4401);
    expect(cases.every((c) => c.messages.length === 0)).toBe(true);
    expect(server.ctx.realtime.connected(USER.admin)).toBe(0);
  });

  it('forgets a socket once it closes', async () => {
    const c = connect('admin', admin.token);
    await c.waitFor((m) => m?.flag === 'unread');
    expect(server.ctx.realtime.connected(USER.admin)).toBe(1);
    c.ws.close();
    await c.closed;
    await vi.waitFor(() => expect(server.ctx.realtime.connected(USER.admin)).toBe(0));
  });

  it('delivers a new leave message to the recipient’s socket', async () => {
    const c = connect('disposer', disposer.token);
    await c.waitFor((m) => m?.flag === 'unread');
    const r = await producer.post('/api/leaveMessage', { content: '明早八点到厂装车，请安排卸料。', reception: 'disposer' });
    expect(r.status).toBe(200);
    const pushed = await c.waitFor<Pushed>((m) => m?.flag === 'leaveMessage');
    expect(pushed).toEqual({
      sender: 'producer',
      reception: 'disposer',
      body: { noticeInfo: '您有一条新留言', content: '明早八点到厂装车，请安排卸料。' },
      flag: 'leaveMessage',
    });
  });

  it('delivers a system notice with its plain-text title, and the unread count rises', async () => {
    const p = connect('producer', producer.token);
    const d = connect('disposer', disposer.token);
    const start = await p.waitFor<Pushed>((m) => m?.flag === 'unread');
    await d.waitFor((m) => m?.flag === 'unread');

    const r = await admin.post('/api/sysMessage', {
      title: '<p>关于开展&nbsp;<b>危废贮存设施</b>专项检查的通知</p>',
      content: '<p>请各单位做好自查。</p>',
      usernames: ['producer'],
    });
    expect(r.status).toBe(200);
    const pushed = await p.waitFor<Pushed>((m) => m?.flag === 'sysMessage');
    expect(pushed).toEqual({
      sender: 'system',
      reception: 'producer',
      body: { noticeInfo: '关于开展 危废贮存设施专项检查的通知' },
      flag: 'sysMessage',
    });
    expect(await unreadTotal(producer)).toBe((start.body.unreadNum as number) + 1);

    // A reconnecting client is told the new count.
    const again = connect('producer', producer.token);
    const count = await again.waitFor<Pushed>((m) => m?.flag === 'unread');
    expect(count.body.unreadNum).toBe((start.body.unreadNum as number) + 1);

    // Nobody else heard it: a later push to the disposer arrives after anything sent to it before.
    expect((await producer.post('/api/leaveMessage', { content: '收到通知', reception: 'disposer' })).status).toBe(200);
    await d.waitFor((m) => m?.flag === 'leaveMessage' && m?.body?.content === '收到通知');
    expect(d.messages.some((m) => (m as Pushed).flag === 'sysMessage')).toBe(false);
  });
});
