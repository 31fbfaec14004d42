import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { SYSTEM_FIELDS, systemFieldOf } from '../../src/model/index.js';
import { PARTIES, RECIPIENT_FIELD } from '../access/parties.js';
import { auditTable } from '../db/audit.js';
import type { DB } from '../db/schema.js';
import { badRequest } from '../errors.js';
import { referenceTarget } from './reference-labels.js';
import { installRowNotify } from './row-notify.js';
import { dataViewGrantees, privateViewTables, rowsOf } from './sql-guard.js';
import type { ViewModel } from './view-model.js';

/**
 * Backing tables of views: `lc_view_{id}`. Identifiers come only from a definition the page model
 * accepted (safe identifiers, never reserved names) and are quoted exactly.
 */

export const viewTable = (viewId: number) => `lc_view_${Math.trunc(viewId)}`;

const indexName = (viewId: number, column: string) => `lc_v${viewId}_${createHash('sha1').update(column).digest('hex').slice(0, 12)}`;

/** Postgres error of a failed statement, whichever driver raised it. */
export function pgError(e: unknown): { code: string; message: string } | null {
  if (typeof e === 'object' && e !== null && 'code' in e && typeof (e as { code: unknown }).code === 'string') {
    const code = (e as { code: string }).code;
    if (/^[0-9A-Z]{5}$/.test(code)) return { code, message: String((e as { message?: unknown }).message ?? '') };
  }
  return null;
}

/**
 * Creates or alters the view's table to hold every field of the definition. Columns are only added or
 * retyped, never dropped. Run it inside the transaction that saves the definition: a failing cast
 * rolls everything back.
 */
export async function syncViewTable(db: Kysely<DB>, view: ViewModel): Promise<void> {
  const table = viewTable(view.id);
  await sql`create table if not exists ${sql.table(table)} (
    id bigserial primary key,
    create_time timestamp without time zone not null default now(),
    update_time timestamp without time zone not null default now(),
    create_by varchar(100),
    create_user bigint,
    create_company bigint,
    create_dept bigint
  )`.execute(db);
  // Its records' changes go to the audit trail.
  await auditTable(db as Kysely<unknown>, table);
  await installRowNotify(db, table); // its rows' changes, whoever makes them, are told to every instance
  // The owner columns of a table made before records knew their author's account, company and department.
  await sql`alter table ${sql.table(table)} add column if not exists create_user bigint,
    add column if not exists create_company bigint, add column if not exists create_dept bigint`.execute(db);
  // Data views on PostgreSQL log in as a role that reads only allowed tables, each view table among them.
  const roles = await sql<{ name: string }>`select rolname as name from pg_roles
    where rolname = any(${await dataViewGrantees(db)}::text[]) and not has_table_privilege(rolname, to_regclass(${table}), 'SELECT')`.execute(
    db,
  );
  const hidden = await privateViewTables(rowsOf(db));
  for (const { name } of roles.rows) if (!hidden.has(table)) await sql`grant select on ${sql.table(table)} to ${sql.id(name)}`.execute(db);
  const live = await sql<{ name: string; type: string }>`
    select attname as name, format_type(atttypid, atttypmod) as type
    from pg_attribute where attrelid = to_regclass(${table}) and attnum > 0 and not attisdropped`.execute(db);
  const existing = new Map(live.rows.map((r) => [r.name, r.type]));
  for (const col of view.columns) {
    const type = existing.get(col.name);
    if (type === undefined) {
      await sql`alter table ${sql.table(table)} add column ${sql.id(col.name)} ${sql.raw(col.type)}`.execute(db);
    } else if (type !== col.type) {
      // A trigram index serves text only: it goes with the old type and comes back below if still wanted.
      await sql`drop index if exists ${sql.id(indexName(view.id, `trgm:${col.name}`))}`.execute(db);
      try {
        // A value the new type changes (a decimal's fraction, text past a shorter length) is changed first
        // by an update, which the audit trail records per record as the writer of `db`; altering a column's
        // type fires no row trigger.
        const column = sql.id(col.name);
        const converted = sql`(${column}::${sql.raw(col.type)})::${sql.raw(type)}`;
        await sql`update ${sql.table(table)} set ${column} = ${converted} where ${column} is distinct from ${converted}`.execute(db);
        await sql`alter table ${sql.table(table)} alter column ${column} type ${sql.raw(col.type)}
          using ${column}::${sql.raw(col.type)}`.execute(db);
      } catch (e) {
        if (pgError(e)) throw badRequest('FIELD_TYPE_CHANGE_FAILED', { field: col.name });
        throw e;
      }
    }
  }
  const { btree, trigram } = wantedIndexes(view);
  const wanted = new Set<string>();
  for (const cols of btree) {
    const name = indexName(view.id, cols.join(','));
    wanted.add(name);
    await sql`create index if not exists ${sql.id(name)} on ${sql.table(table)} (${sql.join(cols.map((c) => sql.id(c)))})`.execute(db);
  }
  // Without pg_trgm (a PostgreSQL without contrib) text searches read the whole table, as before.
  // fastupdate off: rows go into the index as they are written. With it on, they wait in a pending list
  // that only vacuum empties (PGlite has no autovacuum), and every search reads that list whole.
  if (trigram.length && (await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(db)).rows.length) {
    for (const c of trigram) {
      const name = indexName(view.id, `trgm:${c}`);
      wanted.add(name);
      await sql`create index if not exists ${sql.id(name)} on ${sql.table(table)} using gin (${sql.id(c)} gin_trgm_ops)
        with (fastupdate = off)`.execute(db);
    }
  }
  // Indexes of the table's lists no longer wanted (a field no longer sorted or searched, an older set) go:
  // every index costs each write and its share of memory.
  const own = await sql<{ name: string }>`select indexname as name from pg_indexes
    where schemaname = current_schema() and tablename = ${table}`.execute(db);
  for (const { name } of own.rows) {
    if (name.startsWith(`lc_v${view.id}_`) && !wanted.has(name)) await sql`drop index if exists ${sql.id(name)}`.execute(db);
  }
}

