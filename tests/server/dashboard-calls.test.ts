import { request as httpRequest } from 'node:http';
import { jwtVerify } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { formatDate } from '../../src/shared/format.js';
import { refusal } from '../helpers/refusal.js';
import type { ApiClient, TestServer } from '../helpers/server.js';
import { DEMO_PASSWORD, startTestServer } from '../helpers/server.js';

/**
 * The calls around the dashboards that write: the manual disposal order, company inventory, quotes,
 * testing applications, bulletins, inventory-free account calls (avatar, passwords), company
 * information, the filling-system token, QR label codes and the entry site.
 */

const PRODUCER = '苏州华瑞精细化工有限公司';
const DISPOSER = '江苏绿源环保科技有限公司';
const GUFEI = 'https://gf.example.gov.cn/gufei';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;
let disposer: ApiClient;
let collector: ApiClient;

beforeAll(async () => {
  server = await startTestServer({ gufeiBaseUrl: GUFEI, siteHosts: 'cf.example.com=producer,*.wl.example.com=logistics' });
  [admin, producer, disposer, collector] = await Promise.all([
    server.login('admin'),
    server.login('producer'),
    server.login('disposer'),
    server.login('collector'),
  ]);
});
afterAll(() => server?.close());

const db = () => server.ctx.db;
const orders = async (c: ApiClient) => (await c.get('/api/produceOrderDashboard', { isRefresh: 1 })).body;

