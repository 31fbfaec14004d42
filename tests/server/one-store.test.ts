import { type Kysely, Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database.js';
import { migrations } from '../../server/db/migrations/index.js';
import type { DB } from '../../server/db/schema.js';
import { syncViewTable } from '../../server/lowcode/ddl.js';
import { readView } from '../../server/lowcode/view-model.js';
import { COMPANY } from '../../server/seed/ids.js';
import { VIEW_SEEDS } from '../../server/seed/lowcode-definitions.js';
import { formatDate } from '../../src/shared/format.js';
import type { ApiClient, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';

/**
 * Warehouses and contracts have one store, the records of 企业仓库 (view 14) and 合同管理 (view 16):
 * what a user adds on those pages is what the core calls offer and count (入库仓库 options, the
 * dashboards' warehouses, expiring contracts, the contract picker of a manual disposal order), and what
 * the core calls write refers to those records. A database from before keeps its warehouses and
 * contracts, moved into the view tables under new ids that its stock-ins and limits follow.
 */

const PRODUCER = '苏州华瑞精细化工有限公司';
const DISPOSER = '江苏绿源环保科技有限公司';
const day = (offset: number) => formatDate(Date.now() + offset * 86_400_000, 'YYYY-MM-DD');
const now = () => formatDate(Date.now(), 'YYYY-MM-DD HH:mm:ss');

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;
let disposer: ApiClient;
let seq = 0;

beforeAll(async () => {
  server = await startTestServer();
  [admin, producer, disposer] = await Promise.all([server.login('admin'), server.login('producer'), server.login('disposer')]);
});
afterAll(() => server?.close());

async function ok(c: ApiClient, method: 'GET' | 'POST', path: string, body?: unknown) {
  const r = method === 'GET' ? await c.get(path, body as Record<string, unknown>) : await c.post(path, body);
  expect(r.status, `${path} ${JSON.stringify(r.body)}`).toBe(200);
  return r.body;
}

const warehouseIds = async (c: ApiClient) =>
  ((await ok(c, 'GET', '/api/companyWarehouse/list')).content as { id: number }[]).map((w) => w.id);
const expiring = async (c: ApiClient) => (await ok(c, 'GET', '/api/expiringContracts')).count as number;
const pickable = async (c: ApiClient) =>
  ((await ok(c, 'GET', '/api/disposalOrder/effectiveContract', { partyACompany: COMPANY.producer })).data as { contractNo: string }[]).map(
    (x) => x.contractNo,
  );

async function addWarehouse(c: ApiClient, fields: Record<string, unknown> = {}): Promise<number> {
  const body = await ok(c, 'POST', '/api/general/add/14', {
    name: `三号危废暂存库${++seq}`,
    region: '320000,320500,320505',
    regionFmt: '江苏省/苏州市/虎丘区',
    address: '苏州高新区浒墅关经济开发区青花路128号厂区西侧',
    linkman: '李秀英',
    phone: '13851608842',
    unloadingPoint: '2',
    status: '1',
    ...fields,
  });
  return body.id as number;
}

async function addContract(c: ApiClient, fields: Record<string, unknown> = {}): Promise<{ id: number; contractNo: string }> {
  const contractNo = `HT2026-${String(9000 + ++seq)}`;
  const body = await ok(c, 'POST', '/api/general/add/16', {
    contractNo,
    contractName: `${PRODUCER}危险废物委托处置合同`,
    partyAId: COMPANY.producer,
    partyBId: COMPANY.disposer,
    amount: 88000,
    signDate: day(-355),
    beginDate: day(-355),
    endDate: day(10),
    contractStatus: '2',
    ...fields,
  });
  return { id: body.id as number, contractNo };
}

describe('warehouses: 企业仓库 is the store', () => {
  it('offers a warehouse added on the page in 入库仓库 and lists it on the dashboard, for its company only', async () => {
    const id = await addWarehouse(producer);
    const options = await ok(producer, 'GET', '/api/companyWarehouse/list');
    expect(options.content).toContainEqual({
      id,
      name: `三号危废暂存库${seq}`,
      region: '320000,320500,320505',
      regionFmt: '江苏省/苏州市/虎丘区',
      address: '苏州高新区浒墅关经济开发区青花路128号厂区西侧',
      linkmanId: expect.any(Number),
      linkmanName: '李秀英',
      phone: '13851608842',
    });
    expect(await warehouseIds(disposer)).not.toContain(id);
    const board = await ok(producer, 'GET', '/api/companyWarehouse/warehouse', { isRefresh: 1 });
    expect(board.content.find((w: { id: number }) => w.id === id)).toMatchObject({ companyId: COMPANY.producer, inventory: 0 });
    // The SQL view names the company the record was created in.
    const row = await server.ctx.db
      .selectFrom('company_warehouse')
      .select(['company_id', 'unloading_point'])
      .where('id', '=', id)
      .execute();
    expect(row).toEqual([{ company_id: COMPANY.producer, unloading_point: false }]);
  });

  it('follows edits and deletes of the record', async () => {
    const id = await addWarehouse(producer);
    const unloading = async () =>
      ((await ok(producer, 'GET', '/api/companyWarehouse/unloadingPoint')).data as { id: number }[]).map((w) => w.id);
    expect(await unloading()).not.toContain(id);
    await ok(producer, 'POST', '/api/general/update/14', { id, unloadingPoint: '1' });
    expect(await unloading()).toContain(id);
    await ok(producer, 'POST', '/api/general/delete/14', [id]);
    expect(await warehouseIds(producer)).not.toContain(id);
    expect(await unloading()).not.toContain(id);
  });

  it('holds the stock a core call and the stock-in page put into it', async () => {
    const id = await addWarehouse(producer);
    const core = await ok(producer, 'POST', '/api/companyInventory', {
      wasteCategory: 'HW08',
      wasteCode: '900-249-08',
      wasteName: '废矿物油',
      quantity: 2.5,
      packageType: '2',
      warehouseId: id,
    });
    await ok(producer, 'POST', '/api/general/add/12', {
      stockNo: `RK${String(Date.now() % 1e8).padStart(8, '0')}${String(++seq).padStart(4, '0')}`,
      wasteCategory: 'HW49',
      wasteCode: '900-041-49',
      wasteName: '废包装桶',
      quantity: 1.25,
      packageType: '5',
      warehouseId: id,
      inTime: now(),
      handler: '李秀英',
    });
    expect((await ok(producer, 'GET', '/api/general/detail', { generalId: 12, id: core.id })).warehouseId).toBe(id);
    const held = await ok(producer, 'GET', '/api/companyWarehouse/Inventorys', { warehouseId: id, isRefresh: 1 });
    expect(held).toMatchObject({ warehouseId: id, warehouseName: expect.stringMatching(/^三号危废暂存库\d+$/), total: 3.75 });
    expect(held.content.map((l: { category: string }) => l.category).sort()).toEqual(['HW08', 'HW49']);
    const board = await ok(producer, 'GET', '/api/companyWarehouse/warehouse', { isRefresh: 1 });
    expect(board.content.find((w: { id: number }) => w.id === id)).toMatchObject({ inventory: 3.75, count: 2 });
    // Another company's warehouse is not the producer's to stock.
    const foreign = (await warehouseIds(disposer))[0];
    expect((await producer.post('/api/companyInventory', { wasteName: '废包装桶', quantity: 1, warehouseId: foreign })).status).not.toBe(
      200,
    );
  });
});

describe('contracts: 合同管理 is the store', () => {
  it('counts a contract added on the page among those expiring, on the dashboard alike, for both parties', async () => {
    const tile = async (c: ApiClient) => (await ok(c, 'GET', '/api/produceOrderDashboard', { isRefresh: 1 })).count as number;
    const [p0, d0, t0] = await Promise.all([expiring(producer), expiring(disposer), tile(producer)]);
    expect(p0).toBe(t0);
    const { contractNo } = await addContract(disposer);
    expect(await expiring(producer)).toBe(p0 + 1);
    expect(await expiring(disposer)).toBe(d0 + 1);
    expect(await tile(producer)).toBe(await expiring(producer));
    // A draft binds no one: neither counted nor offered.
    const draft = await addContract(disposer, { contractStatus: '0' });
    expect(await expiring(producer)).toBe(p0 + 1);
    expect(await pickable(disposer)).toContain(contractNo);
    expect(await pickable(disposer)).not.toContain(draft.contractNo);
    // Signing it (生效中) makes it one.
    await ok(disposer, 'POST', '/api/general/update/16', { id: draft.id, contractStatus: '2' });
    expect(await expiring(producer)).toBe(p0 + 2);
    expect(await pickable(disposer)).toContain(draft.contractNo);
  });

  it('offers the contract to a manual disposal order, which carries its number', async () => {
    const { id, contractNo } = await addContract(disposer, { endDate: day(200) });
    const picked = (await ok(disposer, 'GET', '/api/disposalOrder/effectiveContract', { partyACompany: COMPANY.producer })).data.find(
      (c: { id: number }) => c.id === id,
    );
    expect(picked).toMatchObject({ contractNo, partyAName: '王丽华', partyARegion: '320000,320500,320505', endTime: day(200) });
    const unloading = (await ok(disposer, 'GET', '/api/companyWarehouse/unloadingPoint')).data[0];
    const order = await ok(disposer, 'POST', '/api/disposalOrder/insertManualDisposalOrder', {
      types: '1',
      needPrepay: 0,
      partyACompany: String(COMPANY.producer),
      partyACompanyName: PRODUCER,
      contractId: id,
      partyBWarehouseId: unloading.id,
      wasteCategoryCode: '900-249-08',
      wasteCategoryName: '废矿物油',
      quantity: '2',
      unit: '吨',
      price: '2000',
      estDisposalTime: day(7),
    });
    const row = await ok(disposer, 'GET', '/api/general/detail', { generalId: 19, id: order.id });
    expect(row).toMatchObject({
      contractNo,
      producerId: COMPANY.producer,
      producerIdFmt: PRODUCER,
      disposerId: COMPANY.disposer,
      disposerIdFmt: DISPOSER,
    });
  });

  it('reads a contract whose fields were retyped by a redesign', async () => {
    const detail = await ok(admin, 'GET', '/api/generation/detail', { id: 16 });
    const template = JSON.parse(detail.disTemplate);
    const retype = (list: { name: string; dataType: string }[] | undefined) => {
      for (const f of list ?? []) if (f.name === 'amount') f.dataType = 'varchar';
    };
    retype(template.tableOption);
    retype(template.formOption);
    await ok(admin, 'POST', '/api/generation/design', { id: 16, disTemplate: JSON.stringify(template) });
    const { id } = await addContract(disposer, { amount: '12345.5' });
    const row = await server.ctx.db.selectFrom('company_contract').select('amount').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.amount).toBe(12345.5);
  });
});

describe('data views', () => {
  it('read both SQL views, also after a redesign rebuilt them (on PostgreSQL, as the data-view role)', async () => {
    const count = async (table: string) =>
      Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(server.ctx.db)).rows[0]?.n);
    for (const table of ['company_warehouse', 'company_contract']) {
      const run = await ok(admin, 'POST', '/api/data/run', { sql: `select count(*) as n from ${table}` });
      expect(Number(run.list[0].n), table).toBe(await count(table));
      expect(await count(table), table).toBeGreaterThan(0);
    }
  });
});

