import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPT, MENU, ROLE, USER } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { accountMaker } from '../helpers/accounts.js';
import { buttons } from '../helpers/probes.js';
import { dataViewsRun, said } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { field } from '../helpers/wire-field.js';

/**
 * Attack 41: ordinary accounts made as an administrator would make them (a platform view designer, a
 * platform data-view designer, a platform menu editor, a company's user editor, a company account
 * granted one extra permission) and the seeded carrier, against what a published view writes into the
 * menus, what a menu's path opens, which view tables are private to their recipients, records known by
 * their author's account, system messages, the data-view guard, messages by id, and the audit trail
 * of a design. Each probe asserts the SAFE behaviour: a failing probe is a hole.
 *
 * Failing when written (2026-12-01):
 * - a platform view designer who is not an administrator points its view at a page menu it holds
 *   (menuId: 61, its own 视图 page) and publishes it as componentName 'user': the menu and its buttons
 *   are rewritten to user:list/add/edit/del, and the designer manages every account;
 * - the same designer renames the componentName of a view whose menus other roles hold ('role'): on
 *   publishing, every holder (here the carrier) gets role:list/add/edit/del;
 * - a platform menu editor who designs no screen points a page menu it holds (企业看板) at a big
 *   screen's address, then reads the screen and runs its data views (every company's figures);
 * - a designer with view and data-view permissions renames 留言管理's componentName, after which the
 *   view's table is no longer private and a data view reads every company's leave messages;
 * - records were known by their author's username: after a company renames an account, another
 *   company's user editor renames its own account to the freed name and reads (and may change) the
 *   first company's leave messages written under it (records now belong to the author's account id);
 * - a company account granted sysMessage:add sends the platform's system messages (HTML kept as
 *   written) to every account of every company, and learns which usernames exist.
 */

let server: TestServer;
let admin: ApiClient;
const db = () => server.ctx.db;
type Row = Record<string, any>;

const { account, role } = accountMaker(
  () => server,
  () => admin,
  '1374141',
);

/** A platform designer's menus: views (list, add, edit, del, design, publish), and optionally data views. */
const VIEW_DESIGN = [MENU.lowcode, MENU.generation, ...buttons(MENU.generation, 5)];
const DATA_VIEW_DESIGN = [MENU.dataView, ...buttons(MENU.dataView, 3)];

const template = () =>
  JSON.stringify({
    basicOption: { sortName: 'id', sortType: 'desc' },
    tableOption: [field('title', '名称', 'varchar', { search: true })],
    formOption: [field('title', '名称', 'varchar', { required: true })],
  });

/** The menus of a page (its own row and its buttons), as stored. */
const pageMenus = (id: number) =>
  db()
    .selectFrom('sys_menu')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', id), eb('pid', '=', id)]))
    .orderBy('id')
    .execute();

