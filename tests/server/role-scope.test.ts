import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_SCOPES } from '../../server/access/scope.js';
import { DEPT, MENU, ROLE } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { ERROR_MESSAGES } from '../../src/shared/error-catalogue.js';
import { refusal } from '../helpers/refusal.js';
import type { ApiClient, ApiResponse } from '../helpers/server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * A role's data scope (全部, 本企业, 本部门, 本人, 自定义 with chosen departments) is set on the role
 * page and decides, from the very next call of its users, which low-code records they see.
 */

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;
/** The menus of the seeded 产废企业 role: the stock-in page (view 12) among them. */
let producerMenus: { id: number }[];

const answer = (res: ApiResponse) => ({ status: res.status, code: res.body?.code, message: res.body?.message });

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
  producer = await server.login('producer');
  const roles = await admin.get('/api/roles', { page: 0, size: 999 });
  producerMenus = roles.body.content.find((r: { id: number }) => r.id === ROLE.producer).menus;
});
afterAll(async () => {
  await server?.close();
});

let phoneSeq = 0;
/** An account made through the user API, its password marked as changed so it can work at once. */
async function account(username: string, deptId: number, companyId: number | null, roleId: number): Promise<ApiClient> {
  phoneSeq += 1;
  const made = await admin.post('/api/users', {
    username,
    nickName: `测试${username}`,
    phone: `1390000${String(phoneSeq).padStart(4, '0')}`,
    deptId,
    companyId,
    roles: [{ id: roleId }],
  });
  expect(made.status).toBe(201);
  await server.ctx.db.updateTable('sys_user').set({ pwd_reset_time: new Date() }).where('id', '=', made.body.id).execute();
  return server.login(username);
}

async function role(name: string, body: Record<string, unknown>): Promise<number> {
  const made = await admin.post('/api/roles', { name, level: 3, menus: producerMenus, ...body });
  expect(made.status).toBe(201);
  return made.body.id;
}

let stockSeq = 0;
/** Adds a stock-in record as `who`; its id. */
async function stockIn(who: ApiClient): Promise<number> {
  stockSeq += 1;
  const add = await who.post('/api/general/add/12', {
    stockNo: `RK2099${String(stockSeq).padStart(8, '0')}`,
    wasteCategory: 'HW08',
    wasteCode: '900-249-08',
    wasteName: '数据权限测试废矿物油',
    quantity: '1.000',
    packageType: '2',
    warehouseId: 1,
    inTime: '2026-11-01 10:00:00',
    handler: '测试员',
    status: '0',
  });
  expect(answer(add)).toEqual({ status: 200, message: expect.anything() });
  return add.body.id;
}

const stockInIds = async (who: ApiClient): Promise<number[]> => {
  const res = await who.get('/api/general/list/12', { size: 1000 });
  expect(res.status).toBe(200);
  return res.body.content.map((r: { id: number }) => r.id).sort((a: number, b: number) => a - b);
};

