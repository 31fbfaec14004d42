import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../server/errors.js';
import { DEPT, MENU } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { accountMaker } from '../helpers/accounts.js';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, type ApiResponse, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Attack 37: ordinary accounts (a company designer, a company user editor, a company role editor, the demo
 * producer, disposer and carrier) against the add call whose body names an id, the labels an export
 * writes, and the data-view guard.
 */

let server: TestServer;
const ACCOUNTS = ['producer', 'disposer', 'logistics'] as const;
const as = {} as Record<'admin' | (typeof ACCOUNTS)[number], ApiClient>;
const said = (r: ApiResponse) => JSON.stringify(Buffer.isBuffer(r.body) ? `<${r.body.length} bytes>` : r.body).slice(0, 300);
const answer = (res: ApiResponse) => ({ status: res.status, code: res.body?.code, message: res.body?.message });
const refused = (res: ApiResponse, status: number, code: ErrorCode) => expect(answer(res), said(res)).toEqual(refusal(status, code));
type Row = Record<string, any>;

const { account, role } = accountMaker(
  () => server,
  () => as.admin,
  '1375555',
);

const all = async (api: ApiClient, viewId: number) => (await api.get(`/api/general/list/${viewId}`, { size: 500 })).body.content as Row[];
const stored = async (viewId: number, id: number) =>
  server.ctx.db
    .selectFrom(`lc_view_${viewId}` as any)
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
const sheetText = async (buf: Buffer) => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  const out: string[] = [];
  wb.worksheets[0]?.eachRow((row) => {
    out.push(JSON.stringify(row.values));
  });
  return out.join('\n');
};

