import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPT, ROLE } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { accountMaker } from '../helpers/accounts.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { type Cell, sheetRows, uploadFile, workbook } from '../helpers/sheets.js';
import { Client, type Pushed } from '../helpers/ws-client.js';

/**
 * 留言管理's records addressed to a department (接收部门): the department's users are told as of a
 * leave message (the notice, the badge's count, 未读留言), and one of them reading it marks it read for
 * the department. Nobody else is told or may read it there: not its author, not another department of
 * the same company, not another company's users, not the administrator.
 */

const LEAVE_VIEW = 18;

interface Unread {
  sysNum: number;
  leaveNum: number;
  total: number;
}
interface InboxRow {
  id: number;
  content: string;
  senderName: string;
  senderUsername: string | null;
  senderCompany: string | null;
  viewId?: number | null;
  title?: string | null;
}

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;
let disposer: ApiClient;
let colleague: ApiClient;
let otherDept: ApiClient;
let otherDeptId = 0;
const sockets: Client[] = [];

const makers = accountMaker(
  () => server,
  () => admin,
  '1375242',
);

const connect = async (username: string, client: ApiClient) => {
  const url = new URL(`/websocket/${username}`, server.url.replace(/^http/, 'ws'));
  url.searchParams.set('token', client.token as string);
  const c = new Client(url.toString());
  sockets.push(c);
  await c.opened;
  // The count the socket is sent on opening: it is registered by then.
  await c.waitFor<Pushed>((m) => m?.flag === 'unread');
  return c;
};

const unread = async (c: ApiClient) => (await c.get('/api/sysMessage/getUnreadNum')).body.data as Unread;
const inbox = async (c: ApiClient) =>
  (await c.get('/api/unreadLeaveMessage', { page: 1, size: 100 })).body as { content: InboxRow[]; totalElements: number };

beforeAll(async () => {
  server = await startTestServer();
  [admin, producer, disposer] = await Promise.all([server.login('admin'), server.login('producer'), server.login('disposer')]);
  // Another department of the producer's company, and an account in each of its two departments.
  const dept = await server.ctx.db
    .insertInto('sys_dept')
    .values({ pid: null, name: '留言测试部', code: null, sort: 90, enabled: true, company_id: COMPANY.producer })
    .returning('id')
    .executeTakeFirstOrThrow();
  otherDeptId = dept.id;
  colleague = (await makers.account('dm_colleague', DEPT.producers, COMPANY.producer, [ROLE.producer])).api;
  otherDept = (await makers.account('dm_other', dept.id, COMPANY.producer, [ROLE.producer])).api;
});

afterAll(async () => {
  for (const s of sockets) s.ws.close();
  await server?.close();
});

