import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type RowScope, rowScope } from '../../server/access/rows.js';
import { ListCache } from '../../server/lowcode/list-cache.js';
import { parseListQuery } from '../../server/lowcode/list-query.js';
import type { RowIndexes } from '../../server/lowcode/row-index.js';
import { SqlListReader } from '../../server/lowcode/sql-list-reader.js';
import type { ViewModel } from '../../server/lowcode/view-model.js';
import { designedView, lowcodeState } from '../../server/lowcode/view-store.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The rows an instance holds in memory are bounded by LIST_INDEX_ROWS, not by the tables. With a bound
 * of a few hundred rows: a view larger than it is never read (the database told its size first), and its
 * lists are answered from statements; a company whose rows fit is held on its own and answers its lists
 * from memory; a company larger than the bound is refused before a row of it is read, once, not at every
 * call. Every answer equals the one read from the database alone, as with LIST_INDEX=0.
 */
const VIEW = 12;
const CAP = 300;
/** Rows added to the collector's company: more than the bound, so neither it nor the view fits. */
const MANY = 400;
/** Rows added to the producer's company: with its seeded rows, well within the bound. */
const FEW = 40;

let server: TestServer;
let view: ViewModel;
let indexes: RowIndexes;
/** The list as read from the database alone (what LIST_INDEX=0 answers), no cache in between. */
let database: SqlListReader;
const clients: Record<string, { as: ApiClient; scope: RowScope | undefined }> = {};

/** Adds `n` copies of a seeded row to the company of `username`, with their own numbers, quantities and handlers. */
async function addRows(username: string, n: number, tag: string): Promise<void> {
  const db = server.ctx.db;
  const user = (
    await sql<{
      company_id: number;
      dept_id: number | null;
    }>`select company_id, dept_id from sys_user where username = ${username}`.execute(db)
  ).rows[0];
  if (!user) throw new Error(`no account ${username}`);
  const columns = (
    await sql<{ name: string }>`select column_name as name from information_schema.columns
      where table_name = 'lc_view_12' and column_name <> 'id' order by ordinal_position`.execute(db)
  ).rows.map((r) => r.name);
  const set: Record<string, string> = {
    create_company: String(Number(user.company_id)),
    create_dept: user.dept_id === null ? 'null' : String(Number(user.dept_id)),
    create_by: `'${username}'`,
    stockNo: `'RK${tag}' || lpad(g::text, 10, '0')`,
    quantity: '(g % 13) * 1.5',
    handler: `'记忆' || (g % 17)`,
  };
  const list = columns.map((c) => `"${c}"`).join(', ');
  const values = columns.map((c) => set[c] ?? `s."${c}"`).join(', ');
  await sql
    .raw(
      `insert into lc_view_12 (${list}) select ${values} from lc_view_12 s cross join generate_series(1, ${n}) g
       where s.id = (select min(id) from lc_view_12)`,
    )
    .execute(db);
}

beforeAll(async () => {
  server = await startTestServer({ listIndexRows: CAP });
  await addRows('collector', MANY, 'C');
  await addRows('producer', FEW, 'P');
  view = await designedView(server.ctx, VIEW);
  indexes = lowcodeState(server.ctx).indexes as RowIndexes;
  expect(indexes.maxRows).toBe(CAP);
  database = new SqlListReader(server.ctx, new ListCache(false));
  for (const name of ['admin', 'producer', 'collector']) {
    const as = await server.login(name);
    const user = await server.ctx.sessions.authenticate(as.token ?? undefined);
    clients[name] = { as, scope: await rowScope(server.ctx, view, user) };
  }
}, 120_000);

afterAll(() => server?.close());

/** Pages of different orders, filters and sizes: each misses the list cache the first time. */
const QUERIES: Record<string, string>[] = [
  {},
  { sort: 'quantity,desc' },
  { sort: 'stockNo,asc', size: '7', page: '1' },
  { handler: '记忆3' },
  { sort: 'id,asc', page: '2', size: '5' },
  { sort: 'quantity,asc', size: '20' },
  { sort: 'createTime,desc', size: '15' },
  { sort: 'stockNo,desc', page: '3', size: '4' },
];

/** Lists `params` as `name`, and expects the answer the database alone gives. */
async function listAgrees(name: string, params: Record<string, string>): Promise<void> {
  const { as, scope } = clients[name] as (typeof clients)[string];
  const res = await as.get(`/api/general/list/${VIEW}`, { page: '0', size: '10', ...params });
  expect(res.status).toBe(200);
  const expected = JSON.parse(await database.page(view, parseListQuery(view, { page: '0', size: '10', ...params }, scope)));
  expect(res.body, `${name} ${JSON.stringify(params)}`).toEqual(expected);
}

