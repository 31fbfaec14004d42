import type { Kysely, Transaction } from 'kysely';
import type pg from 'pg';
import { isRecord } from '../../src/model/index.js';
import type { AppContext } from '../context.js';
import { asSystem } from '../db/audit.js';
import { closeWith, type DatabaseKind, openPool } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { ApiError, badRequest, refusal } from '../errors.js';
import { namedTable } from '../lib/named-table.js';
import { dataViewUrl, ensureDataViewLogin } from './data-view-login.js';
import { pgError } from './ddl.js';
import { bigScreenOf, dataViewsOf } from './screen-share.js';
import {
  catalogColumns,
  type DataViewPlan,
  grantDataViewReads,
  guardDataView,
  type Rows,
  relationsOfDataView,
  rowsOf,
} from './sql-guard.js';

/**
 * SQL data views feed the big-screen charts. A data view is exactly one query that the guard
 * (sql-guard.ts) accepted on PostgreSQL's own parse tree. It runs in a READ ONLY transaction that is always
 * rolled back, with a statement time limit, wrapped as a subquery whose outer limit is the row cap + 1, so
 * that reaching the cap is reported as `truncated`.
 *
 * On PostgreSQL it runs on a pool of its own that logs in as the data-view role (DATA_VIEW_DATABASE_URL,
 * or the login migration 0023 made for this database): never on the server's own connections, so even a
 * statement the guard let through by mistake runs as a role that may read the allowed tables and nothing
 * else, with nothing to switch back to. A connection is reset (DISCARD ALL: settings, advisory locks,
 * temporary tables, prepared statements) before it goes back to the pool, and one that cannot be reset is
 * closed. The guard reads the column sets it judges by in the same transaction, after taking ACCESS SHARE
 * locks on the tables, so no table can change under the verdict before the statement runs.
 *
 * PGlite cannot interrupt a running statement: it runs PostgreSQL single-threaded inside WebAssembly, so
 * statement_timeout never fires and the Node event loop is blocked until the statement ends. On PGlite the
 * limit is therefore enforced BEFORE running, once the guard has accepted the text:
 *
 *   planner cost + rows · (characters built per row) / PGLITE_CHARS_PER_COST  ≤  budget
 *
 * The planner counts rows and operators but not how long the values are: a row that builds a 1000-character
 * lpad costs thirty times what the planner charges for it, and a compressed 1 MB value read 100 times the
 * planner sees as 100 small rows. So the guard bounds, for every expression, the characters it builds from
 * the SQL's own text and the table values it copies (sql-guard.ts, `Size`); here the longest value of each
 * table column it reads is measured (octet_length reads a stored value's size without decompressing it),
 * and the characters one row may build (`built` + Σ copies × longest value) are charged for every row of
 * every plan node (`rows`). That sum over-counts (every expression is charged at every node), which only
 * refuses early. What the estimate cannot see is refused by the guard: recursion, sleeps, generate_series
 * over non-constants, collecting aggregates anywhere but the outermost output.
 */

/**
 * Planner cost units PGlite gets through per millisecond, at the slow end of what bench/data-view-hold
 * measures. Scans and joins of tables run at 40–100 units per ms, but work the planner counts as one
 * operator per row is far slower in WebAssembly: md5 and string_agg over a generated series run at about
 * 4, and as slow as 2 on a loaded machine. The slowest kind sets the figure.
 */
const PGLITE_COST_PER_MS = 2;
/**
 * Characters PGlite builds or copies per planner cost unit. Alone on this machine lpad, upper, replace and
 * decompressing stored values run at 20–40 characters per µs, but bench/data-view-hold measured replace and
 * string_agg of long values at 2–4 per µs while other work shared the two cores: 2 per µs at 2 units per
 * ms is 1000.
 */
