import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

const TIMEOUT_MS = 500;

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;

beforeAll(async () => {
  server = await startTestServer({ dataViewTimeoutMs: TIMEOUT_MS });
  admin = await server.login('admin');
  producer = await server.login('producer');
});
afterAll(async () => {
  await server?.close();
});

const stockInCount = async () => Number((await sql<{ n: number }>`select count(*) as n from lc_view_12`.execute(server.ctx.db)).rows[0]?.n);

/** Stores SQL as a data view without the save-time check, as an older server might have left it. */
async function stored(text: string): Promise<number> {
  const row = await server.ctx.db
    .insertInto('lc_data_view')
    .values({ name: '遗留视图', sql: text })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('data views', () => {
  it('lists data views for dataView:list holders only', async () => {
    expect((await server.api.get('/api/data/list')).status).toBe(401);
    expect((await producer.get('/api/data/list')).status).toBe(403);
    const res = await admin.get('/api/data/list', { page: 0, size: 9999 });
    expect(res.body.totalElements).toBe(9);
    expect(res.body.content[0]).toEqual(
      expect.objectContaining({ id: expect.any(Number), name: expect.any(String), sql: expect.any(String) }),
    );
  });

  it('runs a saved view for chart and data-view builders: columns and rows', async () => {
    // Data view 1 is on no enabled big screen: a producer may not run it.
    expect((await producer.get('/api/data/detail', { id: 1 })).body).toEqual(refusal(403, 'DATA_VIEW_FORBIDDEN'));
    const res = await admin.get('/api/data/detail', { id: 1 });
    expect(res.status).toBe(200);
    expect(res.body.columns).toEqual(['月份', '入库量', '出库量']);
    expect(res.body.list).toHaveLength(6);
    const total = res.body.list.reduce((s: number, r: Record<string, number>) => s + (r.入库量 ?? 0), 0);
    const direct = await sql<{ t: number }>`select sum(quantity) as t from lc_view_12
      where "inTime" >= date_trunc('month', current_date) - interval '5 months'`.execute(server.ctx.db);
    expect(total).toBeCloseTo(Number(direct.rows[0]?.t), 2);
    expect((await admin.get('/api/data/detail', { id: 4242 })).status).toBe(404);
  });

  it('answers signed-in users only, even for the views of an enabled big screen; others only to builders', async () => {
    expect((await server.api.get('/api/data/detail', { id: 3 })).status).toBe(401); // on screen 50
    const add = await admin.post('/api/data/add', { name: '内部统计', sql: 'select count(*) as n from lc_view_17' });
    expect((await server.api.get('/api/data/detail', { id: add.body.id })).status).toBe(401);
    expect((await producer.get('/api/data/detail', { id: add.body.id })).status).toBe(403);
    const vehicles = await sql<{ n: number }>`select count(*)::int as n from lc_view_17`.execute(server.ctx.db);
    expect((await admin.get('/api/data/detail', { id: add.body.id })).body).toEqual({
      id: add.body.id,
      name: '内部统计',
      columns: ['n'],
      list: [{ n: vehicles.rows[0]?.n }],
      truncated: false,
    });
  });

  it('answers the columns and their types without the rows', async () => {
    const id = await stored("select 1::bigint as n, 'x'::text as label, now()::timestamp as t, 2.5::numeric as v where false");
    expect((await admin.get('/api/data/columns', { id })).body).toEqual({
      id,
      columns: [
        { name: 'n', type: 'bigint' },
        { name: 'label', type: 'text' },
        { name: 't', type: 'timestamp without time zone' },
        { name: 'v', type: 'numeric' },
      ],
    });
    expect((await server.api.get('/api/data/columns', { id })).status).toBe(401);
    expect((await admin.get('/api/data/columns', { id: 4242 })).status).toBe(404);
  });

  it('refuses functions a read-only transaction does not stop, wherever they hide', async () => {
    const before = await sql<{ v: number }>`select last_value as v from lc_view_12_id_seq`.execute(server.ctx.db);
    for (const [text, fn] of [
      ["select nextval('lc_view_12_id_seq')", 'nextval'],
      ["select setval('lc_view_12_id_seq', 1)", 'setval'],
      ['select PG_STAT_RESET()', 'pg_stat_reset'],
      ["select pg_logical_emit_message(true, 'x', 'y')", 'pg_logical_emit_message'],
      ["select * from dblink('dbname=x', 'select 1') as t(a int)", 'dblink'],
      ["select set_config('statement_timeout', '0', false)", 'set_config'],
      ["select query_to_xml('select nextval(''lc_view_12_id_seq'')', true, true, '')", 'query_to_xml'],
      ['select pg_catalog."nextval"(\'lc_view_12_id_seq\')', 'nextval'],
      ['select 1 as a /* ; */, pg_terminate_backend(1)', 'pg_terminate_backend'],
    ]) {
      expect((await admin.post('/api/data/add', { name: '副作用', sql: text })).body, text).toEqual(
        refusal(400, 'SQL_FUNCTION', { name: fn as string }),
      );
      const id = await stored(text as string);
      expect((await admin.get('/api/data/detail', { id })).body, text).toEqual(refusal(400, 'SQL_FUNCTION', { name: fn as string }));
    }
    // Names inside text and comments, and harmless pg_ functions, are not calls to refuse.
    const fine = await admin.post('/api/data/add', {
      name: '无副作用',
      sql: "select 'nextval(1); pg_stat_reset()' as note, pg_typeof(1)::text as t -- setval(",
    });
    expect(fine.body).toMatchObject({ status: 200 });
    expect((await admin.get('/api/data/detail', { id: fine.body.id })).body.list).toEqual([
      { note: 'nextval(1); pg_stat_reset()', t: 'integer' },
    ]);
    const after = await sql<{ v: number }>`select last_value as v from lc_view_12_id_seq`.execute(server.ctx.db);
    expect(after.rows[0]?.v).toEqual(before.rows[0]?.v);
  });

  it('answers the columns of an empty result, wall-clock timestamps, and at most 5000 rows', async () => {
    const empty = await stored("select 1 as a, 'x' as b where false");
    expect((await admin.get('/api/data/detail', { id: empty })).body).toMatchObject({ columns: ['a', 'b'], list: [] });
    const time = await stored("select timestamp '2026-01-02 03:04:05' as t, date '2026-05-06' as d");
    expect((await admin.get('/api/data/detail', { id: time })).body.list).toEqual([{ t: '2026-01-02 03:04:05', d: '2026-05-06 00:00:00' }]);
    const many = await stored('select g from generate_series(1, 6000) g;');
    const res = await admin.get('/api/data/detail', { id: many });
    expect(res.body.list).toHaveLength(5000);
    expect(res.body.list[4999]).toEqual({ g: 5000 });
    expect(res.body.truncated).toBe(true);
    const exact = await stored('select g from generate_series(1, 5000) g');
    expect((await admin.get('/api/data/detail', { id: exact })).body).toMatchObject({ truncated: false });
  });

  it('refuses SQL that writes, whether at save time or when a stored one runs', async () => {
    const before = await stockInCount();
    const lastId = async () =>
      Number((await sql<{ v: number }>`select last_value as v from lc_view_12_id_seq`.execute(server.ctx.db)).rows[0]?.v);
    const seqBefore = await lastId();
    for (const text of [
      'delete from lc_view_12',
      "update lc_view_12 set status = '9'",
      'insert into lc_view_12 ("stockNo") values (\'RK000000000000\') returning id',
      'drop table lc_view_12',
    ]) {
      expect((await admin.post('/api/data/add', { name: '写操作', sql: text })).body).toEqual(refusal(400, 'SQL_ONLY_QUERIES'));
      const id = await stored(text);
      expect((await admin.get('/api/data/detail', { id })).body).toEqual(refusal(400, 'SQL_ONLY_QUERIES'));
    }
    // Writes and row locks hidden inside a query are refused from the parse tree before anything runs.
    for (const [text, code] of [
      ['with d as (delete from lc_view_12 returning *) select * from d', 'SQL_ONLY_QUERIES'],
      ['select * from lc_view_12 for update', 'SQL_LOCKING'],
    ] as const) {
      const id = await stored(text);
      expect((await admin.get('/api/data/detail', { id })).body).toEqual(refusal(400, code));
    }
    expect(await stockInCount()).toBe(before);
    // Not even an insert that was rolled back ran: the id sequence has not moved.
    expect(await lastId()).toBe(seqBefore);
  });

  it('refuses several statements, bad SQL, and validates on update', async () => {
    const multi = await admin.post('/api/data/add', { name: '多语句', sql: 'select 1; delete from lc_view_12' });
    expect(multi.body).toEqual(refusal(400, 'SQL_ONE_STATEMENT'));
    const bad = await admin.post('/api/data/add', { name: '错误', sql: 'select nope from lc_view_12' });
    expect(bad.body).toEqual(refusal(400, 'SQL_NAME', { name: 'nope' }));
    const ok = await admin.post('/api/data/add', { name: '正常', sql: 'select count(*) as n from lc_view_12;' });
    expect(ok.status).toBe(200);
    expect((await admin.post('/api/data/update', { id: ok.body.id, name: '正常', sql: 'truncate lc_view_12' })).body).toEqual(
      refusal(400, 'SQL_ONLY_QUERIES'),
    );
    expect((await admin.post('/api/data/update', { id: ok.body.id, name: '改名', sql: 'select 2 as two' })).body).toEqual({
      status: 200,
      message: '操作成功',
    });
    expect((await admin.get('/api/data/detail', { id: ok.body.id })).body).toEqual({
      id: ok.body.id,
      name: '改名',
      columns: ['two'],
      list: [{ two: 2 }],
      truncated: false,
    });
    expect((await admin.post('/api/data/update', { id: 4242, name: 'x', sql: 'select 1' })).status).toBe(404);
    expect((await producer.post('/api/data/add', { name: 'x', sql: 'select 1' })).status).toBe(403);
    expect((await admin.post('/api/data/delete', { id: ok.body.id })).body).toEqual({ status: 200, message: '操作成功' });
    expect((await admin.get('/api/data/detail', { id: ok.body.id })).status).toBe(404);
  });

  it('stops a query that takes longer than the limit', async () => {
    // Sleeping is not a function a data view may call, however it is spelled.
    const slow = await stored('select "pg_sleep"(5) as slept');
    expect((await admin.get('/api/data/detail', { id: slow })).body).toEqual(refusal(400, 'SQL_FUNCTION', { name: 'pg_sleep' }));

    // PostgreSQL cancels at statement_timeout; PGlite cannot interrupt, so it refuses before running.
    const heavy = await stored('select count(*) from generate_series(1, 200000000) a');
    const started2 = Date.now();
    expect((await admin.get('/api/data/detail', { id: heavy })).body).toEqual(
      server.database.kind === 'pglite' ? refusal(400, 'DATA_VIEW_REFUSED_ON_PGLITE') : refusal(400, 'DATA_VIEW_TIMED_OUT'),
    );
    expect(Date.now() - started2).toBeLessThan(server.database.kind === 'pglite' ? 1000 : TIMEOUT_MS + 2000);
    // The server is still answering.
    expect((await admin.get('/api/data/detail', { id: 1 })).status).toBe(200);
  });
});
