import { type Kysely, sql } from 'kysely';
import { formatDate } from '../../src/shared/format.js';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { viewTable } from './ddl.js';
import type { Row } from './record-input.js';
import type { ViewField, ViewModel } from './view-model.js';

/**
 * Document numbers the server assigns: a field locked once saved whose pattern is a prefix of capital
 * letters and 12 digits (`^RK\d{12}$`) holds the prefix, the day (YYYYMMDD, the server's local date)
 * and a 4-digit serial of that day, e.g. RK202611290001. A record that leaves it empty
 * gets the next one; a typed number is kept as typed (and judged by the pattern). Serials are taken
 * from the doc_number counter in one upsert, which waits for any other writer of the same day, and
 * never below the highest serial of that day already in the table (typed or seeded), so no two records
 * get one number. A serial taken by a write that then fails is not reused.
 */

const NUMBER_PATTERN = /^\^([A-Z]{1,8})\\d\{12\}\$$/;

/** The generated number fields of a view, with their prefixes. */
export function numberedFields(view: ViewModel): { field: ViewField; prefix: string }[] {
  const out: { field: ViewField; prefix: string }[] = [];
  for (const f of view.formFields) {
    const m = f.form?.editLock && !f.system && f.dataType === 'varchar' ? NUMBER_PATTERN.exec(f.form.pattern ?? '') : null;
    if (m) out.push({ field: f, prefix: m[1] as string });
  }
  return out;
}

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * The next `n` numbers of a day's series of one column: prefix + YYYYMMDD + 4 digits (RK202611210001),
 * from the doc_number counter, never below the largest number of that day already in the column.
 */
export async function takeNumbers(
  db: Kysely<DB>,
  view: ViewModel,
  column: string,
  prefix: string,
  n: number,
  at = new Date(),
): Promise<string[]> {
  if (n < 1) return [];
  const head = `${prefix}${formatDate(at, 'YYYYMMDD')}`;
  const key = `${view.id}:${column}:${head}`;
  const ref = sql.ref(`t.${column}`);
  const highest = view.columns.some((c) => c.name === column)
    ? sql`(select max(substr(${ref}, ${head.length + 1})::int) from ${sql.table(viewTable(view.id))} as t
        where ${ref} like ${`${head}%`} and ${ref} ~ '^[A-Z]+[0-9]{12}$')`
    : sql`null`;
  const res = await sql<{ last: number }>`
    insert into doc_number as s (name, last) values (${key}, ${n}::int + coalesce(${highest}, 0))
    on conflict (name) do update set last = greatest(s.last + ${n}::int, excluded.last)
    returning s.last`.execute(db);
  const first = Number(res.rows[0]?.last ?? n) - n + 1;
  return Array.from({ length: n }, (_, i) => `${head}${String(first + i).padStart(4, '0')}`);
}

/** Fills, in place, the empty generated numbers of records about to be added (column → value, see recordValues). */
export async function fillNumbers(ctx: AppContext, view: ViewModel, rows: Row[]): Promise<void> {
  for (const { field, prefix } of numberedFields(view)) {
    const empty = rows.filter((r) => isEmpty(r[field.column]));
    const numbers = await takeNumbers(ctx.db, view, field.column, prefix, empty.length);
    empty.forEach((r, i) => {
      r[field.column] = numbers[i];
    });
  }
}
