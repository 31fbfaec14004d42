import type { FastifyReply } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { formatDate } from '../../src/shared/format.js';
import type { DB } from '../db/schema.js';
import { viewTable } from '../lowcode/ddl.js';
import { RecordInvalid } from '../lowcode/record-input.js';
import type { Row } from '../lowcode/rows.js';
import type { ViewModel } from '../lowcode/view-model.js';

/**
 * Writes of business records by calls other than /api/general (manual disposal orders, company
 * inventory, quotes): the record is judged by the view's own form schema (recordValues) before it gets
 * here, and every write tells the views' caches, as /api/general does.
 */

/** Sets columns of one record and its update time. */
export async function updateRecord(db: Kysely<DB>, view: ViewModel, id: number, values: Row): Promise<void> {
  const sets = [sql`update_time = now()`, ...Object.entries(values).map(([c, v]) => sql`${sql.id(c)} = ${v}`)];
  await sql`update ${sql.table(viewTable(view.id))} set ${sql.join(sets)} where id = ${id}`.execute(db);
}

/** Answered like /api/general: 400 with every field's first problem. */
export function sendInvalid(reply: FastifyReply, e: RecordInvalid) {
  return reply.status(400).send({ status: 400, message: e.message, errors: e.errors });
}

export { RecordInvalid };

/**
 * The next number of a day's series: prefix + yyyyMMdd + 4 digits (RK202611210001), one more than the
 * largest of that day in the column. Two writers racing may draw the same number; the column is not unique.
 */
export async function nextNumber(db: Kysely<DB>, view: ViewModel, column: string, prefix: string, at = new Date()): Promise<string> {
  const day = `${prefix}${formatDate(at, 'YYYYMMDD')}`;
  if (!view.columns.some((c) => c.name === column)) return `${day}0001`;
  const res = await sql<{ last: string | null }>`select max(${sql.ref(column)}) as last from ${sql.table(viewTable(view.id))}
    where ${sql.ref(column)} like ${`${day}%`} and length(${sql.ref(column)}) = ${day.length + 4}`.execute(db);
  const last = res.rows[0]?.last;
  const seq = last ? Number(last.slice(day.length)) + 1 : 1;
  return `${day}${String(Math.min(seq, 9999)).padStart(4, '0')}`;
}
