import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.js';
import { viewTable } from './ddl.js';
import { selectList } from './list-query.js';
import type { Row } from './record-input.js';
import type { ViewModel } from './view-model.js';

export type { Row };

const BATCH = 500;

/**
 * Inserts prepared rows (column → value, see recordValues) in one transaction, in multi-row batches.
 * Columns missing from a row are inserted as null. Returns the new ids in order.
 */
export async function insertRows(db: Kysely<DB>, view: ViewModel, rows: Row[], createBy: string): Promise<number[]> {
  if (!rows.length) return [];
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const table = sql.table(viewTable(view.id));
  const head = sql.join([sql.id('create_by'), ...columns.map((c) => sql.id(c))]);
  const insert = async (trx: Kysely<DB>) => {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += BATCH) {
      const tuples = rows.slice(i, i + BATCH).map((r) => sql`(${sql.join([createBy, ...columns.map((c) => r[c] ?? null)])})`);
      const res = await sql<{ id: number }>`insert into ${table} (${head}) values ${sql.join(tuples)} returning id`.execute(trx);
      ids.push(...res.rows.map((r) => r.id));
    }
    return ids;
  };
  // The seed runs inside its own transaction already.
  return db.isTransaction ? insert(db) : db.transaction().execute(insert);
}

/** One record as the wire shows it, or undefined. */
export async function findRecord(db: Kysely<DB>, view: ViewModel, id: number): Promise<Row | undefined> {
  const res = await sql<Row>`select ${selectList(view)} from ${sql.table(viewTable(view.id))} where id = ${id}`.execute(db);
  return res.rows[0];
}
