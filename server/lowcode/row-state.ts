import { type RawBuilder, sql } from 'kysely';
import type { AppContext } from '../context.js';
import { viewTable } from './ddl.js';
import { matchExpression, selectList } from './list-sql.js';
import type { IndexedRow, ListQuery } from './list-types.js';
import type { Row } from './record-input.js';
import { rowKeys } from './row-position.js';
import type { ViewModel } from './view-model.js';

/**
 * A record's state as a statement reads it beside the listed row: its id, which cached filters it
 * matches, its sort keys and its columns. Record writes read the states a row was and is in; the row
 * index reads every row the same way, so that the two compare alike.
 */

/** One state of a row (before or after a write, or as read for the row index). Its names cannot be field names. */
export interface RowState {
  '#id': number;
  /** One character per filter judged in SQL, '1' when the row matched it. */
  '#m': string;
  /** Its sort keys, column → exact text. */
  '#k': Record<string, string | null>;
  /** Its columns, as row_to_json gives them. */
  '#r': Record<string, unknown>;
}

/** For the row `t`: one character per query, '1' when it matches. */
function judge(queries: readonly ListQuery[]): RawBuilder<string> {
  if (!queries.length) return sql<string>`''`;
  const marks = queries.map((q) => sql`case when ${matchExpression(q)} then '1' else '0' end`);
  return sql<string>`array_to_string(array[${sql.join(marks)}]::text[], '')`;
}

/** The state columns of the row `t`, with the queries `inSql` judged in SQL. */
export const rowState = (view: ViewModel, inSql: readonly ListQuery[]) =>
  sql`t.id as "#id", ${judge(inSql)} as "#m", ${rowKeys(view)} as "#k", row_to_json(t) as "#r"`;

/** The row as the list shows it, from a state read with rowState and selectList (every state is). */
export function listed(s: RowState): Row {
  const { '#id': _i, '#m': _m, '#k': _k, '#r': _r, '#n': _n, '#w': _w, '#a': _a, '#old': _o, ...row } = s as RowState & Row;
  return row;
}

/** A state as the row index holds it. */
export const indexed = (s: RowState): IndexedRow => ({ id: Number(s['#id']), row: listed(s), raw: s['#r'], keys: s['#k'] });

/** Reads rows of the view for its row index: those with ids above `afterId`, in id order, at most `limit`. */
export function indexLoader(ctx: AppContext, view: ViewModel): (afterId: number, limit: number) => Promise<IndexedRow[]> {
  return async (afterId, limit) => {
    const r = await sql<{ rows: unknown }>`select coalesce(json_agg(x), '[]') as rows from (
      select ${rowState(view, [])}, ${selectList(view)} from ${sql.table(viewTable(view.id))} as t
      where t.id > ${afterId} order by t.id limit ${limit}) x`.execute(ctx.db);
    const json = r.rows[0]?.rows ?? [];
    return ((typeof json === 'string' ? JSON.parse(json) : json) as RowState[]).map(indexed);
  };
}

/** Reads the rows of `ids` (those that exist) for the view's row index, in no particular order. */
export async function indexedRows(ctx: AppContext, view: ViewModel, ids: readonly number[]): Promise<IndexedRow[]> {
  if (!ids.length) return [];
  const r = await sql<{ rows: unknown }>`select coalesce(json_agg(x), '[]') as rows from (
    select ${rowState(view, [])}, ${selectList(view)} from ${sql.table(viewTable(view.id))} as t
    where t.id in (${sql.join(ids)})) x`.execute(ctx.db);
  const json = r.rows[0]?.rows ?? [];
  return ((typeof json === 'string' ? JSON.parse(json) : json) as RowState[]).map(indexed);
}
