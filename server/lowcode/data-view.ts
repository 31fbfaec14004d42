import { sql, type Transaction } from 'kysely';
import { isRecord } from '../../src/model/index.js';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { ApiError, badRequest } from '../errors.js';
import { pgError } from './ddl.js';
import { bigScreenOf, dataViewsOf } from './screen-share.js';

/**
 * SQL data views feed the big-screen charts. A data view is exactly one query. It runs in a READ ONLY
 * transaction that is always rolled back, with a statement time limit, wrapped as a subquery whose
 * outer limit is the row cap + 1, so that reaching the cap is reported as `truncated`.
 *
 * A read-only transaction does not stop every side effect: sequences (nextval, setval), the pg_*
 * administration functions (pg_stat_reset, pg_logical_emit_message, pg_terminate_backend, …),
 * settings (set_config), nested SQL (query_to_xml, cursor_to_xml) and dblink. Calls to those are
 * refused before anything runs.
 *
 * PGlite cannot interrupt a running statement: it runs PostgreSQL single-threaded inside WebAssembly, so
 * statement_timeout never fires (no timer signal reaches the backend) and the Node event loop is blocked
 * until the statement ends, so no JS timer can cancel it either. On PGlite the limit is therefore enforced
 * BEFORE running: sleep functions are refused and the planner's cost estimate must fit the time budget.
 * The estimate cannot see through recursive CTEs; such a query can still hold the server up.
 */

/** Planner cost units PGlite gets through per millisecond, at the slow end of what we measured (44–370). */
const PGLITE_COST_PER_MS = 40;

const ONLY_QUERIES = '数据视图只能执行查询语句';
const TIMED_OUT = '数据视图执行超时';
const REFUSED_ON_PGLITE = `${TIMED_OUT}：内嵌数据库无法中断查询，预计耗时超过限制，已拒绝执行`;