describe('manual disposal order', () => {
  const valid = async () => {
    const unloading = (await disposer.get('/api/companyWarehouse/unloadingPoint')).body.data[0];
    return {
      types: '1',
      needPrepay: 0,
      partyACompany: String(COMPANY.producer),
      partyACompanyName: PRODUCER,
      partyAName: '王丽华',
      partyAPhone: '13862100003',
      partyBWarehouseId: unloading.id,
      partyBName: '赵永刚',
      partyBPhone: '13701587734',
      wasteCategoryCode: '900-249-08',
      wasteCategoryName: '废矿物油',
      quantity: '12.345',
      unit: '吨',
      price: '2800.125',
      estDisposalTime: formatDate(Date.now() + 7 * 86_400_000, 'YYYY-MM-DD'),
      remark: '手工录入测试',
    };
  };

  it('shows the add button only to those who may add disposal orders', async () => {
    expect((await disposer.get('/api/disposalOrder/addBtnShow')).body.addBtnShow).toBe(1);
    expect((await producer.get('/api/disposalOrder/addBtnShow')).body.addBtnShow).toBe(0);
    expect((await producer.post('/api/disposalOrder/insertManualDisposalOrder', await valid())).status).toBe(403);
  });

  it('answers the form’s messages', async () => {
    const base = await valid();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ types: '' }, 'types', '请选择处置类型'],
      [{ partyACompany: undefined }, 'partyACompany', '请选择签约企业'],
      [{ unit: '' }, 'unit', '请选择计量单位'],
      [{ wasteCategoryCode: ' ' }, 'wasteCategoryCode', '请输入危废代码'],
      [{ wasteCategoryName: '' }, 'wasteCategoryName', '请输入危废名称'],
      [{ quantity: '' }, 'quantity', '请输入数量'],
      [{ price: undefined }, 'price', '请输入单价'],
      [{ partyAPhone: '12345678901' }, 'partyAPhone', '手机号格式错误'],
      [{ partyBPhone: '1386210000' }, 'partyBPhone', '手机号格式错误'],
      [{ needPrepay: 1 }, 'prepayPrice', '请输入预付金额'],
      [{ quantity: '1.2345' }, 'quantity', '最多保留3位小数'],
      // Of the date's shape but not on the calendar: refused by the form, never sent to the database.
      [{ estDisposalTime: '9999-99-99' }, 'estDisposalTime', '日期格式应为 YYYY-MM-DD'],
      [{ estDisposalTime: '2026-02-30' }, 'estDisposalTime', '日期格式应为 YYYY-MM-DD'],
    ];
    for (const [change, field, message] of cases) {
      const r = await disposer.post('/api/disposalOrder/insertManualDisposalOrder', { ...base, ...change });
      expect(r.status, JSON.stringify(change)).toBe(400);
      expect(r.body.code, JSON.stringify(change)).toBe('INVALID_INPUT');
      expect(r.body.message, JSON.stringify(change)).toBe(message);
      expect(r.body.errors[0], JSON.stringify(change)).toEqual({ field, message });
    }
    // Phones are optional.
    const noPhones = await disposer.post('/api/disposalOrder/insertManualDisposalOrder', { ...base, partyAPhone: '', partyBPhone: null });
    expect(noPhones.status, JSON.stringify(noPhones.body)).toBe(200);
  });

  it('creates an order in 处置订单 with amount = price × quantity, counted on the dashboards', async () => {
    const [p0, d0] = await Promise.all([orders(producer), orders(disposer)]);
    const r = await disposer.post('/api/disposalOrder/insertManualDisposalOrder', {
      ...(await valid()),
      needPrepay: 1,
      prepayPrice: '1000.5',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.amount).toBe(34567.54313); // 12.345 × 2800.125 = 34567.543125, half up at 5 decimals
    expect(r.body.orderNo).toMatch(/^CZ\d{12}$/);
    const row = (await disposer.get('/api/general/detail', { generalId: 19, id: r.body.id })).body;
    expect(row).toMatchObject({
      orderNo: r.body.orderNo,
      producerId: COMPANY.producer,
      producerIdFmt: PRODUCER,
      disposerId: COMPANY.disposer,
      disposerIdFmt: DISPOSER,
      wasteCategory: 'HW08',
      quantity: 12.345,
      price: 2800.125,
      amount: 34567.54313,
      orderStatus: '0',
      needPrepay: '1',
      prepayPrice: 1000.5,
      createBy: 'disposer',
    });
    const list = (await disposer.get('/api/general/list/19', { orderNo: r.body.orderNo })).body;
    expect(list.totalElements).toBe(1);
    const [p1, d1] = await Promise.all([orders(producer), orders(disposer)]);
    expect(p1.ongoingDisposalOrder).toBe(p0.ongoingDisposalOrder + 1);
    expect(d1.ongoingDisposalOrder).toBe(d0.ongoingDisposalOrder + 1);
    const kept = await db().selectFrom('disposal_order_manual').select('payload').where('record_id', '=', r.body.id).executeTakeFirst();
    expect(kept?.payload).toMatchObject({ types: '1', unit: '吨', partyAName: '王丽华', partyBName: '赵永刚', amount: 34567.54313 });
  });

  it('refuses an unknown company, waste code or another company’s unloading point', async () => {
    const base = await valid();
    expect((await disposer.post('/api/disposalOrder/insertManualDisposalOrder', { ...base, partyACompany: '99999' })).body).toEqual(
      refusal(400, 'PARTY_A_NOT_FOUND'),
    );
    expect(
      (await disposer.post('/api/disposalOrder/insertManualDisposalOrder', { ...base, wasteCategoryCode: '000-000-00' })).body,
    ).toEqual(refusal(400, 'WASTE_CODE_NOT_FOUND'));
    const foreign = await db()
      .selectFrom('company_warehouse')
      .select('id')
      .where('company_id', '=', COMPANY.disposer2)
      .executeTakeFirstOrThrow();
    // Another company's unloading point is answered as missing.
    const refused = await disposer.post('/api/disposalOrder/insertManualDisposalOrder', { ...base, partyBWarehouseId: foreign.id });
    expect([refused.status, refused.body]).toEqual([404, refusal(404, 'WAREHOUSE_NOT_FOUND')]);
  });
});

