import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPT, MENU, ROLE } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { accountMaker } from '../helpers/accounts.js';
import { buttons } from '../helpers/probes.js';
import { said } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

/** Attack 49: the carrier's reach over orders, waybills and 留言, odd id spellings, and a few account doors. */

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;
let disposer: ApiClient;
let carrier: ApiClient;
const db = () => server.ctx.db;
type Row = Record<string, unknown>;

const { account, role } = accountMaker(
  () => server,
  () => admin,
  '1374949',
);

beforeAll(async () => {
  server = await startTestServer();
  [admin, producer, disposer, carrier] = await Promise.all([
    server.login('admin'),
    server.login('producer'),
    server.login('disposer'),
    server.login('logistics'),
  ]);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const rows = async (q: RawBuilder<Row>) => (await q.execute(db())).rows;
const cell = async (viewId: number, id: number, name: string) =>
  (await rows(sql<Row>`select ${sql.ref(name)} as v from ${sql.table(`lc_view_${viewId}`)} where id = ${id}`))[0]?.v;
const notMineOrder = async () =>
  Number(
    (await rows(sql<Row>`select id from lc_view_19 where "carrierId" is distinct from ${COMPANY.logistics} order by id limit 1`))[0]?.id,
  );
const mineOrder = async () =>
  Number((await rows(sql<Row>`select id from lc_view_19 where "carrierId" = ${COMPANY.logistics} order by id limit 1`))[0]?.id);
const myWaybill = async () =>
  Number((await rows(sql<Row>`select id from lc_view_20 where create_company = ${COMPANY.logistics} order by id limit 1`))[0]?.id);

/** A valid waybill body copied from the carrier's own, for another order. */
const billBody = async (disposalOrderId: unknown, n: number): Promise<Row> => {
  const f = await carrier.get('/api/general/formData', { generalId: 20, id: await myWaybill() });
  const { id: _id, createTime: _c, ...rest } = f.body.data as Row;
  return { ...rest, disposalOrderId, waybillNo: `WL${String(494900000000 + n)}` };
};
let billSeq = 0;

const spellings = (id: number): unknown[] => [String(id), `0${id}`, ` ${id}`, [id], `${id}.0`, `+${id}`, `${id}e0`];

describe('the carrier reads only disposal orders naming it', () => {
  it('lists, exports-free reads and odd id spellings of 19 show no order whose carrier is another', async () => {
    const other = await notMineOrder();
    expect(other).toBeGreaterThan(0);
    const bad: string[] = [];
    const list = await carrier.get('/api/general/list/19', { size: 1000 });
    for (const r of (list.body.content ?? []) as Row[]) if (Number(r.carrierId) !== COMPANY.logistics) bad.push(`list #${r.id}`);
    for (const carrierId of [String(COMPANY.producer), `${COMPANY.disposer}`]) {
      const f = await carrier.get('/api/general/list/19', { size: 1000, carrierId });
      for (const r of (f.body.content ?? []) as Row[]) if (Number(r.carrierId) !== COMPANY.logistics) bad.push(`filter #${r.id}`);
    }
    for (const id of [other, ...spellings(other)]) {
      const f = await carrier.get('/api/general/formData', { generalId: 19, id: Array.isArray(id) ? String(id[0]) : String(id) });
      if (f.status === 200 && f.body?.data) bad.push(`formData ${JSON.stringify(id)}`);
      const d = await carrier.get('/api/general/detail', { generalId: 19, id: String(id) });
      if (d.status === 200 && (d.body?.data ?? d.body)?.id)
        bad.push(`detail ${JSON.stringify(id)}: ${JSON.stringify(d.body).slice(0, 80)}`);
    }
    const link = await carrier.get('/api/general/allList/19/queryLink', { queryParam: JSON.stringify({ carrierId: COMPANY.producer }) });
    if (link.status === 200 && (link.body as unknown[]).length) {
      const ids = (link.body as { value: number }[]).map((o) => o.value);
      const foreign = await rows(
        sql<Row>`select id from lc_view_19 where id in (${sql.join(ids.length ? ids : [-1])}) and "carrierId" is distinct from ${COMPANY.logistics}`,
      );
      if (foreign.length) bad.push(`queryLink ${foreign.map((r) => r.id)}`);
    }
    expect(bad).toEqual([]);
  });
});

describe('the carrier changes no disposal order', () => {
  it('through update, add-with-id, PUT, groovy, delete, with any id spelling', async () => {
    const mine = await mineOrder();
    expect(mine).toBeGreaterThan(0);
    const before = await cell(19, mine, 'producerId');
    const bad: string[] = [];
    for (const id of [mine, ...spellings(mine)]) {
      for (const [m, url] of [
        ['post', '/api/general/update/19'],
        ['post', '/api/general/add/19'],
        ['put', '/api/general/update/19'],
        ['put', '/api/general/add/19'],
      ] as const) {
        const send = carrier[m].bind(carrier) as (u: string, b: unknown) => Promise<{ status: number; body: Row }>;
        const r = await send(url, {
          id,
          producerId: COMPANY.producer2,
          carrierId: COMPANY.logistics,
          price: 1,
        });
        if (r.status === 200) bad.push(`${m} ${url} ${JSON.stringify(id)}: ${said(r as never)}`);
      }
    }
    const del = await carrier.post('/api/general/delete/19', { ids: [mine] });
    if (del.status === 200) bad.push('delete');
    expect(await cell(19, mine, 'producerId')).toBe(before);
    expect(bad).toEqual([]);
  });
});

describe("the carrier's waybills stay on orders naming it", () => {
  it('adds no waybill on an order naming another carrier (any id spelling)', async () => {
    const other = await notMineOrder();
    const bad: string[] = [];
    for (const disposalOrderId of [other, ...spellings(other)]) {
      const r = await carrier.post('/api/general/add/20', await billBody(disposalOrderId, ++billSeq));
      if (r.status === 200)
        bad.push(`${JSON.stringify(disposalOrderId)} -> #${r.body.id} order ${await cell(20, r.body.id, 'disposalOrderId')}`);
    }
    expect(bad).toEqual([]);
  });

  it('moves none of its waybills onto an order naming another carrier, alone or in a race', async () => {
    const other = await notMineOrder();
    const w = await myWaybill();
    expect(w).toBeGreaterThan(0);
    const form = await carrier.get('/api/general/formData', { generalId: 20, id: w });
    expect(form.status, said(form)).toBe(200);
    const body = form.body.data as Row;
    const bad: string[] = [];
    for (const id of [w, ...spellings(w)]) {
      const r = await carrier.post('/api/general/update/20', { ...body, id, disposalOrderId: other });
      if (Number(await cell(20, w, 'disposalOrderId')) === other) bad.push(`update ${JSON.stringify(id)} ${r.status}`);
    }
    const all = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        carrier.post('/api/general/update/20', { ...body, id: w, disposalOrderId: i % 2 ? other : body.disposalOrderId }),
      ),
    );
    if (Number(await cell(20, w, 'disposalOrderId')) === other) bad.push(`race ${all.map((r) => r.status)}`);
    expect(bad).toEqual([]);
  });

  it("edits or deletes no waybill another company wrote on the carrier's order beyond its own part", async () => {
    const found = await rows(
      sql<Row>`select l.id, l."disposalOrderId" as o from lc_view_20 l join lc_view_19 d on d.id = l."disposalOrderId"
        where d."carrierId" = ${COMPANY.logistics} and l.create_company <> ${COMPANY.logistics} order by l.id limit 1`,
    );
    let id = Number(found[0]?.id);
    if (!found.length) {
      const o = await mineOrder();
      // The seed has none: the platform's administrator writes one on the carrier's order.
      const made = await admin.post('/api/general/add/20', await billBody(o, 77));
      expect(made.status, said(made)).toBe(200);
      id = Number(made.body.id);
    }
    const other = await notMineOrder();
    const del = await carrier.post('/api/general/delete/20', { ids: [id] });
    const mv = await carrier.post('/api/general/update/20', { id, disposalOrderId: other, freight: 999 });
    const still = await cell(20, id, 'id');
    const order = await cell(20, id, 'disposalOrderId');
    expect({ del: del.status === 200 && still === undefined, moved: Number(order) === other }, `${said(del)} ${said(mv)}`).toEqual({
      del: false,
      moved: false,
    });
  });
});

