import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalDefinition, type Resolver, viewForTarget } from '../../cli/push.js';
import { referenceTarget } from '../../server/lowcode/reference-labels.js';
import { readView } from '../../server/lowcode/view-model.js';
import { DEPT, MENU, ROLE } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { menuComponentName } from '../../src/model/index.js';
import { accountMaker, type MadeAccount } from '../helpers/accounts.js';
import { overlap } from '../helpers/races.js';
import { said } from '../helpers/refusal.js';
import { type ApiClient, type ApiResponse, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Attack 53: an access-deciding componentName held by one view (races, spellings, renames away, delete and
 * re-add of the view a waybill's via picker names), the via picker's id spellings, `wastegen push`'s
 * rewriting of view pickers, department moves against deletes, and the 409 mapping of lost races.
 * Every probe asserts the SAFE outcome.
 */

type Row = Record<string, unknown>;
const ACCESS_NAMES = ['leaveMessage', 'disposalInquiry', 'contract', 'disposalOrder', 'logisticsOrder'];
const GAPS = [0, -1, -3, -8, -21, 1, 3, 8, 15, 30];
const clean = (r: ApiResponse) => r.status === 200 || r.status === 201 || (r.status >= 400 && r.status < 500);

/** One seeded server with an administrator, the seeded company accounts and a designer of 全部. */
interface World {
  server: TestServer;
  admin: ApiClient;
  producer: ApiClient;
  disposer: ApiClient;
  carrier: ApiClient;
  designer: MadeAccount;
  account: ReturnType<typeof accountMaker>['account'];
  role: ReturnType<typeof accountMaker>['role'];
}

async function world(prefix: string): Promise<World> {
  const server = await startTestServer();
  const [admin, producer, disposer, carrier] = await Promise.all([
    server.login('admin'),
    server.login('producer'),
    server.login('disposer'),
    server.login('logistics'),
  ]);
  const { account, role } = accountMaker(
    () => server,
    () => admin,
    prefix,
  );
  const r = await role('攻53-视图设计', [MENU.lowcode, MENU.generation, 611, 612, 613, 614, 615], '全部', null, 2);
  const designer = await account(`atk53_designer${prefix.slice(-2)}`, DEPT.sysadmin, null, [r]);
  return { server, admin, producer, disposer, carrier, designer, account, role };
}

const rowsOf = async (w: World, q: RawBuilder<Row>) => (await q.execute(w.server.ctx.db)).rows;

async function stored(w: World, viewId: number): Promise<{ text: string; menu: string; version: number }> {
  const row = await w.server.ctx.db
    .selectFrom('lc_generation')
    .select(['dis_template', 'dis_menu', 'version'])
    .where('id', '=', viewId)
    .executeTakeFirstOrThrow();
  return { text: String(row.dis_template), menu: String(row.dis_menu), version: row.version };
}

/** The views (id) whose stored disMenu names `name`. */
async function viewsNamed(w: World, name: string): Promise<number[]> {
  const all = await w.server.ctx.db.selectFrom('lc_generation').select(['id', 'dis_menu']).execute();
  return all.filter((r) => menuComponentName(r.dis_menu) === name).map((r) => r.id);
}

/** A valid disposal-order body, copied from a stored order through the administrator's form. */
async function orderBody(w: World, over: Row): Promise<Row> {
  const any = Number((await rowsOf(w, sql<Row>`select id from lc_view_19 order by id limit 1`))[0]?.id);
  const f = await w.admin.get('/api/general/formData', { generalId: 19, id: any });
  const { id: _i, createTime: _c, updateTime: _u, ...rest } = f.body.data as Row;
  for (const k of Object.keys(rest)) if (k.endsWith('Fmt') || k.startsWith('create')) delete rest[k];
  return { ...rest, ...over };
}

/** A valid waybill body copied from one of the carrier's own. */
async function billBody(w: World, disposalOrderId: unknown, n: number): Promise<Row> {
  const mine = Number(
    (await rowsOf(w, sql<Row>`select id from lc_view_20 where create_company = ${COMPANY.logistics} order by id limit 1`))[0]?.id,
  );
  const f = await w.carrier.get('/api/general/formData', { generalId: 20, id: mine });
  const { id: _id, createTime: _c, ...rest } = f.body.data as Row;
  return { ...rest, disposalOrderId, waybillNo: `WL${String(535300000000 + n)}` };
}

/** An order of view 19 that names producer2/disposer2 (not the disposer) and the carrier, and the carrier's waybill on it. */
async function foreignWaybill(w: World, n: number): Promise<{ oid: number; wid: number }> {
  const o = await w.admin.post(
    '/api/general/add/19',
    await orderBody(w, {
      producerId: COMPANY.producer2,
      disposerId: COMPANY.disposer2,
      carrierId: COMPANY.logistics,
      stockId: null,
      contractId: null,
      orderNo: undefined,
    }),
  );
  expect(o.status, said(o)).toBe(200);
  const oid = o.body.id as number;
  const bill = await w.carrier.post('/api/general/add/20', await billBody(w, oid, n));
  expect(bill.status, said(bill)).toBe(200);
  const wid = bill.body.id as number;
  const before = await w.disposer.get('/api/general/detail', { generalId: 20, id: wid });
  expect(before.status, said(before)).toBe(404);
  return { oid, wid };
}

/**
 * After the view the waybill's picker names stops being 处置订单 (renamed or deleted), a new view takes the
 * name, and the disposer writes an order in it that lands at the id of the foreign order: the disposer
 * must not read the carrier's waybill on the foreign order.
 */
async function newOrderViewReads(w: World, oid: number, wid: number, n: number): Promise<string[]> {
  const bad: string[] = [];
  const order = await stored(w, 19);
  const made = await w.designer.api.post('/api/generation/add', {
    name: `攻53处置订单新${n}`,
    status: 1,
    disMenu: JSON.stringify({ componentName: 'disposalOrder', name: `攻53处置订单新${n}`, pid: MENU.dispose }),
    disTemplate: order.text,
  });
  if (made.status !== 200) return [`(new disposalOrder view refused ${made.status} ${said(made)})`];
  const copy = made.body.id as number;
  await sql`select setval(pg_get_serial_sequence(${`lc_view_${copy}`}, 'id'), ${oid - 1})`.execute(w.server.ctx.db);
  const mine = await w.disposer.post(
    `/api/general/add/${copy}`,
    await orderBody(w, {
      producerId: COMPANY.producer,
      disposerId: COMPANY.disposer,
      carrierId: COMPANY.logistics,
      stockId: null,
      contractId: null,
      orderNo: undefined,
    }),
  );
  if (mine.status !== 200 || mine.body.id !== oid) return [`(order in new view ${copy}: ${mine.status} ${said(mine)})`];
  const after = await w.disposer.get('/api/general/detail', { generalId: 20, id: wid });
  if (after.status === 200)
    bad.push(
      `disposer (no party of the order the carrier's waybill #${wid} was written on) reads it through new view ${copy}'s record #${oid}: ${said(after).slice(0, 120)}`,
    );
  const list = await w.disposer.get('/api/general/list/20', { size: 1000 });
  if (((list.body?.content ?? []) as Row[]).some((r) => r.id === wid)) bad.push(`disposer lists waybill #${wid}`);
  return bad;
}

// ---------------------------------------------------------------------------------------------------

describe('probe 1: the view a waybill picker names is renamed away from 处置订单, a new view takes the name', () => {
  let w: World;
  beforeAll(async () => {
    w = await world('1395301');
  }, 120_000);
  afterAll(async () => {
    await w?.server.close();
  });

  it("opens no waybill to a company named only on the new view's record of the same id", async () => {
    const { oid, wid } = await foreignWaybill(w, 1);
    const order = await stored(w, 19);
    const menu = JSON.parse(order.menu) as Row;
    const renamed = await w.designer.api.post('/api/generation/update', {
      id: 19,
      name: '处置订单',
      disMenu: JSON.stringify({ ...menu, componentName: 'atk53OldOrder' }),
    });
    // Refusing the rename (view 20's picker names view 19 for its parties) is the safe outcome.
    if (renamed.status !== 200) {
      expect([renamed.status, renamed.body.code], said(renamed)).toEqual([400, 'VIEW_PICKED_FOR_ACCESS']);
      expect(menuComponentName((await stored(w, 19)).menu)).toBe('disposalOrder');
      return;
    }
    expect(await newOrderViewReads(w, oid, wid, 1)).toEqual([]);
  });
});

describe('probe 2: the view a waybill picker names is deleted, a new 处置订单 view is added', () => {
  let w: World;
  beforeAll(async () => {
    w = await world('1395302');
  }, 120_000);
  afterAll(async () => {
    await w?.server.close();
  });

  it("opens no waybill to a company named only on the new view's record of the same id", async () => {
    const { oid, wid } = await foreignWaybill(w, 2);
    // Keep the template: the delete drops view 19 with its records.
    const order = await stored(w, 19);
    const body = await orderBody(w, {
      producerId: COMPANY.producer,
      disposerId: COMPANY.disposer,
      carrierId: COMPANY.logistics,
      stockId: null,
      contractId: null,
      orderNo: undefined,
    });
    const del = await w.designer.api.post('/api/generation/delete', [19]);
    if (del.status !== 200) {
      expect([del.status, del.body.code], said(del)).toEqual([400, 'VIEW_PICKED_FOR_ACCESS']);
      expect((await stored(w, 19)).text).toBe(order.text);
      return;
    }
    const made = await w.designer.api.post('/api/generation/add', {
      name: '攻53处置订单重建',
      status: 1,
      disMenu: JSON.stringify({ componentName: 'disposalOrder', name: '攻53处置订单重建', pid: MENU.dispose }),
      disTemplate: order.text,
    });
    if (made.status !== 200) {
      expect(made.status, said(made)).toBe(400);
      return;
    }
    const copy = made.body.id as number;
    await sql`select setval(pg_get_serial_sequence(${`lc_view_${copy}`}, 'id'), ${oid - 1})`.execute(w.server.ctx.db);
    // The re-added view's page menus are new (the delete dropped view 19's): no company role grants them yet,
    // so the order is written by the administrator; who wrote it does not matter to who reads the waybill.
    const mine = await w.admin.post(`/api/general/add/${copy}`, body);
    const bad: string[] = [];
    if (mine.status === 200 && mine.body.id === oid) {
      const after = await w.disposer.get('/api/general/detail', { generalId: 20, id: wid });
      if (after.status === 200)
        bad.push(
          `disposer reads the carrier's waybill #${wid} (its order, deleted with view 19, never named the disposer) through new view ${copy}'s record #${oid}: ${said(after).slice(0, 120)}`,
        );
    } else bad.push(`(order in re-added view ${copy}: ${mine.status} ${said(mine)})`);
    expect(bad).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('probes 3-7: one server', () => {
  let w: World;
  beforeAll(async () => {
    w = await world('1395303');
  }, 120_000);
  afterAll(async () => {
    await w?.server.close();
  });

  it('probe 3: a second view of an access name, by any spelling of disMenu the server reads as it, is refused', async () => {
    const order = await stored(w, 19);
    const bad: string[] = [];
    const spellings: [string, unknown][] = [
      ['padded', JSON.stringify({ componentName: '  contract\t', name: 'x', pid: MENU.lowcode })],
      ['object', { componentName: 'contract', name: 'x', pid: MENU.lowcode }],
      ['duplicate key, last wins', '{"componentName":"atk53x","name":"x","componentName":"contract"}'],
      ['unicode escape', '{"componentName":"\\u0063ontract","name":"x"}'],
      ['newline padded', JSON.stringify({ componentName: '\ncontract\n', name: 'x' })],
      ['NBSP padded (trim strips it)', JSON.stringify({ componentName: '\u00a0contract\u00a0', name: 'x' })],
      ['BOM padded (trim strips it)', JSON.stringify({ componentName: '\ufeffcontract', name: 'x' })],
    ];
    for (const [what, disMenu] of spellings) {
      for (const withTemplate of [false, true]) {
        const r = await w.designer.api.post('/api/generation/add', {
          name: `攻53拼写-${what}`,
          disMenu,
          ...(withTemplate ? { disTemplate: (await stored(w, 16)).text } : {}),
        });
        if (r.status === 200) {
          const id = r.body.id as number;
          const named = menuComponentName((await stored(w, id)).menu);
          if (named !== undefined && ACCESS_NAMES.includes(named))
            bad.push(`${what} (template ${withTemplate}): view #${id} stored as ${named}`);
          await w.admin.post('/api/generation/delete', [id]);
        } else if (!(r.status === 400)) bad.push(`${what}: ${r.status} ${said(r)}`);
      }
    }
    // A rename of a draft to the name, by update (no template) and by design.
    const draft = await w.designer.api.post('/api/generation/add', {
      name: '攻53草稿',
      disMenu: JSON.stringify({ componentName: 'atk53d' }),
    });
    expect(draft.status, said(draft)).toBe(200);
    const id = draft.body.id as number;
    const up = await w.designer.api.post('/api/generation/update', {
      id,
      name: '攻53草稿',
      disMenu: '{"componentName":"atk53d","componentName":" disposalOrder "}',
    });
    if (up.status !== 400) bad.push(`update rename to disposalOrder: ${up.status} ${said(up)}`);
    const de = await w.designer.api.post('/api/generation/design', {
      id,
      disTemplate: order.text,
      disMenu: { componentName: 'disposalOrder' },
    });
    if (de.status !== 400) bad.push(`design rename to disposalOrder: ${de.status} ${said(de)}`);
    await w.admin.post('/api/generation/delete', [id]);
    for (const n of ACCESS_NAMES) {
      const ids = await viewsNamed(w, n);
      if (ids.length !== 1) bad.push(`${n} held by ${JSON.stringify(ids)}`);
    }
    expect(bad).toEqual([]);
  });

  it('probe 4: the waybill picker pointed at another view by an odd spelling of the id is refused', async () => {
    const bill = await stored(w, 20);
    const bad: string[] = [];
    const targets = [
      '/api/general/allList/019/queryLink',
      '/api/general/allList/19/queryLink/',
      '/api/general/allList/19/queryLink?x=1',
      '/api/general/allList/17/queryLink?id=19',
      '/api/general/allList/%31%39/queryLink',
      '/api/general/allList/19/../17/queryLink',
      '/api/general/allList/17/../19/queryLink',
      '/api/general/allList/17/queryLink#/api/general/allList/19/queryLink',
      'http://other.example/api/general/allList/19/queryLink',
      '/api/general/allList/16/queryLink',
      '/api/general/allList/99999/queryLink',
    ];
    for (const url of targets) {
      const now = await stored(w, 20);
      const r = await w.designer.api.post('/api/generation/design', {
        id: 20,
        version: now.version,
        disTemplate: bill.text.replaceAll('/api/general/allList/19/queryLink', url),
      });
      if (r.status === 200) {
        // Accepted: the server must read it as view 19 (the one carrying disposalOrder).
        const row = await w.server.ctx.db.selectFrom('lc_generation').selectAll().where('id', '=', 20).executeTakeFirstOrThrow();
        const view = readView(row);
        const f = view?.byName.get('disposalOrderId');
        const t = view && f ? referenceTarget(view, f) : undefined;
        if (t?.viewId !== 19) bad.push(`${url}: accepted, read as ${JSON.stringify(t?.path)} view ${t?.viewId}`);
        const back = await stored(w, 20);
        await w.admin.post('/api/generation/design', { id: 20, version: back.version, disTemplate: bill.text });
      } else if (r.status !== 400) bad.push(`${url}: ${r.status} ${said(r)}`);
    }
    expect(bad).toEqual([]);
  });

  it('probe 5: push rewrites every view picker the server reads, whatever its spelling, to the target id', async () => {
    const bill = await stored(w, 20);
    const spellings = [
      '/api/general/allList/19/queryLink',
      '/api/general/allList/019/queryLink',
      '/api/general/allList/19/queryLink?x=1',
      '/api/general/allList/19/queryLink#x',
      '/api/general/allList/./19/queryLink',
      '/api/general/allList/18/../19/queryLink',
      '/api/general//allList/19/queryLink'.replace('//', '/'),
      '\\api\\general\\allList\\19\\queryLink',
      '/api/general/allList/1\t9/queryLink',
      ' /api/general/allList/19/queryLink',
      'http://source.example/api/general/allList/19/queryLink',
      '//source.example/api/general/allList/19/queryLink',
      '/api/general//allList/19/queryLink',
      '/api/general/allList/%31%39/queryLink',
    ];
    const ONE_SPELLING = new Set(['/api/general/allList/19/queryLink', '/api/general/allList/19/queryLink?x=1']);
    // The source's view 19 is the target's view 4242; the target's view 19 is some other view.
    const resolve: Resolver = { view: (id) => (id === 19 ? 4242 : id === 17 ? 1717 : undefined), dataView: () => undefined };
    const bad: string[] = [];
    for (const url of spellings) {
      const text = bill.text.replaceAll('/api/general/allList/19/queryLink', url.replaceAll('\\', '\\\\').replaceAll('\t', '\\t'));
      // Only spellings the server itself accepts matter: a definitions folder is pulled from a server.
      const now = await stored(w, 20);
      const accepted = await w.designer.api.post('/api/generation/design', { id: 20, version: now.version, disTemplate: text });
      // The server stores an options address in its one spelling only: any other is refused as a design.
      if (!ONE_SPELLING.has(url))
        expect([accepted.status, accepted.body.code], `${JSON.stringify(url)}: ${said(accepted)}`).toEqual([400, 'DEFINITION_INVALID']);
      if (accepted.status !== 200) continue;
      const back = await stored(w, 20);
      await w.admin.post('/api/generation/design', { id: 20, version: back.version, disTemplate: bill.text });
      const local: LocalDefinition = {
        kind: 'view',
        file: 'views/logisticsOrder.json',
        id: 20,
        key: 'view logisticsOrder',
        json: { name: '物流订单', disMenu: JSON.parse(bill.menu), disTemplate: JSON.parse(text) },
      };
      const pushed = viewForTarget(local, resolve);
      const view = readView({ id: 20, name: '物流订单', dis_menu: bill.menu, dis_template: JSON.stringify(pushed.disTemplate) });
      const f = view?.byName.get('disposalOrderId');
      const t = view && f ? referenceTarget(view, f) : undefined;
      if (t?.viewId !== 4242)
        bad.push(`${JSON.stringify(url)}: pushed picker read by the target as view ${t?.viewId} (${t?.path}), not 4242`);
    }
    expect(bad).toEqual([]);
  });

  it('probe 6: a department moved under one being deleted never ends under a deleted one, nor answers 500', async () => {
    const deptRole = await w.role('攻53-部门', [MENU.dashboard, MENU.system, MENU.dept, 741, 742, 743], '本企业', COMPANY.producer);
    const de = await w.account('atk53_dept', DEPT.producers, COMPANY.producer, [deptRole]);
    const bad: string[] = [];
    const outcomes = new Set<string>();
    const rounds = process.env.TEST_DATABASE_URL ? GAPS.length * 2 : 6;
    for (let i = 0; i < rounds; i++) {
      const p = await de.api.post('/api/dept', { name: `攻53父${i}`, pid: DEPT.producers, enabled: true, sort: 90 });
      const c = await de.api.post('/api/dept', { name: `攻53子${i}`, pid: DEPT.producers, enabled: true, sort: 91 });
      expect(p.status, said(p)).toBeLessThan(300);
      expect(c.status, said(c)).toBeLessThan(300);
      const pid = p.body.id as number;
      const cid = c.body.id as number;
      const [m, d] = await overlap(
        i,
        GAPS,
        () => de.api.put('/api/dept', { id: cid, name: `攻53子${i}`, pid, enabled: true, sort: 91 }),
        () => de.api.delete('/api/dept', [pid]),
      );
      outcomes.add(`${m.status}/${d.status}`);
      if (!clean(m)) bad.push(`round ${i} move ${m.status} ${said(m)}`);
      if (!clean(d)) bad.push(`round ${i} delete ${d.status} ${said(d)}`);
      // A move answered 200 must have happened; a 409 must have changed nothing.
      const child = await w.server.ctx.db.selectFrom('sys_dept').select(['pid']).where('id', '=', cid).executeTakeFirst();
      if (m.status === 200 && d.status === 200 && child) bad.push(`round ${i}: move and delete both 200, child kept (pid ${child.pid})`);
    }
    const orphans = await rowsOf(w, sql<Row>`select id from sys_dept where pid is not null and pid not in (select id from sys_dept)`);
    if (orphans.length) bad.push(`departments under a deleted one: ${JSON.stringify(orphans)}`);
    expect(bad, [...outcomes].join(' ')).toEqual([]);
  });

  it('probe 7: a unique violation typed on purpose (a phone another account holds) is a clear 400, not 409 CONFLICT', async () => {
    const bad: string[] = [];
    // Two accounts with one phone, one of them deleted and restored by nothing: the phone index.
    const phone = '13953539999';
    const u1 = await w.admin.post('/api/users', {
      username: 'atk53_ph1',
      nickName: 'p1',
      phone,
      deptId: DEPT.producers,
      companyId: COMPANY.producer,
      roles: [{ id: ROLE.producer }],
    });
    const u2 = await w.admin.post('/api/users', {
      username: 'atk53_ph2',
      nickName: 'p2',
      phone,
      deptId: DEPT.producers,
      companyId: COMPANY.producer,
      roles: [{ id: ROLE.producer }],
    });
    if (u1.status !== 201) bad.push(`(first account ${u1.status} ${said(u1)})`);
    if (u2.status === 409 || u2.status >= 500) bad.push(`second account with the same phone: ${u2.status} ${said(u2)}`);
    expect(bad).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('probe 8: two views take a free access name at once', () => {
  let w: World;
  beforeAll(async () => {
    w = await world('1395308');
  }, 120_000);
  afterAll(async () => {
    await w?.server.close();
  });

  it('never leaves two views carrying contract (adds at once, renames at once)', async () => {
    // Free the name: the seeded 合同管理 is renamed away (its records keep it from taking the name back).
    const contract = await stored(w, 16);
    const freed = await w.designer.api.post('/api/generation/update', {
      id: 16,
      name: '合同管理',
      disMenu: JSON.stringify({ ...(JSON.parse(contract.menu) as Row), componentName: 'atk53OldContract' }),
    });
    expect(freed.status, said(freed)).toBe(200);
    const bad: string[] = [];
    const outcomes = new Set<string>();
    const rounds = process.env.TEST_DATABASE_URL ? GAPS.length * 2 : 6;
    const kinds = ['add', 'add-designed', 'rename'] as const;
    for (let i = 0; i < rounds * kinds.length; i++) {
      const kind = kinds[i % kinds.length] as (typeof kinds)[number];
      const menu = (n: string) => JSON.stringify({ componentName: 'contract', name: n, pid: MENU.lowcode });
      let a: () => Promise<ApiResponse>;
      let b: () => Promise<ApiResponse>;
      if (kind === 'rename') {
        const x = await w.designer.api.post('/api/generation/add', {
          name: `攻53甲${i}`,
          disMenu: JSON.stringify({ componentName: `atk53a${i}` }),
        });
        const y = await w.designer.api.post('/api/generation/add', {
          name: `攻53乙${i}`,
          disMenu: JSON.stringify({ componentName: `atk53b${i}` }),
        });
        a = () => w.designer.api.post('/api/generation/update', { id: x.body.id, name: `攻53甲${i}`, disMenu: menu(`甲${i}`) });
        b = () => w.designer.api.post('/api/generation/update', { id: y.body.id, name: `攻53乙${i}`, disMenu: menu(`乙${i}`) });
      } else {
        const t = kind === 'add-designed' ? { disTemplate: contract.text } : {};
        a = () => w.designer.api.post('/api/generation/add', { name: `攻53甲${i}`, disMenu: menu(`甲${i}`), ...t });
        b = () => w.designer.api.post('/api/generation/add', { name: `攻53乙${i}`, disMenu: menu(`乙${i}`), ...t });
      }
      const [ra, rb] = await overlap(Math.floor(i / kinds.length), GAPS, a, b);
      outcomes.add(`${kind}:${ra.status}/${rb.status}`);
      for (const r of [ra, rb]) if (!clean(r)) bad.push(`round ${i} ${kind}: ${r.status} ${said(r)}`);
      const holders = await viewsNamed(w, 'contract');
      if (holders.length > 1)
        bad.push(`round ${i} ${kind}: views ${JSON.stringify(holders)} all carry contract (${ra.status}/${rb.status})`);
      // Clear the round's views.
      const mine = await w.server.ctx.db.selectFrom('lc_generation').select('id').where('name', 'like', `攻53%${i}`).execute();
      if (mine.length)
        await w.admin.post(
          '/api/generation/delete',
          mine.map((m) => m.id),
        );
    }
    expect(bad, [...outcomes].join(' ')).toEqual([]);
  });
});