describe('company inventory', () => {
  it("numbers a stock-in from the company's series, and refuses a typed number of today's or one the company has", async () => {
    const warehouseId = (await producer.get('/api/companyWarehouse/list')).body.content[0].id;
    const record = { wasteCategory: 'HW49', wasteCode: '900-041-49', wasteName: '编号校验', quantity: 1, packageType: '1', warehouseId };
    const first = await producer.post('/api/companyInventory', record);
    const second = await producer.post('/api/companyInventory', record);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(Number(second.body.stockNo.slice(-4)) - Number(first.body.stockNo.slice(-4))).toBe(1);
    const today = `RK${formatDate(new Date(), 'YYYYMMDD')}0001`;
    expect((await producer.post('/api/companyInventory', { ...record, stockNo: today })).body).toEqual(
      refusal(400, 'DOC_NUMBER_RESERVED', { label: '入库单号' }),
    );
    const typed = await producer.post('/api/companyInventory', { ...record, stockNo: 'RK200102030001' });
    expect(typed.body.stockNo).toBe('RK200102030001');
    expect((await producer.post('/api/companyInventory', { ...record, stockNo: 'RK200102030001' })).body).toEqual(
      refusal(400, 'DOC_NUMBER_TAKEN', { label: '入库单号' }),
    );
  });

  it('creates and updates stock-in records that carry status 1, counted in stock', async () => {
    const warehouseId = (await producer.get('/api/companyWarehouse/list')).body.content[0].id;
    const before = (await producer.get('/api/inventoryInfo', { isRefresh: 1 })).body;
    const r = await producer.post('/api/companyInventory', {
      wasteCategory: 'HW49',
      wasteCode: '900-041-49',
      wasteName: '废包装桶',
      quantity: 3.25,
      packageType: '1',
      warehouseId,
      status: '0',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.stockNo).toMatch(/^RK\d{12}$/);
    const row = (await producer.get('/api/general/detail', { generalId: 12, id: r.body.id })).body;
    expect(row).toMatchObject({ status: '1', quantity: 3.25, handler: '王丽华', warehouseId });
    const after = (await producer.get('/api/inventoryInfo', { isRefresh: 1 })).body;
    expect(after.inNum).toBeCloseTo(before.inNum + 3.25, 6);

    await sql`update lc_view_12 set status = '2' where id = ${r.body.id}`.execute(db());
    const upd = await producer.post('/api/companyInventory/update', { id: r.body.id, quantity: 4 });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect((await producer.get('/api/general/detail', { generalId: 12, id: r.body.id })).body).toMatchObject({ status: '1', quantity: 4 });

    const bad = await producer.post('/api/companyInventory', { wasteName: '废包装桶', quantity: 0, warehouseId });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.length).toBeGreaterThan(0);
    // Without stockIn:edit the call is refused; another company's record and warehouse are answered as missing.
    expect((await disposer.post('/api/companyInventory/update', { id: r.body.id, quantity: 1 })).status).toBe(403);
    expect((await collector.post('/api/companyInventory/update', { id: r.body.id, quantity: 1 })).status).toBe(404);
    const foreign = (await disposer.get('/api/companyWarehouse/list')).body.content[0].id;
    expect((await producer.post('/api/companyInventory', { wasteName: 'x', quantity: 1, warehouseId: foreign })).status).toBe(404);
  });
});