describe("the carrier's 留言", () => {
  it('reads, answers or moves no message addressed to another department', async () => {
    const msgs = await rows(
      sql<Row>`select id from lc_view_18 where "deptId" is distinct from ${DEPT.logistics} and create_company is distinct from ${COMPANY.logistics} order by id limit 3`,
    );
    const bad: string[] = [];
    for (const m of msgs) {
      const id = Number(m.id);
      for (const sid of [id, ...spellings(id)]) {
        const f = await carrier.get('/api/general/formData', { generalId: 18, id: Array.isArray(sid) ? String(sid[0]) : String(sid) });
        if (f.status === 200 && f.body?.data) bad.push(`read ${JSON.stringify(sid)}`);
        const u = await carrier.post('/api/general/update/18', { id: sid, replyContent: 'ATK49', haveRead: '1' });
        if (u.status === 200) bad.push(`reply ${JSON.stringify(sid)}`);
        const r = await carrier.get('/api/leaveMessage/readOne', { id: String(sid), viewId: '18' });
        if (r.status === 200) bad.push(`readOne ${JSON.stringify(sid)}`);
      }
    }
    const list = await carrier.get('/api/general/list/18', { size: 1000 });
    for (const r of (list.body.content ?? []) as Row[])
      if (Number(r.deptId) !== DEPT.logistics) {
        const author = await rows(sql<Row>`select create_company from lc_view_18 where id = ${r.id}`);
        if (Number(author[0]?.create_company) !== COMPANY.logistics) bad.push(`list #${r.id}`);
      }
    expect(bad).toEqual([]);
  });

  it('sends no message pre-answered or pre-read to another department', async () => {
    const r = await carrier.post('/api/general/add/18', {
      title: 'ATK49 预答',
      content: 'x',
      contactName: '张三',
      contactPhone: '13800000000',
      deptId: DEPT.disposers,
      replyContent: '已处理（伪造）',
      haveRead: '1',
    });
    if (r.status !== 200) return;
    const reply = await cell(18, r.body.id, 'replyContent');
    expect(reply ?? null, said(r)).toBeNull();
  });
});

