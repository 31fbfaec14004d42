import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPT, MENU } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { treeIds } from '../helpers/tree.js';

/**
 * Accounts, departments and roles are records too: for a manager of each data scope, the user list, the
 * department list and the role list hold exactly what the scope allows, counted in SQL written here,
 * independently of the server's conditions.
 */

let server: TestServer;
let admin: ApiClient;

const buttons = (page: number) => [page * 10 + 1, page * 10 + 2, page * 10 + 3];
const MANAGER_MENUS = [MENU.dashboard, MENU.system, MENU.user, ...buttons(MENU.user), MENU.role, MENU.dept, ...buttons(MENU.dept)];

interface Manager {
  client: ApiClient;
  id: number;
  companyId: number | null;
  deptId: number;
  scope: '全部' | '本企业' | '本部门' | '本人' | '自定义';
  custom: number[];
}

const managers: Manager[] = [];
let seq = 0;

async function manager(scope: Manager['scope'], deptId: number, companyId: number | null, custom: number[] = []): Promise<Manager> {
  seq += 1;
  const role = await admin.post('/api/roles', {
    name: `范围${scope}${seq}`,
    level: 3,
    dataScope: scope,
    depts: custom,
    menus: MANAGER_MENUS.map((id) => ({ id })),
  });
  expect(role.status, JSON.stringify(role.body)).toBe(201);
  const username = `scope_mgr_${seq}`;
  const made = await admin.post('/api/users', {
    username,
    nickName: `范围管理${seq}`,
    phone: `1360000${String(seq).padStart(4, '0')}`,
    deptId,
    companyId,
    roles: [{ id: role.body.id }],
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  await server.ctx.db.updateTable('sys_user').set({ pwd_reset_time: new Date() }).where('id', '=', made.body.id).execute();
  return { client: await server.login(username), id: made.body.id, companyId, deptId, scope, custom };
}

/** The departments a manager reaches, in SQL: 全部 all, 本企业 its company's, 本部门 its subtree in its company, 自定义 the chosen. */
async function deptsOf(m: Manager): Promise<number[]> {
  const db = server.ctx.db;
  let rows: { id: number }[];
  if (m.scope === '全部') rows = (await sql<{ id: number }>`select id from sys_dept`.execute(db)).rows;
  else if (m.scope === '本企业')
    rows = (await sql<{ id: number }>`select id from sys_dept where company_id = ${m.companyId}`.execute(db)).rows;
  else if (m.scope === '本部门')
    rows = (
      await sql<{ id: number }>`with recursive t(id) as (
        select id from sys_dept where id = ${m.deptId}
        union select d.id from sys_dept d join t on d.pid = t.id where d.company_id is not distinct from ${m.companyId})
      select id from t`.execute(db)
    ).rows;
  else if (m.scope === '自定义') rows = m.custom.map((id) => ({ id }));
  else rows = [];
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

async function usersOf(m: Manager): Promise<number[]> {
  const db = server.ctx.db;
  const depts = await deptsOf(m);
  const rows =
    m.scope === '全部'
      ? (await sql<{ id: number }>`select id from sys_user where status <> 2`.execute(db)).rows
      : (
          await sql<{ id: number }>`select id from sys_user where status <> 2 and (
            id = ${m.id}
            or (${m.scope === '本企业'} and company_id = ${m.companyId ?? -1})
            or dept_id = any(${depts}::int[]))`.execute(db)
        ).rows;
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

async function rolesOf(m: Manager): Promise<number[]> {
  const rows =
    m.scope === '全部'
      ? (await sql<{ id: number }>`select id from sys_role`.execute(server.ctx.db)).rows
      : (
          await sql<{ id: number }>`select id from sys_role where company_id is null or company_id = ${m.companyId ?? -1}`.execute(
            server.ctx.db,
          )
        ).rows;
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
  // A company's own role, which only its company sees.
  const companyRole = await admin.post('/api/roles', { name: '处置企业自有角色', level: 3, companyId: COMPANY.disposer, menus: [] });
  expect(companyRole.status, JSON.stringify(companyRole.body)).toBe(201);
  const section = await admin.post('/api/dept', { pid: DEPT.producers, name: '产废危废科' });
  expect(section.status).toBe(201);
  managers.push(
    await manager('全部', DEPT.ops, null),
    await manager('本企业', DEPT.producers, COMPANY.producer),
    await manager('本企业', DEPT.disposers, COMPANY.disposer),
    await manager('本部门', section.body.id, COMPANY.producer),
    await manager('本部门', DEPT.service, null),
    await manager('本人', DEPT.producers, COMPANY.producer),
    await manager('自定义', DEPT.collectors, COMPANY.collector, [DEPT.producers, DEPT.collectors]),
  );
});
afterAll(async () => {
  await server?.close();
});

describe('managers of each data scope', () => {
  it('list exactly the users their scope reaches', async () => {
    for (const m of managers) {
      const res = await m.client.get('/api/users', { page: 0, size: 1000 });
      expect(res.status).toBe(200);
      const ids = res.body.content.map((u: { id: number }) => u.id).sort((a: number, b: number) => a - b);
      expect(ids, `${m.scope} of company ${m.companyId}`).toEqual(await usersOf(m));
      expect(res.body.totalElements).toBe(ids.length);
    }
  });

  it('list exactly the departments their scope reaches', async () => {
    for (const m of managers) {
      const tree = await m.client.get('/api/dept/find', { scope: 'manage' });
      expect(tree.status).toBe(200);
      const ids = treeIds(tree.body.data);
      const enabled = (await sql<{ id: number }>`select id from sys_dept where enabled`.execute(server.ctx.db)).rows.map((r) => r.id);
      const expected = (await deptsOf(m)).filter((d) => enabled.includes(d));
      expect(
        ids.sort((a, b) => a - b),
        `${m.scope} of company ${m.companyId}`,
      ).toEqual(expected);
    }
  });

  it('see the platform’s roles and their own company’s, never another company’s', async () => {
    for (const m of managers) {
      const res = await m.client.get('/api/roles', { page: 0, size: 9999 });
      expect(res.status).toBe(200);
      const ids = res.body.content.map((r: { id: number }) => r.id).sort((a: number, b: number) => a - b);
      expect(ids, `${m.scope} of company ${m.companyId}`).toEqual(await rolesOf(m));
    }
  });

  it('answer a user, department or role outside the scope as missing', async () => {
    const producerScope = managers[1] as Manager;
    const outside = await sql<{
      id: number;
    }>`select id from sys_user where company_id = ${COMPANY.disposer} and status <> 2 limit 1`.execute(server.ctx.db);
    const target = outside.rows[0]?.id as number;
    expect((await producerScope.client.put('/api/users', { id: target, nickName: '越界修改' })).status).toBe(404);
    expect((await producerScope.client.put('/api/dept', { id: DEPT.disposers, name: '越界' })).status).toBe(404);
    const foreignRole = await sql<{ id: number }>`select id from sys_role where company_id = ${COMPANY.disposer} limit 1`.execute(
      server.ctx.db,
    );
    expect((await producerScope.client.get(`/api/roles/${foreignRole.rows[0]?.id}`)).status).toBe(404);
  });
});
