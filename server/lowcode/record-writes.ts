import { type RawBuilder, sql } from 'kysely';
import type { AppContext } from '../context.js';
import { viewTable } from './ddl.js';
import type { CacheFilter, WriteEffect } from './list-cache.js';
import { type ListQuery, matchExpression, type RowTest, rowMatcher, selectList } from './list-query.js';
import type { Row } from './record-input.js';
import { type Ordering, placeAmong, rowKeys, type SortKey, sortsAfter, textInByteOrder } from './row-position.js';
import type { ViewModel } from './view-model.js';
import { changeRows, lowcodeState } from './view-store.js';

/**
 * Record add, update and delete through /api/general. Each statement also tells, for every filter the
 * list cache holds for the view, whether the written row matched it (before and after), where it sorts
 * and how it reads, so the cache moves its counts on and revises the blocks of rows a write touched:
 * the row put in its place, or the block dropped when that cannot be told (see ListCache.write).
 */

/** A block of list rows as the cache holds it: `size` rows from offset `start` (fewer at the end), in `order`. */
export interface CachedBlock {
  rows: Row[];
  /** Each row's sort key. */
  keys: SortKey[];
  order: ListQuery['sort'];
  start: number;
  size: number;
}

/** One state of a written row (before or after the write). Its names cannot be field names. */
interface RowState {
  '#id': number;
  /** One character per filter judged in SQL, '1' when the row matched it. */
  '#m': string;
  /** Its sort keys, column → exact text. */
  '#k': Record<string, string | null>;
  /** Its columns, as row_to_json gives them. */
  '#r': Record<string, unknown>;
}

/**
 * Most filters judged in SQL per write (each costs the write some 35 µs on PGlite): the most recently
 * used of those whose answers were served again. Filters of dictionary values and time ranges only are
 * judged here in JavaScript, all of them. Entries of the others (one-off searches, mostly) are dropped.
 */
const MAX_SQL_JUDGED = 64;

interface Judged {
  filter: CacheFilter<unknown>;
  /** Index in the SQL judgement, or the JavaScript test. */
  test: number | RowTest;
}

function toJudge(filters: CacheFilter<unknown>[]): { judged: Judged[]; inSql: CacheFilter<unknown>[] } {
  const judged: Judged[] = [];
  const rest: CacheFilter<unknown>[] = [];
  for (const f of filters) {
    const test = rowMatcher(f.filter as ListQuery);
    if (test) judged.push({ filter: f, test });
    else if (f.hits) rest.push(f);
  }
  const inSql = rest.slice(-MAX_SQL_JUDGED);
  inSql.forEach((f, i) => {
    judged.push({ filter: f, test: i });
  });
  return { judged, inSql };
}

/** For the row `t`: one character per filter, '1' when it matches. */
function judge(filters: CacheFilter<unknown>[]): RawBuilder<string> {
  if (!filters.length) return sql<string>`''`;
  const marks = filters.map((f) => sql`case when ${matchExpression(f.filter as ListQuery)} then '1' else '0' end`);
  return sql<string>`array_to_string(array[${sql.join(marks)}]::text[], '')`;
}

const state = (view: ViewModel, inSql: CacheFilter<unknown>[]) =>
  sql`t.id as "#id", ${judge(inSql)} as "#m", ${rowKeys(view)} as "#k", row_to_json(t) as "#r"`;

/** The row as the list shows it, from a state read with `state` and selectList (every state is). */
function listed(s: RowState): Row {
  const { '#id': _i, '#m': _m, '#k': _k, '#r': _r, ...row } = s as RowState & Row;
  return row;
}

/**
 * Blocks of one order and size that follow each other without a gap hold one stretch of the list, from
 * the first block's start: exactly that stretch, or (`toEnd`, its last block not full) all the list from
 * there. A write is applied to the stretch, which is then cut into the same blocks again.
 */
interface Stretch {
  order: ListQuery['sort'];
  size: number;
  start: number;
  toEnd: boolean;
  blocks: [key: string, block: CachedBlock][];
}

function stretches(values: ReadonlyMap<string, unknown>): Stretch[] {
  const groups = new Map<string, [string, CachedBlock][]>();
  for (const [key, value] of values) {
    const block = value as CachedBlock;
    const group = `${JSON.stringify(block.order)}|${block.size}`;
    groups.set(group, [...(groups.get(group) ?? []), [key, block]]);
  }
  const out: Stretch[] = [];
  for (const blocks of groups.values()) {
    blocks.sort((a, b) => a[1].start - b[1].start);
    let run: Stretch | undefined;
    for (const [key, block] of blocks) {
      if (!run || run.toEnd || run.start + run.blocks.length * run.size !== block.start) {
        run = { order: block.order, size: block.size, start: block.start, toEnd: false, blocks: [] };
        out.push(run);
      }
      run.blocks.push([key, block]);
      run.toEnd = block.rows.length < block.size;
    }
  }
  return out;
}

/**
 * The stretch's blocks after the write, by cache key; those that cannot be told are left out. A
 * matching old state leaves the stretch (when in it) or must sort after it; a matching new state takes
 * its place in it, or sorts after it (then, in a stretch to the end of the list, it is the new last
 * row). A row before a stretch that does not start the list shifts it by rows unknown here: dropped.
 * A stretch that lost rows leaves its last blocks short: those are dropped.
 */
