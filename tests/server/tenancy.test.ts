import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../server/db/migrations/index.js';
import type { ErrorCode } from '../../server/errors.js';
import { DEPT, MENU, ROLE, USER } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { advisoryLocks } from '../helpers/locks.js';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, type ApiResponse, startTestServer, type TestServer } from '../helpers/server.js';
import { treeIds } from '../helpers/tree.js';
import { sharedStringBombXlsx } from '../helpers/xlsx-files.js';
import { partiesByIdAndCarrier } from './tenancy/parties.js';
import { smallerHoles } from './tenancy/smaller-holes.js';

/**
 * Tenancy of accounts, each test the reproduction of an attack made with ordinary company accounts: a
 * company owns its departments, its users sit only in them, its roles are its own, and managing users,
 * roles and departments follows the manager's data scope as records do.
 */

let server: TestServer;
let admin: ApiClient;

const answer = (res: ApiResponse) => ({ status: res.status, code: res.body?.code, message: res.body?.message });
const refused = (res: ApiResponse, status: number, code: ErrorCode) =>
  expect(answer(res), JSON.stringify(res.body)).toEqual(refusal(status, code));

let phoneSeq = 0;
const nextPhone = () => {
  phoneSeq += 1;
  return `1371111${String(phoneSeq).padStart(4, '0')}`;
};

/** An account made by the administrator, its password marked as changed so it can work at once. */
async function account(username: string, deptId: number, companyId: number | null, roleIds: number[]): Promise<ApiClient> {
  const made = await admin.post('/api/users', {
    username,
    nickName: `租户${username}`.slice(0, 20),
    phone: nextPhone(),
    deptId,
    companyId,
    roles: roleIds.map((id) => ({ id })),
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  await server.ctx.db.updateTable('sys_user').set({ pwd_reset_time: new Date() }).where('id', '=', made.body.id).execute();
  return server.login(username);
}

/** A level-3 role of 本企业 (unless told otherwise) made by the administrator: a platform role. */
async function role(name: string, menus: number[], dataScope = '本企业'): Promise<number> {
  const made = await admin.post('/api/roles', { name, level: 3, dataScope, menus: menus.map((id) => ({ id })) });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.id;
}

const buttons = (page: number) => [page * 10 + 1, page * 10 + 2, page * 10 + 3];
const userRow = (id: number) => server.ctx.db.selectFrom('sys_user').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
});
afterAll(async () => {
  await server?.close();
});

