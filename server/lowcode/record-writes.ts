import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { RowScope, RowTest } from '../access/rows.js';
import type { AppContext } from '../context.js';
import { ownAuditSetting } from '../db/audit.js';
import type { DB } from '../db/schema.js';
import { viewTable } from './ddl.js';
import type { CacheFilter, WriteEffect, WriteGroups } from './list-cache.js';
import { BLOCK_MARGIN, type CachedBlock } from './list-pages.js';
import { selectList } from './list-sql.js';
import type { ListQuery, SortKey } from './list-types.js';
import type { Row } from './record-input.js';
import { testOf } from './row-match.js';
import { writerMark } from './row-notify.js';
import { byteOrderOf, type Ordering, placeAmong, sortsAfter, sortsBefore } from './row-position.js';
import { indexed, listed, type RowState, rowState } from './row-state.js';
import { OWNER_COLUMNS, ownerValues, type RecordOwner } from './rows.js';
import type { ViewModel } from './view-model.js';
import { knownView, lowcodeState, onRemoteRows, rowsNotice } from './view-store.js';

/**
 * Record add, update and delete through /api/general. Each statement also tells, for every filter the
 * list cache holds for the view, whether the written row matched it (before and after), where it sorts
 * and how it reads, so the cache moves its counts on and revises the blocks of rows a write touched:
 * the row put in its place, or the block dropped when that cannot be told (see ListCache.write).
 */

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

/** The filters a write judges: in JavaScript where it can, else some in SQL (`inSql`, their queries in order). */
function toJudge(filters: CacheFilter<unknown>[], inSqlToo = true): { judged: Judged[]; inSql: ListQuery[] } {
  const judged: Judged[] = [];
  const rest: CacheFilter<unknown>[] = [];
  for (const f of filters) {
    const test = testOf(f.filter as ListQuery);
    if (test) judged.push({ filter: f, test });
    else if (f.hits && inSqlToo) rest.push(f);
  }
  const inSql = rest.slice(-MAX_SQL_JUDGED);
  inSql.forEach((f, i) => {
    judged.push({ filter: f, test: i });
  });
  return { judged, inSql: inSql.map((f) => f.filter as ListQuery) };
}

/**
 * The notice columns of a write statement: the mark that leaves its rows out of the view table's trigger's
 * notice (see writerMark), the writer the audit trail records (see ownAuditSetting), and the other
 * instances' notice (none on a single instance).
 */
const noticeColumn = (ctx: AppContext, notify: RawBuilder<string> | null) =>
  sql`, ${writerMark(ctx.bus.instanceId)} as "#w", ${ownAuditSetting()} as "#a"${notify ? sql`, ${notify} as "#n"` : sql``}`;

/** The state of the row `t` of a write statement as JSON, for the other instances (no filter judged in SQL). */
const stateJson = (view: ViewModel) => sql`(select to_json(x) from (select ${rowState(view, [])}, ${selectList(view)}) x)`;

/** The other instances' notice of a write: the written row as it was and as it is (each a JSON state, or none). */
const remoteRows = (view: ViewModel, gone: RawBuilder<unknown> | null, come: RawBuilder<unknown> | null) =>
  sql`json_build_object('t', 'rows-changed', 'viewId', ${view.id}::int,
    'gone', ${gone ? sql`json_build_array(${gone})` : sql`'[]'::json`}, 'come', ${come ? sql`json_build_array(${come})` : sql`'[]'::json`})`;

// Another instance's write, told with its rows' states: the filters this instance can judge in JavaScript
// move on as after its own writes; the others are dropped.
onRemoteRows((ctx, viewId, gone, come) => {
  const view = knownView(ctx, viewId);
  if (!view) return false;
  const bytes = byteOrderOf(ctx.db);
  // Until the database has answered, a write cannot be placed: this one is forgotten, the next ones not.
  if (bytes.known === undefined) return false;
  const how: Ordering = { view, textInByteOrder: bytes.known };
  lowcodeState(ctx).cache.remoteWrite(viewId, (filters, groups) => {
    const { judged } = toJudge(filters, false);
    return effect(how, judged, groups, undefined, gone as RowState[], come as RowState[]);
  });
  return true;
});

/**
 * Runs a write statement that sends its own notice (see rowsNotice): the notice was sent when the
 * statement committed with a written row.
 */
async function noticed<R extends { rows: unknown[] }>(
  ctx: AppContext,
  viewId: number,
  remote: RawBuilder<unknown>,
  write: (notify: RawBuilder<string> | null) => Promise<R>,
): Promise<R> {
  const notice = rowsNotice(ctx, viewId, remote);
  const r = await write(notice.notify);
  notice.done(r.rows.length > 0);
  return r;
}

