import { type Kysely, sql } from 'kysely';
import type { RowScope } from '../access/rows.js';
import type { DB } from '../db/schema.js';
import { viewTable } from './ddl.js';
import { selectList } from './list-sql.js';
import type { Row } from './record-input.js';
import type { ViewModel } from './view-model.js';

export type { Row };

/**
 * Who a record is created by: the system columns create_by (the author's username when it wrote, shown
 * as createBy), create_user (the author's account id: who the record belongs to, whatever the account
 * is renamed to and whoever takes a freed username later), create_company and create_dept.
 */
export interface RecordOwner {
  /** The author's account; null for records brought in for a company by nobody on the platform. */
  id: number | null;
  username: string;
  companyId: number | null;
  deptId: number | null;
}

export const OWNER_COLUMNS = ['create_by', 'create_user', 'create_company', 'create_dept'] as const;
export const ownerValues = (o: RecordOwner) => [o.username, o.id, o.companyId, o.deptId];

const BATCH = 500;

/**
 * Inserts prepared rows (column → value, see recordValues) in one transaction, in multi-row batches.
 * Columns missing from a row are inserted as null; the owner columns come from `owner` alone. Returns
 * the new ids in order.
 */
export async function insertRows(db: Kysely<DB>, view: ViewModel, rows: Row[], owner: RecordOwner): Promise<number[]> {
  if (!rows.length) return [];
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((c) => !(OWNER_COLUMNS as readonly string[]).includes(c));
  const table = sql.table(viewTable(view.id));
  const head = sql.join([...OWNER_COLUMNS.map((c) => sql.id(c)), ...columns.map((c) => sql.id(c))]);
  const createBy = ownerValues(owner);
  const insert = async (trx: Kysely<DB>) => {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += BATCH) {
      const tuples = rows.slice(i, i + BATCH).map((r) => sql`(${sql.join([...createBy, ...columns.map((c) => r[c] ?? null)])})`);
      const res = await sql<{ id: number }>`insert into ${table} (${head}) values ${sql.join(tuples)} returning id`.execute(trx);
      ids.push(...res.rows.map((r) => r.id));
    }
    return ids;
  };
  // The seed runs inside its own transaction already.
  return db.isTransaction ? insert(db) : db.transaction().execute(insert);
}

/** One record as the wire shows it, or undefined when there is none within `scope`. */
export async function findRecord(db: Kysely<DB>, view: ViewModel, id: number, scope?: RowScope): Promise<Row | undefined> {
  const within = scope ? sql`and ${scope.condition}` : sql``;
  const res = await sql<Row>`select ${selectList(view)} from ${sql.table(viewTable(view.id))} as t where t.id = ${id} ${within}`.execute(
    db,
  );
  return res.rows[0];
}

/** Who wrote a record: its author's account and the company it was written in (nulls when unknown or missing). */
export async function authorOf(db: Kysely<DB>, view: ViewModel, id: number): Promise<{ userId: number | null; companyId: number | null }> {
  const res = await sql<{ user_id: number | string | null; company_id: number | string | null }>`
    select create_user as user_id, create_company as company_id from ${sql.table(viewTable(view.id))} where id = ${id}`.execute(db);
  const row = res.rows[0];
  const num = (v: number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));
  return { userId: num(row?.user_id), companyId: num(row?.company_id) };
}

/** Whether every one of `ids` is a record within `scope`. */
export async function allWithin(db: Kysely<DB>, view: ViewModel, ids: number[], scope: RowScope | undefined): Promise<boolean> {
  const distinct = [...new Set(ids)];
  if (!distinct.length) return true;
  const within = scope ? sql`and ${scope.condition}` : sql``;
  const res = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(viewTable(view.id))} as t
    where t.id in (${sql.join(distinct)}) ${within}`.execute(db);
  return Number(res.rows[0]?.n ?? 0) === distinct.length;
}
