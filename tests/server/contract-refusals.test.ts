import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../server/errors.js';
import { COMPANY } from '../../server/seed/ids.js';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, type ApiResponse, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Refusals of the order, inventory, logistics and supervision calls, sent by ordinary demo accounts:
 * who may write, what the manual disposal order may not take from the client, and refusals in
 * Chinese whatever the body's shape.
 */

let server: TestServer;
let producer: ApiClient;
let disposer: ApiClient;
let logistics: ApiClient;
let supervisor: ApiClient;
let guest: ApiClient;

const answer = (res: ApiResponse) => ({ status: res.status, code: res.body?.code, message: res.body?.message });
const refused = (res: ApiResponse, status: number, code: ErrorCode) =>
  expect(answer(res), JSON.stringify(res.body)).toEqual(refusal(status, code));
/** A refusal in Chinese: no zod/DB English (`Invalid input`, `expected …`, `Too big`); a field's own name may stand. */
const chineseRefusal = (res: ApiResponse) => {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  const text = String(res.body.message).replace(/(查询参数|请求体|路径参数|请求头) [\w.]+/, '$1');
  expect(text, JSON.stringify(res.body)).not.toMatch(/[A-Za-z]{4,}/);
};

/** A complete manual disposal order form, party A the producer (company 1). */
const manual = {
  types: '1',
  partyACompany: '1',
  wasteCategoryCode: '900-041-49',
  wasteCategoryName: '废活性炭',
  unit: '吨',
  quantity: 1,
  price: 1,
};
const MANUAL = '/api/disposalOrder/insertManualDisposalOrder';

beforeAll(async () => {
  server = await startTestServer();
  producer = await server.login('producer');
  disposer = await server.login('disposer');
  logistics = await server.login('logistics');
  supervisor = await server.login('supervisor');
  guest = await server.login('guest');
}, 120_000);
afterAll(() => server?.close());

describe('refused: who may write', () => {
  it('an account of no company and no role cannot file a testing application (and message a disposer)', async () => {
    const res = await guest.post('/api/dispoaslTestingApplication/apply', {
      disposerCompanyId: 2,
      wasteCategoryCode: '900-041-49',
      wasteName: '废活性炭',
      linkman: '张三',
      phone: '13800000000',
    });
    refused(res, 403, 'NO_COMPANY');
  });
});

describe('refused: the manual disposal order takes what the client says', () => {
  it('party A region and its label are not the client’s to invent', async () => {
    const res = await disposer.post(MANUAL, { ...manual, partyARegion: '999999', partyARegionFmt: '<b>伪造地区</b>' });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
  });

  it('a disposal process that does not exist is refused', async () => {
    const res = await disposer.post(MANUAL, { ...manual, processId: 99999 });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
  });

  it('the disposer cannot name itself as the producing party', async () => {
    const res = await disposer.post(MANUAL, { ...manual, partyACompany: '2' });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
  });

  it('an unloading point id out of range is refused, not silently replaced by the caller’s company', async () => {
    const res = await disposer.post(MANUAL, { ...manual, partyBWarehouseId: 2 ** 40 });
    expect([400, 404], JSON.stringify(res.body)).toContain(res.status);
  });
});

