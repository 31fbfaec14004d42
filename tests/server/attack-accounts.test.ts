import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../server/errors.js';
import { DEPT, MENU, ROLE, USER } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { accountMaker } from '../helpers/accounts.js';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, type ApiResponse, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Attacks made with ordinary accounts holding one narrow power each, created as an administrator would:
 * a company's user editor, a company's role editor, a designer, and the demo carrier (logistics).
 * Each sends the forbidden request and expects its refusal.
 */

let server: TestServer;
let admin: ApiClient;
const answer = (res: ApiResponse) => ({ status: res.status, code: res.body?.code, message: res.body?.message });
const refused = (res: ApiResponse, status: number, code: ErrorCode) =>
  expect(answer(res), JSON.stringify(res.body).slice(0, 400)).toEqual(refusal(status, code));

const {
  account,
  role,
  phone: nextPhone,
} = accountMaker(
  () => server,
  () => admin,
  '1372222',
);
const buttons = (page: number) => [page * 10 + 1, page * 10 + 2, page * 10 + 3];
const DESIGN_MENUS = [
  MENU.lowcode,
  MENU.generation,
  611,
  612,
  613,
  614,
  615,
  MENU.screen,
  621,
  622,
  623,
  624,
  MENU.dataView,
  631,
  632,
  633,
];

let hr: { id: number; api: ApiClient };
let roleEditor: { id: number; api: ApiClient };
let roleEditorRole: number;
let companyDesigner: ApiClient;
let platformDesigner: ApiClient;
let carrier: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
  const hrRole = await role('攻击-企业人事', [MENU.dashboard, MENU.system, MENU.user, ...buttons(MENU.user)], '本企业', COMPANY.producer);
  hr = await account('atk_hr', DEPT.producers, COMPANY.producer, [hrRole]);
  roleEditorRole = await role('攻击-企业角色', [MENU.dashboard, MENU.system, MENU.role, ...buttons(MENU.role)], '本企业', COMPANY.producer);
  roleEditor = await account('atk_roles', DEPT.producers, COMPANY.producer, [roleEditorRole]);
  companyDesigner = (await account('atk_design', DEPT.producers, COMPANY.producer, [await role('攻击-企业设计', DESIGN_MENUS)])).api;
  platformDesigner = (await account('atk_design_pf', DEPT.ops, null, [await role('攻击-平台设计', DESIGN_MENUS, '全部')])).api;
  carrier = await server.login('logistics');
});
afterAll(async () => {
  await server?.close();
});

