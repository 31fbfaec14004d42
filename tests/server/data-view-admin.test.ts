import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;

beforeAll(async () => {
  server = await startTestServer({ dataViewTimeoutMs: 500 });
  admin = await server.login('admin');
  producer = await server.login('producer');
});
afterAll(async () => {
  await server?.close();
});

/** The demo big screen (50) with every chart reading `dataViewId`. */
async function templateReading(dataViewId: number): Promise<string> {
  const demo = await admin.get('/api/screen/detail', { id: 50 });
  expect(demo.status).toBe(200);
  return demo.body.disTemplate.replace(/"dataViewId":\d+/g, `"dataViewId":${dataViewId}`);
}

describe('the SQL editor run call', () => {
  it('answers columns, the first 100 rows and the time taken', async () => {
    const res = await admin.post('/api/data/run', { sql: 'select g as n, g * 2 as twice from generate_series(1, 250) g' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.columns).toEqual(['n', 'twice']);
    expect(res.body.list).toHaveLength(100);
    expect(res.body.list[99]).toEqual({ n: 100, twice: 200 });
    expect(res.body.truncated).toBe(true);
    expect(res.body.elapsedMs).toEqual(expect.any(Number));
    const few = await admin.post('/api/data/run', { sql: 'select 1 as one where false' });
    expect(few.body).toMatchObject({ columns: ['one'], list: [], truncated: false });
  });

  it('refuses writing SQL, bad SQL and SQL over the time limit, with the reason', async () => {
    expect((await admin.post('/api/data/run', { sql: 'delete from lc_view_12' })).body).toEqual(refusal(400, 'SQL_ONLY_QUERIES'));
    const bad = await admin.post('/api/data/run', { sql: 'select name, from company' });
    expect(bad.body).toEqual(refusal(400, 'SQL_SYNTAX', { where: '第 1 行第 14 列附近（"from"）' }));
    const unfinished = await admin.post('/api/data/run', { sql: 'select name\nfrom company\nwhere' });
    expect(unfinished.body).toEqual(refusal(400, 'SQL_SYNTAX', { where: '第 3 行第 6 列（语句在末尾处不完整）' }));
    const slow = await admin.post('/api/data/run', { sql: 'select pg_sleep(5)' });
    expect(slow.body).toEqual(refusal(400, 'SQL_FUNCTION', { name: 'pg_sleep' }));
    const heavy = await admin.post('/api/data/run', { sql: 'select count(*) from generate_series(1, 200000000) a' });
    expect(heavy.status).toBe(400);
    expect(['DATA_VIEW_TIMED_OUT', 'DATA_VIEW_REFUSED_ON_PGLITE']).toContain(heavy.body.code);
  });

  it('says in Chinese, and where, what the database refused while running a data view', async () => {
    const cast = await admin.post('/api/data/run', { sql: "select 1 as one,\n  'abc'::int as two" });
    expect(cast.body).toEqual(refusal(400, 'DATA_VIEW_FAILED', { reason: '第 2 行第 3 列，取值格式不正确' }));
    const zero = await admin.post('/api/data/run', { sql: 'select 1 / (g - 3) as x from generate_series(1, 5) g' });
    expect(zero.body).toEqual(refusal(400, 'DATA_VIEW_FAILED', { reason: '除数为零' }));
  });

  it('is for data-view editors only', async () => {
    expect((await server.api.post('/api/data/run', { sql: 'select 1' })).status).toBe(401);
    expect((await producer.post('/api/data/run', { sql: 'select 1' })).status).toBe(403);
  });
});

describe('deleting a data view a screen uses', () => {
  it('is refused with the screens named, and allowed once no screen uses it', async () => {
    const view = await admin.post('/api/data/add', { name: '被引用的视图', sql: "select '一月' as name, 3 as value" });
    expect(view.status).toBe(200);
    const screens: number[] = [];
    for (const name of ['运营大屏甲', '运营大屏乙']) {
      const add = await admin.post('/api/screen/add', { name, type: 2, status: 1 });
      expect(add.status).toBe(200);
      const design = await admin.post('/api/screen/design', { id: add.body.id, disTemplate: await templateReading(view.body.id) });
      expect(design.status, JSON.stringify(design.body)).toBe(200);
      screens.push(add.body.id);
    }
    const refused = await admin.post('/api/data/delete', { id: view.body.id });
    expect(refused.body).toEqual(refusal(400, 'DATA_VIEW_IN_USE', { names: '「运营大屏甲」、「运营大屏乙」' }));
    expect((await admin.get('/api/data/detail', { id: view.body.id })).status).toBe(200);

    // One of several ids in use refuses the whole delete.
    const free = await admin.post('/api/data/add', { name: '空闲视图', sql: 'select 1 as one' });
    expect((await admin.post('/api/data/delete', { ids: [free.body.id, view.body.id] })).status).toBe(400);
    expect((await admin.get('/api/data/detail', { id: free.body.id })).status).toBe(200);

    expect((await admin.post('/api/screen/delete', { id: screens[0] })).status).toBe(200);
    expect((await admin.post('/api/data/delete', { id: view.body.id })).body).toEqual(
      refusal(400, 'DATA_VIEW_IN_USE', { names: '「运营大屏乙」' }),
    );
    expect((await admin.post('/api/screen/delete', { id: screens[1] })).status).toBe(200);
    expect((await admin.post('/api/data/delete', { ids: [free.body.id, view.body.id] })).body).toEqual({
      status: 200,
      message: '操作成功',
    });
    expect((await admin.get('/api/data/detail', { id: view.body.id })).status).toBe(404);
  });

  it('names the seeded demo screen for its own data views', async () => {
    const res = await admin.post('/api/data/delete', { id: 7 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('DATA_VIEW_IN_USE');
    expect(res.body.message).toMatch(/^数据视图正被大屏「.+」使用，不能删除$/);
  });
});