export const PGLITE_CHARS_PER_COST = 1000;
/** Characters a row may build that the planner's own per-row cost already pays for: PGLITE_COST_PER_MS was measured on md5 and short formats. */
const PGLITE_FREE_ROW_CHARS = 256;
/** Planner cost of reading one page on PGlite, where every page is in memory (PostgreSQL's default is 1 for disk). */
const PGLITE_PAGE_COST = 0.05;
/** Longest a data view may hold PGlite (and so every other call) by the estimate. */
export const PGLITE_HOLD_MS = 1000;
/** Largest table whose longest values are measured on PGlite (the measuring itself reads it): 64 MB. */
const PGLITE_MEASURE_MAX_PAGES = 8192;

/** What the database's refusal of a running data view means, by SQLSTATE, in words a builder reads. */
const DATABASE_REASONS: Readonly<Record<string, string>> = namedTable({
  '21000': '用作表达式的子查询返回了多于一行',
  '22001': '内容长度超出限制',
  '22003': '数值超出范围',
  '22004': '不允许空值',
  '22007': '日期时间格式不正确',
  '22008': '日期时间超出范围',
  '22012': '除数为零',
  '22023': '参数取值无效',
  '2201E': '对数函数的参数无效',
  '2201F': '幂函数的参数无效',
  '2201B': '正则表达式不正确',
  '22019': '转义字符不正确',
  '22025': '转义序列不正确',
  '22P02': '取值格式不正确',
  '22P05': '包含数据库无法处理的字符',
  '42601': '语法错误',
  '42602': '名称不正确',
  '42622': '名称过长',
  '42702': '列名不明确，请加上表名',
  '42703': '列不存在',
  '42704': '对象不存在',
  '42725': '函数调用不明确，请为参数指定类型',
  '42803': '分组错误：输出列须出现在 GROUP BY 中或用于聚合函数',
  '42804': '数据类型不匹配',
  '42809': '对象类型不正确',
  '42830': '外键不正确',
  '42846': '无法进行该类型转换',
  '42883': '函数或运算符不存在，或参数类型不匹配',
  '42P01': '表不存在',
  '42P02': '参数不存在',
  '42P10': '列引用不正确',
  '42P18': '无法确定数据类型',
  '42P19': '递归查询不正确',
  '42P20': '窗口函数使用不正确',
  '42P22': '排序规则不明确',
});

/** The meaning of a SQLSTATE class a code of its own is not listed for. */
const DATABASE_CLASS_REASONS: Readonly<Record<string, string>> = namedTable({
  '22': '数据错误',
  '42': '语法错误或名称、类型、权限不正确',
  '53': '数据库资源不足',
  '54': '超出数据库的程序限制',
});

/** Where in the data view's own text a running statement failed, for errors the database located. */
const failedAt = new WeakMap<object, { line: number; column: number }>();

/** Remembers where in `body` the database says `statement` failed (its `position`, 1-based characters). */
function locate(e: unknown, statement: string, body: string): void {
  if (!pgError(e) || typeof e !== 'object' || e === null) return;
  const position = Number((e as { position?: unknown }).position);
  const start = statement.indexOf(body);
  if (!Number.isInteger(position) || position < 1 || start < 0) return;
  const at = position - 1 - Array.from(statement.slice(0, start)).length;
  const chars = Array.from(body);
  if (at < 0 || at > chars.length) return;
  const before = chars.slice(0, at).join('');
  failedAt.set(e, { line: before.split('\n').length, column: at - before.lastIndexOf('\n') });
}

/** The Chinese reason of a database refusal: what it means and, when known, where. */
function databaseReason(e: unknown, pg: { code: string }): string {
  const what = DATABASE_REASONS[pg.code] ?? DATABASE_CLASS_REASONS[pg.code.slice(0, 2)] ?? `数据库错误（SQLSTATE ${pg.code}）`;
  const at = typeof e === 'object' && e !== null ? failedAt.get(e) : undefined;
  return at ? `第 ${at.line} 行第 ${at.column} 列，${what}` : what;
}

