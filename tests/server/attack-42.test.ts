import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEPT, MENU, ROLE, USER } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { accountMaker } from '../helpers/accounts.js';
import { buttons, PDF, upload } from '../helpers/probes.js';
import { said } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { Client, type Pushed } from '../helpers/ws-client.js';

/**
 * Attack 42: names and other mutable text that stand for an account, a company, a department, a role, a
 * menu or a file. Ordinary accounts (made as an administrator would make them) rename themselves or are
 * renamed, take a freed name, or rename a menu's path, and look for what they inherit: realtime pushes,
 * big screens, files, the log, messages, names of other tenants. Each probe asserts the SAFE behaviour:
 * a failing probe is a hole.
 *
 * Failing when written (2026-12-01):
 * - the realtime channel kept sockets by username: a renamed account's open tab heard the leave
 *   messages, system messages and quote notices of the account that took its old name;
 * - a platform menu editor who designs no screen opened a big screen by giving a directory above a page
 *   it holds a new path, or by moving such a directory under another, so that the page's full address
 *   became a screen's;
 * - a private file followed its uploader's current company: an account moved to another company took
 *   its first company's files along.
 */

let server: TestServer;
let admin: ApiClient;
const db = () => server.ctx.db;
type Row = Record<string, any>;

const { account, role } = accountMaker(
  () => server,
  () => admin,
  '1374242',
);

const sockets: Client[] = [];
const connect = (username: string, token: string | null) => {
  const url = new URL(`/websocket/${username}`, server.url.replace(/^http/, 'ws'));
  if (token) url.searchParams.set('token', token);
  const c = new Client(url.toString());
  sockets.push(c);
  return c;
};

/** A platform account of 全部 that edits menus and designs no screen; it cannot read big screen 50 yet. */
async function menuEditor(username: string, roleName: string): Promise<ApiClient> {
  const made = await account(username, DEPT.ops, null, [
    await role(roleName, [MENU.dashboard, MENU.system, MENU.menu, ...buttons(MENU.menu)], '全部', null, 3),
  ]);
  expect((await made.api.get('/api/screen/detail', { id: 50 })).status).toBe(403);
  return made.api;
}

/**
 * An account (`first`: its department, company and role) with its notices open in a tab, renamed to
 * `{username}_now`; then a producer's new account takes `username`, with its own tab open.
 */
async function renamedWithTabOpen(username: string, first: [number, number, number]) {
  const [dept, company, roleId] = first;
  const old = await account(username, dept, company, [roleId]);
  const oldSocket = connect(username, old.api.token);
  await oldSocket.waitFor((m) => m?.flag === 'unread');
  expect((await admin.put('/api/users', { id: old.id, username: `${username}_now` })).status).toBe(200);
  const heir = await account(username, DEPT.producers, COMPANY.producer, [ROLE.producer]);
  const heirSocket = connect(username, heir.api.token);
  await heirSocket.waitFor((m) => m?.flag === 'unread');
  return { old, oldSocket, heir, heirSocket };
}

/** Pushes a marker to the account's sockets and waits for it on `socket`: what was sent before has arrived. */
async function drained(socket: Client, userId: number): Promise<void> {
  const mark = `marker-${Math.random()}`;
  server.ctx.realtime.push(userId, { sender: 'test', reception: mark, body: {}, flag: 'marker' });
  await socket.waitFor((m) => m?.flag === 'marker' && m?.reception === mark);
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
}, 120_000);
afterEach(() => {
  for (const c of sockets.splice(0)) c.ws.close();
});
afterAll(async () => {
  await server?.close();
});