describe('a business view re-created under another id', () => {
  it('feeds the core calls from the view that wins its componentName, and an empty one when none is left', async () => {
    const detail = await ok(admin, 'GET', '/api/generation/detail', { id: 14 });
    const add = await ok(admin, 'POST', '/api/generation/add', {
      name: '企业仓库（新）',
      disMenu: detail.disMenu,
      disTemplate: detail.disTemplate,
      status: 1,
    });
    // Both published: the lower id (14) still wins.
    const fresh = await addWarehouse(producer);
    expect(await warehouseIds(producer)).toContain(fresh);
    // 14 back to a draft: the new view wins, and its (empty) table is the store.
    await ok(admin, 'POST', '/api/generation/update', { id: 14, name: detail.name, status: 0 });
    expect(await warehouseIds(producer)).toEqual([]);
    const moved = await ok(producer, 'POST', `/api/general/add/${add.id}`, {
      name: '新库',
      region: '320000,320500,320505',
      address: '苏州高新区青花路128号',
      linkman: '李秀英',
      phone: '13851608842',
    });
    expect(await warehouseIds(producer)).toEqual([moved.id]);
    // Deleting it leaves 14, and deleting that leaves no warehouses at all, but the calls still answer.
    await ok(admin, 'POST', '/api/generation/delete', [add.id]);
    expect(await warehouseIds(producer)).toContain(fresh);
    await ok(admin, 'POST', '/api/generation/delete', [14]);
    expect(await warehouseIds(producer)).toEqual([]);
    expect((await ok(admin, 'GET', '/api/companyWarehouse/warehouse', { isRefresh: 1 })).content).toEqual([]);
  });
});

