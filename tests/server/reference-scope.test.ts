import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceCondition } from '../../server/access/references.js';
import { recordValues } from '../../server/lowcode/record-input.js';
import { designedView } from '../../server/lowcode/view-store.js';
import { COMPANY } from '../../server/seed/ids.js';
import { errorMessage } from '../../src/shared/error-catalogue.js';
import { inquiryBody } from '../helpers/inquiry.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * A field that picks a record of another table stores only an id its options offer the writer: a
 * producer cannot file its stock-in under another company's warehouse, nor raise an inquiry from another
 * company's stock-in (and so read their names through `{field}Fmt`). Those who see all pick any.
 */

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  [admin, producer] = await Promise.all([server.login('admin'), server.login('producer')]);
});
afterAll(() => server?.close());

const db = () => server.ctx.db;
const outOfScope = (label: string) => errorMessage('REFERENCE_OUT_OF_SCOPE', { label });

async function warehouseOf(companyId: number) {
  const r = await sql<{ id: number }>`select id from company_warehouse where company_id = ${companyId} order by id limit 1`.execute(db());
  return Number(r.rows[0]?.id);
}

async function stockOf(companyId: number) {
  const r = await sql<{ id: number }>`select id from lc_view_12 where create_company = ${companyId} order by id limit 1`.execute(db());
  return Number(r.rows[0]?.id);
}

let seq = 0;
const stockNo = () => `RK2098${String(++seq).padStart(8, '0')}`;

const stockIn = (warehouseId: unknown, no = stockNo()) => ({
  stockNo: no,
  wasteCategory: 'HW08',
  wasteCode: '900-249-08',
  wasteName: '引用范围测试废矿物油',
  quantity: '1.000',
  packageType: '2',
  warehouseId,
  inTime: '2026-11-01 10:00:00',
  handler: '测试员',
  status: '0',
});

async function stored(no: string) {
  const r = await sql<{ warehouseId: number }>`select "warehouseId" from lc_view_12 where "stockNo" = ${no}`.execute(db());
  return r.rows.map((x) => Number(x.warehouseId));
}

function refused(r: { status: number; body: any }, field: string, label: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body).toMatchObject({ status: 400, message: outOfScope(label), errors: [{ field, message: outOfScope(label) }] });
}