describe('refusals', () => {
  it('refuses a scope outside the five, and names them', async () => {
    for (const dataScope of ['本级', 'all', '']) {
      expect(answer(await admin.post('/api/roles', { name: '坏范围角色', dataScope }))).toEqual(refusal(400, 'ROLE_SCOPE_INVALID'));
    }
    expect(ERROR_MESSAGES.ROLE_SCOPE_INVALID).toBe(`数据权限只能是${DATA_SCOPES.slice(0, -1).join('、')}或${DATA_SCOPES.at(-1)}`);
    expect(answer(await admin.put('/api/roles', { id: ROLE.logistics, name: '物流企业', dataScope: '本公司' }))).toEqual({
      status: 400,
      code: 'ROLE_SCOPE_INVALID',
      message: ERROR_MESSAGES.ROLE_SCOPE_INVALID,
    });
    expect((await admin.get('/api/roles/5')).body.dataScope).toBe('本企业');
    expect((await admin.get('/api/roles', { blurry: '坏范围' })).body.totalElements).toBe(0);
  });

  it('refuses 自定义 without departments, or with a department that does not exist', async () => {
    const noDepts = refusal(400, 'ROLE_SCOPE_DEPTS_REQUIRED');
    expect(answer(await admin.post('/api/roles', { name: '自定义角色', dataScope: '自定义' }))).toEqual(noDepts);
    expect(answer(await admin.post('/api/roles', { name: '自定义角色', dataScope: '自定义', depts: [] }))).toEqual(noDepts);
    expect(answer(await admin.put('/api/roles', { id: ROLE.collector, name: '收集点', dataScope: '自定义' }))).toEqual(noDepts);
    const unknown = refusal(400, 'ROLE_SCOPE_DEPT_NOT_FOUND');
    expect(answer(await admin.post('/api/roles', { name: '自定义角色', dataScope: '自定义', depts: [DEPT.producers, 99999] }))).toEqual(
      unknown,
    );
    expect(
      answer(await admin.put('/api/roles', { id: ROLE.collector, name: '收集点', dataScope: '自定义', depts: [{ id: 99999 }] })),
    ).toEqual(unknown);
    expect((await admin.get('/api/roles', { blurry: '自定义角色' })).body.totalElements).toBe(0);
    const collector = await admin.get(`/api/roles/${ROLE.collector}`);
    expect(collector.body).toMatchObject({ dataScope: '本企业', depts: [] });
  });

  it('refuses scope changes to an account without role:edit', async () => {
    const forbidden = refusal(403, 'NO_PERMISSION');
    expect(answer(await producer.put('/api/roles', { id: ROLE.producer, name: '产废企业', dataScope: '全部' }))).toEqual(forbidden);
    expect(
      answer(await producer.put('/api/roles', { id: ROLE.producer, name: '产废企业', dataScope: '自定义', depts: [DEPT.platform] })),
    ).toEqual(forbidden);
    expect(answer(await producer.post('/api/roles', { name: '越权角色', dataScope: '全部' }))).toEqual(forbidden);
    expect(answer(await producer.get('/api/roles/depts'))).toEqual(forbidden);
    // An account that reads roles (role:list) but may not edit them is refused too.
    const readerRole = await role('角色查看员', { menus: [{ id: MENU.role }] });
    const reader = await account('rolereader', DEPT.ops, null, readerRole);
    expect((await reader.get('/api/roles', { page: 0, size: 10 })).status).toBe(200);
    expect(answer(await reader.put('/api/roles', { id: readerRole, name: '角色查看员', dataScope: '全部' }))).toEqual(forbidden);
    const stored = await server.ctx.db.selectFrom('sys_role').select('data_scope').where('id', 'in', [ROLE.producer, readerRole]).execute();
    expect(stored.map((r) => r.data_scope)).not.toContain('全部');
    expect(await server.ctx.db.selectFrom('sys_roles_depts').selectAll().where('role_id', '=', ROLE.producer).execute()).toEqual([]);
  });
});

