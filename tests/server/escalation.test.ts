import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MENU, ROLE, USER } from '../../server/seed/accounts.js';
import type { ErrorCode } from '../../src/shared/error-catalogue.js';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, type ApiResponse, DEMO_PASSWORD, startTestServer, TEST_CAPTCHA, type TestServer } from '../helpers/server.js';

/**
 * Role levels (a smaller number is higher; administrators above all): a user who manages users and roles
 * with a level-2 role may not reach above itself, whatever it sends.
 */

let server: TestServer;
let admin: ApiClient;
let mid: ApiClient;
let midId: number;
/** A user holding the level-1 role without being an administrator. */
let topId: number;
let midRoleId: number;

const MID_PASSWORD = 'Mid@2026level';
/** Buttons under a system page: page id * 10 + 1..3 (add, edit, delete). */
const buttons = (page: number) => [page * 10 + 1, page * 10 + 2, page * 10 + 3];
const refs = (ids: number[]) => ids.map((id) => ({ id }));

const refused = (res: ApiResponse, code: ErrorCode) =>
  expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: refusal(403, code) });

const passwordOf = async (id: number) =>
  (await server.ctx.db.selectFrom('sys_user').select('password').where('id', '=', id).executeTakeFirstOrThrow()).password;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
  // Through the real calls, as an administrator would: a level-2 role holding user and role management
  // and company approval (not menu management), and an account with it.
  const role = await admin.post('/api/roles', {
    name: '二级管理员',
    level: 2,
    // A platform manager: accounts and roles of every company are within its data scope.
    dataScope: '全部',
    menus: refs([MENU.dashboard, MENU.system, MENU.user, ...buttons(MENU.user), MENU.role, ...buttons(MENU.role), MENU.companyApply, 761]),
  });
  expect(role.status, JSON.stringify(role.body)).toBe(201);
  midRoleId = role.body.id;
  const user = await admin.post('/api/users', {
    username: 'midadmin',
    nickName: '二级管理',
    phone: '13770005551',
    roles: [{ id: midRoleId }],
  });
  expect(user.status, JSON.stringify(user.body)).toBe(201);
  midId = user.body.id;
  const top = await admin.post('/api/users', {
    username: 'topuser',
    nickName: '一级用户',
    phone: '13770005552',
    roles: [{ id: ROLE.superAdmin }],
  });
  expect(top.status, JSON.stringify(top.body)).toBe(201);
  topId = top.body.id;
  // A new account starts on the default password and changes it before anything else.
  const first = await server.login('midadmin');
  const enc = (s: string) => first.encrypt(s);
  const saved = await first.post('/api/pwd/save', {
    oldPass: await enc(DEMO_PASSWORD),
    newPass: await enc(MID_PASSWORD),
    confirmPass: await enc(MID_PASSWORD),
  });
  expect(saved.body.status, JSON.stringify(saved.body)).toBe(200);
  mid = await server.login('midadmin', MID_PASSWORD);
});
afterAll(async () => {
  await server?.close();
});

describe('users above the caller', () => {
  it("refuses to reset an administrator's or a higher user's password, and resets a lower one's", async () => {
    const before = await passwordOf(USER.admin);
    refused(await mid.post('/api/pwd/reset', { ids: [USER.admin] }), 'USER_LEVEL_NOT_MANAGEABLE');
    refused(await mid.post('/api/pwd/reset', [USER.producer, USER.admin]), 'USER_LEVEL_NOT_MANAGEABLE');
    refused(await mid.post('/api/pwd/reset', { id: topId }), 'USER_LEVEL_NOT_MANAGEABLE');
    expect(await passwordOf(USER.admin)).toBe(before);
    // The administrator can still sign in with its password.
    expect((await server.api.loginRaw('admin', DEMO_PASSWORD)).body.status).toBe(200);
    const lower = await mid.post('/api/pwd/reset', { ids: [USER.collector] });
    expect(lower.body).toMatchObject({ status: 200, count: 1 });
  });

  it('refuses to edit, disable or delete a higher user or an administrator', async () => {
    refused(await mid.put('/api/users', { id: USER.admin, nickName: '改管理员' }), 'ADMIN_NOT_EDITABLE');
    refused(await mid.put('/api/users', { id: topId, nickName: '改一级' }), 'USER_LEVEL_NOT_MANAGEABLE');
    refused(await mid.put('/api/users', { id: topId, enabled: false }), 'USER_LEVEL_NOT_MANAGEABLE');
    refused(await mid.delete('/api/users', [topId]), 'USER_LEVEL_NOT_MANAGEABLE');
    refused(await mid.delete('/api/users', [USER.admin]), 'ADMIN_NOT_DELETABLE');
    const top = await server.ctx.db
      .selectFrom('sys_user')
      .select(['nick_name', 'status'])
      .where('id', '=', topId)
      .executeTakeFirstOrThrow();
    expect(top).toEqual({ nick_name: '一级用户', status: 0 });
  });

  it('edits users at its own level and below', async () => {
    // The supervisor's role is level 2, like the caller's.
    const same = await mid.put('/api/users', { id: USER.supervisor, job: '监管科长' });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    const lower = await mid.put('/api/users', { id: USER.logistics, job: '调度经理' });
    expect(lower.status).toBe(200);
    expect(lower.body.job).toBe('调度经理');
  });
});