/** A contract template as designed before its parties were company ids: 甲方 and 乙方 as text (partyA, partyB). */
function partiesByName(template: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(template) as Record<string, { name: string; dataType: string; configure: Record<string, unknown> }[]>;
  for (const key of ['tableOption', 'formOption']) {
    for (const f of copy[key] ?? []) {
      if (f.name !== 'partyAId' && f.name !== 'partyBId') continue;
      f.name = f.name.replace(/Id$/, '');
      f.dataType = 'varchar';
      for (const k of Object.keys(f.configure)) if (k.startsWith('sportData')) delete f.configure[k];
    }
  }
  return copy;
}

describe('migration 0012_one_store', () => {
  const kindOf = async (db: Kysely<DB>, name: string) =>
    (await sql<{ kind: string }>`select relkind as kind from pg_class where oid = to_regclass(${name})`.execute(db)).rows[0]?.kind;

  it('on a fresh database, leaves SQL views without rows in place of the core tables', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      const migrator = new Migrator({ db: database.db, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await kindOf(database.db, 'company_warehouse')).toBe('v');
      expect(await kindOf(database.db, 'company_contract')).toBe('v');
      expect(await database.db.selectFrom('company_warehouse').selectAll().execute()).toEqual([]);
      expect(await database.db.selectFrom('company_contract').selectAll().execute()).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('moves the core rows into the view tables, and the records and limits that picked a warehouse follow it to its new id', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    const db = database.db;
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo('0011_data_scope')).error).toBeUndefined();
      // A database as 0011 left it: companies, a user, the business views with their tables.
      await sql`insert into company (id, name, type) values (1, ${PRODUCER}, '1'), (2, ${DISPOSER}, '2')`.execute(db);
      await sql`insert into sys_dept (id, name) values (3, '产废企业部')`.execute(db);
      await sql`insert into sys_user (id, username, nick_name, password, dept_id, company_id)
        values (3, 'producer', '王丽华', 'x', 3, 1)`.execute(db);
      await sql`insert into company_linkman (id, company_id, name, phone) values (11, 1, '李秀英', '13851608842')`.execute(db);
      for (const name of ['stockIn', 'warehouse', 'contract']) {
        const v = VIEW_SEEDS.find((x) => x.componentName === name)!;
        const row = {
          id: v.id,
          name: v.title,
          status: 1,
          dis_menu: JSON.stringify({ componentName: name, name: v.title }),
          dis_template: JSON.stringify(name === 'contract' ? partiesByName(v.template) : v.template),
        };
        await sql`insert into lc_generation (id, name, status, dis_menu, dis_template)
          values (${row.id}, ${row.name}, 1, ${row.dis_menu}, ${row.dis_template})`.execute(db);
        await syncViewTable(db, readView(row)!);
      }
      // A view of the users' own whose field picks an unloading point.
      const transfer = {
        id: 30,
        name: '卸货登记',
        status: 0,
        dis_menu: JSON.stringify({ componentName: 'unloading', name: '卸货登记' }),
        dis_template: JSON.stringify({
          tableOption: [
            {
              name: 'point',
              chName: '卸货点',
              dataType: 'long',
              configure: { sportData: true, sportData_type: 'list', sportData_url: '/api/companyWarehouse/unloadingPoint' },
            },
          ],
        }),
      };
      await sql`insert into lc_generation (id, name, status, dis_menu, dis_template)
        values (${transfer.id}, ${transfer.name}, 0, ${transfer.dis_menu}, ${transfer.dis_template})`.execute(db);
      await syncViewTable(db, readView(transfer)!);
      await sql`insert into lc_view_30 (point) values (2), (null)`.execute(db);
      // The view table already holds a warehouse of its own, whose id 1 is also a core warehouse's.
      await sql`insert into lc_view_14 (name, create_by, create_company) values ('已有仓库', 'producer', 1)`.execute(db);
      await sql`insert into company_warehouse (id, company_id, name, region, region_fmt, address, linkman_id, unloading_point)
        values (1, 1, '一号危废暂存库', '320000,320500,320505', '江苏省/苏州市/虎丘区', '青花路128号', 11, false),
               (2, 2, '焚烧车间卸料区', '320000,320100,320115', '江苏省/南京市/江宁区', '丽水大街1186号', null, true)`.execute(db);
      await sql`insert into company_contract (contract_no, party_a_company, party_a_name, party_a_user_id, party_b_company,
          begin_time, end_time, amount, file_path)
        values ('WF-HT-2026-0012', 1, '王丽华', 3, 2, current_date - 353, current_date + 12, 186000, '[{"fileName":"a.pdf","filePath":"2026/01/a.pdf"}]'),
               ('WF-HT-2025-0173', 1, '王丽华', 3, 2, current_date - 405, current_date - 40, 152800, null)`.execute(db);
      await sql`insert into lc_view_12 ("stockNo", quantity, status, "warehouseId", create_by, create_company)
        values ('RK202611010001', 2, '1', 1, 'producer', 1), ('RK202611010002', 3, '1', 2, 'producer', 1),
               ('RK202611010003', 4, '1', null, 'producer', 1)`.execute(db);
      await sql`insert into inventory_config (company_id, warehouse_id, max_quantity) values (1, 1, 20), (1, null, 200)`.execute(db);

      expect((await migrator.migrateToLatest()).error).toBeUndefined();

      expect(await kindOf(db, 'company_warehouse')).toBe('v');
      expect(await kindOf(db, 'company_contract')).toBe('v');
      const moved = await sql<{ id: number; name: string; create_company: number; create_by: string | null; linkman: string | null }>`
        select id, name, create_company, create_by, linkman from lc_view_14 order by id`.execute(db);
      expect(moved.rows.map(({ id: _, ...w }) => w)).toEqual([
        { name: '已有仓库', create_company: 1, create_by: 'producer', linkman: null },
        { name: '一号危废暂存库', create_company: 1, create_by: 'producer', linkman: '李秀英' },
        { name: '焚烧车间卸料区', create_company: 2, create_by: null, linkman: null },
      ]);
      const idOf = (name: string) => moved.rows.find((w) => w.name === name)!.id;
      const stock = await sql<{ stockNo: string; warehouseId: number | null }>`
        select "stockNo", "warehouseId" from lc_view_12 order by "stockNo"`.execute(db);
      expect(stock.rows).toEqual([
        { stockNo: 'RK202611010001', warehouseId: idOf('一号危废暂存库') },
        { stockNo: 'RK202611010002', warehouseId: idOf('焚烧车间卸料区') },
        { stockNo: 'RK202611010003', warehouseId: null },
      ]);
      const points = await sql<{ point: number | null }>`select point from lc_view_30 order by id`.execute(db);
      expect(points.rows).toEqual([{ point: idOf('焚烧车间卸料区') }, { point: null }]);
      const limits = await db.selectFrom('inventory_config').select('warehouse_id').orderBy('id').execute();
      expect(limits).toEqual([{ warehouse_id: idOf('一号危废暂存库') }, { warehouse_id: null }]);
      const warehouses = await db
        .selectFrom('company_warehouse')
        .select(['name', 'company_id', 'linkman_id', 'unloading_point'])
        .orderBy('id')
        .execute();
      expect(warehouses).toEqual([
        { name: '已有仓库', company_id: 1, linkman_id: null, unloading_point: false },
        { name: '一号危废暂存库', company_id: 1, linkman_id: 11, unloading_point: false },
        { name: '焚烧车间卸料区', company_id: 2, linkman_id: null, unloading_point: true },
      ]);

      // 0012 moved the parties as names, as contracts then held them; 0027 made them company ids.
      const contracts = await db
        .selectFrom('company_contract')
        .select([
          'contract_no',
          'party_a_company',
          'party_b_company',
          'party_a_name',
          'party_a_user_id',
          'amount',
          'file_path',
          sql<string>`to_char(end_time, 'YYYY-MM-DD')`.as('end'),
        ])
        .orderBy('id')
        .execute();
      expect(contracts).toEqual([
        {
          contract_no: 'WF-HT-2026-0012',
          party_a_company: 1,
          party_b_company: 2,
          party_a_name: '王丽华',
          party_a_user_id: 3,
          amount: 186000,
          file_path: '[{"fileName":"a.pdf","filePath":"2026/01/a.pdf"}]',
          end: day(12),
        },
        {
          contract_no: 'WF-HT-2025-0173',
          party_a_company: 1,
          party_b_company: 2,
          party_a_name: '王丽华',
          party_a_user_id: 3,
          amount: 152800,
          file_path: null,
          end: day(-40),
        },
      ]);
      const status = await sql<{ s: string }>`select "contractStatus" as s from lc_view_16 order by id`.execute(db);
      expect(status.rows.map((r) => r.s)).toEqual(['2', '3']);
      // Nothing refers to the core tables any more.
      const refs = await sql<{ n: number }>`select count(*)::int as n from pg_constraint where confrelid in
        (select oid from pg_class where relname in ('company_warehouse', 'company_contract'))`.execute(db);
      expect(refs.rows[0]?.n).toBe(0);
    } finally {
      await database.close();
    }
  });
});
