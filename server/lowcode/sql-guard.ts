import { type Kysely, sql } from 'kysely';
import type { DatabaseKind } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { badRequest } from '../errors.js';

/**
 * Judges data-view SQL on PostgreSQL's own parse tree (libpg-query), never on its text: quoting, `U&`
 * escapes, `E''` strings, dollar quotes and comments are resolved by the parser, so a name is compared
 * as the database will read it. A data view is accepted only when all of these hold:
 *
 * - it is exactly one plain SELECT (VALUES and TABLE included): no INTO, no FOR UPDATE/SHARE, no
 *   statement other than SELECT anywhere in it (so no data-modifying CTE), and on PGlite no WITH
 *   RECURSIVE (the planner cannot estimate it and PGlite cannot interrupt it);
 * - every function it calls, wherever (select list, FROM, joins, subqueries, CTEs), is in
 *   DATA_VIEW_FUNCTIONS, unqualified or qualified with pg_catalog;
 * - generate_series takes integer constants only, so the planner knows how many rows it makes, and
 *   lpad/rpad a constant length of at most 1000;
 * - every relation it reads is a CTE it defines itself (where that CTE is visible), a table of
 *   DATA_VIEW_TABLES, or a low-code view table (lc_view_{id}), unqualified or qualified with public;
 * - no XML parsing or XMLTABLE.
 *
 * The whole tree is walked whatever its node kinds, so a construct the rules above do not name is still
 * searched for relations, function calls and statements.
 */

/** The role data views run under on PostgreSQL: SELECT on the allowed tables only. */
export const DATA_VIEW_ROLE = 'wastegen_data_view';

/**
 * Tables a data view may read besides the low-code view tables: business records and reference data.
 * The dictionaries (sys_dict, sys_dict_detail) are the one exception to "no sys_* table": they hold only
 * the labels every page already shows. Never accounts, sessions, settings, logs, messages, files, or the
 * low-code definitions (a screen row holds its share key).
 */
export const DATA_VIEW_TABLES = [
  'company',
  'region',
  'company_application',
  'company_linkman',
  'company_warehouse',
  'company_contract',
  'waste_category',
  'company_waste_category',
  'disposal_process',
  'dash_fact',
  'bulletin',
  'inventory_config',
  'dash_target',
  'disposal_order_manual',
  'disposal_testing_application',
  'materials_code',
  'sys_dict',
  'sys_dict_detail',
] as const satisfies readonly (keyof DB)[];

/** Backing tables of low-code views, as server/lowcode/ddl.ts names them (`viewTable`). */
export const LOW_CODE_TABLE = /^lc_view_\d+$/;

const ALLOWED_TABLES: ReadonlySet<string> = new Set(DATA_VIEW_TABLES);

/** Whether a data view may read the relation of this (parser-resolved) name. */
export const isDataViewTable = (name: string): boolean => ALLOWED_TABLES.has(name) || LOW_CODE_TABLE.test(name);

/**
 * Every function a data view may call, by kind. coalesce, nullif, greatest, least, CASE, casts and
 * current_date/current_timestamp are not function calls in the parse tree and need no entry. Left out on
 * purpose: anything with a side effect or reading server state (nextval, set_config, current_setting,
 * pg_*, lo_*, dblink, query_to_xml, txid_*, advisory locks, pg_sleep) and text builders whose size is
 * an argument (repeat, format), which could fill memory with one call; lpad and rpad take a constant
 * length of at most PAD_MAX.
 */
