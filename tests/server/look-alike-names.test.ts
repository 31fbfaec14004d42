import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyNameTaken, deptNameTaken, nameLettersAllowed, readsAs } from '../../server/lib/company-names.js';
import { DEPT, MENU, ROLE } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { accountMaker } from '../helpers/accounts.js';
import { buttons } from '../helpers/probes.js';
import { refusal, said } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, TEST_CAPTCHA, type TestServer } from '../helpers/server.js';

/**
 * Names every company reads (a company's, its departments', the platform's and its departments') pass for
 * none of the others: a company is not named as the platform or another company's department, and a
 * department not as the platform, a platform department, another company or a department beside it.
 */

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;
let manager: ApiClient;
const db = () => server.ctx.db;

const { account, role } = accountMaker(
  () => server,
  () => admin,
  '1376161',
);

const nameOf = async (table: 'company' | 'sys_dept', id: number) =>
  (await db().selectFrom(table).select('name').where('id', '=', id).executeTakeFirstOrThrow()).name;
const systemName = async () =>
  (await db().selectFrom('sys_setting').select('value').where('name', '=', 'system_name').executeTakeFirstOrThrow()).value;

beforeAll(async () => {
  server = await startTestServer();
  [admin, producer] = await Promise.all([server.login('admin'), server.login('producer')]);
  const managerRole = await role('同名-部门管理', [MENU.system, MENU.dept, ...buttons(MENU.dept)]);
  manager = (await account('lookalike_mgr', DEPT.producers, COMPANY.producer, [managerRole])).api;
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('the seeded names', () => {
  it('pass the rules of names: no company nor department reads as one it may not', async () => {
    const companies = await db().selectFrom('company').select(['id', 'name']).execute();
    const depts = await db().selectFrom('sys_dept').select(['id', 'pid', 'name', 'company_id']).execute();
    const clashes: string[] = [];
    for (const c of companies) if (await companyNameTaken(db(), c.name, c.id)) clashes.push(`company ${c.name}`);
    for (const d of depts)
      if (await deptNameTaken(db(), d.name, { id: d.id, pid: d.pid, companyId: d.company_id })) clashes.push(`dept ${d.name}`);
    expect(clashes).toEqual([]);
    const foreign = [...companies, ...depts].map((x) => x.name).filter((n) => !nameLettersAllowed(n));
    expect(foreign).toEqual([]);
  });
});

describe('the letters of a name', () => {
  it('read traditional characters and Kangxi radicals as the simplified characters they pass for', () => {
    expect(readsAs('監管部門')).toBe('监管部门');
    expect(readsAs('江蘇綠源 環保')).toBe(readsAs('江苏绿源环保'));
    expect(readsAs('\u2fa8')).toBe('门');
  });

  it('refuse kana, Cyrillic, Greek, radicals and strokes, which hold look-alikes of Chinese and Latin letters', async () => {
    const before = await nameOf('company', COMPANY.producer);
    for (const name of ['苏州华瑞精细化エ有限公司', 'Аcme环保', 'ΑΒC环保', '监管部\u2ed4', '监管部\u2fa8', '监管部\u31c0']) {
      expect(nameLettersAllowed(name), name).toBe(false);
      const r = await producer.post('/api/companyApi/update', { name });
      expect(r.body, `${name}: ${said(r)}`).toEqual(refusal(400, 'COMPANY_NAME_LETTERS'));
      const d = await manager.post('/api/dept', { name, deptSort: 9, enabled: true });
      expect(d.body, `${name}: ${said(d)}`).toEqual(refusal(400, 'DEPT_NAME_LETTERS'));
    }
    expect(await nameOf('company', COMPANY.producer)).toBe(before);
    // Full-width forms, brackets and Latin company names are letters a name may use.
    for (const name of ['ＡＢＣ环保（南京）有限公司', 'Green-Tech 环保·苏州', '【一部】'])
      expect(nameLettersAllowed(name), name).toBe(true);
  });
});

describe('a company name', () => {
  it("is not renamed to the platform's name, a platform department's or another company's department's, however spaced or wide", async () => {
    const before = await nameOf('company', COMPANY.producer);
    const taken = [
      await nameOf('sys_dept', DEPT.platform),
      await nameOf('sys_dept', DEPT.supervision),
      '监管 部门',
      await systemName(),
      await nameOf('sys_dept', DEPT.disposers),
      await nameOf('company', COMPANY.disposer),
    ];
    for (const name of taken) {
      const r = await producer.post('/api/companyApi/update', { name });
      expect(r.body, `${name}: ${said(r)}`).toEqual(refusal(400, 'COMPANY_NAME_TAKEN'));
    }
    // Nor by the platform's administrator editing the company.
    const byAdmin = await admin.post('/api/companyApi/update', { id: COMPANY.producer, name: '监管部门' });
    expect(byAdmin.body).toEqual(refusal(400, 'COMPANY_NAME_TAKEN'));
    expect(await nameOf('company', COMPANY.producer)).toBe(before);
  });

  it('may be the name of one of its own departments', async () => {
    const before = await nameOf('company', COMPANY.producer);
    const own = await nameOf('sys_dept', DEPT.producers);
    expect((await producer.post('/api/companyApi/update', { name: own })).status).toBe(200);
    expect((await producer.post('/api/companyApi/update', { name: before })).status).toBe(200);
    expect(await nameOf('company', COMPANY.producer)).toBe(before);
  });

  it('is refused when applying and when approving an application', async () => {
    const uuid = String((await server.api.get('/api/auth/code')).body.uuid);
    const applied = await server.api.post('/api/companyApplication/insert', {
      name: '监管部门',
      type: '1',
      region: '320000,320100,320113',
      applicant: '张三',
      phone: '13761619001',
      code: TEST_CAPTCHA,
      uuid,
    });
    expect(applied.body).toEqual(refusal(400, 'COMPANY_NAME_TAKEN'));
    // An application that came in before the name was taken (here: written as such) is not approved.
    const { id } = await db()
      .insertInto('company_application')
      .values({
        name: await nameOf('sys_dept', DEPT.platform),
        type: '1',
        comtype: '产废企业',
        region: '320000,320100,320113',
        region_fmt: '江苏省/南京市/江宁区',
        applicant: '李四',
        phone: '13761619002',
        source: 2,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const approved = await admin.post('/api/companyApplication/approve', {
      id,
      username: 'lookalike_appl',
      roles: [{ id: ROLE.producer }],
    });
    expect(approved.body).toEqual(refusal(400, 'COMPANY_EXISTS'));
    expect(
      await db()
        .selectFrom('company')
        .select('id')
        .where('name', '=', await nameOf('sys_dept', DEPT.platform))
        .execute(),
    ).toEqual([]);
  });
});

describe("a company's department name", () => {
  it("is not the platform's, a platform department's or another company's, added or renamed, at any level", async () => {
    const taken = [
      await nameOf('sys_dept', DEPT.supervision),
      '监管　部门',
      await nameOf('sys_dept', DEPT.platform),
      await systemName(),
      await nameOf('company', COMPANY.disposer),
      await nameOf('company', COMPANY.disposer2),
    ];
    const sub = await manager.post('/api/dept', { name: '同名测试科', pid: DEPT.producers, deptSort: 1, enabled: true });
    expect(sub.status, said(sub)).toBe(201);
    for (const name of taken) {
      for (const r of [
        await manager.post('/api/dept', { name, deptSort: 1, enabled: true }),
        await manager.post('/api/dept', { name, pid: DEPT.producers, deptSort: 1, enabled: true }),
        await manager.put('/api/dept', { id: sub.body.id, name, pid: DEPT.producers, deptSort: 1, enabled: true }),
        await manager.put('/api/dept', { id: DEPT.producers, name, code: '02', deptSort: 2, enabled: true }),
      ])
        expect(r.body, `${name}: ${said(r)}`).toEqual(refusal(400, 'DEPT_NAME_TAKEN'));
    }
    // Nor when the platform's administrator names it.
    expect((await admin.put('/api/dept', { id: DEPT.producers, name: '监管部门', code: '02', deptSort: 2, enabled: true })).body).toEqual(
      refusal(400, 'DEPT_NAME_TAKEN'),
    );
    const names = (await db().selectFrom('sys_dept').select('name').where('company_id', '=', COMPANY.producer).execute()).map(
      (d) => d.name,
    );
    expect(names.filter((n) => taken.includes(n))).toEqual([]);
  });

  it("is not that of a department beside it, but may be its own company's, or one elsewhere in the tree or in another company", async () => {
    const first = await manager.post('/api/dept', { name: '同名危废科', pid: DEPT.producers, deptSort: 1, enabled: true });
    expect(first.status, said(first)).toBe(201);
    const beside = await manager.post('/api/dept', { name: '同名 危废科', pid: DEPT.producers, deptSort: 2, enabled: true });
    expect(beside.body).toEqual(refusal(400, 'DEPT_NAME_TAKEN'));
    const below = await manager.post('/api/dept', { name: '同名危废科', pid: first.body.id, deptSort: 1, enabled: true });
    expect(below.status, said(below)).toBe(201);
    // Moved up beside its namesake: refused.
    const moved = await manager.put('/api/dept', {
      id: below.body.id,
      name: '同名危废科',
      pid: DEPT.producers,
      deptSort: 1,
      enabled: true,
    });
    expect(moved.body).toEqual(refusal(400, 'DEPT_NAME_TAKEN'));
    const elsewhere = await admin.post('/api/dept', { name: '同名危废科', pid: DEPT.disposers, deptSort: 1, enabled: true });
    expect(elsewhere.status, said(elsewhere)).toBe(201);
    const ownCompany = await manager.post('/api/dept', {
      name: await nameOf('company', COMPANY.producer),
      pid: DEPT.producers,
      deptSort: 3,
      enabled: true,
    });
    expect(ownCompany.status, said(ownCompany)).toBe(201);
    // Kept as it stands, a name is not asked again: its order changes.
    const resorted = await manager.put('/api/dept', {
      id: first.body.id,
      name: '同名危废科',
      pid: DEPT.producers,
      deptSort: 5,
      enabled: true,
    });
    expect(resorted.status, said(resorted)).toBe(200);
  });

  it("keeps the platform's 监管部门 the only department of that name in every company's address book", async () => {
    const book = await producer.get('/api/dept/find');
    const flat: { id: number; name: string }[] = [];
    const walk = (nodes: { id: number; name: string; children?: unknown[] }[]) => {
      for (const n of nodes) {
        flat.push(n);
        walk((n.children as typeof nodes) ?? []);
      }
    };
    walk(book.body.data);
    expect(flat.filter((n) => n.name === '监管部门').map((n) => n.id)).toEqual([DEPT.supervision]);
  });
});

describe("a platform department's name", () => {
  it("is no company's, nor that of a platform department beside it", async () => {
    for (const name of [await nameOf('company', COMPANY.disposer), '系统 管理部']) {
      const r = await admin.post('/api/dept', { name, pid: DEPT.platform, deptSort: 1, enabled: true });
      expect(r.body, `${name}: ${said(r)}`).toEqual(refusal(400, 'DEPT_NAME_TAKEN'));
    }
    const top = await admin.post('/api/dept', { name: await nameOf('company', COMPANY.logistics), deptSort: 1, enabled: true });
    expect(top.body).toEqual(refusal(400, 'DEPT_NAME_TAKEN'));
    // Beneath another platform department, a name used elsewhere in the platform's tree is fine.
    const below = await admin.post('/api/dept', { name: '系统管理部', pid: DEPT.supervision, deptSort: 9, enabled: true });
    expect(below.status, said(below)).toBe(201);
  });
});
