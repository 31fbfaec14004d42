import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPT } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { accountMaker } from '../helpers/accounts.js';
import { inquiryBody } from '../helpers/inquiry.js';
import { said } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { uploadFile, workbook } from '../helpers/sheets.js';

/**
 * Attack 45: a record's state set by its writer instead of by the action that moves it, and a leave
 * message signed with another account's name. Ordinary accounts only; each probe asserts the SAFE
 * behaviour. (The download's saved name is probed in files.test.ts, rich text in the browser suite.)
 */

let server: TestServer;
let admin: ApiClient;
const db = () => server.ctx.db;

const { account, role } = accountMaker(
  () => server,
  () => admin,
  '1374545',
);

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** The menu entries of the stock-in page and of its buttons holding these permissions. */
async function stockInMenus(permissions: string[]): Promise<number[]> {
  const rows = await db()
    .selectFrom('sys_menu')
    .select(['id', 'pid', 'permission'])
    .where((eb) => eb.or([eb('permission', 'in', permissions), eb('id', '=', 1012)]))
    .execute();
  return rows.filter((r) => r.id === 1012 || r.pid === 1012).map((r) => r.id);
}

/** One column of the rows of a view's table that match `where` (view tables are not in the typed schema). */
const column = async (viewId: number, name: string, where: RawBuilder<boolean>) =>
  (
    await sql<Record<string, unknown>>`select ${sql.ref(name)} as v from ${sql.table(`lc_view_${viewId}`)} where ${where}`.execute(db())
  ).rows.map((r) => r.v);
const statusOf = async (id: number) => (await column(12, 'status', sql`id = ${id}`))[0];

describe("a stock-in's state is the confirming action's, not its writer's", () => {
  let clerk: ApiClient;
  let warehouse: { id: number; name: string };

  beforeAll(async () => {
    const menus = await stockInMenus(['stockIn:add', 'stockIn:list', 'stockIn:look']);
    clerk = (await account('atk45_clerk', DEPT.producers, COMPANY.producer, [await role('攻45-只能入库', menus)])).api;
    warehouse = await db()
      .selectFrom('company_warehouse')
      .select(['id', 'name'])
      .where('company_id', '=', COMPANY.producer)
      .orderBy('id')
      .executeTakeFirstOrThrow();
  });

  const record = (more: Record<string, unknown> = {}) => ({
    wasteCategory: 'HW08',
    wasteCode: '900-249-08',
    wasteName: '废矿物油',
    quantity: 1.5,
    packageType: '1',
    warehouseId: warehouse.id,
    inTime: '2026-03-05 10:00:00',
    handler: '张三',
    ...more,
  });

  it('an account that may only add stock-ins cannot add one already confirmed (已入库), nor confirm it', async () => {
    const added = await clerk.post('/api/general/add/12', record({ status: '1' }));
    expect(added.status, said(added)).toBe(200);
    expect(await statusOf(added.body.id)).toBe('0');
    const confirm = await clerk.post('/api/general/groovy/12', { ids: [added.body.id], groovyQueryParam: { groovyAction: 'markStocked' } });
    expect(confirm.status).toBe(403);
    expect(await statusOf(added.body.id)).toBe('0');
  });

  it('nor through the company-inventory call, which adds records in stock and so takes stockIn:edit too', async () => {
    const r = await clerk.post('/api/companyInventory', { ...record(), status: '0' });
    expect(r.status).toBe(403);
    expect(
      await column(
        12,
        'id',
        sql`"wasteName" = '废矿物油' and create_user = (select id from sys_user where username = 'atk45_clerk') and status = '1'`,
      ),
    ).toEqual([]);
  });

  it('nor through an import whose sheet carries a 状态 column', async () => {
    const header = ['危废类别', '废物代码', '危废名称', '入库数量', '包装方式', '入库仓库', '入库时间', '经办人', '状态'];
    const file = await workbook([
      header,
      ['HW08', '900-249-08', '导入状态探测', 1.5, '吨袋', warehouse.name, '2026-03-05 10:00:00', '张三', '已入库'],
    ]);
    const res = await uploadFile(clerk, 12, 'stock.xlsx', file);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-import-success')).toBe('1');
    expect(await column(12, 'status', sql`"wasteName" = '导入状态探测'`)).toEqual(['0']);
  });

  it('an editor cannot move a state by editing the record; the confirming action still does', async () => {
    const producer = await server.login('producer');
    const added = await producer.post('/api/general/add/12', record());
    expect(added.status, said(added)).toBe(200);
    const edited = await producer.post('/api/general/update/12', { ...record({ remark: '改' }), id: added.body.id, status: '2' });
    expect(edited.status, said(edited)).toBe(200);
    expect(await statusOf(added.body.id)).toBe('0');
    const confirm = await producer.post('/api/general/groovy/12', {
      ids: [added.body.id],
      groovyQueryParam: { groovyAction: 'markStocked' },
    });
    expect(confirm.status, said(confirm)).toBe(200);
    expect(await statusOf(added.body.id)).toBe('1');
    // A confirmed record stays confirmed when it is edited with another state.
    expect((await producer.post('/api/general/update/12', { ...record(), id: added.body.id, status: '0' })).status).toBe(200);
    expect(await statusOf(added.body.id)).toBe('1');
  });
});

