import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../server/errors.js';
import { DEPT, MENU, ROLE, USER } from '../../server/seed/accounts.js';
import { COMPANY, VIEWS } from '../../server/seed/ids.js';
import { accountMaker } from '../helpers/accounts.js';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, type ApiResponse, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Attack 36, second round: ordinary accounts (the demo companies' users, and narrow accounts made as an
 * administrator would: a company's user editor and role editor, a company designer) against big screens
 * and data views, the audit trail, page titles, record filters by id, imports by name and account
 * management. Every probe sends the forbidden request and asserts the refusal or a scoped answer.
 * Failing when written (2026-11-29):
 * - a company's user editor reset the password of (or edited, disabled, deleted) a colleague holding a
 *   platform role it could not give, and so took that role;
 * - a big screen's share key was stored in the audit trail's before and after values;
 * - a company's menu editor changed the menus every company shares, and re-pointed a button it holds at
 *   any permission (admin too); a company's dictionary or bulletin editor changed every company's;
 * - a platform menu editor who is not an administrator gave its own menus any permission;
 * - a company designer uploaded files read without a session.
 */

let server: TestServer;
const ACCOUNTS = ['producer', 'disposer', 'logistics', 'collector'] as const;
const as = {} as Record<'admin' | 'supervisor' | (typeof ACCOUNTS)[number], ApiClient>;
const said = (r: ApiResponse) => JSON.stringify(Buffer.isBuffer(r.body) ? `<${r.body.length} bytes>` : r.body).slice(0, 300);
const answer = (res: ApiResponse) => ({ status: res.status, code: res.body?.code, message: res.body?.message });
const refused = (res: ApiResponse, status: number, code: ErrorCode) => expect(answer(res), said(res)).toEqual(refusal(status, code));
type Row = Record<string, any>;

const buttons = (page: number) => [page * 10 + 1, page * 10 + 2, page * 10 + 3];

const {
  account,
  role,
  phone: nextPhone,
} = accountMaker(
  () => server,
  () => as.admin,
  '1373333',
);

let hr: { id: number; api: ApiClient };
let roleEditor: { id: number; api: ApiClient };
let companyDesigner: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  for (const u of ['admin', 'supervisor', ...ACCOUNTS] as const) as[u] = await server.login(u);
  const hrRole = await role('攻击b-企业人事', [MENU.dashboard, MENU.system, MENU.user, ...buttons(MENU.user)], '本企业', COMPANY.producer);
  hr = await account('atkb_hr', DEPT.producers, COMPANY.producer, [hrRole]);
  const roleEditorRole = await role(
    '攻击b-企业角色',
    [MENU.dashboard, MENU.system, MENU.role, ...buttons(MENU.role)],
    '本企业',
    COMPANY.producer,
  );
  roleEditor = await account('atkb_roles', DEPT.producers, COMPANY.producer, [roleEditorRole]);
  const design = [MENU.lowcode, MENU.screen, 621, 622, 623, 624, MENU.dataView, 631, 632, 633];
  companyDesigner = (await account('atkb_design', DEPT.producers, COMPANY.producer, [await role('攻击b-企业设计', design)])).api;
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('big screens and their data views', () => {
  it('no company account lists, designs, shares or reads the definitions of screens and data views', async () => {
    for (const u of ACCOUNTS) {
      for (const [method, path, body] of [
        ['GET', '/api/screen/list', undefined],
        ['GET', '/api/data/list', undefined],
        ['GET', '/api/data/columns?id=9', undefined],
        ['POST', '/api/screen/share', { id: 50, expiresIn: 3600 }],
        ['POST', '/api/screen/renewKey', { id: 50 }],
        ['POST', '/api/screen/update', { id: 50, name: 'x', status: 0 }],
        ['POST', '/api/screen/design', { id: 50, disTemplate: '{}' }],
        ['POST', '/api/data/run', { sql: 'select 1' }],
      ] as const) {
        const r = await as[u].request(method, path, body === undefined ? {} : { json: body });
        expect(r.status, `${u} ${method} ${path}: ${said(r)}`).toBe(403);
      }
    }
  });

  it('a company designer (screen and data-view permissions, 本企业) reads no platform screen and runs no data view', async () => {
    refused(await companyDesigner.get('/api/screen/list'), 403, 'SCOPE_ALL_ONLY');
    refused(await companyDesigner.get('/api/data/list'), 403, 'SCOPE_ALL_ONLY');
    refused(await companyDesigner.post('/api/screen/share', { id: 50, expiresIn: 3600 }), 403, 'SCOPE_ALL_ONLY');
    refused(await companyDesigner.post('/api/screen/renewKey', { id: 50 }), 403, 'SCOPE_ALL_ONLY');
    refused(await companyDesigner.get('/api/screen/detail', { id: 50 }), 403, 'SCREEN_FORBIDDEN');
    for (const id of [1, 2, 4, 5, 7, 8, 9]) refused(await companyDesigner.get('/api/data/detail', { id }), 403, 'DATA_VIEW_FORBIDDEN');
  });

  it('a company designer uploads no file that is read without a session', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const form = new FormData();
    form.append('open', '1');
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'bg.png');
    const r = await companyDesigner.request('POST', '/api/file/upload', { body: form });
    refused(r, 403, 'OPEN_UPLOAD_DENIED');
  });

  it('the open calls answer nothing without a whole signed link', async () => {
    const anon = server.api;
    for (const q of [
      { lsId: 50 },
      { id: 50 },
      { lsId: 50, accessKey: 'x' },
      { lsId: 50, accessKey: 'x', timestamp: Date.now() + 60_000 },
    ]) {
      for (const path of ['/api/open/getGeneralScreen', '/api/open/data', '/api/open/getCityInfo']) {
        const r = await anon.get(path, { ...q, dataViewId: 9 });
        expect([r.status, r.body.code], `${path} ${JSON.stringify(q)}: ${said(r)}`).toEqual([401, 'SHARE_INVALID']);
      }
    }
    // A session is no substitute for the link.
    const r = await as.producer.get('/api/open/data', { lsId: 50, dataViewId: 9 });
    expect(r.status, said(r)).toBe(401);
  });

  it('a screen switched off opens no data view, even to an account whose menu leads to it', async () => {
    const detail = (await as.admin.get('/api/screen/detail', { id: 50 })).body;
    expect((await as.supervisor.get('/api/data/detail', { id: 9 })).status).toBe(200);
    const off = await as.admin.post('/api/screen/update', { id: 50, name: detail.name, status: 0 });
    expect(off.status, said(off)).toBe(200);
    try {
      refused(await as.supervisor.get('/api/data/detail', { id: 9 }), 403, 'DATA_VIEW_FORBIDDEN');
      for (const u of ACCOUNTS) refused(await as[u].get('/api/screen/detail', { id: 50 }), 403, 'SCREEN_FORBIDDEN');
    } finally {
      await as.admin.post('/api/screen/update', { id: 50, name: detail.name, status: 1 });
    }
  });
});