describe('quotes and testing applications', () => {
  it('lets the asked disposer quote an open inquiry, and tells the asker', async () => {
    const add = await producer.post('/api/general/add/15', {
      companyId: COMPANY.disposer,
      wasteCategory: 'HW08',
      quantity: 8,
      inquiryStatus: '0',
      needTransport: '2',
    });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    const unread0 = (await producer.get('/api/sysMessage/getUnreadNum')).body.data.sysNum;
    expect((await collector.post('/api/disposalQuotePirce/quotedPrice', { id: add.body.id, quotedPrice: 3000 })).status).toBe(403);
    const other = await server.login('expired');
    expect((await other.post('/api/disposalQuotePirce/quotedPrice', { id: add.body.id, quotedPrice: 3000 })).status).toBe(403);

    const q = await disposer.post('/api/disposalQuotePirce/quotedPrice', { id: add.body.id, quotedPrice: '3150.5' });
    expect(q.status, JSON.stringify(q.body)).toBe(200);
    const row = (await disposer.get('/api/general/detail', { generalId: 15, id: add.body.id })).body;
    expect(row).toMatchObject({ inquiryStatus: '1', quotedPrice: 3150.5 });
    expect(row.quoteTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await producer.get('/api/sysMessage/getUnreadNum')).body.data.sysNum).toBe(unread0 + 1);

    expect((await disposer.post('/api/disposalQuotePirce/quotedPrice', { id: add.body.id, quotedPrice: '1.234' })).status).toBe(400);
    await admin.post('/api/general/update/15', { id: add.body.id, inquiryStatus: '2' });
    expect((await disposer.post('/api/disposalQuotePirce/quotedPrice', { id: add.body.id, quotedPrice: 1 })).body).toEqual(
      refusal(400, 'INQUIRY_CLOSED'),
    );
  });

  it('files a testing application with a disposer, who is told and sees it', async () => {
    const unread0 = (await disposer.get('/api/sysMessage/getUnreadNum')).body.data.sysNum;
    const body = {
      disposerCompanyId: COMPANY.disposer,
      wasteCategoryCode: '900-249-08',
      wasteName: '废矿物油',
      quantity: 5,
      sampleCount: 2,
      linkman: '王丽华',
      phone: '13862100003',
    };
    expect((await producer.post('/api/dispoaslTestingApplication/apply', { ...body, phone: '123' })).body).toMatchObject(
      refusal(400, 'MOBILE_INVALID'),
    );
    expect((await producer.post('/api/dispoaslTestingApplication/apply', { ...body, linkman: '' })).body).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      message: '请输入联系人',
    });
    expect((await producer.post('/api/dispoaslTestingApplication/apply', { ...body, disposerCompanyId: COMPANY.producer2 })).body).toEqual(
      refusal(400, 'DISPOSER_REQUIRED'),
    );
    const r = await producer.post('/api/dispoaslTestingApplication/apply', body);
    expect(r.body).toMatchObject({ status: 200, message: '申请已提交', id: expect.any(Number) });
    expect((await disposer.get('/api/sysMessage/getUnreadNum')).body.data.sysNum).toBe(unread0 + 1);
    const seen = (await disposer.get('/api/dispoaslTestingApplication')).body;
    expect(seen.content[0]).toMatchObject({ id: r.body.id, applicantName: PRODUCER, disposerName: DISPOSER, sampleCount: 2, status: 0 });
    expect((await collector.get('/api/dispoaslTestingApplication')).body.totalElements).toBe(0);
  });
});

describe('bulletins', () => {
  it('lists published bulletins newest first, drafts only to their editors, and counts reads', async () => {
    const list = (await producer.get('/api/bulletin', { status: 10 })).body;
    expect(list.totalElements).toBeGreaterThan(0);
    const times = list.content.map((b: { createTime: string }) => b.createTime);
    expect([...times].sort().reverse()).toEqual(times);
    expect((await producer.get('/api/bulletin', { status: 0 })).status).toBe(403);
    expect((await admin.get('/api/bulletin', { status: 0 })).body.totalElements).toBeGreaterThan(0);

    expect((await producer.post('/api/bulletin', { title: 'x', content: 'y' })).status).toBe(403);
    expect((await admin.post('/api/bulletin', { title: '', content: 'y' })).body).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      message: '请输入公告标题',
    });
    const add = await admin.post('/api/bulletin', { title: '新增公告', content: '<p>正文</p>' });
    expect(add.status).toBe(200);
    expect((await producer.get('/api/bulletin')).body.content[0]).toMatchObject({ id: add.body.id, title: '新增公告', views: 0 });
    expect((await producer.post('/api/viewsNum/add', { id: add.body.id })).body).toEqual({ status: 200, id: add.body.id, viewsNum: 1 });
    expect((await producer.post('/api/viewsNum/add', { id: add.body.id })).body.viewsNum).toBe(2);
    const draft = (await admin.get('/api/bulletin', { status: 0 })).body.content[0].id;
    expect((await producer.post('/api/viewsNum/add', { id: draft })).status).toBe(404);
    expect((await admin.request('DELETE', '/api/bulletin', { json: [add.body.id] })).status).toBe(200);
    expect((await producer.post('/api/viewsNum/add', { id: add.body.id })).status).toBe(404);
  });
});