describe('a picked record outside the writer’s options', () => {
  it('refuses another company’s warehouse on add, and writes nothing', async () => {
    const foreign = await warehouseOf(COMPANY.disposer);
    const no = stockNo();
    refused(await producer.post('/api/general/add/12', stockIn(foreign, no)), 'warehouseId', '入库仓库');
    refused(await producer.post('/api/general/add/12', stockIn(999_999)), 'warehouseId', '入库仓库');
    // An id beyond the integer ids of the table is refused the same way.
    refused(await producer.post('/api/general/add/12', stockIn(99_999_999_999)), 'warehouseId', '入库仓库');
    expect(await stored(no)).toEqual([]);
    const own = await warehouseOf(COMPANY.producer);
    const ok = await producer.post('/api/general/add/12', stockIn(own, no));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await stored(no)).toEqual([own]);
  });

  it('judges the references in the write statement: its condition holds for an offered warehouse only', async () => {
    const view = await designedView(server.ctx, 12);
    const user = await server.ctx.sessions.authenticate(producer.token ?? undefined);
    const holds = async (warehouseId: number) => {
      const condition = await referenceCondition(server.ctx, view, user, recordValues(view, stockIn(warehouseId)));
      if (!condition) throw new Error('a picked warehouse must be judged');
      return (await sql<{ ok: boolean }>`select ${condition} as ok`.execute(db())).rows[0]?.ok;
    };
    expect(await holds(await warehouseOf(COMPANY.producer))).toBe(true);
    expect(await holds(await warehouseOf(COMPANY.disposer))).toBe(false);
    expect(await holds(999_999)).toBe(false);
  });

  it('refuses it on update, keeping the stored warehouse', async () => {
    const own = await warehouseOf(COMPANY.producer);
    const no = stockNo();
    const id = (await producer.post('/api/general/add/12', stockIn(own, no))).body.id as number;
    const foreign = await warehouseOf(COMPANY.disposer2);
    refused(await producer.post('/api/general/update/12', { id, warehouseId: foreign }), 'warehouseId', '入库仓库');
    expect(await stored(no)).toEqual([own]);
    // Its own warehouse, and a change that leaves the warehouse alone, are saved.
    expect((await producer.post('/api/general/update/12', { id, warehouseId: own, handler: '复核员' })).status).toBe(200);
    expect((await producer.post('/api/general/update/12', { id, handler: '经办员' })).status).toBe(200);
  });

  it('refuses another company’s stock-in as the source of an inquiry; its own and none are allowed', async () => {
    const foreign = await stockOf(COMPANY.disposer);
    refused(await producer.post('/api/general/add/15', inquiryBody({ stockId: foreign })), 'stockId', '来源入库单');
    const own = await stockOf(COMPANY.producer);
    const added = await producer.post('/api/general/add/15', inquiryBody({ stockId: own }));
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    refused(await producer.post('/api/general/update/15', { id: added.body.id, stockId: foreign }), 'stockId', '来源入库单');
    const stock = await sql<{ stockId: number }>`select "stockId" from lc_view_15 where id = ${added.body.id}`.execute(db());
    expect(Number(stock.rows[0]?.stockId)).toBe(own);
    // The field is not required: an inquiry raised from no stock-in is saved.
    expect((await producer.post('/api/general/add/15', inquiryBody({ stockId: null }))).status).toBe(200);
    // The company picker offers active disposers only.
    refused(await producer.post('/api/general/add/15', inquiryBody({ companyId: COMPANY.logistics })), 'companyId', '处置企业');
  });

  it('lets those who see all pick what their options offer: any company’s warehouse and stock-in', async () => {
    const no = stockNo();
    const r = await admin.post('/api/general/add/12', stockIn(await warehouseOf(COMPANY.disposer), no));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await stored(no)).toEqual([await warehouseOf(COMPANY.disposer)]);
    expect((await admin.post('/api/general/add/15', inquiryBody({ stockId: await stockOf(COMPANY.disposer) }))).status).toBe(200);
    refused(await admin.post('/api/general/add/12', stockIn(999_999)), 'warehouseId', '入库仓库');
  });

  it('fails an imported row that picks another company’s warehouse, importing the others', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sheet1');
    const header = ['stockNo', 'wasteCategory', 'wasteCode', 'wasteName', 'quantity', 'packageType', 'warehouseId', 'inTime', 'handler'];
    const row = (no: string, w: number) => [no, 'HW08', '900-249-08', '导入测试', 1, '2', w, '2026-11-01 10:00:00', '测试员'];
    const [mine, theirs] = [stockNo(), stockNo()];
    ws.addRow(header);
    ws.addRow(row(mine, await warehouseOf(COMPANY.producer)));
    ws.addRow(row(theirs, await warehouseOf(COMPANY.disposer)));
    const fd = new FormData();
    fd.append('file', new Blob([new Uint8Array(Buffer.from(await wb.xlsx.writeBuffer()))]), '入库.xlsx');
    const res = await producer.request('POST', '/api/general/12/import', { body: fd });
    expect(res.status).toBe(200);
    const out = new ExcelJS.Workbook();
    await out.xlsx.load(res.body as unknown as ExcelJS.Buffer);
    const verdicts: unknown[] = [];
    out.worksheets[0]?.eachRow((r) => {
      verdicts.push((r.values as unknown[]).at(-1));
    });
    expect(verdicts).toEqual(['导入结果', '成功', outOfScope('入库仓库')]);
    expect(res.headers.get('x-import-success')).toBe('1');
    expect(res.headers.get('x-import-failed')).toBe('1');
    expect(await stored(mine)).toHaveLength(1);
    expect(await stored(theirs)).toEqual([]);
  });
});
