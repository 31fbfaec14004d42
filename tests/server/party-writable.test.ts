import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPT, MENU } from '../../server/seed/accounts.js';
import { COMPANY, viewMenuId } from '../../server/seed/ids.js';
import { accountMaker } from '../helpers/accounts.js';
import { inquiryBody } from '../helpers/inquiry.js';
import { said } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * What a form's record tells its reader it may change (`writable`): nothing said to its creator, the
 * quote to the asked disposer of an inquiry, nothing to another party of an order, the reply to the
 * department a message is addressed to; and an edit sending more changes only what was listed.
 */

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;
let disposer: ApiClient;
let logistics: ApiClient;
const db = () => server.ctx.db;

beforeAll(async () => {
  server = await startTestServer();
  [admin, producer, disposer, logistics] = await Promise.all([
    server.login('admin'),
    server.login('producer'),
    server.login('disposer'),
    server.login('logistics'),
  ]);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const { account, role } = accountMaker(
  () => server,
  () => admin,
  '1374747',
);

const cell = async (viewId: number, id: number, name: string) =>
  (await sql<{ v: unknown }>`select ${sql.ref(name)} as v from ${sql.table(`lc_view_${viewId}`)} where id = ${id}`.execute(db())).rows[0]
    ?.v;

/** The form's record of `id` as `as` reads it. */
const formData = async (as: ApiClient, viewId: number, id: number) => {
  const r = await as.get('/api/general/formData', { generalId: viewId, id });
  expect(r.status, said(r)).toBe(200);
  return r.body as { status: number; data: Record<string, unknown>; writable?: string[] };
};

describe('an inquiry', () => {
  it('its asker writes the whole record; the asked disposer its quote, and an edit sending more changes only that', async () => {
    const added = await producer.post('/api/general/add/15', inquiryBody({ quantity: 2, remark: '原备注' }));
    expect(added.status, said(added)).toBe(200);
    const id = added.body.id as number;
    expect(await formData(producer, 15, id)).not.toHaveProperty('writable');
    const asked = await formData(disposer, 15, id);
    expect(asked.writable?.slice().sort()).toEqual(['inquiryStatus', 'quoteTime', 'quotedPrice']);
    const edited = await disposer.post('/api/general/update/15', {
      ...asked.data,
      id,
      quantity: 9,
      remark: '改写',
      inquiryStatus: '1',
      quotedPrice: 2600,
      quoteTime: '2026-03-01 10:00:00',
    });
    expect(edited.status, said(edited)).toBe(200);
    expect([Number(await cell(15, id, 'quantity')), await cell(15, id, 'remark')]).toEqual([2, '原备注']);
    expect([await cell(15, id, 'inquiryStatus'), Number(await cell(15, id, 'quotedPrice'))]).toEqual(['1', 2600]);
    // Closed by its asker, the quote is no longer the disposer's to change: the list and the edit agree.
    expect((await producer.post('/api/general/update/15', { ...inquiryBody(), id, inquiryStatus: '2' })).status).toBe(200);
    expect((await formData(disposer, 15, id)).writable).toEqual([]);
    const late = await disposer.post('/api/general/update/15', { id, quotedPrice: 1 });
    expect([late.status, late.body.code]).toEqual([403, 'RECORD_PARTY_EDIT_DENIED']);
  });
});

describe('a disposal order', () => {
  it('another party of it may change nothing, and its edit is refused', async () => {
    const made = await disposer.post('/api/general/add/19', {
      producerId: COMPANY.producer,
      disposerId: COMPANY.disposer,
      carrierId: COMPANY.logistics,
      wasteCategory: 'HW08',
      quantity: 1,
      price: 1,
    });
    expect(made.status, said(made)).toBe(200);
    const id = made.body.id as number;
    expect(await formData(disposer, 19, id)).not.toHaveProperty('writable');
    expect((await formData(logistics, 19, id)).writable).toEqual([]);
    // A producer's account that may edit orders still edits nothing of one its counterparty placed.
    const menus = [MENU.dispose, viewMenuId(19), ...[1, 2, 3, 4, 5].map((a) => 3000 + 19 * 10 + a)];
    const writer = (await account('writable_writer', DEPT.producers, COMPANY.producer, [await role('可写-产废写订单', menus)])).api;
    expect((await formData(writer, 19, id)).writable).toEqual([]);
    const edit = await writer.post('/api/general/update/19', { id, quantity: 5 });
    expect([edit.status, edit.body.code]).toEqual([403, 'RECORD_PARTY_EDIT_DENIED']);
    expect(Number(await cell(19, id, 'quantity'))).toBe(1);
  });
});

describe('a message addressed to a department', () => {
  it('its author writes it whole; the receiving department its reply, and an edit sending more changes only that', async () => {
    const added = await producer.post('/api/general/add/18', {
      title: '可写留言',
      content: '请回复',
      contactName: '张三',
      deptId: DEPT.disposers,
      haveRead: '2',
    });
    expect(added.status, said(added)).toBe(200);
    const id = added.body.id as number;
    expect(await formData(producer, 18, id)).not.toHaveProperty('writable');
    const received = await formData(disposer, 18, id);
    expect(received.writable?.slice().sort()).toEqual(['haveRead', 'replyContent', 'replyTime']);
    const replied = await disposer.post('/api/general/update/18', {
      ...received.data,
      id,
      title: '改写标题',
      content: '改写',
      replyContent: '已处理',
      replyTime: '2026-03-01 10:00:00',
      haveRead: '1',
    });
    expect(replied.status, said(replied)).toBe(200);
    expect([await cell(18, id, 'title'), await cell(18, id, 'content')]).toEqual(['可写留言', '请回复']);
    expect([await cell(18, id, 'replyContent'), await cell(18, id, 'haveRead')]).toEqual(['已处理', '1']);
  });
});
