import { sql, type Transaction } from 'kysely';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { ApiError, badRequest } from '../errors.js';
import { isObject } from './coerce.js';
import { pgError } from './ddl.js';

/**
 * SQL data views feed the big-screen charts. Their SQL runs in a READ ONLY transaction with a statement
 * time limit, one statement at a time, at most MAX_ROWS rows.
 *
 * PGlite cannot interrupt a running statement: it runs PostgreSQL single-threaded inside WebAssembly, so
 * statement_timeout never fires (no timer signal reaches the backend) and the Node event loop is blocked
 * until the statement ends, so no JS timer can cancel it either. On PGlite the limit is therefore enforced
 * BEFORE running: sleep functions are refused and the planner's cost estimate must fit the time budget.
 * The estimate cannot see through recursive CTEs; such a query can still hold the server up.
 */

const MAX_ROWS = 5000;
/** Planner cost units PGlite gets through per millisecond, at the slow end of what we measured (44–370). */
const PGLITE_COST_PER_MS = 40;

const ONLY_QUERIES = '数据视图只能执行查询语句';
const TIMED_OUT = '数据视图执行超时';
const REFUSED_ON_PGLITE = `${TIMED_OUT}：内嵌数据库无法中断查询，预计耗时超过限制，已拒绝执行`;

/** The statement without trailing semicolons; refuses empty text, several statements and non-queries. */
function checkDataViewSql(text: string): string {
  const body = text.trim().replace(/[;\s]+$/, '');
  if (!body) throw badRequest('SQL 不能为空');
  if (body.includes(';')) throw badRequest('数据视图只能包含一条查询语句');
  const lead = body
    .replace(/^(\s+|--[^\n]*(\n|$)|\/\*[\s\S]*?\*\/|\()*/, '')
    .slice(0, 10)
    .toLowerCase();
  if (!/^(select|with|values|table)\b/.test(lead)) throw badRequest(ONLY_QUERIES);
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
  const cost = Array.isArray(plan) && isObject(plan[0]) && isObject(plan[0].Plan) ? Number(plan[0].Plan['Total Cost']) : 0;
  if (cost > timeoutMs * PGLITE_COST_PER_MS) throw badRequest(REFUSED_ON_PGLITE);
}

const pad = (n: number) => String(n).padStart(2, '0');
/** Both drivers hand timestamps over as local-time Dates; give them back as the wall-clock text. */
function plain(v: unknown): unknown {
  if (!(v instanceof Date)) return v;
  return `${v.getFullYear()}-${pad(v.getMonth() + 1)}-${pad(v.getDate())} ${pad(v.getHours())}:${pad(v.getMinutes())}:${pad(v.getSeconds())}`;
}

async function readOnly<T>(ctx: AppContext, run: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  const timeout = Math.max(1, Math.trunc(ctx.config.dataViewTimeoutMs));
  return ctx.db
    .transaction()
    .setAccessMode('read only')
    .execute(async (trx) => {
      await sql.raw(`set local statement_timeout = ${timeout}`).execute(trx);
      return run(trx);
    });
}

/** Runs a saved data view: `{columns, list}` with at most MAX_ROWS rows. */
export async function runDataView(ctx: AppContext, text: string): Promise<{ columns: string[]; list: Record<string, unknown>[] }> {
  const body = checkDataViewSql(text);
  const wrapped = `select * from (\n${body}\n) q limit ${MAX_ROWS}`;
  const timeout = ctx.config.dataViewTimeoutMs;
  const started = performance.now();
  try {
    const result = await readOnly(ctx, async (trx) => {
      if (ctx.dbKind === 'pglite') await guardPglite(trx, wrapped, body, timeout);
      const rows = (await sql.raw<Record<string, unknown>>(wrapped).execute(trx)).rows;
      if (rows.length) return { columns: Object.keys(rows[0] as object), rows };
      // No rows still has columns; a left join onto one row reveals them.
      const probe = await sql
        .raw<Record<string, unknown>>(`select q.* from (values (1)) d left join (\n${body}\n) q on true limit 1`)
        .execute(trx);
      return { columns: Object.keys(probe.rows[0] ?? {}), rows: [] };
    });
    // The cost estimate can be wrong; an answer that took too long is still not given out.
    if (ctx.dbKind === 'pglite' && performance.now() - started > timeout) throw badRequest(TIMED_OUT);
    return {
      columns: result.columns,
      list: result.rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, plain(v)]))),
    };
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