describe('audit trail', () => {
  it("keeps a big screen's share key out of the stored before and after values", async () => {
    const shared = await as.admin.post('/api/screen/share', { id: 50, expiresIn: 3600 });
    expect(shared.status, said(shared)).toBe(200);
    const renewed = await as.admin.post('/api/screen/renewKey', { id: 50 });
    expect(renewed.status, said(renewed)).toBe(200);
    const key = (await server.ctx.db.selectFrom('lc_screen').select('access_key').where('id', '=', 50).executeTakeFirstOrThrow())
      .access_key as string;
    expect(key).toBeTruthy();
    const stored = await server.ctx.db.selectFrom('sys_log').select('changes').where('record_table', '=', 'lc_screen').execute();
    expect(stored.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toContain(key);
    const read = await as.admin.get('/api/logs', { table: 'lc_screen', size: 100 });
    expect(read.status).toBe(200);
    const changes = read.body.content.flatMap((e: Row) => e.changes).filter((c: Row) => c.field === 'access_key');
    expect(changes.length, said(read)).toBeGreaterThan(0);
    for (const c of changes)
      expect(
        [c.before, c.after].every((v) => v === null || v === '******'),
        JSON.stringify(c),
      ).toBe(true);
  });

  it('keeps passwords out of the stored values of an account change', async () => {
    const reset = await as.admin.post('/api/pwd/reset', [USER.newcomer]);
    expect(reset.status, said(reset)).toBe(200);
    const stored = await server.ctx.db
      .selectFrom('sys_log')
      .select('changes')
      .where('record_table', '=', 'sys_user')
      .where('record_id', '=', String(USER.newcomer))
      .execute();
    const passwords = stored.map((s) => s.changes?.password).filter(Boolean);
    expect(passwords.length).toBeGreaterThan(0);
    for (const p of passwords) expect(p).toEqual(['******', '******']);
  });

  it("a company's user editor reads its company's trail only, whatever it filters by", async () => {
    // Entries of the producer's company, of another company and of the platform exist.
    await as.producer.put('/api/users/center', { nickName: '产废企业用户', phone: '13800000003', sex: '男' });
    await as.disposer.put('/api/users/center', { nickName: '处置企业用户', phone: '13800000004', sex: '男' });
    for (const q of [
      { companyId: COMPANY.disposer },
      { userId: USER.disposer },
      { username: 'disposer' },
      { userId: USER.admin },
      { username: 'admin' },
    ])
      refused(await hr.api.get('/api/logs', q), 403, 'LOG_OUTSIDE_SCOPE');
    for (const q of [{}, { table: 'sys_user' }, { recordId: String(USER.disposer) }, { table: 'lc_screen' }]) {
      const r = await hr.api.get('/api/logs', { size: 200, ...q });
      expect(r.status, said(r)).toBe(200);
      expect(
        r.body.content.every((e: Row) => e.companyId === COMPANY.producer || e.username === 'atkb_hr'),
        `${JSON.stringify(q)}: ${said(r)}`,
      ).toBe(true);
    }
    for (const u of ACCOUNTS) refused(await as[u].get('/api/logs'), 403, 'NO_PERMISSION');
  });
});

describe('page titles', () => {
  it('answer a title and nothing else, for any address', async () => {
    for (const path of ['/system/user', '/dev-tools/generation', '/screen/vBuild/temp/50', '/supervision/companyMange', '/nowhere']) {
      const r = await as.producer.get('/api/menus/page', { path });
      expect(r.status, said(r)).toBe(200);
      expect(Object.keys(r.body), said(r)).toEqual(['title']);
    }
    // The user's own routes hold no page the menus do not grant.
    const routes = JSON.stringify((await as.producer.get('/api/menus/build')).body);
    for (const page of ['system/user/index', 'dev-tools/generation', 'supervision/company/index']) expect(routes).not.toContain(page);
  });
});

describe('record filters by id', () => {
  it("every low-code list, detail, form and export answers nothing of another company's record by its id", async () => {
    for (const { id: viewId, componentName } of VIEWS) {
      const all: Row[] = (await as.admin.get(`/api/general/list/${viewId}`, { size: 1000 })).body.content ?? [];
      for (const u of ACCOUNTS) {
        const own = await as[u].get(`/api/general/list/${viewId}`, { size: 1000 });
        if (own.status === 403) continue;
        expect(own.status, `${u} ${componentName}: ${said(own)}`).toBe(200);
        const mine = new Set<number>(own.body.content.map((r: Row) => r.id));
        const others = all.filter((r) => !mine.has(r.id)).map((r) => r.id as number);
        if (!others.length) continue;
        const listed = await as[u].get(`/api/general/list/${viewId}`, { id: others.slice(0, 50).join(',') });
        expect([listed.status, listed.body.totalElements], `${u} ${componentName} ?id=: ${said(listed)}`).toEqual([200, 0]);
        for (const id of others.slice(0, 3)) {
          for (const path of ['/api/general/detail', '/api/general/formData']) {
            const r = await as[u].get(path, { generalId: viewId, id });
            expect(r.status, `${u} ${path} ${componentName} ${id}: ${said(r)}`).toBe(404);
          }
        }
        const exported = await as[u].get(`/api/general/export/${viewId}/download`, { id: others.slice(0, 50).join(',') });
        expect(exported.status).toBe(200);
        const wb = new ExcelJS.Workbook();
        await wb.xlsx.load(exported.body as unknown as ExcelJS.Buffer);
        expect(wb.worksheets[0]?.actualRowCount ?? 0, `${u} ${componentName} export`).toBeLessThanOrEqual(1);
        const options = await as[u].get(`/api/general/allList/${viewId}/queryLink`, {
          queryParam: JSON.stringify({ id: others.slice(0, 50) }),
        });
        expect(options.body, `${u} ${componentName} options`).toEqual([]);
      }
    }
  }, 120_000);

  it("the hand-written calls refuse another company's logistics orders and warehouses by id", async () => {
    const all: Row[] = (await as.admin.get('/api/general/list/20', { size: 1000 })).body.content;
    const mine = new Set<number>((await as.logistics.get('/api/general/list/20', { size: 1000 })).body.content.map((r: Row) => r.id));
    const other = all.find((r) => !mine.has(r.id));
    expect(other).toBeDefined();
    for (const path of ['/api/logisticsOrder/getLogisticsLinkman', '/api/logisticsOrder/getTransportInfo']) {
      const r = await as.logistics.get(path, { id: other?.id });
      expect([r.status, r.body.code], said(r)).toEqual([404, 'LOGISTICS_ORDER_NOT_FOUND']);
    }
    const warehouses: Row[] = (await as.admin.get('/api/general/list/14', { size: 1000 })).body.content;
    const producers = new Set<number>((await as.producer.get('/api/general/list/14', { size: 1000 })).body.content.map((r: Row) => r.id));
    const foreign = warehouses.filter((w) => !producers.has(w.id));
    for (const w of foreign.slice(0, 3)) {
      const inv = await as.producer.get('/api/companyWarehouse/Inventorys', { id: w.id, warehouseId: w.id });
      expect(inv.status === 404 || inv.status === 403 || (Array.isArray(inv.body) && inv.body.length === 0), said(inv)).toBe(true);
      const orders = await as.producer.get('/api/logisticsOrder/byWarehouseId', { warehouseId: w.id, id: w.id });
      expect(
        orders.status === 404 ||
          orders.status === 403 ||
          JSON.stringify(orders.body).includes('"content":[]') ||
          (Array.isArray(orders.body) && !orders.body.length),
        said(orders),
      ).toBe(true);
    }
  });
});

describe('account management by a company user editor', () => {
  it('resets, edits, disables and deletes no colleague holding a role it could not give', async () => {
    const before = await server.ctx.db
      .selectFrom('sys_user')
      .select(['password', 'status'])
      .where('id', '=', USER.producer)
      .executeTakeFirstOrThrow();
    refused(await hr.api.post('/api/pwd/reset', [USER.producer]), 403, 'USER_ROLES_NOT_MANAGEABLE');
    refused(await hr.api.put('/api/users', { id: USER.producer, enabled: false }), 403, 'USER_ROLES_NOT_MANAGEABLE');
    refused(await hr.api.put('/api/users', { id: USER.producer, phone: nextPhone() }), 403, 'USER_ROLES_NOT_MANAGEABLE');
    refused(await hr.api.delete('/api/users', [USER.producer]), 403, 'USER_ROLES_NOT_MANAGEABLE');
    const after = await server.ctx.db
      .selectFrom('sys_user')
      .select(['password', 'status'])
      .where('id', '=', USER.producer)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    // The producer still signs in with its password.
    expect((await server.api.loginRaw('producer', 'Waste@2026')).body.status).toBe(200);
  });

  it("manages a colleague holding only the company's own roles", async () => {
    const clerkRole = await role('攻击b-企业文员', [MENU.dashboard], '本企业', COMPANY.producer);
    const clerk = await hr.api.post('/api/users', {
      username: 'atkb_clerk',
      nickName: '文员',
      phone: nextPhone(),
      deptId: DEPT.producers,
      companyId: COMPANY.producer,
      roles: [{ id: clerkRole }],
    });
    expect(clerk.status, said(clerk)).toBe(201);
    expect((await hr.api.post('/api/pwd/reset', [clerk.body.id])).status).toBe(200);
    expect((await hr.api.put('/api/users', { id: clerk.body.id, job: '文员' })).status).toBe(200);
    // The platform's producer role is not the editor's to give, to the clerk or to itself.
    refused(await hr.api.put('/api/users', { id: clerk.body.id, roles: [{ id: ROLE.producer }] }), 403, 'ROLE_NOT_GRANTABLE');
    refused(await hr.api.put('/api/users', { id: hr.id, roles: [{ id: ROLE.producer }] }), 403, 'ROLE_NOT_GRANTABLE');
  });

  it('reaches no user of another company and no platform account', async () => {
    for (const id of [USER.disposer, USER.supervisor, USER.admin, USER.logistics]) {
      refused(await hr.api.post('/api/pwd/reset', [id]), 404, 'USER_NOT_FOUND');
      refused(await hr.api.put('/api/users', { id, nickName: 'x' }), 404, 'USER_NOT_FOUND');
      refused(await hr.api.delete('/api/users', [id]), 404, 'USER_NOT_FOUND');
    }
    const listed = await hr.api.get('/api/users', { size: 200 });
    expect(listed.status).toBe(200);
    expect(
      listed.body.content.every((u: Row) => u.company === COMPANY.producer),
      said(listed),
    ).toBe(true);
  });
});

describe('role management by a company role editor', () => {
  it('changes no platform role and no role of another company', async () => {
    const other = await role('攻击b-他企角色', [MENU.dashboard], '本企业', COMPANY.disposer);
    refused(await roleEditor.api.put('/api/roles', { id: ROLE.producer, name: '产废企业', level: 3 }), 403, 'PLATFORM_ROLE_READ_ONLY');
    refused(
      await roleEditor.api.put('/api/roles/menu', { id: ROLE.producer, menus: [{ id: MENU.dashboard }] }),
      403,
      'PLATFORM_ROLE_READ_ONLY',
    );
    refused(await roleEditor.api.delete('/api/roles', [ROLE.producer]), 403, 'PLATFORM_ROLE_READ_ONLY');
    refused(await roleEditor.api.put('/api/roles', { id: other, name: 'x', level: 3 }), 404, 'ROLE_NOT_FOUND');
    refused(await roleEditor.api.put('/api/roles/menu', { id: other, menus: [] }), 404, 'ROLE_NOT_FOUND');
    refused(await roleEditor.api.delete('/api/roles', [other]), 404, 'ROLE_NOT_FOUND');
    const seen = await roleEditor.api.get('/api/roles', { size: 200 });
    expect(
      seen.body.content.some((r: Row) => r.id === other),
      said(seen),
    ).toBe(false);
  });
});

describe('the carrier', () => {
  it('manages no account, role or menu', async () => {
    const carrier = as.logistics;
    for (const [method, path, body] of [
      ['GET', '/api/users', undefined],
      ['PUT', '/api/users', { id: USER.logistics, roles: [{ id: ROLE.superAdmin }] }],
      ['POST', '/api/pwd/reset', [USER.producer]],
      ['POST', '/api/roles', { name: 'x', level: 3, menus: [] }],
      ['PUT', '/api/roles/menu', { id: ROLE.logistics, menus: [{ id: MENU.user }] }],
      ['GET', '/api/menus', undefined],
      ['GET', '/api/logs', undefined],
    ] as const) {
      const r = await carrier.request(method, path, body === undefined ? {} : { json: body });
      expect(r.status, `${method} ${path}: ${said(r)}`).toBe(403);
    }
  });
});

describe('platform-wide settings edited by a company account', () => {
  it("a company's menu editor changes no menu: menus are every company's, and a menu's permission is a power", async () => {
    const menuRole = await role(
      '攻击b-企业菜单',
      [MENU.dashboard, MENU.system, MENU.menu, ...buttons(MENU.menu)],
      '本企业',
      COMPANY.producer,
    );
    const editor = (await account('atkb_menus', DEPT.producers, COMPANY.producer, [menuRole])).api;
    const addButton = MENU.menu * 10 + 1;
    // Its own button re-pointed at user editing would make it a user editor.
    refused(
      await editor.put('/api/menus', { id: addButton, pid: MENU.menu, type: 2, title: '菜单新增', permission: 'user:edit' }),
      403,
      'SCOPE_ALL_ONLY',
    );
    refused(
      await editor.put('/api/menus', { id: MENU.dashboard, type: 1, title: '企业看板', path: '/screen/vBuild/temp/50', component: 'x' }),
      403,
      'SCOPE_ALL_ONLY',
    );
    refused(await editor.post('/api/menus', { pid: MENU.system, type: 2, title: '越权', permission: 'role:edit' }), 403, 'SCOPE_ALL_ONLY');
    refused(await editor.delete('/api/menus', [MENU.supervision]), 403, 'SCOPE_ALL_ONLY');
    const kept = await server.ctx.db
      .selectFrom('sys_menu')
      .select(['id', 'permission', 'path'])
      .where('id', 'in', [addButton, MENU.dashboard, MENU.supervision])
      .orderBy('id')
      .execute();
    expect(kept).toEqual([
      { id: MENU.dashboard, permission: null, path: 'dashboard' },
      { id: MENU.supervision, permission: null, path: 'supervision' },
      { id: addButton, permission: 'menu:add', path: null },
    ]);
    expect((await editor.get('/api/users')).status).toBe(403);
  });

  it("a company's dictionary editor changes no dictionary: every company reads them", async () => {
    const dictRole = await role(
      '攻击b-企业字典',
      [MENU.dashboard, MENU.system, MENU.dict, ...buttons(MENU.dict)],
      '本企业',
      COMPANY.producer,
    );
    const editor = (await account('atkb_dicts', DEPT.producers, COMPANY.producer, [dictRole])).api;
    const entries = (await editor.get('/api/dictDetail', { dictName: 'companyType' })).body.content;
    expect(entries.length).toBeGreaterThan(0);
    const first = entries[0];
    refused(await editor.put('/api/dictDetail', { ...first, label: '越权改名' }), 403, 'SCOPE_ALL_ONLY');
    refused(await editor.post('/api/dictDetail', { label: '越权', value: 'x9', dictName: 'companyType' }), 403, 'SCOPE_ALL_ONLY');
    refused(await editor.delete(`/api/dictDetail/${first.id}`), 403, 'SCOPE_ALL_ONLY');
    refused(await editor.post('/api/dict', { name: 'atkb_dict' }), 403, 'SCOPE_ALL_ONLY');
    const dicts = await as.admin.get('/api/dict', { size: 100 });
    const one = dicts.body.content[0];
    refused(await editor.put('/api/dict', { id: one.id, name: one.name, description: '越权' }), 403, 'SCOPE_ALL_ONLY');
    refused(await editor.delete('/api/dict', [one.id]), 403, 'SCOPE_ALL_ONLY');
    expect((await editor.get('/api/dictDetail', { dictName: 'companyType' })).body.content).toEqual(entries);
  });
});

describe('bulletins, read on every company dashboard', () => {
  it('a company account holding the bulletin permission writes no bulletin', async () => {
    const menu = await as.admin.post('/api/menus', { pid: MENU.center, type: 2, title: '公告编辑', permission: 'bulletin:edit' });
    expect(menu.status, said(menu)).toBe(201);
    const writer = (
      await account('atkb_news', DEPT.producers, COMPANY.producer, [
        await role('攻击b-企业公告', [MENU.dashboard, MENU.center, menu.body.id], '本企业', COMPANY.producer),
      ])
    ).api;
    const made = await as.admin.post('/api/bulletin', { title: '平台公告', content: '内容', status: 10 });
    expect(made.status, said(made)).toBe(200);
    refused(await writer.post('/api/bulletin', { title: '冒充平台', content: '点此链接', status: 10 }), 403, 'SCOPE_ALL_ONLY');
    refused(await writer.put('/api/bulletin', { id: made.body.id, title: '篡改', content: '篡改' }), 403, 'SCOPE_ALL_ONLY');
    refused(await writer.delete('/api/bulletin', [made.body.id]), 403, 'SCOPE_ALL_ONLY');
    const listed = (await as.producer.get('/api/bulletin', { size: 100 })).body.content;
    expect(listed.find((b: Row) => b.id === made.body.id)).toMatchObject({ title: '平台公告' });
  });
});

describe('a platform menu editor who is not an administrator', () => {
  it('adds to a menu no permission it does not hold, so it cannot hand itself one', async () => {
    const menuRole = await role('攻击b-平台菜单', [MENU.dashboard, MENU.system, MENU.menu, ...buttons(MENU.menu)], '全部', null, 2);
    const editor = (await account('atkb_menus_pf', DEPT.ops, null, [menuRole])).api;
    const addButton = MENU.menu * 10 + 1;
    for (const permission of ['admin', '*:*:*', 'user:edit', 'menu:add,role:edit'])
      refused(
        await editor.put('/api/menus', { id: addButton, pid: MENU.menu, type: 2, title: '菜单新增', permission }),
        403,
        'MENU_PERMISSION_NOT_HELD',
      );
    refused(
      await editor.post('/api/menus', { pid: MENU.menu, type: 2, title: '越权', permission: 'admin' }),
      403,
      'MENU_PERMISSION_NOT_HELD',
    );
    expect(
      (await server.ctx.db.selectFrom('sys_menu').select('permission').where('id', '=', addButton).executeTakeFirstOrThrow()).permission,
    ).toBe('menu:add');
    // A menu keeps the permissions it has when its editor renames it, and takes those the editor holds.
    const userEdit = MENU.user * 10 + 2;
    const renamed = await editor.put('/api/menus', { id: userEdit, pid: MENU.user, type: 2, title: '用户修改', permission: 'user:edit' });
    expect(renamed.status, said(renamed)).toBe(200);
    const made = await editor.post('/api/menus', { pid: MENU.menu, type: 2, title: '菜单查看', permission: 'menu:list' });
    expect(made.status, said(made)).toBe(201);
    expect((await editor.get('/api/users')).status).toBe(403);
  });
});