describe('granting a scope', () => {
  it('refuses an editor without 全部 a role of 全部, or departments outside its own scope', async () => {
    // Editors of roles (role:add, role:edit) whose own scope is their company's.
    const editorRole = await role('企业角色编辑', {
      dataScope: '本企业',
      menus: [{ id: MENU.role }, { id: MENU.role * 10 + 1 }, { id: MENU.role * 10 + 2 }],
    });
    const editor = await account('roleeditor', DEPT.producers, COMPANY.producer, editorRole);
    // Its roles are its company's: they never reach 全部, nor another company's or the platform's departments.
    const notAll = refusal(400, 'COMPANY_ROLE_NOT_ALL');
    const otherDepts = refusal(400, 'COMPANY_ROLE_DEPTS');
    expect(answer(await editor.post('/api/roles', { name: '越权全部', level: 3, dataScope: '全部', menus: [] }))).toEqual(notAll);
    expect(
      answer(await editor.post('/api/roles', { name: '越权部门', level: 3, dataScope: '自定义', depts: [DEPT.platform], menus: [] })),
    ).toEqual(otherDepts);
    // The platform's roles, its own included, are changed only under 全部.
    expect(answer(await editor.put('/api/roles', { id: editorRole, name: '企业角色编辑', level: 3, dataScope: '全部' }))).toEqual(
      refusal(403, 'PLATFORM_ROLE_READ_ONLY'),
    );
    expect(await server.ctx.db.selectFrom('sys_role').select('id').where('name', 'in', ['越权全部', '越权部门']).execute()).toEqual([]);
    // What it holds, it may give.
    expect((await editor.post('/api/roles', { name: '仅本人', level: 3, dataScope: '本人', menus: [] })).status).toBe(201);
  });
});

describe('stored scopes', () => {
  it('gives a new role 本企业, keeps a 自定义 role its departments as [{id, name}], and drops them for any other scope', async () => {
    const plain = await role('默认范围角色', {});
    expect((await admin.get(`/api/roles/${plain}`)).body).toMatchObject({ dataScope: '本企业', depts: [] });

    const custom = await role('部门范围角色', { dataScope: '自定义', depts: [DEPT.disposers, { id: DEPT.producers }, DEPT.producers] });
    const listed = (await admin.get('/api/roles', { blurry: '部门范围角色' })).body.content[0];
    expect(listed).toMatchObject({
      dataScope: '自定义',
      depts: [
        { id: DEPT.producers, name: '产废企业部' },
        { id: DEPT.disposers, name: '处置企业部' },
      ],
    });
    // Renaming without naming departments keeps them.
    expect((await admin.put('/api/roles', { id: custom, name: '部门范围角色二', level: 3 })).status).toBe(200);
    expect((await admin.get(`/api/roles/${custom}`)).body.depts.map((d: { id: number }) => d.id)).toEqual([DEPT.producers, DEPT.disposers]);
    expect((await admin.put('/api/roles', { id: custom, name: '部门范围角色二', dataScope: '自定义', depts: [DEPT.ops] })).status).toBe(
      200,
    );
    expect((await admin.get(`/api/roles/${custom}`)).body.depts).toEqual([{ id: DEPT.ops, name: expect.any(String) }]);
    // Another scope clears them, whatever is sent.
    expect((await admin.put('/api/roles', { id: custom, name: '部门范围角色二', dataScope: '本部门', depts: [DEPT.ops] })).status).toBe(
      200,
    );
    expect((await admin.get(`/api/roles/${custom}`)).body).toMatchObject({ dataScope: '本部门', depts: [] });
    expect(await server.ctx.db.selectFrom('sys_roles_depts').selectAll().where('role_id', '=', custom).execute()).toEqual([]);
  });

  it('answers the department tree to those who edit roles', async () => {
    const tree = await admin.get('/api/roles/depts');
    expect(tree.status).toBe(200);
    const names: string[] = [];
    const walk = (nodes: { name: string; children?: unknown[] }[]) => {
      for (const n of nodes) {
        names.push(n.name);
        walk((n.children ?? []) as never);
      }
    };
    walk(tree.body);
    expect(names).toEqual(expect.arrayContaining(['产废企业部', '处置企业部']));
  });
});