/** The table or other object a permission refusal names (`permission denied for table x`). */
const deniedObject = (message: string): string => /permission denied for \w+ (\S+)/.exec(message)?.[1] ?? '';

/** The estimate PGlite running a data view must fit: the time budget in planner cost units. */
export function pgliteCostLimit(timeoutMs: number): number {
  return Math.min(timeoutMs, PGLITE_HOLD_MS) * PGLITE_COST_PER_MS;
}

function failure(e: unknown): never {
  if (e instanceof ApiError) throw e;
  const pg = pgError(e);
  if (!pg) throw e;
  if (pg.code === '25006' || (pg.code === '0A000' && /data-modifying/i.test(pg.message))) throw badRequest('SQL_ONLY_QUERIES');
  if (pg.code === '57014') throw badRequest('DATA_VIEW_TIMED_OUT');
  if (pg.code === '42501') {
    const object = deniedObject(pg.message);
    throw badRequest('DATA_VIEW_READ_DENIED', { reason: object ? `不能读取 ${object}` : '不能读取其中的表' });
  }
  throw badRequest('DATA_VIEW_FAILED', { reason: databaseReason(e, pg) });
}

/**
 * Sums `measure(node) × loops` over the plan's nodes, where loops is the times a node runs: the inner
 * side of a nested loop once per outer row, a subplan once per row of its parent.
 */
function sumOverPlan(plan: Record<string, unknown>, measure: (node: Record<string, unknown>) => number, loops = 1): number {
  const children = Array.isArray(plan.Plans) ? (plan.Plans as Record<string, unknown>[]) : [];
  const outer = children[0];
  let sum = measure(plan) * loops;
  children.forEach((child, i) => {
    const perOuter = plan['Node Type'] === 'Nested Loop' && i === 1 && outer ? Number(outer['Plan Rows'] ?? 1) : 1;
    const sub = child['Parent Relationship'] === 'SubPlan' ? Math.max(1, Number(plan['Plan Rows'] ?? 1)) : 1;
    sum += sumOverPlan(child, measure, loops * perOuter * sub);
  });
  return sum;
}

/** Rows the plan passes through its nodes, each node's rows times the times it runs. */
export const planRows = (plan: Record<string, unknown>): number => sumOverPlan(plan, (node) => Number(node['Plan Rows'] ?? 0));

const FUNCTION_SCANS = new Set(['Function Scan', 'Table Function Scan']);

/**
 * The cost of the plan's function scans, each in full: a function in FROM (generate_series, unnest, …)
 * writes all of its rows before the scan answers the first, so no LIMIT above it shortens that work,
 * though the planner prices the scan as if it did.
 */
export const functionScanCost = (plan: Record<string, unknown>): number =>
  sumOverPlan(plan, (node) => (FUNCTION_SCANS.has(String(node['Node Type'])) ? Number(node['Total Cost'] ?? 0) : 0));

const EXPLAIN = 'explain (format json) ';

/** The PGlite estimate of one statement: the planner's cost plus the characters its rows build. */
async function pgliteEstimate(
  rows: Rows,
  statement: string,
  perRowChars: number,
): Promise<{ cost: number; planner: number; rows: number }> {
  const res = await rows<{ 'QUERY PLAN': unknown }>(`${EXPLAIN}${statement}`);
  const raw = res[0]?.['QUERY PLAN'];
  const plan = typeof raw === 'string' ? JSON.parse(raw) : raw;
  const top = Array.isArray(plan) && isRecord(plan[0]) && isRecord(plan[0].Plan) ? plan[0].Plan : undefined;
  if (!top) return { cost: Number.NaN, planner: Number.NaN, rows: Number.NaN };
  const planner = Number(top['Total Cost']);
  const flowing = planRows(top);
  const cost = Math.max(planner, functionScanCost(top)) + (flowing * perRowChars) / PGLITE_CHARS_PER_COST;
  return { cost, planner, rows: flowing };
}

