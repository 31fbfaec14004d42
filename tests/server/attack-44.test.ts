import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPT, MENU, ROLE, USER } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { accountMaker } from '../helpers/accounts.js';
import { buttons } from '../helpers/probes.js';
import { dataViewsRun, said } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Attack 44: the data-view SQL guard (CTE scoping, qualified names, casts), a company's user editor and
 * role editor, and the seeded carrier. Ordinary accounts only; each probe asserts the SAFE behaviour.
 */

let server: TestServer;
let admin: ApiClient;
const db = () => server.ctx.db;

const { account, role } = accountMaker(
  () => server,
  () => admin,
  '1374444',
);

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('data-view SQL guard', () => {
  let designer: ApiClient;
  beforeAll(async () => {
    designer = (
      await account('atk44_dv', DEPT.ops, null, [
        await role('攻44-数据视图', [MENU.lowcode, MENU.dataView, ...buttons(MENU.dataView)], '全部', null, 3),
      ])
    ).api;
    const ok = await designer.post('/api/data/run', { sql: 'select id, name from company' });
    expect(ok.status, said(ok)).toBe(200);
  });

  it('a CTE name does not hide the table of the same name where the CTE is not visible', async () => {
    const ran = await dataViewsRun(designer, [
      'with sys_user as (select * from sys_user) select * from sys_user',
      'with x as (select username, password from sys_user), sys_user as (select 1 as id) select * from x',
      'with a as (select 1 as id) select * from (with sys_user as (select 1 as id) select 1 as k) q, sys_user',
      'select (with sys_user as (select 1 as id) select 1), (select max(password) from sys_user)',
      'with sys_user as materialized (select password from sys_user) select * from sys_user',
      'select * from (with t as (select 1) select * from sys_user) q',
      'with t as (select 1 as id), u as (select * from t), t2 as (select password from sys_user) select * from t2',
      'with "SYS_USER" as (select 1 as id) select * from sys_user',
      'with sys_user as (select 1 as id) select * from public.sys_user',
      'with sys_user as (select 1 as id) select * from pg_catalog.pg_authid',
      'with sys_user as (select 1 as id) select (select count(*) from public.sys_user)',
      'select * from lc_view_12 join lateral (with sys_user as (select 1 as id) select * from sys_user) s on true union all select 1',
    ]);
    expect(ran).toEqual([]);
  });

  it('no system table, catalog or schema-qualified escape', async () => {
    const ran = await dataViewsRun(designer, [
      'select * from pg_stats',
      'select * from pg_catalog.pg_stats',
      'select * from information_schema.columns',
      'select * from pg_shadow',
      'select * from "public"."sys_user"',
      'select * from public."sys_user"',
      'select * from U&"sys\\005fuser"',
      'table sys_user',
      'table public.sys_session',
      "select 'sys_user'::regclass",
      "select cast('1' as oid)",
      "select 'x'::name",
      "select ('(1)')::sys_user",
      'select (null::sys_user).password',
      'select to_json(null::sys_user)',
      "select * from json_populate_record(null::sys_user, '{}')",
      'select * from company c where c.id = (select id from sys_user limit 1)',
      'select id from company union select id from sys_user',
      'select * from rows from (generate_series(1,2)) as g, sys_user',
      'select * from company as sys_dict, sys_user',
      'select sys_user from sys_user',
      'select count(*) from sys_role',
      'select * from lc_screen',
      'select * from sys_file',
      'select pg_typeof(x) from sys_user x',
      "select xmlelement(name a, 'b')",
      "select to_char(now(), 'YYYY') from sys_user",
      'select * from company for update',
      'select * from public.lc_view_12 tablesample system(100)',
    ]);
    expect(ran).toEqual([]);
  });
});

