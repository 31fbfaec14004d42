import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROLE, USER } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { type LogRow, WRITERS } from '../helpers/audit-log.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { uploadFile, workbook } from '../helpers/sheets.js';
import { field } from '../helpers/wire-field.js';

// Attacks on the audit trail by ordinary accounts: writes left out of it, writes recorded as someone
// else's, entries read outside one's scope, and a caller's setting leaking to the next caller of a pooled
// connection. Each test asserts the safe behaviour. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;
let disposer: ApiClient;
let viewId: number;
let table: string;

const who = WRITERS;
type Who = keyof typeof who;

type Log = LogRow;

const db = () => server.ctx.db;

/** Entries of records of `tbl` (all, or those ids), oldest first. */
async function logs(tbl: string, ids?: (number | string)[]): Promise<Log[]> {
  if (ids && !ids.length) return [];
  const r = await sql<Log>`select user_id, username, company_id::int as company_id, record_table, record_id, action, request_id, changes
    from sys_log where record_table = ${tbl} ${ids ? sql`and record_id in (${sql.join(ids.map(String))})` : sql``} order by id`.execute(
    db(),
  );
  return r.rows;
}

/** Ids of the view's records whose title starts with `prefix`. */
async function idsOf(prefix: string): Promise<number[]> {
  const r = await sql<{ id: number }>`select id::int as id from ${sql.table(table)} where title like ${`${prefix}%`} order by id`.execute(
    db(),
  );
  return r.rows.map((x) => x.id);
}

function expectWriter(entries: Log[], w: Who) {
  for (const e of entries)
    expect({ u: e.user_id, n: e.username, c: e.company_id, r: typeof e.request_id }).toEqual({
      u: who[w].u,
      n: w,
      c: who[w].c,
      r: 'string',
    });
}

