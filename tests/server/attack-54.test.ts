import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPT, MENU, ROLE } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { menuComponentName } from '../../src/model/index.js';
import { accountMaker, type MadeAccount } from '../helpers/accounts.js';
import { overlap, settled } from '../helpers/races.js';
import { said } from '../helpers/refusal.js';
import { type ApiClient, type ApiResponse, startTestServer, type TestServer } from '../helpers/server.js';

/** Attack 54: view access names and the via picker's view (multi-id deletes, update without template, odd names), options-address spellings, company editors' roles/departments. */

type Row = Record<string, unknown>;
const GAPS = [0, -1, -3, -8, 1, 3, 8, 15];
const clean = (r: ApiResponse) => r.status === 200 || r.status === 201 || (r.status >= 400 && r.status < 500);
const buttonsOf = (page: number) => [page * 10 + 1, page * 10 + 2, page * 10 + 3];

let server: TestServer;
let admin: ApiClient;
let designer: MadeAccount;
let mk: ReturnType<typeof accountMaker>;
const rows = async (q: RawBuilder<Row>) => (await q.execute(server.ctx.db)).rows;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
  mk = accountMaker(
    () => server,
    () => admin,
    '1395454',
  );
  const r = await mk.role('攻54-视图设计', [MENU.lowcode, MENU.generation, 611, 612, 613, 614, 615], '全部', null, 2);
  designer = await mk.account('atk54_designer', DEPT.sysadmin, null, [r]);
}, 120_000);
afterAll(async () => server?.close());

async function viewsNamed(name: string): Promise<number[]> {
  const all = await server.ctx.db.selectFrom('lc_generation').select(['id', 'dis_menu']).execute();
  return all.filter((r) => menuComponentName(r.dis_menu) === name).map((r) => r.id);
}
const stored = async (id: number) =>
  server.ctx.db.selectFrom('lc_generation').select(['dis_menu', 'dis_template', 'name']).where('id', '=', id).executeTakeFirst();