describe('data-view SQL guard: a forbidden table in every clause', () => {
  it('reads sys_user through no clause, subquery or set-returning call', async () => {
    const designer = (
      await account('atk44_dv2', DEPT.ops, null, [
        await role('攻44-数据视图2', [MENU.lowcode, MENU.dataView, ...buttons(MENU.dataView)], '全部', null, 3),
      ])
    ).api;
    const P = '(select password from sys_user limit 1)';
    const ran = await dataViewsRun(designer, [
      `select name from company order by ${P}`,
      'select * from company where name in (table sys_user)',
      'select array(select password from sys_user)',
      `values (${P})`,
      'select * from company natural join sys_user',
      'select * from (company c join sys_user u using (id))',
      `select 1 from company group by grouping sets ((${P}))`,
      `select count(*) over w from company window w as (order by ${P})`,
      'select * from company limit (select count(*) from sys_user)',
      'select * from company offset (select count(*) from sys_user)',
      `select distinct on (${P}) id from company`,
      'select count(*) filter (where exists (select 1 from sys_user)) from company',
      `select string_agg(name, ',' order by ${P}) from company`,
      'select * from company tablesample bernoulli ((select count(*) from sys_user))',
      'select 1 where 1 = any(array(select id from sys_user))',
      'select * from unnest(array(select password from sys_user))',
      'select * from generate_series(1, (select count(*)::int from sys_user))',
      'select x.* from company, lateral (select * from sys_user) x',
      'select 1 from company having (select count(*) from sys_user) > 0',
      `select pg_typeof(${P})`,
      `select json_build_object('a', ${P})`,
      `select * from company where name like ${P}`,
      `select (${P})[1]`,
      `select * from company c where (c.id, c.name) in (select id, password from sys_user)`,
      `select * from company where id = any (select id from sys_user) is not null`,
      `select coalesce(null, ${P})`,
      `select case when true then ${P} end`,
      `select greatest(${P}, 'a')`,
      `select ${P} collate "C"`,
      `select cast(${P} as text)`,
      `select * from company where name is distinct from ${P}`,
      `select * from company c where c.name = all (select password from sys_user)`,
      `select xmlforest(${P} as a)`,
      'select * from company c, lateral (select c.name from sys_user) s',
      `select * from company where (name, 1) = (${P}, 1)`,
      `select * from company order by name using < , ${P}`,
      `select * from company where name between ${P} and 'z'`,
      `select jsonb_build_array(${P})`,
      `select * from json_each(to_json(${P}))`,
      `select * from company where exists (select from sys_user)`,
      `select * from sys_dict d where d.name = any (select password from sys_session)`,
      `select * from lc_view_12 where exists (select 1 from lc_view_12 v join sys_user u on true)`,
    ]);
    expect(ran).toEqual([]);
  });
});