describe('a user editor of one company', () => {
  let hr: ApiClient;
  let hrRole: number;
  beforeAll(async () => {
    hrRole = await role('企业人事', [MENU.dashboard, MENU.system, MENU.user, ...buttons(MENU.user)]);
    hr = await account('hr_producer', DEPT.producers, COMPANY.producer, [hrRole]);
  });

  it('lists only its own company’s accounts', async () => {
    const list = await hr.get('/api/users', { page: 0, size: 100 });
    expect(list.status).toBe(200);
    const expected = await server.ctx.db
      .selectFrom('sys_user')
      .select('username')
      .where('company_id', '=', COMPANY.producer)
      .where('status', '<>', 2)
      .execute();
    expect(list.body.content.map((u: { username: string }) => u.username).sort()).toEqual(expected.map((u) => u.username).sort());
    expect(list.body.totalElements).toBe(expected.length);
    expect(list.body.content.every((u: { company: number }) => u.company === COMPANY.producer)).toBe(true);
    const search = await hr.get('/api/users/search', { blurry: '' });
    expect(search.body.map((u: { username: string }) => u.username)).not.toContain('disposer');
    expect((await hr.get('/api/users/companies')).body).toEqual([{ id: COMPANY.producer, name: expect.any(String) }]);
  });

  it('cannot move a user into another company or into the supervisory department', async () => {
    const made = await hr.post('/api/users', { username: 'clerk_p1', nickName: '产废办事员', phone: nextPhone(), deptId: DEPT.producers });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ company: COMPANY.producer });
    // Without a department, a company manager's new account still joins the manager's company.
    const bare = await hr.post('/api/users', { username: 'clerk_p0', nickName: '产废办事员零', phone: nextPhone() });
    expect(bare.body).toMatchObject({ company: COMPANY.producer });
    const id = made.body.id;
    refused(await hr.put('/api/users', { id, companyId: COMPANY.disposer, deptId: DEPT.disposers }), 403, 'USER_OUTSIDE_SCOPE');
    refused(await hr.put('/api/users', { id, companyId: COMPANY.disposer }), 400, 'DEPT_OTHER_COMPANY');
    // Given a department alone, the company follows it: the platform's supervisory department is out of reach.
    refused(await hr.put('/api/users', { id, deptId: DEPT.supervision }), 403, 'USER_OUTSIDE_SCOPE');
    refused(await hr.put('/api/users', { id, deptId: DEPT.supervision, companyId: null }), 403, 'USER_OUTSIDE_SCOPE');
    refused(
      await hr.post('/api/users', { username: 'clerk_x', nickName: '外企', phone: nextPhone(), companyId: COMPANY.disposer }),
      403,
      'USER_OUTSIDE_SCOPE',
    );
    expect(await userRow(id)).toMatchObject({ company_id: COMPANY.producer });
    // Nothing it may do gives an account of its company the supervisory department's 全部.
    await server.ctx.db.updateTable('sys_user').set({ pwd_reset_time: new Date() }).where('id', '=', id).execute();
    const clerk = await server.login('clerk_p1');
    expect((await clerk.get('/api/auth/info')).body.user.deptCode).not.toBe('01');
  });

  it('cannot edit, disable, reset or delete an account of another company: it answers as missing', async () => {
    const before = await userRow(USER.collector);
    refused(await hr.put('/api/users', { id: USER.disposer, nickName: '被改名' }), 404, 'USER_NOT_FOUND');
    refused(await hr.put('/api/users', { id: USER.disposer, enabled: false }), 404, 'USER_NOT_FOUND');
    refused(await hr.post('/api/pwd/reset', { ids: [USER.collector] }), 404, 'USER_NOT_FOUND');
    refused(await hr.post('/api/pwd/reset', [USER.producer, USER.collector]), 404, 'USER_NOT_FOUND');
    refused(await hr.delete('/api/users', [USER.disposer]), 404, 'USER_NOT_FOUND');
    const after = await userRow(USER.collector);
    expect(after.password).toBe(before.password);
    expect(await userRow(USER.disposer)).toMatchObject({ nick_name: '陈志强', status: 0 });
    // The collector still signs in with its own password.
    expect((await server.login('collector')).token).toBeTruthy();
  });

  it('gives only roles it owns or holds', async () => {
    const made = await hr.post('/api/users', { username: 'clerk_p2', nickName: '产废办事员二', phone: nextPhone() });
    expect(made.status).toBe(201);
    refused(await hr.put('/api/users', { id: made.body.id, roles: [{ id: ROLE.disposer }] }), 403, 'ROLE_NOT_GRANTABLE');
    refused(await hr.put('/api/users', { id: made.body.id, roles: [{ id: ROLE.supervisor }] }), 403, 'ROLE_NOT_GRANTABLE');
    expect((await hr.put('/api/users', { id: made.body.id, roles: [{ id: hrRole }] })).status).toBe(200);
  });
});

