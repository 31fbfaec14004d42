import { type Kysely, sql } from 'kysely';
import { withoutIndexes } from './list-bench-seed.js';

/**
 * Grows a view table of the demo seed to many rows with one set-based statement, as a restore would:
 * copies of its first seeded row (so dictionary values and picked records stay valid), each with its own
 * number, quantity, handler and times, spread over `companies` companies. The producer account's company
 * gets one row in `companies` (a company's share, as the others'); the rest go to company ids past the
 * seeded ones. The view's indexes are dropped while the rows go in and built once after (much faster than
 * growing them row by row), then the table is analyzed and vacuumed, as autovacuum leaves it.
 */
export async function seedViewRows(
  db: Kysely<any>,
  { viewId = 12, rows, companies = 1000 }: { viewId?: number; rows: number; companies?: number },
): Promise<void> {
  const table = `lc_view_${viewId}`;
  const producer = (
    await sql<{
      id: number;
      company_id: number;
      dept_id: number | null;
    }>`select id, company_id, dept_id from sys_user where username = 'producer'`.execute(db)
  ).rows[0];
  if (!producer) throw new Error('the demo seed has no producer account');
  const company = Number(producer.company_id);
  const columns = (
    await sql<{ name: string }>`select column_name as name from information_schema.columns
      where table_name = ${table} and column_name <> 'id' order by ordinal_position`.execute(db)
  ).rows.map((r) => r.name);
  if (!columns.length) throw new Error(`table ${table} not found: is view ${viewId} seeded and designed?`);
  const k = Math.max(1, Math.floor(companies));
  const time = `timestamp '2026-01-01' + (g || ' minutes')::interval`;
  const set: Record<string, string> = {
    create_company: `case when g % ${k} = 0 then ${company} else 100000 + g % ${k} end`,
    create_dept: `case when g % ${k} = 0 then ${producer.dept_id === null ? 'null' : Number(producer.dept_id)} else null end`,
    create_by: `case when g % ${k} = 0 then 'producer' else 'bench' || (g % ${k}) end`,
    create_user: `case when g % ${k} = 0 then ${Number(producer.id)} else null end`,
    create_time: time,
    update_time: time,
    stockNo: `'RK' || lpad(g::text, 12, '0')`,
    quantity: `round((g % 997) * 1.137, 3)`,
    handler: `'记录' || g`,
    inTime: time,
  };
  const list = columns.map((c) => `"${c}"`).join(', ');
  const values = columns.map((c) => set[c] ?? `s."${c}"`).join(', ');
  await withoutIndexes(db, table, () =>
    sql
      .raw(
        `insert into ${table} (${list}) select ${values} from (select * from ${table} order by id limit 1) s
       cross join generate_series(1, ${Math.floor(rows)}) g`,
      )
      .execute(db),
  );
  await sql.raw(`vacuum analyze ${table}`).execute(db);
}