describe('a company user editor', () => {
  let editor: ApiClient;
  let editorId: number;
  beforeAll(async () => {
    const r = await role('攻44-用户管理', [MENU.system, MENU.user, ...buttons(MENU.user)], '本企业', COMPANY.producer, 3);
    const made = await account('atk44_users', DEPT.producers, COMPANY.producer, [r]);
    editor = made.api;
    editorId = made.id;
  });

  it('lists no account of another company', async () => {
    const r = await editor.get('/api/users', { page: 0, size: 200 });
    expect(r.status).toBe(200);
    const names = (r.body.content as { username: string }[]).map((u) => u.username);
    expect(names.filter((n) => ['admin', 'disposer', 'logistics', 'supervisor', 'collector'].includes(n))).toEqual([]);
    const other = await editor.get('/api/users', { page: 0, size: 200, companyId: COMPANY.disposer });
    expect(((other.body?.content ?? []) as { username: string }[]).map((u) => u.username)).not.toContain('disposer');
  });

  it('edits or deletes no account of another company', async () => {
    const before = await db().selectFrom('sys_user').selectAll().where('id', '=', USER.disposer).executeTakeFirstOrThrow();
    const edit = await editor.put('/api/users', {
      id: USER.disposer,
      username: 'disposer',
      nickName: 'pwned44',
      phone: before.phone,
      deptId: DEPT.producers,
      companyId: COMPANY.producer,
      roles: [{ id: ROLE.producer }],
    });
    const del = await editor.delete('/api/users', [USER.disposer]);
    const after = await db().selectFrom('sys_user').selectAll().where('id', '=', USER.disposer).executeTakeFirstOrThrow();
    expect(edit.status, said(edit)).toBeGreaterThanOrEqual(400);
    expect(del.status, said(del)).toBeGreaterThanOrEqual(400);
    expect([after.nick_name, after.status, after.dept_id]).toEqual([before.nick_name, before.status, before.dept_id]);
  });

  it('makes no account of another company, admin, or with roles it may not give', async () => {
    const tries: [string, Record<string, unknown>][] = [
      ['atk44_u1', { companyId: COMPANY.disposer, deptId: DEPT.disposers, roles: [{ id: ROLE.disposer }] }],
      ['atk44_u2', { companyId: COMPANY.producer, deptId: DEPT.producers, roles: [{ id: ROLE.superAdmin }] }],
      ['atk44_u3', { companyId: COMPANY.producer, deptId: DEPT.producers, roles: [{ id: ROLE.producer }], isAdmin: true }],
      ['atk44_u4', { companyId: null, deptId: DEPT.platform, roles: [{ id: ROLE.producer }] }],
      ['atk44_u5', { companyId: COMPANY.producer, deptId: DEPT.disposers, roles: [{ id: ROLE.producer }] }],
      ['atk44_u6', { companyId: COMPANY.producer, deptId: DEPT.producers, roles: [{ id: ROLE.supervisor }] }],
    ];
    const made: string[] = [];
    let n = 0;
    for (const [username, extra] of tries) {
      const r = await editor.post('/api/users', { username, nickName: username, phone: `1374444${String(9000 + ++n)}`, ...extra });
      const row = await db()
        .selectFrom('sys_user')
        .leftJoin('sys_users_roles as ur', 'ur.user_id', 'sys_user.id')
        .select(['sys_user.id', 'is_admin', 'dept_id', 'company_id', 'ur.role_id'])
        .where('username', '=', username)
        .execute();
      const bad = row.filter(
        (u) =>
          u.is_admin ||
          u.company_id !== COMPANY.producer ||
          u.dept_id !== DEPT.producers ||
          (u.role_id !== null && u.role_id !== ROLE.producer),
      );
      if (bad.length) made.push(`${username} ${r.status} ${JSON.stringify(bad)}`);
    }
    expect(made).toEqual([]);
  });

  it('raises neither itself nor a colleague to admin, another company or a role it does not hold', async () => {
    const me = await db().selectFrom('sys_user').selectAll().where('id', '=', editorId).executeTakeFirstOrThrow();
    const base = { id: editorId, username: me.username, nickName: me.nick_name, phone: me.phone, deptId: DEPT.producers };
    const edits = [
      { ...base, isAdmin: true },
      { ...base, roles: [{ id: ROLE.superAdmin }] },
      { ...base, companyId: COMPANY.disposer, deptId: DEPT.disposers },
      { ...base, permission: 'admin' },
      { id: USER.producer, username: 'producer', nickName: 'p', deptId: DEPT.producers, isAdmin: true },
      { id: USER.producer, username: 'producer', nickName: 'p', deptId: DEPT.producers, roles: [{ id: ROLE.supervisor }] },
    ];
    for (const e of edits) await editor.put('/api/users', e);
    const rows = await db()
      .selectFrom('sys_user')
      .select(['id', 'is_admin', 'company_id', 'dept_id'])
      .where('id', 'in', [editorId, USER.producer])
      .execute();
    const roles = await db().selectFrom('sys_users_roles').selectAll().where('user_id', 'in', [editorId, USER.producer]).execute();
    expect(rows.filter((r) => r.is_admin || r.company_id !== COMPANY.producer)).toEqual([]);
    expect(roles.filter((r) => r.role_id === ROLE.superAdmin || r.role_id === ROLE.supervisor)).toEqual([]);
  });
});

