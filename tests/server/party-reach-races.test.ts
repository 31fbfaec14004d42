import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY } from '../../server/seed/ids.js';
import { overlap } from '../helpers/races.js';
import { said } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { type Cell, sheetRows, uploadFile, workbook } from '../helpers/sheets.js';

/**
 * A waybill reaches the parties of its disposal order: its carrier's vehicles and freight are shown to
 * whoever the order names. So no waybill of a carrier may end on an order that names another carrier,
 * whichever comes first of the order's hand-over to another carrier and the carrier's write: an add, an
 * edit that moves a waybill to the order, or an import. Each race is run many times in both orders of
 * start, on both databases (on PostgreSQL the requests really overlap).
 */

let server: TestServer;
let disposer: ApiClient;
let carrier: ApiClient;
let carrier2 = 0;
type Row = Record<string, unknown>;
const db = () => server.ctx.db;
const rows = async (q: RawBuilder<Row>) => (await q.execute(db())).rows;

beforeAll(async () => {
  server = await startTestServer();
  [disposer, carrier] = await Promise.all([server.login('disposer'), server.login('logistics')]);
  ({ id: carrier2 } = await db()
    .insertInto('company')
    .values({ name: '竞态第二承运物流有限公司', type: '3', status: 1 })
    .returning('id')
    .executeTakeFirstOrThrow());
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** A new disposal order of the disposer's, carried by the seeded carrier; its id. */
async function newOrder(remark: string): Promise<number> {
  const o = await disposer.post('/api/general/add/19', {
    producerId: COMPANY.producer,
    disposerId: COMPANY.disposer,
    carrierId: COMPANY.logistics,
    wasteCategory: 'HW08',
    quantity: 1,
    price: 1,
    remark,
  });
  expect(o.status, said(o)).toBe(200);
  return o.body.id as number;
}

/** The disposer's hand-over of order `id` to the second carrier, ready to send (its form read before). */
async function handOver(id: number): Promise<() => ReturnType<ApiClient['post']>> {
  const form = await disposer.get('/api/general/formData', { generalId: 19, id });
  return () => disposer.post('/api/general/update/19', { ...(form.body.data as Row), id, carrierId: carrier2 });
}

let seq = 0;
/** A valid waybill body of the carrier's (copied from its first one) for order `orderId`. */
async function billBody(orderId: number): Promise<Row> {
  const [mine] = await rows(sql<Row>`select id from lc_view_20 where create_company = ${COMPANY.logistics} order by id limit 1`);
  const f = await carrier.get('/api/general/formData', { generalId: 20, id: Number(mine?.id) });
  const { id: _id, createTime: _c, ...rest } = f.body.data as Row;
  return { ...rest, disposalOrderId: orderId, waybillNo: `WL${String(595900000000 + ++seq)}` };
}

/** Orders carried by the second carrier that a waybill of the seeded carrier names. */
async function leaks(orderIds: number[]): Promise<Row[]> {
  return rows(sql<Row>`select o.id as order_id, w.id as waybill_id from lc_view_19 o join lc_view_20 w on w."disposalOrderId" = o.id
    where o.id in (${sql.join(orderIds)}) and o."carrierId" = ${carrier2} and w.create_company = ${COMPANY.logistics}`);
}

const ROUNDS = 20;

describe("a carrier's waybill and the order's hand-over to another carrier", () => {
  it('an edit that moves a waybill onto the order: one of the two is refused', async () => {
    const home = await newOrder('竞态 改单 原订单');
    const made = await carrier.post('/api/general/add/20', await billBody(home));
    expect(made.status, said(made)).toBe(200);
    const waybill = made.body.id as number;
    const orders: number[] = [];
    const outcomes = new Set<string>();
    for (let i = 0; i < ROUNDS; i++) {
      const target = await newOrder(`竞态 改单 ${i}`);
      orders.push(target);
      // Back home first: the hand-over of the last target is never refused by a waybill left on it.
      const form = await carrier.get('/api/general/formData', { generalId: 20, id: waybill });
      const body = form.body.data as Row;
      const back = await carrier.post('/api/general/update/20', { ...body, id: waybill, disposalOrderId: home });
      expect(back.status, said(back)).toBe(200);
      const send = await handOver(target);
      const [move, edit] = await overlap(i, [0, 1, 2, 3], send, () =>
        carrier.post('/api/general/update/20', { ...body, id: waybill, disposalOrderId: target }),
      );
      outcomes.add(`${move.status}/${edit.status}`);
      // Exactly one wins: the hand-over (the edit then picks an order the carrier is not offered), or the
      // edit (the hand-over then finds a waybill reaching the carrier).
      expect([move.status, edit.status].sort(), `${said(move)} ${said(edit)}`).toEqual([200, 400]);
    }
    expect(await leaks(orders), [...outcomes].join(' ')).toEqual([]);
  });

  it('an import of waybills for the order: refused rows, a conflict or a refused hand-over, never both written', async () => {
    const link = await carrier.get('/api/general/allList/19/queryLink', { queryParam: '' });
    expect(link.status).toBe(200);
    const exported = await carrier.get('/api/general/export/20/download', { startTime: '2000-01-01 00:00:00' });
    expect(exported.status).toBe(200);
    const [header = [], sample = []] = await sheetRows(exported.body as Buffer);
    const at = (label: string) => header.indexOf(label);
    expect(at('处置订单')).toBeGreaterThanOrEqual(0);
    const orders: number[] = [];
    const outcomes = new Set<string>();
    for (let i = 0; i < ROUNDS; i++) {
      const target = await newOrder(`竞态 导入 ${i}`);
      orders.push(target);
      const options = await carrier.get('/api/general/allList/19/queryLink', { queryParam: '' });
      const label = (options.body as { label: string; value: number }[]).find((o) => Number(o.value) === target)?.label;
      expect(label, `order ${target} among the carrier's options`).toBeTruthy();
      const row: Cell[] = header.map((h, k) =>
        h === '处置订单' ? (label as string) : h === '运单号' ? `WL${595800000000 + i}` : (sample[k] ?? null),
      );
      const file = await workbook([header, row]);
      const send = await handOver(target);
      const [move, imported] = await overlap(i, [0, 5, 10, 15, 20, 25, 30, 40, 50, 60], send, () =>
        uploadFile(carrier, 20, '运单.xlsx', file),
      );
      const written = imported.status === 200 && imported.headers.get('x-import-success') === '1';
      outcomes.add(`${move.status}/${imported.status}:${written ? 1 : 0}`);
      // Exactly one wins: the hand-over (the row is then refused, or the whole import is a conflict), or the
      // import (the hand-over then finds its waybill).
      expect([200, 409]).toContain(imported.status);
      expect(move.status === 200, `${said(move)} import ${imported.status} written ${written}`).toBe(!written);
    }
    expect(await leaks(orders), [...outcomes].join(' ')).toEqual([]);
  });
});
