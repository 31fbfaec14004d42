import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY } from '../../server/seed/ids.js';
import { inquiryBody } from '../helpers/inquiry.js';
import type { ApiClient, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';

/**
 * A disposal inquiry names the stock-in it is raised from (来源入库单), and the inventory tile 询价中
 * follows the chosen warehouse: the open inquiries (待报价, 已报价) raised from that warehouse's stock,
 * always equal to a sum over the records; another company's warehouse is refused.
 */

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;
let disposer: ApiClient;
let collector: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  [admin, producer, disposer, collector] = await Promise.all([
    server.login('admin'),
    server.login('producer'),
    server.login('disposer'),
    server.login('collector'),
  ]);
});
afterAll(() => server?.close());

const db = () => server.ctx.db;
const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(1e-6);

async function inventory(c: ApiClient, warehouseId?: number) {
  const r = await c.get('/api/inventoryInfo', { isRefresh: 1, ...(warehouseId === undefined ? {} : { warehouseId }) });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { inventoryTotal: number; inquiringNum: number; disposalNum: number; inNum: number; warehouseId: number | null };
}

/** An inquiry's status; one without counts as the form's default, awaiting a quote (0). */
const STATUS = sql`coalesce(nullif(trim(i."inquiryStatus"), ''), '0')`;

/** Tons of a company's open inquiries raised from stock of one warehouse, straight from the records. */
async function inquiringIn(companyId: number, warehouseId: number) {
  const r = await sql<{ q: number | null }>`select sum(i.quantity) as q from lc_view_15 i join lc_view_12 s on s.id = i."stockId"
    where s."warehouseId" = ${warehouseId} and ${STATUS} in ('0', '1')
      and (i.create_company = ${companyId} or i."companyId" = ${companyId})`.execute(db());
  return Number(r.rows[0]?.q ?? 0);
}

async function warehousesOf(companyId: number) {
  const r = await sql<{ id: number }>`select id from company_warehouse where company_id = ${companyId} order by id`.execute(db());
  return r.rows.map((w) => Number(w.id));
}

/** A stock-in of the company held in one of its warehouses (in stock), the warehouse it is in. */
async function stockOf(companyId: number, warehouseId?: number) {
  const r = await sql<{ id: number; warehouseId: number }>`select s.id, s."warehouseId" from lc_view_12 s
    join company_warehouse w on w.id = s."warehouseId"
    where w.company_id = ${companyId} and s.status = '1' and (${warehouseId ?? null}::bigint is null or s."warehouseId" = ${warehouseId ?? null})
    order by s.id limit 1`.execute(db());
  const row = r.rows[0];
  if (!row) throw new Error(`company ${companyId} holds no stock`);
  return { id: Number(row.id), warehouseId: Number(row.warehouseId) };
}

async function ask(c: ApiClient, fields: Record<string, unknown>) {
  const r = await c.post('/api/general/add/15', inquiryBody(fields));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.id as number;
}

