import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../server/errors.js';
import { DEPT, MENU } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { accountMaker } from '../helpers/accounts.js';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, type ApiResponse, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Attack 36, third round: ordinary accounts against the add call that changes the record its body's id
 * names, the carrier's reach into orders not naming it, exports and imports by name, and a company
 * designer's reach into the platform's data views.
 * Failing when written (2026-11-29):
 * - the add and update calls read a body's id `true` as record 1 and `[5]` or ` 5` as record 5, so a
 *   form sending a flag or a list in its id changed a record it never showed.
 */

let server: TestServer;
const ACCOUNTS = ['producer', 'disposer', 'logistics', 'collector'] as const;
const as = {} as Record<'admin' | 'supervisor' | (typeof ACCOUNTS)[number], ApiClient>;
const said = (r: ApiResponse) => JSON.stringify(Buffer.isBuffer(r.body) ? `<${r.body.length} bytes>` : r.body).slice(0, 300);
const answer = (res: ApiResponse) => ({ status: res.status, code: res.body?.code, message: res.body?.message });
const refused = (res: ApiResponse, status: number, code: ErrorCode) => expect(answer(res), said(res)).toEqual(refusal(status, code));
type Row = Record<string, any>;

const {
  account,
  role,
  phone: nextPhone,
} = accountMaker(
  () => server,
  () => as.admin,
  '1374444',
);

const all = async (api: ApiClient, viewId: number) => (await api.get(`/api/general/list/${viewId}`, { size: 500 })).body.content as Row[];
const total = async (api: ApiClient, viewId: number) =>
  (await api.get(`/api/general/list/${viewId}`, { size: 1 })).body.totalElements as number;
const sheetText = async (buf: Buffer) => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  const out: string[] = [];
  wb.worksheets[0]?.eachRow((row) => {
    out.push(JSON.stringify(row.values));
  });
  return out.join('\n');
};

