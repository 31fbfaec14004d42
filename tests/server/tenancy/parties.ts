import { type Kysely, sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../../server/auth.js';
import { migrations } from '../../../server/db/migrations/index.js';
import { syncViewTable } from '../../../server/lowcode/ddl.js';
import { readView } from '../../../server/lowcode/view-model.js';
import { changeView } from '../../../server/lowcode/view-store.js';
import { MENU, ROLE } from '../../../server/seed/accounts.js';
import { COMPANY } from '../../../server/seed/ids.js';
import { errorMessage } from '../../../src/shared/error-catalogue.js';
import { refusal } from '../../helpers/refusal.js';
import type { ApiClient, ApiResponse, TestServer } from '../../helpers/server.js';
import { DEMO_PASSWORD, startTestServer } from '../../helpers/server.js';

/**
 * Contracts, disposal orders and inquiries name their parties by company id, the name being only the
 * label answered beside it, so a renamed company takes its records along and a company taking the old
 * name gains none; renaming needs company:edit. A disposal order names its carrier (运输单位): a logistics
 * company sees, picks and carries the orders that name it, and no others.
 */
export function partiesByIdAndCarrier(): void {
  const PRODUCER = '苏州华瑞精细化工有限公司';
  const DISPOSER = '江苏绿源环保科技有限公司';
  const RENAMED = '苏州华瑞新材料有限公司';

  let server: TestServer;
  let admin: ApiClient;
  let producer: ApiClient;
  let disposer: ApiClient;
  let logistics: ApiClient;
  let seq = 0;

  beforeAll(async () => {
    server = await startTestServer();
    [admin, producer, disposer, logistics] = await Promise.all([
      server.login('admin'),
      server.login('producer'),
      server.login('disposer'),
      server.login('logistics'),
    ]);
  });
  afterAll(() => server?.close());

  const db = () => server.ctx.db;
  const number12 = () => String(Date.now() % 1e8).padStart(8, '0') + String(++seq).padStart(4, '0');
  const answer = (r: ApiResponse) =>
    r.status === 200 ? { status: 200 } : { status: r.status, code: r.body?.code, message: r.body?.message };

  async function ok(r: Promise<ApiResponse>) {
    const res = await r;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }

  /** A signed-in account of a company with the given roles, made for the test. */
  async function account(username: string, companyId: number, roles: number[]): Promise<ApiClient> {
    const user = await db()
      .insertInto('sys_user')
      .values({
        username,
        nick_name: username,
        password: await hashPassword(DEMO_PASSWORD),
        company_id: companyId,
        dept_id: null,
        pwd_reset_time: sql<Date>`now()`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (roles.length)
      await db()
        .insertInto('sys_users_roles')
        .values(roles.map((role_id) => ({ user_id: user.id, role_id })))
        .execute();
    return server.login(username);
  }

  /** The id of the company of this name. */
  async function companyNamed(name: string): Promise<number> {
    return (await db().selectFrom('company').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  }

  const nameOf = async (id: number) =>
    (await db().selectFrom('company').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name;

  /** What a company account lists of the party views: each view's total. */
  async function totals(c: ApiClient): Promise<Record<number, number>> {
    const out: Record<number, number> = {};
    for (const viewId of [15, 16, 19, 20]) {
      const r = await c.get(`/api/general/list/${viewId}`, { page: 0, size: 1 });
      out[viewId] = r.status === 200 ? Number(r.body.totalElements) : -r.status;
    }
    return out;
  }

  const ongoing = async (c: ApiClient) => (await ok(c.get('/api/produceOrderDashboard', { isRefresh: 1 }))).ongoingDisposalOrder as number;

  describe('a renamed company', () => {
    it('keeps its records; a company taking its old name gains none', async () => {
      // The second company, an account of it holding the producer role (which may rename its company).
      const other = await account('changzhou', COMPANY.producer2, [ROLE.producer]);
      const otherName = await nameOf(COMPANY.producer2);
      const [mine, theirs, everyone] = await Promise.all([totals(producer), totals(other), totals(admin)]);
      const [myFigure, theirFigure] = [await ongoing(producer), await ongoing(other)];
      expect(mine[16]).toBeGreaterThan(0);
      expect(mine[19]).toBeGreaterThan(0);

      expect(await ok(producer.post('/api/companyApi/update', { name: RENAMED }))).toMatchObject({ message: '保存成功' });
      expect(await ok(other.post('/api/companyApi/update', { name: PRODUCER }))).toMatchObject({ message: '保存成功' });
      try {
        expect(await totals(producer)).toEqual(mine);
        expect(await totals(other)).toEqual(theirs);
        expect(await totals(admin)).toEqual(everyone);
        expect(await ongoing(producer)).toBe(myFigure);
        expect(await ongoing(other)).toBe(theirFigure);
        // The records name the company by id; its name is the label answered beside it.
        const orders = (await ok(producer.get('/api/general/list/19', { page: 0, size: 1000, producerId: COMPANY.producer }))).content;
        expect(orders.length).toBeGreaterThan(0);
        for (const o of orders) expect(o).toMatchObject({ producerId: COMPANY.producer, producerIdFmt: RENAMED });
        const contracts = (await ok(other.get('/api/general/list/16', { page: 0, size: 1000 }))).content as Record<string, unknown>[];
        expect(contracts.every((c) => c.partyAId === COMPANY.producer2 || c.partyBId === COMPANY.producer2)).toBe(true);
      } finally {
        await ok(other.post('/api/companyApi/update', { name: otherName }));
        await ok(producer.post('/api/companyApi/update', { name: PRODUCER }));
      }
    });

    it('is refused to an account without company:edit, which still saves the rest of the company', async () => {
      // A role of the producing company's own, with its pages but not the button that renames.
      const role = await db()
        .insertInto('sys_role')
        .values({ name: '仓库管理员（测试）', level: 3, description: null, data_scope: '本企业' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db()
        .insertInto('sys_roles_menus')
        .values([MENU.dashboard, MENU.center].map((menu_id) => ({ role_id: role.id, menu_id })))
        .execute();
      const clerk = await account('huarui-clerk', COMPANY.producer, [role.id]);
      const refused = await clerk.post('/api/companyApi/update', { name: RENAMED });
      expect(answer(refused)).toEqual(refusal(403, 'COMPANY_RENAME_DENIED'));
      expect(await nameOf(COMPANY.producer)).toBe(PRODUCER);
      // Its own name as it stands is no rename; the address saves.
      expect(await ok(clerk.post('/api/companyApi/update', { name: PRODUCER, address: '青花路128号' }))).toMatchObject({
        message: '保存成功',
      });
      // The seeded company roles hold the button; an administrator may rename any company.
      const held = await sql<{ n: number }>`select count(*)::int as n from sys_roles_menus rm join sys_menu m on m.id = rm.menu_id
      where m.permission = 'company:edit' and rm.role_id in (${sql.join([ROLE.producer, ROLE.disposer, ROLE.logistics, ROLE.collector])})`.execute(
        db(),
      );
      expect(held.rows[0]?.n).toBe(4);
      await ok(admin.post('/api/companyApi/update', { id: COMPANY.producer, name: RENAMED }));
      await ok(admin.post('/api/companyApi/update', { id: COMPANY.producer, name: PRODUCER }));
    });
  });

  describe('party pickers', () => {
    it('offer and store company ids of the field’s types only', async () => {
      const types = async (type: string) =>
        new Set(((await ok(disposer.get('/api/company/list', { type }))).content as { type: string }[]).map((c) => c.type));
      expect(await types('1,2,4')).toEqual(new Set(['1', '2', '4']));
      expect(await types('3')).toEqual(new Set(['3']));
      const order = {
        orderNo: `CZ${number12()}`,
        producerId: COMPANY.producer,
        disposerId: COMPANY.disposer,
        wasteCategory: 'HW08',
        quantity: 2,
        price: 2000,
        orderStatus: '0',
        needPrepay: '2',
      };
      // A carrier that is no logistics company, a disposer that is a producer: refused, nothing written.
      for (const [field, value, label] of [
        ['carrierId', COMPANY.producer, '运输单位'],
        ['disposerId', COMPANY.producer2, '处置单位'],
        ['producerId', COMPANY.logistics, '产废单位'],
      ] as const) {
        const r = await disposer.post('/api/general/add/19', { ...order, [field]: value });
        expect({ field, status: r.status, errors: r.body.errors }).toEqual({
          field,
          status: 400,
          errors: [{ field, message: errorMessage('REFERENCE_OUT_OF_SCOPE', { label }) }],
        });
      }
      const made = await ok(disposer.post('/api/general/add/19', { ...order, carrierId: COMPANY.logistics }));
      expect(await ok(disposer.get('/api/general/detail', { generalId: 19, id: made.id }))).toMatchObject({
        producerIdFmt: PRODUCER,
        disposerIdFmt: DISPOSER,
        carrierId: COMPANY.logistics,
        carrierIdFmt: await nameOf(COMPANY.logistics),
      });
    });
  });

  describe('the carrier named on a disposal order', () => {
    const SECOND_CARRIER = '苏州安运危险品物流有限公司';

    /** The disposal orders a company is party to, counted here in SQL: created by it or naming it. */
    async function ordersOf(companyId: number): Promise<number[]> {
      const r = await sql<{ id: number }>`select id from lc_view_19 where create_company = ${companyId}
      or "producerId" = ${companyId} or "disposerId" = ${companyId} or "carrierId" = ${companyId} order by id`.execute(db());
      return r.rows.map((x) => Number(x.id));
    }

    /** The first disposal order that is none of these. */
    const outside = async (ids: number[]) =>
      Number(
        (await sql<{ id: number }>`select min(id) as id from lc_view_19 where id not in (${sql.join(ids)})`.execute(db())).rows[0]!.id,
      );

    const offered = async (c: ApiClient) =>
      ((await ok(c.get('/api/general/allList/19/queryLink'))).map((o: { value: number }) => Number(o.value)) as number[]).sort(
        (a, b) => a - b,
      );

    const vehicleOf = async (c: ApiClient) => ((await ok(c.get('/api/general/allList/17/queryLink'))) as { value: number }[])[0]!.value;

    const waybill = (disposalOrderId: number, vehicleId: number) => ({
      waybillNo: `WL${number12()}`,
      disposalOrderId,
      vehicleId,
      fromRegion: '320000,320500,320505',
      fromAddress: '苏州高新区浒墅关经济开发区青花路128号',
      toAddress: '江宁区滨江经济开发区丽水大街1186号',
      weight: 3,
      orderStatus: '1',
    });

    it('is seeded: the seeded carrier carries some orders, another carrier others', async () => {
      const second = await companyNamed(SECOND_CARRIER);
      const carried = await sql<{ carrier: number | null; n: number }>`select "carrierId" as carrier, count(*)::int as n
      from lc_view_19 group by 1`.execute(db());
      const of = (id: number) => carried.rows.find((r) => r.carrier === id)?.n ?? 0;
      expect(of(COMPANY.logistics)).toBeGreaterThan(0);
      expect(of(second)).toBeGreaterThan(0);
      // Each seeded waybill is written by the carrier its order names.
      const strays = await sql<{ n: number }>`select count(*)::int as n from lc_view_20 l join lc_view_19 o on o.id = l."disposalOrderId"
      where o."carrierId" is distinct from l.create_company`.execute(db());
      expect(strays.rows[0]?.n).toBe(0);
    });

    it('is all a logistics company lists and picks of the disposal orders', async () => {
      const all = await sql<{ n: number }>`select count(*)::int as n from lc_view_19`.execute(db());
      const mine = await ordersOf(COMPANY.logistics);
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.length).toBeLessThan(all.rows[0]!.n);
      expect(await offered(logistics)).toEqual(mine);
      const list = await ok(logistics.get('/api/general/list/19', { page: 0, size: 1000 }));
      expect((list.content as { id: number }[]).map((o) => o.id).sort((a, b) => a - b)).toEqual(mine);
      const foreign = await outside(mine);
      const missing = await logistics.get('/api/general/detail', { generalId: 19, id: 999_999 });
      expect(answer(await logistics.get('/api/general/detail', { generalId: 19, id: foreign }))).toEqual(answer(missing));
      expect(missing.status).toBe(404);
      // A collection point that draws orders for a waybill without listing them picks among its own only.
      const collector = await server.login('collector');
      expect(await offered(collector)).toEqual(await ordersOf(COMPANY.collector));
    });

    it('lets the carrier write waybills only for the orders naming it, and tells it nothing of another order', async () => {
      const mine = await ordersOf(COMPANY.logistics);
      const foreign = await outside(mine);
      const vehicle = await vehicleOf(logistics);
      const refused = await logistics.post('/api/general/add/20', waybill(foreign, vehicle));
      expect({ status: refused.status, errors: refused.body.errors }).toEqual({
        status: 400,
        errors: [{ field: 'disposalOrderId', message: errorMessage('REFERENCE_OUT_OF_SCOPE', { label: '处置订单' }) }],
      });
      const written = await sql<{ n: number }>`select count(*)::int as n from lc_view_20 where "disposalOrderId" = ${foreign}
      and create_company = ${COMPANY.logistics}`.execute(db());
      expect(written.rows[0]?.n).toBe(0);
      const own = await ok(logistics.post('/api/general/add/20', waybill(mine[0]!, vehicle)));
      for (const path of ['/api/logisticsOrder/getTransportInfo', '/api/logisticsOrder/getLogisticsLinkman']) {
        expect((await logistics.get(path, { id: own.id })).status, path).toBe(200);
      }

      // A waybill of its own that names another's order (written before orders named their carrier).
      const stray = await sql<{ id: number }>`insert into lc_view_20 ("waybillNo", "disposalOrderId", "vehicleId", weight, "orderStatus",
        create_by, create_company) values (${`WL${number12()}`}, ${foreign}, ${vehicle}, 2, '1', 'logistics', ${COMPANY.logistics})
      returning id`.execute(db());
      const strayId = Number(stray.rows[0]!.id);
      changeView(server.ctx, 20);
      for (const path of ['/api/logisticsOrder/getTransportInfo', '/api/logisticsOrder/getLogisticsLinkman']) {
        expect({ path, ...answer(await logistics.get(path, { id: strayId })) }).toEqual({
          path,
          ...refusal(404, 'LOGISTICS_ORDER_NOT_FOUND'),
        });
        expect((await admin.get(path, { id: strayId })).status, path).toBe(200);
      }
      const page = await ok(logistics.get('/api/logisticsOrder/byWarehouseId', { page: 0, size: 1000 }));
      const row = (page.content as Record<string, unknown>[]).find((r) => r.id === strayId);
      expect(row).toMatchObject({ orderNo: null, producerName: null, disposerName: null, warehouseId: null });
      const stock = await sql<{ w: number | null }>`select s."warehouseId" as w from lc_view_19 o join lc_view_12 s on s.id = o."stockId"
      where o.id = ${foreign}`.execute(db());
      const warehouses = (await ok(logistics.get('/api/logisticsOrder/warehouses'))).content as { id: number }[];
      const ownWarehouses = await sql<{ w: number }>`select s."warehouseId" as w from lc_view_19 o join lc_view_12 s on s.id = o."stockId"
      where o.id in (${sql.join(mine)})`.execute(db());
      if (stock.rows[0]?.w && !ownWarehouses.rows.some((r) => Number(r.w) === Number(stock.rows[0]!.w))) {
        expect(warehouses.map((w) => w.id)).not.toContain(Number(stock.rows[0]!.w));
      }
    });

    it('holds for a carrier whose role writes waybills without listing disposal orders', async () => {
      const role = await db()
        .insertInto('sys_role')
        .values({ name: '调度员（测试）', level: 3, description: null, data_scope: '本企业' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const menus = await db()
        .selectFrom('sys_menu')
        .select('id')
        .where('permission', 'in', ['logisticsOrder:list', 'logisticsOrder:add'])
        .execute();
      await db()
        .insertInto('sys_roles_menus')
        .values(menus.map((m) => ({ role_id: role.id, menu_id: m.id })))
        .execute();
      const dispatcher = await account('shunan-dispatch', COMPANY.logistics, [role.id]);
      expect((await dispatcher.get('/api/general/list/19')).status).toBe(403);
      // The waybill form's picker and its write offer the orders naming the carrier, by label, and no others.
      const mine = await ordersOf(COMPANY.logistics);
      expect(await offered(dispatcher)).toEqual(mine);
      const vehicle = await vehicleOf(dispatcher);
      const refused = await dispatcher.post('/api/general/add/20', waybill(await outside(mine), vehicle));
      expect({ status: refused.status, errors: refused.body.errors }).toEqual({
        status: 400,
        errors: [{ field: 'disposalOrderId', message: errorMessage('REFERENCE_OUT_OF_SCOPE', { label: '处置订单' }) }],
      });
      await ok(dispatcher.post('/api/general/add/20', waybill(mine[0]!, vehicle)));
    });

    it('keeps a second carrier to the orders naming it', async () => {
      const second = await companyNamed(SECOND_CARRIER);
      const carrier = await account('anyun', second, [ROLE.logistics]);
      const theirs = await ordersOf(second);
      const first = await ordersOf(COMPANY.logistics);
      expect(theirs.length).toBeGreaterThan(0);
      expect(theirs.filter((id) => first.includes(id))).toEqual([]);
      expect(await offered(carrier)).toEqual(theirs);
      const list = await ok(carrier.get('/api/general/list/19', { page: 0, size: 1000 }));
      expect((list.content as { id: number }[]).map((o) => o.id).sort((a, b) => a - b)).toEqual(theirs);
      // Its waybills are those of its orders; the first carrier's are missing to it, and its to the first.
      const waybills = await ok(carrier.get('/api/general/list/20', { page: 0, size: 1000 }));
      const ids = (waybills.content as { id: number; disposalOrderId: number }[]).map((w) => w.disposalOrderId);
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.every((id) => theirs.includes(id))).toBe(true);
      const waybillOf = async (companyId: number) =>
        Number(
          (await sql<{ id: number }>`select min(id) as id from lc_view_20 where create_company = ${companyId}`.execute(db())).rows[0]!.id,
        );
      const [firstsWaybill, secondsWaybill] = [await waybillOf(COMPANY.logistics), await waybillOf(second)];
      for (const path of ['/api/logisticsOrder/getTransportInfo', '/api/logisticsOrder/getLogisticsLinkman']) {
        expect(answer(await carrier.get(path, { id: firstsWaybill }))).toEqual(refusal(404, 'LOGISTICS_ORDER_NOT_FOUND'));
        expect(answer(await logistics.get(path, { id: secondsWaybill }))).toEqual(refusal(404, 'LOGISTICS_ORDER_NOT_FOUND'));
        expect((await carrier.get(path, { id: secondsWaybill })).status).toBe(200);
      }
      const refused = await carrier.post('/api/general/add/20', waybill(first[0]!, await vehicleOf(carrier)));
      expect(refused.status).toBe(400);
    });
  });

  describe('migration 0027_parties_by_id', () => {
    type Json = Record<string, any>;
    afterEach(() => vi.restoreAllMocks());

    const definition = async (id: number) => {
      const r = await sql<{ dis_template: string; version: number }>`select dis_template, version from lc_generation
      where id = ${id}`.execute(db());
      return { template: JSON.parse(r.rows[0]!.dis_template) as Json, version: r.rows[0]!.version };
    };
    const listOf = (t: Json, key: string) => (Array.isArray(t[key]) ? t[key] : t[key].items) as Json[];

    /** A draft copy of a seeded view as designed before: its party pickers as text fields, without 运输单位. */
    async function olderCopy(id: number, from: number, componentName: string, names: Record<string, string>) {
      const { template } = await definition(from);
      for (const key of ['tableOption', 'formOption']) {
        const list = listOf(template, key).filter((f) => f.name !== 'carrierId');
        list.forEach((f, i) => {
          f.configure.sort = i + 1;
          const old = names[f.name];
          if (!old) return;
          f.name = old;
          f.dataType = 'varchar';
          for (const k of Object.keys(f.configure)) if (k.startsWith('sportData')) delete f.configure[k];
        });
        template[key] = list;
      }
      const row = { id, name: `旧版${componentName}`, status: 0, dis_menu: JSON.stringify({ componentName, name: '旧版' }) };
      await sql`insert into lc_generation (id, name, status, dis_menu, dis_template)
      values (${id}, ${row.name}, 0, ${row.dis_menu}, ${JSON.stringify(template)})`.execute(db());
      await syncViewTable(db(), readView({ ...row, dis_template: JSON.stringify(template) })!);
    }

    it('turns text parties into company ids, lists and keeps the texts it cannot match, and a second run changes nothing', async () => {
      const migration = migrations['0027_parties_by_id'];
      if (!migration) throw new Error('migration 0027_parties_by_id is not registered');
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      // A company whose name has letters: matched without case or spaces when no name is exactly the text.
      const acme = await db()
        .insertInto('company')
        .values({ name: 'Acme环保科技有限公司', type: '2' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await olderCopy(901, 16, 'contract', { partyAId: 'partyA', partyBId: 'partyB' });
      await olderCopy(902, 19, 'disposalOrder', { producerId: 'producerName', disposerId: 'disposerName' });
      const contracts = await sql<{ id: number }>`insert into lc_view_901 ("contractNo", "partyA", "partyB", create_company) values
      ('HT2020-0001', ${PRODUCER}, ${DISPOSER}, ${COMPANY.producer}),
      ('HT2020-0002', ${` ${PRODUCER}  `}, 'ACME 环保科技有限公司', ${COMPANY.producer}),
      ('HT2020-0003', '华瑞化工', '', ${COMPANY.producer}) returning id`.execute(db());
      const orders = await sql<{ id: number }>`insert into lc_view_902 ("orderNo", "producerName", "disposerName", create_company) values
      ('CZ202001010001', ${PRODUCER}, ${DISPOSER}, ${COMPANY.disposer}),
      ('CZ202001010002', ${PRODUCER}, '江苏绿源环保', ${COMPANY.disposer}) returning id`.execute(db());
      const [c1, c2, c3] = contracts.rows.map((r) => Number(r.id)) as [number, number, number];
      const [o1, o2] = orders.rows.map((r) => Number(r.id)) as [number, number];
      // The seeded 最新处置订单 data view as it read the producer's name.
      const latest = await sql<{ sql: string }>`select sql from lc_data_view where id = 8`.execute(db());
      await sql`update lc_data_view set sql = ${`select "orderNo" as "订单编号", "producerName" as "产废单位", quantity as "数量（吨）", to_char(create_time, 'MM-DD HH24:MI') as "下单时间"
from lc_view_19
order by create_time desc, id desc
limit 20`} where id = 8`.execute(db());

      await migration.up(db() as unknown as Kysely<unknown>);

      // The fields pick companies of their types, and the order view names its carrier after its disposer.
      const seededContract = await definition(16);
      const seededOrder = await definition(19);
      for (const [id, seeded] of [
        [901, seededContract],
        [902, seededOrder],
      ] as const) {
        const after = await definition(id);
        expect(after.version).toBe(1);
        for (const key of ['tableOption', 'formOption']) {
          const names = (t: Json) => listOf(t, key).map((f) => f.name);
          expect(names(after.template), `${id} ${key}`).toEqual(names(seeded.template));
          for (const f of listOf(after.template, key)) {
            const same = listOf(seeded.template, key).find((s) => s.name === f.name)!;
            if (f.dataType === 'long')
              expect({ ...f, configure: { ...f.configure, sort: 0 } }).toEqual({ ...same, configure: { ...same.configure, sort: 0 } });
          }
        }
      }
      const rows = async (table: string, columns: string[]) =>
        (
          await sql<Json>`select id, ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(table)} order by id`.execute(db())
        ).rows.map((r) => ({ ...r, id: Number(r.id) }));
      expect(await rows('lc_view_901', ['partyAId', 'partyBId', 'partyA'])).toEqual([
        { id: c1, partyAId: COMPANY.producer, partyBId: COMPANY.disposer, partyA: PRODUCER },
        { id: c2, partyAId: COMPANY.producer, partyBId: acme.id, partyA: ` ${PRODUCER}  ` },
        { id: c3, partyAId: null, partyBId: null, partyA: '华瑞化工' },
      ]);
      expect(await rows('lc_view_902', ['producerId', 'disposerId', 'carrierId'])).toEqual([
        { id: o1, producerId: COMPANY.producer, disposerId: COMPANY.disposer, carrierId: null },
        { id: o2, producerId: COMPANY.producer, disposerId: null, carrierId: null },
      ]);
      // What no company matched is listed and kept; an empty party is no party.
      const unmatched = [
        { view_id: 901, record_id: c3, field: 'partyA', text: '华瑞化工' },
        { view_id: 902, record_id: o2, field: 'disposerName', text: '江苏绿源环保' },
      ];
      const kept = await sql<Json>`select view_id, record_id, field, text from party_unmatched order by view_id, record_id`.execute(db());
      expect(kept.rows.map((r) => ({ ...r, record_id: Number(r.record_id) }))).toEqual(unmatched);
      const logged = warn.mock.calls.map((c) => c.join(' ')).join('\n');
      const titles: Record<number, string> = { 901: '旧版contract', 902: '旧版disposalOrder' };
      for (const u of unmatched) {
        expect(logged).toContain(`view ${u.view_id} (${titles[u.view_id]}) record ${u.record_id} ${u.field}: "${u.text}"`);
      }
      expect((await sql<{ sql: string }>`select sql from lc_data_view where id = 8`.execute(db())).rows[0]?.sql).toBe(latest.rows[0]!.sql);

      // The pages answer the companies' names as the labels of the ids.
      changeView(server.ctx, 901);
      const listed = await ok(admin.get('/api/general/list/901', { page: 0, size: 10, sort: 'id,asc' }));
      expect(listed.content.map((r: Json) => [r.partyAIdFmt, r.partyBIdFmt])).toEqual([
        [PRODUCER, DISPOSER],
        [PRODUCER, 'Acme环保科技有限公司'],
        [null, null],
      ]);

      warn.mockClear();
      await migration.up(db() as unknown as Kysely<unknown>);
      expect((await definition(901)).version).toBe(1);
      expect((await definition(902)).version).toBe(1);
      expect((await definition(16)).version).toBe(seededContract.version);
      expect(await rows('lc_view_902', ['producerId', 'disposerId'])).toEqual([
        { id: o1, producerId: COMPANY.producer, disposerId: COMPANY.disposer },
        { id: o2, producerId: COMPANY.producer, disposerId: null },
      ]);
      expect((await sql<{ n: number }>`select count(*)::int as n from party_unmatched`.execute(db())).rows[0]?.n).toBe(2);
    });
  });
}