const FUNCTIONS_BY_KIND: Record<string, readonly string[]> = {
  aggregate: [
    'count',
    'sum',
    'avg',
    'min',
    'max',
    'string_agg',
    'array_agg',
    'bool_and',
    'bool_or',
    'every',
    'bit_and',
    'bit_or',
    'stddev',
    'stddev_pop',
    'stddev_samp',
    'variance',
    'var_pop',
    'var_samp',
    'percentile_cont',
    'percentile_disc',
    'mode',
    'corr',
    'covar_pop',
    'covar_samp',
    'regr_slope',
    'regr_intercept',
    'regr_r2',
    'regr_count',
    'json_agg',
    'jsonb_agg',
    'json_object_agg',
    'jsonb_object_agg',
  ],
  window: [
    'row_number',
    'rank',
    'dense_rank',
    'percent_rank',
    'cume_dist',
    'ntile',
    'lag',
    'lead',
    'first_value',
    'last_value',
    'nth_value',
  ],
  'date and time': [
    'now',
    'date_trunc',
    'date_part',
    'extract',
    'date_bin',
    'age',
    'make_date',
    'make_time',
    'make_timestamp',
    'make_interval',
    'to_char',
    'to_date',
    'to_timestamp',
    'justify_days',
    'justify_hours',
    'justify_interval',
    'isfinite',
    'timezone',
    'overlaps',
    'clock_timestamp',
    'statement_timestamp',
    'transaction_timestamp',
  ],
  text: [
    'length',
    'char_length',
    'character_length',
    'octet_length',
    'lower',
    'upper',
    'initcap',
    'substr',
    'substring',
    'left',
    'right',
    'btrim',
    'ltrim',
    'rtrim',
    'replace',
    'translate',
    'split_part',
    'concat',
    'concat_ws',
    'position',
    'strpos',
    'starts_with',
    'reverse',
    'overlay',
    'ascii',
    'chr',
    'md5',
    'to_hex',
    'normalize',
    'is_normalized',
    'like_escape',
    'similar_to_escape',
    'string_to_array',
    'lpad',
    'rpad',
    'array_to_string',
  ],
  numeric: [
    'abs',
    'round',
    'trunc',
    'ceil',
    'ceiling',
    'floor',
    'mod',
    'div',
    'power',
    'pow',
    'sqrt',
    'cbrt',
    'exp',
    'ln',
    'log',
    'log10',
    'sign',
    'pi',
    'degrees',
    'radians',
    'scale',
    'width_bucket',
    'random',
    'to_number',
  ],
  conditional: ['num_nulls', 'num_nonnulls', 'pg_typeof'],
  'arrays and JSON': [
    'array_length',
    'cardinality',
    'array_position',
    'unnest',
    'generate_series',
    'to_json',
    'to_jsonb',
    'row_to_json',
    'json_build_object',
    'jsonb_build_object',
    'json_build_array',
    'jsonb_build_array',
  ],
};

/** The allow-list of functions, with the kind each is listed under. */
export const DATA_VIEW_FUNCTIONS: ReadonlyMap<string, string> = new Map(
  Object.entries(FUNCTIONS_BY_KIND).flatMap(([kind, names]) => names.map((n) => [n, kind] as const)),
);

export const GUARD_MESSAGES = {
  empty: 'SQL 不能为空',
  onlyQueries: '数据视图只能执行查询语句',
  oneStatement: '数据视图只能包含一条查询语句',
  into: '数据视图不能使用 SELECT INTO',
  locking: '数据视图不能锁定数据行（FOR UPDATE / FOR SHARE）',
  recursive: '内嵌数据库上的数据视图不能使用递归查询（WITH RECURSIVE）',
  series: 'generate_series 的参数只能是整数常量',
  xml: '数据视图不能使用 XML 函数',
  pad: (name: string) => `${name} 的长度参数只能是不超过 1000 的整数常量`,
  function: (name: string) => `数据视图不能调用函数 ${name}`,
  table: (name: string) => `数据视图不能读取表 ${name}`,
} as const;

type Json = unknown;
type Obj = Record<string, Json>;
const isObj = (v: Json): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Names in a parse tree's list of String nodes, as the parser resolved them. */
function names(list: Json): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((n) => (isObj(n) && isObj(n.String) && typeof n.String.sval === 'string' ? n.String.sval : '?'));
}

const refuse = (message: string): never => {
  throw badRequest(message);
};

interface Walk {
  recursiveAllowed: boolean;
  /** The tables read, by name (CTEs left out). */
  tables: Set<string>;
}

/** CTE names visible where a node stands; inner scopes shadow outer ones. */
type Scope = ReadonlySet<string>;

/** Longest text lpad and rpad may build. */
const PAD_MAX = 1000;

