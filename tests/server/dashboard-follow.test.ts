import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureFacts, rebuildFacts } from '../../server/lib/dashboard-fact-install.js';
import { FACT_SOURCES } from '../../server/lib/dashboard-facts.js';
import { COMPANY } from '../../server/seed/ids.js';
import type { ApiClient, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';

/**
 * Dashboard figures that read another record follow it. A stock-in moved to another warehouse takes its
 * inquiries, disposal orders and logistics orders there; a disposal order given another stock-in or
 * other parties takes its logistics orders. After every write the running sums equal those computed
 * again from all records, and the warehouse tiles show the move.
 */

let server: TestServer;
let producer: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  producer = await server.login('producer');
  // The running sums are installed by the first dashboard call; the test reads them before any.
  await ensureFacts(server.ctx);
});
afterAll(() => server?.close());

const db = () => server.ctx.db;
const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(1e-6);

/** Every running sum, as numbers written the same way whatever the order of the writes that made them. */
async function sums() {
  const r = await sql`select source, company_id, role, warehouse_id, status, category, day, day2, n,
      trim_scale(qty)::text as qty, trim_scale(amount)::text as amount, trim_scale(amount2)::text as amount2
    from dash_fact where n <> 0 order by source, company_id, role, warehouse_id, status, category, day, day2`.execute(db());
  return r.rows;
}

/** The sums over warehouse and category, as the triggers keep them beside the others. */
async function totals() {
  const r = await sql<Record<string, unknown>>`select source, company_id, role, status, day, day2, n,
      trim_scale(qty)::text as qty, trim_scale(amount)::text as amount, trim_scale(amount2)::text as amount2
    from dash_fact_total where n <> 0 order by source, company_id, role, status, day, day2`.execute(db());
  return r.rows;
}

/** The running sums (both tables) equal what a computation from every record gives. */
async function expectSumsOfRecords() {
  const kept = await sums();
  const keptTotals = await totals();
  await rebuildFacts(server.ctx, FACT_SOURCES);
  expect(kept).toEqual(await sums());
  expect(keptTotals).toEqual(await totals());
  // And the totals are the sums added up over warehouse and category.
  const added = await sql<Record<string, unknown>>`select source, company_id, role, status, day, day2, sum(n) as n,
      trim_scale(sum(qty))::text as qty, trim_scale(sum(amount))::text as amount, trim_scale(sum(amount2))::text as amount2
    from dash_fact group by source, company_id, role, status, day, day2 having sum(n) <> 0
    order by source, company_id, role, status, day, day2`.execute(db());
  expect(keptTotals.map((r) => ({ ...r, n: Number(r.n) }))).toEqual(added.rows.map((r) => ({ ...r, n: Number(r.n) })));
}

async function inquiring(warehouseId: number) {
  const r = await producer.get('/api/inventoryInfo', { isRefresh: 1, warehouseId });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return Number(r.body.inquiringNum);
}

async function warehousesOf(companyId: number) {
  const r = await sql<{ id: number }>`select id from company_warehouse where company_id = ${companyId} order by id`.execute(db());
  return r.rows.map((w) => Number(w.id));
}

let seq = 0;

async function stockIn(warehouseId: number) {
  const r = await producer.post('/api/general/add/12', {
    stockNo: `RK2026${90_000_000 + seq++}`,
    wasteCategory: 'HW08',
    wasteCode: '900-249-08',
    wasteName: '废矿物油',
    quantity: '3.5',
    packageType: '1',
    warehouseId,
    inTime: '2026-11-01 09:00:00',
    handler: '张伟',
    status: '1',
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.id as number;
}

it('moves the figures of the records that read a record when it changes', async () => {
  await expectSumsOfRecords();
  const [w1, w2] = (await warehousesOf(COMPANY.producer)) as [number, number];
  expect(w2).toBeDefined();
  const stock = await stockIn(w1);
  const other = await stockIn(w1);
  const inquiry = await producer.post('/api/general/add/15', {
    companyId: COMPANY.disposer,
    stockId: stock,
    wasteCategory: 'HW08',
    quantity: '1.25',
    inquiryStatus: '0',
    needTransport: '2',
  });
  expect(inquiry.status, JSON.stringify(inquiry.body)).toBe(200);
  const order = await sql<{ id: number }>`insert into lc_view_19 ("orderNo", "stockId", "producerId", "disposerId", "carrierId",
      "wasteCategory", quantity, price, "orderStatus", create_by, create_company)
    values ('CZ-FOLLOW-1', ${stock}, ${COMPANY.producer}, ${COMPANY.disposer}, ${COMPANY.logistics}, 'HW08', 1.25, 1800, '1', 'producer',
      ${COMPANY.producer}) returning id`.execute(db());
  const orderId = Number(order.rows[0]?.id);
  await sql`insert into lc_view_20 ("waybillNo", "disposalOrderId", weight, freight, "orderStatus", create_by, create_company)
    values ('WL-FOLLOW-1', ${orderId}, 1.25, 900, '1', 'logistics', ${COMPANY.logistics})`.execute(db());
  await expectSumsOfRecords();
  const [here, there] = [await inquiring(w1), await inquiring(w2)];

  // The stock-in moves to the other warehouse, through the form: its inquiry counts there now.
  const moved = await producer.post('/api/general/update/12', { id: stock, warehouseId: w2 });
  expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  close(await inquiring(w1), here - 1.25);
  close(await inquiring(w2), there + 1.25);
  await expectSumsOfRecords();

  // The disposal order takes another stock-in, then names another producer, then no carrier: its logistics order follows.
  await sql`update lc_view_19 set "stockId" = ${other} where id = ${orderId}`.execute(db());
  await expectSumsOfRecords();
  await sql`update lc_view_19 set "producerId" = ${COMPANY.disposer} where id = ${orderId}`.execute(db());
  await expectSumsOfRecords();
  await sql`update lc_view_19 set "carrierId" = null where id = ${orderId}`.execute(db());
  await expectSumsOfRecords();

  // A stock-in that is deleted leaves what read it without a warehouse.
  await sql`delete from lc_view_12 where id = ${stock}`.execute(db());
  close(await inquiring(w2), there);
  await expectSumsOfRecords();
});
