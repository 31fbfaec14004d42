import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataViewPoolOf, withDataViewConnection } from '../../server/lowcode/data-view.js';
import { DATA_VIEW_TABLES, GUARD_MESSAGES, guardDataViewSql, privateViewTables, rowsOf } from '../../server/lowcode/sql-guard.js';
import { advisoryLocks } from '../helpers/locks.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

const TIMEOUT_MS = 500;

let server: TestServer;
let admin: ApiClient;
/** The data views of the freshly seeded database. */
let seeded: { id: number; name: string; sql: string }[];

beforeAll(async () => {
  server = await startTestServer({ dataViewTimeoutMs: TIMEOUT_MS });
  admin = await server.login('admin');
  seeded = await server.ctx.db.selectFrom('lc_data_view').select(['id', 'name', 'sql']).orderBy('id').execute();
});
afterAll(async () => {
  await server?.close();
});

const fn = GUARD_MESSAGES.function;
const table = GUARD_MESSAGES.table;
const ONLY = GUARD_MESSAGES.onlyQueries;
const ONE = GUARD_MESSAGES.oneStatement;
const SYNTAX = /^SQL 语法错误：第 \d+ 行第 \d+ 列/;
const TIMED_OUT = /^数据视图执行超时/;

/**
 * Hostile data views and the refusal each must get. `postgres` is what PostgreSQL answers when it differs:
 * there a recursive CTE passes the guard and is stopped by statement_timeout instead.
 */
