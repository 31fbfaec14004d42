import { type Kysely, sql } from 'kysely';
import { syncEntityViews } from '../../lib/entity-views.js';
import type { DB } from '../schema.js';
import { CONTRACT_COLUMNS, WAREHOUSE_COLUMNS } from './core-columns.js';
import { parsedViews } from './parsed-views.js';

// One store per business entity: warehouses and contracts are records of the 企业仓库 and 合同管理
// views, and company_warehouse and company_contract become SQL views over those tables
// (server/lib/entity-views.ts). The core tables' rows move into the view tables, created by a user of
// their company where there is one; records that picked a core warehouse (入库仓库, or any field whose
// options came from the warehouse lists) and inventory limits then name the same warehouse by its new id. Foreign keys onto company_warehouse go, the core tables are
// dropped, and the dashboards' running sums are built again from the tables on first use. A database
// without view tables (a fresh one, seeded after its migrations) just loses the core tables.

type Row = Record<string, unknown>;

const isTable = async (db: Kysely<unknown>, name: string) =>
  (await sql<{ kind: string }>`select relkind as kind from pg_class where oid = to_regclass(${name})`.execute(db)).rows[0]?.kind === 'r';

/** The table of the view with this componentName (published first, then the lowest id) and its columns. */
async function viewTableOf(db: Kysely<unknown>, componentName: string): Promise<{ table: string; columns: Set<string> } | null> {
  const defs = await sql<{ id: number; status: number; dis_menu: string | null }>`
    select id, status, dis_menu from lc_generation where dis_template is not null order by id`.execute(db);
  const named = defs.rows.filter((d) => {
    try {
      return (JSON.parse(d.dis_menu ?? 'null') as { componentName?: unknown } | null)?.componentName === componentName;
    } catch {
      return false;
    }
  });
  const def = named.find((d) => d.status === 1) ?? named[0];
  if (!def) return null;
  const table = `lc_view_${def.id}`;
  const cols = await sql<{ name: string }>`
    select attname as name from pg_attribute where attrelid = to_regclass(${table}) and attnum > 0 and not attisdropped`.execute(db);
  return cols.rows.length ? { table, columns: new Set(cols.rows.map((c) => c.name)) } : null;
}

/** Inserts one record with the columns its table has; answers its id. */
async function insertRecord(db: Kysely<unknown>, target: { table: string; columns: Set<string> }, values: Row): Promise<number> {
  const cols = Object.keys(values).filter((c) => target.columns.has(c));
  const res = await sql<{ id: number }>`insert into ${sql.table(target.table)} (${sql.join(cols.map((c) => sql.id(c)))})
    values (${sql.join(cols.map((c) => values[c] ?? null))}) returning id`.execute(db);
  return Number(res.rows[0]?.id);
}

/** The first user of a company: who a moved record counts as created by. */
const FIRST_USER = (company: unknown) => sql<{ username: string; dept_id: number | null }>`
  select username, dept_id from sys_user where company_id = ${company} order by id limit 1`;

/** The columns a moved record starts with: when, and by whom of which company it counts as created. */
const createdBy = (time: unknown, company: unknown, owner: { username: unknown; dept_id: unknown } | undefined): Row => ({
  create_time: time,
  update_time: time,
  create_by: owner?.username ?? null,
  create_company: company,
  create_dept: owner?.dept_id ?? null,
});