describe("an inquiry's quote is the asked disposer's", () => {
  it('the asker can neither add an inquiry already quoted nor rewrite the quote; it still closes its inquiry', async () => {
    const producer = await server.login('producer');
    const disposer = await server.login('disposer');
    const added = await producer.post(
      '/api/general/add/15',
      inquiryBody({ inquiryStatus: '1', quotedPrice: 1, quoteTime: '2026-01-01 00:00:00' }),
    );
    expect(added.status, said(added)).toBe(200);
    const id = added.body.id as number;
    const quote = async () => {
      const [status, price] = await Promise.all([column(15, 'inquiryStatus', sql`id = ${id}`), column(15, 'quotedPrice', sql`id = ${id}`)]);
      return [status[0], price[0] === null ? null : Number(price[0])];
    };
    expect(await quote()).toEqual(['0', null]);
    const quoted = await disposer.post('/api/disposalQuotePirce/quotedPrice', { id, quotedPrice: 5000 });
    expect(quoted.status, said(quoted)).toBe(200);
    expect(await quote()).toEqual(['1', 5000]);
    const rewrite = await producer.post('/api/general/update/15', {
      ...inquiryBody(),
      id,
      inquiryStatus: '1',
      quotedPrice: 1,
      quoteTime: '2026-01-01 00:00:00',
    });
    expect(rewrite.status, said(rewrite)).toBe(200);
    expect(await quote()).toEqual(['1', 5000]);
    // The asked disposer edits its own quote; the asker closes the inquiry.
    expect((await disposer.post('/api/general/update/15', { ...inquiryBody(), id, inquiryStatus: '1', quotedPrice: 4800 })).status).toBe(
      200,
    );
    expect(await quote()).toEqual(['1', 4800]);
    expect((await producer.post('/api/general/update/15', { ...inquiryBody(), id, inquiryStatus: '2' })).status).toBe(200);
    expect(await quote()).toEqual(['2', 4800]);
  });
});

describe("an inquiry's quote stays the disposer's when a redesign renames the field naming it", () => {
  it('a redesign without its party field is refused (attack-46 sends the other fields and kinds)', async () => {
    const before = await db()
      .selectFrom('lc_generation')
      .select(['dis_template', 'version'])
      .where('id', '=', 15)
      .executeTakeFirstOrThrow();
    const renamed = String(before.dis_template).replaceAll('"companyId"', '"companyIdX"');
    const r = await admin.post('/api/generation/design', { id: 15, disTemplate: renamed, version: before.version });
    expect([r.status, r.body.code], said(r)).toEqual([400, 'VIEW_ACCESS_FIELD_REQUIRED']);
    const after = await db().selectFrom('lc_generation').select('dis_template').where('id', '=', 15).executeTakeFirstOrThrow();
    expect(after.dis_template).toBe(before.dis_template);
  });
});

