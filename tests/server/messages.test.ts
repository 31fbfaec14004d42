import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from '../helpers/refusal.js';
import type { ApiClient, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';

interface SysMessage {
  id: number;
  title: string;
  time: string;
  content: string;
  createTime: string;
  haveRead: number;
}

describe('system and leave messages', () => {
  let server: TestServer;
  let admin: ApiClient;
  let producer: ApiClient;
  let disposer: ApiClient;

  beforeAll(async () => {
    server = await startTestServer();
    [admin, producer, disposer] = await Promise.all([server.login('admin'), server.login('producer'), server.login('disposer')]);
  });
  afterAll(() => server?.close());

  const unread = async (c: ApiClient) =>
    (await c.get('/api/sysMessage/getUnreadNum')).body.data as { sysNum: number; leaveNum: number; total: number };
  const page = async (c: ApiClient, query: Record<string, unknown> = {}) =>
    (await c.get('/api/sysMessage/page', { page: 1, size: 50, ...query })).body as { content: SysMessage[]; totalElements: number };

  it('needs a session for every message call', async () => {
    for (const path of [
      '/api/sysMessage/page',
      '/api/sysMessage/readAll',
      '/api/sysMessage/readOne?id=1',
      '/api/sysMessage/getUnreadNum',
      '/api/sysMessage/deleteMsg?id=1',
      '/api/unreadLeaveMessage',
    ]) {
      expect((await server.api.get(path)).status, path).toBe(401);
    }
    expect((await server.api.post('/api/leaveMessage', { content: 'x' })).status).toBe(401);
  });

  it('pages the current user’s notices unread first, each part newest first, 1-based, filtered by haveRead', async () => {
    const first = await producer.get('/api/sysMessage/page', { page: 1, size: 2 });
    expect(first.status).toBe(200);
    expect(first.body.content).toHaveLength(2);
    expect(first.body.totalElements).toBe(5);
    const second = await producer.get('/api/sysMessage/page', { page: 2, size: 2 });
    expect(second.body.content).toHaveLength(2);
    const firstIds = first.body.content.map((m: SysMessage) => m.id);
    expect(second.body.content.map((m: SysMessage) => m.id).some((id: number) => firstIds.includes(id))).toBe(false);

    const all = await page(producer);
    const reads = all.content.map((m) => m.haveRead);
    expect([...reads].sort()).toEqual(reads);
    for (const part of [0, 1]) {
      const times = all.content.filter((m) => m.haveRead === part).map((m) => m.createTime);
      expect([...times].sort().reverse()).toEqual(times);
    }
    expect(all.content[0]).toMatchObject({
      title: expect.stringContaining('<p>'),
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/),
    });

    const unreadOnly = await page(producer, { haveRead: 0 });
    expect(unreadOnly.totalElements).toBe(3);
    expect(unreadOnly.content.every((m) => m.haveRead === 0)).toBe(true);
    const readOnly = await page(producer, { haveRead: 1 });
    expect(readOnly.content.every((m) => m.haveRead === 1)).toBe(true);
    expect(readOnly.totalElements + unreadOnly.totalElements).toBe(5);

    expect((await producer.get('/api/sysMessage/page', { haveRead: 2 })).status).toBe(400);
  });

  it('counts unread notices and leave messages', async () => {
    // One message left for the producer, and the two seeded 留言 addressed to its department (产废企业部) still unread.
    expect(await unread(producer)).toEqual({ sysNum: 3, leaveNum: 3, total: 6 });
    const r = await producer.get('/api/sysMessage/getUnreadNum');
    expect(r.body.status).toBe(200);
  });

  it('reads one own notice; another user’s is 404 and stays unread', async () => {
    const mine = (await page(producer, { haveRead: 0 })).content[0]!;
    const r = await producer.get('/api/sysMessage/readOne', { id: mine.id });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ id: mine.id, title: mine.title, haveRead: 1 });
    expect((await unread(producer)).sysNum).toBe(2);

    const adminsUnread = (await page(admin, { haveRead: 0 })).content[0]!;
    const foreign = await producer.get('/api/sysMessage/readOne', { id: adminsUnread.id });
    expect(foreign.status).toBe(404);
    expect((await page(admin, { haveRead: 0 })).content.map((m) => m.id)).toContain(adminsUnread.id);
  });

  it('deletes only own notices, one or a comma list', async () => {
    const adminsMsg = (await page(admin)).content[0]!;
    const foreign = await producer.get('/api/sysMessage/deleteMsg', { id: adminsMsg.id });
    expect(foreign.status).toBe(404);
    expect((await page(admin)).content.map((m) => m.id)).toContain(adminsMsg.id);

    const [a, b, c] = (await page(producer)).content;
    const one = await producer.get('/api/sysMessage/deleteMsg', { id: a!.id });
    expect(one.status).toBe(200);
    const list = await producer.get('/api/sysMessage/deleteMsg', { ids: `${b!.id},${c!.id},${adminsMsg.id}` });
    expect(list.status).toBe(200);
    expect(list.body.data.count).toBe(2);
    const left = (await page(producer)).content.map((m) => m.id);
    expect(left).not.toContain(a!.id);
    expect(left).not.toContain(c!.id);
    expect(left).toHaveLength(2);
    expect((await page(admin)).content.map((m) => m.id)).toContain(adminsMsg.id);

    expect((await producer.get('/api/sysMessage/deleteMsg')).status).toBe(400);
    expect((await producer.get('/api/sysMessage/deleteMsg', { ids: '1,abc' })).status).toBe(400);
  });

  it('marks all of the user’s notices read, leaving others’ alone', async () => {
    const adminBefore = await unread(admin);
    expect(adminBefore.sysNum).toBeGreaterThan(0);
    const r = await disposer.get('/api/sysMessage/readAll');
    expect(r.status).toBe(200);
    expect((await unread(disposer)).sysNum).toBe(0);
    expect((await page(disposer, { haveRead: 0 })).totalElements).toBe(0);
    expect(await unread(admin)).toEqual(adminBefore);
  });

  it('lists unread leave messages with sender names', async () => {
    const r = await disposer.get('/api/unreadLeaveMessage', { page: 1, size: 10 });
    expect(r.status).toBe(200);
    // Two left for the disposer, and the seeded 留言 addressed to its department (处置企业部) still unread, with its view.
    expect(r.body.totalElements).toBe(3);
    const addressed = r.body.content.filter((m: { viewId?: number }) => m.viewId !== undefined);
    expect(addressed).toHaveLength(1);
    expect(addressed.every((m: { viewId: number; title: string }) => m.viewId === 18 && m.title)).toBe(true);
    expect(r.body.content.find((m: { viewId?: number }) => m.viewId === undefined)).toEqual({
      id: expect.any(Number),
      content: expect.any(String),
      createTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      senderName: expect.any(String),
      senderUsername: expect.any(String),
      senderCompany: expect.toBeOneOf([expect.any(String), null]),
    });
    expect(r.body.content.map((m: { senderName: string }) => m.senderName)).toContain('王丽华');
  });

  it('stores a leave message for the recipient, by default the administrator', async () => {
    const before = await unread(disposer);
    const r = await producer.post('/api/leaveMessage', { content: '请确认下周二上午的收运时间。', reception: 'disposer' });
    expect(r.status).toBe(200);
    expect(await unread(disposer)).toMatchObject({ leaveNum: before.leaveNum + 1 });
    const list = await disposer.get('/api/unreadLeaveMessage', { page: 1, size: 3 });
    expect(list.body.content[0]).toMatchObject({ content: '请确认下周二上午的收运时间。', senderName: '王丽华' });
    // The sender's own list does not show it.
    const own = await producer.get('/api/unreadLeaveMessage', { page: 1, size: 50 });
    expect(own.body.content.map((m: { content: string }) => m.content)).not.toContain('请确认下周二上午的收运时间。');

    const adminBefore = (await unread(admin)).leaveNum;
    const toAdmin = await producer.post('/api/leaveMessage', { content: '申请开通处置询价功能。' });
    expect(toAdmin.status).toBe(200);
    expect(toAdmin.body.data.reception).toBe('admin');
    expect((await unread(admin)).leaveNum).toBe(adminBefore + 1);
  });

  it('validates leave messages', async () => {
    for (const body of [{}, { content: '' }, { content: '   ' }]) {
      const r = await producer.post('/api/leaveMessage', body);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(refusal(400, 'LEAVE_MESSAGE_REQUIRED'));
    }
    const long = await producer.post('/api/leaveMessage', { content: '废'.repeat(1025) });
    expect(long.status).toBe(400);
    const exact = await producer.post('/api/leaveMessage', { content: '废'.repeat(1024), reception: 'disposer' });
    expect(exact.status).toBe(200);
    // An unknown receiver is answered as a known one (small-holes.test.ts): the answer tells no accounts apart.
    const nobody = await producer.post('/api/leaveMessage', { content: '你好', reception: 'no-such-user' });
    expect(nobody.body).toEqual({ status: 200, message: '留言成功', data: { reception: 'no-such-user' } });
  });

  it('lets only holders of sysMessage:add send notices, to the named users', async () => {
    const denied = await producer.post('/api/sysMessage', { title: '通知', content: '内容' });
    expect(denied.status).toBe(403);

    const before = await unread(producer);
    const disposerBefore = await unread(disposer);
    const r = await admin.post('/api/sysMessage', {
      title: '<p>关于<strong>危废转移联单</strong>填报的提醒</p>',
      content: '<p>请于每月5日前完成上月转移联单的核对。</p>',
      usernames: ['producer'],
    });
    expect(r.status).toBe(200);
    expect(r.body.data.count).toBe(1);
    expect((await unread(producer)).sysNum).toBe(before.sysNum + 1);
    expect(await unread(disposer)).toEqual(disposerBefore);
    expect((await page(producer)).content[0]!.title).toBe('<p>关于<strong>危废转移联单</strong>填报的提醒</p>');

    const missing = await admin.post('/api/sysMessage', { title: '通知', content: '内容', usernames: ['producer', 'ghost'] });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(refusal(400, 'USERS_NOT_FOUND', { names: 'ghost' }));
    expect((await admin.post('/api/sysMessage', { content: '内容' })).status).toBe(400);
    expect((await admin.post('/api/sysMessage', { title: '通知' })).status).toBe(400);
  });

  it('sends to every active user when no names are given', async () => {
    const before = await unread(disposer);
    const r = await admin.post('/api/sysMessage', { title: '全员通知', content: '<p>平台将于今晚升级。</p>' });
    expect(r.status).toBe(200);
    const active = await server.ctx.db.selectFrom('sys_user').select('id').where('status', '=', 0).execute();
    expect(r.body.data.count).toBe(active.length);
    expect((await unread(disposer)).sysNum).toBe(before.sysNum + 1);
  });
});