let designer: ApiClient;
let userEditor: ApiClient;
let roleEditor: ApiClient;
let adder: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  for (const u of ['admin', ...ACCOUNTS] as const) as[u] = await server.login(u);
  const design = [MENU.lowcode, MENU.screen, 621, 622, 623, 624, MENU.dataView, 631, 632, 633];
  designer = (await account('atk37_design', DEPT.producers, COMPANY.producer, [await role('攻击37-企业设计', design)])).api;
  const hr = [MENU.dashboard, MENU.system, MENU.user, MENU.user * 10 + 1, MENU.user * 10 + 2, MENU.user * 10 + 3];
  userEditor = (
    await account('atk37_hr', DEPT.producers, COMPANY.producer, [await role('攻击37-企业人事', hr, '本企业', COMPANY.producer)])
  ).api;
  const roles = [MENU.dashboard, MENU.system, MENU.role, MENU.role * 10 + 1, MENU.role * 10 + 2, MENU.role * 10 + 3];
  roleEditor = (
    await account('atk37_roles', DEPT.producers, COMPANY.producer, [await role('攻击37-企业角色', roles, '本企业', COMPANY.producer)])
  ).api;
  adder = (
    await account('atk37_adder', DEPT.producers, COMPANY.producer, [
      await role('攻击37-只可新增', [MENU.dashboard, MENU.waste, 1012, 3121], '本企业', COMPANY.producer),
    ])
  ).api;
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('the add call whose body names an id', () => {
  it('changes no stored row for an id that is not a whole number, or of another company', async () => {
    const own = (await all(as.producer, 12))[0] as Row;
    const ownIds = new Set((await all(as.producer, 12)).map((r) => r.id));
    const foreign = (await all(as.admin, 12)).find((r) => !ownIds.has(r.id)) as Row;
    expect(own && foreign).toBeTruthy();
    const ownWas = await stored(12, own.id);
    const foreignWas = await stored(12, foreign.id);
    const firstWas = await stored(12, 1);
    const count = (
      await server.ctx.db
        .selectFrom('lc_view_12' as any)
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirst()
    )?.n;
    for (const id of [true, [own.id], ` ${own.id}`, `${own.id}abc`, '1e0', -1, 2147483648, {}, 1.5, '+1', '٥'])
      for (const api of [as.producer, designer, userEditor, roleEditor]) {
        const r = await api.post('/api/general/add/12', { ...own, id, remark: '攻击37' });
        if (api === as.producer) refused(r, 400, 'ID_REQUIRED');
        else expect(r.status, `id=${JSON.stringify(id)}: ${said(r)}`).toBe(403);
      }
    for (const id of [foreign.id, String(foreign.id)])
      for (const path of ['/api/general/add/12', '/api/general/update/12']) {
        const r = await as.producer.post(path, { ...foreign, id, remark: '攻击37' });
        refused(r, 404, 'DATA_NOT_FOUND');
      }
    // A company designer's menus grant no record of a view; an add-only account edits nothing by naming an id.
    for (const api of [designer, adder]) refused(await api.post('/api/general/add/12', { ...own, remark: '攻击37' }), 403, 'NO_PERMISSION');
    expect(await stored(12, own.id)).toEqual(ownWas);
    expect(await stored(12, foreign.id)).toEqual(foreignWas);
    expect(await stored(12, 1)).toEqual(firstWas);
    const after = (
      await server.ctx.db
        .selectFrom('lc_view_12' as any)
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirst()
    )?.n;
    expect(after).toEqual(count);
  });

  it('a carrier changes no disposal or logistics order outside its rows, by id', async () => {
    for (const viewId of [19, 20]) {
      const mine = new Set((await all(as.logistics, viewId)).map((r) => r.id));
      const f = (await all(as.admin, viewId)).find((r) => !mine.has(r.id)) as Row;
      const was = await stored(viewId, f.id);
      for (const id of [f.id, String(f.id), [f.id], true]) {
        const r = await as.logistics.post(`/api/general/add/${viewId}`, { ...f, id, remark: '承运方' });
        expect([400, 403, 404], said(r)).toContain(r.status);
      }
      expect(await stored(viewId, f.id)).toEqual(was);
    }
  });
  it('an account seeing its own records only changes no company-mate’s record by naming its id', async () => {
    const selfRole = await role('攻击37-本人', [MENU.dashboard, MENU.waste, 1012, 3121, 3122], '本人', COMPANY.producer);
    const self = (await account('atk37_self', DEPT.producers, COMPANY.producer, [selfRole])).api;
    expect(await all(self, 12)).toEqual([]);
    const mate = (await all(as.producer, 12))[0] as Row;
    const was = await stored(12, mate.id);
    for (const path of ['/api/general/add/12', '/api/general/update/12'])
      for (const id of [mate.id, String(mate.id)])
        refused(await self.post(path, { ...mate, id, remark: '本人越权' }), 404, 'DATA_NOT_FOUND');
    expect(await stored(12, mate.id)).toEqual(was);
    // Its own record, once added, it may change by the same call.
    const { id: _i, createTime: _c, updateTime: _u, createBy: _b, stockNo: _s, ...rest } = mate;
    const made = await self.post('/api/general/add/12', rest);
    expect(made.status, said(made)).toBe(200);
    const changed = await self.post('/api/general/add/12', { ...rest, id: made.body.id, remark: '本人的' });
    expect(changed.body, said(changed)).toEqual({ status: 200, message: '操作成功', id: made.body.id });
  });
});

