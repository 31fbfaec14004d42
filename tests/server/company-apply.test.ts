import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../server/seed/accounts.js';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, DEMO_PASSWORD, startTestServer, TEST_CAPTCHA, type TestServer } from '../helpers/server.js';

// Company applications made through the login page's apply dialog, reviewed by an administrator.
let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  [admin, producer] = await Promise.all([server.login('admin'), server.login('producer')]);
});
afterAll(() => server?.close());

let seq = 0;
/** Applies as the login page does (public call, captcha) and returns the application's id. */
async function apply(name: string, phone: string): Promise<number> {
  const uuid = String((await server.api.get('/api/auth/code')).body.uuid);
  const r = await server.api.post('/api/companyApplication/insert', {
    name,
    type: '1',
    region: '320000,320100,320113',
    applicant: `申请人${++seq}`,
    phone,
    code: TEST_CAPTCHA,
    uuid,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const row = await server.ctx.db
    .selectFrom('company_application')
    .select('id')
    .where('name', '=', name)
    .where('status', '=', 0)
    .executeTakeFirstOrThrow();
  return row.id;
}

const application = (id: number) =>
  server.ctx.db.selectFrom('company_application').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('company applications', () => {
  it('are refused to users without the menu permission', async () => {
    const id = await apply('权限测试化工有限公司', '13700000001');
    for (const [method, path, json] of [
      ['GET', '/api/companyApplication', undefined],
      ['POST', '/api/companyApplication/approve', { id, roles: [{ id: ROLE.producer }] }],
      ['POST', '/api/companyApplication/reject', { id, reason: '资料不全' }],
    ] as const) {
      const r = await producer.request(method, path, json === undefined ? {} : { json });
      expect(`${method} ${path} ${r.status}`).toBe(`${method} ${path} 403`);
    }
    expect((await application(id)).status).toBe(0);
  });

  it('lists applications, pending first, searchable by name and filtered by status', async () => {
    const id = await apply('列表测试环保科技有限公司', '13700000002');
    const all = await admin.get('/api/companyApplication', { page: 0, size: 100 });
    expect(all.status).toBe(200);
    const mine = all.body.content.find((a: { id: number }) => a.id === id);
    expect(mine).toMatchObject({
      name: '列表测试环保科技有限公司',
      type: '1',
      comtype: '产废企业',
      regionFmt: '江苏省/南京市/栖霞区',
      phone: '13700000002',
      status: 0,
      reviewerName: null,
      reason: null,
    });
    const statuses: number[] = all.body.content.map((a: { status: number }) => a.status);
    expect(statuses.indexOf(0)).toBe(0);
    const found = await admin.get('/api/companyApplication', { blurry: '列表测试', status: '0' });
    expect(found.body.content.map((a: { id: number }) => a.id)).toEqual([id]);
    expect((await admin.get('/api/companyApplication', { blurry: '列表测试', status: '2' })).body.content).toEqual([]);
  });

  it('approval creates the company and its first account, messages it and records the decision', async () => {
    const id = await apply('通过测试精细化工有限公司', '13700000003');
    // Its account sits in the new company's own department, never in another company's.
    expect(
      (await admin.post('/api/companyApplication/approve', { id, username: 'tongguo01', deptId: 3, roles: [{ id: ROLE.producer }] })).body,
    ).toMatchObject({ status: 400, code: 'DEPT_OTHER_COMPANY' });
    const r = await admin.post('/api/companyApplication/approve', { id, username: 'tongguo01', roles: [{ id: ROLE.producer }] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe('审核通过，已创建企业和账号');

    const row = await application(id);
    expect(row).toMatchObject({ status: 1, reviewer_id: 1, reviewer_name: '管理员', reason: null });
    expect(row.review_time).toBeInstanceOf(Date);
    const company = await server.ctx.db.selectFrom('company').selectAll().where('id', '=', row.company_id!).executeTakeFirstOrThrow();
    expect(company).toMatchObject({
      name: '通过测试精细化工有限公司',
      type: '1',
      region_fmt: '江苏省/南京市/栖霞区',
      contact_phone: '13700000003',
    });
    const user = await server.ctx.db.selectFrom('sys_user').selectAll().where('id', '=', row.user_id!).executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      username: 'tongguo01',
      phone: '13700000003',
      company_id: company.id,
      status: 0,
      pwd_reset_time: null,
    });
    const dept = await server.ctx.db.selectFrom('sys_dept').selectAll().where('id', '=', user.dept_id!).executeTakeFirstOrThrow();
    expect(dept).toMatchObject({ name: '通过测试精细化工有限公司', company_id: company.id, pid: null });

    // The new company signs in with the default password, is asked to change it, and finds the message.
    const newcomer = await server.login('tongguo01', DEMO_PASSWORD);
    const info = await newcomer.get('/api/auth/info');
    expect(info.body.user.pwdExpired).toBe(true);
    expect(info.body.company).toMatchObject({ id: company.id, name: '通过测试精细化工有限公司' });
    // Nothing else answers until the default password is changed.
    const held = await newcomer.get('/api/sysMessage/page', { page: 0, size: 10 });
    expect(held.status).toBe(403);
    expect(held.body).toMatchObject(refusal(403, 'PASSWORD_EXPIRED'));
    expect((await newcomer.changePassword(DEMO_PASSWORD, 'Tongguo@2026')).status).toBe(200);
    const changed = await server.login('tongguo01', 'Tongguo@2026');
    const messages = await changed.get('/api/sysMessage/page', { page: 0, size: 10 });
    expect(messages.body.content[0]).toMatchObject({ title: '企业入驻申请已通过', haveRead: 0 });
    expect(messages.body.content[0].content).toContain('tongguo01');

    // Listed with who decided, and the account it made.
    const listed = (await admin.get('/api/companyApplication', { blurry: '通过测试' })).body.content[0];
    expect(listed).toMatchObject({ status: 1, reviewerName: '管理员', username: 'tongguo01', companyId: company.id });

    // Decided once: neither a second approval nor a rejection changes it.
    const again = await admin.post('/api/companyApplication/approve', { id, username: 'tongguo02', roles: [{ id: ROLE.producer }] });
    expect(again.status).toBe(400);
    expect(again.body).toEqual(refusal(400, 'APPLICATION_DECIDED'));
    expect((await admin.post('/api/companyApplication/reject', { id, reason: '重复' })).body).toEqual(refusal(400, 'APPLICATION_DECIDED'));
    const logged = await server.ctx.db.selectFrom('sys_log').select('description').where('description', '=', '审核通过企业入驻').execute();
    expect(logged.length).toBeGreaterThanOrEqual(1);
  });

  it('approval refuses a taken username, a missing role, and creates nothing then', async () => {
    const id = await apply('拒绝测试电镀有限公司', '13700000004');
    const companies = async () =>
      Number(
        (
          await server.ctx.db
            .selectFrom('company')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await companies();
    const taken = await admin.post('/api/companyApplication/approve', { id, username: 'producer', roles: [{ id: ROLE.producer }] });
    expect(taken.body).toEqual(refusal(400, 'USERNAME_TAKEN'));
    const noRole = await admin.post('/api/companyApplication/approve', { id, username: 'jujue01', roles: [] });
    expect(noRole.body).toEqual(refusal(400, 'ROLE_REQUIRED'));
    expect(await companies()).toBe(before);
    expect((await application(id)).status).toBe(0);
    // Without a username the applicant's phone is the account name.
    const byPhone = await admin.post('/api/companyApplication/approve', { id, roles: [{ id: ROLE.producer }] });
    expect(byPhone.body.username).toBe('13700000004');
  });

  it('rejection needs a reason and records it', async () => {
    const id = await apply('驳回测试物流有限公司', '13700000005');
    const empty = await admin.post('/api/companyApplication/reject', { id, reason: '  ' });
    expect(empty.body).toEqual(refusal(400, 'REJECT_REASON_REQUIRED'));
    const r = await admin.post('/api/companyApplication/reject', { id, reason: '营业执照不清晰' });
    expect(r.body).toEqual({ status: 200, message: '已驳回' });
    expect(await application(id)).toMatchObject({
      status: 2,
      reason: '营业执照不清晰',
      reviewer_name: '管理员',
      company_id: null,
      user_id: null,
    });
    // The same company may apply again once rejected.
    expect(await apply('驳回测试物流有限公司', '13700000005')).not.toBe(id);
  });

  it('seeds the review menu under 系统管理 with its buttons', async () => {
    const menus = await server.ctx.db
      .selectFrom('sys_menu')
      .select(['title', 'permission', 'component'])
      .where('permission', 'like', 'companyApply:%')
      .orderBy('id')
      .execute();
    expect(menus).toEqual([
      { title: '企业入驻审核', permission: 'companyApply:list', component: 'system/companyApply/index' },
      { title: '入驻申请通过', permission: 'companyApply:approve', component: null },
      { title: '入驻申请驳回', permission: 'companyApply:reject', component: null },
    ]);
  });
});
