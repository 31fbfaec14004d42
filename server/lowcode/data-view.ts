import { type Kysely, sql, type Transaction } from 'kysely';
import { isRecord } from '../../src/model/index.js';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { ApiError, badRequest } from '../errors.js';
import { pgError } from './ddl.js';
import { bigScreenOf, dataViewsOf } from './screen-share.js';
import { DATA_VIEW_ROLE, GUARD_MESSAGES, grantDataViewReads, guardDataView } from './sql-guard.js';

/**
 * SQL data views feed the big-screen charts. A data view is exactly one query that the guard
 * (sql-guard.ts) accepted on PostgreSQL's own parse tree: a plain SELECT reading only allowed tables and
 * calling only allowed functions. It runs in a READ ONLY transaction that is always rolled back, with a
 * statement time limit, wrapped as a subquery whose outer limit is the row cap + 1, so that reaching the
 * cap is reported as `truncated`. On PostgreSQL it also runs under the data-view role, which can SELECT
 * the allowed tables and nothing else; without that role data views are refused unless the deployment
 * explicitly allows running them on the server's own account (DATA_VIEW_WITHOUT_ROLE=1).
 *
 * PGlite cannot interrupt a running statement: it runs PostgreSQL single-threaded inside WebAssembly, so
 * statement_timeout never fires (no timer signal reaches the backend) and the Node event loop is blocked
 * until the statement ends, so no JS timer can cancel it either. On PGlite the limit is therefore enforced
 * BEFORE running, once the guard has accepted the text: the planner's cost estimate must fit the time
 * budget, and never more than PGLITE_HOLD_MS. The guard refuses what the estimate cannot see: recursive
 * CTEs, sleep functions, and generate_series over anything but integer constants.
 */

/**
 * Planner cost units PGlite gets through per millisecond, at the slow end of what bench/data-view-hold
 * measures. Scans and joins of tables run at 40–100 units per ms, but work the planner counts as one
 * operator per row is far slower in WebAssembly: md5 and string_agg over a generated series run at about
 * 4, and as slow as 2 on a loaded machine. The slowest kind sets the figure, so a data view cannot hold the
 * server longer than the budget.
 */
const PGLITE_COST_PER_MS = 2;
/** Planner cost of reading one page on PGlite, where every page is in memory (PostgreSQL's default is 1 for disk). */
const PGLITE_PAGE_COST = 0.05;
/** Longest a data view may hold PGlite (and so every other call) by the planner's estimate. */
export const PGLITE_HOLD_MS = 1000;

const ONLY_QUERIES = GUARD_MESSAGES.onlyQueries;
const TIMED_OUT = '数据视图执行超时';
const REFUSED_ON_PGLITE = `${TIMED_OUT}：内嵌数据库无法中断查询，预计耗时超过限制，已拒绝执行`;
const NO_ROLE = `数据库中没有数据视图专用的只读角色 ${DATA_VIEW_ROLE}（或服务账号不是它的成员），数据视图暂不能运行：请管理员按部署文档创建该角色`;

/** The planner's cost estimate of PGlite running the statement must fit the time budget. */
export function pgliteCostLimit(timeoutMs: number): number {
  return Math.min(timeoutMs, PGLITE_HOLD_MS) * PGLITE_COST_PER_MS;
}

function failure(e: unknown): never {
  if (e instanceof ApiError) throw e;
  const pg = pgError(e);
  if (!pg) throw e;
  if (pg.code === '25006' || (pg.code === '0A000' && /data-modifying/i.test(pg.message))) throw badRequest(ONLY_QUERIES);
  if (pg.code === '57014') throw badRequest(TIMED_OUT);
  if (pg.code === '42501') throw badRequest(`数据视图没有读取权限：${pg.message}`);
  throw badRequest(`数据视图执行失败：${pg.message}`);
}

async function guardPglite(trx: Transaction<DB>, wrapped: string, timeoutMs: number): Promise<void> {
  const res = await sql.raw<{ 'QUERY PLAN': unknown }>(`explain (format json) ${wrapped}`).execute(trx);
  const raw = res.rows[0]?.['QUERY PLAN'];
  const plan = typeof raw === 'string' ? JSON.parse(raw) : raw;
  const cost = Array.isArray(plan) && isRecord(plan[0]) && isRecord(plan[0].Plan) ? Number(plan[0].Plan['Total Cost']) : Number.NaN;
  if (!(cost <= pgliteCostLimit(timeoutMs))) throw badRequest(REFUSED_ON_PGLITE);
}