describe('refused: inventory limits', () => {
  it('a waste category that is no category is refused', async () => {
    const res = await producer.post('/api/config', { wasteCategory: 'zzz<script>', maxQuantity: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
  });
});

describe('refused: refusals in English', () => {
  it('quote with an array body', async () =>
    chineseRefusal(await disposer.post('/api/disposalQuotePirce/quotedPrice', [{ id: 9, quotedPrice: 1 }])));
  it('testing application with quantity 1e999', async () =>
    chineseRefusal(
      await producer.post('/api/dispoaslTestingApplication/apply', {
        disposerCompanyId: 2,
        wasteCategoryCode: '900-041-49',
        wasteName: 'x',
        linkman: 'a',
        phone: '13800000000',
        quantity: '1e999',
      }),
    ));
  it('testing application with an array body', async () =>
    chineseRefusal(await producer.post('/api/dispoaslTestingApplication/apply', [1])));
  it('inventory limit with an array body', async () => chineseRefusal(await producer.post('/api/config', [1])));
  it('inventory limit with an object as quantity', async () =>
    chineseRefusal(await producer.post('/api/config', { maxQuantity: { a: 1 } })));
  it('inventory limit with a 41-character category', async () =>
    chineseRefusal(await producer.post('/api/config', { maxQuantity: 1, wasteCategory: 'x'.repeat(41) })));
  it('supervisory target with an array body', async () => chineseRefusal(await supervisor.put('/api/companyApi/homePage/target', [1])));
  it('supervised companies with micro=x', async () =>
    chineseRefusal(await supervisor.get('/api/companyApi/homePage/companies', { micro: 'x' })));
  it('transport info with id=abc', async () => chineseRefusal(await producer.get('/api/logisticsOrder/getTransportInfo', { id: 'abc' })));
  it('company application with an array body', async () => chineseRefusal(await server.api.post('/api/companyApplication/insert', [1])));
  it('QR batch with createNum given twice', async () =>
    chineseRefusal(await producer.get('/api/materialsCode/saveBatch', { createNum: [1, 2] })));
});

describe('refused: across companies and roles', () => {
  it('supervisory figures and targets are for supervisors only', async () => {
    refused(await producer.get('/api/companyApi/homePage/dataSummary'), 403, 'SUPERVISORS_ONLY');
    refused(await logistics.put('/api/companyApi/homePage/target', { name: 'material', year: 2026, value: 1 }), 403, 'SUPERVISORS_ONLY');
    refused(await producer.get('/api/companyApi/homePage/companies'), 403, 'SUPERVISORS_ONLY');
  });

  it('applications are reviewed by the platform only', async () => {
    refused(await producer.get('/api/companyApplication'), 403, 'NO_PERMISSION');
    refused(await supervisor.post('/api/companyApplication/approve', { id: 1, roles: [{ id: 3 }] }), 403, 'NO_PERMISSION');
    refused(await disposer.post('/api/companyApplication/reject', { id: 1, reason: 'x' }), 403, 'NO_PERMISSION');
  });

  it('quotes: the asker cannot quote its own inquiry; another disposer’s inquiry is missing', async () => {
    // The seeded inquiries by their parties: one the producer asked, and one asked of another disposer by another company.
    const inquiries = await sql<{ id: number; asker: number; asked: number }>`
      select id, create_company as asker, "companyId" as asked from lc_view_15 order by id`.execute(server.ctx.db);
    const asked = inquiries.rows.find((r) => Number(r.asker) === COMPANY.producer);
    const elsewhere = inquiries.rows.find((r) => ![r.asker, r.asked].map(Number).includes(COMPANY.disposer));
    expect(asked && elsewhere).toBeTruthy();
    refused(await producer.post('/api/disposalQuotePirce/quotedPrice', { id: asked?.id, quotedPrice: 1 }), 403, 'INQUIRY_OF_OTHERS');
    refused(await disposer.post('/api/disposalQuotePirce/quotedPrice', { id: elsewhere?.id, quotedPrice: 1 }), 404, 'INQUIRY_NOT_FOUND');
  });

  it('another company’s warehouse is missing to inventory, limits and manual orders', async () => {
    refused(await producer.post('/api/companyInventory', { warehouseId: 2, wasteCategory: 'HW08' }), 404, 'WAREHOUSE_NOT_FOUND');
    refused(await producer.post('/api/config', { warehouseId: 2, maxQuantity: 1 }), 404, 'WAREHOUSE_NOT_FOUND');
    refused(await disposer.post(MANUAL, { ...manual, partyBWarehouseId: 6 }), 404, 'WAREHOUSE_NOT_FOUND');
  });

  it('another company’s stock-in record is missing to the inventory edit', async () => {
    const { rows } = await sql<{ id: number }>`select id from lc_view_12 where create_company = 2 limit 1`.execute(server.ctx.db);
    refused(await producer.post('/api/companyInventory/update', { id: rows[0]!.id, quantity: 1 }), 404, 'INVENTORY_NOT_FOUND');
  });

  it('a limit of the caller’s company stays its own whatever companyId says', async () => {
    const res = await producer.post('/api/config', { companyId: 2, maxQuantity: 1 });
    expect(res.status).toBe(200);
    const row = await server.ctx.db
      .selectFrom('inventory_config')
      .select('company_id')
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(row.company_id).toBe(1);
  });

  it('logistics details of an order outside the scope are missing; the manual order needs its permission', async () => {
    refused(await logistics.get('/api/logisticsOrder/getLogisticsLinkman', { id: 1 }), 404, 'LOGISTICS_ORDER_NOT_FOUND');
    refused(await logistics.get('/api/logisticsOrder/getTransportInfo', { id: 1 }), 404, 'LOGISTICS_ORDER_NOT_FOUND');
    refused(await producer.post(MANUAL, manual), 403, 'NO_PERMISSION');
  });

  it('filling-system tokens only for the caller’s own company; QR labels need their permission; no anonymous reads', async () => {
    const other = await producer.get('/api/guFeiUrl/getTokenByCompayCode', { CompanyCode: 'bci3201150002' });
    expect(other.body).toMatchObject({ code: 'A0404', data: null });
    refused(await guest.get('/api/materialsCode/saveBatch', { createNum: 1 }), 403, 'NO_PERMISSION');
    refused(await server.api.get('/api/config'), 401, 'NOT_SIGNED_IN');
    refused(await server.api.get('/api/disposalOrder/addBtnShow'), 401, 'NOT_SIGNED_IN');
  });
});