describe('询价中 per warehouse', () => {
  it('equals the open inquiries raised from each warehouse’s stock, seeded ones included', async () => {
    const own = await warehousesOf(COMPANY.producer);
    expect(own.length).toBeGreaterThan(1);
    let seen = 0;
    for (const w of own) {
      const expected = await inquiringIn(COMPANY.producer, w);
      const figure = await inventory(producer, w);
      expect(figure.warehouseId).toBe(w);
      close(figure.inquiringNum, expected);
      seen += expected;
    }
    // The seed raises the company's inquiries from its stock, so some warehouse has waste in inquiry.
    expect(seen).toBeGreaterThan(0);
    // The whole company's figure also counts the inquiries it is asked and those raised from no stock.
    const all = await sql<{ q: number | null }>`select sum(i.quantity) as q from lc_view_15 i
      where ${STATUS} in ('0', '1') and (i.create_company = ${COMPANY.producer} or i."companyId" = ${COMPANY.producer})`.execute(db());
    close((await inventory(producer)).inquiringNum, Number(all.rows[0]?.q ?? 0));
  });

  it('follows an inquiry raised from a stock-in: into its warehouse while open, out when closed', async () => {
    const [w1, w2] = await warehousesOf(COMPANY.producer);
    const stock = await stockOf(COMPANY.producer, w1);
    const other = w2 as number;
    const [here0, there0, all0, disposerAll0] = await Promise.all([
      inventory(producer, stock.warehouseId),
      inventory(producer, other),
      inventory(producer),
      inventory(disposer),
    ]);
    const disposerOwn = await warehousesOf(COMPANY.disposer);
    const disposerHere0 = await inventory(disposer, disposerOwn[0]);

    const id = await ask(producer, { stockId: stock.id, quantity: '2.125' });
    const here1 = await inventory(producer, stock.warehouseId);
    close(here1.inquiringNum, here0.inquiringNum + 2.125);
    close(here1.inquiringNum, await inquiringIn(COMPANY.producer, stock.warehouseId));
    close((await inventory(producer, other)).inquiringNum, there0.inquiringNum);
    close((await inventory(producer)).inquiringNum, all0.inquiringNum + 2.125);
    // The asked disposer counts it among its company's inquiries, not in a warehouse of its own.
    close((await inventory(disposer)).inquiringNum, disposerAll0.inquiringNum + 2.125);
    close((await inventory(disposer, disposerOwn[0])).inquiringNum, disposerHere0.inquiringNum);
    // Those who see every company find it in the producer's warehouse too.
    close((await inventory(admin, stock.warehouseId)).inquiringNum, await inquiringIn(COMPANY.producer, stock.warehouseId));

    // Quoted (已报价) is still in inquiry; closed (已关闭) is not.
    expect(
      (await producer.post('/api/general/update/15', { id, inquiryStatus: '1', quotedPrice: 2000, quoteTime: '2026-11-20 10:00:00' }))
        .status,
    ).toBe(200);
    close((await inventory(producer, stock.warehouseId)).inquiringNum, here0.inquiringNum + 2.125);
    expect((await producer.post('/api/general/update/15', { id, inquiryStatus: '2' })).status).toBe(200);
    close((await inventory(producer, stock.warehouseId)).inquiringNum, here0.inquiringNum);

    // Moved to a stock-in of another warehouse, reopened (by an account of 全部: the asker only closes): it counts there.
    const moved = await stockOf(COMPANY.producer, other);
    expect((await admin.post('/api/general/update/15', { id, inquiryStatus: '0', stockId: moved.id })).status).toBe(200);
    close((await inventory(producer, other)).inquiringNum, there0.inquiringNum + 2.125);
    close((await inventory(producer, other)).inquiringNum, await inquiringIn(COMPANY.producer, other));
  });

  it('counts an inquiry written in plain SQL in its stock’s warehouse', async () => {
    const stock = await stockOf(COMPANY.producer);
    const before = await inventory(producer, stock.warehouseId);
    await sql`insert into lc_view_15 ("inquiryNo", "companyId", "stockId", quantity, "inquiryStatus", create_by, create_company)
      values ('XJ999999999999', ${COMPANY.disposer}, ${stock.id}, 4, null, 'producer', ${COMPANY.producer})`.execute(db());
    close((await inventory(producer, stock.warehouseId)).inquiringNum, before.inquiringNum + 4);
    close((await inventory(producer, stock.warehouseId)).inquiringNum, await inquiringIn(COMPANY.producer, stock.warehouseId));
    await sql`delete from lc_view_15 where "inquiryNo" = 'XJ999999999999'`.execute(db());
    close((await inventory(producer, stock.warehouseId)).inquiringNum, before.inquiringNum);
  });

  it('refuses another company’s warehouse and one that does not exist', async () => {
    const foreign = (await warehousesOf(COMPANY.disposer))[0];
    expect((await producer.get('/api/inventoryInfo', { warehouseId: foreign, isRefresh: 1 })).status).toBe(404);
    expect(
      (await disposer.get('/api/inventoryInfo', { warehouseId: (await warehousesOf(COMPANY.producer))[0], isRefresh: 1 })).status,
    ).toBe(404);
    expect((await producer.get('/api/inventoryInfo', { warehouseId: 999_999, isRefresh: 1 })).status).toBe(404);
  });
});

describe('发起询价 on a stock-in row', () => {
  const inquire = (c: ApiClient, id: number) => c.post('/api/general/groovy/12', { groovyQueryParam: { name: 'inquire' }, ids: [id] });

  it('opens the inquiries of the row, whose add form names it as 来源入库单', async () => {
    const stock = await stockOf(COMPANY.producer);
    const r = await inquire(producer, stock.id);
    expect(r.body).toEqual({ status: 200, message: '操作成功', location: `/dev-tools/temp/page/disposalInquiry/15?stockId=${stock.id}` });
    // The page the location opens lists the inquiries of that stock-in, each labelled with its stock number.
    const id = await ask(producer, { stockId: stock.id });
    const list = await producer.get('/api/general/list/15', { stockId: stock.id, size: 100 });
    expect(list.status).toBe(200);
    const rows = list.body.content as { id: number; stockId: number; stockIdFmt: string }[];
    expect(rows.some((row) => row.id === id)).toBe(true);
    expect(rows.every((row) => row.stockId === stock.id)).toBe(true);
    const no = await sql<{ stockNo: string }>`select "stockNo" from lc_view_12 where id = ${stock.id}`.execute(db());
    expect(rows.find((row) => row.id === id)?.stockIdFmt).toBe(no.rows[0]?.stockNo);
  });

  it('refuses another company’s stock-in as missing, and a user who may not add inquiries', async () => {
    const foreign = await stockOf(COMPANY.disposer);
    expect((await inquire(producer, foreign.id)).status).toBe(404);
    // The collection point keeps stock but raises no disposal inquiries.
    const own = await stockOf(COMPANY.collector);
    expect((await inquire(collector, own.id)).status).toBe(403);
  });
});
