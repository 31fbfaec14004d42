import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { viewTable } from './ddl.js';
import type { Row } from './record-input.js';
import type { ViewField, ViewModel } from './view-model.js';

/**
 * Document numbers the server assigns: a field locked once saved whose pattern is a prefix of capital
 * letters and 12 digits (`^RK\d{12}$`) holds the prefix, the day (YYYYMMDD, the database's local date
 * as create_time) and a 4-digit serial of that day, e.g. RK202611290001. A record that leaves it empty
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

/** Fills, in place, the empty generated numbers of records about to be added (column → value, see recordValues). */
export async function fillNumbers(ctx: AppContext, view: ViewModel, rows: Row[]): Promise<void> {
  for (const { field, prefix } of numberedFields(view)) {
    const empty = rows.filter((r) => isEmpty(r[field.column]));
    if (!empty.length) continue;
    const n = empty.length;
    const column = sql.ref(`t.${field.column}`);
    const res = await sql<{ head: string; last: number }>`
      with d as (select ${prefix} || to_char(localtimestamp, 'YYYYMMDD') as head)
      insert into doc_number as s (name, last)
      select ${`${view.id}:${field.column}:`} || d.head,
        ${n}::int + coalesce((select max(substr(${column}, length(d.head) + 1)::int) from ${sql.table(viewTable(view.id))} as t
          where ${column} ~ ('^' || d.head || '[0-9]{4}$')), 0)
      from d
      on conflict (name) do update set last = greatest(s.last + ${n}::int, excluded.last)
      returning substr(s.name, length(${`${view.id}:${field.column}:`}) + 1) as head, s.last`.execute(ctx.db);
    const row = res.rows[0];
    if (!row) continue;
    const first = Number(row.last) - n + 1;
    empty.forEach((r, i) => {
      r[field.column] = `${row.head}${String(first + i).padStart(4, '0')}`;
    });
  }
}