describe('a role editor of one company', () => {
  let editor: ApiClient;
  let rival: ApiClient;
  const roleMenus = [MENU.dashboard, MENU.system, MENU.role, ...buttons(MENU.role)];
  beforeAll(async () => {
    const editorRole = await role('企业角色管理', roleMenus);
    editor = await account('roles_producer', DEPT.producers, COMPANY.producer, [editorRole, ROLE.producer]);
    rival = await account('roles_disposer', DEPT.disposers, COMPANY.disposer, [editorRole, ROLE.disposer]);
  });

  it('cannot rewrite a platform role every company shares', async () => {
    const menusBefore = await server.ctx.db.selectFrom('sys_roles_menus').select('menu_id').where('role_id', '=', ROLE.disposer).execute();
    refused(
      await editor.put('/api/roles', { id: ROLE.disposer, name: '处置企业', level: 3, dataScope: '全部' }),
      403,
      'PLATFORM_ROLE_READ_ONLY',
    );
    refused(
      await editor.put('/api/roles', { id: ROLE.disposer, name: '处置企业', level: 3, dataScope: '本人' }),
      403,
      'PLATFORM_ROLE_READ_ONLY',
    );
    refused(await editor.put('/api/roles/menu', { id: ROLE.disposer, menus: [] }), 403, 'PLATFORM_ROLE_READ_ONLY');
    refused(await editor.delete('/api/roles', [ROLE.disposer]), 403, 'PLATFORM_ROLE_READ_ONLY');
    const stored = await server.ctx.db.selectFrom('sys_role').selectAll().where('id', '=', ROLE.disposer).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ data_scope: '本企业', name: '处置企业' });
    const menusAfter = await server.ctx.db.selectFrom('sys_roles_menus').select('menu_id').where('role_id', '=', ROLE.disposer).execute();
    expect(menusAfter).toEqual(menusBefore);
    // Every disposer still works as before.
    const disposer = await server.login('disposer');
    expect((await disposer.get('/api/general/list/13', { size: 1 })).status).toBe(200);
  });

  it('makes roles of its own company, never of 全部, seen and granted only inside it', async () => {
    const made = await editor.post('/api/roles', { name: '产废仓管', level: 3, dataScope: '本企业', menus: [{ id: MENU.dashboard }] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const own = made.body.id;
    expect((await admin.get(`/api/roles/${own}`)).body).toMatchObject({ companyId: COMPANY.producer });
    refused(await editor.post('/api/roles', { name: '产废全部', level: 3, dataScope: '全部', menus: [] }), 400, 'COMPANY_ROLE_NOT_ALL');
    refused(await editor.put('/api/roles', { id: own, name: '产废仓管', level: 3, dataScope: '全部' }), 400, 'COMPANY_ROLE_NOT_ALL');
    refused(
      await editor.post('/api/roles', { name: '跨企业部门', level: 3, dataScope: '自定义', depts: [DEPT.disposers], menus: [] }),
      400,
      'COMPANY_ROLE_DEPTS',
    );
    // Another company neither sees nor changes it.
    const seen = await rival.get('/api/roles', { page: 0, size: 999 });
    expect(seen.body.content.map((r: { id: number }) => r.id)).not.toContain(own);
    refused(await rival.get(`/api/roles/${own}`), 404, 'ROLE_NOT_FOUND');
    refused(await rival.put('/api/roles', { id: own, name: '被改', level: 3 }), 404, 'ROLE_NOT_FOUND');
    refused(await rival.put('/api/roles/menu', { id: own, menus: [] }), 404, 'ROLE_NOT_FOUND');
    refused(await rival.delete('/api/roles', [own]), 404, 'ROLE_NOT_FOUND');
    // Its accounts alone may hold it, whoever gives it.
    refused(await admin.put('/api/users', { id: USER.disposer, roles: [{ id: ROLE.disposer }, { id: own }] }), 400, 'ROLE_OTHER_COMPANY');
    expect((await admin.put('/api/users', { id: USER.producer, roles: [{ id: ROLE.producer }, { id: own }] })).status).toBe(200);
    expect((await admin.put('/api/users', { id: USER.producer, roles: [{ id: ROLE.producer }] })).status).toBe(200);
  });
});