describe('the realtime channel, by account and not by username', () => {
  it("a renamed account's open socket gets no push meant for the account that takes its old name", async () => {
    // A disposer's account with its notices open in a tab is renamed; another company's new account gets the freed name.
    const { old, oldSocket, heir, heirSocket } = await renamedWithTabOpen('atk42_ws', [DEPT.disposers, COMPANY.disposer, ROLE.disposer]);
    // A leave message to the producer's new account, and a system message to it.
    const producer = await server.login('producer');
    const content = '攻42-只给华瑞新同事：明早八点装车，仓库门禁密码 4242';
    const left = await producer.post('/api/leaveMessage', { content, reception: 'atk42_ws' });
    expect(left.status, said(left)).toBe(200);
    const sys = await admin.post('/api/sysMessage', { title: '攻42-给华瑞新同事的通知', content: '内容', usernames: ['atk42_ws'] });
    expect(sys.status, said(sys)).toBe(200);
    // The heir gets both (its socket is the sync point: both sockets are sent to in one go).
    await heirSocket.waitFor<Pushed>((m) => m?.flag === 'leaveMessage' && m?.body?.content === content);
    await heirSocket.waitFor<Pushed>((m) => m?.flag === 'sysMessage' && String(m?.body?.noticeInfo).includes('攻42'));
    // A socket hears its pushes in order: once a marker sent after them arrives, anything leaked is there.
    await drained(oldSocket, old.id);
    const leaked = (oldSocket.messages as Pushed[]).filter((m) => m?.flag === 'leaveMessage' || m?.flag === 'sysMessage');
    expect(leaked, "the renamed disposer's socket got the producer's new account's notices").toEqual([]);
    // The stored messages are the heir's alone.
    const stored = await db().selectFrom('leave_message').select('user_id').where('content', '=', content).execute();
    expect(stored.map((r) => r.user_id)).toEqual([heir.id]);
  });

  it("a company's notice (a quote) reaches no socket of an account that left the name behind", async () => {
    // The producer company's new account takes the name; a disposer quotes an inquiry of the producer.
    const { old, oldSocket, heirSocket } = await renamedWithTabOpen('atk42_ws2', [DEPT.producer2, COMPANY.producer2, ROLE.producer]);
    const seeded = await sql<Row>`select id::int as id, "inquiryNo", "inquiryStatus", "quotedPrice", "quoteTime"
      from lc_view_15 where "companyId" = ${COMPANY.disposer} and create_company = ${COMPANY.producer} order by id limit 1`.execute(db());
    const inquiry = seeded.rows[0];
    if (!inquiry) throw new Error('no seeded inquiry of the producer to the disposer');
    try {
      await sql`update lc_view_15 set "inquiryStatus" = '0' where id = ${inquiry.id}`.execute(db());
      const disposer = await server.login('disposer');
      const quoted = await disposer.post('/api/disposalQuotePirce/quotedPrice', { id: inquiry.id, quotedPrice: 4242 });
      expect(quoted.status, said(quoted)).toBe(200);
      await heirSocket.waitFor<Pushed>((m) => m?.flag === 'sysMessage' && String(m?.body?.noticeInfo).includes(String(inquiry.inquiryNo)));
      await drained(oldSocket, old.id);
      const leaked = (oldSocket.messages as Pushed[]).filter((m) => m?.flag === 'sysMessage');
      expect(leaked, "another company's quote notice on the renamed account's socket").toEqual([]);
    } finally {
      await sql`update lc_view_15 set "inquiryStatus" = ${inquiry.inquiryStatus}, "quotedPrice" = ${inquiry.quotedPrice},
        "quoteTime" = ${inquiry.quoteTime} where id = ${inquiry.id}`.execute(db());
    }
  });
});

describe('a platform menu editor who designs no screen, and the paths of menus above its pages', () => {
  it('opens no big screen by re-pathing a directory above a page it holds', async () => {
    const editor = await menuEditor('atk42_menus', '攻42-平台菜单');
    expect((await editor.get('/api/data/detail', { id: 2 })).status).toBe(403);
    const before = await db().selectFrom('sys_menu').selectAll().where('id', '=', MENU.menu).executeTakeFirstOrThrow();
    let dirId: number | undefined;
    try {
      // A directory of its own, then its menu page moved below it at the path '50' (nothing a screen's address yet).
      const dir = await editor.post('/api/menus', { type: 0, title: '攻42目录', path: 'atk42dir', icon: 'menu', menuSort: 99 });
      expect(dir.status, said(dir)).toBe(201);
      dirId = dir.body.id as number;
      const moved = await editor.put('/api/menus', {
        id: MENU.menu,
        pid: dirId,
        type: 1,
        title: before.title,
        componentName: before.name,
        component: before.component,
        path: '50',
        icon: before.icon,
        permission: before.permission,
        menuSort: before.sort,
      });
      expect(moved.status, said(moved)).toBe(200);
      // The directory's path is changed: the page below it now sits at the big screen's address.
      const repathed = await editor.put('/api/menus', { id: dirId, type: 0, title: '攻42目录', path: 'screen/vBuild/temp', icon: 'menu' });
      server.ctx.sessions.invalidate();
      const screen = await editor.get('/api/screen/detail', { id: 50 });
      const data = await editor.get('/api/data/detail', { id: 2 });
      expect(
        [screen.status, data.status],
        `re-path ${repathed.status}; the big screen: ${said(screen).slice(0, 120)}; its data view: ${said(data).slice(0, 120)}`,
      ).toEqual([403, 403]);
    } finally {
      const { id: _id, ...rest } = before;
      await db().updateTable('sys_menu').set(rest).where('id', '=', MENU.menu).execute();
      if (dirId) await db().deleteFrom('sys_menu').where('id', '=', dirId).execute();
      server.ctx.sessions.invalidate();
    }
  });
});