function checkFunction(call: Obj): void {
  const parts = names(call.funcname);
  const name = parts[parts.length - 1] ?? '?';
  const schema = parts.length === 2 ? parts[0] : undefined;
  const shown = schema === 'pg_catalog' ? name : parts.join('.');
  if (parts.length > 2 || (schema !== undefined && schema !== 'pg_catalog')) refuse(GUARD_MESSAGES.function(shown));
  if (!DATA_VIEW_FUNCTIONS.has(name)) refuse(GUARD_MESSAGES.function(shown));
  if (name === 'lpad' || name === 'rpad') {
    const length = Array.isArray(call.args) ? call.args[1] : undefined;
    const c = isObj(length) && isObj(length.A_Const) ? length.A_Const : undefined;
    const n = c && isObj(c.ival) && Object.keys(c).every((k) => k === 'ival' || k === 'location') ? Number(c.ival.ival ?? 0) : Number.NaN;
    if (!(n >= 0 && n <= PAD_MAX)) refuse(GUARD_MESSAGES.pad(name));
  }
  if (name === 'generate_series') {
    const args = Array.isArray(call.args) ? call.args : [];
    const integer = (c: Obj) =>
      (isObj(c.ival) && Object.keys(c).every((k) => k === 'ival' || k === 'location')) ||
      (isObj(c.fval) && typeof c.fval.fval === 'string' && /^\d+$/.test(c.fval.fval));
    const constant = (a: Json) => isObj(a) && isObj(a.A_Const) && integer(a.A_Const);
    const negated = (a: Json) =>
      isObj(a) &&
      isObj(a.A_Expr) &&
      a.A_Expr.kind === 'AEXPR_OP' &&
      names(a.A_Expr.name).join() === '-' &&
      !a.A_Expr.lexpr &&
      constant(a.A_Expr.rexpr);
    if (!args.every((a) => constant(a) || negated(a))) refuse(GUARD_MESSAGES.series);
  }
}

function checkRelation(rel: Obj, scope: Scope, w: Walk): void {
  const name = typeof rel.relname === 'string' ? rel.relname : '?';
  const schema = typeof rel.schemaname === 'string' ? rel.schemaname : undefined;
  const shown = [rel.catalogname, schema, name].filter((p) => typeof p === 'string').join('.');
  if (rel.catalogname !== undefined) refuse(GUARD_MESSAGES.table(shown));
  if (schema === undefined && scope.has(name)) return;
  if (schema !== undefined && schema !== 'public') refuse(GUARD_MESSAGES.table(shown));
  if (!isDataViewTable(name)) refuse(GUARD_MESSAGES.table(shown));
  w.tables.add(name);
}

/** A SELECT: its WITH list opens a scope for its CTEs, which each see only the ones before it unless recursive. */
function walkSelect(select: Obj, scope: Scope, w: Walk): void {
  if (select.intoClause) refuse(GUARD_MESSAGES.into);
  if (Array.isArray(select.lockingClause) && select.lockingClause.length) refuse(GUARD_MESSAGES.locking);
  let inner = scope;
  const withClause = select.withClause;
  if (isObj(withClause)) {
    if (withClause.recursive && !w.recursiveAllowed) refuse(GUARD_MESSAGES.recursive);
    const ctes = (Array.isArray(withClause.ctes) ? withClause.ctes : []).map((c) =>
      isObj(c) && isObj(c.CommonTableExpr) ? c.CommonTableExpr : {},
    );
    const all = new Set(scope);
    for (const c of ctes) if (typeof c.ctename === 'string') all.add(c.ctename);
    const growing = new Set(scope);
    for (const c of ctes) {
      walk(c, withClause.recursive ? all : new Set(growing), w);
      if (typeof c.ctename === 'string') growing.add(c.ctename);
    }
    inner = all;
  }
  for (const [key, value] of Object.entries(select)) if (key !== 'withClause') walk(value, inner, w);
}

/** XML parsing and XMLTABLE: a document may name external entities; no chart needs them. */
const XML_NODES = new Set(['XmlExpr', 'XmlSerialize', 'RangeTableFunc']);

function walk(node: Json, scope: Scope, w: Walk): void {
  if (Array.isArray(node)) {
    for (const n of node) walk(n, scope, w);
    return;
  }
  if (!isObj(node)) return;
  if (typeof node.relname === 'string') checkRelation(node, scope, w);
  if (node.funcname !== undefined) checkFunction(node);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'SelectStmt' && isObj(value)) walkSelect(value, scope, w);
    else if (/Stmt$/.test(key)) refuse(GUARD_MESSAGES.onlyQueries);
    else if (key === 'LockingClause') refuse(GUARD_MESSAGES.locking);
    else if (key === 'intoClause' || key === 'IntoClause') refuse(GUARD_MESSAGES.into);
    else if (XML_NODES.has(key)) refuse(GUARD_MESSAGES.xml);
    else walk(value, scope, w);
  }
}