const CORPUS: { sql: string; refusal: string | RegExp; postgres?: RegExp }[] = [
  // E'' strings with escaped quotes, several statements, commits.
  { sql: `select e'\\'' ; commit; insert into lc_view_12 ("stockNo") values ('HACK-1')`, refusal: ONE },
  { sql: `select e'\\';' as x; commit; delete from lc_view_12 --'`, refusal: ONE },
  { sql: `select E'it\\'s' as a; commit; update lc_view_12 set quantity = 0`, refusal: ONE },
  { sql: `select 'a'';' as x; commit; insert into sys_setting values ('hack', 'x')`, refusal: ONE },
  { sql: `select e'\\\\' as a; delete from lc_view_12; --'`, refusal: ONE },
  { sql: 'select 1; select 2', refusal: ONE },
  { sql: 'select 1;;; delete from lc_view_12', refusal: ONE },
  { sql: 'select 1 --\n; delete from lc_view_12', refusal: ONE },
  { sql: 'select 1 /* /* nested */ */; delete from lc_view_12', refusal: ONE },
  { sql: 'select $$ ; $$ as a; delete from lc_view_12', refusal: ONE },
  { sql: 'select $q$ ; $q$ as a; commit; truncate lc_view_12', refusal: ONE },
  // U& and quoted names.
  { sql: 'select U&"\\0070g_sleep"(1)', refusal: fn('pg_sleep') },
  { sql: 'select U&"\\0073ys_user".* from U&"\\0073ys_user"', refusal: table('sys_user') },
  { sql: 'select U&"!0070g_sleep" UESCAPE \'!\' (1)', refusal: fn('pg_sleep') },
  { sql: 'select "pg_sleep"(1)', refusal: fn('pg_sleep') },
  { sql: 'select pg_catalog."pg_sleep"(1)', refusal: fn('pg_sleep') },
  { sql: 'select PG_SLEEP(1)', refusal: fn('pg_sleep') },
  { sql: "select pg_sleep_for('1 second')", refusal: fn('pg_sleep_for') },
  { sql: "select pg_sleep_until(now() + interval '1 second')", refusal: fn('pg_sleep_until') },
  { sql: 'select * from lc_view_12, lateral pg_sleep(1)', refusal: fn('pg_sleep') },
  { sql: 'select * from rows from (pg_sleep(1)) t', refusal: fn('pg_sleep') },
  { sql: 'select (select pg_sleep(1)) as s', refusal: fn('pg_sleep') },
  { sql: 'select * from lc_view_12 order by pg_sleep(0.1)', refusal: fn('pg_sleep') },
  { sql: 'select count(*) filter (where pg_sleep(1) is null) from lc_view_12', refusal: fn('pg_sleep') },
  // Recursion, which the planner cannot estimate.
  {
    sql: 'with recursive r(n) as (select 1 union all select n + 1 from r) select count(*) from r',
    refusal: GUARD_MESSAGES.recursive,
    postgres: TIMED_OUT,
  },
  {
    sql: 'with recursive r(n) as (select 1 union all select n from r) select * from r limit 1 offset 100000000',
    refusal: GUARD_MESSAGES.recursive,
    postgres: TIMED_OUT,
  },
  // Writes inside a query, SELECT INTO, row locks.
  { sql: 'with x as (delete from lc_view_12 returning *) select * from x', refusal: ONLY },
  { sql: "with x as (insert into sys_setting values ('hack', 'x') returning *) select 1", refusal: ONLY },
  { sql: 'with x as (update lc_view_12 set quantity = 0 returning 1) select 1', refusal: ONLY },
  { sql: 'select * from (with x as (delete from lc_view_13 returning 1) select * from x) y', refusal: ONLY },
  { sql: 'select * into hack_copy from lc_view_12', refusal: GUARD_MESSAGES.into },
  { sql: 'select * from lc_view_12 for update', refusal: GUARD_MESSAGES.locking },
  { sql: 'select * from (select * from lc_view_12 for share) s', refusal: GUARD_MESSAGES.locking },
  { sql: 'select * from lc_view_12 for no key update skip locked', refusal: GUARD_MESSAGES.locking },
  // Secrets, password hashes and sessions, however they are reached.
  { sql: 'select * from sys_setting', refusal: table('sys_setting') },
  { sql: "select value from sys_setting where name like '%secret%'", refusal: table('sys_setting') },
  { sql: 'select username, password from sys_user', refusal: table('sys_user') },
  { sql: 'select id, user_id from sys_session', refusal: table('sys_session') },
  { sql: 'select (select password from sys_user limit 1) as p', refusal: table('sys_user') },
  { sql: "select * from lc_view_12 where exists (select 1 from sys_user u where u.password like '$2%')", refusal: table('sys_user') },
  { sql: 'with s as (select * from sys_setting) select * from s', refusal: table('sys_setting') },
  { sql: 'select c.name, u.password from company c join sys_user u on u.company_id = c.id', refusal: table('sys_user') },
  { sql: 'select "stockNo", null from lc_view_12 union all select username, password from sys_user', refusal: table('sys_user') },
  { sql: 'select (with u as (select password from sys_user) select count(*) from u) as n', refusal: table('sys_user') },
  { sql: 'select * from public.sys_user', refusal: table('public.sys_user') },
  { sql: 'select * from "SYS_USER"', refusal: table('SYS_USER') },
  { sql: 'select * from "sys_user"', refusal: table('sys_user') },
  { sql: 'select * from only sys_user', refusal: table('sys_user') },
  { sql: 'table sys_user', refusal: table('sys_user') },
  { sql: 'table sys_session', refusal: table('sys_session') },
  { sql: 'select to_json(u) from sys_user u', refusal: table('sys_user') },
  { sql: 'select * from lc_view_12 natural join sys_users_roles', refusal: table('sys_users_roles') },
  { sql: 'select * from sys_log', refusal: table('sys_log') },
  { sql: 'select * from sys_email_code', refusal: table('sys_email_code') },
  { sql: 'select access_key from lc_screen', refusal: table('lc_screen') },
  { sql: 'select sql from lc_data_view', refusal: table('lc_data_view') },
  { sql: 'select * from mydb.public.company', refusal: table('mydb.public.company') },
  // A CTE only hides a table where it is visible.
  { sql: 'with sys_user as (select * from sys_user) select * from sys_user', refusal: table('sys_user') },
  { sql: 'with a as (select * from b), b as (select 1) select * from a', refusal: table('b') },
  {
    sql: 'with sys_user as (select 1 as x) select * from (select * from sys_user) a, public.sys_user b',
    refusal: table('public.sys_user'),
  },
  { sql: 'select * from (with sys_user as (select 1) select * from sys_user) a, sys_user b', refusal: table('sys_user') },
  // Catalogs.
  { sql: 'select * from pg_catalog.pg_authid', refusal: table('pg_catalog.pg_authid') },
  { sql: 'select * from pg_shadow', refusal: table('pg_shadow') },
  { sql: 'select * from pg_stat_activity', refusal: table('pg_stat_activity') },
  { sql: 'select * from information_schema.tables', refusal: table('information_schema.tables') },
  { sql: 'select 1 from lc_view_12 where 1 = (select count(*) from pg_class)', refusal: table('pg_class') },
  { sql: 'select * from "pg_catalog"."pg_roles"', refusal: table('pg_catalog.pg_roles') },
  // Files, programs, other databases, settings, sequences, nested SQL, locks.
  { sql: "select pg_read_file('/etc/passwd')", refusal: fn('pg_read_file') },
  { sql: "select pg_read_binary_file('/etc/passwd')", refusal: fn('pg_read_binary_file') },
  { sql: "select convert_from(pg_read_binary_file('/etc/passwd'), 'utf8')", refusal: fn('convert_from') },
  { sql: "select pg_ls_dir('.')", refusal: fn('pg_ls_dir') },
  { sql: "select lo_import('/etc/passwd')", refusal: fn('lo_import') },
  { sql: 'select lo_get(1)', refusal: fn('lo_get') },
  { sql: 'copy sys_user to stdout', refusal: ONLY },
  { sql: "copy (select 1) to program 'id'", refusal: ONLY },
  { sql: "select * from dblink('dbname=postgres', 'select 1') as t(a int)", refusal: fn('dblink') },
  { sql: "select set_config('statement_timeout', '0', false)", refusal: fn('set_config') },
  { sql: "select pg_catalog.set_config('role', 'postgres', true)", refusal: fn('set_config') },
  { sql: "select current_setting('data_directory')", refusal: fn('current_setting') },
  { sql: 'select "current_setting"(\'is_superuser\')', refusal: fn('current_setting') },
  { sql: "select nextval('lc_view_12_id_seq')", refusal: fn('nextval') },
  { sql: "select setval('lc_view_12_id_seq', 1)", refusal: fn('setval') },
  { sql: "select query_to_xml('select * from sys_user', true, true, '')", refusal: fn('query_to_xml') },
  { sql: 'select txid_current()', refusal: fn('txid_current') },
  { sql: 'select pg_advisory_lock(1)', refusal: fn('pg_advisory_lock') },
  { sql: 'select pg_terminate_backend(pg_backend_pid())', refusal: fn('pg_terminate_backend') },
  { sql: 'select version()', refusal: fn('version') },
  { sql: "select public.dash_num('1')", refusal: fn('public.dash_num') },
  { sql: "select repeat('x', 1000000000)", refusal: fn('repeat') },
  { sql: "select lpad('x', 500000000, 'y')", refusal: GUARD_MESSAGES.pad('lpad') },
  { sql: "select rpad('x', (select 100000000))", refusal: GUARD_MESSAGES.pad('rpad') },
  { sql: 'select xmlparse(document \'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>\')', refusal: GUARD_MESSAGES.xml },
  // Row bombs the planner could not count.
  { sql: 'select count(*) from generate_series(1, (select 1000000000))', refusal: GUARD_MESSAGES.series },
  { sql: "select count(*) from generate_series(now(), now() + interval '100 years', interval '1 second')", refusal: GUARD_MESSAGES.series },
  { sql: 'select count(*) from lc_view_12, generate_series(1, quantity::int * 100000000)', refusal: GUARD_MESSAGES.series },
  // Statements that are not queries.
  { sql: 'do $$ begin perform pg_sleep(1); end $$', refusal: ONLY },
  { sql: 'call some_procedure()', refusal: ONLY },
  { sql: 'explain analyze select * from lc_view_12', refusal: ONLY },
  { sql: 'prepare p as select * from sys_user', refusal: ONLY },
  { sql: 'execute p', refusal: ONLY },
  { sql: 'set role postgres', refusal: ONLY },
  { sql: 'show all', refusal: ONLY },
  { sql: 'create table hack (a int)', refusal: ONLY },
  { sql: 'lock table lc_view_12', refusal: ONLY },
  { sql: "notify hack, 'x'", refusal: ONLY },
  { sql: 'vacuum', refusal: ONLY },
  { sql: 'delete from lc_view_12', refusal: ONLY },
  // Broken SQL says where it breaks.
  { sql: "select 'unterminated from lc_view_12", refusal: SYNTAX },
  { sql: 'select * from lc_view_12 where', refusal: /^SQL 语法错误：第 1 行第 \d+ 列（语句在末尾处不完整）$/ },
  { sql: 'select 1 /* unterminated comment', refusal: SYNTAX },
  { sql: 'select $x$ unterminated', refusal: SYNTAX },
  { sql: 'select 1) q; delete from lc_view_12; --', refusal: SYNTAX },
];