const add = (c: ApiClient, title: string, score = 1) => c.post(`/api/general/add/${viewId}`, { title, score });

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
  const created = await admin.post('/api/generation/add', {
    name: '审计攻击',
    disMenu: JSON.stringify({ componentName: 'atkAudit', name: '审计攻击', pid: null }),
  });
  viewId = created.body.id;
  table = `lc_view_${viewId}`;
  const tpl = {
    basicOption: { sortName: 'id', sortType: 'desc' },
    tableOption: [field('title', '名称', 'varchar', { search: true }), field('score', '评分', 'long')],
    formOption: [field('title', '名称', 'varchar', { required: true }), field('score', '评分', 'long', { min: 1, max: 100 })],
  };
  expect((await admin.post('/api/generation/design', { id: viewId, disTemplate: JSON.stringify(tpl) })).status).toBe(200);
  expect((await admin.post('/api/generation/publish', { id: viewId })).status).toBe(200);
  // The producer's and the disposer's roles get every button of the view (their rows: their company's).
  await sql`insert into sys_roles_menus (role_id, menu_id) select r, m.id from sys_menu m, unnest(${[ROLE.producer, ROLE.disposer]}::int[]) r
    where m.permission like 'atkAudit:%' on conflict do nothing`.execute(db());
  server.ctx.sessions.invalidate();
  [producer, disposer] = await Promise.all([server.login('producer'), server.login('disposer')]);
  expect((await add(producer, 'probe')).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

// Whatever a test did: no call's entries name two writers, and no entry of a record has no request.
afterEach(async () => {
  const mixed = await sql<{ request_id: string }>`select request_id from sys_log where request_id is not null group by request_id
    having count(distinct coalesce(user_id::text, '-') || '/' || coalesce(company_id::text, '-')) > 1`.execute(db());
  expect(mixed.rows).toEqual([]);
  const orphans = await sql<{
    n: number;
  }>`select count(*)::int as n from sys_log where record_table is not null and request_id is null`.execute(db());
  expect(orphans.rows[0]?.n).toBe(0);
});

describe('concurrent callers on shared connections', () => {
  it("records each of many parallel adds, updates and deletes of three users as its own writer's", async () => {
    const N = 12;
    const adds = await Promise.all(
      Array.from({ length: N }, (_, i) => [add(producer, `P1-${i}`, 10), add(disposer, `D1-${i}`, 20), add(admin, `A1-${i}`, 30)]).flat(),
    );
    expect(adds.every((r) => r.status === 200)).toBe(true);
    const [p, d, a] = await Promise.all(['P1-', 'D1-', 'A1-'].map(idsOf));
    expect([p?.length, d?.length, a?.length]).toEqual([N, N, N]);
    for (const [ids, w] of [
      [p, 'producer'],
      [d, 'disposer'],
      [a, 'admin'],
    ] as const) {
      const e = await logs(table, ids);
      expect(e.length).toBe(N);
      expect(e.every((x) => x.action === 'insert')).toBe(true);
      expectWriter(e, w);
    }
    // Updates of their own rows, the administrator's of the producer's rows, and deletes, all at once.
    const P = p as number[];
    const D = d as number[];
    const writes = await Promise.all([
      ...P.slice(0, 6).map((id) => producer.post(`/api/general/update/${viewId}`, { id, title: `P1-u${id}`, score: 11 })),
      ...P.slice(6).map((id) => admin.post(`/api/general/update/${viewId}`, { id, title: `P1-a${id}`, score: 77 })),
      ...D.slice(0, 6).map((id) => disposer.post(`/api/general/update/${viewId}`, { id, title: `D1-u${id}`, score: 21 })),
      disposer.post(`/api/general/delete/${viewId}`, D.slice(6)),
      ...(a as number[]).map((id) => admin.post(`/api/general/delete/${viewId}`, [id])),
    ]);
    expect(writes.map((r) => r.status).every((s) => s === 200)).toBe(true);
    const upd = (await logs(table, [...P, ...D])).filter((e) => e.action === 'update');
    expect(upd).toHaveLength(18);
    for (const e of upd) {
      const score = e.changes?.score?.[1];
      expectWriter([e], score === 11 ? 'producer' : score === 77 ? 'admin' : 'disposer');
    }
    const del = [...(await logs(table, D)), ...(await logs(table, a as number[]))].filter((e) => e.action === 'delete');
    expect(del).toHaveLength(6 + N);
    expectWriter(
      del.filter((e) => D.includes(Number(e.record_id))),
      'disposer',
    );
    expectWriter(
      del.filter((e) => !D.includes(Number(e.record_id))),
      'admin',
    );
  });

  it("records core and administration writes interleaved with record writes as their callers'", async () => {
    const guest = (await admin.get('/api/users', { blurry: 'guest' })).body.content.find(
      (u: { username: string }) => u.username === 'guest',
    );
    const calls = await Promise.all(
      Array.from({ length: 6 }, (_, i) => [
        producer.put('/api/companyBank', { bankName: `攻击银行${i}`, accountName: '攻击', accountNo: `62220000111122${10 + i}` }),
        disposer.put('/api/users/center', { nickName: `处置${i}`, phone: '13900000004' }),
        add(producer, `P2-${i}`),
        add(disposer, `D2-${i}`),
        admin.put('/api/users', { ...guest, nickName: `访客${i}` }),
        admin.post('/api/dict', { name: `atkDict${i}`, description: '攻击' }),
        producer.post('/api/leaveMessage', { content: `留言${i}`, reception: 'disposer' }),
      ]).flat(),
    );
    expect(calls.filter((r) => r.status >= 300).map((r) => r.body)).toEqual([]);
    expectWriter(await logs('company_bank'), 'producer');
    expectWriter(
      (await logs('sys_user', [USER.disposer])).filter((e) => e.changes?.nick_name),
      'disposer',
    );
    expectWriter(
      (await logs('sys_user', [USER.guest])).filter((e) => e.changes?.nick_name),
      'admin',
    );
    expectWriter(
      (await logs('sys_dict')).filter((e) => String(e.changes?.name?.[1]).startsWith('atkDict')),
      'admin',
    );
    const leave = await logs('leave_message');
    expect(leave.filter((e) => e.action === 'insert').length).toBeGreaterThanOrEqual(6);
    expectWriter(
      leave.filter((e) => String(e.changes?.content?.[1]).startsWith('留言')),
      'producer',
    );
    expectWriter(await logs(table, await idsOf('P2-')), 'producer');
    expectWriter(await logs(table, await idsOf('D2-')), 'disposer');
    expect(await logs(table, await idsOf('D2-'))).toHaveLength(6);
  });

  it("never records a caller's write as the previous caller's after that one failed half-way", async () => {
    const guest = (await admin.get('/api/users', { blurry: 'guest' })).body.content.find(
      (u: { username: string }) => u.username === 'guest',
    );
    const before = await sql<{ nick_name: string }>`select nick_name from sys_user where id = ${USER.guest}`.execute(db());
    // The user is written before its roles, in one transaction; a role that does not exist fails it.
    const calls = await Promise.all(
      Array.from({ length: 8 }, (_, i) => [
        admin.put('/api/users', { ...guest, nickName: `失败${i}`, roles: [{ id: 2147483000 }] }),
        add(producer, `P3-${i}`),
        disposer.post(`/api/general/add/${viewId}`, { title: `D3-${i}`, score: 1000 }),
        disposer.post(`/api/general/update/${viewId}`, { id: 2147483000, title: 'x', score: 1 }),
        add(disposer, `D3ok-${i}`),
      ]).flat(),
    );
    expect(calls.filter((_, i) => i % 5 === 0).every((r) => r.status >= 400)).toBe(true);
    const after = await sql<{ nick_name: string }>`select nick_name from sys_user where id = ${USER.guest}`.execute(db());
    expect(after.rows).toEqual(before.rows);
    expect((await logs('sys_user', [USER.guest])).filter((e) => String(e.changes?.nick_name?.[1]).startsWith('失败'))).toEqual([]);
    expect(await idsOf('D3-')).toEqual([]);
    expectWriter(await logs(table, await idsOf('P3-')), 'producer');
    expectWriter(await logs(table, await idsOf('D3ok-')), 'disposer');
    expect(await logs(table, await idsOf('D3ok-'))).toHaveLength(8);
  });

  it("records imports with bad rows and script actions run beside other writers as their callers'", async () => {
    const sheet = await workbook([['名称', '评分'], ...Array.from({ length: 30 }, (_, i) => (i % 3 ? [`I4-${i}`, 5] : ['', 500]))]);
    const stock = await admin.get('/api/general/list/12', { status: '0', size: 5 });
    const stockIds = stock.body.content.map((r: { id: number }) => r.id);
    const calls = await Promise.all([
      uploadFile(producer, viewId, '导入.xlsx', sheet),
      ...Array.from({ length: 5 }, (_, i) => add(disposer, `D4-${i}`)),
      admin.post('/api/general/groovy/12', { groovyQueryParam: 'confirmStock', ids: stockIds }),
      uploadFile(disposer, viewId, '导入.xlsx', sheet),
      ...Array.from({ length: 5 }, (_, i) => add(producer, `P4-${i}`)),
    ]);
    expect(calls.map((r) => r.status).every((s) => s === 200)).toBe(true);
    expect(calls[0]?.headers.get('x-import-success')).toBe('20');
    const imported = await idsOf('I4-');
    expect(imported).toHaveLength(40);
    const entries = await logs(table, imported);
    expect(entries).toHaveLength(40);
    const owner = await sql<{
      id: number;
      c: number;
    }>`select id::int as id, create_company::int as c from ${sql.table(table)} where title like 'I4-%'`.execute(db());
    for (const row of owner.rows)
      expectWriter(
        entries.filter((e) => Number(e.record_id) === row.id),
        row.c === COMPANY.producer ? 'producer' : 'disposer',
      );
    expectWriter(
      (await logs('lc_view_12', stockIds)).filter((e) => e.action === 'update'),
      'admin',
    );
    expectWriter(await logs(table, await idsOf('D4-')), 'disposer');
    expectWriter(await logs(table, await idsOf('P4-')), 'producer');
  });
});

describe('deletes, no-op updates, aborted calls and sessions', () => {
  it('records a delete of several (repeated) ids once per record, and refuses one that reaches outside the scope', async () => {
    await Promise.all([add(producer, 'P5-a'), add(producer, 'P5-b'), add(disposer, 'D5-a')]);
    const [pa, pb] = await idsOf('P5-');
    const [da] = await idsOf('D5-');
    const out = await producer.post(`/api/general/delete/${viewId}`, [pa, da]);
    expect(out.status).toBe(404);
    expect(await idsOf('D5-')).toEqual([da]);
    expect((await logs(table, [pa as number, da as number])).filter((e) => e.action === 'delete')).toEqual([]);
    // The same records deleted by two callers at once, with a repeated id: one entry each, by whoever deleted.
    const both = await Promise.all([
      producer.post(`/api/general/delete/${viewId}`, [pa, pb, pa]),
      admin.post(`/api/general/delete/${viewId}`, [pb, pa]),
    ]);
    expect(both.every((r) => r.status === 200 || r.status === 404)).toBe(true);
    expect(await idsOf('P5-')).toEqual([]);
    const gone = (await logs(table, [pa as number, pb as number])).filter((e) => e.action === 'delete');
    expect(gone.map((e) => e.record_id).sort()).toEqual([String(pa), String(pb)].sort());
    for (const e of gone) expect(['producer', 'admin']).toContain(e.username);
  });

  it('writes nothing without an entry: an update that changes nothing changes no field', async () => {
    const id = (await add(producer, 'P6-same', 42)).body.id as number;
    const row = async () =>
      (
        await sql<{ title: string; score: number }>`select title, score::int as score from ${sql.table(table)} where id = ${id}`.execute(
          db(),
        )
      ).rows;
    const was = await row();
    const entries = (await logs(table, [id])).length;
    const same = await Promise.all(
      Array.from({ length: 5 }, () => producer.post(`/api/general/update/${viewId}`, { id, title: 'P6-same', score: 42 })),
    );
    expect(same.every((r) => r.status === 200)).toBe(true);
    expect(await row()).toEqual(was);
    expect((await logs(table, [id])).length).toBe(entries);
    expect((await producer.post(`/api/general/update/${viewId}`, { id, title: 'P6-same', score: 43 })).status).toBe(200);
    expectWriter((await logs(table, [id])).slice(entries), 'producer');
    expect((await logs(table, [id])).length).toBe(entries + 1);
  });

  it("records a call whose client went away as its caller's, and the next caller's writes as theirs", async () => {
    // The client goes away while the call runs, just before its write statement: its socket is dropped there.
    const bus = server.ctx.bus;
    const inStatement = bus.inStatement;
    let socket: Socket | undefined;
    server.app.server.once('request', (req: IncomingMessage) => {
      socket = req.socket;
    });
    bus.inStatement = (...args: Parameters<typeof inStatement>) => {
      socket?.destroy();
      bus.inStatement = inStatement;
      return inStatement.apply(bus, args);
    };
    const dropped = await add(producer, 'P7-gone', 7).catch((e: Error) => e);
    expect(dropped).toBeInstanceOf(Error);
    await Promise.all(Array.from({ length: 4 }, (_, i) => add(disposer, `D7-${i}`)));
    await vi.waitFor(async () => expect(await idsOf('P7-gone')).toHaveLength(1), { timeout: 10_000, interval: 20 });
    const entries = await logs(table, await idsOf('P7-gone'));
    expect(entries).toHaveLength(1);
    expectWriter(entries, 'producer');
    expectWriter(await logs(table, await idsOf('D7-')), 'disposer');
  });

  it('records no write for logins and logouts, refuses the ended session, and keeps writes of others as theirs', async () => {
    const sessions = await Promise.all(Array.from({ length: 4 }, () => server.login('producer')));
    const churn = await Promise.all([
      ...sessions.map((s) => s.request('DELETE', '/api/auth/logout')),
      ...Array.from({ length: 4 }, () => server.login('producer').then(() => ({ status: 200 }))),
      ...Array.from({ length: 4 }, (_, i) => add(disposer, `D8-${i}`)),
    ]);
    expect(churn.every((r) => r.status === 200)).toBe(true);
    const ended = await add(sessions[0] as ApiClient, 'P8-after-logout');
    expect(ended.status).toBe(401);
    expect(await idsOf('P8-')).toEqual([]);
    expectWriter(await logs(table, await idsOf('D8-')), 'disposer');
    const signIns = await sql<{
      n: number;
    }>`select count(*)::int as n from sys_log where method like '%/api/auth/%' and record_table is not null`.execute(db());
    expect(signIns.rows[0]?.n).toBe(0);
  });
});

describe('writes through GET calls', () => {
  it("records messages deleted and read through GET calls, in parallel, as their readers'", async () => {
    expect(
      (await admin.post('/api/sysMessage', { title: '攻击', content: '攻击', usernames: ['producer', 'disposer'] })).status,
    ).toBeLessThan(300);
    const mine = async (u: number) =>
      (await sql<{ id: number }>`select id::int as id from sys_message where user_id = ${u} and title = '攻击'`.execute(db())).rows.map(
        (r) => r.id,
      );
    const [p, d] = [await mine(USER.producer), await mine(USER.disposer)];
    const calls = await Promise.all([
      producer.get('/api/sysMessage/readAll'),
      disposer.get('/api/sysMessage/deleteMsg', { ids: d.join(',') }),
      producer.get('/api/sysMessage/deleteMsg', { ids: p.join(',') }),
      disposer.get('/api/sysMessage/deleteMsg', { ids: p.join(',') }),
    ]);
    expect(calls[0]?.status).toBe(200);
    expect(await mine(USER.producer)).toEqual([]);
    const gone = (await logs('sys_message', [...p, ...d])).filter((e) => e.action === 'delete');
    expect(gone).toHaveLength(p.length + d.length);
    expectWriter(
      gone.filter((e) => p.includes(Number(e.record_id))),
      'producer',
    );
    expectWriter(
      gone.filter((e) => d.includes(Number(e.record_id))),
      'disposer',
    );
  });
});

describe('fields the trail leaves out', () => {
  it("records a change to a view's field whatever the field is named (read marks are the messages' own)", async () => {
    const created = await admin.post('/api/generation/add', {
      name: '已读字段',
      disMenu: JSON.stringify({ componentName: 'atkRead', name: '已读字段' }),
    });
    const id = created.body.id as number;
    const tpl = { tableOption: [field('title', '名称', 'varchar'), field('have_read', '已读', 'varchar')] };
    expect((await admin.post('/api/generation/design', { id, disTemplate: JSON.stringify(tpl) })).status).toBe(200);
    const rec = (await admin.post(`/api/general/add/${id}`, { title: '甲', have_read: '否' })).body.id as number;
    const before = (await logs(`lc_view_${id}`, [rec])).length;
    expect((await admin.post(`/api/general/update/${id}`, { id: rec, title: '甲', have_read: '是' })).status).toBe(200);
    const stored = await sql<{ v: string }>`select have_read as v from ${sql.table(`lc_view_${id}`)} where id = ${rec}`.execute(db());
    expect(stored.rows[0]?.v).toBe('是');
    expect((await logs(`lc_view_${id}`, [rec])).length).toBe(before + 1);
  });
});

describe('reading the trail', () => {
  it('shows an account only its own entries, whatever it asks for', async () => {
    // The producer has an entry of its own to be shown.
    expect((await add(producer, '读取自己的')).status).toBe(200);
    for (const q of [{}, { userId: USER.admin }, { username: 'admin' }, { companyId: COMPANY.disposer }, { table: "x' or '1'='1" }]) {
      const r = await producer.get('/api/logs/user', { ...q, size: 200 });
      expect(r.status).toBe(200);
      // Only a table filter may leave nothing to show; the other parameters are not the producer's to set.
      if (!('table' in q)) expect(r.body.content.length).toBeGreaterThan(0);
      expect(r.body.content.every((e: { username: string | null }) => e.username === 'producer')).toBe(true);
    }
    for (const q of [{}, { userId: USER.producer }, { username: 'producer' }, { companyId: COMPANY.producer }])
      expect((await producer.get('/api/logs', q)).status).toBe(403);
  });

  it("keeps a company's user manager within its company, however it combines the filters", async () => {
    await sql`insert into sys_roles_menus (role_id, menu_id) select ${ROLE.disposer}, m.id from sys_menu m where m.permission = 'user:list'
      on conflict do nothing`.execute(db());
    server.ctx.sessions.invalidate();
    const manager = await server.login('disposer');
    const asks = [
      {},
      { userId: USER.producer },
      { username: 'producer' },
      { companyId: COMPANY.producer },
      { userId: USER.disposer, username: 'producer' },
      { userId: USER.producer, username: 'disposer' },
      { username: 'nobody-such' },
      { userId: 2147483000 },
      { table: table },
      { table: '审计攻击' },
    ];
    // Its own company's entries are answered: the refusals below are of the other filters, not of the call.
    expect((await manager.get('/api/logs', { size: 1 })).status).toBe(200);
    for (const q of asks) {
      const r = await manager.get('/api/logs', { ...q, size: 500 });
      if (r.status === 403) continue;
      expect(r.status).toBe(200);
      for (const e of r.body.content as { username: string | null; companyId: number | null }[])
        expect(e.companyId === COMPANY.disposer || e.username === 'disposer').toBe(true);
    }
  });
});
