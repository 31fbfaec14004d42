import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY } from '../../server/seed/ids.js';
import { formatDate } from '../../src/shared/format.js';
import { refusal } from '../helpers/refusal.js';
import type { ApiClient, ApiResponse, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';

/**
 * The core calls that read or write business records outside /api/general follow the same data scope:
 * a record outside the caller's scope answers 404, as a missing one does, so ids cannot be probed;
 * the same call on a record of the caller's own answers 200.
 */

const PRODUCER = '苏州华瑞精细化工有限公司';

let server: TestServer;
let admin: ApiClient;
let supervisor: ApiClient;
let producer: ApiClient;
let disposer: ApiClient;
let logistics: ApiClient;
let collector: ApiClient;
let seq = 0;

beforeAll(async () => {
  server = await startTestServer();
  [admin, supervisor, producer, disposer, logistics, collector] = await Promise.all([
    server.login('admin'),
    server.login('supervisor'),
    server.login('producer'),
    server.login('disposer'),
    server.login('logistics'),
    server.login('collector'),
  ]);
});
afterAll(() => server?.close());

const db = () => server.ctx.db;
const number12 = () => String(Date.now() % 1e8).padStart(8, '0') + String(++seq).padStart(4, '0');
const answer = (r: ApiResponse) =>
  r.status === 200 ? { status: 200 } : { status: r.status, code: r.body?.code, message: r.body?.message };

async function ok(r: Promise<ApiResponse>) {
  const res = await r;
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function addOrder(c: ApiClient, fields: Record<string, unknown> = {}): Promise<number> {
  const body = await ok(
    c.post('/api/general/add/19', {
      orderNo: `CZ${number12()}`,
      producerId: COMPANY.producer,
      disposerId: COMPANY.disposer,
      carrierId: COMPANY.logistics,
      wasteCategory: 'HW08',
      quantity: 3,
      price: 2000,
      orderStatus: '0',
      needPrepay: '2',
      ...fields,
    }),
  );
  return body.id;
}

async function addLogistics(c: ApiClient, disposalOrderId: number): Promise<number> {
  // A vehicle the writer's own picker offers: the seeded records are laid out relative to today, so their
  // ids do not tell whose they are.
  const offered = (await c.get('/api/general/allList/17/queryLink')).body as { value: number }[];
  expect(offered.length).toBeGreaterThan(0);
  const body = await ok(
    c.post('/api/general/add/20', {
      waybillNo: `WL${number12()}`,
      disposalOrderId,
      vehicleId: offered[0]!.value,
      fromRegion: '320000,320500,320505',
      fromAddress: '苏州高新区浒墅关经济开发区青花路128号',
      toAddress: '江宁区滨江经济开发区丽水大街1186号',
      weight: 3,
      orderStatus: '1',
    }),
  );
  return body.id;
}

const detailCalls = ['/api/logisticsOrder/getTransportInfo', '/api/logisticsOrder/getLogisticsLinkman'];

describe('logistics detail', () => {
  it('opens the orders of the caller’s scope and answers any other as missing', async () => {
    // The carrier's order for a disposal order between the demo producer and disposer, naming it as carrier.
    const ours = await addLogistics(logistics, await addOrder(disposer));
    // An order between two other companies, carried by nobody the demo accounts belong to.
    const theirs = await addLogistics(
      admin,
      await addOrder(admin, { producerId: COMPANY.producer2, disposerId: COMPANY.disposer2, carrierId: null }),
    );
    for (const path of detailCalls) {
      for (const c of [logistics, producer, disposer, admin, supervisor]) expect(answer(await c.get(path, { id: ours })).status).toBe(200);
      expect(answer(await collector.get(path, { id: ours }))).toEqual(refusal(404, 'LOGISTICS_ORDER_NOT_FOUND'));
      for (const c of [logistics, producer, disposer]) {
        expect(answer(await c.get(path, { id: theirs }))).toEqual(refusal(404, 'LOGISTICS_ORDER_NOT_FOUND'));
      }
      expect(answer(await admin.get(path, { id: theirs })).status).toBe(200);
    }
  });

  it('opens every order the caller’s list shows, and lists per warehouse only those', async () => {
    await addLogistics(logistics, await addOrder(disposer));
    const accounts = { logistics, producer, disposer, collector };
    for (const [name, c] of Object.entries(accounts)) {
      const list = await ok(c.get('/api/general/list/20', { page: 0, size: 1000 }));
      const ids = (list.content as { id: number }[]).map((r) => r.id);
      for (const id of ids) expect((await c.get('/api/logisticsOrder/getTransportInfo', { id })).status, `${name} order ${id}`).toBe(200);
      const byWarehouse = await ok(c.get('/api/logisticsOrder/byWarehouseId', { page: 0, size: 1000 }));
      const shown = (byWarehouse.content as { id: number }[]).map((r) => r.id);
      expect(
        shown.every((id) => ids.includes(id)),
        name,
      ).toBe(true);
      expect(byWarehouse.totalElements, name).toBe(shown.length);
    }
  });
});

describe('the dashboards', () => {
  /** How many records of the caller's list of a view have each status. */
  const statuses = async (c: ApiClient, viewId: number, field: string) => {
    const list = await ok(c.get(`/api/general/list/${viewId}`, { page: 0, size: 1000 }));
    expect(list.content).toHaveLength(list.totalElements);
    const count = (...of: string[]) => (list.content as Record<string, unknown>[]).filter((r) => of.includes(String(r[field]))).length;
    return { total: list.totalElements as number, count };
  };

  it('count what the caller’s lists show', async () => {
    for (const [name, c] of Object.entries({ supervisor, producer, disposer, logistics, collector })) {
      const home = await ok(c.get('/api/logisticsOrder/dashboard', { isRefresh: 1 }));
      const carried = await statuses(c, 20, 'orderStatus');
      expect([home.total, home.pending, home.finished], name).toEqual([carried.total, carried.count('0'), carried.count('2')]);
      const tiles = await ok(c.get('/api/produceOrderDashboard', { isRefresh: 1 }));
      expect(tiles.ongoingLogisticsOrder, name).toBe(carried.count('0', '1'));
      for (const [viewId, field, tile] of [
        [19, 'orderStatus', 'ongoingDisposalOrder'],
        [15, 'inquiryStatus', 'ongoingDisposalInquiry'],
      ] as const) {
        const r = await c.get(`/api/general/list/${viewId}`, { page: 0, size: 1 });
        // Without the view's list the tile still counts the company's records; with it, the same ones.
        if (r.status !== 200) continue;
        expect(tiles[tile], `${name} ${tile}`).toBe((await statuses(c, viewId, field)).count('0', '1'));
      }
    }
  });
});

describe('company inventory', () => {
  it('updates a stock-in of the caller’s scope and answers another company’s as missing', async () => {
    const collectorWarehouse = (await ok(collector.get('/api/companyWarehouse/list'))).content[0].id;
    const stock = { wasteCategory: 'HW49', wasteCode: '900-041-49', wasteName: '废包装桶', quantity: 2, packageType: '1' };
    const created = await ok(collector.post('/api/companyInventory', { ...stock, warehouseId: collectorWarehouse }));

    const refused = await producer.post('/api/companyInventory/update', { id: created.id, quantity: 5 });
    expect(answer(refused)).toEqual(refusal(404, 'INVENTORY_NOT_FOUND'));
    expect((await producer.post('/api/companyInventory/update', { id: 999_999_999, quantity: 5 })).status).toBe(404);
    const row = await sql<{ quantity: string }>`select quantity from lc_view_12 where id = ${created.id}`.execute(db());
    expect(Number(row.rows[0]!.quantity)).toBe(2);

    await ok(collector.post('/api/companyInventory/update', { id: created.id, quantity: 5 }));
    await ok(admin.post('/api/companyInventory/update', { id: created.id, quantity: 6 }));
    expect((await ok(collector.get('/api/general/detail', { generalId: 12, id: created.id }))).quantity).toBe(6);
    // A value the form refuses is answered with every problem, as /api/general answers it.
    const invalid = await collector.post('/api/companyInventory/update', { id: created.id, quantity: 'many' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: invalid.body.errors[0].message,
      errors: [{ field: 'quantity', message: expect.any(String) }],
    });

    // Another company's warehouse is missing too, for a new record as for the dashboards' figures.
    const wrongPlace = await producer.post('/api/companyInventory', { ...stock, warehouseId: collectorWarehouse });
    expect(answer(wrongPlace)).toEqual(refusal(404, 'WAREHOUSE_NOT_FOUND'));
    expect(answer(await producer.get('/api/inventoryInfo', { warehouseId: collectorWarehouse }))).toEqual(
      refusal(404, 'WAREHOUSE_NOT_FOUND'),
    );
    expect((await producer.get('/api/inventoryRatio', { warehouseId: collectorWarehouse })).status).toBe(404);
    expect((await producer.get('/api/companyWarehouse/Inventorys', { warehouseId: collectorWarehouse })).status).toBe(404);
    expect((await producer.post('/api/config', { warehouseId: collectorWarehouse, maxQuantity: 1 })).status).toBe(404);
    expect((await collector.get('/api/inventoryInfo', { warehouseId: collectorWarehouse })).status).toBe(200);
  });
});

describe('quotes', () => {
  const inquiry = async (companyId: number) =>
    (
      await ok(
        producer.post('/api/general/add/15', { companyId, wasteCategory: 'HW08', quantity: 4, inquiryStatus: '0', needTransport: '2' }),
      )
    ).id as number;

  it('lets the asked disposer quote, and answers an inquiry addressed to another disposer as missing', async () => {
    const elsewhere = await inquiry(COMPANY.disposer2);
    const refused = await disposer.post('/api/disposalQuotePirce/quotedPrice', { id: elsewhere, quotedPrice: 2000 });
    expect(answer(refused)).toEqual(refusal(404, 'INQUIRY_NOT_FOUND'));
    const row = await sql<{ s: string }>`select "inquiryStatus" as s from lc_view_15 where id = ${elsewhere}`.execute(db());
    expect(row.rows[0]!.s).toBe('0');

    const mine = await inquiry(COMPANY.disposer);
    await ok(disposer.post('/api/disposalQuotePirce/quotedPrice', { id: mine, quotedPrice: 2000 }));
    expect(await ok(disposer.get('/api/general/detail', { generalId: 15, id: mine }))).toMatchObject({
      inquiryStatus: '1',
      quotedPrice: 2000,
    });
    // The asker sees its inquiry but does not quote on it.
    expect(answer(await producer.post('/api/disposalQuotePirce/quotedPrice', { id: mine, quotedPrice: 1 }))).toEqual(
      refusal(403, 'INQUIRY_OF_OTHERS'),
    );
  });
});

describe('manual disposal orders', () => {
  const form = async (fields: Record<string, unknown>) => ({
    types: '1',
    needPrepay: 0,
    partyACompany: String(COMPANY.producer),
    partyACompanyName: PRODUCER,
    partyBWarehouseId: (await ok(disposer.get('/api/companyWarehouse/unloadingPoint'))).data[0].id,
    wasteCategoryCode: '900-249-08',
    wasteCategoryName: '废矿物油',
    quantity: '2',
    unit: '吨',
    price: '2000',
    estDisposalTime: formatDate(Date.now() + 7 * 86_400_000, 'YYYY-MM-DD'),
    ...fields,
  });
  const contract = async (where: 'mine' | 'theirs') => {
    const own = COMPANY.disposer;
    const q = db().selectFrom('company_contract').select(['id', 'party_a_company', 'contract_no']).orderBy('id');
    return where === 'mine'
      ? q.where('party_b_company', '=', own).executeTakeFirstOrThrow()
      : q.where('party_a_company', '<>', own).where('party_b_company', '<>', own).executeTakeFirstOrThrow();
  };

  it('takes the caller’s own unloading point and contracts, and answers another company’s as missing', async () => {
    const foreign = await db()
      .selectFrom('company_warehouse')
      .select('id')
      .where('company_id', '=', COMPANY.disposer2)
      .executeTakeFirstOrThrow();
    const wrongPlace = await disposer.post('/api/disposalOrder/insertManualDisposalOrder', await form({ partyBWarehouseId: foreign.id }));
    expect(answer(wrongPlace)).toEqual(refusal(404, 'WAREHOUSE_NOT_FOUND'));

    const theirs = await contract('theirs');
    const wrongContract = await disposer.post(
      '/api/disposalOrder/insertManualDisposalOrder',
      await form({ partyACompany: String(theirs.party_a_company), contractId: theirs.id }),
    );
    expect(answer(wrongContract)).toEqual(refusal(404, 'CONTRACT_NOT_FOUND'));

    const mine = await contract('mine');
    const made = await ok(
      disposer.post(
        '/api/disposalOrder/insertManualDisposalOrder',
        await form({ partyACompany: String(mine.party_a_company), contractId: mine.id }),
      ),
    );
    expect(await ok(disposer.get('/api/general/detail', { generalId: 19, id: made.id }))).toMatchObject({ contractNo: mine.contract_no });
  });
});

describe('the supervisory menus (服务监管, 合同监管, 转运监管)', () => {
  const SUPERVISION = ['contractManage', 'microServe', 'inventoryReview'];
  const routesOf = async (c: ApiClient) => {
    const names: { name: string; path: string }[] = [];
    const walk = (nodes: { name: string; path: string; children?: unknown[] }[]) => {
      for (const n of nodes) {
        names.push({ name: n.name, path: n.path });
        walk((n.children ?? []) as typeof nodes);
      }
    };
    walk(await ok(c.get('/api/menus/build')));
    return names;
  };

  it('show the supervisory department every record, read only', async () => {
    const menus = (await routesOf(supervisor)).filter((m) => SUPERVISION.includes(m.name));
    expect(menus.map((m) => m.name).sort()).toEqual([...SUPERVISION].sort());
    for (const m of menus) {
      const viewId = Number(/\/(\d+)$/.exec(m.path)![1]);
      const list = await ok(supervisor.get(`/api/general/list/${viewId}`, { page: 0, size: 1 }));
      const all = await sql<{ n: string }>`select count(*) as n from ${sql.table(`lc_view_${viewId}`)}`.execute(db());
      expect(list.totalElements, m.name).toBe(Number(all.rows[0]!.n));
      expect((await supervisor.post(`/api/general/add/${viewId}`, {})).status, m.name).toBe(403);
    }
  });

  it('are no company account’s', async () => {
    for (const c of [producer, disposer, logistics, collector]) {
      expect((await routesOf(c)).filter((m) => SUPERVISION.includes(m.name))).toEqual([]);
    }
  });
});