/**
 * PGlite has no autovacuum, so nothing else keeps the planner's statistics current; an estimate from a
 * table analyzed at 200 rows that now holds 100,000 is a hundred times too low. Tables a data view reads
 * that changed by a tenth since their last ANALYZE are analyzed first (ANALYZE samples a bounded number of
 * rows, so it takes about the same time whatever the table's size).
 */
async function freshStatistics(db: Kysely<DB>, tables: readonly string[]): Promise<void> {
  if (!tables.length) return;
  const stale = await rowsOf(db)<{ name: string }>(
    `select relname as name from pg_stat_user_tables
    where schemaname = current_schema() and relname = any($1::text[])
      and n_mod_since_analyze > greatest(50, n_live_tup / 10)`,
    [[...tables]],
  );
  for (const { name } of stale) {
    try {
      await rowsOf(db)(`analyze "${name.replace(/"/g, '""')}"`);
    } catch (e) {
      if (!pgError(e)) throw e;
    }
  }
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const quoteRelation = (rel: string) => (rel.startsWith('public.') ? `public.${quoteIdent(rel.slice(7))}` : quoteIdent(rel));

/**
 * Characters one row of the data view may build or copy on PGlite: what its expressions build from the
 * SQL's text, plus each table value it reads or copies times that column's longest value (by its type's
 * bound, or measured).
 */
async function charsPerRow(rows: Rows, plan: DataViewPlan): Promise<number> {
  let chars = plan.built - PGLITE_FREE_ROW_CHARS;
  const unbounded = new Map<string, { column: string; times: number }[]>();
  for (const r of plan.reads) {
    if (r.bound !== null) chars += r.times * r.bound;
    else unbounded.set(r.table, [...(unbounded.get(r.table) ?? []), { column: r.column, times: r.times }]);
  }
  for (const [table, columns] of unbounded) {
    const size = await rows<{ pages: number }>('select relpages as pages from pg_class where oid = to_regclass($1)', [quoteIdent(table)]);
    if (Number(size[0]?.pages ?? 0) > PGLITE_MEASURE_MAX_PAGES) throw badRequest('DATA_VIEW_REFUSED_ON_PGLITE');
    const longest = columns.map((c, i) => `coalesce(max(octet_length(${quoteIdent(c.column)}::text)), 0) as c${i}`).join(', ');
    const found = (await rows<Record<string, number>>(`select ${longest} from ${quoteIdent(table)}`))[0] ?? {};
    columns.forEach((c, i) => {
      chars += c.times * Number(found[`c${i}`] ?? 0);
    });
  }
  return Math.max(0, chars);
}

// ----- PostgreSQL: the data views' own pool -----

interface DataViewPool {
  pool: pg.Pool;
  role: string;
}

/** The data views' pool of each database; a failed set-up is tried again after a minute. */
const pools = new WeakMap<object, { at: number; ready: Promise<DataViewPool> }>();
const RETRY_MS = 60_000;

const noLogin = (reason: string) => refusal(503, 'DATA_VIEW_NO_LOGIN', { reason });

async function openDataViewPool(ctx: AppContext): Promise<DataViewPool> {
  let url = ctx.config.dataViewDatabaseUrl;
  if (!url) {
    if (!ctx.config.databaseUrl) throw noLogin('没有数据库地址');
    const result = await asSystem(ctx.db)
      .transaction()
      .execute((trx) => ensureDataViewLogin(trx));
    if (!result.ok) {
      console.warn(`PostgreSQL: no data-view login: ${result.reason}`);
      throw noLogin('服务账号不能创建数据视图的只读账号（需要 CREATEROLE），请管理员按部署文档创建只读账号并设置 DATA_VIEW_DATABASE_URL');
    }
    for (const w of result.warnings) console.warn(`PostgreSQL: ${w}`);
    url = dataViewUrl(ctx.config.databaseUrl, result.login);
  }
  const pool = openPool(url, Math.max(2, Math.min(5, Math.ceil(ctx.config.databasePoolSize / 2))));
  let role: string;
  try {
    const check = await pool.query<{ role: string; privileged: boolean }>(`
      select current_user as role,
        (select rolsuper or rolbypassrls from pg_roles where rolname = current_user)
        or (to_regclass('sys_setting') is not null and has_table_privilege(current_user, 'sys_setting', 'SELECT'))
        or (to_regclass('sys_user') is not null and has_table_privilege(current_user, 'sys_user', 'SELECT'))
        or exists (select from pg_roles r where r.rolname in ('pg_read_all_data', 'pg_read_server_files', 'pg_execute_server_program',
          'pg_write_server_files', 'pg_write_all_data') and pg_has_role(current_user, r.oid, 'MEMBER')) as privileged`);
    const row = check.rows[0];
    if (!row) throw new Error('no answer');
    if (row.privileged) {
      console.warn(
        `PostgreSQL: ${row.role} may read more than data views may (superuser, sys_setting or sys_user); data views refuse to run as it`,
      );
      throw noLogin(`账号 ${row.role} 能读取数据视图不许读取的数据（超级用户或能读 sys_setting、sys_user），不能用于数据视图`);
    }
    role = row.role;
  } catch (e) {
    await pool.end().catch(() => {});
    if (e instanceof ApiError) throw e;
    console.warn(`PostgreSQL: cannot log in for data views: ${(e as Error).message}`);
    throw noLogin(`无法以数据视图账号登录数据库（${(e as Error).message}）`);
  }
  closeWith(ctx.db, () => pool.end());
  try {
    // An administrator's login (DATA_VIEW_DATABASE_URL) gets its reads here; the migration's already has them.
    const granted = await grantDataViewReads(ctx.db, [role]);
    if (granted.length) console.warn(`PostgreSQL: granted ${role} SELECT on ${granted.join(', ')}`);
  } catch (e) {
    console.warn(`PostgreSQL: could not grant ${role} its reads: ${(e as Error).message}`);
  }
  return { pool, role };
}

async function dataViewPool(ctx: AppContext): Promise<DataViewPool> {
  const known = pools.get(ctx.instance);
  if (known) {
    const ok = await known.ready.then(
      () => true,
      () => false,
    );
    if (ok || Date.now() - known.at < RETRY_MS) return known.ready;
  }
  const entry = { at: Date.now(), ready: openDataViewPool(ctx) };
  entry.ready.catch(() => {});
  pools.set(ctx.instance, entry);
  return entry.ready;
}

/** The data views' PostgreSQL pool of a server (tests run statements on it directly). */
export async function dataViewPoolOf(ctx: AppContext): Promise<{ pool: pg.Pool; role: string }> {
  return dataViewPool(ctx);
}

// ----- running -----

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

/** Runs one statement of a data view; on PGlite only once its estimate fits the time budget. */
type Query = <R = Record<string, unknown>>(statement: string) => Promise<R[]>;

/** A read-only transaction on the connection data views run on, always rolled back. */
async function transaction<T>(ctx: AppContext, run: (rows: Rows) => Promise<T>): Promise<T> {
  if (ctx.dbKind !== 'postgres') {
    try {
      await ctx.db
        .transaction()
        .setAccessMode('read only')
        .execute(async (trx: Transaction<DB>) => {
          throw new RolledBack(await run(rowsOf(trx)));
        });
    } catch (e) {
      if (e instanceof RolledBack) return e.value as T;
      throw e;
    }
    throw new Error('unreachable: the transaction always rolls back');
  }
  const { pool } = await dataViewPool(ctx);
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('begin read only');
    return await run(async <R>(text: string, params: readonly unknown[] = []) => (await client.query(text, [...params])).rows as R[]);
  } finally {
    try {
      // Nothing a data view did outlives the call: settings, advisory locks, temporary tables, prepared statements.
      await client.query('rollback');
      await client.query('discard all');
    } catch (e) {
      broken = e instanceof Error ? e : new Error(String(e));
    }
    client.release(broken);
  }
}

