import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseListQuery } from '../../server/lowcode/list-query.js';
import { designedView, lowcodeState } from '../../server/lowcode/view-store.js';
import { type ApiClient, dictValues, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The list cache keeps counts and blocks of rows across record writes, moving counts on and dropping
 * only what a write touched. Rounds of concurrent list calls and random adds, updates and deletes
 * (moving rows across filters and sort positions, with many equal sort keys) on the stock-in view;
 * after each round the cached answers must equal the answers computed afresh. Under data scope, the same
 * for two companies' accounts writing their own records while they and the administrator list.
 */
const VIEW = 12;
const ROUNDS = 15;

let server: TestServer;
let admin: ApiClient;
let categories: string[];
let statuses: string[];

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
  categories = (await dictValues(admin, 'wasteCategory')).slice(0, 3);
  statuses = await dictValues(admin, 'stockStatus');
});

afterAll(async () => {
  await server?.close();
});

let serial = 0;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)] as T;

/**
 * Few distinct values, so that filters match many rows and sort keys tie; the number of a stock-in is
 * unique within its company, so each record has its own.
 */
function record(): Record<string, unknown> {
  const n = ++serial;
  return {
    stockNo: `RK2027${String(n).padStart(8, '0')}`,
    wasteCategory: pick(categories),
    wasteCode: '900-249-08',
    wasteName: pick(['废矿物油', '废乳化液', '含油废物']),
    quantity: pick(['1.000', '2.500', '2.500', '7.125']),
    packageType: '1',
    warehouseId: 1,
    inTime: `2027-01-0${1 + Math.floor(Math.random() * 3)} 0${Math.floor(Math.random() * 2)}:00:00`,
    handler: `缓存${n}`,
    status: pick(statuses),
  };
}

/** Filters, orders, sizes and pages the rounds list (and so cache); `midway` is a createTime that splits the rows. */
function queries(midway: string): Record<string, string | string[]>[] {
  const out: Record<string, string | string[]>[] = [];
  const filters: Record<string, string | string[]>[] = [
    {},
    { wasteCategory: categories[0] as string },
    { status: statuses[0] as string },
    { wasteCategory: categories[1] as string, status: statuses[1] as string },
    { wasteName: '乳化' },
    { stockNo: '0000001' },
    { inTime: '2027-01-02' },
    { inTime: ['2027-01-01', '2027-01-02'] },
    { stockNo: 'RK20270000001' },
    { stockNo: 'RK202700000012' },
    { startTime: midway, status: statuses[0] as string },
    { endTime: midway },
  ];
  const orders = [undefined, 'inTime,asc', 'quantity,desc', 'quantity,asc', 'stockNo,asc', 'id,asc', 'createTime,desc'];
  for (const [i, f] of filters.entries())
    for (const [j, sort] of orders.entries()) {
      const size = String([5, 10, 20][(i + j) % 3]);
      for (const page of ['0', String((i + j) % 4)]) out.push({ ...f, ...(sort ? { sort } : {}), size, page });
      // The ends of the first two blocks of 100 rows and the start of the second, which a write before it shifts.
      if (i < 3) for (const page of ['4', '5', '9']) out.push({ ...f, ...(sort ? { sort } : {}), size: '20', page });
    }
  return out;
}

async function listAll(qs: Record<string, string | string[]>[]) {
  return Promise.all(
    qs.map(async (q) => {
      const r = await admin.get(`/api/general/list/${VIEW}`, q);
      expect(r.status).toBe(200);
      return { totalElements: r.body.totalElements, ids: r.body.content.map((x: { id: number }) => x.id), content: r.body.content };
    }),
  );
}