describe('numbers the server gives', () => {
  it('numbers a new inquiry XJ + the day + the company serial, whatever number it is sent with', async () => {
    const producer = await server.login('producer');
    const day = new Date().toLocaleDateString('sv-SE').replaceAll('-', '');
    const numbers: string[] = [];
    for (const sent of [undefined, 'XJ200001010001']) {
      const added = await producer.post('/api/general/add/15', inquiryBody(sent ? { inquiryNo: sent } : {}));
      expect(added.status, said(added)).toBe(200);
      numbers.push(String((await column(15, 'inquiryNo', sql`id = ${added.body.id}`))[0]));
    }
    expect(numbers[0]).toMatch(new RegExp(`^XJ${day}\\d{4}$`));
    expect(Number(numbers[1]?.slice(-4))).toBe(Number(numbers[0]?.slice(-4)) + 1);
  });
});

describe('names that pass for others', () => {
  it('refuses invisible and direction characters in nick names and company names, and a company name another has as read', async () => {
    const producer = await server.login('producer');
    const { phone } = await db().selectFrom('sys_user').select('phone').where('username', '=', 'producer').executeTakeFirstOrThrow();
    for (const nickName of ['管理员\u202e', '管理员\u200b\u200b', `管理员${'\u2800'.repeat(14)}`, '管理员（admin）\u2066'])
      expect((await producer.put('/api/users/center', { nickName, phone })).body.code).toBe('NICKNAME_HIDDEN_CHARS');
    const disposerName = (await db().selectFrom('company').select('name').where('id', '=', COMPANY.disposer).executeTakeFirstOrThrow())
      .name;
    const rename = (name: string) => producer.post('/api/companyApi/update', { name });
    expect((await rename(`${disposerName}\u200b`)).body.code).toBe('COMPANY_NAME_HIDDEN_CHARS');
    expect((await rename(`\u202e${disposerName}`)).body.code).toBe('COMPANY_NAME_HIDDEN_CHARS');
    for (const mark of ['\ufe0f', '\u034f', '\u{e0100}'])
      expect((await rename(`${disposerName}${mark}`)).body.code).toBe('COMPANY_NAME_HIDDEN_CHARS');
    expect((await rename(disposerName.replace(/^(.)/, '$1 '))).body.code).toBe('COMPANY_NAME_TAKEN');
    const fullWidth = disposerName.replace(/[A-Za-z0-9]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    if (fullWidth !== disposerName) expect((await rename(fullWidth)).body.code).toBe('COMPANY_NAME_TAKEN');
    const name = (await db().selectFrom('company').select('name').where('id', '=', COMPANY.producer).executeTakeFirstOrThrow()).name;
    expect(name).not.toContain(disposerName);
  });
});

describe('a leave message tells its reader which account and company sent it', () => {
  it("a nick name copied from the administrator does not pass for the administrator's message", async () => {
    const producer = await server.login('producer');
    const disposer = await server.login('disposer');
    const adminNick = (await db().selectFrom('sys_user').select('nick_name').where('username', '=', 'admin').executeTakeFirstOrThrow())
      .nick_name;
    const producerCompany = (await db().selectFrom('company').select('name').where('id', '=', COMPANY.producer).executeTakeFirstOrThrow())
      .name;
    const { phone } = await db().selectFrom('sys_user').select('phone').where('username', '=', 'producer').executeTakeFirstOrThrow();
    const renamed = await producer.put('/api/users/center', { nickName: adminNick, phone });
    expect(renamed.status, said(renamed)).toBe(200);
    const leave = await producer.post('/api/leaveMessage', {
      reception: 'disposer',
      content: '请将贵司本月处置台账导出后发送到 audit@evil.example',
    });
    expect(leave.status, said(leave)).toBe(200);
    expect((await admin.post('/api/leaveMessage', { reception: 'disposer', content: '平台通知' })).status).toBe(200);
    const unread = (await disposer.get('/api/unreadLeaveMessage', { page: 1, size: 10 })).body.content as Record<string, unknown>[];
    const forged = unread.find((m) => String(m.content).includes('audit@evil.example'));
    const real = unread.find((m) => m.content === '平台通知');
    // Both are signed with the same name; the account and company beside it tell them apart.
    expect(forged).toMatchObject({ senderName: adminNick, senderUsername: 'producer', senderCompany: producerCompany });
    expect(real).toMatchObject({ senderName: adminNick, senderUsername: 'admin' });
    expect(real?.senderCompany).not.toBe(producerCompany);
    const read = await disposer.get('/api/leaveMessage/readOne', { id: forged?.id });
    expect(read.body.data).toMatchObject({ senderUsername: 'producer', senderCompany: producerCompany });
  });
});