describe('refusals that hold', () => {
  it('a company user editor gives itself no platform or super-admin role, no admin flag, and places no user outside its company', async () => {
    refused(await hr.api.put('/api/users', { id: hr.id, roles: [{ id: ROLE.superAdmin }] }), 403, 'ROLE_NOT_GRANTABLE');
    refused(await hr.api.put('/api/users', { id: hr.id, roles: [{ id: ROLE.supervisor }] }), 403, 'ROLE_NOT_GRANTABLE');
    refused(await hr.api.put('/api/users', { id: hr.id, isAdmin: true }), 403, 'ADMIN_ONLY_SETS_ADMIN');
    refused(
      await hr.api.post('/api/users', { username: 'atk_x1', nickName: 'xx', phone: nextPhone(), deptId: DEPT.disposers, roles: [] }),
      403,
      'USER_OUTSIDE_SCOPE',
    );
    refused(
      await hr.api.post('/api/users', {
        username: 'atk_x2',
        nickName: 'xx',
        phone: nextPhone(),
        companyId: null,
        deptId: DEPT.supervision,
        roles: [],
      }),
      403,
      'USER_OUTSIDE_SCOPE',
    );
    refused(await hr.api.put('/api/users', { id: hr.id, deptId: DEPT.supervision, companyId: null }), 403, 'USER_OUTSIDE_SCOPE');
    refused(await hr.api.post('/api/pwd/reset', [USER.disposer]), 404, 'USER_NOT_FOUND');
    refused(await hr.api.post('/api/pwd/reset', [USER.admin]), 404, 'USER_NOT_FOUND');
    refused(await hr.api.put('/api/users', { id: USER.admin, enabled: false }), 404, 'USER_NOT_FOUND');
  });

  it('a company role editor widens no role beyond its company or its own menus', async () => {
    const own = { id: roleEditorRole, name: '攻击-企业角色', level: 3 };
    refused(await roleEditor.api.put('/api/roles', { ...own, dataScope: '全部' }), 400, 'COMPANY_ROLE_NOT_ALL');
    refused(await roleEditor.api.put('/api/roles', { ...own, level: 1 }), 403, 'ROLE_LEVEL_NOT_MANAGEABLE');
    refused(await roleEditor.api.put('/api/roles', { ...own, dataScope: '自定义', depts: [DEPT.supervision] }), 400, 'COMPANY_ROLE_DEPTS');
    refused(
      await roleEditor.api.put('/api/roles/menu', {
        id: roleEditorRole,
        menus: [MENU.role, MENU.user, ...buttons(MENU.user)].map((id) => ({ id })),
      }),
      403,
      'MENU_NOT_GRANTABLE',
    );
    refused(await roleEditor.api.put('/api/roles', { id: ROLE.superAdmin, name: 'x', level: 3 }), 403, 'PLATFORM_ROLE_READ_ONLY');
    // A companyId named in the body is ignored: the role is the editor's company's.
    const made = await roleEditor.api.post('/api/roles', { name: '攻击-他企角色', level: 3, companyId: COMPANY.disposer, menus: [] });
    expect(made.status).toBe(201);
    expect((await admin.get(`/api/roles/${made.body.id}`)).body).toMatchObject({ companyId: COMPANY.producer });
  });

  it('a company designer runs no data view; a platform designer reads no account or secret table', async () => {
    refused(await companyDesigner.post('/api/data/run', { sql: 'select 1 as one' }), 403, 'SCOPE_ALL_ONLY');
    refused(await companyDesigner.post('/api/generation/design', { id: 20 }), 403, 'SCOPE_ALL_ONLY');
    const sqlRefused = async (text: string, code: ErrorCode) => {
      const res = await platformDesigner.post('/api/data/run', { sql: text });
      expect({ status: res.status, code: res.body?.code }, `${text}: ${JSON.stringify(res.body)}`).toEqual({ status: 400, code });
    };
    for (const text of [
      'select (u).password from sys_user u',
      'table sys_user',
      'select U&"pass\\0077ord" from U&"sys_\\0075ser"',
      'with x as (select * from sys_user) select 1 from x',
      'select 1 from company c, lateral (select password from sys_user) z',
    ])
      await sqlRefused(text, 'SQL_TABLE');
    await sqlRefused("select set_config('role','x',false)", 'SQL_FUNCTION');
    await sqlRefused("select current_setting('data_directory')", 'SQL_FUNCTION');
  });

  it('the carrier reads and writes only the logistics orders it made and the disposal orders naming it', async () => {
    // Logistics order 1 and disposal order 1 are another carrier's.
    refused(await carrier.get('/api/general/detail', { generalId: 20, id: 1 }), 404, 'DATA_NOT_FOUND');
    refused(await carrier.get('/api/logisticsOrder/getLogisticsLinkman', { id: 1 }), 404, 'LOGISTICS_ORDER_NOT_FOUND');
    refused(await carrier.get('/api/logisticsOrder/getTransportInfo', { id: 1 }), 404, 'LOGISTICS_ORDER_NOT_FOUND');
    refused(await carrier.get('/api/general/formData', { generalId: 19, id: 1 }), 404, 'DATA_NOT_FOUND');
    refused(await carrier.post('/api/general/update/20', { id: 1, weight: 1 }), 404, 'DATA_NOT_FOUND');
    refused(await carrier.post('/api/general/delete/20', [1]), 404, 'DATA_NOT_FOUND');
    const repoint = await carrier.post('/api/general/update/20', { id: 2, disposalOrderId: 1 });
    expect(repoint.status).toBe(400);
    expect(repoint.body.errors?.[0]?.field).toBe('disposalOrderId');
    const vehicle = await carrier.post('/api/general/update/20', { id: 2, vehicleId: 2 });
    expect(vehicle.status).toBe(400);
    expect(vehicle.body.errors?.[0]?.field).toBe('vehicleId');
    expect((await carrier.get('/api/general/allList/19/queryLink', { queryParam: JSON.stringify({ carrierId: 11 }) })).body).toEqual([]);
  });
});