/** Runs `run` on a data-view connection in a read-only transaction, reset afterwards as every data view's is (tests). */
export const withDataViewConnection = <T>(ctx: AppContext, run: (rows: Rows) => Promise<T>): Promise<T> => transaction(ctx, run);

/**
 * Guards and runs a data view: the guard reads the columns it judges by inside the transaction that runs
 * the statements (on PostgreSQL after locking the tables), then every statement goes through `query`.
 */
async function readOnly<T>(ctx: AppContext, text: string, run: (query: Query, body: string) => Promise<T>): Promise<T> {
  const kind: DatabaseKind = ctx.dbKind;
  const relations = await relationsOfDataView(text, kind);
  if (kind === 'pglite')
    await freshStatistics(
      ctx.db,
      relations.map((r) => r.replace(/^public\./, '')),
    );
  const timeout = Math.max(1, Math.trunc(ctx.config.dataViewTimeoutMs));
  // Judged first on the server's own catalog, so a refused statement never reaches the data views' login;
  // judged again below in the transaction that runs it (a cached verdict when nothing changed).
  if (kind === 'postgres') await guardDataView(text, kind, (r) => catalogColumns(rowsOf(ctx.db), r));
  return transaction(ctx, async (rows) => {
    await rows(`set local statement_timeout = ${timeout}`);
    // The guard parsed the text with standard strings, so the database must read it the same way.
    await rows('set local standard_conforming_strings = on');
    if (kind === 'postgres' && relations.length) {
      const existing = await rows<{ rel: string }>(
        `select r.rel from unnest($1::text[]) r(rel) where to_regclass(case when r.rel like 'public.%'
          then 'public.' || quote_ident(substr(r.rel, 8)) else quote_ident(r.rel) end) is not null`,
        [relations],
      );
      // Held to the end: no table's columns change between the verdict and the statement.
      if (existing.length) await rows(`lock table ${existing.map((r) => quoteRelation(r.rel)).join(', ')} in access share mode`);
    }
    // PGlite has one connection, busy with this transaction: the definitions are read in it. On PostgreSQL
    // the data views' login cannot read them: they are read on the server's own connection.
    const plan = await guardDataView(text, kind, (r) => catalogColumns(rows, r, kind === 'postgres' ? rowsOf(ctx.db) : rows));
    let perRow = 0;
    if (kind === 'pglite') {
      // PGlite keeps every page in memory: reading one costs about what processing a few rows does, so
      // the estimate counts work instead of disk reads that never happen.
      await rows(`set local seq_page_cost = ${PGLITE_PAGE_COST}`);
      await rows(`set local random_page_cost = ${PGLITE_PAGE_COST}`);
      perRow = await charsPerRow(rows, plan);
    }
    const query: Query = async <R>(statement: string) => {
      // The text the database is reading, for the place it names when it refuses it.
      let sent = `${EXPLAIN}${statement}`;
      try {
        if (kind === 'pglite') {
          const estimate = await pgliteEstimate(rows, statement, perRow);
          if (!(estimate.cost <= pgliteCostLimit(timeout))) throw badRequest('DATA_VIEW_REFUSED_ON_PGLITE');
        }
        sent = statement;
        return await rows<R>(statement);
      } catch (e) {
        locate(e, sent, plan.body);
        throw e;
      }
    };
    return run(query, plan.body);
  });
}