/**
 * Blocks of one order and size whose rows overlap or meet hold one stretch of the list: `rows` from offset
 * `from`, exactly that stretch, or (`toEnd`) all the list from there. A write is applied to the stretch,
 * whose blocks are then cut from it again.
 */
interface Stretch {
  order: ListQuery['sort'];
  from: number;
  rows: Row[];
  keys: SortKey[];
  toEnd: boolean;
  blocks: [key: string, block: CachedBlock][];
  /** Two blocks disagree on the rows they share (never expected): its blocks cannot be told. */
  broken: boolean;
}

function stretches(values: ReadonlyMap<string, unknown>): Stretch[] {
  const groups = new Map<string, [string, CachedBlock][]>();
  for (const [key, value] of values) {
    const block = value as CachedBlock;
    const group = groups.get(block.group);
    if (group) group.push([key, block]);
    else groups.set(block.group, [[key, block]]);
  }
  const out: Stretch[] = [];
  for (const blocks of groups.values()) {
    blocks.sort((a, b) => a[1].start - a[1].lead - (b[1].start - b[1].lead));
    let run: Stretch | undefined;
    for (const [key, block] of blocks) {
      const from = block.start - block.lead;
      if (!run || from > run.from + run.rows.length) {
        run = { order: block.order, from, rows: block.rows, keys: block.keys, toEnd: block.toEnd, blocks: [], broken: false };
        out.push(run);
      } else {
        // Overlapping or adjacent: the rows they share must be the same rows.
        const at = from - run.from;
        const shared = Math.min(run.rows.length - at, block.rows.length);
        for (let i = 0; i < shared && !run.broken; i++) if (run.rows[at + i]?.id !== block.rows[i]?.id) run.broken = true;
        if (block.rows.length > shared) {
          run.rows = [...run.rows, ...block.rows.slice(shared)];
          run.keys = [...run.keys, ...block.keys.slice(shared)];
        }
        run.toEnd ||= block.toEnd;
      }
      run.blocks.push([key, block]);
    }
  }
  return out;
}

/**
 * The stretch's blocks after the write, by cache key; those that cannot be told are left out. A matching
 * old state leaves the stretch (when in it), or sorts before it (the stretch moves up a row) or after it;
 * a matching new state takes its place in it, or sorts before it (the stretch moves down a row) or after
 * it (then, in a stretch to the end of the list, it is the new last row). A block whose rows are no longer
 * all in the stretch is dropped.
 */
function reviseStretch(how: Ordering, run: Stretch, gone: RowState[], come: RowState[]): Map<string, CachedBlock> {
  const kept = new Map<string, CachedBlock>();
  if (run.broken) return kept;
  const { order } = run;
  const last = run.keys.at(-1);
  // Most writes touch nothing a stretch holds: every written row sorts after it.
  if (last && !run.toEnd && [...gone, ...come].every((s) => sortsAfter(how, order, s['#k'], last))) {
    for (const [key, block] of run.blocks) kept.set(key, block);
    return kept;
  }
  // A stretch past the end of the list, or of an empty list, is not told about here.
  if (!last) return kept;
  let from = run.from;
  const rows = [...run.rows];
  const keys = [...run.keys];
  for (const s of gone) {
    const at = rows.findIndex((r) => r.id === s['#id']);
    if (at >= 0) {
      // The stretch must hold the row as this write found it: another write's version of it means the
      // two were applied out of order here.
      if (JSON.stringify(rows[at]) !== JSON.stringify(listed(s))) return kept;
      rows.splice(at, 1);
      keys.splice(at, 1);
    } else if (keys.length && sortsAfter(how, order, s['#k'], keys.at(-1) as SortKey)) {
      if (run.toEnd) return kept;
    } else if (keys.length && from > 0 && sortsBefore(how, order, s['#k'], keys[0] as SortKey)) from--;
    else return kept;
  }
  for (const s of come) {
    if (rows.some((r) => r.id === s['#id'])) return kept;
    // Nothing is known of where a row goes around an empty stretch, unless it is the whole list.
    if (!keys.length && (from > 0 || !run.toEnd)) return kept;
    const at = placeAmong(how, order, s['#k'], keys);
    if (at === undefined) return kept;
    if (at === 0 && from > 0) {
      from++;
      continue;
    }
    if (at === keys.length && !run.toEnd) continue;
    rows.splice(at, 0, listed(s));
    keys.splice(
      at,
      0,
      order.map((o) => s['#k'][o.column] ?? null),
    );
  }
  for (const [key, block] of run.blocks) {
    const at = block.start - from;
    // Its rows must all be known: from its start, a full block or the rest of the list.
    if (at < 0 || (!run.toEnd && at + block.size > rows.length)) continue;
    const first = Math.min(Math.max(0, at - BLOCK_MARGIN), rows.length);
    const end = Math.max(first, Math.min(rows.length, at + block.size + BLOCK_MARGIN));
    kept.set(key, {
      ...block,
      rows: rows.slice(first, end),
      keys: keys.slice(first, end),
      lead: at - first,
      toEnd: run.toEnd && end === rows.length,
    });
  }
  return kept;
}