function reviseStretch(how: Ordering, run: Stretch, gone: RowState[], come: RowState[]): Map<string, CachedBlock> {
  const kept = new Map<string, CachedBlock>();
  const { order, size } = run;
  const before = run.blocks.flatMap(([, b]) => b.rows);
  const rows = [...before];
  const keys = run.blocks.flatMap(([, b]) => b.keys);
  const last = keys.at(-1);
  for (const s of gone) {
    const at = rows.findIndex((r) => r.id === s['#id']);
    if (at >= 0) {
      // The stretch must hold the row as this write found it: another write's version of it means the
      // two were applied out of order here.
      if (JSON.stringify(rows[at]) !== JSON.stringify(listed(s))) return kept;
      rows.splice(at, 1);
      keys.splice(at, 1);
    } else if (run.toEnd || !last || !sortsAfter(how, order, s['#k'], last)) return kept;
  }
  for (const s of come) {
    if (rows.some((r) => r.id === s['#id'])) return kept;
    const at = placeAmong(how, order, s['#k'], keys);
    if (at === undefined || (at === 0 && run.start > 0)) return kept;
    if (at === keys.length && !run.toEnd) continue;
    rows.splice(at, 0, listed(s));
    keys.splice(
      at,
      0,
      order.map((o) => s['#k'][o.column] ?? null),
    );
  }
  const unchanged = rows.length === before.length && rows.every((r, i) => r === before[i]);
  for (const [key, block] of run.blocks) {
    const from = block.start - run.start;
    // Short of a full block, unless the stretch runs to the end of the list (then the list ends in it).
    if (!unchanged && !run.toEnd && rows.length < from + size) break;
    kept.set(key, unchanged ? block : { ...block, rows: rows.slice(from, from + size), keys: keys.slice(from, from + size) });
  }
  return kept;
}

function effect<T>(how: Ordering, judged: Judged[], value: T, before: RowState[], after: RowState[]): WriteEffect<T> {
  const matcher = new Map<string, (s: RowState) => boolean>();
  for (const { filter, test } of judged) {
    if (typeof test === 'number') matcher.set(filter.key, (s) => s['#m'][test] === '1');
    // A filter the JavaScript test cannot tell for one of the states is left unjudged: its entries go.
    else if ([...before, ...after].every((s) => test(s['#r']) !== undefined)) matcher.set(filter.key, (s) => test(s['#r']) === true);
  }
  const matches = new Map<string, { before: number; after: number }>();
  for (const [key, m] of matcher) matches.set(key, { before: before.filter(m).length, after: after.filter(m).length });
  return {
    value,
    matches,
    revise: (filterKey, values) => {
      const kept = new Map<string, unknown>();
      const m = matcher.get(filterKey);
      if (!m) return kept;
      const gone = before.filter(m);
      const come = after.filter(m);
      for (const run of stretches(values)) for (const [key, block] of reviseStretch(how, run, gone, come)) kept.set(key, block);
      return kept;
    },
  };
}

/** Per database: whether text sorts by its bytes, asked once. */
const byteOrder = new WeakMap<object, Promise<boolean>>();

async function ordering(ctx: AppContext, view: ViewModel): Promise<Ordering> {
  let bytes = byteOrder.get(ctx.db);
  if (!bytes) {
    bytes = textInByteOrder(ctx.db);
    byteOrder.set(ctx.db, bytes);
  }
  return { view, textInByteOrder: await bytes };
}

/** Inserts one prepared record (column → value, see recordValues); answers its id. */
export async function addRecord(ctx: AppContext, view: ViewModel, values: Row, createBy: string): Promise<number> {
  const columns = Object.keys(values);
  const how = await ordering(ctx, view);
  const id = await lowcodeState(ctx).cache.write(view.id, async (filters) => {
    const { judged, inSql } = toJudge(filters);
    const res = await sql<RowState>`
      insert into ${sql.table(viewTable(view.id))} as t (${sql.join([sql.id('create_by'), ...columns.map((c) => sql.id(c))])})
      values (${sql.join([createBy, ...columns.map((c) => values[c] ?? null)])})
      returning ${state(view, inSql)}, ${selectList(view)}`.execute(ctx.db);
    const row = res.rows[0] as RowState;
    return effect(how, judged, row['#id'], [], [row]);
  });
  changeRows(ctx, view.id);
  return id;
}

/** Sets the given columns of one record (and its update_time); false when there is no such record. */
export async function updateRecord(ctx: AppContext, view: ViewModel, id: number, values: Row): Promise<boolean> {
  const table = sql.table(viewTable(view.id));
  const sets = [sql`update_time = now()`, ...Object.entries(values).map(([c, v]) => sql`${sql.id(c)} = ${v}`)];
  const how = await ordering(ctx, view);
  const found = await lowcodeState(ctx).cache.write(view.id, (filters) => {
    const { judged, inSql } = toJudge(filters);
    return ctx.db.transaction().execute(async (trx) => {
      const old =
        await sql<RowState>`select ${state(view, inSql)}, ${selectList(view)} from ${table} as t where t.id = ${id} for update`.execute(
          trx,
        );
      if (!old.rows.length) return effect(how, judged, false, [], []);
      const res = await sql<RowState>`update ${table} as t set ${sql.join(sets)} where t.id = ${id}
        returning ${state(view, inSql)}, ${selectList(view)}`.execute(trx);
      return effect(how, judged, true, old.rows, res.rows);
    });
  });
  changeRows(ctx, view.id);
  return found;
}

export async function deleteRecords(ctx: AppContext, view: ViewModel, ids: number[]): Promise<void> {
  const how = await ordering(ctx, view);
  await lowcodeState(ctx).cache.write(view.id, async (filters) => {
    const { judged, inSql } = toJudge(filters);
    const res = await sql<RowState>`delete from ${sql.table(viewTable(view.id))} as t where t.id in (${sql.join(ids)})
      returning ${state(view, inSql)}, ${selectList(view)}`.execute(ctx.db);
    return effect(how, judged, undefined, res.rows, []);
  });
  changeRows(ctx, view.id);
}