describe('a company role editor', () => {
  let editor: ApiClient;
  let ownRole: number;
  beforeAll(async () => {
    ownRole = await role('攻44-角色管理', [MENU.system, MENU.role, ...buttons(MENU.role)], '本企业', COMPANY.producer, 3);
    editor = (await account('atk44_roles', DEPT.producers, COMPANY.producer, [ownRole])).api;
  });

  it('makes no role of a higher level, wider scope, other company or with menus it does not hold', async () => {
    const tries = [
      { name: '攻44-r1', level: 1, dataScope: '本企业', menus: [{ id: MENU.role }] },
      { name: '攻44-r2', level: 3, dataScope: '全部', menus: [{ id: MENU.role }] },
      { name: '攻44-r3', level: 3, dataScope: '本企业', menus: [{ id: MENU.user }] },
      { name: '攻44-r4', level: 3, dataScope: '本企业', companyId: COMPANY.disposer, menus: [{ id: MENU.role }] },
      { name: '攻44-r5', level: 3, dataScope: '本企业', menus: [{ id: MENU.menu * 10 + 1 }] },
      { name: '攻44-r6', level: 3, dataScope: '本企业', menus: [{ id: MENU.screen }] },
      { name: '攻44-r7', level: 2, dataScope: '本企业', menus: [{ id: MENU.role }] },
      { name: '攻44-r8', level: 0, dataScope: '本企业', menus: [{ id: MENU.role }] },
      { name: '攻44-r9', level: 3, dataScope: '自定义', depts: [DEPT.disposers], menus: [{ id: MENU.role }] },
    ];
    const made: string[] = [];
    for (const t of tries) {
      const r = await editor.post('/api/roles', t);
      const row0 = await db().selectFrom('sys_role').selectAll().where('name', '=', t.name).executeTakeFirst();
      const held = new Set<number>([MENU.system, MENU.role, ...buttons(MENU.role)]);
      const menus0 = await db()
        .selectFrom('sys_roles_menus')
        .select('menu_id')
        .where('role_id', '=', row0?.id ?? -1)
        .execute();
      const safe =
        !row0 ||
        (row0.level >= 3 &&
          row0.data_scope === '本企业' &&
          row0.company_id === COMPANY.producer &&
          menus0.every((m) => held.has(m.menu_id)));
      if (!safe) {
        const row = await db().selectFrom('sys_role').selectAll().where('name', '=', t.name).executeTakeFirst();
        const menus = await db()
          .selectFrom('sys_roles_menus')
          .select('menu_id')
          .where('role_id', '=', row?.id ?? -1)
          .execute();
        made.push(
          `${t.name}: ${r.status} level=${row?.level} scope=${row?.data_scope} company=${row?.company_id} menus=${menus.map((m) => m.menu_id)}`,
        );
      }
    }
    expect(made).toEqual([]);
  });

  it('changes no role of another company, no shared seeded role, and does not raise its own', async () => {
    const snap = async () =>
      JSON.stringify([
        await db()
          .selectFrom('sys_role')
          .selectAll()
          .where('id', 'in', [ROLE.disposer, ROLE.producer, ROLE.superAdmin, ownRole])
          .orderBy('id')
          .execute(),
        await db()
          .selectFrom('sys_roles_menus')
          .selectAll()
          .where('role_id', 'in', [ROLE.disposer, ROLE.producer, ROLE.superAdmin, ownRole])
          .orderBy('role_id')
          .orderBy('menu_id')
          .execute(),
      ]);
    const before = await snap();
    const all = [MENU.system, MENU.role, MENU.user, ...buttons(MENU.role), ...buttons(MENU.user), MENU.menu];
    const calls = [
      editor.put('/api/roles', { id: ROLE.disposer, name: 'pwn44', level: 3, dataScope: '本企业' }),
      editor.put('/api/roles/menu', { id: ROLE.disposer, menus: [{ id: MENU.role }] }),
      editor.put('/api/roles/menu', { id: ROLE.producer, menus: all.map((id) => ({ id })) }),
      editor.put('/api/roles', { id: ROLE.producer, name: '产废企业', level: 1, dataScope: '全部' }),
      editor.put('/api/roles', { id: ownRole, name: '攻44-角色管理', level: 1, dataScope: '本企业' }),
      editor.put('/api/roles', { id: ownRole, name: '攻44-角色管理', level: 3, dataScope: '全部' }),
      editor.put('/api/roles/menu', { id: ownRole, menus: all.map((id) => ({ id })) }),
      editor.put('/api/roles', { id: ownRole, name: '攻44-角色管理', level: 3, dataScope: '本企业', companyId: COMPANY.disposer }),
      editor.delete('/api/roles', [ROLE.disposer]),
    ];
    const res = [];
    for (const c of calls) res.push(await c);
    const after = await snap();
    expect(after, res.map((r) => `${r.status} ${said(r).slice(0, 80)}`).join('\n')).toBe(before);
  });
});

describe('the seeded carrier', () => {
  it('reads no accounts, roles, data views or big screens it was not given', async () => {
    const carrier = await server.login('logistics');
    const users = await carrier.get('/api/users', { page: 0, size: 50 });
    const roleOne = await carrier.get(`/api/roles/${ROLE.producer}`);
    const data = await carrier.get('/api/data/detail', { id: 2 });
    const screen = await carrier.get('/api/screen/detail', { id: 50 });
    const list = await carrier.get('/api/data/list', { page: 0, size: 10 });
    expect([users.status, roleOne.status, data.status, screen.status, list.status]).toEqual([403, 403, 403, 403, 403]);
    const roles = await carrier.get('/api/roles', { page: 0, size: 100 });
    const foreign = ((roles.body?.content ?? []) as { companyId: number | null; menus: unknown[] }[]).filter(
      (r) => r.companyId !== null && r.companyId !== COMPANY.logistics,
    );
    expect(foreign, said(roles)).toEqual([]);
  });
});
