import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPT, MENU } from '../../server/seed/accounts.js';
import { COMPANY, viewMenuId } from '../../server/seed/ids.js';
import { HIDDEN_IN_NAMES } from '../../src/shared/person-rule.js';
import { accountMaker } from '../helpers/accounts.js';
import { inquiryBody } from '../helpers/inquiry.js';
import { buttons } from '../helpers/probes.js';
import { said } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, TEST_CAPTCHA, type TestServer } from '../helpers/server.js';
import { uploadFile, workbook } from '../helpers/sheets.js';
import { field } from '../helpers/wire-field.js';

/**
 * Attack 46: a redesign that drops the fields access reads, names that hide characters in roles,
 * departments and contacts, and a party that edits or deletes the record its counterparty created.
 * Each probe sends the forbidden request and asserts the SAFE behaviour.
 */

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;
let disposer: ApiClient;
const db = () => server.ctx.db;

const { account, role } = accountMaker(
  () => server,
  () => admin,
  '1374646',
);

beforeAll(async () => {
  server = await startTestServer();
  [admin, producer, disposer] = await Promise.all([server.login('admin'), server.login('producer'), server.login('disposer')]);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** A view's page menu with all its buttons (add, edit, del, look, pre). */
const viewFull = (viewId: number) => [viewMenuId(viewId), ...[1, 2, 3, 4, 5].map((a) => 3000 + viewId * 10 + a)];

/** One column of the rows of a view's table that match `where`. */
const column = async (viewId: number, name: string, where: RawBuilder<boolean>) =>
  (
    await sql<Record<string, unknown>>`select ${sql.ref(name)} as v from ${sql.table(`lc_view_${viewId}`)} where ${where}`.execute(db())
  ).rows.map((r) => r.v);
const cellOf = async (viewId: number, id: number, name: string) => (await column(viewId, name, sql`id = ${id}`))[0];
const exists = async (viewId: number, id: number) => (await column(viewId, 'id', sql`id = ${id}`)).length === 1;

type Wire = { name: string; dataType: string; configure: Record<string, unknown> };
type Template = { tableOption?: Wire[]; formOption?: Wire[] | null } & Record<string, unknown>;

/** A stored view definition's template and menu. */
async function stored(viewId: number): Promise<{ template: Template; text: string; menu: string | null }> {
  const row = await db()
    .selectFrom('lc_generation')
    .select(['dis_template', 'dis_menu'])
    .where('id', '=', viewId)
    .executeTakeFirstOrThrow();
  return { template: JSON.parse(String(row.dis_template)), text: String(row.dis_template), menu: row.dis_menu };
}

/** A template whose field `name` (in both lists, or the form's alone) is changed by `change`, or dropped when it answers null. */
function reworked(template: Template, name: string, change: (f: Wire) => Wire | null, formOnly = false): Template {
  const apply = (list: Wire[] | null | undefined) =>
    list ? list.flatMap((f) => (f.name === name ? [change(structuredClone(f))].filter((x): x is Wire => x !== null) : [f])) : list;
  return {
    ...template,
    tableOption: formOnly ? template.tableOption : (apply(template.tableOption) ?? undefined),
    formOption: apply(template.formOption),
  };
}

/** Saves a design of view `viewId` as the administrator, at its current version. */
async function design(viewId: number, template: Template | string, disMenu?: string) {
  const { version } = await db().selectFrom('lc_generation').select('version').where('id', '=', viewId).executeTakeFirstOrThrow();
  const disTemplate = typeof template === 'string' ? template : JSON.stringify(template);
  return admin.post('/api/generation/design', { id: viewId, disTemplate, version, ...(disMenu ? { disMenu } : {}) });
}

describe('a redesign keeps the fields that decide who reads and writes a record', () => {
  it('refuses to rename or drop a party, recipient or quote field, and to change its kind; the seeded designs still save', async () => {
    // Renamed with every reference to it, as a designer's rename is.
    const renaming = (from: string, to: string) => (text: string) => text.replaceAll(from, to);
    for (const [viewId, name, rename] of [
      [15, 'companyId', renaming('"companyId"', '"companyIdX"')],
      [15, 'quotedPrice', renaming('quotedPrice', 'quotePrice')],
      [19, 'disposerId', renaming('disposerId', 'disposerCompany')],
    ] as const) {
      const before = await stored(viewId);
      const r = await design(viewId, rename(before.text));
      expect([r.status, r.body.code], `${viewId}.${name}: ${said(r)}`).toEqual([400, 'VIEW_ACCESS_FIELD_REQUIRED']);
      expect(r.body.message).toContain(name);
      expect((await stored(viewId)).text).toBe(before.text);
    }
    const cases: [viewId: number, field: string, change: (f: Wire) => Wire | null, formOnly?: boolean][] = [
      [15, 'companyId', (f) => ({ ...f, configure: { ...f.configure, show: 3 } }), true],
      [16, 'partyBId', (f) => ({ ...f, configure: { ...f.configure, sportData_url: '/api/dept/find', sportData_type: 'tree' } })],
      [16, 'partyAId', (f) => ({ ...f, configure: { ...f.configure, sportData: false } })],
      [19, 'carrierId', () => null],
      [19, 'producerId', (f) => ({ ...f, dataType: 'varchar' })],
      [20, 'disposalOrderId', (f) => ({ ...f, configure: { ...f.configure, sportData_url: '/api/general/allList/16/queryLink' } })],
      [18, 'deptId', (f) => ({ ...f, name: 'toDept' })],
      [18, 'deptId', (f) => ({ ...f, configure: { ...f.configure, sportData_url: '/api/company/list', sportData_type: 'list' } })],
    ];
    for (const [viewId, name, change, formOnly] of cases) {
      const before = await stored(viewId);
      const r = await design(viewId, reworked(before.template, name, change, formOnly));
      expect([r.status, r.body.code], `${viewId}.${name}: ${said(r)}`).toEqual([400, 'VIEW_ACCESS_FIELD_REQUIRED']);
      expect(r.body.message).toContain(name);
      expect((await stored(viewId)).text).toBe(before.text);
    }
    // The CLI's push (an update carrying the template) is judged alike.
    const contract = await stored(16);
    const { version } = await db().selectFrom('lc_generation').select('version').where('id', '=', 16).executeTakeFirstOrThrow();
    const pushed = await admin.post('/api/generation/update', {
      id: 16,
      name: '合同管理',
      version,
      disTemplate: JSON.stringify(reworked(contract.template, 'partyAId', (f) => ({ ...f, name: 'partyA' }))),
    });
    expect([pushed.status, pushed.body.code], said(pushed)).toEqual([400, 'VIEW_ACCESS_FIELD_REQUIRED']);
    for (const viewId of [15, 16, 18, 19, 20]) {
      const same = await design(viewId, (await stored(viewId)).text);
      expect(same.status, `${viewId}: ${said(same)}`).toBe(200);
    }
  });

  it('refuses a new view, or a view renamed, into such a componentName without those fields; with them, while another view holds it', async () => {
    const menuOf = (componentName: string) => JSON.stringify({ componentName, name: '攻46视图', pid: MENU.lowcode });
    const bare = JSON.stringify({
      basicOption: { sortName: 'id', sortType: 'desc' },
      tableOption: [field('title', '标题', 'varchar', { search: true }), field('partyAId', '甲方', 'long')],
      formOption: [field('title', '标题', 'varchar', { required: true }), field('partyAId', '甲方', 'long')],
    });
    const made = await admin.post('/api/generation/add', { name: '攻46合同', disMenu: menuOf('contract'), disTemplate: bare });
    expect([made.status, made.body.code], said(made)).toEqual([400, 'VIEW_ACCESS_FIELD_REQUIRED']);
    expect(await db().selectFrom('lc_generation').select('id').where('name', '=', '攻46合同').execute()).toEqual([]);

    const fresh = await admin.post('/api/generation/add', { name: '攻46视图', disMenu: menuOf('atk46Notes'), disTemplate: bare });
    expect(fresh.status, said(fresh)).toBe(200);
    const id = fresh.body.id as number;
    try {
      for (const name of ['disposalOrder', 'leaveMessage', 'logisticsOrder']) {
        const renamed = await admin.post('/api/generation/update', { id, name: '攻46视图', disMenu: menuOf(name) });
        expect([renamed.status, renamed.body.code], `${name}: ${said(renamed)}`).toEqual([400, 'VIEW_ACCESS_FIELD_REQUIRED']);
        const designed = await design(id, bare, menuOf(name));
        expect([designed.status, designed.body.code], `${name}: ${said(designed)}`).toEqual([400, 'VIEW_ACCESS_FIELD_REQUIRED']);
      }
      expect(JSON.parse((await stored(id)).menu ?? '{}').componentName).toBe('atk46Notes');
      // Holding the order's fields as the seeded order view does, it still cannot take the name: the
      // seeded view holds it, and one view only decides who reads such records.
      const order = await design(id, (await stored(19)).text, menuOf('disposalOrder'));
      expect([order.status, order.body.code], said(order)).toEqual([400, 'VIEW_ACCESS_NAME_SHARED']);
      expect(JSON.parse((await stored(id)).menu ?? '{}').componentName).toBe('atk46Notes');
    } finally {
      await admin.post('/api/generation/delete', [id]);
    }
  });
});

describe('role, department and contact names hold no hidden characters, and role names are told apart as they read', () => {
  const hidden = ['\u200b', '\u202e', '\u2800'.repeat(3), '\u3164', '\ufe0f', '\u{e0041}'];

  it('refuses them on adding and renaming a role, and a role name that reads as another', async () => {
    const add = (name: string) => admin.post('/api/roles', { name, level: 3, dataScope: '本企业', menus: [] });
    for (const mark of hidden) expect((await add(`攻46角色${mark}`)).body.code, JSON.stringify(mark)).toBe('ROLE_NAME_HIDDEN_CHARS');
    expect((await add('产废 企业')).body.code).toBe('ROLE_NAME_TAKEN');
    const made = await add('ABC攻46');
    expect(made.status, said(made)).toBe(201);
    expect((await add('ＡＢＣ攻46')).body.code).toBe('ROLE_NAME_TAKEN');
    const rename = (name: string) => admin.put('/api/roles', { id: made.body.id, name, level: 3, dataScope: '本企业' });
    expect((await rename('超级管理员\u200b')).body.code).toBe('ROLE_NAME_HIDDEN_CHARS');
    expect((await rename('超级管理员 ')).body.code).toBe('ROLE_NAME_TAKEN');
    expect((await rename('超级　管理员')).body.code).toBe('ROLE_NAME_TAKEN');
    expect((await rename('ABC攻46改')).status).toBe(200);
    const names = (await db().selectFrom('sys_role').select('name').execute()).map((r) => r.name);
    expect(names.filter((n) => n.includes('ABC攻46') || n.includes('ＡＢＣ'))).toEqual(['ABC攻46改']);
    expect(names.filter((n) => HIDDEN_IN_NAMES.test(n))).toEqual([]);
  });

  it('refuses them on adding and renaming a department, also by a company manager', async () => {
    const managerRole = await role('攻46-部门管理', [MENU.system, MENU.dept, ...buttons(MENU.dept)]);
    const manager = (await account('atk46_deptmgr', DEPT.producers, COMPANY.producer, [managerRole])).api;
    for (const mark of hidden) {
      const r = await manager.post('/api/dept', { name: `监管部门${mark}`, pid: DEPT.producers, deptSort: 1, enabled: true });
      expect([r.status, r.body.code], `${JSON.stringify(mark)}: ${said(r)}`).toEqual([400, 'DEPT_NAME_HIDDEN_CHARS']);
    }
    const made = await manager.post('/api/dept', { name: '攻46部门', pid: DEPT.producers, deptSort: 1, enabled: true });
    expect(made.status, said(made)).toBe(201);
    const renamed = await manager.put('/api/dept', {
      id: made.body.id,
      name: '攻46\u202e门部',
      pid: DEPT.producers,
      deptSort: 1,
      enabled: true,
    });
    expect([renamed.status, renamed.body.code], said(renamed)).toEqual([400, 'DEPT_NAME_HIDDEN_CHARS']);
    const top = await admin.put('/api/dept', { id: DEPT.producers, name: `产废企业部${'\u2800'}`, deptSort: 2, enabled: true });
    expect(top.body.code).toBe('DEPT_NAME_HIDDEN_CHARS');
    const names = await db().selectFrom('sys_dept').select('name').where('company_id', '=', COMPANY.producer).execute();
    expect(names.map((d) => d.name).filter((n) => HIDDEN_IN_NAMES.test(n))).toEqual([]);
  });

  it("refuses them in a company's contact and in an applicant's name, which becomes the first account's nick name", async () => {
    const contact = await producer.post('/api/companyApi/update', { contactName: '张经理\u202e' });
    expect([contact.status, contact.body.code], said(contact)).toEqual([400, 'CONTACT_NAME_HIDDEN_CHARS']);
    const uuid = String((await server.api.get('/api/auth/code')).body.uuid);
    const applied = await server.api.post('/api/companyApplication/insert', {
      name: '攻46环保科技有限公司',
      type: '1',
      region: '320000,320100,320113',
      applicant: '管理员\u200b',
      phone: '13746460001',
      source: 2,
      code: TEST_CAPTCHA,
      uuid,
    });
    expect([applied.status, applied.body.code], said(applied)).toEqual([400, 'APPLICANT_HIDDEN_CHARS']);
    expect(await db().selectFrom('company_application').select('id').where('name', '=', '攻46环保科技有限公司').execute()).toEqual([]);
  });
});

describe('a party that did not create a record neither deletes it nor edits what is not its own', () => {
  let producerWriter: ApiClient;

  beforeAll(async () => {
    // A producer's account that may write contracts and orders, as a disposer's may.
    const writes = await role('攻46-产废写合同订单', [MENU.dispose, ...viewFull(16), ...viewFull(19)]);
    producerWriter = (await account('atk46_writer', DEPT.producers, COMPANY.producer, [writes])).api;
  });

  const contract = (no: string, more: Record<string, unknown> = {}) => ({
    contractNo: no,
    contractName: '攻46危废处置合同',
    partyAId: COMPANY.producer,
    partyBId: COMPANY.disposer,
    amount: 1000,
    signDate: '2026-03-01',
    beginDate: '2026-03-01',
    endDate: '2026-12-31',
    contractStatus: '0',
    ...more,
  });
  const order = (more: Record<string, unknown> = {}) => ({
    producerId: COMPANY.producer,
    disposerId: COMPANY.disposer,
    carrierId: COMPANY.logistics,
    wasteCategory: 'HW08',
    quantity: 2,
    price: 300,
    orderStatus: '0',
    ...more,
  });

  it("the asked disposer writes only its quote on the producer's inquiry, and deletes none", async () => {
    const added = await producer.post('/api/general/add/15', inquiryBody({ quantity: 1 }));
    expect(added.status, said(added)).toBe(200);
    const id = added.body.id as number;
    const del = await disposer.post('/api/general/delete/15', [id]);
    expect([del.status, del.body.code], said(del)).toEqual([403, 'RECORD_PARTY_DELETE_DENIED']);
    expect(await exists(15, id)).toBe(true);
    for (const body of [{ quantity: 99 }, { inquiryStatus: '2' }, { companyId: COMPANY.disposer2 }, { inquiryStatus: '0', remark: '改' }]) {
      const r = await disposer.post('/api/general/update/15', { id, ...body });
      expect([r.status, r.body.code], `${JSON.stringify(body)}: ${said(r)}`).toEqual([403, 'RECORD_PARTY_EDIT_DENIED']);
    }
    // The edit form sends every field: the quote is taken, the rest kept as the producer wrote it.
    const quoted = await disposer.post('/api/general/update/15', {
      ...inquiryBody({ quantity: 99, companyId: COMPANY.disposer2, remark: '处置企业改写' }),
      id,
      inquiryStatus: '1',
      quotedPrice: 4200,
      quoteTime: '2026-03-02 10:00:00',
    });
    expect(quoted.status, said(quoted)).toBe(200);
    expect(
      await Promise.all(['quantity', 'companyId', 'remark', 'inquiryStatus', 'quotedPrice'].map((n) => cellOf(15, id, n))).then((v) =>
        v.map((x) => (typeof x === 'string' && /^\d+(\.\d+)?$/.test(x) ? Number(x) : x)),
      ),
    ).toEqual([1, COMPANY.disposer, null, 1, 4200]);
    // Its own states: 已驳回 too.
    expect((await disposer.post('/api/general/update/15', { id, inquiryStatus: '3' })).status).toBe(200);
    expect(await cellOf(15, id, 'inquiryStatus')).toBe('3');
    // Rejected (or closed by the producer), it is no longer the disposer's to quote on, as the quote call says.
    const late = await disposer.post('/api/general/update/15', { id, inquiryStatus: '1', quotedPrice: 1 });
    expect([late.status, late.body.code], said(late)).toEqual([403, 'RECORD_PARTY_EDIT_DENIED']);
    expect([await cellOf(15, id, 'inquiryStatus'), Number(await cellOf(15, id, 'quotedPrice'))]).toEqual(['3', 4200]);
    // The producer, which created it, deletes it.
    expect((await producer.post('/api/general/delete/15', [id])).status).toBe(200);
    expect(await exists(15, id)).toBe(false);
  });

  it("a contract's and an order's counterparty edits and deletes nothing of them, one by one or in a batch; the creator does", async () => {
    const signed = await disposer.post('/api/general/add/16', contract('HT2026-4601'));
    expect(signed.status, said(signed)).toBe(200);
    const placed = await disposer.post('/api/general/add/19', order());
    expect(placed.status, said(placed)).toBe(200);
    const own = await producerWriter.post('/api/general/add/16', contract('HT2026-4602'));
    expect(own.status, said(own)).toBe(200);
    const contractId = signed.body.id as number;
    const orderId = placed.body.id as number;
    const ownId = own.body.id as number;

    for (const [viewId, id, body] of [
      [16, contractId, { ...contract('HT2026-4601'), contractStatus: '2' }],
      [16, contractId, { contractStatus: '4' }],
      [16, contractId, { amount: 1 }],
      [19, orderId, { ...order(), orderStatus: '2' }],
      [19, orderId, { price: 1 }],
    ] as const) {
      for (const call of ['update', 'add'] as const) {
        const r = await producerWriter.post(`/api/general/${call}/${viewId}`, { ...body, id });
        expect([r.status, r.body.code], `${call} ${viewId} ${JSON.stringify(body)}: ${said(r)}`).toEqual([403, 'RECORD_PARTY_EDIT_DENIED']);
      }
    }
    expect([await cellOf(16, contractId, 'contractStatus'), Number(await cellOf(16, contractId, 'amount'))]).toEqual(['0', 1000]);
    expect([await cellOf(19, orderId, 'orderStatus'), Number(await cellOf(19, orderId, 'price'))]).toEqual(['0', 300]);

    for (const [viewId, ids] of [
      [16, [contractId]],
      [16, [ownId, contractId]],
      [19, [orderId]],
    ] as const) {
      const r = await producerWriter.post(`/api/general/delete/${viewId}`, ids);
      expect([r.status, r.body.code], `${viewId} ${ids}: ${said(r)}`).toEqual([403, 'RECORD_PARTY_DELETE_DENIED']);
    }
    expect([await exists(16, contractId), await exists(16, ownId), await exists(19, orderId)]).toEqual([true, true, true]);

    // Each creator edits and deletes its own: the disposer its contract and order, the producer its contract.
    expect((await disposer.post('/api/general/update/16', { id: contractId, contractStatus: '2' })).status).toBe(200);
    expect(await cellOf(16, contractId, 'contractStatus')).toBe('2');
    expect((await producerWriter.post('/api/general/update/16', { id: ownId, contractStatus: '1' })).status).toBe(200);
    expect((await producerWriter.post('/api/general/delete/16', [ownId])).status).toBe(200);
    expect((await disposer.post('/api/general/delete/16', [contractId])).status).toBe(200);
    expect((await disposer.post('/api/general/delete/19', [orderId])).status).toBe(200);
    // Accounts of 全部 write every record.
    const again = await disposer.post('/api/general/add/19', order());
    expect((await admin.post('/api/general/update/19', { id: again.body.id, orderStatus: '1' })).status).toBe(200);
    expect((await admin.post('/api/general/delete/19', [again.body.id])).status).toBe(200);
  });

  it("an import only adds records of the importer: a sheet naming the counterparty's record by id changes nothing of it", async () => {
    const signed = await disposer.post('/api/general/add/16', contract('HT2026-4603'));
    expect(signed.status, said(signed)).toBe(200);
    const names = await db().selectFrom('company').select(['id', 'name']).where('id', 'in', [COMPANY.producer, COMPANY.disposer]).execute();
    const nameOf = (id: number) => names.find((c) => c.id === id)?.name;
    const file = await workbook([
      ['id', '合同编号', '合同名称', '甲方（产废单位）', '乙方（处置单位）', '合同金额', '签订日期', '生效日期', '到期日期', '合同状态'],
      [
        signed.body.id,
        'HT2026-4603',
        '攻46导入改写',
        nameOf(COMPANY.producer),
        nameOf(COMPANY.disposer),
        1,
        '2026-03-01',
        '2026-03-01',
        '2026-12-31',
        '生效中',
      ],
    ]);
    const res = await uploadFile(producerWriter, 16, 'contract.xlsx', file);
    expect(res.status).toBe(200);
    expect([await cellOf(16, signed.body.id, 'contractName'), await cellOf(16, signed.body.id, 'contractStatus')]).toEqual([
      '攻46危废处置合同',
      '0',
    ]);
    const imported = await column(16, 'create_company', sql`"contractName" = '攻46导入改写'`);
    expect(imported.map(Number)).toEqual(res.headers.get('x-import-success') === '1' ? [COMPANY.producer] : []);
  });
});