describe('views', () => {
  it('probe 1: the order view cannot go with other ids in one delete, in any id spelling (without its picker)', async () => {
    const d = designer.api;
    const extra = await d.post('/api/generation/add', {
      name: '攻54空',
      status: 0,
      disMenu: JSON.stringify({ componentName: 'atk54x', name: 'x' }),
    });
    expect(extra.status, said(extra)).toBe(200);
    const x = extra.body.id as number;
    const tries: [string, () => Promise<ApiResponse>][] = [
      ['body ids', () => d.post('/api/generation/delete', { ids: [x, 19] })],
      ['body array', () => d.post('/api/generation/delete', [x, 19])],
      ['string list', () => d.post('/api/generation/delete', { ids: `${x}, 019` })],
      ['ids+id', () => d.post('/api/generation/delete', { ids: [x], id: '19' })],
      ['query', () => d.post(`/api/generation/delete?ids=${x},19`, {})],
      ['float', () => d.post('/api/generation/delete', { ids: [x, 19.0, '1.9e1'] })],
    ];
    const bad: string[] = [];
    for (const [what, t] of tries) {
      const r = await t();
      if (r.status !== 400 && r.status !== 403 && r.status !== 404) bad.push(`${what}: ${r.status} ${said(r)}`);
      if (!(await stored(19))) bad.push(`${what}: view 19 deleted`);
    }
    expect(bad).toEqual([]);
  });

  it('probe 2: update without template cannot rename the picked view 19 away (odd spellings too)', async () => {
    const d = designer.api;
    const before = await stored(19);
    const menu = JSON.parse(String(before?.dis_menu));
    const bad: string[] = [];
    for (const cn of ['disposalOrderX', 'DisposalOrder', '', null, ' disposalOrder2', 42]) {
      const r = await d.post('/api/generation/update', {
        id: 19,
        name: String(before?.name),
        disMenu: JSON.stringify({ ...menu, componentName: cn }),
      });
      const now = menuComponentName((await stored(19))?.dis_menu);
      if (now !== 'disposalOrder') bad.push(`${JSON.stringify(cn)}: ${r.status}, now ${now}`);
    }
    // disMenu as an object, and a duplicate key
    const r2 = await d.post('/api/generation/update', { id: 19, name: String(before?.name), disMenu: { ...menu, componentName: 'zz' } });
    if (menuComponentName((await stored(19))?.dis_menu) !== 'disposalOrder') bad.push(`object: ${r2.status}`);
    const dup = `{"componentName":"disposalOrder","name":"x","componentName":"zz54"}`;
    const r3 = await d.post('/api/generation/update', { id: 19, name: String(before?.name), disMenu: dup });
    if (menuComponentName((await stored(19))?.dis_menu) !== 'disposalOrder') bad.push(`dup key: ${r3.status}`);
    expect(bad).toEqual([]);
  });

  it('probe 3: a second view of an access name cannot appear by add/update/design with odd spellings', async () => {
    const d = designer.api;
    const bad: string[] = [];
    const spell = ['disposalOrder', ' disposalOrder ', '\tlogisticsOrder', 'contract\n', 'leaveMessage', 'disposalInquiry'];
    for (const cn of spell) {
      const a = await d.post('/api/generation/add', {
        name: `攻54-${cn.trim()}`,
        status: 0,
        disMenu: JSON.stringify({ componentName: cn, name: 'n' }),
      });
      if (a.status === 200) bad.push(`add ${JSON.stringify(cn)} accepted`);
    }
    const e = await d.post('/api/generation/add', {
      name: '攻54改',
      status: 0,
      disMenu: JSON.stringify({ componentName: 'atk54y', name: 'y' }),
    });
    const eid = e.body.id as number;
    for (const cn of spell) {
      const u = await d.post('/api/generation/update', {
        id: eid,
        name: '攻54改',
        disMenu: JSON.stringify({ componentName: cn, name: 'y' }),
      });
      if (u.status === 200) bad.push(`update ${JSON.stringify(cn)} accepted`);
    }
    for (const n of ['disposalOrder', 'logisticsOrder', 'contract', 'leaveMessage', 'disposalInquiry']) {
      const v = await viewsNamed(n);
      if (v.length !== 1) bad.push(`${n}: ${JSON.stringify(v)}`);
    }
    expect(bad).toEqual([]);
  });

  it('probe 4: renaming the waybill view away, deleting 19, adding a new order view, then renaming the waybill view back is refused', async () => {
    // Use a fresh server so destroying the seed does not affect the others.
    const s = await startTestServer();
    try {
      const a = await s.login('admin');
      const m = accountMaker(
        () => s,
        () => a,
        '1395455',
      );
      const r = await m.role('攻54-设计2', [MENU.lowcode, MENU.generation, 611, 612, 613, 614, 615], '全部', null, 2);
      const d = (await m.account('atk54_designer2', DEPT.sysadmin, null, [r])).api;
      const row20 = await s.ctx.db
        .selectFrom('lc_generation')
        .select(['dis_menu', 'name', 'dis_template'])
        .where('id', '=', 20)
        .executeTakeFirstOrThrow();
      const row19 = await s.ctx.db
        .selectFrom('lc_generation')
        .select(['dis_menu', 'name', 'dis_template'])
        .where('id', '=', 19)
        .executeTakeFirstOrThrow();
      const m20 = JSON.parse(String(row20.dis_menu));
      const away = await d.post('/api/generation/update', {
        id: 20,
        name: row20.name,
        disMenu: JSON.stringify({ ...m20, componentName: 'atk54bill' }),
      });
      const del = await d.post('/api/generation/delete', { ids: [19] });
      const add = await d.post('/api/generation/add', {
        name: '攻54新订单',
        status: 0,
        disMenu: row19.dis_menu,
        disTemplate: row19.dis_template,
      });
      const back1 = await d.post('/api/generation/update', { id: 20, name: row20.name, disMenu: JSON.stringify(m20) });
      const back2 = await d.post('/api/generation/design', { id: 20, disTemplate: row20.dis_template, disMenu: JSON.stringify(m20) });
      const back3 = await d.post('/api/generation/update', {
        id: 20,
        name: row20.name,
        disMenu: JSON.stringify(m20),
        disTemplate: row20.dis_template,
      });
      const name20 = menuComponentName(
        (await s.ctx.db.selectFrom('lc_generation').select('dis_menu').where('id', '=', 20).executeTakeFirstOrThrow()).dis_menu,
      );
      const info = `away ${away.status} del ${del.status} add ${add.status} back ${back1.status}/${back2.status}/${back3.status} ${said(back1)}`;
      // Safe: if 19 was deleted, 20 (holding waybills on old order ids) must not become logisticsOrder again.
      if (del.status === 200) expect(name20, info).not.toBe('logisticsOrder');
      for (const x of [away, del, add, back1, back2, back3]) expect(clean(x), info).toBe(true);
    } finally {
      await s.close();
    }
  }, 120_000);

  it('probe 5: an options address the rule lets through is read by the reference reader as a view id only in canonical form', async () => {
    const d = designer.api;
    const row20 = await stored(20);
    const bad: string[] = [];
    for (const url of [
      '/api/general/allList/0019/queryLink',
      '/api/general/allList/000000019/queryLink',
      '/api/general/allList/17/queryLink?/api/general/allList/19/queryLink',
      '/api/general/allList/19/queryLink?',
    ]) {
      const text = String(row20?.dis_template).replaceAll('/api/general/allList/19/queryLink', url);
      const r = await d.post('/api/generation/design', { id: 20, disTemplate: text });
      const now = String((await stored(20))?.dis_template);
      if (r.status === 200 && !url.endsWith('?')) {
        const carrier = await server.login('logistics');
        const opt = await carrier.get('/api/general/allList/19/queryLink', {});
        const optOdd = await carrier.get(url, {});
        const del19 = await d.post('/api/generation/delete', { ids: [19] });
        bad.push(
          `${url} accepted as a second spelling (${r.status}); carrier queryLink 19 -> ${opt.status}, via odd url -> ${optOdd.status}; delete 19 -> ${del19.status}`,
        );
      }
      if (now !== String(row20?.dis_template)) {
        await d.post('/api/generation/design', { id: 20, disTemplate: row20?.dis_template });
      }
    }
    expect(bad).toEqual([]);
  });
});