/** A filter no written row matched, before or after. */
const UNTOUCHED = { before: 0, after: 0 } as const;

function effect<T>(how: Ordering, judged: Judged[], groups: WriteGroups, value: T, before: RowState[], after: RowState[]): WriteEffect<T> {
  const matches = new Map<string, { before: number; after: number }>();
  /** The matching states of filters a written row matched. */
  const matched = new Map<string, { gone: RowState[]; come: RowState[] }>();
  const select = (test: number | RowTest, states: RowState[]): RowState[] | undefined => {
    const out: RowState[] = [];
    for (const s of states) {
      const r = typeof test === 'number' ? s['#m'][test] === '1' : test(s['#r']);
      if (r === undefined) return undefined;
      if (r) out.push(s);
    }
    return out;
  };
  // A filter the JavaScript test cannot tell for one of the states is left unjudged: its entries go.
  const judge = (filter: CacheFilter<unknown>, test: number | RowTest) => {
    const gone = select(test, before);
    const come = gone && select(test, after);
    if (!gone || !come) return;
    if (!gone.length && !come.length) matches.set(filter.key, UNTOUCHED);
    else {
      matches.set(filter.key, { before: gone.length, after: come.length });
      matched.set(filter.key, { gone, come });
    }
  };
  // Loose filters are judged one by one: those told in JavaScript have no scope (a scoped one is in a group).
  for (const { filter, test } of judged) judge(filter, test);
  const states = [...before, ...after];
  // A group's filters share a scope told in JavaScript: tested once, and its filters only when a state is in it.
  const touchedGroups = new Set<string>();
  for (const [group, sample] of groups.list) {
    const inScope = (sample as ListQuery).scope?.test;
    if (inScope && states.every((s) => inScope(s['#r']) === false)) continue;
    touchedGroups.add(group);
    for (const filter of groups.filters(group)) {
      const test = testOf(filter.filter as ListQuery);
      if (test) judge(filter, test);
    }
  }
  return {
    value,
    matches,
    touchedGroups,
    rows: { gone: before.map(indexed), come: after.map(indexed) },
    touches: (f) => {
      const m = matches.get(f.key);
      if (m) return m.before > 0 || m.after > 0;
      const test = testOf(f.filter as ListQuery);
      if (!test) return true;
      return states.some((s) => test(s['#r']) !== false);
    },
    revise: (filterKey, values) => {
      const kept = new Map<string, unknown>();
      const m = matched.get(filterKey);
      if (!m) return kept;
      for (const run of stretches(values)) for (const [key, block] of reviseStretch(how, run, m.gone, m.come)) kept.set(key, block);
      return kept;
    },
  };
}

/** Per server: the last write of each record (by view and id) begun on it, which the next write of it waits for. */
const recordTails = new WeakMap<object, Map<string, Promise<void>>>();

/**
 * Runs a write of existing records after this server's writes of the same records begun before it have
 * ended. The database runs them one after another anyway (the row lock); here they also end in that
 * order, so the list cache and the rows in memory take a record's states in the order it went through
 * them, not in the order the answers happened to arrive.
 */
async function inRecordOrder<T>(ctx: AppContext, viewId: number, ids: readonly number[], body: () => Promise<T>): Promise<T> {
  let tails = recordTails.get(ctx.instance);
  if (!tails) {
    tails = new Map();
    recordTails.set(ctx.instance, tails);
  }
  const keys = [...new Set(ids)].map((id) => `${viewId}|${id}`);
  const before = keys.flatMap((k) => tails.get(k) ?? []);
  let ended = () => {};
  const mine = new Promise<void>((r) => {
    ended = r;
  });
  for (const k of keys) tails.set(k, mine);
  try {
    await Promise.all(before);
    return await body();
  } finally {
    ended();
    for (const k of keys) if (tails.get(k) === mine) tails.delete(k);
  }
}

async function ordering(ctx: AppContext, view: ViewModel): Promise<Ordering> {
  return { view, textInByteOrder: await byteOrderOf(ctx.db).asked };
}

/**
 * Inserts one prepared record (column → value, see recordValues); answers its id. With `condition`
 * (see referenceCondition), only when it holds: null when it does not.
 */
