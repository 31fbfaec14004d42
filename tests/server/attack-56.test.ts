import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPT, MENU } from '../../server/seed/accounts.js';
import { menuComponentName } from '../../src/model/index.js';
import { accountMaker, type MadeAccount } from '../helpers/accounts.js';
import { dataViewsRun, said } from '../helpers/refusal.js';
import { type ApiClient, type ApiResponse, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Attack 56: data-view spellings aimed at the private 留言 table (lc_view_18) and at sys_* tables, and
 * Object.prototype names as componentName on views never designed, hit through /api/general/*,
 * /api/generation and /api/screen by a designer and by the carrier. Each probe asserts the safe answer.
 */

let server: TestServer;
let admin: ApiClient;
let designer: MadeAccount;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
  const mk = accountMaker(
    () => server,
    () => admin,
    '1395656',
  );
  const r = await mk.role(
    '攻56-设计',
    [MENU.lowcode, MENU.generation, 611, 612, 613, 614, 615, MENU.screen, 621, 622, 623, 624, MENU.dataView, 631, 632, 633],
    '全部',
    null,
    2,
  );
  designer = await mk.account('atk56_designer', DEPT.sysadmin, null, [r]);
}, 120_000);
afterAll(async () => server?.close());

const clean = (r: ApiResponse) => r.status < 500;

describe('data views', () => {
  it('probe 1: no spelling reads the private 留言 table or a sys_* table', async () => {
    const priv = [
      'select * from lc_view_18',
      'select (t).* from lc_view_18 t',
      'select t from public.lc_view_18 t',
      'select to_json(t) from "public"."lc_view_18" t',
      'select jsonb_agg(t) from lc_view_18 t',
      'select * from lc_view_18/**/ t',
      'select * from public . lc_view_18',
      'select * from LC_VIEW_18',
      'select * from lc_view_18 as company',
      'select * from company natural join lc_view_18',
      'with company as (select * from lc_view_18) select * from company',
      'select * from (table lc_view_18) x',
      'select 1 where exists (select from lc_view_18)',
      'select (select count(*) from lc_view_18) as n',
      'select row(t.*)::text from lc_view_18 t',
      'select t.* from lc_view_19 t, lc_view_18',
      'select * from lc_view_19 where id in (select id from lc_view_18)',
      'select * from pg_temp.lc_view_18',
      'select * from lc_view_18 -- trailing\n',
      'select * from (select * from lc_view_19 union all select * from lc_view_18) u',
    ];
    const sys = [
      'select (u).password from sys_user u',
      'select (row(u.*)).f1 from sys_user u',
      "select 'sys_user'::regclass::text as r",
      'select c.name::regclass from company c',
      'select name(c) from company c',
      'select (c).name from company c',
      'select c.upper from company c',
      'select upper(c) from company c',
      'select to_json(c)::text from company c where false union all select password from sys_user',
      'select text(c) from company c',
      'select c::text from company c',
      'select (c::company).name from company c',
      'select row(1,2)::sys_user',
      "select cast(row('a') as sys_session)",
      'select pg_catalog.upper(c.name) from company c, sys_user',
      'select * from company c, lateral (select * from sys_user u where u.company_id = c.id) x',
      'select * from company c where c.id = any(select company_id from "sys_user")',
      'select * from company tablesample system (100) join sys_user on true',
      "select * from json_populate_record(null::sys_user, '{}')",
      "select * from jsonb_to_record('{}') as x(password text)",
      'select (select x from (select 1) x)::text',
      "select current_setting('search_path')",
      'select 1 from company c where c.id = (select id from public.sys_role limit 1)',
    ];
    const ran = await dataViewsRun(designer.api, [...priv, ...sys]);
    expect(ran).toEqual([]);
  }, 120_000);
});

const INHERITED = [
  'constructor',
  'toString',
  '__proto__',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupGetter__',
];

