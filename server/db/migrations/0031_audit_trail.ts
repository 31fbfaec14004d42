import { type Kysely, sql } from 'kysely';
import { AUDIT_FUNCTION, AUDITED_TABLES, auditTable } from '../audit.js';

// The audit trail: sys_log also holds one entry per changed record, written by a row trigger on each
// audited table in the statement that changes it (see server/db/audit.ts). An entry names the actor's
// company, the record (table and key), the action and the changed fields as [before, after], and the
// request it came from; entries of a call share its request id.

async function viewTables(db: Kysely<unknown>): Promise<string[]> {
  const rows = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r' and c.relname ~ '^lc_view_[0-9]+$' order by 1`.execute(db);
  return rows.rows.map((r) => r.name);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sys_log
    add column if not exists company_id bigint,
    add column if not exists record_table varchar(64),
    add column if not exists record_id varchar(100),
    add column if not exists action varchar(10),
    add column if not exists changes jsonb,
    add column if not exists request_id varchar(40)`.execute(db);
  await sql`create index if not exists sys_log_user_id on sys_log (user_id, id desc)`.execute(db);
  await sql`create index if not exists sys_log_company_id on sys_log (company_id, id desc)`.execute(db);
  await sql`create index if not exists sys_log_record on sys_log (record_table, record_id, id desc)`.execute(db);
  await sql`create index if not exists sys_log_request on sys_log (request_id)`.execute(db);
  await AUDIT_FUNCTION.execute(db);
  for (const table of [...AUDITED_TABLES, ...(await viewTables(db))]) {
    // Only tables: some names (the warehouse and contract lists) are views over a view's table.
    const isTable = await sql<{
      ok: boolean;
    }>`select exists (select 1 from pg_class where oid = to_regclass(${table}) and relkind = 'r') as ok`.execute(db);
    if (isTable.rows[0]?.ok) await auditTable(db, table);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const triggers = await sql<{ table: string }>`
    select c.relname as table from pg_trigger t join pg_class c on c.oid = t.tgrelid where t.tgname = 'wg_audit'`.execute(db);
  for (const { table } of triggers.rows) await sql`drop trigger wg_audit on ${sql.table(table)}`.execute(db);
  await sql`drop function if exists wg_audit()`.execute(db);
  await sql`drop index if exists sys_log_user_id, sys_log_company_id, sys_log_record, sys_log_request`.execute(db);
  await sql`alter table sys_log drop column if exists company_id, drop column if exists record_table,
    drop column if exists record_id, drop column if exists action, drop column if exists changes,
    drop column if exists request_id`.execute(db);
}