/** Puts a page's menus back as `before` held them, dropping buttons added since. */
async function restoreMenus(id: number, before: Awaited<ReturnType<typeof pageMenus>>) {
  await db()
    .deleteFrom('sys_menu')
    .where('pid', '=', id)
    .where(
      'id',
      'not in',
      before.map((m) => m.id),
    )
    .execute();
  for (const m of before) {
    const { id: mid, ...rest } = m;
    await db().updateTable('sys_menu').set(rest).where('id', '=', mid).execute();
  }
  server.ctx.sessions.invalidate();
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('a platform view designer and the menus a published view writes', () => {
  it('does not make a page menu it holds into user management by publishing a view onto it', async () => {
    const designer = await account('atk41_design', DEPT.ops, null, [await role('攻41-平台设计', VIEW_DESIGN, '全部', null, 3)]);
    expect((await designer.api.get('/api/users')).status).toBe(403);
    const before = await pageMenus(MENU.generation);
    let viewId: number | undefined;
    try {
      const made = await designer.api.post('/api/generation/add', {
        name: '攻41视图',
        disMenu: JSON.stringify({ componentName: 'user', name: '攻41视图', pid: MENU.lowcode }),
        disTemplate: template(),
      });
      viewId = made.body?.id;
      if (viewId) {
        // The view's menu: the designer's own 视图 page, whose buttons end in :add, :edit, :del like a view's.
        await designer.api.post('/api/generation/update', { id: viewId, name: '攻41视图', menuId: MENU.generation });
        await designer.api.post('/api/generation/publish', { id: viewId });
      }
      server.ctx.sessions.invalidate();
      const after = await pageMenus(MENU.generation);
      expect(
        after.map((m) => [m.id, m.permission]),
        'the designer page and its buttons keep their permissions',
      ).toEqual(before.map((m) => [m.id, m.permission]));
      const users = await designer.api.get('/api/users');
      expect(users.status, `the designer lists every account: ${said(users)}`).toBe(403);
    } finally {
      await restoreMenus(MENU.generation, before);
      if (viewId) await db().updateTable('lc_generation').set({ menu_id: null }).where('id', '=', viewId).execute();
    }
  });

  it("does not hand a view's menu holders another module's permissions by renaming the view", async () => {
    // A view of the administrator's, whose page and buttons the carrier's role holds.
    const made = await admin.post('/api/generation/add', {
      name: '攻41共享',
      disMenu: JSON.stringify({ componentName: 'atk41shared', name: '攻41共享', pid: MENU.logistics }),
      disTemplate: template(),
    });
    expect(made.status, said(made)).toBe(200);
    const viewId = made.body.id as number;
    try {
      expect((await admin.post('/api/generation/publish', { id: viewId })).status).toBe(200);
      await sql`insert into sys_roles_menus (role_id, menu_id) select ${ROLE.logistics}, m.id from sys_menu m
        where m.permission like 'atk41shared:%' on conflict do nothing`.execute(db());
      server.ctx.sessions.invalidate();
      const carrier = await server.login('logistics');
      expect((await carrier.get('/api/roles')).status).toBe(403);
      const designer = (await account('atk41_design2', DEPT.ops, null, [await role('攻41-平台设计2', VIEW_DESIGN, '全部', null, 3)])).api;
      await designer.post('/api/generation/update', {
        id: viewId,
        name: '攻41共享',
        disMenu: JSON.stringify({ componentName: 'role', name: '攻41共享', pid: MENU.logistics }),
      });
      await designer.post('/api/generation/publish', { id: viewId });
      server.ctx.sessions.invalidate();
      const held = await sql<{
        permission: string;
      }>`select distinct m.permission from sys_roles_menus rm join sys_menu m on m.id = rm.menu_id
        where rm.role_id = ${ROLE.logistics} and m.permission like 'role:%' order by 1`.execute(db());
      expect(
        held.rows.map((r) => r.permission),
        "the carrier's role holds no role-management permission",
      ).toEqual([]);
      const roles = await carrier.get('/api/roles');
      expect(roles.status, `the carrier reads and edits roles: ${said(roles)}`).toBe(403);
    } finally {
      await admin.post('/api/generation/delete', [viewId]);
      server.ctx.sessions.invalidate();
    }
  });
});

describe('a platform menu editor who designs no screen', () => {
  it('opens no big screen by pointing a page menu it holds at the screen', async () => {
    const editor = (
      await account('atk41_menus', DEPT.ops, null, [
        await role('攻41-平台菜单', [MENU.dashboard, MENU.system, MENU.menu, ...buttons(MENU.menu)], '全部', null, 3),
      ])
    ).api;
    expect((await editor.get('/api/screen/detail', { id: 50 })).status).toBe(403);
    expect((await editor.get('/api/data/detail', { id: 2 })).status).toBe(403);
    const before = await pageMenus(MENU.dashboard);
    try {
      // 企业看板, which it holds, re-pointed at the big screen's address.
      await editor.put('/api/menus', {
        id: MENU.dashboard,
        type: 1,
        title: '企业看板',
        path: '/screen/vBuild/temp/50',
        component: 'dashboard/index',
      });
      server.ctx.sessions.invalidate();
      const screen = await editor.get('/api/screen/detail', { id: 50 });
      expect(screen.status, `the big screen's template: ${said(screen)}`).toBe(403);
      const data = await editor.get('/api/data/detail', { id: 2 });
      expect(data.status, `a data view the big screen charts: ${said(data)}`).toBe(403);
    } finally {
      await restoreMenus(MENU.dashboard, before);
    }
  });
});

describe("records known by their author's account, not its username", () => {
  it("a company's user editor reads no other company's leave message by taking a freed username", async () => {
    const victim = await account('atk41_vic', DEPT.disposers, COMPANY.disposer, [ROLE.disposer]);
    const wrote = await victim.api.post('/api/general/add/18', {
      title: '攻41-处置企业内部留言',
      content: '只给本企业',
      contactName: '甲',
      deptId: DEPT.disposers,
    });
    expect(wrote.status, said(wrote)).toBe(200);
    // The disposer renames its account (an ordinary change of its own; the administrator makes it here).
    expect((await admin.put('/api/users', { id: victim.id, username: 'atk41_vic_now' })).status).toBe(200);
    const hrRole = await role('攻41-企业人事', [MENU.dashboard, MENU.system, MENU.user, ...buttons(MENU.user)], '本企业', COMPANY.producer);
    const hr = await account('atk41_hr', DEPT.producers, COMPANY.producer, [hrRole, ROLE.producer]);
    // The producer's user editor takes the freed name for its own account.
    const renamed = await hr.api.put('/api/users', { id: hr.id, username: 'atk41_vic' });
    expect(renamed.status, said(renamed)).toBe(200);
    const list = await hr.api.get('/api/general/list/18', { size: 100 });
    expect(list.status).toBe(200);
    const leaked = (list.body.content as Row[]).filter((r) => r.id === wrote.body.id);
    expect(
      leaked.map((r) => [r.id, r.title, r.createBy]),
      "the disposer's leave message",
    ).toEqual([]);
    const detail = await hr.api.get('/api/general/detail', { generalId: 18, id: wrote.body.id });
    expect(detail.status, said(detail)).toBe(404);
    const edit = await hr.api.post('/api/general/update/18', { id: wrote.body.id, title: '改写', content: '改写', contactName: '乙' });
    expect(edit.status, said(edit)).toBe(404);
    const kept = await sql<{ title: string }>`select title from lc_view_18 where id = ${wrote.body.id}`.execute(db());
    expect(kept.rows[0]?.title).toBe('攻41-处置企业内部留言');
    // The renamed author still reads its own message: authorship follows the account.
    const own = await victim.api.get('/api/general/detail', { generalId: 18, id: wrote.body.id });
    expect([own.status, own.body.title], said(own)).toEqual([200, '攻41-处置企业内部留言']);
  });

  it('an account of 本人 scope keeps its records when renamed, and a new account under the freed name gets none of them', async () => {
    const selfRole = await role('攻41-本人', [MENU.dashboard, MENU.waste, 1012, 3121, 3122, 3123], '本人', COMPANY.producer);
    const first = await account('atk41_self', DEPT.producers, COMPANY.producer, [selfRole]);
    const warehouse = await sql<{
      id: number;
    }>`select id::int as id from lc_view_14 where create_company = ${COMPANY.producer} order by id limit 1`.execute(db());
    const made = await first.api.post('/api/general/add/12', {
      stockNo: `RK2041${String(Date.now()).slice(-8)}`,
      wasteCategory: 'HW08',
      wasteCode: '900-249-08',
      wasteName: '攻41-废矿物油',
      quantity: '1.000',
      packageType: '1',
      inTime: '2031-01-02 08:00:00',
      handler: '攻41',
      warehouseId: warehouse.rows[0]?.id,
      status: '0',
    });
    expect(made.status, said(made)).toBe(200);
    expect((await admin.put('/api/users', { id: first.id, username: 'atk41_self_now' })).status).toBe(200);
    const heir = await account('atk41_self', DEPT.producers, COMPANY.producer, [selfRole]);
    const heirs = await heir.api.get('/api/general/list/12', { size: 100 });
    expect(heirs.status, said(heirs)).toBe(200);
    expect((heirs.body.content as Row[]).map((r) => r.id)).not.toContain(made.body.id);
    expect((await heir.api.get('/api/general/detail', { generalId: 12, id: made.body.id })).status).toBe(404);
    await heir.api.post('/api/general/delete/12', [made.body.id]);
    const still = await sql<{ n: number }>`select count(*)::int as n from lc_view_12 where id = ${made.body.id}`.execute(db());
    expect(still.rows[0]?.n, 'the first account’s record, deleted by the heir of its name').toBe(1);
    const mine = await first.api.get('/api/general/list/12', { size: 100 });
    expect((mine.body.content as Row[]).map((r) => r.id)).toContain(made.body.id);
    const row = await sql<{ create_user: string }>`select create_user from lc_view_12 where id = ${made.body.id}`.execute(db());
    expect(Number(row.rows[0]?.create_user)).toBe(first.id);
  });

  it("a logistics order's carrier is the account that wrote it, not the account holding its username now", async () => {
    const driver = await account('atk41_carrier', DEPT.logistics, COMPANY.logistics, [ROLE.logistics]);
    const order = await sql<{ id: number; create_by: string | null; create_user: string | null }>`
      select id::int as id, create_by, create_user from lc_view_20 where create_company = ${COMPANY.logistics} order by id limit 1`.execute(
      db(),
    );
    const seeded = order.rows[0];
    if (!seeded) throw new Error('no seeded logistics order');
    try {
      await sql`update lc_view_20 set create_by = 'atk41_carrier', create_user = ${driver.id} where id = ${seeded.id}`.execute(db());
      expect((await admin.put('/api/users', { id: driver.id, username: 'atk41_carrier_old' })).status).toBe(200);
      const heir = await account('atk41_carrier', DEPT.producers, COMPANY.producer, [ROLE.producer]);
      const phones = await db().selectFrom('sys_user').select(['id', 'phone']).where('id', 'in', [driver.id, heir.id]).execute();
      const phoneOf = (id: number) => phones.find((p) => p.id === id)?.phone;
      const linkman = await admin.get('/api/logisticsOrder/getLogisticsLinkman', { id: seeded.id });
      expect(linkman.status, said(linkman)).toBe(200);
      expect([linkman.body.carrier.companyId, linkman.body.carrier.userPhone], 'the carrier named').toEqual([
        COMPANY.logistics,
        phoneOf(driver.id),
      ]);
    } finally {
      await sql`update lc_view_20 set create_by = ${seeded.create_by}, create_user = ${seeded.create_user} where id = ${seeded.id}`.execute(
        db(),
      );
    }
  });

  it("a quote is told to the company its inquiry was written in, not to the company of whoever holds the asker's username now", async () => {
    const asker = await account('atk41_asker', DEPT.producers, COMPANY.producer, [ROLE.producer]);
    const seeded =
      await sql<Row>`select id::int as id, "inquiryNo", "inquiryStatus", "quotedPrice", "quoteTime", create_by, create_user, create_company
      from lc_view_15 where "companyId" = ${COMPANY.disposer} and "wasteCategory" is not null order by id limit 1`.execute(db());
    const inquiry = seeded.rows[0];
    if (!inquiry) throw new Error('no seeded inquiry to the disposer');
    const no = String(inquiry.inquiryNo);
    try {
      await sql`update lc_view_15 set "inquiryStatus" = '0', create_by = 'atk41_asker', create_user = ${asker.id}, create_company = ${COMPANY.producer}
        where id = ${inquiry.id}`.execute(db());
      expect((await admin.put('/api/users', { id: asker.id, username: 'atk41_asker_old' })).status).toBe(200);
      const heir = await account('atk41_asker', DEPT.collectors, COMPANY.collector, [ROLE.collector]);
      const disposer = await server.login('disposer');
      const quoted = await disposer.post('/api/disposalQuotePirce/quotedPrice', { id: inquiry.id, quotedPrice: 880 });
      expect(quoted.status, said(quoted)).toBe(200);
      const told = async (userId: number) =>
        (await db().selectFrom('sys_message').select('title').where('user_id', '=', userId).execute()).filter((m) => m.title.includes(no))
          .length;
      expect(await told(heir.id), 'the heir of the name, in another company').toBe(0);
      expect(await told(asker.id), 'the asker').toBe(1);
    } finally {
      await sql`update lc_view_15 set "inquiryStatus" = ${inquiry.inquiryStatus}, "quotedPrice" = ${inquiry.quotedPrice}, "quoteTime" = ${inquiry.quoteTime},
        create_by = ${inquiry.create_by}, create_user = ${inquiry.create_user}, create_company = ${inquiry.create_company} where id = ${inquiry.id}`.execute(
        db(),
      );
    }
  });
});

describe('a designer of views and data views, and the leave messages', () => {
  it("reads no leave message in a data view by renaming 留言管理's componentName", async () => {
    const designer = (
      await account('atk41_dv', DEPT.ops, null, [await role('攻41-平台设计3', [...VIEW_DESIGN, ...DATA_VIEW_DESIGN], '全部', null, 3)])
    ).api;
    const first = await designer.post('/api/data/run', { sql: 'select * from lc_view_18' });
    expect([first.status, first.body.code], said(first)).toEqual([400, 'SQL_TABLE']);
    const original = await db().selectFrom('lc_generation').select(['name', 'dis_menu']).where('id', '=', 18).executeTakeFirstOrThrow();
    try {
      await designer.post('/api/generation/update', {
        id: 18,
        name: original.name,
        disMenu: JSON.stringify({ componentName: 'leaveMessageCopy', name: original.name }),
      });
      for (const text of ['select * from lc_view_18', 'select title, content, "contactPhone", create_company from public.lc_view_18']) {
        const r = await designer.post('/api/data/run', { sql: text });
        expect(r.status, `${text}: ${said(r)}`).toBe(400);
      }
    } finally {
      await admin.post('/api/generation/update', { id: 18, name: original.name, disMenu: original.dis_menu });
    }
  });
});

describe('system messages sent by a company account', () => {
  it('a company account granted sysMessage:add writes no system message to other companies', async () => {
    const menu = await admin.post('/api/menus', { pid: MENU.center, type: 2, title: '系统消息发送', permission: 'sysMessage:add' });
    expect(menu.status, said(menu)).toBe(201);
    const sender = (
      await account('atk41_msg', DEPT.producers, COMPANY.producer, [
        await role('攻41-企业消息', [MENU.dashboard, MENU.center, menu.body.id], '本企业', COMPANY.producer),
      ])
    ).api;
    const title = '攻41-平台通知：请重新登录';
    const all = await sender.post('/api/sysMessage', { title, content: '<a href="http://evil.example/login">点此重新登录</a>' });
    expect([all.status, all.body.code], said(all)).toEqual([403, 'SCOPE_ALL_ONLY']);
    const named = await sender.post('/api/sysMessage', { title, content: '请重新登录', usernames: ['disposer', 'atk41_nobody'] });
    expect([named.status, named.body.code], `usernames probed: ${said(named)}`).toEqual([403, 'SCOPE_ALL_ONLY']);
    const received = await db().selectFrom('sys_message').select('id').where('title', '=', title).execute();
    expect(received.length, 'messages delivered').toBe(0);
  });
});

describe('messages by id', () => {
  it("no account reads, marks or deletes another account's system message or leave message", async () => {
    const title = '攻41-仅处置企业';
    expect((await admin.post('/api/sysMessage', { title, content: '内容', usernames: ['disposer'] })).status).toBe(200);
    const msg = await db()
      .selectFrom('sys_message')
      .select(['id', 'have_read'])
      .where('title', '=', title)
      .where('user_id', '=', USER.disposer)
      .executeTakeFirstOrThrow();
    const producer = await server.login('producer');
    const collector = await server.login('collector');
    const left = await producer.post('/api/leaveMessage', { content: '攻41-给处置企业的留言', reception: 'disposer' });
    expect(left.status, said(left)).toBe(200);
    const leave = await db()
      .selectFrom('leave_message')
      .select(['id', 'have_read'])
      .where('content', '=', '攻41-给处置企业的留言')
      .executeTakeFirstOrThrow();
    for (const id of [msg.id, ` ${msg.id}`, `${msg.id}.0`, `0${msg.id}`]) {
      const r = await collector.get('/api/sysMessage/readOne', { id });
      expect(r.status, `readOne ${id}: ${said(r)}`).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    for (const q of [{ id: msg.id }, { ids: `${msg.id}` }, { ids: `1,${msg.id}` }, { id: `${msg.id},${msg.id}` }]) {
      const r = await collector.get('/api/sysMessage/deleteMsg', q);
      expect(r.status, `deleteMsg ${JSON.stringify(q)}: ${said(r)}`).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    const lr = await collector.get('/api/leaveMessage/readOne', { id: leave.id });
    expect(lr.status, said(lr)).toBe(404);
    // The sender does not read its own message as the recipient would.
    expect((await producer.get('/api/leaveMessage/readOne', { id: leave.id })).status).toBe(404);
    const still = await db().selectFrom('sys_message').select(['id', 'have_read']).where('id', '=', msg.id).executeTakeFirst();
    expect(still).toEqual({ id: msg.id, have_read: false });
    const leaveNow = await db().selectFrom('leave_message').select(['id', 'have_read']).where('id', '=', leave.id).executeTakeFirst();
    expect(leaveNow).toEqual({ id: leave.id, have_read: false });
  });
});

describe("a platform data-view designer and the guard, as this round's spellings have it", () => {
  it('reads no private view table, no account or secret table, calls no setting or file function and writes nothing', async () => {
    const designer = (await account('atk41_sqldesign', DEPT.ops, null, [await role('攻41-平台数据', DATA_VIEW_DESIGN, '全部', null, 3)]))
      .api;
    const probes = [
      // The private leave-message table, however it is named or reached.
      'select * from "lc_view_18"',
      'select * from LC_VIEW_18',
      'select * from public."lc_view_18"',
      'select * from U&"lc\\005fview\\005f18"',
      'with lc_view_12 as (select * from lc_view_18) select * from lc_view_12',
      'select * from lc_view_12 s where exists (select 1 from lc_view_18 m where m.id = s.id)',
      'select * from company c, lateral (select title from lc_view_18 where id = c.id) l',
      'select (select count(*) from lc_view_18) as n',
      'select * from lc_view_12 union all select * from lc_view_18',
      'select row_to_json(m) as x from lc_view_18 m',
      // Accounts, sessions and settings through types, casts and functions in FROM.
      `select * from json_populate_record(null::sys_user, '{}')`,
      `select * from jsonb_populate_recordset(null::public.sys_setting, '[]')`,
      `select (null::sys_session) is null as x`,
      `select 'sys_user'::regclass::oid as x`,
      `select * from company c where c.name = any (array(select password from sys_user))`,
      `select * from (table sys_setting) s`,
      `select * from rows from (pg_catalog.current_setting('wastegen.audit')) as x(v)`,
      `select * from company, lateral pg_catalog.set_config('wastegen.audit', '{"u":1,"n":"admin"}', false) as x`,
      `select pg_catalog.set_config('wastegen.audit', '{"u":1,"n":"admin","c":null}', true) as x`,
      `select "set_config"('wastegen.audit', '', false) as x`,
      `select U&"set\\005fconfig"('wastegen.audit', '', false) as x`,
      `select set_config(n, v, false) as x from (values ('wastegen.audit', '{}')) t(n, v)`,
      `select current_setting('wastegen.audit', true) as x`,
      `select pg_read_file('/etc/passwd') as x`,
      `select * from dblink('dbname=postgres', 'delete from sys_log') as t(a int)`,
      // Writes, however wrapped.
      'with d as (delete from company_linkman returning id) select * from d',
      'select * from (delete from bulletin returning id) d',
      'with u as (update dash_target set value = 0 returning 1) select 1 as x',
      `select * from lc_view_12 for update`,
      `select nextval('sys_log_id_seq') as x`,
      `select lo_unlink(1) as x`,
    ];
    expect(await dataViewsRun(designer, probes)).toEqual([]);
    // Saved, the same texts are refused too.
    for (const text of probes.slice(0, 3)) {
      const r = await designer.post('/api/data/add', { name: '攻41', sql: text });
      expect(r.status, `${text}: ${said(r)}`).toBe(400);
    }
  }, 60_000);
});

describe("a platform view designer's changes to other companies' records", () => {
  it("records each record a retype changes and each record a deleted view takes, as the designer's", async () => {
    const componentName = 'atk41audit';
    const made = await admin.post('/api/generation/add', {
      name: '攻41审计',
      disMenu: JSON.stringify({ componentName, name: '攻41审计', pid: MENU.waste }),
    });
    const id = made.body.id as number;
    const fields = (amount: string, note: Record<string, unknown>) => [
      field('title', '名称', 'varchar', { required: true }),
      field('amount', '金额', amount, amount === 'decimal' ? { decimals: 2 } : {}),
      field('note', '备注', 'varchar', note),
    ];
    const tpl = (amount: string, note: Record<string, unknown>) =>
      JSON.stringify({
        basicOption: { sortName: 'id', sortType: 'desc' },
        tableOption: fields(amount, note),
        formOption: fields(amount, note),
      });
    expect((await admin.post('/api/generation/design', { id, disTemplate: tpl('decimal', { textarea: true }) })).status).toBe(200);
    expect((await admin.post('/api/generation/publish', { id })).status).toBe(200);
    await sql`insert into sys_roles_menus (role_id, menu_id) select r, m.id from sys_menu m, unnest(${[ROLE.producer, ROLE.disposer]}::int[]) r
      where m.permission like ${`${componentName}:%`} on conflict do nothing`.execute(db());
    server.ctx.sessions.invalidate();
    const [producer, disposer] = [await server.login('producer'), await server.login('disposer')];
    const a = await producer.post(`/api/general/add/${id}`, { title: 'a', amount: 1.5, note: 'n'.repeat(300) });
    const b = await disposer.post(`/api/general/add/${id}`, { title: 'b', amount: 2.25, note: 'short' });
    const c = await disposer.post(`/api/general/add/${id}`, { title: 'c', amount: 3, note: 'kept' });
    for (const r of [a, b, c]) expect(r.status, said(r)).toBe(200);
    const designer = await account('atk41_design4', DEPT.ops, null, [await role('攻41-平台设计4', VIEW_DESIGN, '全部', null, 3)]);
    const mark = Number((await sql<{ n: string }>`select coalesce(max(id), 0) as n from sys_log`.execute(db())).rows[0]?.n ?? 0);
    const tbl = `lc_view_${id}`;
    const entries = async () =>
      (
        await sql<Row>`select user_id, username, record_id, action, changes from sys_log
        where id > ${mark} and record_table = ${tbl} order by id`.execute(db())
      ).rows;

    const design = await designer.api.post('/api/generation/design', { id, disTemplate: tpl('long', {}) });
    expect(design.status, said(design)).toBe(200);
    const changed = await entries();
    const fieldsOf = (recordId: number) =>
      changed
        .filter((e) => Number(e.record_id) === recordId)
        .flatMap((e) => Object.keys(e.changes ?? {}))
        .sort();
    expect(fieldsOf(a.body.id), "the producer's record: amount rounded, note cut").toEqual(['amount', 'note']);
    expect(fieldsOf(b.body.id), "the disposer's record: amount rounded").toEqual(['amount']);
    expect(fieldsOf(c.body.id), 'a record the retype does not change').toEqual([]);
    for (const e of changed) expect([e.user_id, e.username, e.action]).toEqual([designer.id, 'atk41_design4', 'update']);

    const removed = await designer.api.post('/api/generation/delete', [id]);
    expect(removed.status, said(removed)).toBe(200);
    const gone = (await entries()).filter((e) => e.action === 'delete');
    expect(gone.map((e) => Number(e.record_id)).sort((x, y) => x - y)).toEqual([a.body.id, b.body.id, c.body.id].sort((x, y) => x - y));
    for (const e of gone) expect([e.user_id, e.username]).toEqual([designer.id, 'atk41_design4']);
    // No record entry of the test lacks its writer.
    const nobody = await sql`select id from sys_log where id > ${mark} and record_table is not null and user_id is null`.execute(db());
    expect(nobody.rows).toEqual([]);
  });
});