describe('inherited componentNames on views never designed', () => {
  it('probe 2: the general calls answer no 5xx for such a view, for the designer and for the carrier', async () => {
    const carrier = await server.login('logistics');
    const bad: string[] = [];
    for (const cn of INHERITED) {
      const add = await designer.api.post('/api/generation/add', {
        name: `攻56-${cn}`,
        status: 0,
        disMenu: JSON.stringify({ componentName: cn, name: cn, path: `/atk56/${cn}` }),
      });
      if (!clean(add)) bad.push(`add ${cn}: ${add.status} ${said(add)}`);
      if (add.status !== 200) continue;
      const id = add.body.id as number;
      for (const [who, c] of [
        ['designer', designer.api],
        ['carrier', carrier],
      ] as const) {
        const calls: [string, () => Promise<ApiResponse>][] = [
          ['list', () => c.get(`/api/general/list/${id}`, { page: 0, size: 10 })],
          ['detail', () => c.get('/api/general/detail', { generalId: id, id: 1 })],
          ['formData', () => c.get('/api/general/formData', { generalId: id, id: '1' })],
          ['dynamicQuery', () => c.get('/api/general/dynamicQuery', { generalId: id, id: '1' })],
          ['queryLink', () => c.get(`/api/general/allList/${id}/queryLink`, {})],
          ['add', () => c.post(`/api/general/add/${id}`, { title: 'x' })],
          ['update', () => c.post(`/api/general/update/${id}`, { id: 1, title: 'x' })],
          ['delete', () => c.post(`/api/general/delete/${id}`, { ids: [1] })],
          ['preAdd', () => c.post(`/api/general/preAdd/${id}`, {})],
          ['groovy', () => c.post(`/api/general/groovy/${id}`, { ids: [1] })],
          ['template', () => c.get(`/api/general/${id}/template`, {})],
          ['download', () => c.get(`/api/general/${id}/download`, {})],
          ['export', () => c.get(`/api/general/export/${id}/download`, {})],
          ['genDetail', () => c.get('/api/generation/detail', { id })],
        ];
        for (const [what, call] of calls) {
          const r = await call();
          if (!clean(r)) bad.push(`${who} ${what} ${cn}: ${r.status} ${said(r)}`);
          if (who === 'carrier' && r.status >= 200 && r.status < 300 && ['add', 'update', 'delete', 'genDetail'].includes(what))
            bad.push(`carrier ${what} ${cn} accepted: ${r.status} ${said(r)}`);
        }
      }
      const scr = await designer.api.post('/api/screen/add', {
        name: `攻56屏-${cn}`,
        type: 1,
        disTemplate: JSON.stringify({ baseView: id }),
      });
      if (!clean(scr)) bad.push(`screen add ${cn}: ${scr.status} ${said(scr)}`);
      const ren = await designer.api.post('/api/generation/update', {
        id,
        name: `攻56-${cn}`,
        disMenu: JSON.stringify({ componentName: 'leaveMessage', name: 'x' }),
      });
      if (ren.status === 200) bad.push(`rename ${cn} → leaveMessage accepted`);
      if (!clean(ren)) bad.push(`rename ${cn}: ${ren.status} ${said(ren)}`);
      const del = await designer.api.post('/api/generation/delete', { ids: [id] });
      if (!clean(del)) bad.push(`delete ${cn}: ${del.status} ${said(del)}`);
    }
    expect(bad).toEqual([]);
  }, 300_000);
});

describe('private 留言 view', () => {
  it('probe 3: the designer cannot rename 留言 away, nor give another view its name', async () => {
    const bad: string[] = [];
    const row = await server.ctx.db.selectFrom('lc_generation').select(['dis_menu', 'name']).where('id', '=', 18).executeTakeFirstOrThrow();
    const menu = JSON.parse(String(row.dis_menu));
    for (const cn of ['leaveMessage2', 'LeaveMessage', 'leaveMessage\u200b', 'constructor', null]) {
      const r = await designer.api.post('/api/generation/update', {
        id: 18,
        name: row.name,
        disMenu: JSON.stringify({ ...menu, componentName: cn }),
      });
      if (r.status === 200) bad.push(`rename to ${JSON.stringify(cn)} accepted`);
      if (!clean(r)) bad.push(`rename ${JSON.stringify(cn)}: ${r.status} ${said(r)}`);
    }
    // duplicate keys: the last wins in JSON.parse, whoever reads it
    const dup = await designer.api.post('/api/generation/update', {
      id: 18,
      name: row.name,
      disMenu: `{"componentName":"leaveMessage","componentName":"atk56free","name":"x"}`,
    });
    if (dup.status === 200) bad.push('duplicate-key rename accepted');
    const other = await designer.api.post('/api/generation/add', {
      name: '攻56-第二留言',
      status: 0,
      disMenu: `{"componentName":"atk56y","componentName":"leaveMessage"}`,
    });
    if (other.status === 200) bad.push('second leaveMessage view by duplicate key accepted');
    const after = await server.ctx.db.selectFrom('lc_generation').select('dis_menu').where('id', '=', 18).executeTakeFirstOrThrow();
    // The name as every reader parses it (trimmed) stays 留言's.
    expect(menuComponentName(after.dis_menu)).toBe('leaveMessage');
    expect(bad).toEqual([]);
  }, 60_000);

  it('probe 4: the carrier reads no 留言 not addressed to its department nor written by it', async () => {
    const carrier = await server.login('logistics');
    const bad: string[] = [];
    const l = await carrier.get('/api/general/list/18', { page: 0, size: 9999 });
    if (!clean(l)) bad.push(`list: ${l.status}`);
    expect(l.status, said(l)).toBe(200);
    const rows = (await server.ctx.db
      .selectFrom('lc_view_18' as never)
      .selectAll()
      .execute()) as Record<string, unknown>[];
    const carrierId = 5;
    const foreign = rows.filter((r) => Number(r.create_user) !== carrierId && Number(r.deptId) !== DEPT.logistics).map((r) => Number(r.id));
    const seen = ((l.body?.content ?? []) as { id: number }[]).map((r) => Number(r.id));
    const leak = seen.filter((id) => foreign.includes(id));
    if (leak.length) bad.push(`list leaks ${leak.join(',')}`);
    for (const id of foreign.slice(0, 3)) {
      const f = await carrier.get('/api/general/formData', { generalId: 18, id: String(id) });
      if (f.status === 200 && f.body?.data) bad.push(`formData ${id}: ${said(f)}`);
      const u = await carrier.post('/api/general/update/18', { id, replyContent: 'atk56' });
      if (u.status < 400 || u.status >= 500) bad.push(`update ${id}: ${u.status} ${said(u)}`);
      const d = await carrier.post('/api/general/delete/18', { ids: [id] });
      if (d.status < 400 || d.status >= 500) bad.push(`delete ${id}: ${d.status} ${said(d)}`);
    }
    expect(foreign.length, 'the seed has 留言 outside the carrier').toBeGreaterThan(0);
    expect(bad).toEqual([]);
  }, 60_000);
});
