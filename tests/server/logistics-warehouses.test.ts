import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY } from '../../server/seed/ids.js';
import type { ApiClient, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';

/** The logistics home's warehouse picker: the warehouses the carrier's own orders load from. */

let server: TestServer;
let logistics: ApiClient;
let admin: ApiClient;
let guest: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  [logistics, admin, guest] = await Promise.all([server.login('logistics'), server.login('admin'), server.login('guest')]);
});
afterAll(() => server?.close());

const warehousesOf = async (where: ReturnType<typeof sql>) =>
  (
    await sql<{ id: number }>`select distinct s."warehouseId"::int as id from lc_view_20 l join lc_view_19 o on o.id = l."disposalOrderId"
      join lc_view_12 s on s.id = o."stockId" where s."warehouseId" is not null and ${where} order by 1`.execute(server.ctx.db)
  ).rows.map((r) => r.id);

describe('GET /api/logisticsOrder/warehouses', () => {
  it('lists for a carrier, who owns no warehouse, the warehouses its orders load from', async () => {
    const own = await logistics.get('/api/companyWarehouse/list');
    expect(own.body.content).toEqual([]);
    const r = await logistics.get('/api/logisticsOrder/warehouses');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const expected = await warehousesOf(sql`l.create_by in (select username from sys_user where company_id = ${COMPANY.logistics})`);
    expect(expected.length).toBeGreaterThan(0);
    expect(r.body.content.map((w: { id: number }) => w.id)).toEqual(expected);
    expect(r.body.totalElements).toBe(expected.length);
    for (const w of r.body.content) expect(typeof w.name).toBe('string');
    // Each listed warehouse has orders in the orders-per-warehouse list.
    const first = r.body.content[0].id;
    const page = await logistics.get('/api/logisticsOrder/byWarehouseId', { warehouseId: first, page: 0, size: 10 });
    expect(page.body.totalElements).toBeGreaterThan(0);
  });

  it('lists every order’s warehouse to those who see all', async () => {
    const r = await admin.get('/api/logisticsOrder/warehouses');
    expect(r.body.content.map((w: { id: number }) => w.id)).toEqual(await warehousesOf(sql`true`));
  });

  it('refuses a user without the logistics-order list right', async () => {
    const r = await guest.get('/api/logisticsOrder/warehouses');
    expect(r.status).toBe(403);
  });
});