describe('account calls', () => {
  it('changes the avatar to an uploaded jpg or png', async () => {
    const form = new FormData();
    form.append('avatar', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), '头像.png');
    const r = await collector.request('POST', '/api/users/updateAvatar', { body: form });
    expect(r.body).toMatchObject({ status: 200, message: '头像修改成功' });
    expect((await collector.get('/api/auth/info')).body.user.avatar).toBe(r.body.avatar);
    const preview = await collector.get('/api/file/preview', { source: r.body.avatar });
    expect(preview.status).toBe(200);
    expect(Buffer.compare(preview.body as Buffer, PNG)).toBe(0);

    const gif = new FormData();
    gif.append('avatar', new Blob([new TextEncoder().encode('GIF89a')], { type: 'image/gif' }), 'a.gif');
    expect((await collector.request('POST', '/api/users/updateAvatar', { body: gif })).body).toEqual(
      refusal(400, 'AVATAR_TYPE_NOT_ALLOWED'),
    );
    const fake = new FormData();
    fake.append('avatar', new Blob([new TextEncoder().encode('not a png')], { type: 'image/png' }), 'b.png');
    expect((await collector.request('POST', '/api/users/updateAvatar', { body: fake })).status).toBe(400);
  });

  it('checks and saves passwords, and lets an administrator reset one', async () => {
    const me = await server.login('guest');
    expect((await me.get('/api/pwd/check')).body).toMatchObject({ pwdExpired: false, maxAgeDays: 90 });
    const enc = (s: string) => me.encrypt(s);
    const wrong = await me.post('/api/pwd/save', {
      oldPass: await enc('nope'),
      newPass: await enc('New@2026pw'),
      confirmPass: await enc('New@2026pw'),
    });
    expect(wrong.body).toEqual(refusal(400, 'OLD_PASSWORD_WRONG'));
    const mismatch = await me.post('/api/pwd/save', {
      oldPass: await enc(DEMO_PASSWORD),
      newPass: await enc('New@2026pw'),
      confirmPass: await enc('New@2026px'),
    });
    expect(mismatch.body).toEqual({ status: 400, code: 'PASSWORDS_DIFFER', message: '两次输入的密码不一致' });
    const weak = await me.post('/api/pwd/save', { oldPass: await enc(DEMO_PASSWORD), newPass: await enc('abcdefgh') });
    expect(weak.body).toEqual({ status: 400, code: 'PASSWORD_RULE', message: '由字母、数字、特殊字符组成，8个字符以上' });
    const ok = await me.post('/api/pwd/save', { oldPass: await enc(DEMO_PASSWORD), newPass: await enc('New@2026pw') });
    expect(ok.body).toEqual({ status: 200, message: '密码修改成功，请重新登录' });
    expect((await me.get('/api/pwd/check')).status).toBe(401);

    expect((await producer.post('/api/pwd/reset', [USER.guest])).status).toBe(403);
    const reset = await admin.post('/api/pwd/reset', { ids: [USER.guest] });
    expect(reset.body).toMatchObject({ status: 200, count: 1 });
    const again = await server.api.loginRaw('guest', DEMO_PASSWORD);
    expect(again.body.status).toBe(200);
    expect(again.body.user.pwdExpired).toBe(true);
    expect((await admin.post('/api/pwd/reset', [])).body).toMatchObject({ status: 400, code: 'INVALID_INPUT', message: '请选择用户' });
  });
});