describe('the labels an export writes', () => {
  it('a record cannot be made to pick another company’s warehouse, so no export names it', async () => {
    const warehouses = await server.ctx.db.selectFrom('company_warehouse').selectAll().execute();
    const theirs = warehouses.find((w: Row) => w.company_id !== COMPANY.producer) as Row;
    expect(theirs).toBeDefined();
    const own = (await all(as.producer, 12))[0] as Row;
    const was = await stored(12, own.id);
    const { id: _i, createTime: _c, updateTime: _u, createBy: _b, stockNo: _s, ...rest } = own;
    for (const warehouseId of [theirs.id, String(theirs.id), ` ${theirs.id}`]) {
      const made = await as.producer.post('/api/general/add/12', { ...rest, warehouseId });
      expect(made.status, said(made)).toBe(400);
      const changed = await as.producer.post('/api/general/add/12', { ...own, warehouseId });
      expect(changed.status, said(changed)).toBe(400);
    }
    expect(await stored(12, own.id)).toEqual(was);
    const exported = await as.producer.get('/api/general/export/12/download', {});
    expect(exported.status).toBe(200);
    const text = await sheetText(exported.body);
    const mineNames = new Set(warehouses.filter((w: Row) => w.company_id === COMPANY.producer).map((w: Row) => w.name));
    for (const w of warehouses) if (!mineNames.has(w.name)) expect(text.includes(`"${w.name}"`), w.name).toBe(false);
  });

  it('a filter or fields list names no column the view does not have', async () => {
    for (const fields of ['password', 'warehouseIdFmt', 'create_company', 'id,password'])
      expect((await as.producer.get('/api/general/export/12/download', { fields })).status).toBe(400);
  });
});

describe('a company designer and the data views', () => {
  it('runs and saves no SQL, however it reaches a table', async () => {
    for (const text of [
      'select (t).* from company t',
      'select (t).name from company t',
      'select row(t.*) from sys_user t',
      'select t from sys_user t',
      'select to_json(t) from company_warehouse t',
      "select query_to_xml('select * from sys_user', true, true, '')",
      'table sys_user',
      'select * from lc_view_12',
    ]) {
      for (const [path, body] of [
        ['/api/data/run', { sql: text }],
        ['/api/data/add', { name: '攻击37', sql: text }],
        ['/api/data/update', { id: 1, name: '攻击37', sql: text }],
      ] as const) {
        const r = await designer.post(path, body);
        expect(r.status, `${path} ${text}: ${said(r)}`).toBe(403);
      }
    }
  });

  it('a platform designer who is not an administrator reads no account table through a row or a function', async () => {
    const design = [MENU.lowcode, MENU.screen, 621, 622, 623, 624, MENU.dataView, 631, 632, 633];
    const pf = (await account('atk37_design_pf', DEPT.ops, null, [await role('攻击37-平台设计', design, '全部', null, 2)])).api;
    for (const text of [
      'select (t).* from sys_user t',
      'select row(t.*) from sys_user t',
      'select t from company t join sys_user u on true',
      'select (select u from sys_user u limit 1)',
      'select to_json(u) from sys_user u',
      'select row_to_json(s) from lc_screen s',
      "select query_to_xml('select * from sys_user', true, true, '')",
      "select xpath('/x', query_to_xml('select 1', true, true, ''))",
      "select * from json_populate_record(null::sys_user, '{}')",
      'select (c).* from (select c from company c) x',
      "select pg_read_file('/etc/passwd')",
      "select lo_import('/etc/passwd')",
      "select set_config('role', 'postgres', false)",
      'select * from sys_user_role',
      'table sys_user',
      'select * from (values (1)) v(x), lateral (select password from sys_user) p',
    ]) {
      const r = await pf.post('/api/data/run', { sql: text });
      expect(r.status, `${text}: ${said(r)}`).toBe(400);
    }
  });
});