describe('roles above the caller', () => {
  it('refuses to give itself the administrator role, a higher role or administrator rights', async () => {
    refused(await mid.put('/api/users', { id: midId, roles: refs([ROLE.superAdmin]) }), 'ROLE_LEVEL_NOT_ASSIGNABLE');
    refused(await mid.put('/api/users', { id: midId, roles: refs([midRoleId, ROLE.superAdmin]) }), 'ROLE_LEVEL_NOT_ASSIGNABLE');
    refused(await mid.put('/api/users', { id: midId, isAdmin: true }), 'ADMIN_ONLY_SETS_ADMIN');
    const roles = await server.ctx.db.selectFrom('sys_users_roles').select('role_id').where('user_id', '=', midId).execute();
    expect(roles).toEqual([{ role_id: midRoleId }]);
    // Its session still carries no more than its role gave.
    expect((await mid.get('/api/menus')).status).toBe(403);
  });

  it('refuses a higher role on a new account or on a lower one, and gives roles at or below its level', async () => {
    refused(
      await mid.post('/api/users', { username: 'sneaky01', nickName: '冒名', phone: '13770005553', roles: refs([ROLE.superAdmin]) }),
      'ROLE_LEVEL_NOT_ASSIGNABLE',
    );
    expect(await server.ctx.db.selectFrom('sys_user').select('id').where('username', '=', 'sneaky01').executeTakeFirst()).toBeUndefined();
    refused(await mid.put('/api/users', { id: USER.producer, roles: refs([ROLE.superAdmin]) }), 'ROLE_LEVEL_NOT_ASSIGNABLE');
    const clerk = await mid.post('/api/users', {
      username: 'clerk02',
      nickName: '办事员',
      phone: '13770005554',
      roles: refs([ROLE.producer, ROLE.supervisor]),
    });
    expect(clerk.status, JSON.stringify(clerk.body)).toBe(201);
    expect(clerk.body.roles.map((r: { id: number }) => r.id).sort()).toEqual([ROLE.supervisor, ROLE.producer].sort());
    expect((await mid.post('/api/pwd/reset', { ids: [clerk.body.id] })).status).toBe(200);
    expect((await mid.delete('/api/users', [clerk.body.id])).status).toBe(200);
  });

  it('refuses to create, edit, grant or delete a role above its level', async () => {
    refused(await mid.post('/api/roles', { name: '越级角色', level: 1 }), 'ROLE_LEVEL_NOT_MANAGEABLE');
    refused(
      await mid.put('/api/roles', { id: ROLE.superAdmin, name: '超级管理员', level: 1, description: '改' }),
      'ROLE_LEVEL_NOT_MANAGEABLE',
    );
    refused(await mid.put('/api/roles/menu', { id: ROLE.superAdmin, menus: [] }), 'ROLE_LEVEL_NOT_MANAGEABLE');
    refused(await mid.delete('/api/roles', [ROLE.superAdmin]), 'ROLE_LEVEL_NOT_MANAGEABLE');
    // Nor lift a role of its own level above itself.
    const own = await mid.post('/api/roles', { name: '二级助理', level: 2, menus: refs([MENU.dashboard]) });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    refused(await mid.put('/api/roles', { id: own.body.id, name: '二级助理', level: 1 }), 'ROLE_LEVEL_NOT_MANAGEABLE');
    const row = await server.ctx.db.selectFrom('sys_role').select(['level']).where('id', '=', own.body.id).executeTakeFirstOrThrow();
    expect(row.level).toBe(2);
    const superMenus = await server.ctx.db.selectFrom('sys_roles_menus').select('menu_id').where('role_id', '=', ROLE.superAdmin).execute();
    expect(superMenus.length).toBeGreaterThan(50);
    expect((await mid.delete('/api/roles', [own.body.id])).status).toBe(200);
  });

  it('grants only menus it holds; menus a role already has may stay', async () => {
    // 菜单管理 (menu:list …) is not the caller's.
    refused(
      await mid.post('/api/roles', { name: '菜单角色', level: 3, menus: refs([MENU.menu, ...buttons(MENU.menu)]) }),
      'MENU_NOT_GRANTABLE',
    );
    refused(await mid.put('/api/roles/menu', { id: ROLE.producer, menus: refs([MENU.dashboard, MENU.menu]) }), 'MENU_NOT_GRANTABLE');
    const producerMenus = await server.ctx.db
      .selectFrom('sys_roles_menus')
      .select('menu_id')
      .where('role_id', '=', ROLE.producer)
      .execute();
    expect(producerMenus.map((m) => m.menu_id)).not.toContain(MENU.menu);

    // An administrator's role of level 3 with a menu the caller lacks: editing it keeps that menu.
    const made = await admin.post('/api/roles', { name: '菜单维护', level: 3, menus: refs([MENU.dashboard, MENU.menu]) });
    expect(made.status).toBe(201);
    const kept = await mid.put('/api/roles/menu', { id: made.body.id, menus: refs([MENU.dashboard, MENU.menu, MENU.user]) });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    refused(
      await mid.put('/api/roles/menu', { id: made.body.id, menus: refs([MENU.dashboard, MENU.menu, MENU.dept]) }),
      'MENU_NOT_GRANTABLE',
    );
    refused(
      await mid.put('/api/roles', { id: made.body.id, name: '菜单维护', level: 3, menus: refs([MENU.menu, ...buttons(MENU.menu)]) }),
      'MENU_NOT_GRANTABLE',
    );
    const menus = await server.ctx.db
      .selectFrom('sys_roles_menus')
      .select('menu_id')
      .where('role_id', '=', made.body.id)
      .orderBy('menu_id')
      .execute();
    expect(menus.map((m) => m.menu_id)).toEqual([MENU.dashboard, MENU.user, MENU.menu].sort((a, b) => a - b));
    const granted = await mid.post('/api/roles', { name: '用户查看', level: 3, menus: refs([MENU.dashboard, MENU.user]) });
    expect(granted.status, JSON.stringify(granted.body)).toBe(201);
  });

  it('approves a company application only with roles at or below its level', async () => {
    const uuid = String((await server.api.get('/api/auth/code')).body.uuid);
    const applied = await server.api.post('/api/companyApplication/insert', {
      name: '南京越级测试化工有限公司',
      type: '1',
      region: '320000,320100,320113',
      applicant: '申请人甲',
      phone: '13770005555',
      code: TEST_CAPTCHA,
      uuid,
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const { id } = await server.ctx.db
      .selectFrom('company_application')
      .select('id')
      .where('name', '=', '南京越级测试化工有限公司')
      .executeTakeFirstOrThrow();
    refused(await mid.post('/api/companyApplication/approve', { id, roles: refs([ROLE.superAdmin]) }), 'ROLE_LEVEL_NOT_ASSIGNABLE');
    const pending = await server.ctx.db.selectFrom('company_application').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(pending.status).toBe(0);
    const approved = await mid.post('/api/companyApplication/approve', { id, roles: refs([ROLE.producer]) });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  });
});

describe('administrators', () => {
  it('stay above every role', async () => {
    const res = await admin.put('/api/users', { id: topId, nickName: '一级改名' });
    expect(res.status).toBe(200);
    expect((await admin.post('/api/pwd/reset', { ids: [topId] })).status).toBe(200);
    expect((await admin.put('/api/roles/menu', { id: midRoleId, menus: refs([MENU.dashboard, MENU.menu]) })).status).toBe(200);
  });
});