describe('a platform menu editor who designs no screen, and moving a directory', () => {
  it('opens no big screen by moving a directory above a page it holds under another directory', async () => {
    const editor = await menuEditor('atk42_menus2', '攻42-平台菜单2');
    const before = await db().selectFrom('sys_menu').selectAll().where('id', '=', MENU.menu).executeTakeFirstOrThrow();
    const made: number[] = [];
    try {
      const lower = await editor.post('/api/menus', { type: 0, title: '攻42下层', path: 'atk42low', icon: 'menu', menuSort: 98 });
      const upper = await editor.post('/api/menus', { type: 0, title: '攻42上层', path: 'screen/vBuild', icon: 'menu', menuSort: 97 });
      expect([lower.status, upper.status], said(upper)).toEqual([201, 201]);
      made.push(lower.body.id, upper.body.id);
      const moved = await editor.put('/api/menus', {
        id: MENU.menu,
        pid: lower.body.id,
        type: 1,
        title: before.title,
        componentName: before.name,
        component: before.component,
        path: '50',
        icon: before.icon,
        permission: before.permission,
        menuSort: before.sort,
      });
      expect(moved.status, said(moved)).toBe(200);
      // The lower directory moves under the upper one at 'temp': the page's address becomes /screen/vBuild/temp/50.
      const rehung = await editor.put('/api/menus', {
        id: lower.body.id,
        pid: upper.body.id,
        type: 0,
        title: '攻42下层',
        path: 'temp',
        icon: 'menu',
      });
      server.ctx.sessions.invalidate();
      const screen = await editor.get('/api/screen/detail', { id: 50 });
      expect(screen.status, `move ${rehung.status}; the big screen: ${said(screen).slice(0, 120)}`).toBe(403);
    } finally {
      const { id: _id, ...rest } = before;
      await db().updateTable('sys_menu').set(rest).where('id', '=', MENU.menu).execute();
      for (const id of made) await db().deleteFrom('sys_menu').where('id', '=', id).execute();
      server.ctx.sessions.invalidate();
    }
  });
});

describe("files known by their uploader's account", () => {
  it('a private file uploaded in one company is not read by another company once its uploader moves there', async () => {
    const uploader = await account('atk42_up', DEPT.producers, COMPANY.producer, [ROLE.producer]);
    const up = await upload(uploader.api, '华瑞-危废处置合同-保密.pdf', PDF);
    expect(up.status, said(up)).toBe(200);
    const source = up.body.filePath as string;
    const disposer = await server.login('disposer');
    expect((await disposer.get('/api/file/preview', { source })).status, 'before the move').toBe(404);
    const producer = await server.login('producer');
    expect((await producer.get('/api/file/preview', { source })).status, "the uploader's company reads it").toBe(200);
    // The account moves to the disposer (an administrator's ordinary change: the employee changed jobs).
    const moved = await admin.put('/api/users', {
      id: uploader.id,
      deptId: DEPT.disposers,
      companyId: COMPANY.disposer,
      roles: [{ id: ROLE.disposer }],
    });
    expect(moved.status, said(moved)).toBe(200);
    const after = await disposer.get('/api/file/preview', { source });
    expect(after.status, `the disposer reads the producer's private file: ${said(after).slice(0, 80)}`).toBe(404);
  });
});