describe('a data view whose function writes more rows than it answers', () => {
  it('is refused before it runs, however few rows it answers', async () => {
    const design = [MENU.lowcode, MENU.screen, 621, 622, 623, 624, MENU.dataView, 631, 632, 633];
    const pf = (await account('atk37_design_big', DEPT.ops, null, [await role('攻击37-平台设计-大', design, '全部', null, 2)])).api;
    // A function in FROM writes all its rows before the first is read: a LIMIT does not shorten it.
    // On PostgreSQL the statement is stopped by its time limit or, writing its rows to temporary files,
    // by the data views' temporary-file limit (数据库资源不足): refused either way, never answered.
    const codes = server.ctx.dbKind === 'pglite' ? ['DATA_VIEW_REFUSED_ON_PGLITE'] : ['DATA_VIEW_TIMED_OUT', 'DATA_VIEW_FAILED'];
    for (const text of [
      'select * from generate_series(1, 100000000) g',
      'select g from generate_series(1, 100000000) g where g < 3',
      'with t as materialized (select g from generate_series(1, 100000000) g) select * from t',
      'select x.a, g from (select 1 as a) x, lateral generate_series(1, 100000000) g',
      'select (select g from generate_series(1, 100000000) g order by g desc limit 1) as top',
    ]) {
      const r = await pf.post('/api/data/run', { sql: text });
      expect(r.status, `${text}: ${said(r)}`).toBe(400);
      expect(codes, `${text}: ${said(r)}`).toContain(r.body.code);
      if (r.body.code === 'DATA_VIEW_FAILED') expect(r.body.message).toBe('数据视图执行失败：数据库资源不足');
    }
    const small = await pf.post('/api/data/run', { sql: 'select g from generate_series(1, 250) g' });
    expect(small.status, said(small)).toBe(200);
  });
});

describe('a company user editor and role editor', () => {
  it('edit no role or user of another company, and grant no wider reach', async () => {
    await role('攻击37-处置企业角色', [MENU.dashboard], '本企业', COMPANY.disposer);
    const roles = await server.ctx.db.selectFrom('sys_role').selectAll().execute();
    const other = roles.find((r: Row) => r.company_id !== null && r.company_id !== COMPANY.producer) as Row;
    const platform = roles.find((r: Row) => r.company_id === null) as Row;
    expect(other && platform).toBeTruthy();
    for (const target of [other, platform]) {
      const r = await roleEditor.put('/api/roles', {
        id: target.id,
        name: '攻击37',
        level: 3,
        dataScope: '全部',
        menus: [{ id: MENU.system }],
      });
      expect([400, 403, 404], said(r)).toContain(r.status);
    }
    const mine = await roleEditor.post('/api/roles', {
      name: '攻击37-自建',
      level: 3,
      dataScope: '本企业',
      menus: [{ id: MENU.dashboard }],
    });
    if (mine.status === 201) {
      for (const change of [{ dataScope: '全部' }, { companyId: null }, { companyId: COMPANY.disposer }, { level: 1 }]) {
        const r = await roleEditor.put('/api/roles', {
          id: mine.body.id,
          name: '攻击37-自建',
          level: 3,
          dataScope: '本企业',
          menus: [{ id: MENU.dashboard }],
          ...change,
        });
        expect(r.status === 200 || r.status >= 400, said(r)).toBe(true);
      }
      const now = await server.ctx.db.selectFrom('sys_role').selectAll().where('id', '=', mine.body.id).executeTakeFirstOrThrow();
      expect({ s: now.data_scope, c: now.company_id, l: now.level }).toEqual({ s: '本企业', c: COMPANY.producer, l: 3 });
    }
    const after = await server.ctx.db.selectFrom('sys_role').selectAll().where('id', 'in', [other.id, platform.id]).execute();
    expect(after).toEqual(roles.filter((r: Row) => r.id === other.id || r.id === platform.id));
    const users = await server.ctx.db.selectFrom('sys_user').selectAll().execute();
    const foreignUser = users.find((u: Row) => u.company_id !== null && u.company_id !== COMPANY.producer) as Row;
    const r = await userEditor.put('/api/users', { id: foreignUser.id, nickName: '攻击37' });
    expect([400, 403, 404], said(r)).toContain(r.status);
    const del = await userEditor.request('DELETE', '/api/users', { json: [foreignUser.id] });
    expect([400, 403, 404], said(del)).toContain(del.status);
    expect(await server.ctx.db.selectFrom('sys_user').selectAll().where('id', '=', foreignUser.id).executeTakeFirst()).toEqual(foreignUser);
  });
});