const rowsOf = async (company: string) =>
  Number(
    (
      await sql<{ n: number }>`select count(*)::int as n from lc_view_12 where create_company = (
        select company_id from sys_user where username = ${company})`.execute(server.ctx.db)
    ).rows[0]?.n,
  );

it('answers the lists of a view larger than the bound from statements, without reading its rows', async () => {
  expect(Number((await sql<{ n: number }>`select count(*)::int as n from lc_view_12`.execute(server.ctx.db)).rows[0]?.n)).toBeGreaterThan(
    CAP,
  );
  for (const params of QUERIES) await listAgrees('admin', params);
  // The view was sized once, found too large, and not read.
  await vi.waitFor(() => expect(indexes.building).toBe(0));
  expect(indexes.stats.refused).toBe(1);
  expect(indexes.stats.read).toBe(0);
  expect(indexes.stats.discarded).toBe(0);
  expect(indexes.heldRows).toBe(0);
  // Asked again, it is not sized again: it is remembered as too large.
  const sized = indexes.stats.sized;
  for (const params of QUERIES) await listAgrees('admin', { ...params, size: '9' });
  expect(indexes.stats.sized).toBe(sized);
  expect(indexes.stats.refused).toBe(1);
});

it("holds a company's rows that fit the bound on their own, and answers its lists from them", async () => {
  const own = await rowsOf('producer');
  expect(own).toBeLessThan(CAP);
  // Its lists are asked for until its rows are held.
  let n = 0;
  await vi.waitFor(
    async () => {
      await listAgrees('producer', { sort: 'quantity,asc', size: '3', page: String(n++) });
      if (indexes.heldRows === 0) throw new Error('not held yet');
    },
    { timeout: 20_000, interval: 10 },
  );
  // Exactly the company's rows were read, nothing else; nothing was read and thrown away.
  expect(indexes.heldRows).toBe(own);
  expect(indexes.stats.read).toBe(own);
  expect(indexes.stats.built).toBe(1);
  expect(indexes.stats.discarded).toBe(0);
  const pages = indexes.stats.pages;
  for (const params of QUERIES) await listAgrees('producer', params);
  expect(indexes.stats.pages).toBeGreaterThan(pages);
});

it('refuses a company larger than the bound before reading it, once', async () => {
  expect(await rowsOf('collector')).toBeGreaterThan(CAP);
  const refused = indexes.stats.refused;
  const read = indexes.stats.read;
  for (const params of QUERIES) await listAgrees('collector', params);
  await vi.waitFor(() => expect(indexes.building).toBe(0));
  for (const params of QUERIES) await listAgrees('collector', { ...params, size: '11' });
  expect(indexes.stats.refused).toBe(refused + 1);
  expect(indexes.stats.read).toBe(read);
  expect(indexes.stats.discarded).toBe(0);
  // The administrator's lists still read the database; the producer's rows are still held.
  for (const params of QUERIES.slice(0, 3)) await listAgrees('admin', { ...params, size: '12' });
  expect(indexes.heldRows).toBe(await rowsOf('producer'));
});

it("keeps the company's rows in step with its writes, and every list equal to the database's", async () => {
  const { as } = clients.producer as (typeof clients)[string];
  const built = indexes.stats.built;
  const first = (await as.get(`/api/general/list/${VIEW}`, { page: 0, size: 1, sort: 'id,asc' })).body.content[0];
  const { id: _id, createTime: _c, updateTime: _u, createBy: _b, warehouseIdFmt: _w, ...model } = first;
  const added: number[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await as.post(`/api/general/add/${VIEW}`, { ...model, stockNo: `RK2098${String(i).padStart(8, '0')}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    added.push(res.body.id);
  }
  expect((await as.post(`/api/general/update/${VIEW}`, { id: added[0], quantity: 99.5 })).status).toBe(200);
  expect((await as.post(`/api/general/delete/${VIEW}`, [added[1]])).status).toBe(200);
  for (const params of QUERIES) await listAgrees('producer', { ...params, size: '13' });
  for (const params of QUERIES.slice(0, 3)) await listAgrees('admin', { ...params, size: '13' });
  expect(indexes.heldRows).toBe(await rowsOf('producer'));
  expect(indexes.stats.built).toBe(built);
  expect(indexes.stats.broken).toBe(0);
  // The producer sees its record as the list shows it, from memory; another company's is not found.
  const detail = await as.get('/api/general/detail', { generalId: VIEW, id: added[0] });
  expect(detail.status).toBe(200);
  expect(Number(detail.body.quantity)).toBe(99.5);
});