type Parse = (text: string) => Promise<{ stmts?: { stmt?: Json }[] }>;
let parser: Promise<Parse> | undefined;
/** The parser is WebAssembly: it loads on the first data view, not at start-up. */
const loadParser = (): Promise<Parse> => {
  parser ??= import('libpg-query').then((m) => m.parse as Parse);
  return parser;
};

/** Line, column (1-based, in characters) and the text near a 0-based character position. */
function where(text: string, position: number): { line: number; column: number; near: string } {
  const chars = Array.from(text);
  const at = Math.max(0, Math.min(position, chars.length));
  const before = chars.slice(0, at).join('');
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  const near = (
    chars
      .slice(at)
      .join('')
      .match(/^\S{1,20}/)?.[0] ?? ''
  ).trim();
  return { line, column, near };
}

/** The Chinese message of a parse error: where it is and near which text. */
function syntaxMessage(text: string, e: unknown): string {
  const details = isObj(e) && isObj(e.sqlDetails) ? e.sqlDetails : {};
  const message = e instanceof Error ? e.message : String(e);
  const pos = typeof details.cursorPosition === 'number' ? details.cursorPosition : 0;
  if (/at end of input/.test(message)) {
    const end = where(text, Array.from(text).length);
    return `SQL 语法错误：第 ${end.line} 行第 ${end.column} 列（语句在末尾处不完整）`;
  }
  const { line, column, near } = where(text, pos);
  const token = message.match(/at or near "(.*)"$/s)?.[1] ?? near;
  return `SQL 语法错误：第 ${line} 行第 ${column} 列附近（"${token.slice(0, 40)}"）`;
}

type Verdict = { ok: true; body: string; tables: string[] } | { ok: false; message: string };
const verdicts = new Map<string, Verdict>();
const MAX_VERDICTS = 1000;

async function judge(text: string, kind: DatabaseKind): Promise<Verdict> {
  const body = text.trim().replace(/[;\s]+$/, '');
  if (!body) return { ok: false, message: GUARD_MESSAGES.empty };
  const parse = await loadParser();
  let tree: Awaited<ReturnType<Parse>>;
  try {
    tree = await parse(body);
  } catch (e) {
    return { ok: false, message: syntaxMessage(body, e) };
  }
  const stmts = tree.stmts ?? [];
  const tables = new Set<string>();
  try {
    if (!stmts.length) refuse(GUARD_MESSAGES.empty);
    if (stmts.length > 1) refuse(GUARD_MESSAGES.oneStatement);
    const stmt = stmts[0]?.stmt;
    if (!isObj(stmt) || !isObj(stmt.SelectStmt)) refuse(GUARD_MESSAGES.onlyQueries);
    walk(stmt, new Set(), { recursiveAllowed: kind !== 'pglite', tables });
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
  return { ok: true, body, tables: [...tables].sort() };
}

/**
 * The statement to run (trailing semicolons and blanks dropped) when the guard accepts the SQL; throws a
 * 400 with the reason otherwise. Verdicts are kept per SQL text and database kind.
 */
export async function guardDataViewSql(text: string, kind: DatabaseKind): Promise<string> {
  return (await guardDataView(text, kind)).body;
}

/** As guardDataViewSql, with the tables the statement reads. */
export async function guardDataView(text: string, kind: DatabaseKind): Promise<{ body: string; tables: string[] }> {
  const key = `${kind}\u0000${text}`;
  let verdict = verdicts.get(key);
  if (!verdict) {
    verdict = await judge(text, kind);
    if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
    verdicts.set(key, verdict);
  }
  if (!verdict.ok) throw badRequest(verdict.message);
  return { body: verdict.body, tables: verdict.tables };
}

/**
 * Grants the data-view role SELECT on every allowed table of the current schema it cannot read yet
 * (none when the role does not exist). Answers the tables granted.
 */
export async function grantDataViewReads(db: Kysely<any>): Promise<string[]> {
  const missing = await sql<{ name: string }>`
    select c.relname as name from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    join pg_roles r on r.rolname = ${DATA_VIEW_ROLE}
    where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v', 'm')
      and (c.relname = any(${[...DATA_VIEW_TABLES]}::text[]) or c.relname ~ ${LOW_CODE_TABLE.source})
      and not has_table_privilege(r.oid, c.oid, 'SELECT')
    order by 1`.execute(db);
  const tables = missing.rows.map((r) => r.name);
  if (tables.length) await sql`grant select on table ${sql.join(tables.map((t) => sql.table(t)))} to ${sql.id(DATA_VIEW_ROLE)}`.execute(db);
  return tables;
}