const expectRefusal = (body: { status?: number; message?: string }, refusal: string | RegExp, what: string) => {
  expect(body.status, what).toBe(400);
  if (typeof refusal === 'string') expect(body.message, what).toBe(refusal);
  else expect(body.message, what).toMatch(refusal);
};

/** What an attack would change: the secrets, row counts and the sequence of a view table. */
async function footprint() {
  const db = server.ctx.db;
  const settings = await sql<{ name: string; value: string }>`select name, value from sys_setting order by name`.execute(db);
  const counts = await sql<Record<string, number>>`select
    (select count(*) from lc_view_12)::int as stock_in, (select count(*) from lc_view_13)::int as stock_out,
    (select count(*) from sys_user)::int as users, (select count(*) from lc_data_view)::int as data_views,
    (select last_value from lc_view_12_id_seq)::int as seq, (select to_regclass('hack_copy') is null) as no_copy,
    (select to_regclass('hack') is null) as no_hack`.execute(db);
  return { settings: settings.rows, counts: counts.rows[0] };
}

describe('the data-view guard', () => {
  it('holds a corpus of at least 60 hostile statements', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(60);
  });

  it('refuses every hostile statement directly, on both engines', async () => {
    for (const kind of ['pglite', 'postgres'] as const) {
      for (const entry of CORPUS) {
        const accepted = guardDataViewSql(entry.sql, kind, server.ctx.db).then(
          () => ({ status: 200, message: 'accepted' }),
          (e: { status?: number; message: string }) => ({ status: e.status, message: e.message }),
        );
        if (kind === 'postgres' && entry.postgres) expect((await accepted).status, entry.sql).toBe(200);
        else expectRefusal(await accepted, entry.refusal, `${kind}: ${entry.sql}`);
      }
    }
  });

  it('refuses every hostile statement through the designer calls, and nothing changes', async () => {
    const before = await footprint();
    const onPostgres = server.database.kind === 'postgres';
    const ids: number[] = [];
    for (const entry of CORPUS) {
      const refusal = onPostgres && entry.postgres ? entry.postgres : entry.refusal;
      // The SQL editor's 运行.
      expectRefusal((await admin.post('/api/data/run', { sql: entry.sql })).body, refusal, `run: ${entry.sql}`);
      // Saving it. A recursion PostgreSQL can stop plans fine and is stopped when it runs.
      const add = await admin.post('/api/data/add', { name: '恶意视图', sql: entry.sql });
      if (onPostgres && entry.postgres) {
        expect(add.status, entry.sql).toBe(200);
        ids.push(add.body.id);
      } else expectRefusal(add.body, refusal, `add: ${entry.sql}`);
      // Stored by an older server, then run by a chart and asked for its columns.
      const stored = await server.ctx.db
        .insertInto('lc_data_view')
        .values({ name: '遗留视图', sql: entry.sql })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(stored.id);
      expectRefusal((await admin.get('/api/data/detail', { id: stored.id })).body, refusal, `detail: ${entry.sql}`);
      if (!(onPostgres && entry.postgres)) {
        expectRefusal((await admin.get('/api/data/columns', { id: stored.id })).body, refusal, `columns: ${entry.sql}`);
      }
    }
    await server.ctx.db.deleteFrom('lc_data_view').where('id', 'in', ids).execute();
    expect(await footprint()).toEqual(before);
  });

  it('accepts every data view stored in the seeded database, through every call that runs one', async () => {
    expect(seeded.length).toBeGreaterThanOrEqual(9);
    for (const view of seeded) {
      await guardDataViewSql(view.sql, server.database.kind, server.ctx.db);
      const detail = await admin.get('/api/data/detail', { id: view.id });
      expect(detail.status, `${view.name}: ${JSON.stringify(detail.body)}`).toBe(200);
      expect(detail.body.columns.length, view.name).toBeGreaterThan(0);
      expect((await admin.get('/api/data/columns', { id: view.id })).status, view.name).toBe(200);
      expect((await admin.post('/api/data/run', { sql: view.sql })).status, view.name).toBe(200);
      const saved = await admin.post('/api/data/update', { id: view.id, name: view.name, sql: view.sql });
      expect(saved.body, view.name).toEqual({ status: 200, message: '操作成功' });
    }
  });

  it('accepts what charts need: every allowed table, CTEs, joins, windows, casts and conditionals', async () => {
    for (const name of DATA_VIEW_TABLES) {
      const res = await admin.post('/api/data/run', { sql: `select count(*) as n from public.${name}` });
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    const chart = await admin.post('/api/data/run', {
      sql: `with m as (select to_char(date_trunc('month', current_date) - make_interval(months => g), 'YYYY-MM') as month
        from generate_series(0, 11) g)
      select m.month, coalesce(nullif(count(s.id), 0), 0) as n, greatest(1, 2) as g, least(1, 2) as l,
        extract(year from now())::int as y, substring('abcdef' from 2 for 3) as sub, trim(both ' ' from ' x ') as t,
        row_number() over (order by m.month) as rn, case when count(*) > 0 then 'y' else 'n' end as any_rows,
        '1'::int + 1 as two, current_timestamp is not null as now_known, lpad(count(*)::text, 3, '0') as padded
      from m left join lc_view_12 s on to_char(s."inTime", 'YYYY-MM') = m.month
      left join lateral (select 1 as one) l1 on true
      where m.month in (select m2.month from m m2) and m.month like '____-__'
      group by m.month order by m.month`,
    });
    expect(chart.status, JSON.stringify(chart.body)).toBe(200);
    expect(chart.body.list).toHaveLength(12);
    expect(chart.body.list[0]).toMatchObject({
      two: 2,
      g: 2,
      l: 1,
      sub: 'bcd',
      t: 'x',
      rn: 1,
      now_known: true,
      padded: expect.stringMatching(/^\d{3}$/),
    });
    // Names inside strings and comments are text, not calls or reads.
    const text = await admin.post('/api/data/run', { sql: "select 'pg_sleep(1); sys_user' as note -- from sys_setting;\n" });
    expect(text.body.list).toEqual([{ note: 'pg_sleep(1); sys_user' }]);
  });

  it('refuses a hostile data view stored before the guard when an anonymous share link refreshes it', async () => {
    const share = await admin.post('/api/screen/share', { id: 50, expiresIn: 3600 });
    expect(share.status, JSON.stringify(share.body)).toBe(200);
    const link = Object.fromEntries(new URL(share.body.url, 'http://x').searchParams);
    const original = await server.ctx.db.selectFrom('lc_data_view').select(['id', 'sql']).where('id', 'in', [9, 4]).orderBy('id').execute();
    expect((await server.api.get('/api/open/data', { ...link, dataViewId: 9 })).status).toBe(200);
    const before = await footprint();
    try {
      for (const [hostile, refusal] of [
        ['select value as "入驻企业" from sys_setting where name like \'%secret%\'', table('sys_setting')],
        [`select e'\\'' ; commit; insert into lc_view_12 ("stockNo") values ('HACK-2')`, ONE],
        ['select "pg_sleep"(3) as "入驻企业"', fn('pg_sleep')],
      ] as const) {
        await server.ctx.db.updateTable('lc_data_view').set({ sql: hostile }).where('id', 'in', [9, 4]).execute();
        for (let refresh = 0; refresh < 2; refresh++) {
          expectRefusal((await server.api.get('/api/open/data', { ...link, dataViewId: 9 })).body, refusal, hostile);
          expectRefusal((await server.api.get('/api/open/getCityInfo', link)).body, refusal, hostile);
        }
      }
    } finally {
      for (const row of original) await server.ctx.db.updateTable('lc_data_view').set({ sql: row.sql }).where('id', '=', row.id).execute();
    }
    expect(await footprint()).toEqual(before);
    expect((await server.api.get('/api/open/data', { ...link, dataViewId: 9 })).status).toBe(200);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    "runs data views on PostgreSQL on a pool that logs in as this database's data-view login",
    async () => {
      const { pool, role } = await dataViewPoolOf(server.ctx);
      const db = server.ctx.db;
      const stored = await sql<{ value: string }>`select value from sys_setting where name = 'data_view_role'`.execute(db);
      expect(role).toMatch(/^wastegen_dv_[0-9a-f]{12}$/);
      expect(stored.rows[0]?.value).toBe(role);
      const grants = await sql<{ name: string; can: boolean }>`
      select c.relname as name, has_table_privilege(${role}, c.oid, 'SELECT') as can
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'v') order by 1`.execute(db);
      const allowed = new Set<string>(DATA_VIEW_TABLES);
      // Every view table but those private to their recipients (留言管理).
      const hidden = await privateViewTables(rowsOf(db));
      expect([...hidden]).toEqual(['lc_view_18']);
      for (const { name, can } of grants.rows)
        expect(can, name).toBe(allowed.has(name) || (/^lc_view_\d+$/.test(name) && !hidden.has(name)));
      expect(grants.rows.filter((r) => /^lc_view_\d+$/.test(r.name)).length).toBeGreaterThan(5);
      const attributes = await sql<{ rolsuper: boolean; rolcanlogin: boolean }>`
      select rolsuper, rolcanlogin from pg_roles where rolname = ${role}`.execute(db);
      expect(attributes.rows).toEqual([{ rolsuper: false, rolcanlogin: true }]);

      // With the guard bypassed, SQL straight on the pool: nothing beyond the allowed tables, no way back to the server's account.
      const denied = async (text: string) =>
        pool.query(text).then(
          () => 'ran',
          (e: { code?: string }) => e.code,
        );
      expect(await denied('select value from sys_setting')).toBe('42501');
      expect(await denied('select password from sys_user')).toBe('42501');
      expect(await denied("select pg_read_file('/etc/passwd')")).toBe('42501');
      expect(await denied("select set_config('role', 'postgres', false)")).toBe('42501');
      expect(await denied('set role postgres')).toBe('42501');
      expect(await denied("set session authorization 'postgres'")).toBe('42501');
      expect(await denied('insert into lc_view_12 ("stockNo") values (\'x\')')).toMatch(/^(25006|42501)$/);
      expect((await pool.query("select current_setting('is_superuser') as s, current_user as u")).rows).toEqual([{ s: 'off', u: role }]);

      // What one call leaves on its connection (a session lock, a prepared statement) is gone before the next.
      const sessionLocks = () => advisoryLocks(db, 424242);
      await withDataViewConnection(server.ctx, async (rows) => {
        await rows('select pg_advisory_lock(424242)');
        await rows('prepare wg_left_behind as select 1');
        expect(await sessionLocks()).toBe(1);
      });
      expect(await sessionLocks()).toBe(0);
      for (let i = 0; i < 3; i++) {
        const left = await withDataViewConnection(server.ctx, (rows) =>
          rows<{ n: number }>('select count(*)::int as n from pg_prepared_statements'),
        );
        expect(left).toEqual([{ n: 0 }]);
      }
    },
  );
});

describe.runIf(process.env.TEST_DATABASE_URL)('a server whose PostgreSQL account may not create roles', () => {
  const adminUrl = process.env.TEST_DATABASE_URL as string;
  const suffix = Math.random().toString(36).slice(2, 10);
  const owner = `wg_owner_${suffix}`;
  const login = `wg_dvlogin_${suffix}`;
  const database = `wg_nosuper_${suffix}`;
  const password = `pw_${suffix}`;
  const admin = async (...statements: string[]) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      for (const s of statements) await c.query(s);
    } finally {
      await c.end();
    }
  };
  const urlOf = (user: string, pass?: string) => {
    const u = new URL(adminUrl);
    u.username = user;
    if (pass) u.password = pass;
    u.pathname = `/${database}`;
    return u.toString();
  };

  beforeAll(async () => {
    await admin(
      `create role ${owner} login nosuperuser nocreaterole nocreatedb password '${password}'`,
      `create database ${database} owner ${owner}`,
      `create role ${login} login nosuperuser nocreaterole nocreatedb password '${password}'`,
    );
  });
  afterAll(async () => {
    await admin(
      `drop database if exists ${database} with (force)`,
      `drop role if exists ${login}`,
      `drop owned by ${owner}`,
      `drop role if exists ${owner}`,
    ).catch(() => {});
  });

  it('refuses data views until an administrator gives a login, then runs them as it; never as a superuser', async () => {
    const first = await startTestServer({ databaseUrl: urlOf(owner, password), dataViewTimeoutMs: TIMEOUT_MS });
    try {
      const a = await first.login('admin');
      const refused = await a.post('/api/data/run', { sql: 'select count(*) as n from lc_view_12' });
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('DATA_VIEW_NO_LOGIN');
      // The guard still refuses before any login is looked for.
      expect((await a.post('/api/data/run', { sql: 'select * from sys_user' })).body).toEqual({
        status: 400,
        code: 'SQL_TABLE',
        message: table('sys_user'),
      });
    } finally {
      await first.close();
    }
    // The administrator's login, with no grants of its own: the server grants it the allowed tables.
    const second = await startTestServer({
      databaseUrl: urlOf(owner, password),
      dataViewDatabaseUrl: urlOf(login, password),
      dataViewTimeoutMs: TIMEOUT_MS,
    });
    try {
      const a = await second.login('admin');
      const run = await a.post('/api/data/run', { sql: 'select count(*) > 0 as rows from lc_view_12' });
      expect(run.body, JSON.stringify(run.body)).toMatchObject({ list: [{ rows: true }] });
      for (const view of seeded) expect((await a.get('/api/data/detail', { id: view.id })).status, view.name).toBe(200);
      const can = await sql<{ stock: boolean; secrets: boolean }>`select has_table_privilege(${login}, 'lc_view_12', 'SELECT') as stock,
        has_table_privilege(${login}, 'sys_setting', 'SELECT') as secrets`.execute(second.ctx.db);
      expect(can.rows).toEqual([{ stock: true, secrets: false }]);
    } finally {
      await second.close();
    }
    // A superuser's URL is refused as the data views' login.
    const third = await startTestServer({
      databaseUrl: urlOf(owner, password),
      dataViewDatabaseUrl: urlOf(new URL(adminUrl).username),
      dataViewTimeoutMs: TIMEOUT_MS,
    });
    try {
      const a = await third.login('admin');
      const refused = await a.post('/api/data/run', { sql: 'select 1 as one' });
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('DATA_VIEW_NO_LOGIN');
    } finally {
      await third.close();
    }
  });
});