/** As readOnly; on PostgreSQL a read refused for a table the guard allows is granted once and tried again (a table made since). */
async function guarded<T>(ctx: AppContext, text: string, run: (query: Query, body: string) => Promise<T>): Promise<T> {
  try {
    return await readOnly(ctx, text, run);
  } catch (e) {
    if (ctx.dbKind !== 'postgres' || pgError(e)?.code !== '42501') throw e;
    const { role } = await dataViewPool(ctx);
    if (!(await grantDataViewReads(ctx.db, [role])).length) throw e;
    return readOnly(ctx, text, run);
  }
}

/** The estimate PGlite would judge a data view by, without running it (bench/data-view-hold). */
export async function pgliteEstimateOf(ctx: AppContext, text: string, maxRows?: number): Promise<{ cost: number; limit: number }> {
  const cap = Math.max(1, Math.trunc(Math.min(maxRows ?? Number.POSITIVE_INFINITY, ctx.config.dataViewMaxRows)));
  const timeout = Math.max(1, Math.trunc(ctx.config.dataViewTimeoutMs));
  const relations = await relationsOfDataView(text, ctx.dbKind);
  await freshStatistics(
    ctx.db,
    relations.map((r) => r.replace(/^public\./, '')),
  );
  return transaction(ctx, async (rows) => {
    const plan = await guardDataView(text, ctx.dbKind, (r) => catalogColumns(rows, r, ctx.dbKind === 'postgres' ? rowsOf(ctx.db) : rows));
    await rows(`set local seq_page_cost = ${PGLITE_PAGE_COST}`);
    await rows(`set local random_page_cost = ${PGLITE_PAGE_COST}`);
    const perRow = await charsPerRow(rows, plan);
    const estimate = await pgliteEstimate(rows, `select * from (\n${plan.body}\n) q limit ${cap + 1}`, perRow);
    return { cost: estimate.cost, limit: pgliteCostLimit(timeout) };
  });
}

