import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPT, MENU, ROLE, USER } from '../../server/seed/accounts.js';
import { COMPANY, screenMenuId, viewMenuId } from '../../server/seed/ids.js';
import { accountMaker } from '../helpers/accounts.js';
import { buttons, PDF, upload } from '../helpers/probes.js';
import { dataViewsRun, said } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { sheetRows, uploadFile, workbook } from '../helpers/sheets.js';
import { field } from '../helpers/wire-field.js';

/**
 * Attack 43: record authorship (create_user / create_by / create_company), the 本人 scope and the leave
 * messages; a platform menu editor who designs no screen and the big screens; private files. Ordinary
 * accounts only (the administrator only makes accounts and roles). Each probe asserts the SAFE behaviour:
 * a failing probe is a hole.
 *
 * Failing when written (2026-12-01): a platform menu editor who designs no screen moved a menu it holds
 * (a button, its own page, a directory, or 企业看板, which every role is given) under a big screen's own
 * page menu. A role's menus count with their ancestors, so the screen's page became granted with it, and
 * the editor (or, for 企业看板, every account) read the screen and every company's figures of its data
 * views.
 */

let server: TestServer;
let admin: ApiClient;
const db = () => server.ctx.db;
type Row = Record<string, any>;

const { account, role } = accountMaker(
  () => server,
  () => admin,
  '1374343',
);

/** A view's page menu and its five action buttons (add, edit, del, look, pre). */
const viewFull = (viewId: number) => [viewMenuId(viewId), ...[1, 2, 3, 4, 5].map((a) => 3000 + viewId * 10 + a)];

/** A stock-in record of the client's own, as its add form would submit it (no id, no system fields). */
async function stockInModel(client: ApiClient): Promise<Row> {
  const own = (await client.get('/api/general/list/12', { size: 1 })).body.content[0];
  const { id: _i, createTime: _c, updateTime: _u, createBy: _b, warehouseIdFmt: _w, stockNo: _s, ...model } = own;
  return model;
}

/** Every spelling of the owner columns a request might carry. */
const FORGED = (victim: { id: number; username: string; companyId: number; deptId: number }) => ({
  create_user: victim.id,
  createUser: victim.id,
  Create_User: victim.id,
  CREATE_USER: victim.id,
  create_by: victim.username,
  createBy: victim.username,
  CreateBy: victim.username,
  create_company: victim.companyId,
  createCompany: victim.companyId,
  create_dept: victim.deptId,
  createDept: victim.deptId,
  creator: victim.username,
});

const ownerOf = async (table: string, id: number) =>
  (
    await sql<Row>`select create_user::int as u, create_by as b, create_company::int as c, create_dept::int as d
      from ${sql.table(table)} where id = ${id}`.execute(db())
  ).rows[0];

/** The body of an edit of a stored menu, as the menu dialog sends it, with `changes` applied. */
function menuEdit(m: Row, changes: Row): Row {
  return {
    id: m.id,
    pid: m.pid,
    type: m.type,
    title: m.title,
    ...(m.type === 1 ? { componentName: m.name, component: m.component } : {}),
    ...(m.type === 2 ? {} : { path: m.path, icon: m.icon }),
    ...(m.permission ? { permission: m.permission } : {}),
    menuSort: m.sort,
    ...changes,
  };
}