let companyDesigner: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  for (const u of ['admin', 'supervisor', ...ACCOUNTS] as const) as[u] = await server.login(u);
  const design = [MENU.lowcode, MENU.screen, 621, 622, 623, 624, MENU.dataView, 631, 632, 633];
  companyDesigner = (await account('atkc_design', DEPT.producers, COMPANY.producer, [await role('攻击c-企业设计', design)])).api;
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('the add call with an id in its body', () => {
  it('reads an id only as a whole number or its digits: a flag, a list or a padded text changes no record', async () => {
    const mine = await all(as.producer, 12);
    const own = mine[0] as Row;
    expect(own).toBeDefined();
    const before = (await as.admin.get('/api/general/detail', { generalId: 12, id: own.id })).body;
    const count = await total(as.admin, 12);
    const first = (await as.admin.get('/api/general/detail', { generalId: 12, id: 1 })).body;
    for (const path of ['/api/general/add/12', '/api/general/update/12']) {
      for (const id of [
        true,
        [own.id],
        [[own.id]],
        ` ${own.id}`,
        `${own.id} `,
        `${own.id}abc`,
        '0x1',
        '1e0',
        -1,
        0,
        1.5,
        2 ** 31,
        1e20,
        {},
        false,
      ]) {
        const r = await as.producer.post(path, { ...own, id, remark: '奇怪的编号' });
        expect([400, 404], `${path} id=${JSON.stringify(id)}: ${said(r)}`).toContain(r.status);
      }
    }
    refused(await as.producer.post('/api/general/add/12', { ...own, id: true }), 400, 'ID_REQUIRED');
    refused(await as.producer.post('/api/general/update/12', { ...own, id: [own.id] }), 400, 'ID_REQUIRED');
    expect(await total(as.admin, 12)).toBe(count);
    expect((await as.admin.get('/api/general/detail', { generalId: 12, id: own.id })).body).toEqual(before);
    expect((await as.admin.get('/api/general/detail', { generalId: 12, id: 1 })).body).toEqual(first);
    // Its digits and the number itself name the record.
    for (const id of [String(own.id), own.id])
      expect((await as.producer.post('/api/general/add/12', { ...own, id, remark: `按编号${typeof id}` })).body).toEqual({
        status: 200,
        message: '操作成功',
        id: own.id,
      });
  });

  it('an empty or null id adds a record; another company’s id changes nothing', async () => {
    const own = (await all(as.producer, 12))[0] as Row;
    const { id: _i, createTime: _c, updateTime: _u, createBy: _b, ...rest } = own;
    const count = await total(as.producer, 12);
    for (const id of [null, '']) {
      const r = await as.producer.post('/api/general/add/12', { ...rest, id, stockNo: undefined });
      expect(r.status, said(r)).toBe(200);
      expect(r.body.id).not.toBe(own.id);
    }
    expect(await total(as.producer, 12)).toBe(count + 2);
    const ownIds = new Set((await all(as.producer, 12)).map((r) => r.id));
    const foreign = (await all(as.admin, 12)).find((r) => !ownIds.has(r.id));
    expect(foreign).toBeDefined();
    const was = (await as.admin.get('/api/general/detail', { generalId: 12, id: foreign?.id })).body;
    for (const path of ['/api/general/add/12', '/api/general/update/12'])
      for (const method of ['POST', 'PUT'] as const)
        for (const id of [foreign?.id, String(foreign?.id)]) {
          const r = await as.producer.request(method, path, { json: { ...foreign, id, remark: '他人的' } });
          expect(r.status, `${method} ${path}: ${said(r)}`).toBe(404);
        }
    expect((await as.admin.get('/api/general/detail', { generalId: 12, id: foreign?.id })).body).toEqual(was);
  });

  it('no system column is written through the body: creator, company and times stay', async () => {
    const own = (await all(as.producer, 12))[0] as Row;
    const before = (await as.admin.get('/api/general/detail', { generalId: 12, id: own.id })).body;
    const forged: Row = {
      ...own,
      createBy: 'admin',
      create_by: 'admin',
      createCompany: COMPANY.disposer,
      create_company: COMPANY.disposer,
      companyId: COMPANY.disposer,
      company_id: COMPANY.disposer,
      createTime: '2000-01-01 00:00:00',
      create_time: '2000-01-01 00:00:00',
      deleted: 1,
      del_flag: 1,
    };
    for (const path of ['/api/general/add/12', '/api/general/update/12']) {
      const r = await as.producer.post(path, forged);
      expect(r.status, said(r)).toBe(200);
    }
    const after = (await as.admin.get('/api/general/detail', { generalId: 12, id: own.id })).body;
    for (const k of ['createBy', 'createCompany', 'createTime', 'companyId']) if (k in before) expect(after[k], k).toEqual(before[k]);
    expect((await all(as.producer, 12)).some((r) => r.id === own.id)).toBe(true);
    // A new record made with forged system columns is the producer's own.
    const { id: _i, ...rest } = forged;
    const made = await as.producer.post('/api/general/add/12', { ...rest, stockNo: undefined });
    expect(made.status, said(made)).toBe(200);
    expect((await all(as.producer, 12)).some((r) => r.id === made.body.id)).toBe(true);
    expect((await all(as.disposer, 12)).some((r) => r.id === made.body.id)).toBe(false);
  });

  it('an account that may add but not edit changes nothing by naming an id', async () => {
    // The supervisor reads contracts; the producer adds and edits its own. A narrow account may only add.
    const adder = (
      await account('atkc_adder', DEPT.producers, COMPANY.producer, [
        await role('攻击c-只可新增', [MENU.dashboard, MENU.waste, 1012, 3121], '本企业', COMPANY.producer),
      ])
    ).api;
    const own = (await all(as.producer, 12))[0] as Row;
    const was = (await as.admin.get('/api/general/detail', { generalId: 12, id: own.id })).body;
    for (const path of ['/api/general/add/12', '/api/general/update/12']) {
      const r = await adder.post(path, { ...own, remark: '只可新增' });
      expect(r.status, `${path}: ${said(r)}`).toBe(403);
    }
    expect((await as.admin.get('/api/general/detail', { generalId: 12, id: own.id })).body).toEqual(was);
  });
});