/**
 * PGlite has no autovacuum, so nothing else keeps the planner's statistics current; an estimate from a
 * table analyzed at 200 rows that now holds 100,000 is a hundred times too low. Tables a data view reads
 * that changed by a tenth since their last ANALYZE are analyzed first (ANALYZE samples a bounded number of
 * rows, so it takes about the same time whatever the table's size).
 */
async function freshStatistics(ctx: AppContext, tables: readonly string[]): Promise<void> {
  if (ctx.dbKind !== 'pglite' || !tables.length) return;
  const stale = await sql<{ name: string }>`
    select relname as name from pg_stat_user_tables
    where schemaname = current_schema() and relname = any(${[...tables]}::text[])
      and n_mod_since_analyze > greatest(50, n_live_tup / 10)`.execute(ctx.db);
  for (const { name } of stale.rows) {
    try {
      await sql`analyze ${sql.table(name)}`.execute(ctx.db);
    } catch (e) {
      if (!pgError(e)) throw e;
    }
  }
}

/** The guarded statement, with the statistics the PGlite cost check needs brought up to date. */
async function accepted(ctx: AppContext, text: string): Promise<string> {
  const { body, tables } = await guardDataView(text, ctx.dbKind);
  await freshStatistics(ctx, tables);
  return body;
}

/** Whether data views of this database switch to the data-view role; checked once per database, a missing role again after a minute. */
const roleChecks = new WeakMap<Kysely<DB>, { at: number; usable: Promise<boolean> }>();
const ROLE_RECHECK_MS = 60_000;

async function roleUsable(db: Kysely<DB>): Promise<boolean> {
  try {
    await db.transaction().execute(async (trx) => {
      await sql.raw(`set local role ${DATA_VIEW_ROLE}`).execute(trx);
    });
  } catch (e) {
    if (pgError(e)) return false;
    throw e;
  }
  try {
    // A role an administrator created after the migrations still needs its grants.
    const granted = await grantDataViewReads(db);
    if (granted.length) console.warn(`PostgreSQL: granted ${DATA_VIEW_ROLE} SELECT on ${granted.join(', ')}`);
  } catch (e) {
    console.warn(`PostgreSQL: could not grant ${DATA_VIEW_ROLE} its reads: ${(e as Error).message}`);
  }
  return true;
}

/** On PostgreSQL: whether to switch to the data-view role; throws when the role is missing and running without it is not allowed. */
async function switchesRole(ctx: AppContext): Promise<boolean> {
  if (ctx.dbKind !== 'postgres') return false;
  let check = roleChecks.get(ctx.db);
  if (!check || (Date.now() - check.at > ROLE_RECHECK_MS && !(await check.usable.catch(() => false)))) {
    check = { at: Date.now(), usable: roleUsable(ctx.db) };
    roleChecks.set(ctx.db, check);
  }
  if (await check.usable) return true;
  if (ctx.config.dataViewWithoutRole) return false;
  throw new ApiError(503, NO_ROLE);
}

const pad = (n: number) => String(n).padStart(2, '0');
/** Both drivers hand timestamps over as local-time Dates; give them back as the wall-clock text. */
function plain(v: unknown): unknown {
  if (!(v instanceof Date)) return v;
  return `${v.getFullYear()}-${pad(v.getMonth() + 1)}-${pad(v.getDate())} ${pad(v.getHours())}:${pad(v.getMinutes())}:${pad(v.getSeconds())}`;
}

/** Carries a finished answer out of a transaction that must not commit. */
class RolledBack<T> {
  constructor(readonly value: T) {}
}

/** Runs one statement of a data view; on PGlite only once its estimated cost fits the time budget. */
type Query = <R = Record<string, unknown>>(statement: string) => Promise<R[]>;

/**
 * Runs in a read-only transaction with the time limit (on PostgreSQL as the data-view role), and always
 * rolls it back. Every statement goes through `query`.
 */
async function readOnly<T>(ctx: AppContext, run: (query: Query) => Promise<T>): Promise<T> {
  const timeout = Math.max(1, Math.trunc(ctx.config.dataViewTimeoutMs));
  const asRole = await switchesRole(ctx);
  try {
    await ctx.db
      .transaction()
      .setAccessMode('read only')
      .execute(async (trx) => {
        await sql.raw(`set local statement_timeout = ${timeout}`).execute(trx);
        // The guard parsed the text with standard strings, so the database must read it the same way.
        await sql.raw('set local standard_conforming_strings = on').execute(trx);
        if (asRole) await sql.raw(`set local role ${DATA_VIEW_ROLE}`).execute(trx);
        // PGlite keeps every page in memory: reading one costs about what processing a few rows does, so
        // the estimate counts work instead of disk reads that never happen.
        if (ctx.dbKind === 'pglite')
          await sql.raw(`set local seq_page_cost = ${PGLITE_PAGE_COST}; set local random_page_cost = ${PGLITE_PAGE_COST}`).execute(trx);
        const query: Query = async <R>(statement: string) => {
          if (ctx.dbKind === 'pglite') await guardPglite(trx, statement, timeout);
          return (await sql.raw<R>(statement).execute(trx)).rows;
        };
        throw new RolledBack(await run(query));
      });
  } catch (e) {
    if (e instanceof RolledBack) return e.value as T;
    throw e;
  }
  throw new Error('unreachable: the transaction always rolls back');
}