describe('the carrier writes no quote', () => {
  it('on any inquiry, by the quote call or the general update', async () => {
    const inq = await rows(sql<Row>`select id, "quotedPrice" as p from lc_view_15 order by id limit 2`);
    const bad: string[] = [];
    for (const i of inq) {
      const id = Number(i.id);
      const a = await carrier.post('/api/disposalQuotePirce/quotedPrice', { id, quotedPrice: 4949 });
      const b = await carrier.post('/api/general/update/15', { id, quotedPrice: 4949, inquiryStatus: '1' });
      if (Number(await cell(15, id, 'quotedPrice')) === 4949) bad.push(`#${id}: ${a.status} ${b.status}`);
    }
    expect(bad).toEqual([]);
  });
});

describe('a company designer', () => {
  it('reads no other company rows through data views in any SQL spelling', async () => {
    const menus = (await db().selectFrom('sys_menu').select(['id', 'permission']).execute())
      .filter((m) => /dataView|generation/i.test(String(m.permission ?? '')))
      .map((m) => m.id);
    const r49 = await role('攻49-数据视图', [MENU.lowcode, MENU.dataView, MENU.generation, ...buttons(MENU.dataView), ...menus]);
    const designers = [
      (await account('atk49_designer', DEPT.producers, COMPANY.producer, [r49])).api,
      (await account('atk49_pdesigner', DEPT.platform, null, [r49])).api,
    ];
    const sqls = [
      'select * from lc_view_19',
      'select (t).* from lc_view_19 t',
      'with x as (select * from lc_view_16) select * from x',
      'select * from "public"."lc_view_16"',
      'select * from LC_VIEW_16',
      'select * from (select 1) a, lateral (select * from lc_view_16) b',
      'select row_to_json(t) from lc_view_16 t',
      "select query_to_xml('select * from lc_view_16', true, true, '')",
      'select * from sys_user',
      "select current_setting('app.company', true)",
    ];
    const bad: string[] = [];
    for (const s of sqls) {
      for (const [k, designer] of designers.entries()) {
        const url = `/api/data/run#${k}`;
        const r = await designer.post('/api/data/run', { sql: s });
        if (r.status === 200 && JSON.stringify(r.body).match(/"(partyBId|partyAId|producerId|password|pwd)"/))
          bad.push(`${url} ${s}: ${JSON.stringify(r.body).slice(0, 120)}`);
      }
    }
    expect(bad).toEqual([]);
  });
});