describe('a carrier and the orders not naming it', () => {
  for (const viewId of [19, 20]) {
    it(`reads and changes no order of view ${viewId} outside its rows, by any path`, async () => {
      const mine = await all(as.logistics, viewId);
      const ownIds = new Set(mine.map((r) => r.id));
      const foreign = (await all(as.admin, viewId)).filter((r) => !ownIds.has(r.id));
      expect(foreign.length).toBeGreaterThan(0);
      const f = foreign[0] as Row;
      const was = (await as.admin.get('/api/general/detail', { generalId: viewId, id: f.id })).body;
      const listed = await as.logistics.get(`/api/general/list/${viewId}`, { id: f.id });
      expect(listed.status === 200 ? listed.body.content : [], said(listed)).toEqual([]);
      for (const q of [{ id: `${f.id}` }, { 'id[]': f.id }, { ids: f.id }, { 'id.eq': f.id }]) {
        const r = await as.logistics.get(`/api/general/list/${viewId}`, q);
        if (r.status === 200) for (const row of r.body.content) expect(ownIds.has(row.id), JSON.stringify(q)).toBe(true);
      }
      expect((await as.logistics.get('/api/general/detail', { generalId: viewId, id: f.id })).status).not.toBe(200);
      for (const path of [`/api/general/add/${viewId}`, `/api/general/update/${viewId}`]) {
        const r = await as.logistics.post(path, { ...f, remark: '承运方改' });
        expect([403, 404], `${path}: ${said(r)}`).toContain(r.status);
      }
      const del = await as.logistics.post(`/api/general/delete/${viewId}`, [f.id]);
      expect(del.status === 200 ? (await as.admin.get('/api/general/detail', { generalId: viewId, id: f.id })).status : 200).toBe(200);
      expect((await as.admin.get('/api/general/detail', { generalId: viewId, id: f.id })).body).toEqual(was);
      const form = await as.logistics.get('/api/general/formData', { generalId: viewId, id: f.id });
      expect(form.status, said(form)).not.toBe(200);
      for (const q of [{}, { queryParam: JSON.stringify({ id: f.id }) }, { queryParam: `id=${f.id}` }]) {
        const link = await as.logistics.get(`/api/general/allList/${viewId}/queryLink`, q);
        if (link.status === 200) for (const o of link.body) expect(ownIds.has(o.value), said(link)).toBe(true);
      }
      if (viewId === 20)
        for (const path of ['/api/logisticsOrder/getLogisticsLinkman', '/api/logisticsOrder/getTransportInfo']) {
          const r = await as.logistics.get(path, { id: f.id });
          expect(r.status, `${path}: ${said(r)}`).toBe(404);
        }
      const exported = await as.logistics.get(`/api/general/export/${viewId}/download`, { id: f.id, fields: 'id' });
      if (exported.status === 200) {
        const text = await sheetText(exported.body);
        for (const r of foreign) expect(text.includes(`,${r.id}]`) || text.includes(`,${r.id},`), `${r.id}`).toBe(false);
      }
    });
  }
});

describe('a company designer and the platform data views', () => {
  it('runs no SQL and saves no data view, however the table is spelled', async () => {
    for (const sqlText of [
      'select (u).password from sys_user u',
      'select u.password from sys_user u',
      'select "password" from "sys_user"',
      'select * from public.sys_user',
      'select 1',
    ]) {
      const r = await companyDesigner.post('/api/data/run', { sql: sqlText });
      expect(r.status, `${sqlText}: ${said(r)}`).toBe(403);
      const a = await companyDesigner.post('/api/data/add', { name: 'x', sql: sqlText });
      expect(a.status, `${sqlText}: ${said(a)}`).toBe(403);
      const u = await companyDesigner.post('/api/data/update', { id: 1, name: 'x', sql: sqlText });
      expect(u.status, `${sqlText}: ${said(u)}`).toBe(403);
    }
    for (const [path, body] of [
      ['/api/screen/add', { name: '攻击', status: 1 }],
      ['/api/screen/update', { id: 50, name: 'x', status: 0 }],
      ['/api/screen/design', { id: 50, disTemplate: '{}' }],
    ] as const) {
      const r = await companyDesigner.post(path, body);
      expect(r.status, `${path}: ${said(r)}`).toBe(403);
    }
  });
});

