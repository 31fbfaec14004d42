import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AuditActor, ownAuditSetting, refusingWrites, writingAs } from '../../server/db/audit.js';
import { migrations } from '../../server/db/migrations/index.js';
import { CallTimes } from '../../server/lib/call-times.js';
import { writerOf } from '../../server/resources/register.js';
import { ROLE } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { uploadFile, workbook } from '../helpers/sheets.js';
import { field } from '../helpers/wire-field.js';

// Every write records who, from where, which record and which fields changed, in the statement that
// changes it; each account reads its own entries, an account that manages users those its scope reaches.
// Runs on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;
let disposer: ApiClient;
let viewId: number;

const checks = {
  basicOption: { sortName: 'id', sortType: 'desc' },
  tableOption: [field('title', '名称', 'varchar', { search: true }), field('score', '评分', 'long')],
  formOption: [field('title', '名称', 'varchar', { required: true }), field('score', '评分', 'long', { min: 1, max: 100 })],
};

interface Entry {
  id: number;
  description: string;
  username: string | null;
  companyId: number | null;
  record: { table: string; title: string | null; id: string | null } | null;
  action: string | null;
  changes: { field: string; label: string | null; before: unknown; after: unknown }[];
  requestIp: string | null;
  browser: string | null;
}

beforeAll(async () => {
  server = await startTestServer();
  [admin, producer, disposer] = await Promise.all([server.login('admin'), server.login('producer'), server.login('disposer')]);
  const add = await admin.post('/api/generation/add', {
    name: '点检记录',
    disMenu: JSON.stringify({ componentName: 'auditChecks', name: '点检记录' }),
  });
  viewId = add.body.id;
  expect((await admin.post('/api/generation/design', { id: viewId, disTemplate: JSON.stringify(checks) })).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

/** The caller's own entries about one record, newest first. */
async function mine(client: ApiClient, table: string, recordId?: string | number): Promise<Entry[]> {
  const r = await client.get('/api/logs/user', { table, recordId: recordId === undefined ? undefined : String(recordId), size: 100 });
  expect(r.status).toBe(200);
  return r.body.content;
}

const changesOf = (e: Entry | undefined) => Object.fromEntries((e?.changes ?? []).map((c) => [c.field, [c.before, c.after]]));

async function rowsOf(table: string, where = sql`true`, db = server.ctx.db): Promise<number> {
  const r = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where ${where}`.execute(db);
  return r.rows[0]?.n ?? 0;
}

describe('generic view calls', () => {
  it('records an add, an edit and a delete with who, where, the record and its fields before and after', async () => {
    const table = `lc_view_${viewId}`;
    const added = await admin.request('POST', `/api/general/add/${viewId}`, {
      json: { title: '一号库点检', score: 80 },
      headers: { 'user-agent': 'audit-test-browser' },
    });
    expect(added.status).toBe(200);
    const id = added.body.id as number;
    const [add] = await mine(admin, table, id);
    expect(add).toMatchObject({
      description: '新增记录',
      username: 'admin',
      action: 'insert',
      record: { table, title: '点检记录', id: String(id) },
      requestIp: expect.any(String),
      browser: 'audit-test-browser',
    });
    expect(changesOf(add)).toMatchObject({ title: [null, '一号库点检'], score: [null, 80] });
    expect(add?.changes.find((c) => c.field === 'title')?.label).toBe('名称');

    expect((await admin.post(`/api/general/update/${viewId}`, { id, title: '一号库点检', score: 90 })).status).toBe(200);
    const [edit] = await mine(admin, table, id);
    expect(edit).toMatchObject({ description: '修改记录', action: 'update' });
    // Only what changed: the title stayed, the update time is no operation.
    expect(changesOf(edit)).toEqual({ score: [80, 90] });

    expect((await admin.post(`/api/general/delete/${viewId}`, [id])).status).toBe(200);
    const [gone] = await mine(admin, table, id);
    expect(gone).toMatchObject({ description: '删除记录', action: 'delete' });
    expect(changesOf(gone)).toMatchObject({ title: ['一号库点检', null], score: [90, null] });
  });

  it('records one entry per imported row, with the row ids', async () => {
    const table = `lc_view_${viewId}`;
    const data = await workbook([
      ['名称', '评分'],
      ['导入甲', 10],
      ['', 500],
      ['导入乙', 20],
    ]);
    const res = await uploadFile(admin, viewId, '点检.xlsx', data);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-import-success')).toBe('2');
    const rows = await sql<{
      id: number;
      title: string;
    }>`select id, title from ${sql.table(table)} where title like '导入%' order by id`.execute(server.ctx.db);
    expect(rows.rows).toHaveLength(2);
    const entries = (await mine(admin, table)).filter((e) => e.description.startsWith('导入'));
    expect(entries.map((e) => e.record?.id).sort()).toEqual(rows.rows.map((r) => String(r.id)).sort());
    expect(entries.every((e) => e.action === 'insert')).toBe(true);
  });

  it("records a script action's change", async () => {
    const list = await admin.get('/api/general/list/12', { status: '0', size: 1 });
    const id = list.body.content[0].id as number;
    expect((await admin.post('/api/general/groovy/12', { groovyQueryParam: 'confirmStock', ids: [id] })).body).toMatchObject({
      status: 200,
    });
    const [entry] = await mine(admin, 'lc_view_12', id);
    expect(entry).toMatchObject({ description: '执行脚本动作', action: 'update', record: { title: expect.any(String) } });
    expect(changesOf(entry).status).toEqual(['0', expect.not.stringMatching(/^0$/)]);
  });
});

describe('core and administration calls', () => {
  it("records a company's own write as its user's, with the company", async () => {
    const saved = await producer.put('/api/companyBank', {
      bankName: '审计测试银行',
      accountName: '审计测试',
      accountNo: '6222000011112222',
    });
    expect(saved.status).toBe(200);
    const [entry] = await mine(producer, 'company_bank');
    expect(entry).toMatchObject({
      description: '修改银行信息',
      username: 'producer',
      companyId: COMPANY.producer,
      record: { table: 'company_bank', title: '企业银行信息', id: String(COMPANY.producer) },
    });
    expect(changesOf(entry).bank_name?.[1]).toBe('审计测试银行');
  });

  it("records an administrator's change to a dictionary", async () => {
    const added = await admin.post('/api/dict', { name: 'auditColours', description: '审计颜色' });
    expect(added.status).toBe(201);
    const [entry] = await mine(admin, 'sys_dict');
    expect(entry).toMatchObject({ description: '新增字典', action: 'insert', record: { table: 'sys_dict', title: '字典' } });
    expect(changesOf(entry).name).toEqual([null, 'auditColours']);
    // A password never shows, only that it changed.
    const user = await sql<{ id: number }>`select id from sys_user where username = 'guest'`.execute(server.ctx.db);
    const uid = user.rows[0]?.id as number;
    expect((await admin.post('/api/pwd/reset', [uid])).status).toBe(200);
    const [reset] = await mine(admin, 'sys_user', uid);
    expect(reset).toMatchObject({ description: '重置密码', action: 'update' });
    expect(changesOf(reset).password).toEqual(['******', '******']);
  });
});

describe('read marks', () => {
  const triggerArgs = async (table: string) =>
    (
      await sql<{ args: string }>`select encode(tgargs, 'escape') as args from pg_trigger
        where tgrelid = to_regclass(${table}) and tgname = 'wg_audit'`.execute(server.ctx.db)
    ).rows[0]?.args;

  it("records no entry for a message marked read, and the migration names the mark on the messages' triggers only", async () => {
    const { db } = server.ctx;
    // A trigger made before read marks were named per table.
    await sql`drop trigger wg_audit on sys_message`.execute(db);
    await sql`create trigger wg_audit after insert or update or delete on sys_message for each row execute function wg_audit('id', '')`.execute(
      db,
    );
    const migration = migrations['0035_audit_named_marks'];
    if (!migration) throw new Error('migration 0035_audit_named_marks is not registered');
    await migration.up(db);
    expect(await triggerArgs('sys_message')).toContain('have_read');
    expect(await triggerArgs('leave_message')).toContain('have_read');
    expect(await triggerArgs(`lc_view_${viewId}`)).not.toContain('have_read');
    const inserted = await db
      .insertInto('sys_message')
      .values({ user_id: 1, title: '已读标记', content: '测试', have_read: false })
      .returning('id')
      .executeTakeFirstOrThrow();
    const before = await rowsOf('sys_log', sql`record_table = 'sys_message'`);
    const actor: AuditActor = { u: 1, n: 'admin', c: null, ip: '127.0.0.1', ad: '内网IP', b: 'test', d: '测试', m: 'TEST', r: 'read-mark' };
    await writingAs(db, actor).updateTable('sys_message').set({ have_read: true }).where('id', '=', inserted.id).execute();
    expect(await rowsOf('sys_log', sql`record_table = 'sys_message'`)).toBe(before);
    await writingAs(db, actor).updateTable('sys_message').set({ title: '改过' }).where('id', '=', inserted.id).execute();
    expect(await rowsOf('sys_log', sql`record_table = 'sys_message'`)).toBe(before + 1);
  });
});

describe('the time of a call', () => {
  it('is given to every entry of calls that answered together', async () => {
    const titles = Array.from({ length: 12 }, (_, i) => `并发${i}`);
    const answers = await Promise.all(titles.map((title) => admin.post(`/api/general/add/${viewId}`, { title, score: 3 })));
    expect(answers.map((a) => a.status)).toEqual(titles.map(() => 200));
    // A call's time is written once it has answered: wait for all twelve.
    await vi.waitFor(
      async () => {
        const r = await sql<{ n: number; timed: number }>`select count(*)::int as n, count(*) filter (where time > 0)::int as timed
          from sys_log where record_table = ${`lc_view_${viewId}`} and changes -> 'title' ->> 1 like '并发%'`.execute(server.ctx.db);
        expect(r.rows[0]).toEqual({ n: 12, timed: 12 });
      },
      { timeout: 10_000, interval: 20 },
    );
  });

  it('is given to the entries of a GET call that changed records (deleting a message)', async () => {
    const { db } = server.ctx;
    const me = await db.selectFrom('sys_user').select('id').where('username', '=', 'producer').executeTakeFirstOrThrow();
    const msg = await db
      .insertInto('sys_message')
      .values({ user_id: me.id, title: '计时', content: '删' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await producer.get('/api/sysMessage/deleteMsg', { id: msg.id });
    expect(res.status).toBe(200);
    await vi.waitFor(
      async () => {
        const r = await sql<{ time: number | null; method: string }>`select time, method from sys_log
          where record_table = 'sys_message' and record_id = ${String(msg.id)} and action = 'delete'`.execute(db);
        expect(r.rows.length).toBeGreaterThan(0);
        expect(r.rows.every((x) => x.time !== null)).toBe(true);
      },
      { timeout: 10_000, interval: 20 },
    );
  });
});

describe('writing the times of calls', () => {
  const timeOf = async (r: string) =>
    (await sql<{ time: number }>`select time from sys_log where request_id = ${r}`.execute(server.ctx.db)).rows.map((x) => x.time);
  const entry = (description: string, r: string, time: number) => ({ description, method: 'POST /test', time, request_id: r });

  it('writes the calls that ended during a write together in the next one', async () => {
    const warned: unknown[] = [];
    const times = new CallTimes(server.ctx.db, (e) => warned.push(e));
    await server.ctx.db
      .insertInto('sys_log')
      .values(['ct-1', 'ct-2', 'ct-3'].map((r) => ({ description: '测试', method: 'POST /test', request_id: r })))
      .execute();
    times.add({ requestId: 'ct-1', time: 7 });
    times.add({ requestId: 'ct-2', time: 8 });
    times.add({ requestId: 'ct-3', time: 9, entry: entry('不该写入', 'ct-3', 9) });
    times.add({ requestId: 'ct-4', time: 5, entry: entry('自己的记录', 'ct-4', 5) });
    await times.settled();
    expect([await timeOf('ct-1'), await timeOf('ct-2'), await timeOf('ct-3'), await timeOf('ct-4')]).toEqual([[7], [8], [9], [5]]);
    expect(warned).toEqual([]);
  });

  it('gathers the calls that end close together into one statement, and writes a lone one unasked', async () => {
    let statements = 0;
    const counted = server.ctx.db.withPlugin({
      transformQuery: (a) => {
        statements++;
        return a.node;
      },
      transformResult: async (a) => a.result,
    });
    const warned: unknown[] = [];
    const times = new CallTimes(counted, (e) => warned.push(e), 200);
    await server.ctx.db
      .insertInto('sys_log')
      .values(['ct-g1', 'ct-g2', 'ct-g3', 'ct-g4'].map((r) => ({ description: '测试', method: 'POST /test', request_id: r })))
      .execute();
    times.add({ requestId: 'ct-g1', time: 1 });
    times.add({ requestId: 'ct-g2', time: 2 });
    times.add({ requestId: 'ct-g3', time: 3 });
    // Nobody settles them: the gathering time ends, and one statement writes all three.
    await vi.waitFor(async () => expect(await timeOf('ct-g3')).toEqual([3]), { timeout: 10_000, interval: 20 });
    expect([await timeOf('ct-g1'), await timeOf('ct-g2')]).toEqual([[1], [2]]);
    expect(statements).toBe(1);
    times.add({ requestId: 'ct-g4', time: 4 });
    await vi.waitFor(async () => expect(await timeOf('ct-g4')).toEqual([4]), { timeout: 10_000, interval: 20 });
    expect(statements).toBe(2);
    expect(warned).toEqual([]);
  });

  it("writes the others' entries when one is refused", async () => {
    const { db } = server.ctx;
    const warned: unknown[] = [];
    const times = new CallTimes(db, (e) => warned.push(e));
    await sql`create function audit_test_fail() returns trigger language plpgsql as $$
      begin if new.description = '拒绝' then raise exception 'entry refused'; end if; return new; end $$`.execute(db);
    await sql`create trigger audit_test_fail before insert on sys_log for each row execute function audit_test_fail()`.execute(db);
    try {
      times.add({ requestId: 'ct-5', time: 5, entry: entry('先到', 'ct-5', 5) });
      times.add({ requestId: 'ct-6', time: 6, entry: entry('拒绝', 'ct-6', 6) });
      times.add({ requestId: 'ct-7', time: 7, entry: entry('后到', 'ct-7', 7) });
      await times.settled();
    } finally {
      await sql`drop trigger audit_test_fail on sys_log`.execute(db);
      await sql`drop function audit_test_fail()`.execute(db);
    }
    expect([await timeOf('ct-5'), await timeOf('ct-6'), await timeOf('ct-7')]).toEqual([[5], [], [7]]);
    expect(warned).toHaveLength(1);
  });
});

describe('a write and its entry commit together', () => {
  it('rolls back a record and its entry when the entry cannot be written', async () => {
    const { db } = server.ctx;
    await sql`create function audit_test_fail() returns trigger language plpgsql as $$
      begin if new.changes -> 'title' ->> 1 = '失败' then raise exception 'audit entry refused'; end if; return new; end $$`.execute(db);
    await sql`create trigger audit_test_fail before insert on sys_log for each row execute function audit_test_fail()`.execute(db);
    try {
      const table = `lc_view_${viewId}`;
      const entries = await rowsOf('sys_log');
      const res = await admin.post(`/api/general/add/${viewId}`, { title: '失败', score: 5 });
      expect(res.status).toBe(500);
      expect(await rowsOf(table, sql`title = '失败'`)).toBe(0);
      expect(await rowsOf('sys_log')).toBe(entries);
    } finally {
      await sql`drop trigger audit_test_fail on sys_log`.execute(db);
      await sql`drop function audit_test_fail()`.execute(db);
    }
  });

  it('rolls back every change of a transaction and their entries when a later one fails', async () => {
    const { db } = server.ctx;
    // The user's roles are written after its name, in one transaction: their entry fails.
    await sql`create function audit_test_fail() returns trigger language plpgsql as $$
      begin if new.record_table = 'sys_users_roles' then raise exception 'audit entry refused'; end if; return new; end $$`.execute(db);
    await sql`create trigger audit_test_fail before insert on sys_log for each row execute function audit_test_fail()`.execute(db);
    try {
      const users = await admin.get('/api/users', { blurry: 'guest' });
      const guest = users.body.content.find((u: { username: string }) => u.username === 'guest');
      const entries = await rowsOf('sys_log');
      const res = await admin.put('/api/users', { ...guest, nickName: '回滚测试', roles: [{ id: ROLE.logistics }] });
      expect(res.status).toBe(500);
      expect(await rowsOf('sys_user', sql`nick_name = '回滚测试'`)).toBe(0);
      expect(await rowsOf('sys_log')).toBe(entries);
    } finally {
      await sql`drop trigger audit_test_fail on sys_log`.execute(db);
      await sql`drop function audit_test_fail()`.execute(db);
    }
  });
});

/** The writer of a test's own writes, as a call would make it (request id `r`). */
const testActor = (r: string): AuditActor => ({
  u: 1,
  n: 'admin',
  c: null,
  ip: '127.0.0.1',
  ad: '内网IP',
  b: 'test',
  d: '测试',
  m: 'TEST',
  r,
});

describe('the writer a connection holds', () => {
  // The setting that names the writer stays on a connection between writes: these run on one connection,
  // as a pool would hand it from one caller to the next.
  const actor = testActor;
  // Read on the connection under test: on PGlite it is the only one.
  const entriesOf = (conn: typeof server.ctx.db, r: string) => rowsOf('sys_log', sql`request_id = ${r}`, conn);
  let recordId: number;
  beforeAll(async () => {
    const res = await admin.post(`/api/general/add/${viewId}`, { title: '连接', score: 1 });
    expect(res.status).toBe(200);
    recordId = Number(res.body.id ?? res.body);
  });
  const bump = (db: typeof server.ctx.db) =>
    sql`update ${sql.table(`lc_view_${viewId}`)} set score = score % 90 + 1 where id = ${recordId}`.execute(db);
  /** The same write, naming its writer itself as the record writes do. */
  const own = (db: typeof server.ctx.db) =>
    sql`update ${sql.table(`lc_view_${viewId}`)} set score = score % 90 + 1 where id = ${recordId} returning ${ownAuditSetting()} as "#a"`.execute(
      db,
    );

  it("records the system's own write after a caller's as nobody's", async () => {
    await server.ctx.db.connection().execute(async (conn) => {
      await bump(writingAs(conn, actor('held-1')));
      const before = await rowsOf('sys_log', sql`true`, conn);
      await bump(conn);
      expect(await rowsOf('sys_log', sql`true`, conn)).toBe(before);
      expect(await entriesOf(conn, 'held-1')).toBe(1);
    });
  });

  it("records each caller's writes as its own, one after another on the connection", async () => {
    await server.ctx.db.connection().execute(async (conn) => {
      const held2 = writingAs(conn, actor('held-2'));
      await bump(held2);
      await bump(held2);
      await bump(writingAs(conn, actor('held-3')));
      await bump(writingAs(conn, actor('held-2')));
      expect([await entriesOf(conn, 'held-2'), await entriesOf(conn, 'held-3')]).toEqual([3, 1]);
    });
  });

  it('records a write after a rolled-back transaction of the same caller', async () => {
    await server.ctx.db.connection().execute(async (conn) => {
      // Nothing is held when the transaction begins; its setting goes with its rollback.
      await bump(conn);
      await writingAs(conn, actor('held-4'))
        .transaction()
        .execute(async (trx) => {
          await bump(trx);
          throw new Error('rolled back');
        })
        .catch(() => {});
      expect(await entriesOf(conn, 'held-4')).toBe(0);
      await bump(writingAs(conn, actor('held-4')));
      expect(await entriesOf(conn, 'held-4')).toBe(1);
    });
  });

  it('records a write that names its writer itself as that writer, or nobody, whatever the connection holds', async () => {
    await server.ctx.db.connection().execute(async (conn) => {
      await bump(writingAs(conn, actor('held-6')));
      await own(writingAs(conn, actor('held-7')));
      const before = await rowsOf('sys_log', sql`true`, conn);
      await own(conn);
      expect(await rowsOf('sys_log', sql`true`, conn)).toBe(before);
      // The connection's own setting was left as it was: the first writer's next write is still its own.
      await bump(writingAs(conn, actor('held-6')));
      expect([await entriesOf(conn, 'held-6'), await entriesOf(conn, 'held-7')]).toEqual([2, 1]);
    });
  });

  it("records the system's write after one that named its writer in the same transaction as nobody's", async () => {
    await server.ctx.db.connection().execute(async (conn) => {
      // The connection holds nobody when the transaction begins.
      await bump(conn);
      const before = await rowsOf('sys_log', sql`true`, conn);
      await conn.transaction().execute(async (trx) => {
        await own(writingAs(trx as typeof server.ctx.db, actor('held-8')));
        await bump(trx);
      });
      expect(await entriesOf(conn, 'held-8')).toBe(1);
      expect(await rowsOf('sys_log', sql`true`, conn)).toBe(before + 1);
    });
  });

  it('records a write after a rollback to a savepoint sent as a statement', async () => {
    await server.ctx.db.connection().execute(async (conn) => {
      await bump(conn);
      await sql`begin`.execute(conn);
      await sql`savepoint held`.execute(conn);
      await bump(writingAs(conn, actor('held-5')));
      await sql`rollback to savepoint held`.execute(conn);
      await sql`commit`.execute(conn);
      expect(await entriesOf(conn, 'held-5')).toBe(0);
      await bump(writingAs(conn, actor('held-5')));
      expect(await entriesOf(conn, 'held-5')).toBe(1);
    });
  });
});

describe("a write made without its call's writer", () => {
  // The route modules hold a handle that refuses to write the trail's tables: a call's change goes
  // through its writer, or fails instead of going unrecorded.
  let recordId: number;
  beforeAll(async () => {
    const res = await admin.post(`/api/general/add/${viewId}`, { title: '拒绝', score: 1 });
    expect(res.status).toBe(200);
    recordId = Number(res.body.id ?? res.body);
  });
  const scoreOf = async () =>
    Number(
      (await sql<{ score: number }>`select score from ${sql.table(`lc_view_${viewId}`)} where id = ${recordId}`.execute(server.ctx.db))
        .rows[0]?.score,
    );

  it('is refused for an audited table, spelt either way, and changes nothing', async () => {
    const refusing = refusingWrites(server.ctx.db);
    const entries = await rowsOf('sys_log');
    await expect(sql`update ${sql.table(`lc_view_${viewId}`)} set score = 50 where id = ${recordId}`.execute(refusing)).rejects.toThrow(
      /without the writer of its call/,
    );
    await expect(
      sql`update ${sql.table(`lc_view_${viewId}`)} set score = 51 where id = ${recordId} returning ${ownAuditSetting()} as "#a"`.execute(
        refusing,
      ),
    ).rejects.toThrow(/without the writer of its call/);
    await expect(refusing.updateTable('sys_user').set({ nick_name: '无名' }).where('username', '=', 'producer').execute()).rejects.toThrow(
      /sys_user written without the writer/,
    );
    await expect(
      refusing
        .transaction()
        .execute((trx) => trx.updateTable('company').set({ name: '无名' }).where('id', '=', COMPANY.producer).execute()),
    ).rejects.toThrow(/company written without the writer/);
    expect(await scoreOf()).toBe(1);
    expect(await rowsOf('sys_log')).toBe(entries);
  });

  it('is let through for a table the trail does not cover, and reads are as ever', async () => {
    const refusing = refusingWrites(server.ctx.db);
    await refusing.insertInto('sys_captcha').values({ uuid: 'refusing-handle', code: 'x', expires_at: sql<Date>`now()` }).execute();
    await refusing.deleteFrom('sys_captcha').where('uuid', '=', 'refusing-handle').execute();
    expect(await refusing.selectFrom('sys_user').select('id').where('username', '=', 'admin').executeTakeFirst()).toBeDefined();
  });

  it("leaves a connection as the next writer needs it: a writer's change after a refusal is its own, the system's nobody's", async () => {
    await server.ctx.db.connection().execute(async (conn) => {
      const actor = testActor('after-refusal');
      const bump = (db: typeof server.ctx.db) =>
        sql`update ${sql.table(`lc_view_${viewId}`)} set score = score % 90 + 1 where id = ${recordId}`.execute(db);
      await expect(bump(refusingWrites(conn))).rejects.toThrow(/without the writer/);
      await bump(writingAs(conn, actor));
      const before = await rowsOf('sys_log', sql`true`, conn);
      await bump(conn);
      expect(await rowsOf('sys_log', sql`true`, conn)).toBe(before);
      expect(await rowsOf('sys_log', sql`request_id = 'after-refusal'`, conn)).toBe(1);
      // A writer's handle made from the refusing one writes as that writer.
      await bump(writingAs(refusingWrites(conn), { ...actor, r: 'over-refusing' }));
      expect(await rowsOf('sys_log', sql`request_id = 'over-refusing'`, conn)).toBe(1);
    });
  });

  it('has no writer to ask for outside a call', async () => {
    const req = { method: 'GET', url: '/x', server: { writerBase: server.ctx.db } } as unknown as FastifyRequest;
    expect(() => writerOf(req)).toThrow(/only for a call's request/);
  });
});

describe('reading the trail', () => {
  it("shows a user only its own entries, and an administrator everyone's by company, user, record and time", async () => {
    const own = await producer.get('/api/logs/user', { size: 100 });
    expect(own.body.content.length).toBeGreaterThan(0);
    expect(own.body.content.every((e: Entry) => e.username === 'producer')).toBe(true);
    const byCompany = await admin.get('/api/logs', { companyId: COMPANY.producer, table: 'company_bank', size: 100 });
    expect(byCompany.status).toBe(200);
    expect(byCompany.body.content.length).toBeGreaterThan(0);
    expect(byCompany.body.content.every((e: Entry) => e.companyId === COMPANY.producer)).toBe(true);
    const byUser = await admin.get('/api/logs', { username: 'producer', from: '2000-01-01', to: '2999-12-31' });
    expect(byUser.body.content.every((e: Entry) => e.username === 'producer')).toBe(true);
    const none = await admin.get('/api/logs', { username: 'producer', to: '2000-01-01' });
    expect(none.body.totalElements).toBe(0);
    const byView = await admin.get('/api/logs', { table: '点检记录' });
    expect(byView.body.content.length).toBeGreaterThan(0);
    expect(byView.body.content.every((e: Entry) => e.record?.table === `lc_view_${viewId}`)).toBe(true);
  });

  it("refuses a producer everyone's entries, and a company's administrator another company's or its users'", async () => {
    expect((await producer.get('/api/logs', { companyId: COMPANY.disposer })).body).toEqual(refusal(403, 'NO_PERMISSION'));
    expect((await producer.get('/api/logs', { username: 'disposer' })).body).toEqual(refusal(403, 'NO_PERMISSION'));
    // The disposer's role is given user management: it reads its own company's entries only.
    const { db } = server.ctx;
    await sql`insert into sys_roles_menus (role_id, menu_id)
      select r.id, m.id from sys_role r, sys_menu m where r.name = '处置企业' and m.permission = 'user:list' on conflict do nothing`.execute(
      db,
    );
    server.ctx.sessions.invalidate();
    const manager = await server.login('disposer');
    expect((await manager.get('/api/logs', { companyId: COMPANY.producer })).body).toEqual(refusal(403, 'LOG_OUTSIDE_SCOPE'));
    expect((await manager.get('/api/logs', { username: 'producer' })).body).toEqual(refusal(403, 'LOG_OUTSIDE_SCOPE'));
    const scoped = await manager.get('/api/logs', { size: 100 });
    expect(scoped.status).toBe(200);
    expect(scoped.body.content.every((e: Entry) => e.companyId === COMPANY.disposer || e.username === 'disposer')).toBe(true);
    expect(scoped.body.content.some((e: Entry) => e.username === 'producer')).toBe(false);
    void disposer;
  });
});