describe('a company user editor', () => {
  it('moves no account into another company, the platform, or a higher role; nor renames as another', async () => {
    const hrRole = await role('攻49-人事', [MENU.dashboard, MENU.system, MENU.user, ...buttons(MENU.user)], '本企业', COMPANY.producer);
    const hr = await account('atk49_hr', DEPT.producers, COMPANY.producer, [hrRole]);
    const victim = await account('atk49_victim', DEPT.producers, COMPANY.producer, [ROLE.producer]);
    const bad: string[] = [];
    const tries: Row[] = [
      { id: victim.id, deptId: DEPT.disposers },
      { id: victim.id, deptId: String(DEPT.disposers) },
      { id: victim.id, deptId: DEPT.producers, companyId: COMPANY.disposer },
      { id: victim.id, dept: { id: DEPT.platform } },
      { id: victim.id, deptId: DEPT.supervision, companyId: null },
      { id: victim.id, roles: [{ id: ROLE.disposer }] },
      { id: victim.id, roles: [{ id: String(ROLE.supervisor) }] },
      { id: victim.id, roles: [{ id: '01' }] },
      { id: `${victim.id}`, roles: [{ id: ROLE.superAdmin }] },
      { id: [victim.id], deptId: DEPT.disposers },
      { id: victim.id, nickName: '系统管理员' },
      { id: victim.id, username: 'admin ' },
      { id: victim.id, username: 'ＡＤＭＩＮ' },
    ];
    for (const t of tries) {
      const r = await hr.api.put('/api/users', { username: 'atk49_victim', nickName: 'v', phone: '13749490099', ...t });
      const u = await db().selectFrom('sys_user').selectAll().where('id', '=', victim.id).executeTakeFirstOrThrow();
      const roles = (await db().selectFrom('sys_users_roles').select('role_id').where('user_id', '=', victim.id).execute()).map(
        (x) => x.role_id,
      );
      if (u.dept_id !== DEPT.producers || u.company_id !== COMPANY.producer || roles.some((x) => x !== ROLE.producer))
        bad.push(`${JSON.stringify(t)} -> ${r.status} dept ${u.dept_id} company ${u.company_id} roles ${roles}`);
      if (/admin/i.test(String(u.username)) || u.nick_name === '系统管理员')
        bad.push(`name ${JSON.stringify(t)} -> ${u.username}/${u.nick_name}`);
      await db()
        .updateTable('sys_user')
        .set({ dept_id: DEPT.producers, company_id: COMPANY.producer, username: 'atk49_victim' })
        .where('id', '=', victim.id)
        .execute();
    }
    expect(bad).toEqual([]);
  });
});