describe('company information and the filling system', () => {
  it('answers the user’s company and whether the filling-system entries show', async () => {
    const info = (await producer.get('/api/companyApi/info', { deptCode: '02' })).body;
    expect(info).toMatchObject({ id: COMPANY.producer, name: PRODUCER, typeLabel: '产废企业', bciId: 'BCI3205050001', fillingEntry: true });
    expect((await collector.get('/api/companyApi/info')).body.fillingEntry).toBe(false);
    const supervisor = await server.login('supervisor');
    expect((await supervisor.get('/api/companyApi/info', { deptCode: '01' })).body.fillingEntry).toBe(false);
    expect((await supervisor.get('/api/companyApi/info', { deptCode: '0201' })).body.id).toBe(COMPANY.producer);
  });

  it('issues a token for the company’s own code, with the authority’s pages', async () => {
    const r = (await producer.get('/api/guFeiUrl/getTokenByCompayCode', { CompanyCode: 'BCI3205050001' })).body;
    expect(r.code).toBe('00000');
    expect(r.data.dangerUrl).toBe(`${GUFEI}/order/danger?token=${encodeURIComponent(r.data.token)}`);
    expect(r.data.planUrl).toBe(`${GUFEI}/plan/query?token=${encodeURIComponent(r.data.token)}`);
    const { payload } = await jwtVerify(r.data.token, server.ctx.secrets.jwtSecret, { audience: 'gufei' });
    expect(payload).toMatchObject({ sub: 'BCI3205050001', companyId: COMPANY.producer });
    expect((await disposer.get('/api/guFeiUrl/getTokenByCompayCode', { CompanyCode: 'BCI3205050001' })).body.code).not.toBe('00000');
    expect((await producer.get('/api/guFeiUrl/getTokenByCompayCode', {})).body.code).not.toBe('00000');
  });

  it('saves the company’s own information, checks it, and keeps the figures on a rename', async () => {
    expect((await producer.post('/api/companyApi/update', { contactPhone: '123' })).body).toEqual({
      status: 400,
      code: 'MOBILE_INVALID',
      message: '手机号格式错误',
    });
    expect((await producer.post('/api/companyApi/update', { creditCode: 'ABC' })).body).toEqual(refusal(400, 'CREDIT_CODE_INVALID'));
    expect((await producer.post('/api/companyApi/update', { name: DISPOSER })).body).toEqual(refusal(400, 'COMPANY_NAME_TAKEN'));
    expect((await producer.post('/api/companyApi/update', { id: COMPANY.disposer, address: 'x' })).status).toBe(403);
    const before = await orders(producer);
    // Orders name their producer by company id: renamed, the company keeps its orders…
    expect((await producer.post('/api/companyApi/update', { name: '苏州华瑞新材料有限公司', address: '新地址1号' })).body.message).toBe(
      '保存成功',
    );
    expect((await producer.get('/api/companyApi/info')).body).toMatchObject({ name: '苏州华瑞新材料有限公司', address: '新地址1号' });
    expect((await orders(producer)).ongoingDisposalOrder).toBe(before.ongoingDisposalOrder);
    // …and named back, too.
    await producer.post('/api/companyApi/update', { name: PRODUCER });
    expect((await orders(producer)).ongoingDisposalOrder).toBe(before.ongoingDisposalOrder);
  });
});

describe('QR label codes and the entry site', () => {
  it('creates a batch of unique codes with the user’s department', async () => {
    const r = (await producer.get('/api/materialsCode/saveBatch', { createNum: 5 })).body;
    expect(r.data).toHaveLength(5);
    expect(new Set(r.data.map((c: { codeNum: string }) => c.codeNum)).size).toBe(5);
    expect(r.data[0]).toMatchObject({ operateDept: '产废企业部', codeNum: expect.stringMatching(/^\d{8}[0-9A-F]{10}$/) });
    expect((await producer.get('/api/materialsCode/saveBatch', { createNum: 0 })).status).toBe(400);
  });

  it('names the site by host name, from the configured rules or the first label', async () => {
    // The Host header as a browser sends it; a forwarded host counts only from a trusted proxy.
    const site = (host: string) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const u = new URL(server.url);
        const req = httpRequest({ host: u.hostname, port: u.port, path: '/api/site', headers: { host } }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            text += c;
          });
          res.on('end', () => resolve(JSON.parse(text)));
        });
        req.on('error', reject);
        req.end();
      });
    expect(await site('cf.example.com')).toMatchObject({ kind: 'producer', label: '产废企业端' });
    expect(await site('a.wl.example.com:8443')).toMatchObject({ kind: 'logistics', label: '物流企业端' });
    expect(await site('disposal.localhost:8080')).toMatchObject({ kind: 'disposal', label: '处置企业端' });
    expect(await site('gov.example.com')).toMatchObject({ kind: 'management', label: '管理端', color: '#2F6EFF' });
    // Without a trusted proxy, a forwarded host is not believed.
    const forged = await server.api.request('GET', '/api/site', { headers: { 'x-forwarded-host': 'cf.example.com' } });
    expect(forged.body.kind).not.toBe('producer');
  });
});