export interface DataViewResult {
  columns: string[];
  list: Record<string, unknown>[];
  /** More rows than the cap: `list` holds the first `cap`. */
  truncated: boolean;
}

/** Runs a data view: its columns and at most `maxRows` rows (`config.dataViewMaxRows` unless fewer are asked for). */
export async function runDataView(ctx: AppContext, text: string, maxRows?: number): Promise<DataViewResult> {
  const body = await accepted(ctx, text);
  const cap = Math.max(1, Math.trunc(Math.min(maxRows ?? Number.POSITIVE_INFINITY, ctx.config.dataViewMaxRows)));
  const wrapped = `select * from (\n${body}\n) q limit ${cap + 1}`;
  const timeout = ctx.config.dataViewTimeoutMs;
  const started = performance.now();
  try {
    const result = await readOnly(ctx, async (query) => {
      const rows = await query(wrapped);
      if (rows.length) return { columns: Object.keys(rows[0] as object), rows };
      return { columns: await columnNames(query, body), rows: [] };
    });
    // The cost estimate can be wrong; an answer that took too long is still not given out.
    if (ctx.dbKind === 'pglite' && performance.now() - started > timeout) throw badRequest(TIMED_OUT);
    return {
      columns: result.columns,
      list: result.rows.slice(0, cap).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, plain(v)]))),
      truncated: result.rows.length > cap,
    };
  } catch (e) {
    failure(e);
  }
}

/** Column names of a query without fetching its rows: a left join onto one row reveals them. */
async function columnNames(query: Query, body: string): Promise<string[]> {
  const probe = await query(`select q.* from (values (1)) d left join (\n${body}\n) q on true limit 1`);
  return Object.keys(probe[0] ?? {});
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The data view's columns with their SQL types, without its rows (for chart configuration). */
export async function dataViewColumns(ctx: AppContext, text: string): Promise<{ name: string; type: string }[]> {
  const body = await accepted(ctx, text);
  try {
    return await readOnly(ctx, async (query) => {
      const names = await columnNames(query, body);
      if (!names.length) return [];
      const types = names.map((n, i) => `pg_typeof(q.${quoteIdent(n)})::text as c${i}`).join(', ');
      const row = (await query<Record<string, string>>(`select ${types} from (values (1)) d left join (\n${body}\n) q on true limit 1`))[0];
      return names.map((name, i) => ({ name, type: row?.[`c${i}`] ?? 'unknown' }));
    });
  } catch (e) {
    failure(e);
  }
}

/** Checks SQL before it is saved: it must parse and plan as a read-only query (nothing is fetched). */
export async function validateDataViewSql(ctx: AppContext, text: string): Promise<string> {
  const body = await accepted(ctx, text);
  try {
    await readOnly(ctx, (query) => query(`select * from (\n${body}\n) q limit 0`));
  } catch (e) {
    failure(e);
  }
  return text.trim();
}

/** The screens whose charts read any of the data views, with the data views each one reads of them. */
export async function screensUsingDataViews(
  ctx: AppContext,
  ids: readonly number[],
): Promise<{ id: number; name: string; dataViews: number[] }[]> {
  if (!ids.length) return [];
  const wanted = new Set(ids);
  const rows = await ctx.db
    .selectFrom('lc_screen')
    .select(['id', 'name', 'status', 'type', 'dis_template'])
    .where('type', '=', 2)
    .where('dis_template', 'is not', null)
    .orderBy('id')
    .execute();
  const out: { id: number; name: string; dataViews: number[] }[] = [];
  for (const row of rows) {
    let used: Set<number>;
    try {
      used = dataViewsOf(bigScreenOf(row));
    } catch {
      // A template the model cannot read names no chart, so it holds no data view.
      continue;
    }
    const hits = [...used].filter((id) => wanted.has(id));
    if (hits.length) out.push({ id: row.id, name: row.name, dataViews: hits });
  }
  return out;
}