describe('what a role sees', () => {
  it('switched to 本人, its users see only their own records from their next call', async () => {
    const keeper = await role('库管员', { dataScope: '本企业' });
    const a = await account('keeper_a', DEPT.producers, COMPANY.producer, keeper);
    const b = await account('keeper_b', DEPT.producers, COMPANY.producer, keeper);
    const mine = [await stockIn(a), await stockIn(a)];
    const theirs = await stockIn(b);
    // 本企业: the company's records, the other keeper's included.
    const before = await stockInIds(a);
    expect(before).toEqual(expect.arrayContaining([...mine, theirs]));

    expect((await admin.put('/api/roles', { id: keeper, name: '库管员', dataScope: '本人' })).status).toBe(200);
    // The same session, right away: only its own.
    expect(await stockInIds(a)).toEqual(mine);
    expect(await stockInIds(b)).toEqual([theirs]);
    expect((await a.get('/api/general/detail', { generalId: 12, id: theirs })).status).toBe(404);

    // And back: the company's records again.
    expect((await admin.put('/api/roles', { id: keeper, name: '库管员', dataScope: '本企业' })).status).toBe(200);
    expect(await stockInIds(a)).toEqual(before);
  });

  it('with 自定义, its users see the records created by users of the chosen departments', async () => {
    const made = await admin.post('/api/dept', { pid: DEPT.producers, name: '危废科', deptSort: 9, enabled: true });
    expect(made.status).toBe(201);
    const section = made.body.id as number;
    const worker = await account('section_w', section, COMPANY.producer, await role('危废科员', { dataScope: '本人' }));
    const outsider = await account('section_o', DEPT.producers, COMPANY.producer, await role('产废科员', { dataScope: '本人' }));
    const fromSection = [await stockIn(worker), await stockIn(worker)];
    const elsewhere = await stockIn(outsider);

    // A disposer's account: no company record of the producer is its own.
    const viewerRole = await role('跨部门查看', { dataScope: '自定义', depts: [section] });
    const viewer = await account('section_v', DEPT.disposers, COMPANY.disposer, viewerRole);
    const seen = await stockInIds(viewer);
    expect(seen).toEqual(fromSection);
    expect(seen).not.toContain(elsewhere);

    // Choosing the producers' department instead shows that department's records, not the section's.
    expect(
      (await admin.put('/api/roles', { id: viewerRole, name: '跨部门查看', dataScope: '自定义', depts: [DEPT.producers] })).status,
    ).toBe(200);
    const now = await stockInIds(viewer);
    expect(now).toContain(elsewhere);
    expect(now).not.toContain(fromSection[0]);
  });
});

describe('the user list', () => {
  it("answers each user's company name (所属企业), and the company picker answers companies by name", async () => {
    const list = await admin.get('/api/users', { page: 0, size: 100 });
    const byName = new Map(list.body.content.map((u: { username: string }) => [u.username, u]));
    expect(byName.get('producer')).toMatchObject({ company: COMPANY.producer, companyName: expect.stringMatching(/\S/) });
    expect(byName.get('admin')).toMatchObject({ company: null, companyName: null });
    const companies = await admin.get('/api/users/companies', { blurry: (byName.get('producer') as { companyName: string }).companyName });
    expect(companies.body).toEqual([{ id: COMPANY.producer, name: (byName.get('producer') as { companyName: string }).companyName }]);
    expect(answer(await producer.get('/api/users/companies'))).toEqual(refusal(403, 'NO_PERMISSION'));

    // Given a company in the dialog, the user is listed with it.
    const guest = list.body.content.find((u: { username: string }) => u.username === 'guest');
    // An account joins a company together with one of its departments.
    expect(answer(await admin.put('/api/users', { id: guest.id, companyId: COMPANY.disposer }))).toEqual(
      refusal(400, 'DEPT_OTHER_COMPANY'),
    );
    const edited = await admin.put('/api/users', { id: guest.id, companyId: COMPANY.disposer, deptId: DEPT.disposers });
    expect(edited.body).toMatchObject({ company: COMPANY.disposer, companyName: expect.stringMatching(/\S/) });
    expect(answer(await admin.put('/api/users', { id: guest.id, companyId: 99999 }))).toEqual(refusal(400, 'COMPANY_NOT_FOUND'));
    await admin.put('/api/users', { id: guest.id, companyId: null, deptId: DEPT.ops });
  });
});