describe('second round: dedicated waybill calls and the other parties of a waybill', () => {
  it('the carrier reads no linkman or transport of a waybill it is not on, by any id spelling', async () => {
    const others = await rows(
      sql<Row>`select l.id from lc_view_20 l left join lc_view_19 d on d.id = l."disposalOrderId"
        where l.create_company <> ${COMPANY.logistics} and d."carrierId" is distinct from ${COMPANY.logistics} order by l.id limit 2`,
    );
    const bad: string[] = [];
    for (const o of others) {
      const id = Number(o.id);
      for (const sid of [id, ...spellings(id)]) {
        for (const url of ['/api/logisticsOrder/getLogisticsLinkman', '/api/logisticsOrder/getTransportInfo']) {
          const r = await carrier.get(url, { id: Array.isArray(sid) ? String(sid[0]) : String(sid) });
          if (r.status === 200 && JSON.stringify(r.body).length > 40)
            bad.push(`${url} ${JSON.stringify(sid)}: ${JSON.stringify(r.body).slice(0, 100)}`);
        }
      }
    }
    const ws = await rows(sql<Row>`select id from company_warehouse where company_id <> ${COMPANY.logistics} order by id limit 2`);
    for (const w of ws) {
      const r = await carrier.get('/api/logisticsOrder/byWarehouseId', { warehouseId: String(w.id), size: '100' });
      for (const row of (r.body?.content ?? []) as Row[]) {
        const d = await rows(
          sql<Row>`select d."carrierId" c, l.create_company cc from lc_view_20 l left join lc_view_19 d on d.id = l."disposalOrderId" where l.id = ${row.id}`,
        );
        if (Number(d[0]?.c) !== COMPANY.logistics && Number(d[0]?.cc) !== COMPANY.logistics) bad.push(`byWarehouse #${row.id}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("the order's producer and disposer rewrite or delete none of the carrier's waybills", async () => {
    const w = await myWaybill();
    const other = await notMineOrder();
    const before = { o: await cell(20, w, 'disposalOrderId'), f: await cell(20, w, 'freight'), n: await cell(20, w, 'waybillNo') };
    const bad: string[] = [];
    for (const [who, c] of [
      ['producer', producer],
      ['disposer', disposer],
    ] as const) {
      for (const id of [w, ...spellings(w)]) {
        const u = await c.post('/api/general/update/20', { id, disposalOrderId: other, freight: 4949, waybillNo: 'ATK49-X' });
        const a = await c.post('/api/general/add/20', { id, freight: 4949 });
        const after = { o: await cell(20, w, 'disposalOrderId'), f: await cell(20, w, 'freight'), n: await cell(20, w, 'waybillNo') };
        if (JSON.stringify(after) !== JSON.stringify(before)) {
          bad.push(`${who} ${JSON.stringify(id)} ${u.status}/${a.status}: ${JSON.stringify(after)}`);
          await sql`update lc_view_20 set "disposalOrderId" = ${before.o}, freight = ${before.f}, "waybillNo" = ${before.n} where id = ${w}`.execute(
            db(),
          );
        }
      }
      const d = await c.post('/api/general/delete/20', { ids: [w] });
      if ((await cell(20, w, 'id')) === undefined) bad.push(`${who} deleted ${d.status}`);
      const g = await c.post('/api/general/groovy/20', { ids: [w], groovyQueryParam: { groovyAction: 'finish' } });
      if (g.status === 200) bad.push(`${who} groovy ${said(g)}`);
    }
    expect(bad).toEqual([]);
  });
});

describe('third round: role and user editors with odd spellings', () => {
  it('a company role editor grants no menu, scope or department it does not hold, in any id spelling', async () => {
    const editorRole = await role('攻49-角色', [MENU.dashboard, MENU.system, MENU.role, ...buttons(MENU.role)], '本企业', COMPANY.producer);
    const ed = await account('atk49_roled', DEPT.producers, COMPANY.producer, [editorRole]);
    const held = new Set(
      (await db().selectFrom('sys_roles_menus').select('menu_id').where('role_id', '=', editorRole).execute()).map((m) => m.menu_id),
    );
    const bad: string[] = [];
    const menusOf = async (id: number) =>
      (await db().selectFrom('sys_roles_menus').select('menu_id').where('role_id', '=', id).execute()).map((m) => m.menu_id);
    const deptsOf = async (id: number) =>
      (await db().selectFrom('sys_roles_depts').select('dept_id').where('role_id', '=', id).execute()).map((m) => m.dept_id);
    const wanted = [MENU.user, MENU.dataView, MENU.generation, ...buttons(MENU.user)];
    const spell = (n: number): unknown[] => [String(n), `0${n}`, ` ${n}`, [n], `${n}.0`];
    let k = 0;
    for (const m of wanted.slice(0, 3)) {
      for (const id of spell(m)) {
        const made = await ed.api.post('/api/roles', { name: `攻49-造${++k}`, level: 3, dataScope: '本企业', menus: [{ id }] });
        if (made.status === 201) {
          const got = (await menusOf(made.body.id)).filter((x) => !held.has(x));
          if (got.length) bad.push(`add ${JSON.stringify(id)}: ${got}`);
        }
        const put = await ed.api.put('/api/roles/menu', {
          id: String(editorRole),
          menus: [...held].map((x) => ({ id: x })).concat([{ id: id as never }]),
        });
        const now = (await menusOf(editorRole)).filter((x) => !held.has(x));
        if (now.length) bad.push(`menu ${JSON.stringify(id)} ${put.status}: ${now}`);
      }
    }
    for (const depts of [[{ id: DEPT.disposers }], [{ id: String(DEPT.supervision) }], [DEPT.platform], [{ id: `0${DEPT.disposer2}` }]]) {
      const made = await ed.api.post('/api/roles', { name: `攻49-部${++k}`, level: 3, dataScope: '自定义', depts, menus: [] });
      if (made.status === 201) {
        const ds = await deptsOf(made.body.id);
        const foreign = ds.filter((d) => d !== DEPT.producers);
        if (foreign.length) bad.push(`depts ${JSON.stringify(depts)}: ${foreign}`);
      }
    }
    for (const id of [String(ROLE.disposer), `0${ROLE.logistics}`, [ROLE.superAdmin]]) {
      const r = await ed.api.put('/api/roles', { id, name: '攻49-改他', level: 3, dataScope: '本企业' });
      if (r.status < 300) bad.push(`edit platform role ${JSON.stringify(id)}`);
    }
    const roleNames = (
      await db().selectFrom('sys_role').select('name').where('id', 'in', [ROLE.superAdmin, ROLE.supervisor, ROLE.logistics]).execute()
    ).map((r) => r.name);
    const trad = (s: string) =>
      s
        .replace('级', '級')
        .replace('员', '員')
        .replace('业', '業')
        .replace('门', '門')
        .replace('监', '監')
        .replace('理', '理')
        .replace('管', '管');
    for (const name of roleNames.flatMap((n) => [trad(n), `${n} `, n.normalize('NFKD')]).filter((n, i, a) => a.indexOf(n) === i)) {
      const r = await ed.api.post('/api/roles', { name, level: 3, dataScope: '本企业', menus: [] });
      if (r.status === 201) bad.push(`look-alike role name ${name}`);
    }
    expect(bad).toEqual([]);
  });

  it("a company user editor attaches no other company's role to its accounts", async () => {
    const otherRole = await role('攻49-他企', [MENU.dashboard], '本企业', COMPANY.disposer);
    const hrRole = await role('攻49-人事2', [MENU.dashboard, MENU.system, MENU.user, ...buttons(MENU.user)], '本企业', COMPANY.producer);
    const hr = await account('atk49_hr2', DEPT.producers, COMPANY.producer, [hrRole]);
    const bad: string[] = [];
    for (const id of [otherRole, String(otherRole), `0${otherRole}`, [otherRole]]) {
      const r = await hr.api.post('/api/users', {
        username: `atk49_u${bad.length}_${String(id).length}${Array.isArray(id) ? 'a' : ''}`,
        nickName: 'u',
        phone: `1374949${String(8000 + Math.floor(Math.random() * 999))}`,
        deptId: DEPT.producers,
        roles: [{ id }],
      });
      if (r.status === 201) {
        const roles = (await db().selectFrom('sys_users_roles').select('role_id').where('user_id', '=', r.body.id).execute()).map(
          (x) => x.role_id,
        );
        if (roles.includes(otherRole)) bad.push(`add ${JSON.stringify(id)}`);
      }
    }
    expect(bad).toEqual([]);
  });
});

describe("race: the carrier's new waybill and the order creator's hand-over to another carrier", () => {
  it('no waybill of the carrier ends on an order that names another carrier (its vehicles and freight then shown to that carrier)', async () => {
    const { id: carrier2 } = await db()
      .insertInto('company')
      .values({ name: '攻49第二承运物流有限公司', type: '3', status: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const bad: string[] = [];
    const statuses: string[] = [];
    for (let i = 0; i < 16; i++) {
      const remark = `攻49 竞态${i}`;
      const o = await disposer.post('/api/general/add/19', {
        producerId: COMPANY.producer,
        disposerId: COMPANY.disposer,
        carrierId: COMPANY.logistics,
        wasteCategory: 'HW08',
        quantity: 1,
        price: 1,
        remark,
      });
      expect(o.status, said(o)).toBe(200);
      const oid = o.body.id as number;
      const form = await disposer.get('/api/general/formData', { generalId: 19, id: oid });
      const body = await billBody(oid, ++billSeq + 100);
      const moveIt = () => disposer.post('/api/general/update/19', { ...form.body.data, id: oid, carrierId: carrier2 });
      const billIt = () => carrier.post('/api/general/add/20', body);
      const wait = () => new Promise((r) => setTimeout(r, Math.floor(i / 2) % 4));
      let move: ReturnType<typeof moveIt>;
      let bill: ReturnType<typeof billIt>;
      if (i % 2) {
        bill = billIt();
        await wait();
        move = moveIt();
      } else {
        move = moveIt();
        await wait();
        bill = billIt();
      }
      const [m, b] = await Promise.all([move, bill]);
      statuses.push(`${m.status}/${b.status} ${i === 0 ? said(b) : ''}`);
      const c = await cell(19, oid, 'carrierId');
      const bills = await rows(
        sql<Row>`select id from lc_view_20 where "disposalOrderId" = ${oid} and create_company = ${COMPANY.logistics}`,
      );
      if (Number(c) === carrier2 && bills.length)
        bad.push(
          `order #${oid} carrier ${c} with waybill ${bills.map((x) => x.id)}: move ${m.status} ${said(m)} bill ${b.status} ${said(b)}`,
        );
    }
    console.log('atk49 race', statuses.join(' '));
    expect(bad).toEqual([]);
  });
});

describe('deletes naming foreign ids among own ones', () => {
  it('the carrier deletes nothing when one id of a batch is not its own, in any notation', async () => {
    const mineA = await billBody(await mineOrder(), 900);
    const made = await carrier.post('/api/general/add/20', mineA);
    expect(made.status, said(made)).toBe(200);
    const own = made.body.id as number;
    const foreign = Number(
      (await rows(sql<Row>`select id from lc_view_20 where create_company <> ${COMPANY.logistics} order by id limit 1`))[0]?.id ??
        (await rows(sql<Row>`select id from lc_view_18 order by id limit 1`))[0]?.id,
    );
    const msg = Number((await rows(sql<Row>`select id from lc_view_18 where create_user <> 5 order by id limit 1`))[0]?.id);
    const bad: string[] = [];
    for (const ids of [[own, foreign], [own, String(foreign)], [String(own), `0${foreign}`], `${own},${foreign}`]) {
      const r = await carrier.post('/api/general/delete/20', { ids });
      if ((await cell(20, foreign, 'id')) === undefined) bad.push(`foreign gone ${JSON.stringify(ids)} ${r.status}`);
      if ((await cell(20, own, 'id')) === undefined) {
        bad.push(`own deleted alongside ${JSON.stringify(ids)} ${r.status} ${said(r)}`);
        break;
      }
    }
    for (const ids of [[msg], [String(msg)], `${msg}`]) {
      const r = await carrier.post('/api/general/delete/18', { ids });
      if ((await cell(18, msg, 'id')) === undefined) bad.push(`message deleted ${JSON.stringify(ids)} ${r.status}`);
    }
    expect(bad).toEqual([]);
  });
});
