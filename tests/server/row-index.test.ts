import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type RowScope, scopeOver } from '../../server/access/rows.js';
import { parseListQuery } from '../../server/lowcode/list-query.js';
import { countQuery, rowsJsonQuery, selectList } from '../../server/lowcode/list-sql.js';
import { rowSource } from '../../server/lowcode/memory-list-reader.js';
import type { RowIndexes } from '../../server/lowcode/row-index.js';
import { SORT_KEY, sortKeyColumn, textSortsByBytes } from '../../server/lowcode/row-position.js';
import { indexLoader } from '../../server/lowcode/row-state.js';
import { findRecord } from '../../server/lowcode/rows.js';
import { ViewIndex } from '../../server/lowcode/view-index.js';
import type { ViewModel } from '../../server/lowcode/view-model.js';
import { designedView, lowcodeState } from '../../server/lowcode/view-store.js';
import { type ApiClient, dictValues, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The row index answers list misses from memory. Whatever it answers must be what the database
 * answers: for random filters, orders, pages and scopes, its rows, sort keys and counts equal the list
 * statements' own, and so does every record it finds for an edit, before and after concurrent adds,
 * updates and deletes by three accounts, without the index being read again. A write whose "before"
 * is not what the index holds makes it let go.
 */
const VIEW = 12;

let server: TestServer;
let view: ViewModel;
let categories: string[];
let statuses: string[];
let scopes: (RowScope | undefined)[];
const writers: { as: ApiClient; warehouseId: number; own: number[] }[] = [];

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)] as T;

/**
 * Few distinct values, so that filters match many rows and sort keys tie; the number of a stock-in is
 * unique within its company, so each record has its own.
 */
function record(n: number): Record<string, unknown> {
  return {
    stockNo: `RK2027${String(n).padStart(8, '0')}`,
    wasteCategory: pick(categories),
    wasteCode: '900-249-08',
    wasteName: pick(['废矿物油', '废乳化液', '含油废物']),
    quantity: pick(['1.000', '2.500', '2.50', '7.125', '10', '0.001']),
    packageType: '1',
    inTime: `2027-01-0${1 + (n % 3)} 0${n % 2}:${String(n % 60).padStart(2, '0')}:00`,
    handler: `索引${n}`,
    status: pick(statuses),
  };
}

