import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.js';
import { viewTable } from '../lowcode/ddl.js';
import { grantDataViewReads } from '../lowcode/sql-guard.js';
import { readView } from '../lowcode/view-model.js';
import { pickByComponentName } from './business-views.js';

/**
 * One store per business entity: warehouses and contracts live in the tables of the views users edit
 * (企业仓库, 合同管理), and `company_warehouse` and `company_contract` are SQL views over them with the
 * columns the core calls read (入库仓库 options, dashboards, the contract picker, expiring contracts).
 * A warehouse added on the page is therefore an option of 入库仓库 at once, and every reader counts the
 * same contracts.
 *
 * The tables are found by componentName as business-views.ts finds them (a published view wins over a
 * draft, then the lowest id), so a view re-created under another id still feeds them. A field the view
 * lacks reads as a typed null, no designed view as no rows. A SQL view pins the columns it reads, so a
 * definition change runs through withEntityViews: the SQL views are dropped when they read a table it
 * changes, the tables changed, and the SQL views built again from the definitions as they now stand, in
 * the same transaction.
 */

export const ENTITY_VIEWS = ['company_warehouse', 'company_contract'] as const;
type EntityView = (typeof ENTITY_VIEWS)[number];

/** The business view each SQL view reads. */
const SOURCE: Record<EntityView, string> = { company_warehouse: 'warehouse', company_contract: 'contract' };

/** Any number the instances agree on: the advisory lock held while the SQL views are rebuilt. */
const ENTITY_LOCK = 7_311_027_733;

/** Contract statuses that bind the parties (待签署, 生效中, 已到期); drafts and terminated ones do not. */
export const SIGNED_CONTRACT = ['1', '2', '3'] as const;

