import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type RowScope, rowScope } from '../../server/access/rows.js';
import { ListCache } from '../../server/lowcode/list-cache.js';
import { parseListQuery } from '../../server/lowcode/list-query.js';
import type { IndexedRow } from '../../server/lowcode/list-types.js';
import { rowSource } from '../../server/lowcode/memory-list-reader.js';
import { RowIndexes, type RowSource } from '../../server/lowcode/row-index.js';
import { textSortsByBytes } from '../../server/lowcode/row-position.js';
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
  // Any order, filter and page of its lists, as the database answers it.
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        sort: fc.constantFrom('quantity,asc', 'quantity,desc', 'stockNo,desc', 'id,asc', 'inTime,desc', 'createTime,asc'),
        handler: fc.option(fc.constantFrom('记忆1', '记忆16', '记忆'), { nil: undefined }),
        page: fc.nat(6),
        size: fc.integer({ min: 1, max: 25 }),
      }),
      async ({ handler, page, size, sort }) =>
        listAgrees('producer', { sort, page: String(page), size: String(size), ...(handler ? { handler } : {}) }),
    ),
    { numRuns: 40 },
  );
  expect(indexes.stats.pages).toBeGreaterThan(pages);
  expect(indexes.stats.read).toBe(own);
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

it('sizes a view before reading it, remembers it as too large until the writes told may have brought it within the bound', async () => {
  const scope = (clients.producer as (typeof clients)[string]).scope as RowScope;
  const own = await rowSource(server.ctx, view).load(scope, 0, 1000);
  const asked = { estimate: 0, count: 0, load: 0 };
  let rows = 1000;
  const source: RowSource = {
    estimate: async () => {
      asked.estimate++;
      return rows;
    },
    count: async (s, atMost) => {
      asked.count++;
      return Math.min(s ? own.length : rows, atMost + 1);
    },
    load: async (s, after, limit) => {
      asked.load++;
      return (s ? own : []).filter((r) => r.id > after).slice(0, limit);
    },
  };
  const bound = new RowIndexes(() => true, 200);
  const bytes = textSortsByBytes(server.ctx);
  const ask = (s?: RowScope) => bound.ready(view, source, bytes, s);
  const settled = () => vi.waitFor(() => expect(bound.building).toBe(0));
  // Asked for less than three times: nothing is asked of the database.
  ask();
  ask();
  expect(asked).toEqual({ estimate: 0, count: 0, load: 0 });
  // The third ask sizes it: the estimate is past twice the bound, so it is refused without a count or a row.
  ask();
  await settled();
  expect(asked).toEqual({ estimate: 1, count: 0, load: 0 });
  expect(bound.stats.refused).toBe(1);
  for (let i = 0; i < 10; i++) expect(ask()).toBeUndefined();
  expect(asked.estimate).toBe(1);
  // The producer's scope fits: counted, read, held, and it answers the producer's lists.
  for (let i = 0; i < 3; i++) expect(ask(scope)).toBeUndefined();
  await settled();
  expect(asked).toEqual({ estimate: 1, count: 1, load: 1 });
  const held = ask(scope);
  expect(held?.size).toBe(own.length);
  expect(bound.heldRows).toBe(own.length);
  expect(ask()).toBeUndefined();
  // Writes told take 900 rows out of the view (of other companies): it may fit now, and is sized again.
  const other = (n: number): IndexedRow => ({
    id: 10_000_000 + n,
    row: {},
    raw: { create_company: -1 },
    keys: {},
  });
  bound.written(view.id, { gone: Array.from({ length: 900 }, (_, n) => other(n)), come: [] });
  expect(ask(scope)).toBe(held);
  rows = 100;
  for (let i = 0; i < 3; i++) ask();
  await settled();
  expect(asked).toEqual({ estimate: 2, count: 2, load: 2 });
  // Held whole now (the fake view has no rows): the scope's own rows, which it holds too, are let go of.
  expect(ask()?.size).toBe(0);
  expect(ask(scope)?.within).toBeUndefined();
  expect(bound.heldRows).toBe(0);
  expect(bound.stats.discarded).toBe(0);
});

it("reads no company's rows apart while the view's rows are read again after a change outside the server", async () => {
  const scope = (clients.producer as (typeof clients)[string]).scope as RowScope;
  const own = await rowSource(server.ctx, view).load(scope, 0, 1000);
  const loads: (RowScope | undefined)[] = [];
  const source: RowSource = {
    estimate: async () => own.length,
    count: async (_s, atMost) => Math.min(own.length, atMost + 1),
    load: async (s, after, limit) => {
      loads.push(s);
      return own.filter((r) => r.id > after).slice(0, limit);
    },
  };
  const bound = new RowIndexes(() => true, 1000);
  const bytes = textSortsByBytes(server.ctx);
  const ask = (s?: RowScope) => bound.ready(view, source, bytes, s);
  for (let i = 0; i < 3; i++) ask();
  await vi.waitFor(() => expect(bound.building).toBe(0));
  const whole = ask();
  expect(whole?.size).toBe(own.length);
  expect(bound.stats.built).toBe(1);
  // A row changed outside: until it is read again, lists go to the database, and the company's are not read apart.
  let release: (rows: IndexedRow[]) => void = () => {};
  const reread = new Promise<IndexedRow[]>((resolve) => {
    release = resolve;
  });
  const changed = own[0] as IndexedRow;
  bound.outside(view.id, [changed.id], () => reread);
  for (let i = 0; i < 10; i++) {
    expect(ask(scope)).toBeUndefined();
    expect(ask()).toBeUndefined();
  }
  await Promise.resolve();
  expect(bound.building).toBe(0);
  expect(loads).toEqual([undefined]);
  release([changed]);
  await vi.waitFor(() => expect(ask()).toBe(whole));
  expect(ask(scope)).toBe(whole);
  expect(bound.stats.built).toBe(1);
  expect(bound.stats.reread).toBe(1);
});
