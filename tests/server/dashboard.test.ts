import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY } from '../../server/seed/ids.js';
import { formatDate } from '../../src/shared/format.js';
import type { ApiClient, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';

/**
 * Dashboard figures are computed from the records users write through the generated pages: what a
 * write adds shows in the next isRefresh=1 answer, for the companies it involves and for those who see
 * every company, and the figures equal a direct sum over the records after any kind of write.
 */

const PRODUCER = '苏州华瑞精细化工有限公司';
const DISPOSER = '江苏绿源环保科技有限公司';
const now = () => formatDate(Date.now(), 'YYYY-MM-DD HH:mm:ss');
const day = (offset: number) => formatDate(Date.now() + offset * 86_400_000, 'YYYY-MM-DD');
const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(1e-6);

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;
let disposer: ApiClient;
let collector: ApiClient;
let supervisor: ApiClient;
let logistics: ApiClient;
let seq = 0;

beforeAll(async () => {
  server = await startTestServer();
  [admin, producer, disposer, collector, supervisor, logistics] = await Promise.all([
    server.login('admin'),
    server.login('producer'),
    server.login('disposer'),
    server.login('collector'),
    server.login('supervisor'),
    server.login('logistics'),
  ]);
});
afterAll(() => server?.close());

const db = () => server.ctx.db;
const number12 = () => String(Date.now() % 1e8).padStart(8, '0') + String(++seq).padStart(4, '0');

async function get(c: ApiClient, path: string, query: Record<string, unknown> = {}) {
  const r = await c.get(path, query);
  expect(r.status, `${path} ${JSON.stringify(r.body)}`).toBe(200);
  return r.body;
}
const inventory = (c: ApiClient, query: Record<string, unknown> = {}) => get(c, '/api/inventoryInfo', { isRefresh: 1, ...query });
const orders = (c: ApiClient) => get(c, '/api/produceOrderDashboard', { isRefresh: 1 });
const finance = (c: ApiClient) => get(c, '/api/finAcc/dashboard', { isRefresh: 1 });

async function ownWarehouse(c: ApiClient): Promise<number> {
  const list = await get(c, '/api/companyWarehouse/list');
  return list.content[0].id;
}

async function addStockIn(c: ApiClient, fields: Record<string, unknown>) {
  const r = await c.post('/api/general/add/12', {
    stockNo: `RK${number12()}`,
    wasteCategory: 'HW08',
    wasteCode: '900-249-08',
    wasteName: '废矿物油',
    quantity: 1,
    packageType: '1',
    inTime: now(),
    handler: '王丽华',
    status: '0',
    ...fields,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.id as number;
}

async function addOrder(c: ApiClient, fields: Record<string, unknown>) {
  const r = await c.post('/api/general/add/19', {
    orderNo: `CZ${number12()}`,
    producerId: COMPANY.producer,
    disposerId: COMPANY.disposer,
    wasteCategory: 'HW08',
    quantity: 3,
    price: 2000,
    orderStatus: '0',
    needPrepay: '2',
    ...fields,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.id as number;
}

async function addContract(c: ApiClient, fields: Record<string, unknown>) {
  const r = await c.post('/api/general/add/16', {
    contractNo: `HT2026-${String(1000 + ++seq).slice(-4)}`,
    contractName: '测试委托处置合同',
    partyAId: COMPANY.producer,
    partyBId: COMPANY.disposer,
    amount: 100000,
    signDate: day(0),
    beginDate: day(0),
    endDate: day(10),
    contractStatus: '2',
    ...fields,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.id as number;
}

/** A stock-in's status; one without counts as the form's default, awaiting stock-in (0). */
const STATUS = sql`coalesce(nullif(trim(status), ''), '0')`;

/** Tons of held stock (awaiting or in stock) straight from the records, optionally of one company's warehouses. */
async function heldFromRecords(companyId?: number, status: string[] = ['0', '1']) {
  const own =
    companyId === undefined ? sql`true` : sql`"warehouseId" in (select id from company_warehouse where company_id = ${companyId})`;
  const r = await sql<{
    q: number | null;
  }>`select sum(quantity) as q from lc_view_12 where ${STATUS} in (${sql.join(status)}) and ${own}`.execute(db());
  return Number(r.rows[0]?.q ?? 0);
}

describe('the acceptance rule: a stock-in shows in the inventory total', () => {
  it('adds 2.5 tons through the stock-in page; isRefresh=1 shows it, isRefresh=0 may answer the figure computed before', async () => {
    const warehouseId = await ownWarehouse(producer);
    const before = await inventory(producer);
    const beforeHere = await inventory(producer, { warehouseId });
    const beforeAll = await inventory(admin);
    const beforeOther = await inventory(disposer);
    expect(before.computedAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    await addStockIn(producer, { quantity: '2.5', warehouseId });

    const cached = await get(producer, '/api/inventoryInfo', { isRefresh: 0 });
    expect(cached).toEqual(before);

    const after = await inventory(producer);
    close(after.inventoryTotal, before.inventoryTotal + 2.5);
    expect(after.inNum).toBe(before.inNum); // awaiting stock-in (status 0), not in stock yet
    expect(after.computedAt >= before.computedAt).toBe(true);
    close((await inventory(producer, { warehouseId })).inventoryTotal, beforeHere.inventoryTotal + 2.5);
    close((await inventory(admin)).inventoryTotal, beforeAll.inventoryTotal + 2.5);
    expect((await inventory(disposer)).inventoryTotal).toBe(beforeOther.inventoryTotal);
    // And isRefresh=0 now answers the new figure that was just computed.
    expect((await get(producer, '/api/inventoryInfo', {})).inventoryTotal).toBe(after.inventoryTotal);
  });

  it('counts a stock-in without a status as the form default (awaiting stock-in)', async () => {
    const before = await inventory(producer);
    await addStockIn(producer, { quantity: 1.5, warehouseId: await ownWarehouse(producer), status: undefined });
    close((await inventory(producer)).inventoryTotal, before.inventoryTotal + 1.5);
  });

  it('answers a warehouse of another company as missing, and for every warehouse to those who see all', async () => {
    const foreign = (await get(disposer, '/api/companyWarehouse/list')).content[0].id;
    expect((await producer.get('/api/inventoryInfo', { warehouseId: foreign })).status).toBe(404);
    expect((await producer.get('/api/inventoryInfo', { warehouseId: 999_999 })).status).toBe(404);
    expect((await producer.get('/api/inventoryInfo', { warehouseId: 'x' })).status).toBe(400);
    close((await inventory(admin, { warehouseId: foreign })).inventoryTotal, await heldOf(foreign));
  });
});

async function heldOf(warehouseId: number) {
  const r = await sql<{
    q: number | null;
  }>`select sum(quantity) as q from lc_view_12 where ${STATUS} in ('0', '1') and "warehouseId" = ${warehouseId}`.execute(db());
  return Number(r.rows[0]?.q ?? 0);
}

describe('figures equal the records after every kind of write', () => {
  const check = async () => {
    const all = await inventory(admin);
    close(all.inventoryTotal, await heldFromRecords());
    close(all.inNum, await heldFromRecords(undefined, ['1']));
    const mine = await inventory(producer);
    close(mine.inventoryTotal, await heldFromRecords(COMPANY.producer));
    close(mine.inNum, await heldFromRecords(COMPANY.producer, ['1']));
  };

  it('after adds, updates, deletes, bulk inserts and plain SQL', async () => {
    await check();
    const warehouseId = await ownWarehouse(producer);
    const id = await addStockIn(producer, { quantity: 4.125, warehouseId });
    await check();
    expect((await producer.post('/api/general/update/12', { id, status: '1' })).status).toBe(200);
    await check();
    expect((await producer.post('/api/general/update/12', { id, quantity: 0.875 })).status).toBe(200);
    await check();
    expect((await producer.post('/api/general/delete/12', [id])).status).toBe(200);
    await check();
    await sql`insert into lc_view_12 ("stockNo", quantity, status, "warehouseId", create_by)
      select 'RK' || lpad(g::text, 12, '0'), g * 0.5, '1', ${warehouseId}, 'producer' from generate_series(1, 40) g`.execute(db());
    await check();
    await sql`update lc_view_12 set status = '2' where "stockNo" like 'RK00000000000%' and quantity < 3`.execute(db());
    await check();
    await sql`delete from lc_view_12 where "stockNo" like 'RK0000000000%'`.execute(db());
    await check();
  });

  it('a write in one transaction that rolls back leaves the figures as they were', async () => {
    const before = await inventory(admin);
    await db()
      .transaction()
      .execute(async (trx) => {
        await sql`insert into lc_view_12 ("stockNo", quantity, status) values ('RK999999999999', 1000, '0')`.execute(trx);
        throw new Error('rolled back');
      })
      .catch(() => {});
    expect((await inventory(admin)).inventoryTotal).toBe(before.inventoryTotal);
  });
});

describe('order tiles and finance', () => {
  it('counts an ongoing disposal order for both companies it names, and the payable and receivable', async () => {
    const [p0, d0, c0, a0] = await Promise.all([orders(producer), orders(disposer), orders(collector), orders(admin)]);
    const [pf0, df0] = await Promise.all([finance(producer), finance(disposer)]);
    const id = await addOrder(admin, { quantity: '3.5', price: '2100.5' });
    const [p1, d1, c1, a1] = await Promise.all([orders(producer), orders(disposer), orders(collector), orders(admin)]);
    expect(p1.ongoingDisposalOrder).toBe(p0.ongoingDisposalOrder + 1);
    expect(d1.ongoingDisposalOrder).toBe(d0.ongoingDisposalOrder + 1);
    expect(c1.ongoingDisposalOrder).toBe(c0.ongoingDisposalOrder);
    expect(a1.ongoingDisposalOrder).toBe(a0.ongoingDisposalOrder + 1);
    // The order page leaves amount to the back end: price × quantity counts until it is set.
    const [pf1, df1] = await Promise.all([finance(producer), finance(disposer)]);
    close(pf1.payable, pf0.payable + 3.5 * 2100.5);
    close(df1.receivable, df0.receivable + 3.5 * 2100.5);
    expect(pf1.receivable).toBe(pf0.receivable);

    // Done: no longer ongoing nor owed; paid this year.
    expect((await admin.post('/api/general/update/19', { id, orderStatus: '2' })).status).toBe(200);
    const [p2, pf2] = await Promise.all([orders(producer), finance(producer)]);
    expect(p2.ongoingDisposalOrder).toBe(p0.ongoingDisposalOrder);
    close(pf2.payable, pf0.payable);
    close(pf2.yearPaid, pf0.yearPaid + 3.5 * 2100.5);
  });

  it('takes prepayments off what is owed and counts them as paid', async () => {
    const before = await finance(producer);
    await addOrder(admin, { quantity: 2, price: 1000, needPrepay: '1', prepayPrice: 600 });
    const after = await finance(producer);
    close(after.payable, before.payable + 2000 - 600);
    close(after.yearPaid, before.yearPaid + 600);
  });

  it('counts contracts in force that end within 30 days in the fourth tile', async () => {
    const before = await orders(producer);
    await addContract(admin, { endDate: day(10) });
    await addContract(admin, { endDate: day(40) });
    await addContract(admin, { endDate: day(5), contractStatus: '4' });
    await addContract(admin, { endDate: day(-1) });
    const after = await orders(producer);
    expect(after.count).toBe(before.count + 1);
    expect(after.countLabel).toBe('30天内到期合同');
  });

  it('counts ongoing inquiries asked by the company and sent to it', async () => {
    const [p0, d0, i0] = await Promise.all([orders(producer), orders(disposer), inventory(producer)]);
    const r = await producer.post('/api/general/add/15', {
      companyId: COMPANY.disposer,
      wasteCategory: 'HW08',
      quantity: 12,
      inquiryStatus: '0',
      needTransport: '2',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const [p1, d1] = await Promise.all([orders(producer), orders(disposer)]);
    expect(p1.ongoingDisposalInquiry).toBe(p0.ongoingDisposalInquiry + 1);
    expect(d1.ongoingDisposalInquiry).toBe(d0.ongoingDisposalInquiry + 1);
    close((await inventory(producer)).inquiringNum, i0.inquiringNum + 12);
  });
});

describe('the supervisory home', () => {
  const blocks = ['dataSummary', 'contractSummary', 'serverSummary', 'toDoData', 'costInfo', 'statistics'];

  it('is for the supervisory department and administrators only', async () => {
    for (const b of blocks) {
      expect((await producer.get(`/api/companyApi/homePage/${b}`)).status, b).toBe(403);
      const r = await get(supervisor, `/api/companyApi/homePage/${b}`, { isRefresh: 1 });
      expect(r.refreshTime, b).toBe(r.computedAt);
    }
  });

  it('counts this year’s services and contracts, and the producers with and without a contract in force', async () => {
    const summary0 = await get(supervisor, '/api/companyApi/homePage/dataSummary', { isRefresh: 1 });
    await addOrder(admin, {});
    await addContract(admin, { endDate: day(100) });
    const summary1 = await get(supervisor, '/api/companyApi/homePage/dataSummary', { isRefresh: 1 });
    expect(summary1.yearServerCount).toBe(summary0.yearServerCount + 1);
    expect(summary1.yearContractCount).toBe(summary0.yearContractCount + 1);

    const producers = await sql<{ n: number }>`select count(*)::int as n from company where type = '1' and status = 1`.execute(db());
    const contracts = await get(supervisor, '/api/companyApi/homePage/contractSummary', { isRefresh: 1 });
    expect(contracts.totalContractCompanyCount).toBe(producers.rows[0]!.n);
    expect(contracts.haveContractCompanyCount + contracts.unContractCompanyCount).toBe(producers.rows[0]!.n);
    expect(contracts.haveContractCompanyCount).toBeGreaterThanOrEqual(1); // the producer, just now
  });

  it('measures statistics against this year’s targets, which the supervisor sets', async () => {
    const s0 = await get(supervisor, '/api/companyApi/homePage/statistics', { isRefresh: 1 });
    expect(s0.allCompany).toBeGreaterThan(0);
    expect((await supervisor.put('/api/companyApi/homePage/target', { name: 'allCompany', value: s0.allCompany * 4 })).status).toBe(200);
    const s1 = await get(supervisor, '/api/companyApi/homePage/statistics', { isRefresh: 1 });
    expect(s1.allCompanyTarget).toBe(s0.allCompany * 4);
    expect(s1.allCompanyProgress).toBe(25);
    expect((await producer.put('/api/companyApi/homePage/target', { name: 'allCompany', value: 1 })).status).toBe(403);
    expect((await supervisor.put('/api/companyApi/homePage/target', { name: 'nothing', value: 1 })).status).toBe(400);
  });

  it('lists to-dos from orders and pending applications', async () => {
    const t0 = await get(supervisor, '/api/companyApi/homePage/toDoData', { isRefresh: 1 });
    await addOrder(admin, { orderStatus: '4' });
    const t1 = await get(supervisor, '/api/companyApi/homePage/toDoData', { isRefresh: 1 });
    expect(t1.beUpdateServerCount).toBe(t0.beUpdateServerCount + 1);
    const pending = await sql<{ n: number }>`select count(*)::int as n from company_application where status = 0`.execute(db());
    expect(t1.beAuditPlanCount).toBe(pending.rows[0]!.n);
  });
});

describe('the logistics home', () => {
  it('counts the carrier’s orders and vehicles from the records', async () => {
    const carried = await sql<{ n: number }>`select count(*)::int as n from lc_view_20
      where create_by in (select username from sys_user where company_id = ${COMPANY.logistics})`.execute(db());
    const dash = await get(logistics, '/api/logisticsOrder/dashboard', { isRefresh: 1 });
    expect(dash.total).toBe(carried.rows[0]!.n);
    expect(dash.total).toBeGreaterThan(0);
    expect(dash.pending + dash.inTransit + dash.finished + dash.cancelled + dash.rejected).toBe(dash.total);

    const vehicles = await sql<{
      status: string;
      n: number;
      q: number;
    }>`select "vehicleStatus" as status, count(*)::int as n, sum("loadCapacity") as q
      from lc_view_17 where create_by in (select username from sys_user where company_id = ${COMPANY.logistics}) group by 1`.execute(db());
    const of = (s: string) => vehicles.rows.find((r) => r.status === s);
    const transport = await get(logistics, '/api/companyTransportInfo', { isRefresh: 1 });
    expect(transport.idleCount).toBe(of('0')?.n ?? 0);
    expect(transport.existingCount).toBe((of('0')?.n ?? 0) + (of('1')?.n ?? 0) + (of('2')?.n ?? 0));
    close(transport.idleLoadCapacity, Number(of('0')?.q ?? 0));

    const months = await get(logistics, '/api/logisticsOrderDashboard', { isRefresh: 1 });
    expect(months.months).toHaveLength(12);
    expect(months.months[11]).toBe(formatDate(Date.now(), 'YYYY-MM'));
    expect(months.counts.reduce((a: number, b: number) => a + b, 0)).toBeLessThanOrEqual(dash.total);
  });

  it('lists orders per warehouse through their disposal order’s stock-in', async () => {
    const warehouseId = await ownWarehouse(producer);
    const stockId = await addStockIn(producer, { warehouseId, status: '1' });
    const orderId = await addOrder(admin, { stockId });
    const vehicle = await sql<{ id: number }>`select min(id) as id from lc_view_17`.execute(db());
    const add = await admin.post('/api/general/add/20', {
      waybillNo: `WL${number12()}`,
      disposalOrderId: orderId,
      vehicleId: vehicle.rows[0]!.id,
      fromRegion: '320000,320500,320505',
      fromAddress: '苏州高新区浒墅关经济开发区青花路128号',
      toAddress: '江宁区滨江经济开发区丽水大街1186号',
      weight: 3,
      orderStatus: '1',
    });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    const page = await get(producer, '/api/logisticsOrder/byWarehouseId', { warehouseId, page: 0, size: 50 });
    expect(page.content.some((r: { id: number }) => r.id === add.body.id)).toBe(true);
    expect(page.content.every((r: { warehouseId: number }) => r.warehouseId === warehouseId)).toBe(true);
    // Everyone's orders of the warehouse for those who see all; the producer sees those naming it.
    const joined = await sql<{
      n: number;
      mine: number;
    }>`select count(*)::int as n, (count(*) filter (where o."producerId" = ${COMPANY.producer}
      or o."disposerId" = ${COMPANY.producer}))::int as mine from lc_view_20 l join lc_view_19 o on o.id = l."disposalOrderId"
      join lc_view_12 s on s.id = o."stockId" where s."warehouseId" = ${warehouseId}`.execute(db());
    expect(page.totalElements).toBe(joined.rows[0]!.mine);
    expect(page.content).toHaveLength(joined.rows[0]!.mine);
    const all = await get(admin, '/api/logisticsOrder/byWarehouseId', { warehouseId, page: 0, size: 50 });
    expect(all.totalElements).toBe(joined.rows[0]!.n);
    expect(all.content).toHaveLength(joined.rows[0]!.n);

    const detail = await get(producer, '/api/logisticsOrder/getTransportInfo', { id: add.body.id });
    expect(detail).toMatchObject({
      id: add.body.id,
      weight: 3,
      orderStatus: '1',
      orderStatusLabel: '执行中',
      disposalOrder: { id: orderId },
    });
    expect(detail.vehicle.id).toBe(vehicle.rows[0]!.id);
    const linkman = await get(producer, '/api/logisticsOrder/getLogisticsLinkman', { id: add.body.id });
    expect(linkman.shipper).toMatchObject({ companyId: COMPANY.producer, companyName: PRODUCER });
    expect(linkman.receiver).toMatchObject({ companyId: COMPANY.disposer, companyName: DISPOSER });
    // A company the order does not involve does not find it.
    expect((await collector.get('/api/logisticsOrder/getTransportInfo', { id: add.body.id })).status).toBe(404);
    expect((await admin.get('/api/logisticsOrder/getTransportInfo', { id: 999_999 })).status).toBe(404);
  });

  it('empties the capacity panel when the vehicle table is truncated', async () => {
    await sql`truncate lc_view_17`.execute(db());
    expect(await get(admin, '/api/companyTransportInfo', { isRefresh: 1 })).toMatchObject({ existingCount: 0, loadCapacity: 0 });
  });
});

describe('warehouses, their inventories and limits', () => {
  it('lists the company’s warehouses with what each holds', async () => {
    const r = await get(producer, '/api/companyWarehouse/warehouse', { isRefresh: 1 });
    const owned = await sql<{ id: number }>`select id from company_warehouse where company_id = ${COMPANY.producer} order by id`.execute(
      db(),
    );
    expect(r.content.map((w: { id: number }) => w.id)).toEqual(owned.rows.map((w) => w.id));
    for (const w of r.content) close(w.inventory, await heldOf(w.id));
  });

  it('flags a category over its limit, and deletes limits through DELETE /api/config/', async () => {
    const warehouseId = await ownWarehouse(producer);
    await addStockIn(producer, { warehouseId, wasteCategory: 'HW49', wasteCode: '900-041-49', wasteName: '废包装桶', quantity: 5 });
    const limit = await producer.post('/api/config', { warehouseId, wasteCategory: 'HW49', maxQuantity: 1 });
    expect(limit.status, JSON.stringify(limit.body)).toBe(200);
    const inv = await get(producer, '/api/companyWarehouse/Inventorys', { warehouseId, isRefresh: 1 });
    const line = inv.content.find((l: { category: string }) => l.category === 'HW49');
    expect(line).toMatchObject({ maxQuantity: 1, overLimit: true });
    close(inv.total, await heldOf(warehouseId));
    expect((await producer.post('/api/config', { warehouseId, maxQuantity: '1.0001' })).body).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      message: '数量最多保留3位小数',
    });
    expect((await disposer.post('/api/config', { warehouseId, maxQuantity: 1 })).status).toBe(403);

    const del = await producer.request('DELETE', '/api/config/', { json: [limit.body.id] });
    expect(del.status).toBe(200);
    const after = await get(producer, '/api/companyWarehouse/Inventorys', { warehouseId, isRefresh: 1 });
    expect(after.content.find((l: { category: string }) => l.category === 'HW49').overLimit).toBe(false);
    expect((await producer.get('/api/config')).body.content.some((c: { id: number }) => c.id === limit.body.id)).toBe(false);
  });
});