/** Exact search fields whose pairs get an index of their own (three pairs at most). */
const PAIRED_SEARCHES = 3;

/**
 * The indexes a view's lists read from. The list call (list-sql.ts) filters on search fields, sorts on
 * sortable ones with id as the tiebreak, and pages; a scope narrows to a company's or department's rows.
 * - Each sortable field: (field, id) for lists of every company, (create_company, field, id) for one
 *   company's list in that order (a company's rows sorted by quantity would otherwise walk every
 *   company's rows in the global order, filtering out the others).
 * - The default order: (create_company, sort, id) and (create_dept, sort, id) for scoped lists;
 *   create_time for the startTime/endTime range.
 * - Each exact search (a dictionary value, a picked record): (field, sort, id) and (create_company,
 *   field, sort, id), so that a filter's first page and its count up to the exact limit read only the
 *   index. A filter in another order walks that order's index: not one index for every pair of
 *   search and sort field.
 * - Two exact searches together: (a, b, sort, id) for each pair of the first three exact search
 *   fields. Without it, a count of two values over every company's rows builds a bitmap of each
 *   value's rows (a third of a million-row table for a status) and reads thousands of table blocks;
 *   within one company's rows the company's index of one of them reads little either way.
 * - A date search not sorted by: (field), for its range. A text search: a trigram index.
 * - Columns a record is looked up by from another table (a picked record, a party, a recipient).
 */
export function wantedIndexes(view: ViewModel): { btree: string[][]; trigram: string[] } {
  const sortable = view.fields.filter((f) => f.sortable && f.column !== 'id').map((f) => f.column);
  const sortField = view.page.defaultSort.field;
  const lead = view.byName.get(sortField)?.column ?? SYSTEM_FIELDS[systemFieldOf(sortField) ?? 'id'].column;
  const byLead = lead === 'id' ? ['id'] : [lead, 'id'];
  const indexes: string[][] = [['create_time'], ['create_company', ...byLead], ['create_dept', ...byLead]];
  for (const s of sortable) indexes.push([s, 'id'], ['create_company', s, 'id']);
  const trigram: string[] = [];
  const exact: string[] = [];
  for (const f of view.fields.filter((x) => x.search && x.column !== 'id')) {
    if (!f.exact) {
      // A btree cannot serve ILIKE '%…%' (a trigram index can); a date search is a range it can.
      if (f.dataType === 'datetime') {
        if (!f.sortable) indexes.push([f.column]);
      } else if (f.dataType !== 'long' && f.dataType !== 'decimal' && !f.multiple && !f.city) trigram.push(f.column);
      continue;
    }
    if (f.column === lead) continue;
    exact.push(f.column);
    indexes.push([f.column, ...byLead], ['create_company', f.column, ...byLead]);
  }
  // Two exact searches together, over every company's rows: each pair of the first three, so that the
  // pair's first page and capped count read one index instead of joining two large bitmaps.
  const paired = exact.slice(0, PAIRED_SEARCHES);
  for (let i = 0; i < paired.length; i++) {
    for (let j = i + 1; j < paired.length; j++) indexes.push([paired[i] as string, paired[j] as string, ...byLead]);
  }
  const lookedUp = view.fields.filter((f) => !f.multiple && f.dataType === 'long' && referenceTarget(view, f)).map((f) => f.column);
  // A company's scope reads the records that name it as a party, and a department the records addressed
  // to it, by these columns: each part of the scope's `or` is then an index scan, not a read of the table.
  const recipient = RECIPIENT_FIELD[view.componentName];
  lookedUp.push(...(PARTIES[view.componentName] ?? []).map((p) => p.field), ...(recipient ? [recipient] : []));
  for (const column of lookedUp) {
    if (view.columns.some((c) => c.name === column) && !indexes.some((cols) => cols[0] === column)) indexes.push([column]);
  }
  const seen = new Set<string>();
  return { btree: indexes.filter((cols) => !seen.has(cols.join(',')) && seen.add(cols.join(','))), trigram };
}

/**
 * Drops the view's table. Its records are deleted first, each a delete the audit trail records as the
 * writer of `db` (dropping a table fires no row trigger).
 */
export async function dropViewTable(db: Kysely<DB>, viewId: number): Promise<void> {
  const table = viewTable(viewId);
  const exists = await sql<{ ok: boolean }>`select to_regclass(${table}) is not null as ok`.execute(db);
  if (!exists.rows[0]?.ok) return;
  await sql`delete from ${sql.table(table)}`.execute(db);
  await sql`drop table ${sql.table(table)}`.execute(db);
}