let serial = 0;
async function add(w: (typeof writers)[number]): Promise<void> {
  const res = await w.as.post(`/api/general/add/${VIEW}`, { ...record(++serial), warehouseId: w.warehouseId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  w.own.push(res.body.id);
}

beforeAll(async () => {
  server = await startTestServer();
  const admin = await server.login('admin');
  categories = (await dictValues(admin, 'wasteCategory')).slice(0, 3);
  statuses = await dictValues(admin, 'stockStatus');
  for (const name of ['admin', 'producer', 'collector']) {
    const as = name === 'admin' ? admin : await server.login(name);
    const warehouses = (await as.get('/api/companyWarehouse/list')).body.content as { id: number }[];
    writers.push({ as, warehouseId: (warehouses[0] as { id: number }).id, own: [] });
  }
  for (let i = 0; i < 40; i++) await Promise.all(writers.map(add));
  // Values the form refuses but the table holds (written by other means before the index is read):
  // empty times and quantities, negative and long decimals.
  await sql`update lc_view_12 set "inTime" = null where id % 7 = 0`.execute(server.ctx.db);
  await sql`update lc_view_12 set quantity = null where id % 11 = 0`.execute(server.ctx.db);
  await sql`update lc_view_12 set quantity = -quantity where id % 5 = 0`.execute(server.ctx.db);
  await sql`update lc_view_12 set quantity = 12345678.000001 where id % 13 = 0`.execute(server.ctx.db);
  view = await designedView(server.ctx, VIEW);
  const companies = (
    await sql<{ id: number; name: string }>`select id, name from company where id in (
      select distinct create_company from lc_view_12 where create_company is not null) order by id`.execute(server.ctx.db)
  ).rows;
  scopes = [undefined];
  for (const c of companies) scopes.push(await scopeOver(server.ctx, view, { all: false, companyId: c.id, depts: [], self: null }));
}, 120_000);

afterAll(() => server?.close());

/** The index the server keeps for the view, once it has been read. */
async function serverIndex(): Promise<ViewIndex> {
  const indexes = lowcodeState(server.ctx).indexes as RowIndexes;
  const ask = () => indexes.ready(view, rowSource(server.ctx, view), textSortsByBytes(server.ctx));
  ask();
  return vi.waitFor(
    () => {
      const index = ask();
      if (!index) throw new Error('the index is not read yet');
      return index;
    },
    { timeout: 20_000, interval: 20 },
  );
}

const query = fc.record({
  scope: fc.nat(20),
  category: fc.option(fc.nat(2), { nil: undefined }),
  status: fc.option(fc.nat(2), { nil: undefined }),
  name: fc.option(fc.constantFrom('乳化', '废', '油废', '矿物油', '无此'), { nil: undefined }),
  number: fc.option(fc.constantFrom('0001', '00003', '2027', '9'), { nil: undefined }),
  day: fc.option(fc.constantFrom(['2027-01-01'], ['2027-01-02'], ['2027-01-01', '2027-01-02'], ['2027-01-03 00:30:00']), {
    nil: undefined,
  }),
  since: fc.boolean(),
  sort: fc.constantFrom(
    undefined,
    'inTime,asc',
    'inTime,desc',
    'quantity,asc',
    'quantity,desc',
    'stockNo,asc',
    'wasteName,desc',
    'id,asc',
    'createTime,desc',
  ),
  offset: fc.nat(60),
  limit: fc.integer({ min: 1, max: 40 }),
});

type Query = typeof query extends fc.Arbitrary<infer T> ? T : never;

/** Checks one query against the database; true when the index answered it. */
async function agrees(index: ViewIndex, x: Query, midway: string): Promise<boolean> {
  const params: Record<string, string | string[]> = {};
  if (x.category !== undefined) params.wasteCategory = categories[x.category] as string;
  if (x.status !== undefined) params.status = statuses[x.status] as string;
  if (x.name) params.wasteName = x.name;
  if (x.number) params.stockNo = x.number;
  if (x.day) params.inTime = [...x.day];
  if (x.since) params.startTime = midway;
  if (x.sort) params.sort = x.sort;
  const q = parseListQuery(view, params, scopes[x.scope % scopes.length]);
  const db = server.ctx.db;
  const count = Number((await countQuery(view, q).execute(db)).rows[0]?.n);
  const json = (await rowsJsonQuery(view, q, x.limit, x.offset, sql`${selectList(view)}, ${sortKeyColumn(view, q)}`).execute(db)).rows[0]
    ?.rows;
  const keyed = (typeof json === 'string' ? JSON.parse(json) : json) as Record<string, unknown>[];
  const page = index.page(q, x.offset, x.limit);
  const counted = index.count(q);
  if (counted !== undefined) expect(counted, JSON.stringify(params)).toBe(count);
  if (!page) return false;
  expect(page.rows, JSON.stringify({ params, x })).toEqual(keyed.map(({ [SORT_KEY]: _, ...row }) => row));
  expect(page.keys).toEqual(keyed.map((r) => r[SORT_KEY]));
  expect(page.toEnd).toBe(keyed.length < x.limit);
  return true;
}

/** Every record, and an id of none, as the index finds it within each scope, against the database's own find. */
async function recordsAgree(index: ViewIndex): Promise<number> {
  const ids = (await sql<{ id: number }>`select id from lc_view_12 order by id`.execute(server.ctx.db)).rows.map((r) => Number(r.id));
  let told = 0;
  for (const id of [...ids, (ids.at(-1) ?? 0) + 1000])
    for (const scope of scopes) {
      const held = index.record(id, scope);
      if (held === undefined) continue;
      told++;
      expect(held ?? undefined, `record ${id} in ${scope?.key ?? 'every scope'}`).toEqual(await findRecord(server.ctx.db, view, id, scope));
    }
  return told;
}

it('answers every list as the database does, before and after concurrent writes, without being read again', async () => {
  const index = await serverIndex();
  const indexes = lowcodeState(server.ctx).indexes as RowIndexes;
  const built = indexes.stats.built;
  const midway = (await writers[0]?.as.get('/api/general/detail', { generalId: VIEW, id: writers[0]?.own[20] }))?.body.createTime as string;
  let answered = 0;
  const check = () =>
    fc.assert(
      fc.asyncProperty(query, async (x) => {
        if (await agrees(index, x, midway)) answered++;
      }),
      { numRuns: 150 },
    );
  await check();
  for (let round = 0; round < 4; round++) {
    await Promise.all(
      writers.flatMap((w) => {
        // Two different records of the writer's: one is edited while the other is deleted.
        const [deleted, edited] = w.own.splice(Math.floor(Math.random() * (w.own.length - 1)), 2) as [number, number];
        w.own.push(edited);
        return [
          add(w),
          add(w),
          (async () => {
            const res = await w.as.post(`/api/general/update/${VIEW}`, { id: edited, ...record(++serial), warehouseId: w.warehouseId });
            expect(res.status).toBe(200);
          })(),
          (async () => {
            expect((await w.as.post(`/api/general/delete/${VIEW}`, [deleted])).status).toBe(200);
          })(),
        ];
      }),
    );
    await check();
    expect(await recordsAgree(index)).toBeGreaterThan(100);
  }
  // The same index, moved on by every write: not read again, never out of step.
  expect(await serverIndex()).toBe(index);
  expect(indexes.stats.built).toBe(built);
  expect(indexes.stats.broken).toBe(0);
  // Most queries are answered here (a text order where text does not sort by bytes is not).
  expect(answered).toBeGreaterThan(400);
}, 300_000);

it('answers a list call the cache misses from the rows in memory, as the database would', async () => {
  const index = await serverIndex();
  const indexes = lowcodeState(server.ctx).indexes as RowIndexes;
  const pages = indexes.stats.pages;
  const admin = writers[0]?.as as ApiClient;
  // A filter and order asked for the first time: the cache holds nothing of it.
  const params = { wasteName: '乳化', status: statuses[1] as string, sort: 'quantity,asc', page: '1', size: '7' };
  const res = await admin.get(`/api/general/list/${VIEW}`, params);
  expect(res.status).toBe(200);
  expect(indexes.stats.pages).toBeGreaterThan(pages);
  const q = parseListQuery(view, params, undefined);
  const json = (await rowsJsonQuery(view, q, 7, 7).execute(server.ctx.db)).rows[0]?.rows;
  expect(res.body.content).toEqual(typeof json === 'string' ? JSON.parse(json) : json);
  expect(res.body.totalElements).toBe(Number((await countQuery(view, q).execute(server.ctx.db)).rows[0]?.n));
  expect(index.count(q)).toBe(res.body.totalElements);
});

it('keeps the rows in memory through many edits of one record at once', async () => {
  const index = await serverIndex();
  const indexes = lowcodeState(server.ctx).indexes as RowIndexes;
  const broken = indexes.stats.broken;
  const w = writers[0] as (typeof writers)[number];
  const id = w.own.at(-1) as number;
  for (let round = 0; round < 20; round++) {
    // On PostgreSQL the edits wait for each other's row lock; their answers may reach the server in any order.
    const edits = Array.from({ length: 4 }, async () => {
      const { stockNo: _n, ...changes } = record(++serial);
      expect((await w.as.post(`/api/general/update/${VIEW}`, { id, ...changes, warehouseId: w.warehouseId })).status).toBe(200);
    });
    await Promise.all(edits);
  }
  expect(indexes.stats.broken).toBe(broken);
  expect(await serverIndex()).toBe(index);
  expect(index.record(id, undefined)).toEqual(await findRecord(server.ctx.db, view, id, undefined));
});

it('takes a record’s writes in the order the record went through them, whichever ended here first', async () => {
  const rows = await indexLoader(server.ctx, view)(0, 1000);
  const bytes = await textSortsByBytes(server.ctx);
  const row = rows[0];
  if (!row) throw new Error('no rows');
  const state = (status: string) => ({ ...row, raw: { ...row.raw, status }, row: { ...row.row, status } });
  const [first, second] = [state('first'), state('second')];
  // Two updates of one record that ended, while the index was read, the later one first.
  const read = new ViewIndex(view, bytes, rows);
  expect(
    read.settle([
      { gone: [first], come: [second] },
      { gone: [row], come: [first] },
    ]),
  ).toBe(true);
  expect(read.record(row.id, undefined)?.status).toBe('second');
  // Writes that do not chain (both found the record as it was) cannot be told apart.
  expect(
    new ViewIndex(view, bytes, rows).settle([
      { gone: [row], come: [first] },
      { gone: [row], come: [second] },
    ]),
  ).toBe(false);
  // A record added on another server and deleted there, told here the other way round: the add is not
  // taken for the record's last state.
  const added = { ...row, id: 1_000_000, raw: { ...row.raw, id: 1_000_000 }, row: { ...row.row, id: 1_000_000 } };
  const held = new ViewIndex(view, bytes, rows);
  expect(held.apply({ gone: [added], come: [] })).toBe(true);
  expect(held.apply({ gone: [], come: [added] })).toBe(false);
  // In order, the same two writes leave nothing behind.
  const inOrder = new ViewIndex(view, bytes, rows);
  expect(inOrder.apply({ gone: [], come: [added] })).toBe(true);
  expect(inOrder.record(added.id, undefined)).not.toBeNull();
  expect(inOrder.apply({ gone: [added], come: [] })).toBe(true);
  expect(inOrder.record(added.id, undefined)).toBeNull();
});

it('lets go of the rows when a write does not find them as the index holds them, and when the view is bumped', async () => {
  const rows = await indexLoader(server.ctx, view)(0, 1000);
  const index = new ViewIndex(view, await textSortsByBytes(server.ctx), rows);
  const row = rows[0];
  if (!row) throw new Error('no rows');
  const moved = { ...row, raw: { ...row.raw, status: 'elsewhere' } };
  // Applied in order: the row moves; the same write again finds it moved already.
  expect(index.apply({ gone: [row], come: [moved] })).toBe(true);
  expect(index.apply({ gone: [row], come: [moved] })).toBe(true);
  // A write that found the row in a state the index never held: the index no longer knows the table.
  expect(index.apply({ gone: [{ ...row, raw: { ...row.raw, status: 'other' } }], come: [row] })).toBe(false);

  const { cache } = lowcodeState(server.ctx);
  const indexes = lowcodeState(server.ctx).indexes as RowIndexes;
  const before = await serverIndex();
  const forgotten = indexes.stats.forgotten;
  cache.bump(VIEW);
  expect(indexes.stats.forgotten).toBe(forgotten + 1);
  expect(indexes.ready(view, rowSource(server.ctx, view), textSortsByBytes(server.ctx))).toBeUndefined();
  expect(before).toBeDefined();
});