describe('departments belong to their company', () => {
  it('seats every company account in a department of its own company', async () => {
    const misplaced = await server.ctx.db
      .selectFrom('sys_user as u')
      .innerJoin('sys_dept as d', 'd.id', 'u.dept_id')
      .select(['u.username', 'u.company_id', 'd.company_id as dept_company'])
      .where((eb) => eb.or([eb('d.company_id', 'is distinct from', eb.ref('u.company_id'))]))
      .execute();
    expect(misplaced).toEqual([]);
    // The two producing companies' accounts no longer share 产废企业部.
    expect((await userRow(USER.expired)).dept_id).not.toBe((await userRow(USER.producer)).dept_id);
  });

  it('keeps 本部门 inside the company, never wider than 本企业', async () => {
    const deptRole = await role('部门范围', [...(await producerMenus())], '本部门');
    // An account of the second producer, in the platform's old shared department, is refused.
    refused(
      await admin.post('/api/users', {
        username: 'p2_shared',
        nickName: '共享部门',
        phone: nextPhone(),
        deptId: DEPT.producers,
        companyId: COMPANY.producer2,
      }),
      400,
      'DEPT_OTHER_COMPANY',
    );
    const p2 = await account('p2_dept', DEPT.producer2, COMPANY.producer2, [deptRole]);
    const rows = await p2.get('/api/general/list/12', { size: 1000 });
    expect(rows.status).toBe(200);
    const ids: number[] = rows.body.content.map((r: { id: number }) => r.id);
    expect(ids.length).toBeGreaterThan(0);
    const companies = await sql<{
      c: number;
    }>`select distinct create_company::int as c from lc_view_12 where id = any(${ids}::int[])`.execute(server.ctx.db);
    expect(companies.rows.map((r) => r.c)).toEqual([COMPANY.producer2]);
    const producers = await sql<{
      n: number;
    }>`select count(*)::int as n from lc_view_12 where create_company = ${COMPANY.producer}`.execute(server.ctx.db);
    expect(producers.rows[0]?.n).toBeGreaterThan(0);
  });

  it('delivers a leave message to a department only to that department’s company', async () => {
    const producer = await server.login('producer');
    const sent = await producer.post('/api/general/add/18', {
      title: '仅本企业可见',
      content: '发给本企业部门的留言',
      contactName: '王丽华',
      deptId: DEPT.producers,
      haveRead: '2',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    // The other producing company's account (its password made current) does not read it.
    await server.ctx.db.updateTable('sys_user').set({ pwd_reset_time: new Date() }).where('id', '=', USER.expired).execute();
    const other = await server.login('expired');
    const list = await other.get('/api/general/list/18', { size: 1000 });
    expect(list.status).toBe(200);
    expect(list.body.content.map((r: { title: string }) => r.title)).not.toContain('仅本企业可见');
    refused(await other.get('/api/general/detail', { id: sent.body.id, generalId: 18 }), 404, 'DATA_NOT_FOUND');
  });

  it('lets a company manage its own departments only, and never give one the supervisory code', async () => {
    const deptRole = await role('企业部门管理', [MENU.dashboard, MENU.system, MENU.dept, ...buttons(MENU.dept)]);
    const manager = await account('dept_producer', DEPT.producers, COMPANY.producer, [deptRole]);
    refused(await manager.post('/api/dept', { pid: DEPT.platform, name: '平台下的部门' }), 403, 'DEPT_OUTSIDE_SCOPE');
    refused(await manager.post('/api/dept', { pid: DEPT.disposers, name: '别家的部门' }), 403, 'DEPT_OUTSIDE_SCOPE');
    refused(await manager.put('/api/dept', { id: DEPT.producers, name: '产废企业部', code: '01' }), 403, 'DEPT_CODE_ALL_ONLY');
    refused(await manager.put('/api/dept', { id: DEPT.disposers, name: '改别家' }), 404, 'DEPT_NOT_FOUND');
    refused(await manager.delete('/api/dept', [DEPT.supervision]), 404, 'DEPT_NOT_FOUND');
    const made = await manager.post('/api/dept', { pid: DEPT.producers, name: '危废科' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    refused(await manager.put('/api/dept', { id: made.body.id, pid: DEPT.disposers, name: '危废科' }), 403, 'DEPT_OUTSIDE_SCOPE');
    const top = await manager.get('/api/dept');
    expect(top.body.content.map((d: { id: number }) => d.id)).toEqual([DEPT.producers]);
    const tree = await manager.get('/api/dept/find', { scope: 'manage' });
    const ids = treeIds(tree.body.data);
    expect(ids.sort((a, b) => a - b)).toEqual([DEPT.producers, made.body.id].sort((a, b) => a - b));
    expect(
      (await server.ctx.db.selectFrom('sys_dept').select('code').where('id', '=', DEPT.producers).executeTakeFirstOrThrow()).code,
    ).toBe('02');
  });

  it('offers a recipient picker of the platform’s departments, its own, and other companies’ top ones', async () => {
    const producer = await server.login('producer');
    const section = await admin.post('/api/dept', { pid: DEPT.disposers, name: '处置内部科室' });
    expect(section.status).toBe(201);
    const tree = await producer.get('/api/dept/find');
    expect(tree.status).toBe(200);
    const ids = treeIds(tree.body.data);
    expect(ids).toEqual(expect.arrayContaining([DEPT.supervision, DEPT.producers, DEPT.disposers]));
    expect(ids).not.toContain(section.body.id);
    // A message cannot be addressed to another company's inner department.
    const sent = await producer.post('/api/general/add/18', {
      title: '越界',
      content: '越界留言',
      contactName: '王丽华',
      deptId: section.body.id,
    });
    expect(sent.status).toBe(400);
  });
});

describe('the shared departments of an older database', () => {
  it('become each company’s own, with users, records, 自定义 roles and leave messages following', async () => {
    const db = server.ctx.db;
    const migration = migrations['0029_company_tenancy'];
    if (!migration) throw new Error('migration 0029_company_tenancy is not registered');
    // As before: one department of the platform's holding two companies' accounts and records.
    const shared = await db
      .insertInto('sys_dept')
      .values({ pid: DEPT.platform, name: '旧共享部门', code: null, sort: 50, enabled: true, company_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const a = await db
      .insertInto('sys_user')
      .values({ username: 'old_a', nick_name: '旧甲', password: 'x', dept_id: shared.id, company_id: COMPANY.producer })
      .returning('id')
      .executeTakeFirstOrThrow();
    const b = await db
      .insertInto('sys_user')
      .values({ username: 'old_b', nick_name: '旧乙', password: 'x', dept_id: shared.id, company_id: COMPANY.disposer })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`update lc_view_12 set create_dept = ${shared.id} where id in (select id from lc_view_12 where create_company = ${COMPANY.producer} order by id limit 2)`.execute(
      db,
    );
    const custom = await db
      .insertInto('sys_role')
      .values({ name: '旧自定义', level: 3, description: null, data_scope: '自定义', company_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('sys_roles_depts').values({ role_id: custom.id, dept_id: shared.id }).execute();
    const msg = await sql<{
      id: number;
    }>`insert into lc_view_18 (title, content, "contactName", "deptId", create_by, create_company, create_dept)
      values ('旧留言', '内容', '旧甲', ${shared.id}, 'old_a', ${COMPANY.producer}, ${shared.id}) returning id`.execute(db);

    await migration.up(db as unknown as Kysely<unknown>);

    const ua = await userRow(a.id);
    const ub = await userRow(b.id);
    expect(ua.dept_id).not.toBe(shared.id);
    expect(ub.dept_id).not.toBe(ua.dept_id);
    const depts = await db.selectFrom('sys_dept').selectAll().where('id', 'in', [ua.dept_id!, ub.dept_id!]).execute();
    expect(depts.find((d) => d.id === ua.dept_id)?.company_id).toBe(COMPANY.producer);
    expect(depts.find((d) => d.id === ub.dept_id)?.company_id).toBe(COMPANY.disposer);
    const left = await sql<{ n: number }>`select count(*)::int as n from lc_view_12 where create_dept = ${shared.id}`.execute(db);
    expect(left.rows[0]?.n).toBe(0);
    const moved = await sql<{ n: number }>`select count(*)::int as n from lc_view_12 where create_dept = ${ua.dept_id}`.execute(db);
    expect(moved.rows[0]?.n).toBe(2);
    const chosen = await db.selectFrom('sys_roles_depts').select('dept_id').where('role_id', '=', custom.id).execute();
    expect(chosen.map((c) => c.dept_id).sort()).toEqual([shared.id, ua.dept_id, ub.dept_id].sort());
    const to = await sql<{ deptId: number }>`select "deptId"::int as "deptId" from lc_view_18 where id = ${msg.rows[0]!.id}`.execute(db);
    expect(to.rows[0]?.deptId).toBe(ua.dept_id);
  });
});

describe('stored files', () => {
  const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
  const upload = (client: ApiClient) => {
    const form = new FormData();
    form.append('columnName', 'attachments');
    form.append('file', new Blob([new Uint8Array(PDF)], { type: 'application/pdf' }), '合同扫描件.pdf');
    return client.request('POST', '/api/file/upload', { body: form });
  };

  it('are read by their company and by whoever sees a record holding them, not by anyone who knows the path', async () => {
    const disposer = await server.login('disposer');
    const up = await upload(disposer);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const source = up.body.filePath as string;
    const producer = await server.login('producer');
    const collector = await server.login('collector');
    expect((await disposer.get('/api/file/preview', { source })).status).toBe(200);
    // Known path, no record: another company cannot read it.
    refused(await producer.get('/api/file/download', { source }), 404, 'FILE_NOT_FOUND');
    // Attached to a contract naming the producer as 甲方, the producer reads it; the collector still does not.
    const contract = await sql<{
      id: number;
    }>`select id from lc_view_16 where "partyAId" = ${COMPANY.producer} and "partyBId" = ${COMPANY.disposer} order by id limit 1`.execute(
      server.ctx.db,
    );
    const id = contract.rows[0]?.id;
    expect(id).toBeDefined();
    await sql`update lc_view_16 set attachments = ${JSON.stringify([{ fileName: '合同扫描件.pdf', filePath: source }])} where id = ${id}`.execute(
      server.ctx.db,
    );
    expect((await producer.get('/api/file/download', { source })).status).toBe(200);
    refused(await collector.get('/api/file/preview', { source }), 404, 'FILE_NOT_FOUND');
    expect((await admin.get('/api/file/preview', { source })).status).toBe(200);
    // Writing a known path into one's own record does not make it one's file.
    const stock = await sql<{
      id: number;
    }>`select id from lc_view_12 where create_company = ${COMPANY.collector} order by id limit 1`.execute(server.ctx.db);
    const attach = JSON.stringify([{ fileName: 'x.pdf', filePath: source }]);
    const written = await collector.post('/api/general/update/12', { id: stock.rows[0]?.id, attachments: attach });
    expect(written.status, JSON.stringify(written.body)).toBe(400);
    expect(JSON.stringify(written.body)).toContain('只能使用自己可以查看的文件');
    refused(await collector.get('/api/file/preview', { source }), 404, 'FILE_NOT_FOUND');
    // The core stock-in calls judge what a record holds as the generic calls do.
    const warehouse = await sql<{
      id: number;
    }>`select id from company_warehouse where company_id = ${COMPANY.collector} order by id limit 1`.execute(server.ctx.db);
    const core = await collector.post('/api/companyInventory', {
      warehouseId: warehouse.rows[0]?.id,
      wasteName: '核心调用',
      wasteCode: '900-249-08',
      wasteCategory: 'HW08',
      packageType: '1',
      quantity: 1,
      inTime: '2026-11-20 10:00:00',
      handler: '测试',
      attachments: attach,
    });
    expect(core.status, JSON.stringify(core.body)).toBe(400);
    const coreUpdate = await collector.post('/api/companyInventory/update', { id: stock.rows[0]?.id, attachments: attach });
    expect(coreUpdate.status, JSON.stringify(coreUpdate.body)).toBe(400);
    refused(await collector.get('/api/file/preview', { source }), 404, 'FILE_NOT_FOUND');
    // A file nobody attached, not even by the one who may read it, is still its company's alone.
    const loose = await upload(disposer);
    const vehicle = await sql<{
      id: number;
    }>`select id from lc_view_17 where create_company = ${COMPANY.logistics} order by id limit 1`.execute(server.ctx.db);
    const logistics = await server.login('logistics');
    const photo = JSON.stringify([{ fileName: 'x.png', filePath: loose.body.filePath }]);
    expect((await logistics.post('/api/general/update/17', { id: vehicle.rows[0]?.id, photo })).status).toBe(400);
    refused(await logistics.get('/api/file/download', { source: loose.body.filePath }), 404, 'FILE_NOT_FOUND');
  });
});

async function producerMenus(): Promise<number[]> {
  const rows = await server.ctx.db.selectFrom('sys_roles_menus').select('menu_id').where('role_id', '=', ROLE.producer).execute();
  return rows.map((r) => r.menu_id);
}

describe('a designer’s data views', () => {
  let designer: ApiClient;
  const secret = "'select value from sys_setting'";
  beforeAll(async () => {
    // Data views read every company's records: only the platform's designers, of 全部, write and run them.
    const menus = [MENU.lowcode, MENU.dataView, MENU.dataView * 10 + 1, MENU.dataView * 10 + 2, MENU.screen];
    designer = await account('designer_pf', DEPT.ops, null, [await role('平台数据视图设计', menus, '全部')]);
    // A company's role given the designers' permissions, view design (设计, 614) among them.
    companyDesigner = await account('designer_p', DEPT.producers, COMPANY.producer, [
      await role('企业数据视图设计', [...menus, MENU.generation, 614]),
    ]);
  });
  let companyDesigner: ApiClient;
  const run = (text: string) => designer.post('/api/data/run', { sql: text });
  const code = async (text: string) => {
    const res = await run(text);
    expect(res.status, `${text}: ${JSON.stringify(res.body)}`).toBe(400);
    return res.body.code as string;
  };

  it('are not written, run or listed by a company’s account, whatever its permissions', async () => {
    refused(await companyDesigner.post('/api/data/run', { sql: 'select title from lc_view_18' }), 403, 'SCOPE_ALL_ONLY');
    refused(await companyDesigner.post('/api/data/add', { name: '跨企业', sql: 'select 1 as one' }), 403, 'SCOPE_ALL_ONLY');
    refused(await companyDesigner.post('/api/data/update', { id: 8, name: '最新处置订单', sql: 'select 1 as one' }), 403, 'SCOPE_ALL_ONLY');
    refused(await companyDesigner.get('/api/data/list', { page: 0, size: 10 }), 403, 'SCOPE_ALL_ONLY');
    refused(await companyDesigner.get('/api/data/columns', { id: 8 }), 403, 'SCOPE_ALL_ONLY');
    // A disabled screen is not read through screen:list by a company's account either.
    const disabled = await sql<{ id: number }>`insert into lc_screen (name, type, status) values ('停用的大屏', 2, 0) returning id`.execute(
      server.ctx.db,
    );
    expect((await companyDesigner.get('/api/screen/detail', { id: disabled.rows[0]?.id })).status).toBe(403);
  });

  it('never read the leave messages private to their recipients, however the table is named', async () => {
    for (const text of [
      'select title, content from lc_view_18',
      'select count(*) from lc_view_18',
      'select count(*) from "lc_view_18"',
      'select count(*) from public.lc_view_18',
      'select count(*) from U&"lc\\005fview\\005f18"',
      'table lc_view_18',
      'select to_json(t) as j from lc_view_18 t',
      'with x as (select * from lc_view_18) select count(*) from x',
    ])
      expect(await code(text), text).toBe('SQL_TABLE');
  });

  it('are refused numbers larger than a double, and a company account cannot redesign a shared view', async () => {
    expect(await code("select length(('1e130000'::numeric - 1)::text) as n")).toBe('SQL_TOO_LARGE');
    expect(await code('select 1e130000 - 1 as n')).toBe('SQL_TOO_LARGE');
    expect(await code("select ('1e' || '130000')::numeric as n")).toBe('SQL_TOO_LARGE');
    expect(await code('select remark::numeric as n from lc_view_12')).toBe('SQL_TOO_LARGE');
    expect((await run('select remark::numeric(20, 2) as n from lc_view_12 where false')).status).toBe(200);
    expect((await run('select sum(quantity)::numeric as n, count(*)::numeric as c from lc_view_12')).status).toBe(200);
    // View definitions are shared by every company: a company's account does not design them.
    refused(await companyDesigner.post('/api/generation/design', { id: 12, disTemplate: '{}' }), 403, 'SCOPE_ALL_ONLY');
  });

  it('answers no more than its byte budget of rows', async () => {
    // A server of its own with a small budget: wide rows past it are cut, as rows past the row cap.
    const small = await startTestServer({ dataViewMaxBytes: 20_000 });
    try {
      const platform = await small.login('admin');
      const res = await platform.post('/api/data/run', { sql: "select lpad('', 900, 'x') as w from generate_series(1, 60) g" });
      expect(res.status, JSON.stringify(res.body).slice(0, 200)).toBe(200);
      expect(res.body.truncated).toBe(true);
      expect(res.body.list.length).toBeGreaterThan(10);
      expect(res.body.list.length).toBeLessThan(23);
      expect(res.body.columns).toEqual(['w']);
      const narrow = await platform.post('/api/data/run', { sql: 'select g from generate_series(1, 60) g' });
      expect(narrow.body).toMatchObject({ truncated: false, columns: ['g'] });
      expect(narrow.body.list).toHaveLength(60);
    } finally {
      await small.close();
    }
  });

  it('cannot hold the embedded database with what it can neither price nor interrupt', async () => {
    const forms = [
      "select 'x' ~ '((a{1,200}){1,200})' as c",
      "select substring('x' from '((a{1,200}){1,200})') as s",
      "select pg_catalog.substring('x', '((a{1,200}){1,200})') as s",
      "select substring('x' similar 'a' escape '#') as s",
      `select lpad('', 1000, 'a') like '%${'a'.repeat(300)}b' as x`,
      "select c.name like c.name || '%' as x from company c",
      "select translate(c.name, lpad('', 500, 'b'), 'x') as x from company c",
      "select '[1,2]'::jsonb @> '[2]'::jsonb as x",
      'select count(*) from generate_series(1, 300) a join generate_series(1, 300) b on a % 1 = b % 1',
      "select lpad('b', 202, 'a') ~ '^(a*)(a*)(a*)(a*)\\4\\3\\2\\1b$' as x",
      "select c.name ~ '^(a*)*$' as x from company c",
      "select 'ab' similar to '(a|b)*' as x",
      'select length((7::numeric ^ 150000)::text) as n',
      'select power(7::numeric, 150000) as n',
    ];
    const products =
      'with a as (select 99::numeric x), b as (select x * x * x * x * x * x * x * x y from a), c as (select y * y * y * y * y * y * y * y z from b) select z * z * z * z * z * z * z * z from c';
    if (server.ctx.dbKind === 'pglite') {
      for (const f of forms) expect(await code(f)).toBe('SQL_PGLITE_UNPRICED');
      expect(await code(products)).toBe('SQL_TOO_LARGE');
    } else {
      // PostgreSQL's statement time limit stops them: the guard lets them be written.
      expect((await run("select 'abc' ~ '^a' as x")).status).toBe(200);
    }
    // PGlite still answers, and logins still work.
    expect((await server.api.get('/api/health')).status).toBe(200);
    expect((await server.login('producer')).token).toBeTruthy();
  });

  it('cannot run SQL text through a call written as a field, nor read secrets', async () => {
    expect(await code(`select (s.q).ts_stat from (select ${secret}::text q) s`)).toBe('SQL_CONSTRUCT');
    expect(await code(`select s.ts_stat from (select ${secret}::text q) s`)).toBe('SQL_NAME');
    expect(await code(`select q.ts_stat from (select ${secret}::text q) s`)).toBe('SQL_NAME');
    expect(await code('select value from sys_setting')).toBe('SQL_TABLE');
    expect(await code('select password from sys_user')).toBe('SQL_TABLE');
    // An ordinary chart still runs.
    expect((await run('select name, type from company order by id limit 3')).status).toBe(200);
  });

  it('cannot undo its role, sleep or hold a lock, in any notation', async () => {
    expect(await code("select set_config('role', 'none', true)")).toBe('SQL_FUNCTION');
    expect(await code(`select (s.q).set_config from (select 'role'::text q) s`)).toBe('SQL_CONSTRUCT');
    expect(await code('select (s.x).pg_sleep from (select 3::float8 x) s')).toBe('SQL_CONSTRUCT');
    expect(await code('select x.pg_advisory_lock from (select 424242::int8 x) s')).toBe('SQL_NAME');
    expect(await advisoryLocks(server.ctx.db)).toBe(0);
  });

  it('cannot cast to catalog or XML types', async () => {
    expect(await code("select '<a/>'::xml")).toBe('SQL_CAST_TYPE');
    expect(await code("select 'sys_user'::regclass")).toBe('SQL_CAST_TYPE');
  });

  it('cannot build a value large enough to hold the server', async () => {
    const grow = (depth: number) =>
      Array.from({ length: depth }).reduce<string>((inner) => `replace(${inner}, 'a', 'aaaaaaaaaa')`, "'aaaaaaaaaa'");
    expect(await code(`select length(${grow(8)})`)).toBe('SQL_TOO_LARGE');
    expect((await run(`select length(${grow(2)}) as n`)).body.list).toEqual([{ n: 1000 }]);
  });
});

describe('an import', () => {
  it('refuses a small file whose cells all show one long shared string, writing nothing', async () => {
    const before = await sql<{ n: number }>`select count(*)::int as n from lc_view_17`.execute(server.ctx.db);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(sharedStringBombXlsx())]), '车辆.xlsx');
    const res = await admin.request('POST', '/api/general/17/import', { body: form });
    expect(res.body).toMatchObject(refusal(400, 'IMPORT_CELL_TOO_LONG', { row: 1, column: 1, max: 32767 }));
    const after = await sql<{ n: number }>`select count(*)::int as n from lc_view_17`.execute(server.ctx.db);
    expect(after.rows[0]?.n).toBe(before.rows[0]?.n);
  });
});

// Parties named by company id, and the carrier named on the disposal order; each with its own server.
describe('parties by id and the carrier', partiesByIdAndCarrier);

// The smaller holes: sockets of pending accounts, company codes, open uploads, old passwords, leave-message
// receivers, label codes, links in system messages and the per-address login lock.
describe('the smaller holes', smallerHoles);