async function moveWarehouses(db: Kysely<unknown>): Promise<Map<number, number>> {
  const moved = new Map<number, number>();
  if (!(await isTable(db, 'company_warehouse'))) return moved;
  const rows = await sql<Row>`
    select w.id, w.company_id, w.name, w.region, w.region_fmt, w.address, w.unloading_point,
      to_char(w.create_time, 'YYYY-MM-DD HH24:MI:SS') as create_time, l.name as linkman, l.phone
    from company_warehouse w left join company_linkman l on l.id = w.linkman_id order by w.id`.execute(db);
  if (!rows.rows.length) return moved;
  const target = await viewTableOf(db, 'warehouse');
  if (!target) {
    console.warn(`migration 0012: no 企业仓库 view to receive ${rows.rows.length} warehouses of company_warehouse; they are dropped`);
    return moved;
  }
  for (const w of rows.rows) {
    const owner = (await FIRST_USER(w.company_id).execute(db)).rows[0];
    const id = await insertRecord(db, target, {
      ...createdBy(w.create_time, w.company_id, owner),
      name: w.name,
      deptId: owner?.dept_id ?? null,
      region: w.region,
      regionFmt: w.region_fmt,
      address: w.address,
      linkman: w.linkman,
      phone: w.phone,
      unloadingPoint: w.unloading_point ? '1' : '2',
      status: '1',
    });
    moved.set(Number(w.id), id);
  }
  return moved;
}

async function moveContracts(db: Kysely<unknown>): Promise<void> {
  if (!(await isTable(db, 'company_contract'))) return;
  const rows = await sql<Row>`
    select k.contract_no, a.name as party_a, b.name as party_b, k.party_a_company, k.party_a_name, k.amount, k.file_path,
      to_char(k.begin_time, 'YYYY-MM-DD') as begin_date, to_char(k.end_time, 'YYYY-MM-DD') as end_date,
      case when k.end_time < current_date then '3' else '2' end as status,
      to_char(k.create_time, 'YYYY-MM-DD HH24:MI:SS') as create_time, u.username, u.dept_id
    from company_contract k
    left join company a on a.id = k.party_a_company
    left join company b on b.id = k.party_b_company
    left join sys_user u on u.id = k.party_a_user_id
    order by k.id`.execute(db);
  if (!rows.rows.length) return;
  const target = await viewTableOf(db, 'contract');
  if (!target) {
    console.warn(`migration 0012: no 合同管理 view to receive ${rows.rows.length} contracts of company_contract; they are dropped`);
    return;
  }
  for (const k of rows.rows) {
    const owner = k.username ? { username: k.username, dept_id: k.dept_id } : (await FIRST_USER(k.party_a_company).execute(db)).rows[0];
    await insertRecord(db, target, {
      ...createdBy(k.create_time, k.party_a_company, owner),
      contractNo: k.contract_no,
      contractName: `${k.party_a ?? ''}危险废物委托处置合同`,
      partyA: k.party_a,
      partyB: k.party_b,
      amount: k.amount,
      signDate: k.begin_date,
      beginDate: k.begin_date,
      endDate: k.end_date,
      contractStatus: k.status,
      signer: k.party_a_name,
      attachments: k.file_path,
    });
  }
}

/** Where the core warehouse lists fed a record's options: its value is a warehouse id. */
const WAREHOUSE_OPTIONS = /^\/api\/companyWarehouse\/(list|unloadingPoint)\b/;

/** The columns of view tables that hold one warehouse picked from the core lists (入库仓库 and its like). */
async function warehouseColumns(db: Kysely<unknown>): Promise<{ table: string; column: string }[]> {
  const defs = await sql<{ id: number; name: string; status: number; dis_menu: string | null; dis_template: string | null }>`
    select id, name, status, dis_menu, dis_template from lc_generation where dis_template is not null order by id`.execute(db);
  const out: { table: string; column: string }[] = [];
  for (const view of parsedViews(defs.rows)) {
    for (const f of view.fields) {
      const url = f.form?.remote?.url ?? view.page.columns.find((c) => c.name === f.name)?.remote?.url ?? '';
      if (f.system || f.dataType !== 'long' || f.multiple || !WAREHOUSE_OPTIONS.test(url)) continue;
      out.push({ table: `lc_view_${view.id}`, column: f.column });
    }
  }
  return out;
}

