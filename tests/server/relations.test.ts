import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { designedView } from '../../server/lowcode/view-store.js';
import { COMPANY, VIEWS } from '../../server/seed/ids.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Relation buttons open the record their row links by id (linkField): the order's contract, the
 * contract's warehouse, the waybill's disposal order. What they open is read like any record: the
 * list call filtered by `id`, or the record's form data, within the caller's scope. An id of a record
 * the caller may not see answers nothing (the list) or 404 (the record), never the record.
 */

let server: TestServer;
let supervisor: ApiClient;
let producer: ApiClient;
let disposer: ApiClient;
let logistics: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  [supervisor, producer, disposer, logistics] = await Promise.all([
    server.login('supervisor'),
    server.login('producer'),
    server.login('disposer'),
    server.login('logistics'),
  ]);
});
afterAll(() => server?.close());

const db = () => server.ctx.db;

/** The list of view `viewId` narrowed to record `id`, as a relation opens it. */
async function opened(who: ApiClient, viewId: number, id: number) {
  const res = await who.get(`/api/general/list/${viewId}`, { id });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { content: Record<string, unknown>[]; totalElements: number };
}

async function rows<T>(query: ReturnType<typeof sql<T>>): Promise<T[]> {
  return (await query.execute(db())).rows;
}

describe('the seeded relation buttons', () => {
  it('each names a field of its view that picks a record of the view it opens', async () => {
    const found: string[] = [];
    for (const { id } of VIEWS) {
      const view = await designedView(server.ctx, id);
      for (const b of view.buttons.filter((x) => x.linkField)) {
        const field = view.byName.get(b.linkField as string);
        expect(field, `${view.title} › ${b.label}`).toBeDefined();
        expect(field?.dataType).toBe('long');
        found.push(`${view.title} › ${b.label} › ${b.linkField}`);
      }
    }
    expect(found.sort()).toEqual(
      ['合同管理 › 查看仓库 › warehouseId', '处置订单 › 相关合同 › contractId', '物流订单 › 处置订单 › disposalOrderId'].sort(),
    );
  });

  it('link every disposal order to the contract it names, and every contract to a warehouse of its party A', async () => {
    const orders = await rows(sql<{ no: string; contract: string | null }>`
      select o."contractNo" as no, c."contractNo" as contract from lc_view_19 o left join lc_view_16 c on c.id = o."contractId"`);
    expect(orders.length).toBeGreaterThan(10);
    for (const o of orders) expect(o.contract).toBe(o.no);
    const contracts = await rows(sql<{ no: string; a: number; owner: number | null }>`
      select c."contractNo" as no, c."partyAId" as a, w.company_id as owner
      from lc_view_16 c left join company_warehouse w on w.id = c."warehouseId"`);
    for (const c of contracts) expect(Number(c.owner), c.no).toBe(Number(c.a));
  });
});