export async function addRecord(
  ctx: AppContext,
  view: ViewModel,
  values: Row,
  owner: RecordOwner,
  condition?: RawBuilder<boolean>,
  before?: (db: Kysely<DB>) => Promise<void>,
): Promise<number | null> {
  const columns = Object.keys(values).filter((c) => !(OWNER_COLUMNS as readonly string[]).includes(c));
  const how = await ordering(ctx, view);
  const written = sql.join([...ownerValues(owner), ...columns.map((c) => values[c] ?? null)]);
  // The values are typed by the columns they go to, in a select as in a values list.
  const rows = condition ? sql`select ${written} where ${condition}` : sql`values (${written})`;
  return lowcodeState(ctx).cache.write(view.id, async (filters, groups) => {
    const { judged, inSql } = toJudge(filters);
    const insert = (db: Kysely<DB>) =>
      noticed(ctx, view.id, remoteRows(view, null, stateJson(view)), (notify) =>
        sql<RowState>`
      insert into ${sql.table(viewTable(view.id))} as t (${sql.join([...OWNER_COLUMNS.map((c) => sql.id(c)), ...columns.map((c) => sql.id(c))])})
      ${rows}
      returning ${rowState(view, inSql)}, ${selectList(view)}${noticeColumn(ctx, notify)}`.execute(db),
      );
    // A test that must hold until the insert commits runs first in the insert's transaction.
    const res = before
      ? await ctx.db.transaction().execute(async (trx) => {
          await before(trx);
          return insert(trx);
        })
      : await insert(ctx.db);
    const row = res.rows[0];
    return row ? effect(how, judged, groups, row['#id'], [], [row]) : effect(how, judged, groups, null, [], []);
  });
}

/**
 * Sets the given columns of one record (and its update_time); false when there is no such record within
 * `scope`, or `condition` (see referenceCondition) does not hold. One statement: the row is locked and
 * read as it was, then written, and both states come back.
 */
export async function updateRecord(
  ctx: AppContext,
  view: ViewModel,
  id: number,
  values: Row,
  scope?: RowScope,
  condition?: RawBuilder<boolean>,
  before?: (db: Kysely<DB>) => Promise<void>,
): Promise<boolean> {
  const table = sql.table(viewTable(view.id));
  const owned = Object.entries(values).filter(([c]) => !(OWNER_COLUMNS as readonly string[]).includes(c));
  const sets = [sql`update_time = now()`, ...owned.map(([c, v]) => sql`${sql.id(c)} = ${v}`)];
  const within = sql`${scope ? sql`and ${scope.condition}` : sql``} ${condition ? sql`and ${condition}` : sql``}`;
  const how = await ordering(ctx, view);
  return inRecordOrder(ctx, view.id, [id], () =>
    lowcodeState(ctx).cache.write(view.id, async (filters, groups) => {
      const { judged, inSql } = toJudge(filters);
      const update = (db: Kysely<DB>) =>
        noticed(ctx, view.id, remoteRows(view, sql`o."#old"`, stateJson(view)), (notify) =>
          sql<RowState & { '#old': RowState }>`
      update ${table} as t set ${sql.join(sets)}
      from (select t.id as "#oid", (select to_json(x) from (select ${rowState(view, inSql)}, ${selectList(view)}) x) as "#old"
            from ${table} as t where t.id = ${id} ${within} for update) o
      where t.id = o."#oid"
      returning o."#old" as "#old", ${rowState(view, inSql)}, ${selectList(view)}${noticeColumn(ctx, notify)}`.execute(db),
        );
      // A test that must see the record as the update finds it runs after the record is locked, in the
      // update's transaction; a refusal it throws rolls the transaction back.
      const res = before
        ? await ctx.db.transaction().execute(async (trx) => {
            await sql`select 1 from ${table} where id = ${id} for update`.execute(trx);
            await before(trx);
            return update(trx);
          })
        : await update(ctx.db);
      const row = res.rows[0];
      if (!row) return effect(how, judged, groups, false, [], []);
      return effect(how, judged, groups, true, [row['#old']], [row]);
    }),
  );
}

/** Deletes the records of `ids` that are within `scope`. */
export async function deleteRecords(ctx: AppContext, view: ViewModel, ids: number[], scope?: RowScope): Promise<void> {
  const how = await ordering(ctx, view);
  const within = scope ? sql`and ${scope.condition}` : sql``;
  await inRecordOrder(ctx, view.id, ids, () =>
    lowcodeState(ctx).cache.write(view.id, async (filters, groups) => {
      const { judged, inSql } = toJudge(filters);
      const res = await noticed(ctx, view.id, remoteRows(view, stateJson(view), null), (notify) =>
        sql<RowState>`delete from ${sql.table(viewTable(view.id))} as t where t.id in (${sql.join(ids)}) ${within}
      returning ${rowState(view, inSql)}, ${selectList(view)}${noticeColumn(ctx, notify)}`.execute(ctx.db),
      );
      return effect(how, judged, groups, undefined, res.rows, []);
    }),
  );
}