describe('list cache across record writes', () => {
  it('answers after every round of concurrent writes exactly what a fresh computation answers', async () => {
    const mine: number[] = [];
    for (let i = 0; i < 15; i++) {
      const added = await Promise.all(Array.from({ length: 10 }, () => admin.post(`/api/general/add/${VIEW}`, record())));
      for (const r of added) {
        expect(r.status).toBe(200);
        mine.push(r.body.id);
      }
    }
    const midway = (await admin.get('/api/general/detail', { generalId: VIEW, id: mine[75] })).body.createTime as string;
    const qs = queries(midway);
    let stale = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const writes = Array.from({ length: 8 }, async () => {
        const r = Math.random();
        if (r < 0.4 || mine.length < 10) {
          const res = await admin.post(`/api/general/add/${VIEW}`, record());
          expect(res.status).toBe(200);
          mine.push(res.body.id);
        } else if (r < 0.85) {
          const id = pick(mine);
          const { handler: _h, ...changes } = record();
          const partial = Object.fromEntries(Object.entries(changes).filter(() => Math.random() < 0.5));
          const res = await admin.post(`/api/general/update/${VIEW}`, { id, ...partial });
          expect([200, 404]).toContain(res.status);
        } else {
          const id = mine.splice(Math.floor(Math.random() * mine.length), 1)[0] as number;
          expect((await admin.post(`/api/general/delete/${VIEW}`, [id])).status).toBe(200);
        }
      });
      // Several writers editing one record at once: their edits end here in any order.
      const contested = pick(mine);
      const edits = Array.from({ length: 3 }, async () => {
        const { handler: _h, ...changes } = record();
        const res = await admin.post(`/api/general/update/${VIEW}`, { id: contested, ...changes });
        expect([200, 404]).toContain(res.status);
      });
      // Lists race the writes, so that answers computed across a write are offered to the cache.
      await Promise.all([...writes, ...edits, listAll(qs), listAll(qs.slice().reverse())]);
      const cached = await listAll(qs);
      lowcodeState(server.ctx).cache.bumpAll();
      const fresh = await listAll(qs);
      for (const [i, q] of qs.entries()) {
        if (JSON.stringify(cached[i]) !== JSON.stringify(fresh[i])) {
          stale++;
          console.log(
            'MISMATCH',
            JSON.stringify(q),
            JSON.stringify(cached[i]?.ids),
            JSON.stringify(fresh[i]?.ids),
            cached[i]?.totalElements,
            fresh[i]?.totalElements,
          );
          expect({ round, query: q, cached: cached[i] }).toEqual({ round, query: q, cached: fresh[i] });
        }
      }
    }
    expect(stale).toBe(0);
    // Writes moved cached blocks on in place rather than dropping them all.
    expect(lowcodeState(server.ctx).cache.stats.revised).toBeGreaterThan(0);
  }, 300_000);

  it('keeps the cached lists of every company exact while companies write their own records', async () => {
    const cache = lowcodeState(server.ctx).cache;
    const [producer, collector] = await Promise.all([server.login('producer'), server.login('collector')]);
    const writers = await Promise.all(
      [producer, collector].map(async (as) => ({
        as,
        warehouseId: (await as.get('/api/companyWarehouse/list')).body.content[0].id,
        own: [] as number[],
      })),
    );
    const add = async (w: (typeof writers)[number]) => {
      const res = await w.as.post(`/api/general/add/${VIEW}`, { ...record(), warehouseId: w.warehouseId });
      expect(res.status).toBe(200);
      w.own.push(res.body.id);
    };
    for (let i = 0; i < 10; i++) await Promise.all(writers.flatMap((w) => [add(w), add(w)]));
    const qs: Record<string, string>[] = [];
    const filters: Record<string, string>[] = [{}, { status: statuses[0] as string }, { wasteCategory: categories[0] as string }];
    for (const f of filters)
      for (const sort of [undefined, 'quantity,desc', 'inTime,asc'])
        for (const page of ['0', '1']) qs.push({ ...f, ...(sort ? { sort } : {}), size: '10', page });
    const readers = [admin, producer, collector];
    const listAs = (as: ApiClient) =>
      Promise.all(
        qs.map(async (q) => {
          const r = await as.get(`/api/general/list/${VIEW}`, q);
          expect(r.status).toBe(200);
          return { totalElements: r.body.totalElements, content: r.body.content };
        }),
      );
    for (let round = 0; round < 6; round++) {
      const writes = writers.flatMap((w) => [
        add(w),
        (async () => {
          const { handler: _h, ...changes } = record();
          const res = await w.as.post(`/api/general/update/${VIEW}`, { id: pick(w.own), ...changes, warehouseId: w.warehouseId });
          expect(res.status).toBe(200);
        })(),
      ]);
      await Promise.all([...writes, ...readers.map(listAs)]);
      const cached = await Promise.all(readers.map(listAs));
      cache.bumpAll();
      const fresh = await Promise.all(readers.map(listAs));
      expect(cached).toEqual(fresh);
    }
    // One company's write leaves another company's cached lists served from the cache.
    await listAs(collector);
    // On PostgreSQL a miss's answer is kept once judged, which may be after the call was answered.
    await vi.waitFor(() => expect(cache.settling).toBe(0), { timeout: 10_000, interval: 10 });
    await add(writers[0] as (typeof writers)[number]);
    const misses = cache.stats.misses;
    await listAs(collector);
    expect(cache.stats.misses).toBe(misses);
  }, 300_000);

  it('reads a page alone the first time a filter is asked for in an order, and a block of pages after', async () => {
    const view = await designedView(server.ctx, VIEW);
    const cache = lowcodeState(server.ctx).cache;
    // A dictionary filter and an order no other test asks for; no text search, which is counted first. The
    // tie-break runs against the lead column, an order the rows in memory never answer: only the cache reads.
    const query = { status: statuses.at(-1) as string, sort: ['stockNo,desc', 'id,asc'], size: '10' };
    const { orderKey } = parseListQuery(view, query, undefined);
    // On PostgreSQL a miss's answer is kept once the instance has heard every write before it, which may
    // be after the call was answered: wait for that state, not for time.
    const kept = async (key: string) => {
      await vi.waitFor(() => expect(cache.settling).toBe(0), { timeout: 10_000, interval: 10 });
      expect(cache.has(VIEW, key)).toBe(true);
    };
    const first = await admin.get(`/api/general/list/${VIEW}`, { ...query, page: '1' });
    expect(first.status).toBe(200);
    await kept(`b${orderKey}|10|10`);
    expect(cache.has(VIEW, `b${orderKey}|100|0`)).toBe(false);
    // The same page again is the page read before; another page reads the block holding pages 0 to 9.
    expect((await admin.get(`/api/general/list/${VIEW}`, { ...query, page: '1' })).body).toEqual(first.body);
    expect(cache.has(VIEW, `b${orderKey}|100|0`)).toBe(false);
    const second = await admin.get(`/api/general/list/${VIEW}`, { ...query, page: '2' });
    await kept(`b${orderKey}|100|0`);
    cache.bumpAll();
    expect((await admin.get(`/api/general/list/${VIEW}`, { ...query, page: '2' })).body).toEqual(second.body);
  });
});