export interface DataViewResult {
  columns: string[];
  list: Record<string, unknown>[];
  /** More rows than the cap: `list` holds the first `cap`. */
  truncated: boolean;
}

/** Runs a data view: its columns and at most `maxRows` rows (`config.dataViewMaxRows` unless fewer are asked for). */
/** The running byte count the answer's statement adds to each row; no data view may name a column so. */
const BYTES = '__wastegen_bytes';

export async function runDataView(ctx: AppContext, text: string, maxRows?: number): Promise<DataViewResult> {
  const cap = Math.max(1, Math.trunc(Math.min(maxRows ?? Number.POSITIVE_INFINITY, ctx.config.dataViewMaxRows)));
  const timeout = ctx.config.dataViewTimeoutMs;
  const started = performance.now();
  try {
    const maxBytes = ctx.config.dataViewMaxBytes;
    const result = await guarded(ctx, text, async (query, body) => {
      // The database counts each row's text as it goes and sends no row past the byte budget (and one to
      // tell it was reached), so a view of wide rows never reaches the server whole.
      const rows = await query(`select * from (
        select q.*, sum(octet_length(q::text)) over (rows between unbounded preceding and current row) as "${BYTES}"
        from (\n${body}\n) q limit ${cap + 1}) s
        where s."${BYTES}" - octet_length(s::text) < ${maxBytes}`);
      if (rows.length) return { columns: Object.keys(rows[0] as object).filter((c) => c !== BYTES), rows };
      return { columns: await columnNames(query, body), rows: [] };
    });
    // The estimate can be wrong; an answer that took too long is still not given out.
    if (ctx.dbKind === 'pglite' && performance.now() - started > timeout) throw badRequest('DATA_VIEW_TIMED_OUT');
    const last = result.rows.at(-1) as Record<string, unknown> | undefined;
    const overBytes = last !== undefined && Number(last[BYTES]) > maxBytes;
    const kept = result.rows.slice(0, overBytes ? result.rows.length - 1 : cap);
    return {
      columns: result.columns,
      list: kept.map((r) => Object.fromEntries(Object.entries(r).flatMap(([k, v]) => (k === BYTES ? [] : [[k, plain(v)]])))),
      truncated: result.rows.length > cap || overBytes,
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

/** The data view's columns with their SQL types, without its rows (for chart configuration). */
export async function dataViewColumns(ctx: AppContext, text: string): Promise<{ name: string; type: string }[]> {
  try {
    return await guarded(ctx, text, async (query, body) => {
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
  try {
    await guarded(ctx, text, (query, body) => query(`select * from (\n${body}\n) q limit 0`));
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