describe("a company's user editor and the company a user belongs to", () => {
  it('moves no user, itself included, out of its company or into the platform', async () => {
    const hrRole = await role(
      '攻击c-企业人事',
      [MENU.dashboard, MENU.system, MENU.user, MENU.user * 10 + 1, MENU.user * 10 + 2, MENU.user * 10 + 3],
      '本企业',
      COMPANY.producer,
    );
    const hr = await account('atkc_hr', DEPT.producers, COMPANY.producer, [hrRole]);
    const clerkRole = await role('攻击c-企业文员', [MENU.dashboard], '本企业', COMPANY.producer);
    const clerk = await hr.api.post('/api/users', {
      username: 'atkc_clerk',
      nickName: '文员',
      phone: nextPhone(),
      deptId: DEPT.producers,
      companyId: COMPANY.producer,
      roles: [{ id: clerkRole }],
    });
    expect(clerk.status, said(clerk)).toBe(201);
    const where = async (id: number) =>
      server.ctx.db.selectFrom('sys_user').select(['company_id', 'dept_id', 'username']).where('id', '=', id).executeTakeFirstOrThrow();
    const clerkWas = await where(clerk.body.id);
    const hrWas = await where(hr.id);
    for (const id of [clerk.body.id, hr.id])
      for (const change of [
        { companyId: COMPANY.disposer },
        { companyId: null },
        { deptId: DEPT.ops },
        { deptId: DEPT.disposers },
        { dept: { id: DEPT.platform } },
        { company: COMPANY.disposer },
        { username: 'admin' },
      ]) {
        const r = await hr.api.put('/api/users', { id, ...change });
        expect(r.status === 200 || r.status >= 400, said(r)).toBe(true);
      }
    const clerkNow = await where(clerk.body.id);
    const hrNow = await where(hr.id);
    expect({ c: clerkNow.company_id, d: clerkNow.dept_id, u: clerkNow.username }).toEqual({
      c: clerkWas.company_id,
      d: clerkWas.dept_id,
      u: clerkWas.username,
    });
    expect({ c: hrNow.company_id, d: hrNow.dept_id, u: hrNow.username }).toEqual({
      c: hrWas.company_id,
      d: hrWas.dept_id,
      u: hrWas.username,
    });
    for (const body of [
      { companyId: COMPANY.disposer, deptId: DEPT.disposers },
      { companyId: null, deptId: DEPT.ops },
      { companyId: COMPANY.producer, deptId: DEPT.ops },
    ]) {
      const r = await hr.api.post('/api/users', {
        username: `atkc_x${nextPhone()}`,
        nickName: 'x',
        phone: nextPhone(),
        roles: [{ id: clerkRole }],
        ...body,
      });
      expect(r.status, said(r)).toBeGreaterThanOrEqual(400);
    }
  });
});

describe('a platform designer who is not an administrator, and the data-view guard', () => {
  it('reads no account table however a name is spelled', async () => {
    const design = [MENU.lowcode, MENU.screen, 621, 622, 623, 624, MENU.dataView, 631, 632, 633];
    const designer = (await account('atkc_design_pf', DEPT.ops, null, [await role('攻击c-平台设计', design, '全部', null, 2)])).api;
    expect((await designer.post('/api/data/run', { sql: 'select 1 as x' })).status).toBe(200);
    for (const text of [
      'select (u).password from sys_user u',
      'select u.password from sys_user u',
      'select "password" from "sys_user"',
      'select password from public.sys_user',
      'select password from "public"."sys_user"',
      'select password from U&"sys\\005fuser"',
      'select (c).name from company c',
      'select c.password from company c',
      'select x.password from (select 1) x',
      'select name from company where id in (select id from sys_user)',
      'with t as (select * from sys_user) select * from t',
      'select * from pg_catalog.pg_shadow',
      'select * from information_schema.tables',
      'select "current_user"()',
      "select current_setting('is_superuser')",
      'select lc_view_12 from lc_view_12',
      'select share_key from lc_screen',
    ]) {
      const r = await designer.post('/api/data/run', { sql: text });
      expect(r.status, `${text}: ${said(r)}`).toBe(400);
    }
  });
});

describe('处置方式 on the form', () => {
  it('takes top-level disposal processes only, however the ids are spelled', async () => {
    const top = await server.ctx.db
      .selectFrom('disposal_process')
      .select('id')
      .where('pid', 'is', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const sub = await server.ctx.db
      .selectFrom('disposal_process')
      .select('id')
      .where('pid', 'is not', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const own = (await all(as.disposer, 19))[0] as Row;
    expect(own).toBeDefined();
    const was = (await as.admin.get('/api/general/detail', { generalId: 19, id: own.id })).body.processMethods;
    for (const methods of [
      `${sub.id}`,
      `${top.id},${sub.id}`,
      `${top.id}, ${sub.id}`,
      `${top.id},,${sub.id}`,
      `0${sub.id}`,
      [top.id, sub.id],
      `${top.id},-1`,
      `${top.id},x`,
      '99999999999999999999',
    ])
      for (const path of ['/api/general/add/19', '/api/general/update/19']) {
        const r = await as.disposer.post(path, { ...own, processMethods: methods });
        expect(r.status, `${path} ${JSON.stringify(methods)}: ${said(r)}`).toBe(400);
      }
    expect((await as.admin.get('/api/general/detail', { generalId: 19, id: own.id })).body.processMethods).toEqual(was);
  });
});