/** Points the records and inventory limits that named a core warehouse at its new id, in one statement per column. */
async function remapWarehouses(db: Kysely<unknown>, moved: Map<number, number>): Promise<void> {
  const pairs = [...moved];
  const map = sql`(values ${sql.join(pairs.map(([from, to]) => sql`(${from}::bigint, ${to}::bigint)`))}) as m(old_id, new_id)`;
  await sql`update inventory_config i set warehouse_id = m.new_id from ${map} where i.warehouse_id = m.old_id`.execute(db);
  for (const { table, column } of await warehouseColumns(db)) {
    if (!(await isTable(db, table))) continue;
    const c = sql.ref(`r.${column}`);
    await sql`update ${sql.table(table)} r set ${sql.id(column)} = m.new_id from ${map} where ${c} = m.old_id`.execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const moved = await moveWarehouses(db);
  await moveContracts(db);
  // Limits of a warehouse that is not moved go, as they went when it was deleted.
  await sql`alter table inventory_config drop constraint if exists inventory_config_warehouse_id_fkey`.execute(db);
  if (await isTable(db, 'company_warehouse')) {
    await sql`delete from inventory_config where warehouse_id is not null and warehouse_id <> all(${[...moved.keys()]}::int[])`.execute(db);
  }
  if (await isTable(db, 'company_contract')) await sql`drop table company_contract`.execute(db);
  if (await isTable(db, 'company_warehouse')) await sql`drop table company_warehouse`.execute(db);
  await syncEntityViews(db as unknown as Kysely<DB>);
  if (moved.size) await remapWarehouses(db, moved);
  await sql`delete from dash_source`.execute(db);
}

/** The core tables again, holding what the SQL views show (warehouses keep their ids). */
export async function down(db: Kysely<unknown>): Promise<void> {
  const kind = async (name: string) =>
    (await sql<{ kind: string }>`select relkind as kind from pg_class where oid = to_regclass(${name})`.execute(db)).rows[0]?.kind;
  if ((await kind('company_warehouse')) !== 'v' || (await kind('company_contract')) !== 'v') return;
  await sql`create table company_warehouse_old as select * from company_warehouse where company_id is not null`.execute(db);
  await sql`create table company_contract_old as select * from company_contract
    where party_a_company is not null and party_b_company is not null and end_time is not null`.execute(db);
  await sql`drop view company_warehouse`.execute(db);
  await sql`drop view company_contract`.execute(db);
  await sql`
    create table company_warehouse (
      ${WAREHOUSE_COLUMNS}
    );
    create index company_warehouse_company on company_warehouse(company_id);
    insert into company_warehouse select id, company_id, left(name, 255), region, region_fmt, left(address, 512), linkman_id,
      unloading_point, create_time from company_warehouse_old;
    select setval(pg_get_serial_sequence('company_warehouse', 'id'), coalesce((select max(id) from company_warehouse), 0) + 1, false);
    update inventory_config set warehouse_id = null where warehouse_id not in (select id from company_warehouse);
    alter table inventory_config add constraint inventory_config_warehouse_id_fkey
      foreign key (warehouse_id) references company_warehouse(id) on delete cascade;

    create table company_contract (
      ${CONTRACT_COLUMNS}
    );
    create index company_contract_a on company_contract(party_a_company, end_time);
    create index company_contract_b on company_contract(party_b_company, end_time);
    insert into company_contract (contract_no, party_a_company, party_a_name, party_a_phone, party_a_region, party_a_region_fmt,
      party_a_address, party_a_user_id, party_b_company, begin_time, end_time, amount, file_path, create_time)
    select distinct on (contract_no) left(contract_no, 64), party_a_company, left(party_a_name, 100), left(party_a_phone, 20),
      party_a_region, party_a_region_fmt, left(party_a_address, 512), party_a_user_id, party_b_company, begin_time, end_time,
      amount, file_path, create_time
    from company_contract_old order by contract_no, id;

    drop table company_warehouse_old, company_contract_old;
  `.execute(db);
}