interface Source {
  table: string;
  /** column → its SQL type, as format_type writes it */
  columns: Map<string, string>;
  /** the form's default of a field (a record without the value counts as it) */
  defaults: Map<string, string>;
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (v: string) => `'${v.replaceAll("'", "''")}'`;

/** A column of the source row `t` read as `to`; a typed null when the table lacks it. */
function reader(source: Source | null) {
  return (field: string, to: 'text' | 'numeric' | 'date'): string => {
    const type = source?.columns.get(field);
    if (type === undefined) return `null::${to}`;
    const ref = `t.${ident(field)}`;
    const number = /^(bigint|integer|smallint|numeric|double precision|real)/.test(type);
    const time = /^(timestamp|date)/.test(type);
    switch (to) {
      case 'text':
        return `${ref}::text`;
      case 'numeric':
        return number ? `${ref}::numeric` : `dash_num(${ref}::text)`;
      case 'date':
        return time ? `${ref}::date` : `dash_date(${ref}::text)`;
    }
  };
}

/** A text field with the form's default for records that lack it. */
function withDefault(source: Source | null, field: string): string {
  const read = `nullif(trim(${reader(source)(field, 'text')}), '')`;
  const dflt = source?.defaults.get(field);
  return dflt === undefined ? read : `coalesce(${read}, ${literal(dflt)})`;
}

/** The owner is the company of the user who added the warehouse; its linkman is found by name among the company's. */
function warehouseSql(source: Source | null): string {
  const read = reader(source);
  if (!source) {
    return `select null::bigint as id, null::integer as company_id, null::text as name, null::text as region,
      null::text as region_fmt, null::text as address, null::integer as linkman_id, false as unloading_point,
      null::timestamp as create_time where false`;
  }
  return `select t.id,
      t.create_company::integer as company_id,
      coalesce(${read('name', 'text')}, '') as name,
      ${read('region', 'text')} as region,
      ${read('regionFmt', 'text')} as region_fmt,
      ${read('address', 'text')} as address,
      (select l.id from company_linkman l where l.company_id = t.create_company and l.name = ${read('linkman', 'text')}
        order by l.id limit 1) as linkman_id,
      coalesce(${withDefault(source, 'unloadingPoint')} = '1', false) as unloading_point,
      t.create_time
    from ${ident(source.table)} t`;
}

/**
 * Parties are the companies the record names by id (partyAId, partyBId); party A's contact details are
 * those of its company, its contact person the signer, its user the creator when the creator belongs to it.
 */
function contractSql(source: Source | null): string {
  const read = reader(source);
  if (!source) {
    return `select null::bigint as id, null::text as contract_no, null::integer as party_a_company, null::text as party_a_name,
      null::text as party_a_phone, null::text as party_a_region, null::text as party_a_region_fmt, null::text as party_a_address,
      null::integer as party_a_user_id, null::integer as party_b_company, null::date as begin_time, null::date as end_time,
      null::numeric as amount, null::text as file_path, null::timestamp as create_time where false`;
  }
  // A company id as the column holds it: a number, or a text of digits (a field retyped by a redesign).
  const companyId = (field: string) => {
    const type = source.columns.get(field);
    if (type === undefined) return 'null::integer';
    if (/^(bigint|integer|smallint)$/.test(type)) return `t.${ident(field)}`;
    const text = read(field, 'text');
    return `(case when ${text} ~ '^[0-9]{1,9}$' then ${text}::integer end)`;
  };
  const status = source.columns.has('contractStatus')
    ? `where ${withDefault(source, 'contractStatus')} in (${SIGNED_CONTRACT.map(literal).join(', ')})`
    : '';
  return `select t.id,
      coalesce(${read('contractNo', 'text')}, '') as contract_no,
      a.id as party_a_company,
      coalesce(nullif(trim(${read('signer', 'text')}), ''), a.contact_name)::text as party_a_name,
      a.contact_phone::text as party_a_phone,
      a.region::text as party_a_region,
      a.region_fmt::text as party_a_region_fmt,
      a.address::text as party_a_address,
      (select u.id from sys_user u where u.id = t.create_user and u.company_id = a.id) as party_a_user_id,
      (select c.id from company c where c.id = ${companyId('partyBId')}) as party_b_company,
      coalesce(${read('beginDate', 'date')}, ${read('signDate', 'date')}, t.create_time::date) as begin_time,
      ${read('endDate', 'date')} as end_time,
      ${read('amount', 'numeric')} as amount,
      ${read('attachments', 'text')} as file_path,
      t.create_time
    from ${ident(source.table)} t
    left join lateral (select c.id, c.contact_name, c.contact_phone, c.region, c.region_fmt, c.address from company c
      where c.id = ${companyId('partyAId')}) a on true
    ${status}`;
}

const BUILD: Record<EntityView, (s: Source | null) => string> = { company_warehouse: warehouseSql, company_contract: contractSql };

/** The table each SQL view reads, with its columns, as the definitions in `db` stand now. */
async function sources(db: Kysely<DB>): Promise<Map<EntityView, Source | null>> {
  const rows = await db
    .selectFrom('lc_generation')
    .select(['id', 'name', 'status', 'dis_menu', 'dis_template'])
    .where('dis_template', 'is not', null)
    .orderBy('id')
    .execute();
  const out = new Map<EntityView, Source | null>();
  const picked = pickByComponentName(rows, new Set(ENTITY_VIEWS.map((v) => SOURCE[v])));
  for (const view of ENTITY_VIEWS) {
    const row = picked.get(SOURCE[view]);
    if (!row) {
      out.set(view, null);
      continue;
    }
    const table = viewTable(row.id);
    const live = await sql<{ name: string; type: string }>`
      select attname as name, format_type(atttypid, atttypmod) as type
      from pg_attribute where attrelid = to_regclass(${table}) and attnum > 0 and not attisdropped`.execute(db);
    if (!live.rows.length) {
      out.set(view, null);
      continue;
    }
    const defaults = new Map<string, string>();
    try {
      for (const f of readView(row)?.page.form.fields ?? []) {
        const d = f.defaultValue;
        if (d !== undefined && d !== null && d !== '') defaults.set(f.name, String(d));
      }
    } catch {
      // A definition that does not read has no defaults.
    }
    out.set(view, { table, columns: new Map(live.rows.map((r) => [r.name, r.type])), defaults });
  }
  return out;
}

async function locked<T>(db: Kysely<DB>, run: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  const go = async (trx: Kysely<DB>) => {
    await sql`select pg_advisory_xact_lock(${ENTITY_LOCK})`.execute(trx);
    return run(trx);
  };
  return db.isTransaction ? go(db) : db.transaction().execute(go);
}

async function dropAll(db: Kysely<DB>): Promise<void> {
  for (const view of ENTITY_VIEWS) {
    const kind = await sql<{ kind: string }>`select relkind as kind from pg_class where oid = to_regclass(${view})`.execute(db);
    if (kind.rows[0]?.kind === 'v') await sql`drop view ${sql.table(view)}`.execute(db);
  }
}

/**
 * Builds both SQL views from the definitions as `db` sees them; a view whose text is unchanged (its
 * comment holds the hash of its text) is left alone. A table still standing under the name (a database
 * before the one-store migration) is left alone too.
 */
export async function syncEntityViews(db: Kysely<DB>): Promise<void> {
  await locked(db, async (trx) => {
    const found = await sources(trx);
    let created = false;
    for (const view of ENTITY_VIEWS) {
      const text = BUILD[view](found.get(view) ?? null);
      const version = createHash('sha1').update(text).digest('hex');
      const now = await sql<{ kind: string; note: string | null }>`
        select c.relkind as kind, obj_description(c.oid, 'pg_class') as note from pg_class c where c.oid = to_regclass(${view})`.execute(
        trx,
      );
      const at = now.rows[0];
      if (at && at.kind !== 'v') continue;
      if (at?.note === version) continue;
      if (at) await sql`drop view ${sql.table(view)}`.execute(trx);
      await sql.raw(`create view ${ident(view)} as ${text}`).execute(trx);
      await sql.raw(`comment on view ${ident(view)} is ${literal(version)}`).execute(trx);
      created = true;
    }
    // Data views on PostgreSQL read them under their own role, which a new view has not been granted yet.
    if (created) await grantDataViewReads(trx);
  });
}

/** The tables the SQL views read now, from the catalogue (what a change to their tables would be pinned by). */
async function pinnedTables(db: Kysely<DB>): Promise<Set<string>> {
  const res = await sql<{ name: string }>`
    select distinct c.relname as name from pg_rewrite r
    join pg_depend d on d.classid = 'pg_rewrite'::regclass and d.objid = r.oid
    join pg_class c on c.oid = d.refobjid
    where r.ev_class in (select oid from pg_class where relname in (${sql.join([...ENTITY_VIEWS])}) and relkind = 'v')
      and d.refobjid <> r.ev_class`.execute(db);
  return new Set(res.rows.map((r) => r.name));
}

/**
 * Runs a change to the definitions of `viewIds` and their tables (created, altered or dropped; a
 * componentName or status changed) and then builds the SQL views again from the definitions as they now
 * stand. The SQL views are dropped first when they read one of those tables, so that they pin nothing the
 * change alters. Call it inside the transaction that saves or deletes the definitions.
 */
export async function withEntityViews<T>(db: Kysely<DB>, viewIds: readonly number[], change: () => Promise<T>): Promise<T> {
  if (!db.isTransaction) throw new Error('withEntityViews runs inside the transaction that changes the definitions');
  return locked(db, async (trx) => {
    const pinned = await pinnedTables(trx);
    if (viewIds.some((id) => pinned.has(viewTable(id)))) await dropAll(trx);
    const out = await change();
    await syncEntityViews(trx);
    return out;
  });
}
