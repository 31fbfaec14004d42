import { type RawBuilder, sql } from 'kysely';
import type { AppContext } from '../context.js';
import { viewTable } from './ddl.js';
import type { CacheFilter, WriteEffect } from './list-cache.js';
import { type ListQuery, matchExpression } from './list-query.js';
import type { Row } from './record-input.js';
import { rowKeys, sortsAfter } from './row-position.js';
import type { ViewModel } from './view-model.js';
import { changeRows, lowcodeState } from './view-store.js';

/**
 * Record add, update and delete through /api/general. Each statement also tells, for every filter the
 * list cache holds for the view, whether the written row matched it (before and after), and where the
 * row sorts, so the cache moves its counts on and drops only the blocks of rows a write touched (see
 * ListCache.write).
 */

/** A block of list rows as the cache holds it: the rows, their order, and the last row's sort key when the block is full. */
export interface CachedBlock {
  rows: Row[];
  order: ListQuery['sort'];
  last: (string | number | null)[] | null;
}

/** One state of a written row (before or after the write): which filters it matched, where it sorts. */
interface RowState {
  /** One character per filter, '1' when the row matched it. */
  m: string;
  k: Record<string, string | null>;
}

/** For the row `t`: one character per filter, '1' when it matches. */
function judge(filters: CacheFilter<unknown>[]): RawBuilder<string> {
  if (!filters.length) return sql<string>`''`;
  const marks = filters.map((f) => sql`case when ${matchExpression(f.filter as ListQuery)} then '1' else '0' end`);
  return sql<string>`array_to_string(array[${sql.join(marks)}]::text[], '')`;
}

const stateColumns = (view: ViewModel, filters: CacheFilter<unknown>[]) => sql`${judge(filters)} as m, ${rowKeys(view)} as k`;

function effect<T>(view: ViewModel, filters: CacheFilter<unknown>[], value: T, before: RowState[], after: RowState[]): WriteEffect<T> {
  const index = new Map(filters.map((f, i) => [f.key, i]));
  const matches = new Map<string, { before: number; after: number }>();
  filters.forEach((f, i) => {
    matches.set(f.key, { before: before.filter((s) => s.m[i] === '1').length, after: after.filter((s) => s.m[i] === '1').length });
  });
  const states = [...before, ...after];
  return {
    value,
    matches,
    keeps: (filterKey, cached) => {
      const i = index.get(filterKey);
      const block = cached as CachedBlock;
      if (i === undefined || !block.last) return false;
      const last = block.last;
      return states.every((s) => s.m[i] !== '1' || sortsAfter(view, block.order, s.k, last));
    },
  };
}

/** Inserts one prepared record (column → value, see recordValues); answers its id. */
export async function addRecord(ctx: AppContext, view: ViewModel, values: Row, createBy: string): Promise<number> {
  const columns = Object.keys(values);
  const id = await lowcodeState(ctx).cache.write(view.id, async (filters) => {
    const res = await sql<RowState & { id: number }>`
      insert into ${sql.table(viewTable(view.id))} as t (${sql.join([sql.id('create_by'), ...columns.map((c) => sql.id(c))])})
      values (${sql.join([createBy, ...columns.map((c) => values[c] ?? null)])})
      returning t.id, ${stateColumns(view, filters)}`.execute(ctx.db);
    const row = res.rows[0] as RowState & { id: number };
    return effect(view, filters, row.id, [], [row]);
  });
  changeRows(ctx, view.id);
  return id;
}

/** Sets the given columns of one record (and its update_time); false when there is no such record. */
export async function updateRecord(ctx: AppContext, view: ViewModel, id: number, values: Row): Promise<boolean> {
  const table = sql.table(viewTable(view.id));
  const sets = [sql`update_time = now()`, ...Object.entries(values).map(([c, v]) => sql`${sql.id(c)} = ${v}`)];
  const found = await lowcodeState(ctx).cache.write(view.id, (filters) =>
    ctx.db.transaction().execute(async (trx) => {
      const old = await sql<RowState>`select ${stateColumns(view, filters)} from ${table} as t where t.id = ${id} for update`.execute(trx);
      if (!old.rows.length) return effect(view, filters, false, [], []);
      const res = await sql<RowState>`update ${table} as t set ${sql.join(sets)} where t.id = ${id}
        returning ${stateColumns(view, filters)}`.execute(trx);
      return effect(view, filters, true, old.rows, res.rows);
    }),
  );
  changeRows(ctx, view.id);
  return found;
}

export async function deleteRecords(ctx: AppContext, view: ViewModel, ids: number[]): Promise<void> {
  await lowcodeState(ctx).cache.write(view.id, async (filters) => {
    const res = await sql<RowState>`delete from ${sql.table(viewTable(view.id))} as t where t.id in (${sql.join(ids)})
      returning ${stateColumns(view, filters)}`.execute(ctx.db);
    return effect(view, filters, undefined, res.rows, []);
  });
  changeRows(ctx, view.id);
}