/** A platform account of 全部 that edits menus and designs no screen; it cannot read big screen 50 yet. */
async function menuEditor(username: string, roleName: string): Promise<ApiClient> {
  const made = await account(username, DEPT.ops, null, [
    await role(roleName, [MENU.dashboard, MENU.system, MENU.menu, ...buttons(MENU.menu)], '全部', null, 3),
  ]);
  expect((await made.api.get('/api/screen/detail', { id: 50 })).status).toBe(403);
  expect((await made.api.get('/api/data/detail', { id: 2 })).status).toBe(403);
  return made.api;
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('a platform menu editor who designs no screen, and the menus above the menus it holds', () => {
  const restore = async (rows: Row[]) => {
    for (const { id, ...rest } of rows) await db().updateTable('sys_menu').set(rest).where('id', '=', id).execute();
    server.ctx.sessions.invalidate();
  };

  it('opens no big screen by hanging a button it holds under the big screen’s page', async () => {
    const editor = await menuEditor('atk43_menus', '攻43-平台菜单');
    const button = MENU.menu * 10 + 1;
    const before = await db().selectFrom('sys_menu').selectAll().where('id', '=', button).execute();
    const b = before[0]!;
    try {
      const moved = await editor.put('/api/menus', menuEdit(b, { pid: screenMenuId(50) }));
      server.ctx.sessions.invalidate();
      const screen = await editor.get('/api/screen/detail', { id: 50 });
      const data = await editor.get('/api/data/detail', { id: 2 });
      expect(
        [screen.status, data.status],
        `move ${moved.status} ${said(moved)}; screen: ${said(screen).slice(0, 100)}; data: ${said(data).slice(0, 100)}`,
      ).toEqual([403, 403]);
    } finally {
      await restore(before);
    }
  });

  it('opens no big screen by hanging the page it holds (or its directory) under the big screen’s page', async () => {
    const editor = await menuEditor('atk43_menus2', '攻43-平台菜单2');
    const before = await db().selectFrom('sys_menu').selectAll().where('id', 'in', [MENU.menu, MENU.system]).execute();
    const page = before.find((m) => m.id === MENU.menu)!;
    const dir = before.find((m) => m.id === MENU.system)!;
    try {
      const moved = await editor.put('/api/menus', menuEdit(page, { pid: screenMenuId(50) }));
      server.ctx.sessions.invalidate();
      const screen = await editor.get('/api/screen/detail', { id: 50 });
      expect(screen.status, `page moved ${moved.status}; screen: ${said(screen).slice(0, 100)}`).toBe(403);
      await restore(before);
      // The directory above the page, moved instead.
      const dirMoved = await editor.put('/api/menus', menuEdit(dir, { pid: screenMenuId(50) }));
      server.ctx.sessions.invalidate();
      const screen2 = await editor.get('/api/screen/detail', { id: 50 });
      expect(screen2.status, `directory moved ${dirMoved.status}; screen: ${said(screen2).slice(0, 100)}`).toBe(403);
    } finally {
      await restore(before);
    }
  });

  it("opens no big screen to every company's accounts by hanging a page all roles hold under the big screen's page", async () => {
    const editor = await menuEditor('atk43_menus4', '攻43-平台菜单4');
    const producer = await server.login('producer');
    expect((await producer.get('/api/screen/detail', { id: 50 })).status).toBe(403);
    const before = await db().selectFrom('sys_menu').selectAll().where('id', '=', MENU.dashboard).execute();
    const page = before[0]!;
    try {
      const moved = await editor.put('/api/menus', menuEdit(page, { pid: screenMenuId(50) }));
      server.ctx.sessions.invalidate();
      const screen = await producer.get('/api/screen/detail', { id: 50 });
      const data = await producer.get('/api/data/detail', { id: 2 });
      expect([screen.status, data.status], `move ${moved.status}; the producer reads the big screen: ${said(screen).slice(0, 80)}`).toEqual(
        [403, 403],
      );
    } finally {
      for (const { id, ...rest } of before) await db().updateTable('sys_menu').set(rest).where('id', '=', id).execute();
      server.ctx.sessions.invalidate();
    }
  });

  it('opens no big screen by odd path forms of a page of its own', async () => {
    const editor = await menuEditor('atk43_menus3', '攻43-平台菜单3');
    const before = await db().selectFrom('sys_menu').selectAll().where('id', '=', MENU.menu).execute();
    const page = before[0]!;
    const paths = [
      '/screen/vBuild/temp/50',
      'screen/vBuild/temp/50/',
      '/screen/vBuild/temp/50?x=1',
      '/screen/vBuild/temp/50#top',
      '//screen//vBuild//temp//50',
      '/x/../screen/vBuild/temp/50',
      'vBuild/temp/050',
      '/screen/vBuild/temp/%35%30',
      '/screen/vBuild/temp/50/.',
    ];
    const opened: string[] = [];
    try {
      for (const path of paths) {
        const r = await editor.put('/api/menus', menuEdit(page, { path }));
        server.ctx.sessions.invalidate();
        const screen = await editor.get('/api/screen/detail', { id: 50 });
        if (screen.status === 200) opened.push(`${path} (edit ${r.status})`);
        await restore(before);
      }
      expect(opened).toEqual([]);
    } finally {
      await restore(before);
    }
  });
});

describe('record authorship cannot be written by a request', () => {
  it('general add and update, the core stock-in calls and an import keep the writer as the author', async () => {
    const forger = await account('atk43_forge', DEPT.producers, COMPANY.producer, [ROLE.producer]);
    const victim = { id: USER.disposer, username: 'disposer', companyId: COMPANY.disposer, deptId: DEPT.disposers };
    const model = await stockInModel(forger.api);
    const mine = { u: forger.id, b: 'atk43_forge', c: COMPANY.producer, d: DEPT.producers };
    const found: string[] = [];
    const check = async (what: string, id: number | undefined) => {
      if (!id) return;
      const o = await ownerOf('lc_view_12', id);
      if (JSON.stringify(o) !== JSON.stringify(mine)) found.push(`${what}: ${JSON.stringify(o)}`);
    };
    const added = await forger.api.post('/api/general/add/12', { ...model, ...FORGED(victim), wasteName: '攻43伪造作者' });
    expect(added.status, said(added)).toBe(200);
    await check('add', added.body.id);
    const updated = await forger.api.post('/api/general/update/12', { id: added.body.id, ...FORGED(victim) });
    await check(`update ${updated.status}`, added.body.id);
    const put = await forger.api.put('/api/general/update/12', { id: added.body.id, ...FORGED(victim) });
    await check(`update put ${put.status}`, added.body.id);
    const viaAdd = await forger.api.post('/api/general/add/12', { id: added.body.id, ...FORGED(victim) });
    await check(`add with id ${viaAdd.status}`, added.body.id);
    const core = await forger.api.post('/api/companyInventory', { ...model, ...FORGED(victim), wasteName: '攻43伪造作者核心' });
    await check(`core add ${core.status}`, core.body?.id);
    if (core.body?.id) {
      const coreUp = await forger.api.post('/api/companyInventory/update', { ...model, id: core.body.id, ...FORGED(victim) });
      await check(`core update ${coreUp.status}`, core.body.id);
    }
    // An import with the owner columns as headers (by name and by label).
    const tpl = await sheetRows((await forger.api.get('/api/general/12/template')).body as Buffer, 0);
    const header = tpl[0] as string[];
    const exported = await forger.api.get('/api/general/export/12/download', {
      id: added.body.id,
      fields: 'wasteCategory,wasteCode,wasteName,quantity,packageType,warehouseId,inTime,handler',
    });
    const cells = (await sheetRows(exported.body as Buffer))[1] as unknown[];
    const extra = ['create_user', 'createBy', 'create_by', 'createCompany', 'create_company', 'createDept', '创建人', '创建企业'];
    const sheet = await workbook([
      ['废物类别', '废物代码', '废物名称', '数量', '包装方式', '入库仓库', '入库时间', '经办人', ...extra],
      [
        ...cells.slice(0, 2),
        '攻43导入伪造',
        ...cells.slice(3),
        victim.id,
        'disposer',
        'disposer',
        victim.companyId,
        victim.companyId,
        victim.deptId,
        'disposer',
        victim.companyId,
      ],
    ]);
    const imported = await uploadFile(forger.api, 12, 'import.xlsx', sheet);
    const verdicts = imported.status === 200 ? (await sheetRows(imported.body as Buffer)).slice(1).map((r) => String(r.at(-1))) : [];
    const row = await sql<{ id: number }>`select id::int as id from lc_view_12 where "wasteName" = '攻43导入伪造'`.execute(db());
    for (const r of row.rows) await check('import', r.id);
    expect(found, `template ${JSON.stringify(header)}; import ${imported.status} ${JSON.stringify(verdicts)}`).toEqual([]);
    // The victim's 本人 scope gets nothing of it.
    const mineRows = await sql<{
      n: number;
    }>`select count(*)::int as n from lc_view_12 where create_user = ${victim.id} and "wasteName" like '攻43%'`.execute(db());
    expect(mineRows.rows[0]?.n).toBe(0);
  });

  it('a leave message keeps its writer as author whatever the body says', async () => {
    const forger = await account('atk43_lmforge', DEPT.producers, COMPANY.producer, [ROLE.producer]);
    const victim = { id: USER.disposer, username: 'disposer', companyId: COMPANY.disposer, deptId: DEPT.disposers };
    const r = await forger.api.post('/api/general/add/18', {
      title: '攻43伪造留言',
      content: 'x',
      contactName: '攻43',
      deptId: DEPT.producers,
      ...FORGED(victim),
    });
    expect(r.status, said(r)).toBe(200);
    expect(await ownerOf('lc_view_18', r.body.id)).toEqual({ u: forger.id, b: 'atk43_lmforge', c: COMPANY.producer, d: DEPT.producers });
  });
});

describe('the 本人 scope and the leave messages, by every read', () => {
  it("an account of 本人 reads none of its colleague's stock-in records by any call", async () => {
    const selfRole = await role('攻43-本人入库', [MENU.dashboard, MENU.waste, ...viewFull(12)], '本人', COMPANY.producer);
    const self = await account('atk43_self', DEPT.producers, COMPANY.producer, [selfRole]);
    const mate = await account('atk43_mate', DEPT.producers, COMPANY.producer, [ROLE.producer]);
    const model = await stockInModel(mate.api);
    const marker = '攻43同事入库';
    const theirs = await mate.api.post('/api/general/add/12', { ...model, wasteName: marker });
    expect(theirs.status, said(theirs)).toBe(200);
    const id = theirs.body.id as number;
    const leaks: string[] = [];
    const note = (what: string, r: { status: number; body: unknown }) => {
      const text = Buffer.isBuffer(r.body) ? r.body.toString('latin1') : JSON.stringify(r.body);
      if (r.status < 400 && (text.includes(marker) || text.includes(`"id":${id},`) || text.includes(`"value":${id}`)))
        leaks.push(`${what}: ${text.slice(0, 160)}`);
    };
    note('list', await self.api.get('/api/general/list/12', { size: 500 }));
    note('list by id', await self.api.get('/api/general/list/12', { id }));
    note('list by name', await self.api.get('/api/general/list/12', { wasteName: marker }));
    note('detail', await self.api.get('/api/general/detail', { generalId: 12, id }));
    note('formData', await self.api.get('/api/general/formData', { generalId: 12, id }));
    note('queryLink', await self.api.get('/api/general/allList/12/queryLink', { queryParam: '' }));
    note('queryLink json', await self.api.get('/api/general/allList/12/queryLink', { queryParam: JSON.stringify({ id }) }));
    const exp = await self.api.get('/api/general/export/12/download', { id });
    const expRows = exp.status === 200 ? await sheetRows(exp.body as Buffer) : [];
    if (JSON.stringify(expRows).includes(marker)) leaks.push('export');
    const exp2 = await self.api.get('/api/general/export/12', { wasteName: marker });
    const exp2Rows = exp2.status === 200 && Buffer.isBuffer(exp2.body) ? await sheetRows(exp2.body as Buffer) : [];
    if (JSON.stringify(exp2Rows).includes(marker)) leaks.push('export (2)');
    // Writes answer as missing.
    const up = await self.api.post('/api/general/update/12', { id, remark: '攻43' });
    const del = await self.api.post('/api/general/delete/12', [id]);
    expect(leaks).toEqual([]);
    expect([up.status, del.status], `${said(up)} ${said(del)}`).toEqual([404, 404]);
    // Its own record, it reads.
    const own = await self.api.post('/api/general/add/12', { ...model, wasteName: '攻43本人自己的' });
    expect(own.status, said(own)).toBe(200);
    expect((await self.api.get('/api/general/detail', { generalId: 12, id: own.body.id })).status).toBe(200);
    // Renamed, it keeps its records; the account that takes its old name reads none of them.
    expect((await admin.put('/api/users', { id: self.id, username: 'atk43_self_now' })).status).toBe(200);
    const heir = await account('atk43_self', DEPT.producers, COMPANY.producer, [selfRole]);
    const heirList = await heir.api.get('/api/general/list/12', { size: 500 });
    expect(JSON.stringify(heirList.body)).not.toContain('攻43本人自己的');
    expect((await heir.api.get('/api/general/formData', { generalId: 12, id: own.body.id })).status).toBe(404);
  });

  it("a leave message addressed to another company's department is read by no colleague of its writer", async () => {
    const writer = await account('atk43_lmw', DEPT.producers, COMPANY.producer, [ROLE.producer]);
    const marker = '攻43给处置企业的留言';
    const r = await writer.api.post('/api/general/add/18', { title: marker, content: marker, contactName: '攻43', deptId: DEPT.disposers });
    expect(r.status, said(r)).toBe(200);
    const id = r.body.id as number;
    const colleague = await server.login('producer');
    const selfRole = await role('攻43-本人留言', [MENU.dashboard, MENU.messages, ...viewFull(18)], '本人', COMPANY.producer);
    const selfOnly = await account('atk43_lmself', DEPT.producers, COMPANY.producer, [selfRole]);
    const leaks: string[] = [];
    for (const [who, c] of [
      ['producer', colleague],
      ['self', selfOnly.api],
    ] as const) {
      for (const [what, res] of [
        ['list', await c.get('/api/general/list/18', { size: 500 })],
        ['list title', await c.get('/api/general/list/18', { title: marker })],
        ['detail', await c.get('/api/general/detail', { generalId: 18, id })],
        ['formData', await c.get('/api/general/formData', { generalId: 18, id })],
        ['queryLink', await c.get('/api/general/allList/18/queryLink', { queryParam: '' })],
        ['export', await c.get('/api/general/export/18/download', { id })],
      ] as const) {
        const text = Buffer.isBuffer(res.body) ? JSON.stringify(await sheetRows(res.body).catch(() => [])) : JSON.stringify(res.body);
        if (res.status < 400 && (text.includes(marker) || text.includes(`"value":${id}`))) leaks.push(`${who} ${what}`);
      }
    }
    expect(leaks).toEqual([]);
    // The recipient's department reads it.
    const disposer = await server.login('disposer');
    expect((await disposer.get('/api/general/formData', { generalId: 18, id })).status).toBe(200);
  });

  it('a platform data-view builder reads no leave message through a data view', async () => {
    const editable = await db()
      .selectFrom('sys_menu')
      .select('id')
      .where('permission', 'in', ['dataView:add', 'dataView:edit', 'dataView:list'])
      .execute();
    const builder = await account('atk43_dv', DEPT.ops, null, [
      await role('攻43-数据视图', [MENU.dashboard, MENU.lowcode, ...editable.map((m) => m.id)], '全部', null, 3),
    ]);
    const ran = await dataViewsRun(builder.api, [
      'select * from lc_view_18',
      'select content from public.lc_view_18',
      'select * from "lc_view_18"',
      'select * from U&"lc\\005fview_18"',
      'with x as (select * from lc_view_18) select count(*) from x',
      'select (select max(content) from lc_view_18) as c',
      "select * from lc_view_12 where exists (select 1 from lc_view_18 where content like 'a%')",
      'select * from lc_view_12 t, lateral (select title from lc_view_18 limit 1) m',
    ]);
    expect(ran).toEqual([]);
  });
});

describe('private files', () => {
  it("an account writes no other company's private file into a record of its own, in any form", async () => {
    const owner = await account('atk43_fup', DEPT.producers, COMPANY.producer, [ROLE.producer]);
    const up = await upload(owner.api, '华瑞-保密合同.pdf', PDF);
    expect(up.status, said(up)).toBe(200);
    const source = up.body.filePath as string;
    const attacker = await account('atk43_fcol', DEPT.collectors, COMPANY.collector, [ROLE.collector]);
    expect((await attacker.api.get('/api/file/preview', { source })).status).toBe(404);
    const model = await stockInModel(attacker.api);
    const forms = [
      source,
      JSON.stringify([{ fileName: 'a.pdf', filePath: source }]),
      JSON.stringify([{ name: 'a.pdf', url: `/api/file/preview?source=${source}` }]),
      `x${source}x`,
      JSON.stringify([{ filePath: source.replace('/', '\\/') }]),
    ];
    const accepted: string[] = [];
    for (const form of forms) {
      for (const field of ['attachments', 'photos']) {
        const r = await attacker.api.post('/api/general/add/12', { ...model, [field]: form, wasteName: '攻43盗文件' });
        // A form that names no stored path as such (an escaped slash) may be stored: it must open nothing.
        const preview = await attacker.api.get('/api/file/preview', { source });
        if (preview.status === 200) accepted.push(`READ after ${field}=${form} (write ${r.status})`);
        if (r.status === 200) {
          // …and cannot be turned into the plain path by an edit of the same record.
          const plain = await attacker.api.post('/api/general/update/12', {
            id: r.body.id,
            [field]: JSON.stringify([{ filePath: source }]),
          });
          if (plain.status === 200) accepted.push(`edit to plain after ${field}=${form}`);
          if ((await attacker.api.get('/api/file/preview', { source })).status === 200)
            accepted.push(`READ after edit of ${field}=${form}`);
        }
      }
    }
    // An import with the path in the file columns, by name and by label.
    const sheet = await workbook([
      ['wasteName', 'attachments', 'photos', '附件', '照片'],
      ['攻43导入盗文件', source, source, source, source],
    ]);
    await uploadFile(attacker.api, 12, 'import.xlsx', sheet);
    const download = await attacker.api.get('/api/file/download', { source });
    expect([accepted, download.status]).toEqual([[], 404]);
  });
});

describe('a platform designer and the owner columns', () => {
  it('no field of a design names an owner column, and the owner columns keep their type', async () => {
    const perms = await db().selectFrom('sys_menu').select('id').where('permission', 'like', 'generation:%').execute();
    const designer = await account('atk43_design', DEPT.ops, null, [
      await role('攻43-视图设计', [MENU.dashboard, MENU.lowcode, MENU.generation, ...perms.map((m) => m.id)], '全部', null, 3),
    ]);
    const vehicle = await db().selectFrom('lc_generation').select(['dis_template']).where('id', '=', 17).executeTakeFirstOrThrow();
    const base = JSON.parse(vehicle.dis_template as string);
    const made = await designer.api.post('/api/generation/add', {
      name: '攻43视图',
      disMenu: JSON.stringify({ componentName: 'atk43view', name: '攻43视图' }),
      disTemplate: JSON.stringify(base),
    });
    expect(made.status, said(made)).toBe(200);
    const id = made.body.id as number;
    const accepted: string[] = [];
    for (const [name, dataType] of [
      ['create_user', 'varchar'],
      ['Create_User', 'varchar'],
      ['CREATE_USER', 'long'],
      ['create_by', 'long'],
      ['create_company', 'varchar'],
      ['create_dept', 'varchar'],
      ['Create_Company', 'varchar'],
      ['update_time', 'varchar'],
      ['create_time', 'varchar'],
    ] as const) {
      const field = { chName: '作者', configure: { show: 1, sort: 99 }, dataType, linked: false, name };
      const tpl = { ...base, formOption: [...base.formOption, field], tableOption: [...base.tableOption, field] };
      const r = await designer.api.post('/api/generation/design', { id, disTemplate: JSON.stringify(tpl) });
      if (r.status === 200) accepted.push(`${name}:${dataType}`);
    }
    const types = await sql<{ name: string; type: string }>`select attname as name, format_type(atttypid, atttypmod) as type
      from pg_attribute where attrelid = to_regclass(${`lc_view_${id}`}) and attnum > 0 and not attisdropped
      and attname in ('create_user', 'create_by', 'create_company', 'create_dept')`.execute(db());
    expect(accepted).toEqual([]);
    expect(Object.fromEntries(types.rows.map((r) => [r.name, r.type]))).toEqual({
      create_by: 'character varying(100)',
      create_user: 'bigint',
      create_company: 'bigint',
      create_dept: 'bigint',
    });
  });
});

describe('a platform view designer, and the componentNames that decide who reads records', () => {
  const template = () =>
    JSON.stringify({
      basicOption: { sortName: 'id', sortType: 'desc' },
      tableOption: [
        field('title', '标题', 'varchar', { search: true }),
        field('deptId', '部门', 'long'),
        field('companyId', '企业', 'long'),
      ],
      formOption: [
        field('title', '标题', 'varchar', { required: true }),
        field('deptId', '部门', 'long'),
        field('companyId', '企业', 'long'),
      ],
    });
  const menuOf = (componentName: string) => JSON.stringify({ componentName, name: '攻43记录', pid: MENU.lowcode });

  it("opens no company's records to the department or company its fields name by renaming a view that has records", async () => {
    const designer = await account('atk43_namer', DEPT.ops, null, [
      await role('攻43-平台设计5', [MENU.lowcode, MENU.generation, ...buttons(MENU.generation, 5)], '全部', null, 3),
    ]);
    const made = await designer.api.post('/api/generation/add', {
      name: '攻43记录',
      disMenu: menuOf('atk43Notes'),
      disTemplate: template(),
    });
    expect(made.status, said(made)).toBe(200);
    const viewId = made.body.id as number;
    const fresh = await designer.api.post('/api/generation/add', {
      name: '攻43空视图',
      disMenu: menuOf('atk43Empty'),
      disTemplate: template(),
    });
    expect(fresh.status, said(fresh)).toBe(200);
    try {
      // A producer's record naming the disposer's department and company.
      await sql`insert into ${sql.table(`lc_view_${viewId}`)} (title, "deptId", "companyId", create_company, create_dept)
        values ('攻43-产废企业内部记录', ${DEPT.disposers}, ${COMPANY.disposer}, ${COMPANY.producer}, ${DEPT.producers})`.execute(db());
      for (const name of ['leaveMessage', 'disposalInquiry']) {
        for (const [call, body] of [
          ['/api/generation/update', { id: viewId, name: '攻43记录', disMenu: menuOf(name) }],
          ['/api/generation/design', { id: viewId, disTemplate: template(), disMenu: menuOf(name) }],
        ] as const) {
          const renamed = await designer.api.post(call, body);
          expect([renamed.status, renamed.body.code], `${call} to ${name}: ${said(renamed)}`).toEqual([400, 'VIEW_ACCESS_NAME_TAKEN']);
        }
      }
      const kept = await db().selectFrom('lc_generation').select('dis_menu').where('id', '=', viewId).executeTakeFirstOrThrow();
      expect(JSON.parse(kept.dis_menu ?? '{}').componentName).toBe('atk43Notes');
      // A view without records may take such a name: nothing written under other rules is opened.
      const empty = await designer.api.post('/api/generation/update', {
        id: fresh.body.id,
        name: '攻43空视图',
        disMenu: menuOf('atk43Contract'),
      });
      expect(empty.status, said(empty)).toBe(200);
      // Holding the fields that name's access reads (attack-46 sends the views that lack them)…
      const inquiry = await db().selectFrom('lc_generation').select('dis_template').where('id', '=', 15).executeTakeFirstOrThrow();
      const named = await designer.api.post('/api/generation/update', {
        id: fresh.body.id,
        name: '攻43空视图',
        disMenu: menuOf('disposalInquiry'),
        disTemplate: inquiry.dis_template,
      });
      // …but not while another view holds it: one view only decides who reads such records.
      expect([named.status, named.body.code], said(named)).toEqual([400, 'VIEW_ACCESS_NAME_SHARED']);
    } finally {
      await admin.post('/api/generation/delete', [viewId, fresh.body.id]);
    }
  });
});