describe('company editors', () => {
  it("probe 6: a producer's role editor cannot edit/delete another company's role; user editor cannot move into another company's department", async () => {
    const roleR = await mk.role('攻54-角色', [MENU.dashboard, MENU.system, MENU.role, ...buttonsOf(MENU.role)], '本企业', COMPANY.producer);
    const userR = await mk.role('攻54-用户', [MENU.dashboard, MENU.system, MENU.user, ...buttonsOf(MENU.user)], '本企业', COMPANY.producer);
    const deptR = await mk.role('攻54-部门', [MENU.dashboard, MENU.system, MENU.dept, ...buttonsOf(MENU.dept)], '本企业', COMPANY.producer);
    const re = await mk.account('atk54_roled', DEPT.producers, COMPANY.producer, [roleR]);
    const ue = await mk.account('atk54_usered', DEPT.producers, COMPANY.producer, [userR]);
    const de = await mk.account('atk54_depted', DEPT.producers, COMPANY.producer, [deptR]);
    const victim = await mk.account('atk54_victim', DEPT.producers, COMPANY.producer, [userR]);
    const otherRole = await mk.role('攻54-别家', [MENU.dashboard], '本企业', COMPANY.disposer);
    const bad: string[] = [];
    const before = await rows(sql<Row>`select name, data_scope from sys_role where id = ${otherRole}`);
    const tries: [string, Promise<ApiResponse>][] = [
      [
        'role put',
        re.api.put('/api/roles', { id: otherRole, name: '攻54改', level: 3, dataScope: '本企业', menus: [{ id: MENU.dashboard }] }),
      ],
      ['role menu', re.api.put('/api/roles/menu', { id: otherRole, menus: [{ id: MENU.dashboard }, { id: MENU.system }] })],
      ['role del', re.api.delete('/api/roles', [otherRole])],
      ['role del mixed', re.api.delete('/api/roles', [roleR + 100000, otherRole])],
      ['seed role del', re.api.delete('/api/roles', [ROLE.disposer])],
      ['user move', ue.api.put('/api/users', { id: victim.id, deptId: DEPT.disposers })],
      ['user role', ue.api.put('/api/users', { id: victim.id, deptId: DEPT.producers, roles: [{ id: otherRole }] })],
      [
        'user add',
        ue.api.post('/api/users', {
          username: 'atk54_x',
          nickName: 'x',
          phone: '13954549999',
          deptId: DEPT.disposers,
          roles: [{ id: userR }],
        }),
      ],
      ['dept add', de.api.post('/api/dept', { name: '攻54越', pid: DEPT.disposers, enabled: true, sort: 9 })],
      [
        'dept move',
        de.api.put('/api/dept', { id: DEPT.disposer2, name: '南通清源固废处置有限公司', pid: DEPT.producers, enabled: true, sort: 7 }),
      ],
      ['dept del', de.api.delete('/api/dept', [DEPT.disposers])],
    ];
    for (const [what, p] of tries) {
      const r = await p;
      if (r.status < 400 || r.status >= 500) bad.push(`${what}: ${r.status} ${said(r)}`);
    }
    const after = await rows(sql<Row>`select name, data_scope from sys_role where id = ${otherRole}`);
    if (JSON.stringify(before) !== JSON.stringify(after)) bad.push(`other role changed ${JSON.stringify(after)}`);
    const v = await rows(sql<Row>`select dept_id from sys_user where id = ${victim.id}`);
    if (v[0]?.dept_id !== DEPT.producers) bad.push(`victim dept ${JSON.stringify(v)}`);
    const ur = await rows(sql<Row>`select role_id from sys_users_roles where user_id = ${victim.id}`);
    if (ur.some((x) => x.role_id === otherRole)) bad.push('victim got the other role');
    expect(bad).toEqual([]);
  }, 60_000);

  it('probe 7: assigning a role to an account while the role editor deletes it: no account left on a deleted role, no 500', async () => {
    const roleR = await mk.role(
      '攻54-角色b',
      [MENU.dashboard, MENU.system, MENU.role, ...buttonsOf(MENU.role)],
      '本企业',
      COMPANY.producer,
    );
    const userR = await mk.role(
      '攻54-用户b',
      [MENU.dashboard, MENU.system, MENU.user, ...buttonsOf(MENU.user)],
      '本企业',
      COMPANY.producer,
    );
    const re = await mk.account('atk54_roledb', DEPT.producers, COMPANY.producer, [roleR]);
    const ue = await mk.account('atk54_useredb', DEPT.producers, COMPANY.producer, [userR]);
    const bad: string[] = [];
    const outcomes = new Set<string>();
    for (let i = 0; i < GAPS.length * 2; i++) {
      const made = await re.api.post('/api/roles', { name: `攻54-删${i}`, level: 3, dataScope: '本企业', menus: [{ id: MENU.dashboard }] });
      expect(made.status, said(made)).toBe(201);
      const rid = made.body.id as number;
      const u = await mk.account(`atk54_rv${i}`, DEPT.producers, COMPANY.producer, [userR]);
      const [c, d] = await overlap(
        i,
        GAPS,
        () => settled(ue.api.put('/api/users', { id: u.id, deptId: DEPT.producers, roles: [{ id: rid }] }), 'assign'),
        () => settled(re.api.delete('/api/roles', [rid]), 'delete'),
      );
      outcomes.add(`${c.status}/${d.status}`);
      if (!clean(c) || !clean(d)) bad.push(`round ${i}: ${c.status} ${said(c)} / ${d.status} ${said(d)}`);
      const dangling = await rows(
        sql<Row>`select 1 from sys_users_roles where role_id = ${rid} and role_id not in (select id from sys_role)`,
      );
      if (dangling.length) bad.push(`round ${i}: account on deleted role`);
      const none = await rows(sql<Row>`select 1 from sys_users_roles where user_id = ${u.id}`);
      if (!none.length) bad.push(`round ${i}: account #${u.id} left with no role (${c.status}/${d.status})`);
    }
    const menuOrphans = await rows(sql<Row>`select role_id from sys_roles_menus where role_id not in (select id from sys_role)`);
    if (menuOrphans.length) bad.push(`menus on no role ${JSON.stringify(menuOrphans)}`);
    expect(bad, [...outcomes].join(' ')).toEqual([]);
  }, 120_000);
});
