import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fenceRows } from '../../server/lowcode/list-pages.js';
import { parseListQuery } from '../../server/lowcode/list-query.js';
import { afterKey, EXACT_COUNT_MAX, rowsJsonQuery, selectList } from '../../server/lowcode/list-sql.js';
import type { SortKey } from '../../server/lowcode/list-types.js';
import { SORT_KEY, sortKeyColumn } from '../../server/lowcode/row-position.js';
import { changeView, designedView } from '../../server/lowcode/view-store.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * A list's count is exact while its scope and filters select up to EXACT_COUNT_MAX rows; above that it
 * may be the database's estimate, and then the answer says so (`totalEstimated`), for the app to show
 * 约 N 条. With the rows in memory a count is exact at any size; read from the database (LIST_INDEX=0)
 * a count above the threshold is always an estimate. Pages of a text search over many rows are read
 * fenced and are exactly the database's own order; a block read onwards from the row before it (keyset)
 * holds exactly the rows an offset gives, nulls and ties included.
 */
const VIEW = 12;
const ROWS = EXACT_COUNT_MAX + 2_000;
const CATEGORIES = ['HW08', 'HW49', 'HW12'];

interface Answer {
  content: { id: number }[];
  totalElements: number;
  totalEstimated?: true;
}

for (const listIndex of [true, false]) {
  describe(`list counts, rows ${listIndex ? 'in memory' : 'read from the database'}`, () => {
    let server: TestServer;
    let admin: ApiClient;

    beforeAll(async () => {
      server = await startTestServer({ listIndex });
      admin = await server.login('admin');
      // Set-based, before any list is read: 60% HW08, 30% HW49, 10% HW12; statuses alternate.
      await sql`insert into lc_view_12 ("stockNo", "wasteCategory", "wasteName", status, "inTime", create_by)
        select 'CT' || lpad(g::text, 6, '0'),
          case when g % 10 < 6 then 'HW08' when g % 10 < 9 then 'HW49' else 'HW12' end,
          '计数样本', (g % 2)::text, timestamp '2027-03-01' + g * interval '1 minute', 'admin'
        from generate_series(1, ${ROWS}) g`.execute(server.ctx.db);
    }, 120_000);

    afterAll(() => server?.close());

    /** The exact count of the same filters, by the database. */
    async function exact(filters: { wasteCategory?: string; status?: string; stockNo?: string }): Promise<number> {
      const parts = [sql`true`];
      if (filters.wasteCategory) parts.push(sql`"wasteCategory" = ${filters.wasteCategory}`);
      if (filters.status) parts.push(sql`status = ${filters.status}`);
      if (filters.stockNo) parts.push(sql`"stockNo" ilike ${`%${filters.stockNo}%`}`);
      const r = await sql<{ n: string }>`select count(*) as n from lc_view_12 where ${sql.join(parts, sql` and `)}`.execute(server.ctx.db);
      return Number(r.rows[0]?.n);
    }

    it('is exact up to the threshold and labelled as an estimate above it, for any filters', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            wasteCategory: fc.option(fc.constantFrom(...CATEGORIES), { nil: undefined }),
            status: fc.option(fc.constantFrom('0', '1'), { nil: undefined }),
            stockNo: fc.option(fc.constantFrom('CT', 'CT0', 'CT01', 'CT0111', '无此'), { nil: undefined }),
            page: fc.nat(3),
          }),
          async ({ page, ...filters }) => {
            const query = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined));
            const res = await admin.get(`/api/general/list/${VIEW}`, { ...query, page, size: 10 });
            expect(res.status, JSON.stringify(res.body)).toBe(200);
            const body = res.body as Answer;
            const n = await exact(filters);
            if (n <= EXACT_COUNT_MAX) {
              expect(body.totalElements).toBe(n);
              expect(body.totalEstimated).toBeUndefined();
            } else if (body.totalEstimated) {
              expect(body.totalElements).toBeGreaterThan(EXACT_COUNT_MAX);
            } else {
              // Unlabelled, it must be the exact count (the rows in memory count exactly).
              expect(listIndex).toBe(true);
              expect(body.totalElements).toBe(n);
            }
            if (!listIndex && n > EXACT_COUNT_MAX) expect(body.totalEstimated).toBe(true);
            expect(body.content.length).toBe(Math.max(0, Math.min(10, n - page * 10)));
          },
        ),
        { numRuns: 40 },
      );
    }, 180_000);

    it('reads a text search over many rows fenced, in the database’s own order', async () => {
      for (const page of [0, 7]) {
        const res = await admin.get(`/api/general/list/${VIEW}`, { stockNo: 'CT', page, size: 20 });
        expect(res.status).toBe(200);
        const want = await sql<{ id: string }>`select id from lc_view_12 where "stockNo" ilike '%CT%'
          order by "inTime" desc, id desc limit 20 offset ${page * 20}`.execute(server.ctx.db);
        expect((res.body as Answer).content.map((r) => Number(r.id))).toEqual(want.rows.map((r) => Number(r.id)));
      }
    });

    it('reads a time range over more rows than a filter is fenced at in another order, fenced, in the database’s own order', async () => {
      const view = await designedView(server.ctx, VIEW);
      const range = new URLSearchParams([
        ['inTime', '2027-03-01'],
        ['inTime', '2027-03-31'],
      ]);
      for (const sort of ['quantity,asc', 'stockNo,desc', 'createTime,asc']) {
        const q = parseListQuery(view, { ...Object.fromEntries([...range.keys()].map((k) => [k, range.getAll(k)])), sort }, undefined);
        // Every seeded row is in the range: more than a filter is fenced at, within what a range is.
        expect(fenceRows(q)).toBeGreaterThan(ROWS);
        for (const page of [0, 7]) {
          const res = await admin.get(`/api/general/list/${VIEW}?${range}`, { sort, page, size: 20 });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          const [field, dir] = sort.split(',') as [string, string];
          const column = field === 'createTime' ? 'create_time' : field;
          const want = await sql<{ id: string }>`select id from lc_view_12
            where "inTime" between timestamp '2027-03-01' and timestamp '2027-03-31 23:59:59'
            order by ${sql.ref(column)} ${sql.raw(dir)}, id ${sql.raw(dir)} limit 20 offset ${page * 20}`.execute(server.ctx.db);
          expect((res.body as Answer).content.map((r) => Number(r.id))).toEqual(want.rows.map((r) => Number(r.id)));
        }
      }
      // A text search is fenced at any size.
      expect(fenceRows(parseListQuery(view, { stockNo: 'CT' }, undefined))).toBe(Number.POSITIVE_INFINITY);
    });

    it('reads a block onwards from the row before it exactly as by offset, in any order', async () => {
      const view = await designedView(server.ctx, VIEW);
      // Nulls and ties in the sorted columns.
      await sql`update lc_view_12 set quantity = null where id % 7 = 0`.execute(server.ctx.db);
      await sql`update lc_view_12 set "inTime" = null where id % 11 = 0`.execute(server.ctx.db);
      await sql`update lc_view_12 set "stockNo" = 'CT-TIE' where id % 13 = 0`.execute(server.ctx.db);
      // Written behind the server's back: it is told, as an import or a scripted action tells it.
      changeView(server.ctx, VIEW);
      const read = async (query: Record<string, string>, offset: number, after?: SortKey) => {
        const q = parseListQuery(view, query, undefined);
        const cols = sql`${selectList(view)}, ${sortKeyColumn(view, q)}`;
        const keyset = after ? afterKey(view, q, after) : undefined;
        const r = await rowsJsonQuery(view, q, 15, after ? 0 : offset, cols, false, keyset).execute(server.ctx.db);
        const rows = r.rows[0]?.rows;
        return (typeof rows === 'string' ? JSON.parse(rows) : rows) as Record<string, unknown>[];
      };
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('inTime,desc', 'inTime,asc', 'quantity,asc', 'quantity,desc', 'stockNo,asc', 'stockNo,desc', 'id,asc'),
          fc.option(fc.constantFrom(...CATEGORIES), { nil: undefined }),
          fc.integer({ min: 1, max: 9_000 }),
          async (sort, wasteCategory, offset) => {
            const query: Record<string, string> = wasteCategory ? { sort, wasteCategory } : { sort };
            const before = await read(query, offset - 1);
            const key = before[0]?.[SORT_KEY] as SortKey | undefined;
            if (!key) return;
            const byOffset = await read(query, offset);
            const byKey = await read(query, offset, key);
            expect(byKey.map((r) => r.id)).toEqual(byOffset.map((r) => r.id));
          },
        ),
        { numRuns: 60 },
      );
    }, 180_000);

    it('pages forward through blocks exactly as the database orders them', async () => {
      for (const sort of ['inTime,desc', 'quantity,asc']) {
        for (let page = 0; page < 24; page++) {
          const res = await admin.get(`/api/general/list/${VIEW}`, { sort, page, size: 10 });
          expect(res.status).toBe(200);
          const [column, dir] = sort.split(',') as [string, string];
          const want = await sql<{ id: string }>`select id from lc_view_12
            order by ${sql.ref(column)} ${sql.raw(dir)}, id ${sql.raw(dir)} limit 10 offset ${page * 10}`.execute(server.ctx.db);
          expect(
            (res.body as Answer).content.map((r) => Number(r.id)),
            `${sort} page ${page}`,
          ).toEqual(want.rows.map((r) => Number(r.id)));
        }
      }
    }, 120_000);

    it('moves an estimated count with the writes of the server', async () => {
      const before = (await admin.get(`/api/general/list/${VIEW}`, { wasteCategory: 'HW08', size: 10 })).body as Answer;
      const warehouses = (await admin.get('/api/companyWarehouse/list')).body.content as { id: number }[];
      const add = await admin.post(`/api/general/add/${VIEW}`, {
        stockNo: 'RK202704010001',
        wasteCategory: 'HW08',
        wasteCode: '900-249-08',
        wasteName: '计数样本',
        quantity: '1',
        packageType: '1',
        inTime: '2027-04-01 00:00:00',
        handler: '计数',
        status: '0',
        warehouseId: (warehouses[0] as { id: number }).id,
      });
      expect(add.status, JSON.stringify(add.body)).toBe(200);
      const after = (await admin.get(`/api/general/list/${VIEW}`, { wasteCategory: 'HW08', size: 10 })).body as Answer;
      expect(after.totalElements).toBe(before.totalElements + 1);
      expect(after.totalEstimated).toBe(before.totalEstimated);
    });

    it.skipIf(listIndex)('counts exactly again once writes bring an estimate within the threshold', async () => {
      // Rows removed outside the server leave the whole list a few rows above the threshold; the
      // planner's estimate is then about as many.
      const all = await exact({});
      await sql`delete from lc_view_12 where id in (select id from lc_view_12 where "stockNo" like 'CT%' order by id
        limit ${all - (EXACT_COUNT_MAX + 3)})`.execute(server.ctx.db);
      await sql`analyze lc_view_12`.execute(server.ctx.db);
      const near = (await admin.get(`/api/general/list/${VIEW}`, { size: 10 })).body as Answer;
      expect(near.totalEstimated).toBe(true);
      expect(near.totalElements).toBeGreaterThan(EXACT_COUNT_MAX);
      // The server's own delete of five rows moves the held estimate below the threshold.
      const ids = near.content.slice(0, 5).map((r) => Number(r.id));
      const removed = await admin.post(`/api/general/delete/${VIEW}`, { ids });
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
      const after = (await admin.get(`/api/general/list/${VIEW}`, { size: 10 })).body as Answer;
      expect(after.totalEstimated).toBeUndefined();
      expect(after.totalElements).toBe(await exact({}));
      expect(after.totalElements).toBe(EXACT_COUNT_MAX - 2);
    });
  });
}