describe('相关合同: the order’s own contract', () => {
  it('opens HT2026-0106 for the producer’s order under it, and only that contract', async () => {
    const [order] = await rows(sql<{ contractId: number }>`
      select "contractId" from lc_view_19 where "contractNo" = 'HT2026-0106' and "producerId" = ${COMPANY.producer} order by id limit 1`);
    expect(order).toBeDefined();
    const list = await opened(producer, 16, Number(order?.contractId));
    expect(list.totalElements).toBe(1);
    expect(list.content.map((r) => r.contractNo)).toEqual(['HT2026-0106']);
    const record = await producer.get('/api/general/formData', { generalId: 16, id: order?.contractId });
    expect(record.status).toBe(200);
    expect(record.body.data.contractNo).toBe('HT2026-0106');
  });

  it('opens the contract of the disposer’s orders for the disposer, who is party B to it', async () => {
    const mine = await rows(sql<{ contractId: number; contractNo: string }>`
      select "contractId", "contractNo" from lc_view_19 where "disposerId" = ${COMPANY.disposer} order by id`);
    expect(mine.length).toBeGreaterThan(0);
    for (const o of mine.slice(0, 5)) {
      const list = await opened(disposer, 16, o.contractId);
      expect(list.content.map((r) => r.contractNo)).toEqual([o.contractNo]);
    }
  });

  it('answers nothing of a contract the caller is no party to: the list is empty, the record 404', async () => {
    const [foreign] = await rows(sql<{ id: number }>`
      select id from lc_view_16 where "partyAId" <> ${COMPANY.producer} and "partyBId" <> ${COMPANY.producer}
        and create_company is distinct from ${COMPANY.producer} order by id limit 1`);
    expect(foreign).toBeDefined();
    const list = await opened(producer, 16, Number(foreign?.id));
    expect(list).toMatchObject({ content: [], totalElements: 0 });
    expect((await producer.get('/api/general/formData', { generalId: 16, id: foreign?.id })).status).toBe(404);
    expect((await producer.get('/api/general/detail', { generalId: 16, id: foreign?.id })).status).toBe(404);
    // With an id of its own beside it, only its own comes back.
    const [own] = await rows(sql<{ id: number }>`select id from lc_view_16 where "partyAId" = ${COMPANY.producer} order by id limit 1`);
    const both = await producer.get('/api/general/list/16', { id: `${own?.id},${foreign?.id}` });
    expect(both.body.content.map((r: { id: number }) => r.id)).toEqual([own?.id]);
  });
});

describe('查看仓库: the contract’s warehouse', () => {
  it('opens the one warehouse the contract names, for the supervisor too (not every company’s)', async () => {
    const [c] = await rows(sql<{ warehouseId: number; name: string }>`
      select c."warehouseId", w.name from lc_view_16 c join lc_view_14 w on w.id = c."warehouseId"
      where c."contractNo" = 'HT2026-0106'`);
    expect(c).toBeDefined();
    for (const who of [producer, supervisor]) {
      const list = await opened(who, 14, Number(c?.warehouseId));
      expect(list.totalElements).toBe(1);
      expect(list.content.map((r) => r.name)).toEqual([c?.name]);
    }
  });

  it('answers nothing of another company’s warehouse', async () => {
    const [foreign] = await rows(
      sql<{ id: number }>`select id from company_warehouse where company_id = ${COMPANY.disposer} order by id limit 1`,
    );
    expect(await opened(producer, 14, Number(foreign?.id))).toMatchObject({ content: [], totalElements: 0 });
    expect((await producer.get('/api/general/formData', { generalId: 14, id: foreign?.id })).status).toBe(404);
  });
});

describe('处置订单: the waybill’s disposal order', () => {
  it('opens the order of the carrier’s waybill, and nothing of an order it does not carry', async () => {
    const carried = await rows(sql<{ orderId: number; orderNo: string }>`
      select l."disposalOrderId" as "orderId", o."orderNo" from lc_view_20 l join lc_view_19 o on o.id = l."disposalOrderId"
      where l.create_company = ${COMPANY.logistics} order by l.id limit 3`);
    expect(carried.length).toBeGreaterThan(0);
    for (const w of carried) {
      const list = await opened(logistics, 19, w.orderId);
      expect(list.content.map((r) => r.orderNo)).toEqual([w.orderNo]);
    }
    const [other] = await rows(sql<{ id: number }>`
      select id from lc_view_19 where "carrierId" is distinct from ${COMPANY.logistics} order by id limit 1`);
    expect(await opened(logistics, 19, Number(other?.id))).toMatchObject({ content: [], totalElements: 0 });
    expect((await logistics.get('/api/general/formData', { generalId: 19, id: other?.id })).status).toBe(404);
  });

  it('refuses an id that is no id', async () => {
    const res = await producer.get('/api/general/list/19', { id: 'HT2026-0106' });
    expect(res.status).toBe(400);
  });
});