describe('a freed username carries nothing of its former holder', () => {
  it("a company's user editor who takes another company's freed username reads none of its log, messages or notices", async () => {
    const first = await account('atk42_name', DEPT.disposers, COMPANY.disposer, [ROLE.disposer]);
    // Something logged, a leave message and a system message to the first holder.
    expect((await first.api.get('/api/sysMessage/page', { page: 1, size: 5 })).status).toBe(200);
    const producer = await server.login('producer');
    const content = '攻42-给处置企业旧账号的留言';
    expect((await producer.post('/api/leaveMessage', { content, reception: 'atk42_name' })).status).toBe(200);
    expect((await admin.post('/api/sysMessage', { title: '攻42-旧账号通知', content: 'x', usernames: ['atk42_name'] })).status).toBe(200);
    expect((await admin.put('/api/users', { id: first.id, username: 'atk42_name_now' })).status).toBe(200);
    const hrRole = await role(
      '攻42-企业人事',
      [MENU.dashboard, MENU.system, MENU.user, ...buttons(MENU.user)],
      '本企业',
      COMPANY.producer2,
    );
    const hr = await account('atk42_hr', DEPT.producer2, COMPANY.producer2, [hrRole, ROLE.producer]);
    const renamed = await hr.api.put('/api/users', { id: hr.id, username: 'atk42_name' });
    expect(renamed.status, said(renamed)).toBe(200);
    const logs = await hr.api.get('/api/logs', { username: 'atk42_name', size: 100 });
    expect(logs.status, said(logs)).toBe(200);
    const foreign = (logs.body.content as Row[]).filter((e) => e.companyId !== COMPANY.producer2);
    expect(
      foreign.map((e) => [e.id, e.companyId, e.description]),
      'log entries of the first holder',
    ).toEqual([]);
    const leave = await hr.api.get('/api/unreadLeaveMessage', { page: 1, size: 100 });
    expect((leave.body.content as Row[]).map((m) => m.content)).not.toContain(content);
    const sys = await hr.api.get('/api/sysMessage/page', { page: 1, size: 100 });
    expect((sys.body.content as Row[]).map((m) => m.title)).not.toContain('攻42-旧账号通知');
    // The first holder keeps them under its new name.
    const own = await first.api.get('/api/unreadLeaveMessage', { page: 1, size: 100 });
    expect((own.body.content as Row[]).map((m) => m.content)).toContain(content);
  });

  it('a deleted account keeps its username: no one takes it', async () => {
    const gone = await account('atk42_del', DEPT.producers, COMPANY.producer, [ROLE.producer]);
    expect((await admin.delete('/api/users', [gone.id])).status).toBe(200);
    const taken = await admin.post('/api/users', {
      username: 'atk42_del',
      nickName: 'x',
      phone: '13742429999',
      deptId: DEPT.disposers,
      companyId: COMPANY.disposer,
      roles: [{ id: ROLE.disposer }],
    });
    expect([taken.status, taken.body.code], said(taken)).toEqual([400, 'USERNAME_TAKEN']);
  });
});

describe('names that collide with another tenant', () => {
  it("a company does not rename itself to another company's name", async () => {
    // The second disposer's own account (its entry agreement accepted, as it would be).
    await db().updateTable('sys_user').set({ agreement_accepted: true }).where('id', '=', USER.newcomer).execute();
    const disposer2 = await server.login('newcomer');
    const before = await db().selectFrom('company').select('name').where('id', '=', COMPANY.disposer2).executeTakeFirstOrThrow();
    for (const name of ['江苏绿源环保科技有限公司', ' 江苏绿源环保科技有限公司 ']) {
      const r = await disposer2.post('/api/companyApi/update', { name });
      expect(r.status, `${name}: ${said(r)}`).toBeGreaterThanOrEqual(400);
    }
    const after = await db().selectFrom('company').select('name').where('id', '=', COMPANY.disposer2).executeTakeFirstOrThrow();
    expect(after.name).toBe(before.name);
  });

  it("a company's role editor makes no role under a platform role's name", async () => {
    const editor = await account('atk42_roles', DEPT.producers, COMPANY.producer, [
      await role('攻42-企业角色', [MENU.dashboard, MENU.system, MENU.role, ...buttons(MENU.role)], '本企业', COMPANY.producer),
    ]);
    const r = await editor.api.post('/api/roles', { name: '监管人员', level: 3, dataScope: '本企业', menus: [{ id: MENU.dashboard }] });
    expect(r.status, said(r)).toBe(400);
  });

  it('no account is made a supervisor by a department code it sets', async () => {
    const deptRole = await role(
      '攻42-企业部门',
      [MENU.dashboard, MENU.system, MENU.dept, ...buttons(MENU.dept)],
      '本企业',
      COMPANY.producer,
    );
    const editor = await account('atk42_dept', DEPT.producers, COMPANY.producer, [deptRole]);
    const made = await editor.api.post('/api/dept', { name: '攻42监管', pid: DEPT.producers, code: '01', deptSort: 1 });
    expect(made.status, said(made)).toBeGreaterThanOrEqual(400);
    const edit = await editor.api.put('/api/dept', { id: DEPT.producers, name: '监管部门', code: '01' });
    expect(edit.status, said(edit)).toBeGreaterThanOrEqual(400);
    const dept = await db().selectFrom('sys_dept').select(['code']).where('id', '=', DEPT.producers).executeTakeFirstOrThrow();
    expect(dept.code).toBe('02');
  });
});