/** pg_* functions that only read and compute; every other pg_* call is refused. */
const HARMLESS_PG_FUNCTIONS = new Set(['pg_typeof', 'pg_size_pretty', 'pg_column_size', 'pg_sleep', 'pg_sleep_for', 'pg_sleep_until']);
const REFUSED_FUNCTION = /(?:^|[^\w$])"?(nextval|setval|set_config|dblink\w*|query_to_xml\w*|cursor_to_xml\w*|lo_\w+|pg_\w+)"?\s*\(/gi;

/** The text with comments and quoted literals blanked, so that only code is searched. */
function codeOnly(text: string): string {
  return text.replace(/--[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^']|'')*'|\$(\w*)\$[\s\S]*?\$\1\$/g, ' ');
}

/** Refuses calls of functions with side effects that a read-only transaction lets through. */
function checkFunctions(body: string): void {
  for (const m of codeOnly(body).matchAll(REFUSED_FUNCTION)) {
    const name = (m[1] ?? '').toLowerCase();
    if (HARMLESS_PG_FUNCTIONS.has(name)) continue;
    throw badRequest(`数据视图不能调用函数 ${name}`);
  }
}

/** The statement without trailing semicolons; refuses empty text, several statements, non-queries and refused functions. */
function checkDataViewSql(text: string): string {
  const body = text.trim().replace(/[;\s]+$/, '');
  if (!body) throw badRequest('SQL 不能为空');
  if (codeOnly(body).includes(';')) throw badRequest('数据视图只能包含一条查询语句');
  const lead = body
    .replace(/^(\s+|--[^\n]*(\n|$)|\/\*[\s\S]*?\*\/|\()*/, '')
    .slice(0, 10)
    .toLowerCase();
  if (!/^(select|with|values|table)\b/.test(lead)) throw badRequest(ONLY_QUERIES);
  checkFunctions(body);
  return body;
}

function failure(e: unknown): never {
  if (e instanceof ApiError) throw e;
  const pg = pgError(e);
  if (!pg) throw e;
  if (pg.code === '25006' || (pg.code === '0A000' && /data-modifying/i.test(pg.message))) throw badRequest(ONLY_QUERIES);
  if (pg.code === '57014') throw badRequest(TIMED_OUT);
  throw badRequest(`数据视图执行失败：${pg.message}`);
}

async function guardPglite(trx: Transaction<DB>, wrapped: string, body: string, timeoutMs: number): Promise<void> {
  if (/\bpg_sleep(_for|_until)?\s*\(/i.test(body)) throw badRequest(REFUSED_ON_PGLITE);
  const res = await sql.raw<{ 'QUERY PLAN': unknown }>(`explain (format json) ${wrapped}`).execute(trx);
  const raw = res.rows[0]?.['QUERY PLAN'];
  const plan = typeof raw === 'string' ? JSON.parse(raw) : raw;
  const cost = Array.isArray(plan) && isRecord(plan[0]) && isRecord(plan[0].Plan) ? Number(plan[0].Plan['Total Cost']) : 0;
  if (cost > timeoutMs * PGLITE_COST_PER_MS) throw badRequest(REFUSED_ON_PGLITE);
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

/** Runs in a read-only transaction with the time limit, and always rolls it back. */
async function readOnly<T>(ctx: AppContext, run: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  const timeout = Math.max(1, Math.trunc(ctx.config.dataViewTimeoutMs));
  try {
    await ctx.db
      .transaction()
      .setAccessMode('read only')
      .execute(async (trx) => {
        await sql.raw(`set local statement_timeout = ${timeout}`).execute(trx);
        throw new RolledBack(await run(trx));
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
  const body = checkDataViewSql(text);
  const cap = Math.max(1, Math.trunc(Math.min(maxRows ?? Number.POSITIVE_INFINITY, ctx.config.dataViewMaxRows)));
  const wrapped = `select * from (\n${body}\n) q limit ${cap + 1}`;
  const timeout = ctx.config.dataViewTimeoutMs;
  const started = performance.now();
  try {
    const result = await readOnly(ctx, async (trx) => {
      if (ctx.dbKind === 'pglite') await guardPglite(trx, wrapped, body, timeout);
      const rows = (await sql.raw<Record<string, unknown>>(wrapped).execute(trx)).rows;
      if (rows.length) return { columns: Object.keys(rows[0] as object), rows };
      return { columns: await columnNames(trx, body), rows: [] };
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
async function columnNames(trx: Transaction<DB>, body: string): Promise<string[]> {
  const probe = await sql
    .raw<Record<string, unknown>>(`select q.* from (values (1)) d left join (\n${body}\n) q on true limit 1`)
    .execute(trx);
  return Object.keys(probe.rows[0] ?? {});
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The data view's columns with their SQL types, without its rows (for chart configuration). */
export async function dataViewColumns(ctx: AppContext, text: string): Promise<{ name: string; type: string }[]> {
  const body = checkDataViewSql(text);
  try {
    return await readOnly(ctx, async (trx) => {
      const names = await columnNames(trx, body);
      if (!names.length) return [];
      const types = names.map((n, i) => `pg_typeof(q.${quoteIdent(n)})::text as c${i}`).join(', ');
      const row = (
        await sql.raw<Record<string, string>>(`select ${types} from (values (1)) d left join (\n${body}\n) q on true limit 1`).execute(trx)
      ).rows[0];
      return names.map((name, i) => ({ name, type: row?.[`c${i}`] ?? 'unknown' }));
    });
  } catch (e) {
    failure(e);
  }
}

/** Checks SQL before it is saved: it must parse and plan as a read-only query (nothing is fetched). */
export async function validateDataViewSql(ctx: AppContext, text: string): Promise<string> {
  const body = checkDataViewSql(text);
  try {
    await readOnly(ctx, (trx) => sql.raw(`select * from (\n${body}\n) q limit 0`).execute(trx));
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
