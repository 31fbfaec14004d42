import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPT } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { inquiryBody } from '../helpers/inquiry.js';
import { said } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { uploadFile, workbook } from '../helpers/sheets.js';

/**
 * What the parties and recipients of a record still write: the creating company its contract and order
 * (while it stays one of their parties), the asker its inquiry while unanswered and closing it, the asked
 * disposer its quote, the receiving department its reply and 已读, the author its unread message.
 */

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;
let disposer: ApiClient;
const db = () => server.ctx.db;

beforeAll(async () => {
  server = await startTestServer();
  [admin, producer, disposer] = await Promise.all([server.login('admin'), server.login('producer'), server.login('disposer')]);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const cell = async (viewId: number, id: number, name: string) =>
  (await sql<{ v: unknown }>`select ${sql.ref(name)} as v from ${sql.table(`lc_view_${viewId}`)} where id = ${id}`.execute(db())).rows[0]
    ?.v;

let seq = 0;
const contract = (more: Record<string, unknown> = {}) => ({
  contractNo: `HT2029-${String(4700 + ++seq)}`,
  contractName: `当事方合同${seq}`,
  partyAId: COMPANY.producer,
  partyBId: COMPANY.disposer,
  amount: 100,
  signDate: '2026-01-01 00:00:00',
  beginDate: '2026-01-01 00:00:00',
  endDate: '2027-12-31 00:00:00',
  contractStatus: '1',
  ...more,
});

describe('contracts and disposal orders are written by one of their parties', () => {
  it('the creator edits its contract and moves the other party, but not itself off it', async () => {
    const made = await disposer.post('/api/general/add/16', contract());
    expect(made.status, said(made)).toBe(200);
    const id = made.body.id as number;
    const edited = await disposer.post('/api/general/update/16', { id, amount: 200, contractStatus: '2' });
    expect(edited.status, said(edited)).toBe(200);
    const moved = await disposer.post('/api/general/update/16', { id, partyAId: COMPANY.producer2 });
    expect(moved.status, said(moved)).toBe(200);
    const away = await disposer.post('/api/general/update/16', { id, partyBId: COMPANY.disposer2 });
    expect([away.status, away.body.code]).toEqual([400, 'RECORD_PARTY_SELF_REQUIRED']);
    expect(Number(await cell(16, id, 'partyBId'))).toBe(COMPANY.disposer);
    expect(Number(await cell(16, id, 'amount'))).toBe(200);
  });

  it('a company adds no contract naming only others, by the form or an import; 全部 does', async () => {
    const other = await disposer.post('/api/general/add/16', contract({ partyBId: COMPANY.disposer2 }));
    expect([other.status, other.body.code]).toEqual([400, 'RECORD_PARTY_SELF_REQUIRED']);
    const name = '当事方导入合同';
    const file = await workbook([
      ['合同编号', '合同名称', '甲方（产废单位）', '乙方（处置单位）', '合同金额', '签订日期', '生效日期', '到期日期'],
      ['HT2029-4799', name, String(COMPANY.producer), String(COMPANY.disposer2), 1, '2026-01-01', '2026-01-01', '2027-01-01'],
      ['HT2029-4798', name, String(COMPANY.producer), String(COMPANY.disposer), 1, '2026-01-01', '2026-01-01', '2027-01-01'],
    ]);
    const imported = await uploadFile(disposer, 16, 'c.xlsx', file);
    expect([imported.headers.get('x-import-success'), imported.headers.get('x-import-failed')]).toEqual(['1', '1']);
    expect((await sql<{ n: string }>`select "contractNo" as n from lc_view_16 where "contractName" = ${name}`.execute(db())).rows).toEqual([
      { n: 'HT2029-4798' },
    ]);
    const byAdmin = await admin.post('/api/general/add/16', contract({ partyBId: COMPANY.disposer2 }));
    expect(byAdmin.status, said(byAdmin)).toBe(200);
  });

  it('a disposer places an order as its disposer, or as the producer handing on its residues', async () => {
    const order = {
      producerId: COMPANY.producer,
      disposerId: COMPANY.disposer,
      carrierId: COMPANY.logistics,
      wasteCategory: 'HW08',
      quantity: 1,
      price: 1,
    };
    const own = await disposer.post('/api/general/add/19', order);
    expect(own.status, said(own)).toBe(200);
    const residues = await disposer.post('/api/general/add/19', { ...order, producerId: COMPANY.disposer, disposerId: COMPANY.disposer2 });
    expect(residues.status, said(residues)).toBe(200);
    // Before any waybill names it, its creator may still change the carrier.
    const carrier = await disposer.post('/api/general/update/19', { id: own.body.id, carrierId: null });
    expect(carrier.status, said(carrier)).toBe(200);
  });

  it('an order its waybills reach keeps its parties, and its creator still edits the rest', async () => {
    const rows = await sql<{ dorder: number }>`select d.id as dorder from lc_view_19 d
      where d.create_company = ${COMPANY.disposer} and exists (select 1 from lc_view_20 l where l."disposalOrderId" = d.id)
      order by d.id limit 1`.execute(db());
    const id = rows.rows[0]?.dorder as number;
    expect(id, 'a seeded disposer order with a waybill').toBeDefined();
    const remark = await disposer.post('/api/general/update/19', { id, remark: '当事方备注' });
    expect(remark.status, said(remark)).toBe(200);
    const moved = await disposer.post('/api/general/update/19', { id, carrierId: null });
    expect([moved.status, moved.body.code], said(moved)).toEqual([400, 'RECORD_PARTY_REFERENCED']);
    // An account of 全部 still moves it.
    const carrier = await cell(19, id, 'carrierId');
    expect((await admin.post('/api/general/update/19', { id, carrierId: null })).status).toBe(200);
    expect((await admin.post('/api/general/update/19', { id, carrierId: carrier })).status).toBe(200);
  });
});

/** The notices of a quote of inquiry `id` that the asker's company's accounts hold. */
const quoteNotices = async (id: number) => {
  const no = String(await cell(15, id, 'inquiryNo'));
  const res = await sql<{ n: number | string }>`select count(*) as n from sys_message m join sys_user u on u.id = m.user_id
    where u.company_id = ${COMPANY.producer} and m.title = ${`询价单${no}已报价`}`.execute(db());
  return Number(res.rows[0]?.n ?? 0);
};

describe("an inquiry's asker and its asked disposer", () => {
  it('the disposer quotes through the quote call, and the asker closes the inquiry', async () => {
    const added = await producer.post('/api/general/add/15', inquiryBody());
    const id = added.body.id as number;
    expect(await quoteNotices(id)).toBe(0);
    const quoted = await disposer.post('/api/disposalQuotePirce/quotedPrice', { id, quotedPrice: 3000 });
    expect(quoted.status, said(quoted)).toBe(200);
    const told = await quoteNotices(id);
    expect(told).toBeGreaterThan(0);
    const closed = await producer.post('/api/general/update/15', { ...inquiryBody(), id, inquiryStatus: '2' });
    expect(closed.status, said(closed)).toBe(200);
    expect([await cell(15, id, 'inquiryStatus'), Number(await cell(15, id, 'quotedPrice'))]).toEqual(['2', 3000]);
  });

  it('the disposer quotes through 编辑 while the inquiry awaits its quote, and rejects another', async () => {
    const added = await producer.post('/api/general/add/15', inquiryBody());
    const id = added.body.id as number;
    const quoted = await disposer.post('/api/general/update/15', {
      ...inquiryBody(),
      id,
      inquiryStatus: '1',
      quotedPrice: 2500,
      quoteTime: '2026-03-01 10:00:00',
    });
    expect(quoted.status, said(quoted)).toBe(200);
    expect([await cell(15, id, 'inquiryStatus'), Number(await cell(15, id, 'quotedPrice'))]).toEqual(['1', 2500]);
    // The asker hears of a quote given through 编辑 as of one through the quote call: once per account.
    const told = await quoteNotices(id);
    expect(told).toBeGreaterThan(0);
    // Saved again unchanged, it is no new quote; a new price is.
    const form = (await disposer.get('/api/general/formData', { generalId: 15, id })).body.data as Record<string, unknown>;
    expect((await disposer.post('/api/general/update/15', { ...form, id })).status).toBe(200);
    expect(await quoteNotices(id)).toBe(told);
    expect((await disposer.post('/api/general/update/15', { ...form, id, quotedPrice: 2400 })).status).toBe(200);
    expect(await quoteNotices(id)).toBe(2 * told);
    const other = (await producer.post('/api/general/add/15', inquiryBody())).body.id as number;
    const rejected = await disposer.post('/api/general/update/15', { ...inquiryBody(), id: other, inquiryStatus: '3' });
    expect(rejected.status, said(rejected)).toBe(200);
    expect(await cell(15, other, 'inquiryStatus')).toBe('3');
    // A rejection is no quote.
    expect(await quoteNotices(other)).toBe(0);
    // The asker closes the rejected one.
    expect((await producer.post('/api/general/update/15', { ...inquiryBody(), id: other, inquiryStatus: '2' })).status).toBe(200);
    expect(await cell(15, other, 'inquiryStatus')).toBe('2');
  });

  it('the asker hands an unanswered inquiry to another disposer, which starts it unquoted; an answered one stays', async () => {
    const added = await producer.post('/api/general/add/15', inquiryBody());
    const id = added.body.id as number;
    const moved = await producer.post('/api/general/update/15', { ...inquiryBody({ companyId: COMPANY.disposer2 }), id, quotedPrice: 9 });
    expect(moved.status, said(moved)).toBe(200);
    expect([Number(await cell(15, id, 'companyId')), await cell(15, id, 'quotedPrice'), await cell(15, id, 'inquiryStatus')]).toEqual([
      COMPANY.disposer2,
      null,
      '0',
    ]);
    const answered = (await producer.post('/api/general/add/15', inquiryBody())).body.id as number;
    expect((await disposer.post('/api/disposalQuotePirce/quotedPrice', { id: answered, quotedPrice: 10 })).status).toBe(200);
    const refused = await producer.post('/api/general/update/15', { ...inquiryBody({ companyId: COMPANY.disposer2 }), id: answered });
    expect([refused.status, refused.body.code]).toEqual([400, 'INQUIRY_PARTY_FIXED']);
    // The asker still edits what is its own of an answered inquiry.
    const remark = await producer.post('/api/general/update/15', { ...inquiryBody(), id: answered, remark: '请尽快', inquiryStatus: '1' });
    expect(remark.status, said(remark)).toBe(200);
    expect([await cell(15, answered, 'remark'), Number(await cell(15, answered, 'quotedPrice'))]).toEqual(['请尽快', 10]);
  });
});

describe('a message addressed to a department', () => {
  const message = (more: Record<string, unknown> = {}) => ({
    title: '当事方留言',
    content: '请回复',
    contactName: '张三',
    deptId: DEPT.disposers,
    haveRead: '2',
    ...more,
  });

  it('its author edits and re-addresses it while unread, without writing its reply; the recipient replies and marks it read', async () => {
    const added = await producer.post('/api/general/add/18', message({ replyContent: '自拟回复', haveRead: '1' }));
    expect(added.status, said(added)).toBe(200);
    const id = added.body.id as number;
    expect([await cell(18, id, 'replyContent'), await cell(18, id, 'haveRead')]).toEqual([null, '2']);
    const edited = await producer.post('/api/general/update/18', { ...message({ content: '请尽快回复', deptId: DEPT.collectors }), id });
    expect(edited.status, said(edited)).toBe(200);
    const back = await producer.post('/api/general/update/18', { ...message({ content: '请尽快回复' }), id });
    expect(back.status, said(back)).toBe(200);
    const replied = await disposer.post('/api/general/update/18', {
      id,
      replyContent: '已处理',
      replyTime: '2026-03-01 10:00:00',
      haveRead: '1',
    });
    expect(replied.status, said(replied)).toBe(200);
    expect([await cell(18, id, 'content'), await cell(18, id, 'replyContent'), await cell(18, id, 'haveRead')]).toEqual([
      '请尽快回复',
      '已处理',
      '1',
    ]);
    // Once answered it stays with the department that answered; the author still edits its text and deletes it.
    const readdressed = await producer.post('/api/general/update/18', { ...message(), id, deptId: DEPT.collectors });
    expect([readdressed.status, readdressed.body.code]).toEqual([400, 'MESSAGE_RECIPIENT_FIXED']);
    const text = await producer.post('/api/general/update/18', { id, content: '谢谢' });
    expect(text.status, said(text)).toBe(200);
    expect(await cell(18, id, 'replyContent')).toBe('已处理');
    const gone = await disposer.post('/api/general/delete/18', [id]);
    expect([gone.status, gone.body.code]).toEqual([403, 'RECORD_RECIPIENT_DELETE_DENIED']);
    const rewritten = await disposer.post('/api/general/update/18', { id, content: '改写' });
    expect([rewritten.status, rewritten.body.code]).toEqual([403, 'RECORD_RECIPIENT_EDIT_DENIED']);
    expect((await producer.post('/api/general/delete/18', [id])).status).toBe(200);
  });
});
