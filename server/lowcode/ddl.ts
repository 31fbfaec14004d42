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
    create_company bigint,
    create_dept bigint
  )`.execute(db);
  // Its records' changes go to the audit trail.
  await auditTable(db as Kysely<unknown>, table);
  await installRowNotify(db, table); // its rows' changes, whoever makes them, are told to every instance
  // The owner columns of a table made before records knew their company and department.
  await sql`alter table ${sql.table(table)} add column if not exists create_company bigint,
    add column if not exists create_dept bigint`.execute(db);
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
        await sql`alter table ${sql.table(table)} alter column ${sql.id(col.name)} type ${sql.raw(col.type)}
          using ${sql.id(col.name)}::${sql.raw(col.type)}`.execute(db);
      } catch (e) {
        if (pgError(e)) throw badRequest('FIELD_TYPE_CHANGE_FAILED', { field: col.name });
        throw e;
      }
    }
  }
  // What the list call does (list-sql.ts): filter on search fields, sort on sortable ones with id as
  // the tiebreak, page with offset. An equality filter combined with a sort is served by one index on
  // (filter, sort, id), so a page reads only its own rows. create_time carries startTime/endTime; the
  // primary key already serves id.
  const sortable = view.fields.filter((f) => f.sortable && f.column !== 'id').map((f) => f.column);
  // A company's list (data scope 本企业) reads its own rows in the default order from (create_company, sort, id).
  const sortField = view.page.defaultSort.field;
  const lead = view.byName.get(sortField)?.column ?? SYSTEM_FIELDS[systemFieldOf(sortField) ?? 'id'].column;
  const byLead = lead === 'id' ? ['id'] : [lead, 'id'];
  // A department's list (本部门, 自定义) reads from (create_dept, sort, id) the same way.
  const indexes: string[][] = [
    ['create_time'],
    ...sortable.map((s) => [s, 'id']),
    ['create_company', ...byLead],
    ['create_dept', ...byLead],
  ];
  const trigram: string[] = [];
  for (const f of view.fields.filter((x) => x.search && x.column !== 'id')) {
    if (!f.exact) {
      // A btree cannot serve ILIKE '%…%' (a trigram index can); a date search is a range it can.
      if (f.dataType === 'datetime') {
        if (!f.sortable) indexes.push([f.column]);
      } else if (f.dataType !== 'long' && f.dataType !== 'decimal' && !f.multiple && !f.city) trigram.push(f.column);
      continue;
    }
    indexes.push([f.column, 'id']);
    for (const s of sortable) if (s !== f.column) indexes.push([f.column, s, 'id']);
    // A company's count of a filter value reads only the index; its first page in the default order too.
    if (f.column !== lead) indexes.push(['create_company', f.column, ...byLead]);
  }
  // A field that picks a record of another table is looked up by that record: a join from the other
  // side (a warehouse's orders through their stock-ins), and the records whose dashboard sums follow a
  // record they read when it changes.
  const lookedUp = view.fields.filter((f) => !f.multiple && f.dataType === 'long' && referenceTarget(view, f)).map((f) => f.column);
  // A company's scope reads the records that name it as a party, and a department the records addressed
  // to it, by these columns: each part of the scope's `or` is then an index scan, not a read of the table.
  const recipient = RECIPIENT_FIELD[view.componentName];
  lookedUp.push(...(PARTIES[view.componentName] ?? []).map((p) => p.field), ...(recipient ? [recipient] : []));
  for (const column of lookedUp) {
    if (view.columns.some((c) => c.name === column) && !indexes.some((cols) => cols[0] === column)) indexes.push([column]);
  }
  for (const cols of indexes) {
    const name = indexName(view.id, cols.join(','));
    await sql`create index if not exists ${sql.id(name)} on ${sql.table(table)} (${sql.join(cols.map((c) => sql.id(c)))})`.execute(db);
  }
  // Without pg_trgm (a PostgreSQL without contrib) text searches read the whole table, as before.
  // fastupdate off: rows go into the index as they are written. With it on, they wait in a pending list
  // that only vacuum empties (PGlite has no autovacuum), and every search reads that list whole.
  if (trigram.length && (await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(db)).rows.length) {
    for (const c of trigram) {
      const name = indexName(view.id, `trgm:${c}`);
      await sql`create index if not exists ${sql.id(name)} on ${sql.table(table)} using gin (${sql.id(c)} gin_trgm_ops)
        with (fastupdate = off)`.execute(db);
    }
  }
}

export async function dropViewTable(db: Kysely<DB>, viewId: number): Promise<void> {
  await sql`drop table if exists ${sql.table(viewTable(viewId))}`.execute(db);
}
