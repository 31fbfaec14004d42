import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PASSWORD_RULE_MESSAGE } from '../../src/shared/password-rule.js';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, DEMO_PASSWORD, startTestServer, TEST_CAPTCHA, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
  producer = await server.login('producer');
});
afterAll(async () => {
  await server?.close();
});

const findUserId = async (username: string) =>
  (await server.ctx.db.selectFrom('sys_user').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;

describe('permissions', () => {
  it('answers 403 to a producer on the administration calls', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/users'],
      ['POST', '/api/users', { username: 'x1', nickName: '测试用户', phone: '13900000000' }],
      ['PUT', '/api/users', { id: 1, nickName: '改名' }],
      ['DELETE', '/api/users', [1]],
      ['GET', '/api/menus'],
      ['GET', '/api/menus/tree'],
      ['POST', '/api/menus', { title: '新菜单', type: 0, path: 'x' }],
      ['PUT', '/api/menus', { id: 1, title: '企业看板', type: 1, path: 'dashboard' }],
      ['DELETE', '/api/menus', [1]],
      ['POST', '/api/roles', { name: '新角色' }],
      ['PUT', '/api/roles', { id: 3, name: '产废企业' }],
      ['PUT', '/api/roles/menu', { id: 3, menus: [] }],
      ['DELETE', '/api/roles', [3]],
      ['GET', '/api/dept'],
      ['POST', '/api/dept', { name: '新部门' }],
      ['PUT', '/api/dept', { id: 1, name: '改名' }],
      ['DELETE', '/api/dept', [1]],
    ];
    for (const [method, path, json] of calls) {
      const res = await producer.request(method, path, json === undefined ? {} : { json });
      expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 403`);
    }
    // Nothing was changed by the refused calls.
    const user1 = await server.ctx.db.selectFrom('sys_user').select(['nick_name', 'status']).where('id', '=', 1).executeTakeFirstOrThrow();
    expect(user1).toEqual({ nick_name: '管理员', status: 0 });
  });
});

describe('users', () => {
  it('lists users with paging, filters and roles', async () => {
    const all = await admin.get('/api/users', { page: 0, size: 3 });
    expect(all.status).toBe(200);
    expect(all.body.content).toHaveLength(3);
    expect(all.body.totalElements).toBeGreaterThanOrEqual(9);
    const ids = all.body.content.map((u: { id: number }) => u.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const blurry = await admin.get('/api/users', { blurry: '王丽华' });
    expect(blurry.body.content.map((u: { username: string }) => u.username)).toEqual(['producer']);
    expect(blurry.body.content[0].roles).toEqual([{ id: expect.any(Number), name: '产废企业' }]);

    // Department 1 is the platform root: its descendants hold the platform's accounts; a company's
    // accounts sit in the company's own departments.
    const root = await admin.get('/api/users', { deptId: 1, size: 100 });
    expect(root.body.content.map((u: { username: string }) => u.username).sort()).toEqual(['admin', 'supervisor']);
    const company = await admin.get('/api/users', { deptId: 3, size: 100 });
    expect(company.body.content.map((u: { username: string }) => u.username)).toEqual(['producer']);
    const supervision = await admin.get('/api/users', { deptId: 2, size: 100 });
    expect(supervision.body.content.map((u: { username: string }) => u.username)).toEqual(['supervisor']);

    const byName = await admin.get('/api/users', { sort: 'username,asc', size: 2 });
    expect(byName.body.content[0].username).toBe('admin');
    expect((await admin.get('/api/users', { sort: 'password,asc' })).status).toBe(400);
  });

  it('creates, edits, disables and deletes a user', async () => {
    const body = {
      username: 'wangqiang',
      nickName: '王强',
      phone: '13770001234',
      email: 'wangqiang@huarui-chem.cn',
      sex: '男',
      deptId: 3,
      job: '仓管员',
      companyId: 1,
      roles: [{ id: 3 }],
    };
    const created = await admin.post('/api/users', body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username: 'wangqiang', nickName: '王强', deptId: 3, company: 1, pwdExpired: true, enabled: true });
    expect(created.body.roles).toEqual([{ id: 3, name: '产废企业' }]);
    const id = created.body.id;

    expect((await admin.post('/api/users', { ...body, phone: '13770009999' })).body).toEqual(refusal(400, 'USERNAME_TAKEN'));
    expect((await admin.post('/api/users', { ...body, username: 'wangqiang2' })).body).toEqual(refusal(400, 'PHONE_TAKEN'));
    expect((await admin.post('/api/users', { ...body, username: 'x2', phone: '13770009999', nickName: '' })).body).toEqual({
      status: 400,
      code: 'NICKNAME_REQUIRED',
      message: '请输入用户昵称',
    });
    expect((await admin.post('/api/users', { ...body, username: 'x2', phone: '123' })).body).toEqual({
      status: 400,
      code: 'PHONE_INVALID_11',
      message: '请输入正确的11位手机号码',
    });
    expect((await admin.post('/api/users', { ...body, username: 'x2', phone: '13770009999', roles: [{ id: 999 }] })).body).toEqual(
      refusal(400, 'ROLE_NOT_FOUND'),
    );

    // The default password works and the account is told to change it.
    const login = await server.api.loginRaw('wangqiang', DEMO_PASSWORD);
    expect(login.body.status).toBe(200);
    expect(login.body.user.pwdExpired).toBe(true);
    expect(login.body.roles).toContain('stockIn:add');
    const own = server.api.withToken(login.body.token);

    const edited = await admin.put('/api/users', { id, nickName: '王志强', roles: [{ id: 6 }] });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id, nickName: '王志强', phone: '13770001234', roles: [{ id: 6, name: '收集点' }] });
    // Role changes reach open sessions.
    const info = await own.get('/api/auth/info');
    expect(info.body.user.nickName).toBe('王志强');
    expect(info.body.roles).not.toContain('disposalInquiry:add');

    const disabled = await admin.put('/api/users', { id, enabled: false });
    expect(disabled.body.enabled).toBe(false);
    expect((await own.get('/api/auth/info')).status).toBe(401);
    expect((await server.api.loginRaw('wangqiang', DEMO_PASSWORD)).body).toEqual(refusal(400, 'ACCOUNT_INACTIVE'));
    await admin.put('/api/users', { id, enabled: true });

    const del = await admin.delete('/api/users', [id]);
    expect(del.status).toBe(200);
    expect((await server.api.loginRaw('wangqiang', DEMO_PASSWORD)).body).toEqual(refusal(400, 'LOGIN_FAILED'));
    expect((await admin.get('/api/users', { blurry: 'wangqiang' })).body.totalElements).toBe(0);
    expect((await admin.put('/api/users', { id, nickName: '复活' })).status).toBe(404);
    // The deleted account's phone is free again; its username is not.
    expect((await admin.post('/api/users', { ...body, username: 'wangqiang3' })).status).toBe(201);
    expect((await admin.post('/api/users', { ...body, phone: '13770005678' })).body).toEqual(refusal(400, 'USERNAME_TAKEN'));
  });

  it('refuses to delete or disable yourself', async () => {
    expect((await admin.delete('/api/users', [1])).body).toEqual(refusal(400, 'CANNOT_DELETE_SELF'));
    expect((await admin.put('/api/users', { id: 1, enabled: false })).status).toBe(400);
  });

  it('keeps administrator rights with administrators', async () => {
    // A role that may manage users, given to an ordinary account.
    // A platform role of 全部: every account is within its scope, and only the administrator check stops it.
    const role = await admin.post('/api/roles', { name: '人事专员', dataScope: '全部', menus: [{ id: 71 }, { id: 711 }, { id: 712 }] });
    expect(role.status).toBe(201);
    const hr = await admin.post('/api/users', {
      username: 'hr01',
      nickName: '人事小李',
      phone: '13770002222',
      roles: [{ id: role.body.id }],
    });
    expect(hr.status).toBe(201);
    // A new account changes its default password before anything else.
    const firstLogin = await server.login('hr01', DEMO_PASSWORD);
    expect((await firstLogin.get('/api/users')).body.code).toBe('PASSWORD_EXPIRED');
    expect((await firstLogin.changePassword(DEMO_PASSWORD, 'Renshi@2026')).status).toBe(200);
    const hrClient = await server.login('hr01', 'Renshi@2026');
    expect((await hrClient.get('/api/users')).status).toBe(200);
    expect((await hrClient.post('/api/users', { username: 'boss', nickName: '冒名', phone: '13770003333', isAdmin: true })).status).toBe(
      403,
    );
    expect((await hrClient.put('/api/users', { id: 1, nickName: '改管理员' })).status).toBe(403);
    expect((await hrClient.post('/api/users', { username: 'clerk01', nickName: '办事员', phone: '13770003333' })).status).toBe(201);
  });

  it('searches users by name, for those who manage users only', async () => {
    expect(await producer.get('/api/users/search', { blurry: '陈' })).toMatchObject({
      status: 403,
      body: refusal(403, 'NO_PERMISSION'),
    });
    const res = await admin.get('/api/users/search', { blurry: '陈' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ id: expect.any(Number), username: 'disposer', nickName: '陈志强' }]);
  });
});

describe('personal centre', () => {
  it('validates and saves nickname, phone and sex', async () => {
    const me = await server.login('collector');
    const put = (body: Record<string, unknown>) => me.put('/api/users/center', body);
    expect((await put({ nickName: '', phone: '18915300006' })).body).toEqual({
      status: 400,
      code: 'NICKNAME_REQUIRED',
      message: '请输入用户昵称',
    });
    expect((await put({ nickName: '张', phone: '18915300006' })).body).toEqual({
      status: 400,
      code: 'NICKNAME_LENGTH',
      message: '长度在 2 到 20 个字符',
    });
    expect((await put({ nickName: '张'.repeat(21), phone: '18915300006' })).body).toEqual({
      status: 400,
      code: 'NICKNAME_LENGTH',
      message: '长度在 2 到 20 个字符',
    });
    expect((await put({ nickName: '张秀英', phone: '' })).body).toEqual({ status: 400, code: 'PHONE_REQUIRED', message: '请输入电话号码' });
    expect((await put({ nickName: '张秀英', phone: '1891530000' })).body).toEqual({
      status: 400,
      code: 'PHONE_INVALID_11',
      message: '请输入正确的11位手机号码',
    });
    expect((await put({ nickName: '张秀英', phone: '13862100003' })).body).toEqual(refusal(400, 'PHONE_TAKEN'));
    expect((await put({ id: 1, nickName: '张秀英', phone: '18915300006' })).status).toBe(403);
    const ok = await put({ nickName: '张秀英（站长）', phone: '18915300016', sex: '女' });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('保存成功');
    const info = await me.get('/api/auth/info');
    expect(info.body.user).toMatchObject({ nickName: '张秀英（站长）', phone: '18915300016', sex: '女' });
  });
});

describe('password change', () => {
  it('checks the old password, the rule and repetition, then ends every session', async () => {
    const me = await server.login('expired');
    const other = await server.login('expired');
    const change = async (oldPass: string, newPass: string, extra: Record<string, string> = {}) =>
      me.request('POST', '/api/users/updatePass', {
        form: { oldPass: await me.encrypt(oldPass), newPass: await me.encrypt(newPass), ...extra },
      });
    expect((await change('Wrong@2026', 'Better#2027')).body).toEqual(refusal(400, 'OLD_PASSWORD_WRONG'));
    expect((await change(DEMO_PASSWORD, 'abc12345')).body).toEqual({ status: 400, code: 'PASSWORD_RULE', message: PASSWORD_RULE_MESSAGE });
    expect((await change(DEMO_PASSWORD, 'Short1!')).body).toEqual({ status: 400, code: 'PASSWORD_RULE', message: PASSWORD_RULE_MESSAGE });
    expect((await change(DEMO_PASSWORD, DEMO_PASSWORD)).body).toEqual(refusal(400, 'PASSWORD_UNCHANGED'));
    const bad = await me.request('POST', '/api/users/updatePass', { form: { oldPass: 'garbage', newPass: 'garbage' } });
    expect(bad.status).toBe(400);

    const ok = await change(DEMO_PASSWORD, 'Better#2027');
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ status: 200, message: '密码修改成功，请重新登录' });
    expect((await me.get('/api/auth/info')).status).toBe(401);
    expect((await other.get('/api/auth/info')).status).toBe(401);
    expect((await server.api.loginRaw('expired', DEMO_PASSWORD)).body).toEqual(refusal(400, 'LOGIN_FAILED'));
    const again = await server.login('expired', 'Better#2027');
    expect((await again.get('/api/users/updatePass/0')).body).toEqual({ pwdExpired: false });
    const logs = await again.get('/api/logs/user');
    expect(logs.body.content.map((l: { description: string }) => l.description)).toContain('修改密码');
  });

  it('requires a valid phone from administrators', async () => {
    const root = await server.login('admin');
    const change = async (extra: Record<string, string>) =>
      root.request('POST', '/api/users/updatePass', {
        form: { oldPass: await root.encrypt(DEMO_PASSWORD), newPass: await root.encrypt('Admin#2027'), ...extra },
      });
    expect((await change({})).body).toEqual({ status: 400, code: 'PHONE_REQUIRED', message: '请输入电话号码' });
    expect((await change({ phone: '12345' })).body).toEqual({ status: 400, code: 'PHONE_INVALID_11', message: '请输入正确的11位手机号码' });
    const ok = await change({ phone: '13951800011' });
    expect(ok.status).toBe(200);
    const back = await server.login('admin', 'Admin#2027');
    expect((await back.get('/api/auth/info')).body.user.phone).toBe('13951800011');
    admin = back;
  });
});

describe('email change', () => {
  it('sends a code, throttles resends and changes the address once', async () => {
    const me = await server.login('disposer');
    const db = server.ctx.db;
    expect((await me.post('/api/code/resetEmail', { type: 'email', value: 'not-an-email' })).body).toEqual(refusal(400, 'EMAIL_INVALID'));
    const sent = await me.post('/api/code/resetEmail', undefined, { email: 'czq@lvyuan.cn' });
    expect(sent.body).toEqual({ status: 200, message: '发送成功，验证码有效期5分钟' });
    expect((await me.post('/api/code/resetEmail', { type: 'email', value: 'czq@lvyuan.cn' })).body).toEqual(
      refusal(400, 'CODE_SENT_RECENTLY'),
    );

    const update = async (code: string, body: Record<string, string>) => me.post(`/api/users/updateEmail/${code}`, body);
    const pass = await me.encrypt(DEMO_PASSWORD);
    expect((await update(TEST_CAPTCHA, { pass, email: 'bad' })).body).toEqual(refusal(400, 'EMAIL_INVALID'));
    expect((await update(TEST_CAPTCHA, { pass, email: 'chenzhiqiang@lvyuan-env.cn' })).body).toEqual(refusal(400, 'EMAIL_UNCHANGED'));
    expect((await update(TEST_CAPTCHA, { pass: await me.encrypt('Wrong@2026'), email: 'czq@lvyuan.cn' })).body).toEqual(
      refusal(400, 'PASSWORD_WRONG'),
    );
    // A wrong code spends the code.
    expect((await update('000000', { pass, email: 'czq@lvyuan.cn' })).body).toEqual(refusal(400, 'CODE_WRONG_OR_EXPIRED'));
    expect((await update(TEST_CAPTCHA, { pass, email: 'czq@lvyuan.cn' })).body).toEqual(refusal(400, 'CODE_WRONG_OR_EXPIRED'));

    // An expired code is refused too.
    await db.updateTable('sys_email_code').set({ create_time: sql<Date>`now() - interval '2 minutes'` }).execute();
    expect((await me.post('/api/code/resetEmail', { type: 'email', value: 'czq@lvyuan.cn' })).status).toBe(200);
    await db.updateTable('sys_email_code').set({ expires_at: sql<Date>`now() - interval '1 second'` }).execute();
    expect((await update(TEST_CAPTCHA, { pass, email: 'czq@lvyuan.cn' })).body).toEqual(refusal(400, 'CODE_WRONG_OR_EXPIRED'));

    await db.updateTable('sys_email_code').set({ create_time: sql<Date>`now() - interval '2 minutes'` }).execute();
    expect((await me.post('/api/code/resetEmail', undefined, { email: 'czq@lvyuan.cn' })).status).toBe(200);
    // The code belongs to the address it was sent to.
    expect((await update(TEST_CAPTCHA, { pass, email: 'other@lvyuan.cn' })).body).toEqual(refusal(400, 'CODE_WRONG_OR_EXPIRED'));
    const ok = await update(TEST_CAPTCHA, { pass, email: 'czq@lvyuan.cn' });
    expect(ok.body).toEqual({ status: 200, message: '邮箱修改成功' });
    expect((await me.get('/api/auth/info')).body.user.email).toBe('czq@lvyuan.cn');
    expect((await update(TEST_CAPTCHA, { pass, email: 'czq2@lvyuan.cn' })).body).toEqual(refusal(400, 'CODE_WRONG_OR_EXPIRED'));
  });
});

describe('operation log', () => {
  it("lists only the signed-in user's own entries, newest first", async () => {
    const sup = await server.login('supervisor');
    await server.login('supervisor');
    // A call's entry is written once it has answered (the entry holds how long it took): wait for both.
    const logs = await vi.waitFor(
      async () => {
        const r = await sup.get('/api/logs/user', { page: 0, size: 1 });
        expect(r.status).toBe(200);
        expect(r.body.totalElements).toBeGreaterThanOrEqual(2);
        return r;
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(logs.body.content).toHaveLength(1);
    expect(logs.body.content[0]).toMatchObject({
      description: '用户登录',
      requestIp: expect.any(String),
      address: expect.any(String),
      time: expect.any(Number),
      createTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    const mine = await server.ctx.db
      .selectFrom('sys_log')
      .select('username')
      .where('user_id', '=', await findUserId('supervisor'))
      .execute();
    expect(mine.every((r) => r.username === 'supervisor')).toBe(true);
  });
});

type Route = { path: string; hidden: boolean; name: string; children?: Route[] };
const flatten = (routes: Route[]): Route[] => routes.flatMap((r) => [r, ...flatten(r.children ?? [])]);

describe('menus', () => {
  it('builds the full tree for the admin and a role-limited one for a producer', async () => {
    const all = await admin.get('/api/menus/build');
    expect(all.status).toBe(200);
    const allPaths = flatten(all.body).map((r) => r.path);
    expect(allPaths).toEqual(
      expect.arrayContaining([
        '/dashboard',
        '/user/center',
        '/system',
        '/dev-tools/temp/page/stockIn/12',
        '/dev-tools/temp/page/vehicle/17',
        '/message/vBuild/temp/97',
        '/dispose/vBuild/temp/30',
        '/logistics/vBuild/temp/25',
        '/stock/vBuild/temp/40',
        '/lsDesign',
        '/qrcode/print',
      ]),
    );
    const system = all.body.find((r: Route) => r.path === '/system');
    expect(system).toMatchObject({ component: 'Layout', alwaysShow: true, redirect: 'noredirect' });
    expect(system.children.map((c: Route) => c.path)).toEqual(['user', 'role', 'menu', 'dept', 'dict', 'companyApply']);

    const mine = await producer.get('/api/menus/build');
    const paths = flatten(mine.body).map((r) => r.path);
    expect(paths).toEqual(
      expect.arrayContaining(['/dashboard', '/dev-tools/temp/page/stockIn/12', '/message/vBuild/temp/97', '/qrcode/print']),
    );
    expect(paths).not.toContain('/system');
    expect(paths).not.toContain('/dev-tools/temp/page/vehicle/17');
    expect(paths).not.toContain('generation');
    // The print page is under 危废管理; a producer has no low-code directory.
    expect(mine.body.find((r: Route) => r.path === '/dev-tools')).toBeUndefined();
    expect(flatten(mine.body).find((r) => r.path === '/qrcode/print')?.hidden).toBe(false);
    expect(flatten(mine.body).find((r) => r.path === '/logistics/vBuild/temp/25')?.hidden).toBe(true);

    const guest = await server.login('guest');
    expect((await guest.get('/api/menus/build')).body).toEqual([]);
  });

  it('answers the menu tree with buttons for role assignment', async () => {
    const tree = await admin.get('/api/menus/tree');
    expect(tree.status).toBe(200);
    const ids = (nodes: { id: number; children?: unknown[] }[]): number[] =>
      nodes.flatMap((n) => [n.id, ...ids((n.children ?? []) as { id: number }[])]);
    expect(ids(tree.body)).toEqual(expect.arrayContaining([1, 1012, 3121, 2097, 711]));
    expect(tree.body[0]).toEqual({ id: 1, label: '企业看板' });
  });

  it('validates, creates, moves and deletes menus, and grants take effect at once', async () => {
    const post = (body: Record<string, unknown>) => admin.post('/api/menus', body);
    expect((await post({ type: 0, path: 'x' })).body).toEqual(refusal(400, 'MENU_TITLE_REQUIRED'));
    expect((await post({ title: '报表', type: 1 })).body).toEqual(refusal(400, 'MENU_PATH_REQUIRED'));
    expect((await post({ title: '导出', type: 2 })).body).toEqual(refusal(400, 'MENU_PERMISSION_REQUIRED'));
    expect((await post({ title: '报表', type: 5, path: 'r' })).status).toBe(400);

    const dir = await post({ title: '统计报表', type: 0, path: 'report', icon: 'chart', menuSort: 80 });
    expect(dir.status).toBe(201);
    const page = await post({
      pid: dir.body.id,
      title: '月度报表',
      type: 1,
      path: 'monthly',
      component: 'report/monthly',
      componentName: 'Monthly',
    });
    const button = await post({ pid: page.body.id, title: '报表导出', type: 2, permission: 'report:export' });
    expect(button.status).toBe(201);

    const children = await admin.get('/api/menus', { pid: dir.body.id });
    expect(children.body.content).toEqual([
      expect.objectContaining({ id: page.body.id, title: '月度报表', path: 'monthly', componentName: 'Monthly', hasChildren: true }),
    ]);
    const top = await admin.get('/api/menus');
    expect(top.body.content.find((m: { id: number }) => m.id === dir.body.id)).toMatchObject({ hasChildren: true, menuSort: 80 });

    expect(
      (await admin.put('/api/menus', { id: dir.body.id, pid: page.body.id, title: '统计报表', type: 0, path: 'report' })).body,
    ).toEqual(refusal(400, 'PARENT_MENU_CYCLE'));

    // Granting the new page to the producer role changes the producer's menus and permissions in the open session.
    const roles = await admin.get('/api/roles', { size: 100 });
    const producerRole = roles.body.content.find((r: { name: string }) => r.name === '产废企业');
    const granted = [...producerRole.menus, { id: dir.body.id }, { id: page.body.id }, { id: button.body.id }];
    expect((await admin.put('/api/roles/menu', { id: producerRole.id, menus: granted })).status).toBe(200);
    expect((await producer.get('/api/auth/info')).body.roles).toContain('report:export');
    const built = await producer.get('/api/menus/build');
    expect(built.body.find((r: Route) => r.path === '/report')?.children?.[0]).toMatchObject({
      path: 'monthly',
      component: 'report/monthly',
    });

    expect((await admin.delete('/api/menus', [dir.body.id])).status).toBe(200);
    const gone = await server.ctx.db
      .selectFrom('sys_menu')
      .select('id')
      .where('id', 'in', [dir.body.id, page.body.id, button.body.id])
      .execute();
    expect(gone).toEqual([]);
    expect((await producer.get('/api/auth/info')).body.roles).not.toContain('report:export');
  });
});

describe('departments', () => {
  it('lists child departments and their users, to those who manage users only', async () => {
    expect(await producer.get('/api/dept/list', { deptId: 2 })).toMatchObject({ status: 403, body: refusal(403, 'LOOKUP_DENIED') });
    const roots = await admin.get('/api/dept/list', { deptId: 0 });
    expect(roots.status).toBe(200);
    expect(roots.body.users).toEqual([]);
    expect(roots.body.depts).toEqual(expect.arrayContaining([{ id: 1, name: '江苏省危废综合服务平台', hasChildren: true }]));
    const supervision = await admin.get('/api/dept/list', { deptId: 2 });
    expect(supervision.body.depts.map((d: { name: string }) => d.name)).toEqual(['苏州市监管科', '南京市监管科']);
    expect(supervision.body.users).toEqual([{ id: expect.any(Number), username: 'supervisor', nickName: '周建国' }]);
  });

  it('answers the department tree for forms', async () => {
    const res = await producer.get('/api/dept/find');
    expect(res.body.status).toBe(200);
    const platform = res.body.data.find((d: { id: number }) => d.id === 1);
    expect(platform.children.find((d: { code: string }) => d.code === '01')).toMatchObject({
      name: '监管部门',
      children: expect.any(Array),
    });
  });

  it('creates, edits and deletes departments, keeping the ones in use', async () => {
    const created = await admin.post('/api/dept', { pid: 3, name: '常州片区', code: '0299' });
    expect(created.status).toBe(201);
    expect((await admin.post('/api/dept', { pid: 3, name: '重复编码', code: '0299' })).body).toEqual(refusal(400, 'DEPT_CODE_TAKEN'));
    expect((await admin.post('/api/dept', { pid: 3 })).body).toEqual(refusal(400, 'DEPT_NAME_REQUIRED'));
    expect((await admin.put('/api/dept', { id: 3, pid: created.body.id, name: '产废企业部' })).body).toEqual(
      refusal(400, 'PARENT_DEPT_CYCLE'),
    );
    expect((await admin.put('/api/dept', { id: created.body.id, pid: 3, name: '常州片区（新北）', code: '0299' })).status).toBe(200);
    const list = await admin.get('/api/dept', { pid: 3 });
    expect(list.body.content).toEqual([expect.objectContaining({ name: '常州片区（新北）', code: '0299', hasChildren: false })]);
    expect((await admin.delete('/api/dept', [2])).body).toEqual(refusal(400, 'DEPT_IN_USE'));
    expect((await admin.delete('/api/dept', [created.body.id])).status).toBe(200);
    expect((await admin.get('/api/dept', { pid: 3 })).body.content).toEqual([]);
  });
});

describe('roles', () => {
  it('lists roles with their menus to those who manage roles or users, not to any signed-in user', async () => {
    expect(await producer.get('/api/roles', { page: 0, size: 9999 })).toMatchObject({
      status: 403,
      body: refusal(403, 'LOOKUP_DENIED'),
    });
    const res = await admin.get('/api/roles', { page: 0, size: 9999 });
    expect(res.status).toBe(200);
    expect(res.body.content.map((r: { name: string }) => r.name)).toEqual(
      expect.arrayContaining(['超级管理员', '监管人员', '产废企业', '处置企业', '物流企业', '收集点']),
    );
    const logistics = res.body.content.find((r: { name: string }) => r.name === '物流企业');
    expect(logistics.menus).toEqual(expect.arrayContaining([{ id: 1017 }, { id: 1020 }]));
    expect(logistics).toMatchObject({ level: 3, dataScope: '本企业', description: expect.any(String) });
  });

  it("answers the whole list to the engine's full-list call page=1&size=9999", async () => {
    const all = await admin.get('/api/roles', { page: 1, size: 9999 });
    expect(all.body.content.length).toBe(all.body.totalElements);
    expect(all.body.totalElements).toBeGreaterThanOrEqual(6);
    expect((await admin.get('/api/roles', { page: 1, size: 2 })).body.content).toHaveLength(2);
  });

  it('creates, renames and deletes a role; refuses duplicates and roles in use', async () => {
    const created = await admin.post('/api/roles', {
      name: '仓储企业',
      level: 3,
      description: '仓储企业账号',
      menus: [{ id: 1 }, { id: 1014 }],
    });
    expect(created.status).toBe(201);
    expect((await admin.post('/api/roles', { name: '仓储企业' })).body).toEqual(refusal(400, 'ROLE_NAME_TAKEN'));
    expect((await admin.post('/api/roles', { name: ' ' })).body).toEqual(refusal(400, 'ROLE_NAME_REQUIRED'));
    expect((await admin.post('/api/roles', { name: '坏菜单', menus: [{ id: 99999 }] })).body).toEqual(refusal(400, 'MENU_NOT_FOUND'));
    expect((await admin.put('/api/roles', { id: created.body.id, name: '仓储服务企业', dataScope: '本部门' })).status).toBe(200);
    const list = await admin.get('/api/roles', { blurry: '仓储' });
    expect(list.body.content).toEqual([expect.objectContaining({ name: '仓储服务企业', menus: [{ id: 1 }, { id: 1014 }] })]);
    expect((await admin.delete('/api/roles', [3])).body).toEqual(refusal(400, 'ROLE_IN_USE'));
    expect((await admin.delete('/api/roles', [created.body.id])).status).toBe(200);
    expect((await admin.get('/api/roles', { blurry: '仓储' })).body.totalElements).toBe(0);
  });
});