describe('a 留言 addressed to a department', () => {
  it('is told to that department’s users alone, counted unread for them, and read by them only', async () => {
    const readers = { producer, colleague, otherDept, disposer, admin };
    const before = Object.fromEntries(await Promise.all(Object.entries(readers).map(async ([k, c]) => [k, await unread(c)] as const)));
    const socket = {
      producer: await connect('producer', producer),
      colleague: await connect('dm_colleague', colleague),
      otherDept: await connect('dm_other', otherDept),
      disposer: await connect('disposer', disposer),
      admin: await connect('admin', admin),
    };

    const title = `卸货时间调整-${Date.now()}`;
    const added = await disposer.post(`/api/general/add/${LEAVE_VIEW}`, {
      title,
      content: '本周四卸料区检修，请勿安排车辆进场。',
      contactName: '处置方调度',
      deptId: DEPT.producers,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const id = added.body.id as number;

    // The department's users get the leave message's notice.
    const isIt = (m: Pushed) => m?.flag === 'leaveMessage' && m?.body?.content === title;
    for (const [name, c] of [
      ['producer', socket.producer],
      ['dm_colleague', socket.colleague],
    ] as const) {
      const pushed = await c.waitFor<Pushed>(isIt);
      expect(pushed).toMatchObject({ sender: 'disposer', reception: name, body: { noticeInfo: '您有一条新留言' } });
    }
    // Nobody else: a system message sent after it reaches the others first, and nothing came before it.
    const marker = `标记-${Date.now()}`;
    expect(
      (await admin.post('/api/sysMessage', { title: marker, content: marker, usernames: ['dm_other', 'disposer', 'admin'] })).status,
    ).toBe(200);
    for (const c of [socket.otherDept, socket.disposer, socket.admin]) {
      await c.waitFor<Pushed>((m) => m?.flag === 'sysMessage' && m?.body?.noticeInfo === marker);
      expect((c.messages as Pushed[]).filter(isIt)).toEqual([]);
    }

    // Counted unread by the department's users; the others' leave counts did not move.
    for (const k of ['producer', 'colleague'] as const) {
      expect((await unread(readers[k])).leaveNum, k).toBe(before[k]!.leaveNum + 1);
    }
    for (const k of ['otherDept', 'disposer', 'admin'] as const) {
      expect((await unread(readers[k])).leaveNum, k).toBe(before[k]!.leaveNum);
    }

    // In 未读留言 with its title and author; nowhere else.
    const row = (await inbox(producer)).content.find((m) => m.viewId === LEAVE_VIEW && m.id === id);
    expect(row).toMatchObject({
      title,
      content: '本周四卸料区检修，请勿安排车辆进场。',
      senderName: '处置方调度',
      senderUsername: 'disposer',
    });
    for (const c of [otherDept, disposer, admin]) {
      expect((await inbox(c)).content.some((m) => m.viewId === LEAVE_VIEW && m.id === id)).toBe(false);
    }

    // Reading it is refused to everyone outside the department, as a message that is not there.
    for (const c of [otherDept, disposer, admin]) {
      const refused = await c.get('/api/leaveMessage/readOne', { id, viewId: LEAVE_VIEW });
      expect(refused.status).toBe(404);
    }
    // Nor does another view's id read it.
    expect((await producer.get('/api/leaveMessage/readOne', { id, viewId: 12 })).status).toBe(404);
    const stillUnread = await sql<{ r: string }>`select "haveRead" as r from lc_view_18 where id = ${id}`.execute(server.ctx.db);
    // 是否已读 left empty (the form's 否 is its default) reads as unread.
    expect(stillUnread.rows[0]?.r ?? '2').toBe('2');

    // One of the department reads it: read for the whole department.
    const read = await colleague.get('/api/leaveMessage/readOne', { id, viewId: LEAVE_VIEW });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id, viewId: LEAVE_VIEW, title });
    const nowRead = await sql<{ r: string }>`select "haveRead" as r from lc_view_18 where id = ${id}`.execute(server.ctx.db);
    expect(nowRead.rows[0]?.r).toBe('1');
    for (const k of ['producer', 'colleague'] as const) {
      expect((await unread(readers[k])).leaveNum, k).toBe(before[k]!.leaveNum);
    }
    expect((await inbox(producer)).content.some((m) => m.viewId === LEAVE_VIEW && m.id === id)).toBe(false);
  });

  it('tells nobody of a 留言 without a department, nor its author of one to its own department', async () => {
    const before = (await unread(producer)).leaveNum;
    const own = await producer.post(`/api/general/add/${LEAVE_VIEW}`, {
      title: '自己部门',
      content: '内容',
      contactName: '产废方',
      deptId: DEPT.producers,
    });
    expect(own.status).toBe(200);
    const none = await producer.post(`/api/general/add/${LEAVE_VIEW}`, { title: '无部门', content: '内容', contactName: '产废方' });
    expect(none.status).toBe(200);
    expect((await unread(producer)).leaveNum).toBe(before);
    // The colleague in that department is told of the first.
    expect((await inbox(colleague)).content.some((m) => m.viewId === LEAVE_VIEW && m.id === own.body.id)).toBe(true);
  });

  it('a message re-addressed to another department is told to it as a new one', async () => {
    const socket = await connect('dm_other', otherDept);
    const title = `改投部门-${Date.now()}`;
    const added = await disposer.post(`/api/general/add/${LEAVE_VIEW}`, {
      title,
      content: '内容',
      contactName: '处置方',
      deptId: DEPT.producers,
    });
    expect(added.status).toBe(200);
    const id = added.body.id as number;
    const form = (await disposer.get('/api/general/formData', { generalId: LEAVE_VIEW, id })).body.data as Record<string, unknown>;
    const moved = await disposer.post(`/api/general/update/${LEAVE_VIEW}`, { ...form, id, deptId: otherDeptId });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const pushed = await socket.waitFor<Pushed>((m) => m?.flag === 'leaveMessage' && m?.body?.content === title);
    expect(pushed).toMatchObject({ sender: 'disposer', reception: 'dm_other', body: { noticeInfo: '您有一条新留言' } });
    // An edit that keeps the department tells nobody again.
    const edited = await disposer.post(`/api/general/update/${LEAVE_VIEW}`, { ...form, id, deptId: otherDeptId, content: '改了内容' });
    expect(edited.status).toBe(200);
    const marker = `标记-${Date.now()}`;
    expect((await admin.post('/api/sysMessage', { title: marker, content: marker, usernames: ['dm_other'] })).status).toBe(200);
    await socket.waitFor<Pushed>((m) => m?.flag === 'sysMessage' && m?.body?.noticeInfo === marker);
    expect((socket.messages as Pushed[]).filter((m) => m?.flag === 'leaveMessage' && m?.body?.content === title)).toHaveLength(1);
  });

  it('imported messages are told to each department once, with their count', async () => {
    const socket = await connect('dm_colleague', colleague);
    const template = await disposer.get(`/api/general/${LEAVE_VIEW}/template`);
    expect(template.status).toBe(200);
    const [header = []] = await sheetRows(template.body as Buffer);
    const dept = await server.ctx.db.selectFrom('sys_dept').select('name').where('id', '=', DEPT.producers).executeTakeFirstOrThrow();
    const stamp = Date.now();
    const row = (title: string): Cell[] =>
      header.map((h) =>
        h === '留言标题' ? title : h === '留言内容' ? '导入的留言' : h === '留言人' ? '处置方' : h === '接收部门' ? dept.name : null,
      );
    const res = await uploadFile(
      disposer,
      LEAVE_VIEW,
      '留言.xlsx',
      await workbook([header, row(`导入一-${stamp}`), row(`导入二-${stamp}`)]),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-import-success'), JSON.stringify((await sheetRows(res.body as Buffer)).map((r) => r.at(-1)))).toBe('2');
    const pushed = await socket.waitFor<Pushed>((m) => m?.flag === 'leaveMessage' && m?.body?.noticeInfo === '您有2条新留言');
    expect(pushed).toMatchObject({ sender: 'disposer', reception: 'dm_colleague' });
  });
});
