import { CompiledQuery, type Kysely, sql } from 'kysely';
import { menuComponentName } from '../../src/model/index.js';
import { type ErrorCode, type ErrorParams, errorMessage } from '../../src/shared/error-catalogue.js';
import { RECIPIENT_FIELD } from '../access/parties.js';
import type { DatabaseKind } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { badRequest } from '../errors.js';
import { namedTable } from '../lib/named-table.js';

/**
 * Judges data-view SQL on PostgreSQL's own parse tree (libpg-query), never on its text: quoting, `U&`
 * escapes, `E''` strings, dollar quotes and comments are resolved by the parser, so a name is compared
 * as the database will read it.
 *
 * The walk is an allow-list: every parse node kind, and every field of it, that a data view may use is
 * listed below; anything else is refused, naming the construct. Within what is listed:
 *
 * - exactly one plain SELECT (VALUES and TABLE included): no INTO, no FOR UPDATE/SHARE, no other statement
 *   anywhere (so no data-modifying CTE), and on PGlite no WITH RECURSIVE;
 * - every name resolves as PostgreSQL resolves it (transformColumnRef): `c` must be a column of a relation
 *   in scope (this query's FROM items, the outer queries' for correlated subqueries and LATERAL, output
 *   aliases in ORDER BY / GROUP BY) or a range alias (a whole-row reference); `a.c` must be range `a` and
 *   its column `c` (or `*`). PostgreSQL reads `a.f` with no column `f` in `a`, and `x.f` with `x` a column,
 *   as the call `f(a)` / `f(x)`: the guard refuses both, so no call hides in a name. Field selection
 *   `(x).f` is refused outright; subscripts `a[1]` stay;
 * - every call, however written (`f(x)`, `"f"(x)`, `U&"…"(x)`, `pg_catalog.f(x)`), is in
 *   DATA_VIEW_FUNCTIONS and not in the deny-list DENIED_FUNCTIONS / DENIED_FUNCTION_PATTERNS;
 * - every operator is in DATA_VIEW_OPERATORS (qualified with pg_catalog at most), every type named anywhere
 *   (casts, `type 'literal'`, column definition lists) in DATA_VIEW_TYPES, and of the SQL value functions
 *   only dates and times (no current_user, session_user, current_schema, …);
 * - every relation is a CTE it defines itself (where visible), a table of DATA_VIEW_TABLES or a low-code
 *   view table (lc_view_{id}), unqualified or qualified with public;
 * - what it builds stays small (see `Size` below): generate_series takes integer constants, lpad/rpad a
 *   constant length ≤ 1000, unnest an ARRAY[…] or array constant, and the aggregates that collect rows
 *   into one value (string_agg, array_agg, json(b)_agg, json(b)_object_agg) stand only as output columns of
 *   the outermost query.
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

/** The statistical aggregates: a data view may call each, and each answers a number of bounded size. */
const STATISTICAL_AGGREGATES = [
  'stddev',
  'stddev_pop',
  'stddev_samp',
  'variance',
  'var_pop',
  'var_samp',
  'percentile_cont',
  'percentile_disc',
];

/** The JSON builders: a data view may call each, and each builds new text from what it is given. */
const JSON_BUILDERS = [
  'to_json',
  'to_jsonb',
  'row_to_json',
  'json_build_object',
  'jsonb_build_object',
  'json_build_array',
  'jsonb_build_array',
];

/**
 * Every function a data view may call, by kind. coalesce, nullif, greatest, least, CASE, casts and
 * current_date/current_timestamp are not function calls in the parse tree and need no entry. Left out on
 * purpose: anything with a side effect or reading server state (nextval, set_config, current_setting,
 * pg_*, lo_*, dblink, query_to_xml, txid_*, advisory locks, pg_sleep) and text builders whose size is
 * an argument (repeat, format), which could fill memory with one call; lpad and rpad take a constant
 * length of at most PAD_MAX.
 */
const FUNCTIONS_BY_KIND: Record<string, readonly string[]> = namedTable({
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
    ...STATISTICAL_AGGREGATES,
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
  'arrays and JSON': ['array_length', 'cardinality', 'array_position', 'unnest', 'generate_series', ...JSON_BUILDERS],
});

/** The allow-list of functions, with the kind each is listed under. */
export const DATA_VIEW_FUNCTIONS: ReadonlyMap<string, string> = new Map(
  Object.entries(FUNCTIONS_BY_KIND).flatMap(([kind, names]) => names.map((n) => [n, kind] as const)),
);

/**
 * Functions a data view may never call, whatever the allow-list says: they run SQL text (ts_stat,
 * ts_rewrite, query_to_xml and the other *_to_xml* family, crosstab, connectby, dblink), change or read
 * server settings, sessions and sequences, take locks or sleep, reach files, large objects or other
 * servers, or build text of a size given as an argument. The allow-list is checked after this list, so an
 * edit to the allow-list cannot let one of these in (tests/server/data-view-hostile.test.ts proves it).
 */
export const DENIED_FUNCTIONS: readonly string[] = [
  'ts_stat',
  'ts_rewrite',
  'query_to_xml',
  'query_to_xmlschema',
  'query_to_xml_and_xmlschema',
  'cursor_to_xml',
  'cursor_to_xmlschema',
  'table_to_xml',
  'table_to_xmlschema',
  'table_to_xml_and_xmlschema',
  'schema_to_xml',
  'schema_to_xmlschema',
  'schema_to_xml_and_xmlschema',
  'database_to_xml',
  'database_to_xmlschema',
  'database_to_xml_and_xmlschema',
  'crosstab',
  'crosstab2',
  'crosstab3',
  'crosstab4',
  'connectby',
  'set_config',
  'current_setting',
  'set_limit',
  'nextval',
  'setval',
  'currval',
  'lastval',
  'version',
  'current_database',
  'current_schema',
  'current_schemas',
  'current_user',
  'current_role',
  'session_user',
  'system_user',
  'user',
  'inet_client_addr',
  'inet_client_port',
  'inet_server_addr',
  'inet_server_port',
  'repeat',
  'format',
  'loread',
  'lowrite',
  'row_security_active',
];

/** Whole families refused by name: pg_* administration (pg_typeof alone is harmless), dblink, large objects, advisory locks, sleeps, XML, privileges. */
export const DENIED_FUNCTION_PATTERNS: readonly RegExp[] = [
  /^pg_(?!typeof$)/,
  /^dblink/,
  /^lo_/,
  /advisory/,
  /sleep/,
  /^txid_/,
  /xml/,
  /^has_\w*privilege$/,
  /^to_reg/,
  /^ts_/,
  /^set_/,
  /^binary_upgrade_/,
  /^brin_/,
  /^gin_/,
];

/** Whether a function name is on the deny-list (name as the parser resolved it, schema dropped). */
export const isDeniedFunction = (name: string): boolean =>
  DENIED_FUNCTIONS.includes(name) || DENIED_FUNCTION_PATTERNS.some((p) => p.test(name));

/**
 * Types a data view may name (casts, `type 'literal'`, column definition lists), as the parser resolves
 * them (`integer` is pg_catalog.int4); arrays of these too. No reg* (catalog lookups), xml, pg_* or any other.
 */
export const DATA_VIEW_TYPES: ReadonlySet<string> = new Set([
  'int2',
  'int4',
  'int8',
  'float4',
  'float8',
  'numeric',
  'text',
  'varchar',
  'bpchar',
  'bool',
  'date',
  'time',
  'timetz',
  'timestamp',
  'timestamptz',
  'interval',
  'json',
  'jsonb',
  'uuid',
]);

/** Operators a data view may use: arithmetic, comparison, text, pattern, JSON and array containment. */
export const DATA_VIEW_OPERATORS: ReadonlySet<string> = new Set([
  '+',
  '-',
  '*',
  '/',
  '%',
  '^',
  '|/',
  '||/',
  '@',
  '&',
  '|',
  '#',
  '<<',
  '>>',
  '=',
  '<>',
  '<',
  '>',
  '<=',
  '>=',
  '||',
  '~~',
  '!~~',
  '~~*',
  '!~~*',
  '~',
  '~*',
  '!~',
  '!~*',
  '^@',
  '->',
  '->>',
  '#>',
  '#>>',
  '@>',
  '<@',
  '?',
  '?|',
  '?&',
  '#-',
  '&&',
]);

const msg = (code: ErrorCode, params?: ErrorParams) => errorMessage(code, params);

/** The Chinese text of each refusal (the error catalogue's SQL_* entries). */
export const GUARD_MESSAGES = {
  empty: msg('SQL_EMPTY'),
  onlyQueries: msg('SQL_ONLY_QUERIES'),
  oneStatement: msg('SQL_ONE_STATEMENT'),
  into: msg('SQL_SELECT_INTO'),
  locking: msg('SQL_LOCKING'),
  recursive: msg('SQL_RECURSIVE'),
  series: msg('SQL_SERIES_ARGS'),
  xml: msg('SQL_XML'),
  unnest: msg('SQL_UNNEST_ARGS'),
  pad: (name: string) => msg('SQL_PAD_ARGS', { name }),
  function: (name: string) => msg('SQL_FUNCTION', { name }),
  table: (name: string) => msg('SQL_TABLE', { name }),
  construct: (name: string) => msg('SQL_CONSTRUCT', { name }),
  name: (name: string) => msg('SQL_NAME', { name }),
  type: (name: string) => msg('SQL_CAST_TYPE', { name }),
  operator: (name: string) => msg('SQL_OPERATOR', { name }),
  tooLarge: (name: string) => msg('SQL_TOO_LARGE', { name }),
  collector: (name: string) => msg('SQL_COLLECTOR', { name }),
  wholeRow: (name: string) => msg('SQL_WHOLE_ROW', { name }),
} as const;

type Json = unknown;
type Obj = Record<string, Json>;
const isObj = (v: Json): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A refusal: its catalogue code and parameters. */
class Refused extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly params?: ErrorParams,
  ) {
    super(errorMessage(code, params));
  }
}
const refuse = (code: ErrorCode, params?: ErrorParams): never => {
  throw new Refused(code, params);
};

/** Names in a parse tree's list of String nodes, as the parser resolved them. */
function names(list: Json): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((n) => (isObj(n) && isObj(n.String) && typeof n.String.sval === 'string' ? n.String.sval : '?'));
}

/** The one node kind of a parse node `{ Kind: {...} }` and its body. */
function kindOf(node: Json): [string, Obj] {
  if (!isObj(node)) return ['?', {}];
  const keys = Object.keys(node);
  const kind = keys[0] ?? '?';
  const body = node[kind];
  return [kind, keys.length === 1 && isObj(body) ? body : {}];
}

const list = (v: Json): Json[] => (Array.isArray(v) ? v : []);

/** Readable names of constructs that are refused, for the message; others are named by their node kind. */
const CONSTRUCT_NAMES: Record<string, string> = namedTable({
  ParamRef: '参数 $n',
  RangeTableSample: 'TABLESAMPLE',
  RangeTableFunc: 'XMLTABLE',
  JsonTable: 'JSON_TABLE',
  JsonObjectConstructor: 'JSON_OBJECT',
  JsonArrayConstructor: 'JSON_ARRAY',
  JsonArrayQueryConstructor: 'JSON_ARRAY',
  JsonObjectAgg: 'JSON_OBJECTAGG',
  JsonArrayAgg: 'JSON_ARRAYAGG',
  JsonFuncExpr: 'JSON_QUERY / JSON_VALUE / JSON_EXISTS',
  JsonIsPredicate: 'IS JSON',
  JsonParseExpr: 'JSON()',
  JsonScalarExpr: 'JSON_SCALAR',
  JsonSerializeExpr: 'JSON_SERIALIZE',
  MergeSupportFunc: 'MERGE_ACTION',
  SetToDefault: 'DEFAULT',
  CurrentOfExpr: 'CURRENT OF',
  CTESearchClause: 'SEARCH',
  CTECycleClause: 'CYCLE',
  fieldSelection: '字段选择 (x).f',
  arraySubLink: 'ARRAY(子查询)',
  indirectionTarget: '输出列下标或字段',
  multiPartName: '三段以上的名称',
  SVFOP_CURRENT_ROLE: 'current_role',
  SVFOP_CURRENT_USER: 'current_user',
  SVFOP_USER: 'user',
  SVFOP_SESSION_USER: 'session_user',
  SVFOP_CURRENT_CATALOG: 'current_catalog',
  SVFOP_CURRENT_SCHEMA: 'current_schema',
});
const XML_NODES = new Set(['XmlExpr', 'XmlSerialize', 'RangeTableFunc']);
const refuseConstruct = (kind: string): never => {
  if (XML_NODES.has(kind)) refuse('SQL_XML');
  if (/Stmt$/.test(kind)) refuse('SQL_ONLY_QUERIES');
  if (kind === 'IntoClause') refuse('SQL_SELECT_INTO');
  if (kind === 'LockingClause') refuse('SQL_LOCKING');
  return refuse('SQL_CONSTRUCT', { name: CONSTRUCT_NAMES[kind] ?? kind });
};

/** Refuses a node that carries a field the guard does not read (a construct it does not know). */
function only(kind: string, body: Obj, allowed: readonly string[]): void {
  for (const key of Object.keys(body)) {
    if (key === 'location' || allowed.includes(key)) continue;
    const value = body[key];
    if (value === undefined || value === false || (Array.isArray(value) && !value.length)) continue;
    if (key === 'intoClause') refuse('SQL_SELECT_INTO');
    if (key === 'lockingClause') refuse('SQL_LOCKING');
    if (key === 'search_clause') refuseConstruct('CTESearchClause');
    if (key === 'cycle_clause') refuseConstruct('CTECycleClause');
    refuse('SQL_CONSTRUCT', { name: `${kind}.${key}` });
  }
}

// ----- sizes -----

/**
 * An upper bound of the characters a value may hold: `b` characters the SQL itself builds (literals,
 * padding, formats) plus, for each source value read from a table, `src` copies of it. A source is one
 * column of one table (`table.column`); how long its values are is known only to the database, and is
 * measured before a data view runs on PGlite (data-view.ts).
 *
 * Every expression's bound is computed from its arguments' and checked: no source copied more than
 * MAX_COPIES times and no more than MAX_BUILT characters built, in any expression, however deep in
 * subqueries and CTEs (a column of a subquery carries the bound of the expression that defines it). So
 * nothing grows by repetition: `s || s` through a chain of CTEs doubles per level and is refused after
 * three, nested replace() multiplies and is refused, and a value the planner folds at plan time (before
 * any cost check) is bounded by MAX_BUILT too. The characters the expressions build (`built`) and the
 * source values they copy (`reads`) are summed over the whole statement for the PGlite cost check.
 */
interface Size {
  b: number;
  src: ReadonlyMap<string, number>;
}
const NO_SOURCES: ReadonlyMap<string, number> = new Map();
const fixed = (b: number): Size => ({ b, src: NO_SOURCES });
/** A number, date, boolean or other scalar as text. */
const SCALAR = fixed(64);
/** A numeric as text: the server writes numbers from JSON (at most ±1.8e308), so at most 340 characters. */
const NUMERIC = fixed(340);
const BOOL = fixed(5);
function plus(...xs: Size[]): Size {
  const src = new Map<string, number>();
  let b = 0;
  for (const x of xs) {
    b += x.b;
    for (const [k, n] of x.src) src.set(k, (src.get(k) ?? 0) + n);
  }
  return { b, src };
}
function lub(...xs: Size[]): Size {
  const src = new Map<string, number>();
  let b = 0;
  for (const x of xs) {
    b = Math.max(b, x.b);
    for (const [k, n] of x.src) src.set(k, Math.max(src.get(k) ?? 0, n));
  }
  return { b, src };
}
function times(x: Size, k: number): Size {
  const src = new Map<string, number>();
  for (const [key, n] of x.src) src.set(key, n * k);
  return { b: x.b * k, src };
}
const hasSources = (x: Size) => x.src.size > 0;

/** Most copies of one source value any expression may hold. */
export const MAX_COPIES = 8;
/** Most characters any one expression may build from the SQL's own text (literals, padding, formats). */
export const MAX_BUILT = 100_000;
/** Most characters all the statement's expressions together may build from its own text. */
export const MAX_BUILT_TOTAL = 1_000_000;
/** Longest text lpad and rpad may build. */
const PAD_MAX = 1000;

// ----- scopes -----

interface Column {
  name: string;
  size: Size;
}
/**
 * One entry of a query level's namespace, as PostgreSQL keeps it: `name` when it is visible as a relation
 * name (a join with an alias hides the relations inside it), `colsVisible` when its columns answer
 * unqualified names (a join without an alias answers for the relations inside it).
 */
interface Range {
  name: string | undefined;
  columns: Column[];
  colsVisible: boolean;
}
/** What names see where they stand: the entries of this level visible there, then the outer levels'. */
interface Frame {
  ranges: Range[];
  parent: Frame | undefined;
}
interface CteScope {
  ctes: Map<string, Column[]>;
  parent: CteScope | undefined;
}

/** A table's column as the catalog has it: its name and, when its type bounds it, its longest text. */
export interface CatalogColumn {
  name: string;
  /** Longest value as text, in characters, when the type bounds it (fixed-width types, varchar(n), numeric); null otherwise. */
  bound: number | null;
  /** A text type: cast to numeric, its value may stand for a number of any size ('1e130000'). */
  text?: boolean;
}
/** The columns of the relations a data view names, by the name as written (`t` or `public.t`); absent: no such relation. */
export type CatalogColumns = ReadonlyMap<string, readonly CatalogColumn[]>;

interface Judge {
  kind: DatabaseKind;
  catalog: CatalogColumns;
  functions: ReadonlyMap<string, string>;
  /** Tables read, by name. */
  tables: Set<string>;
  /** Characters built, summed over every building expression. */
  built: number;
  /** Source values copied or read, by source, summed over the statement. */
  reads: Map<string, number>;
  /** Bounds of sources whose type bounds them. */
  bounds: Map<string, number>;
  /** Sources of a text type. */
  texts: Set<string>;
  /** generate_series calls met. */
  series: number;
  /** Output columns of each SELECT walked (for the name of a scalar subquery). */
  outputs: WeakMap<object, Column[]>;
  /** Nesting depth, against stack exhaustion on hostile nesting. */
  depth: number;
}

/** Where an expression stands: what it may be and see besides names. */
interface Place {
  frame: Frame | undefined;
  ctes: CteScope | undefined;
  /** A collecting aggregate may stand here (an output column of the outermost query). */
  collector?: boolean;
  /** A whole-row reference may stand here (the argument of to_json and kin). */
  wholeRow?: boolean;
  /** Output columns a bare name may name here (ORDER BY, GROUP BY, DISTINCT ON). */
  outputs?: Column[];
}

const MAX_DEPTH = 200;

function check(_j: Judge, size: Size, what: string): Size {
  if (size.b > MAX_BUILT) refuse('SQL_TOO_LARGE', { name: what });
  for (const n of size.src.values()) if (n > MAX_COPIES) refuse('SQL_TOO_LARGE', { name: what });
  return size;
}

/** Counts what a building expression makes: its own characters and the source values it copies. */
function builds(j: Judge, size: Size, what: string): Size {
  check(j, size, what);
  j.built += size.b;
  if (j.built > MAX_BUILT_TOTAL) refuse('SQL_TOO_LARGE', { name: what });
  for (const [k, n] of size.src) j.reads.set(k, (j.reads.get(k) ?? 0) + n);
  return size;
}

/** Counts a plain read of table values: only those of unbounded columns (a bounded value's reading is in the planner's per-row cost). */
function readSources(j: Judge, size: Size): void {
  for (const [k, n] of size.src) if (!j.bounds.has(k)) j.reads.set(k, (j.reads.get(k) ?? 0) + n);
}

// ----- names -----

/** The columns a name `c` finds: the innermost level where some visible entry has it (PostgreSQL's colNameToVar). */
function findColumn(frame: Frame | undefined, name: string): Column | undefined {
  for (let f = frame; f; f = f.parent) {
    for (const r of f.ranges) {
      if (!r.colsVisible) continue;
      const c = r.columns.find((x) => x.name === name);
      if (c) return c;
    }
  }
  return undefined;
}

/** The entry a relation name `a` finds: the innermost visible one (PostgreSQL's refnameNamespaceItem). */
function findRange(frame: Frame | undefined, name: string): Range | undefined {
  for (let f = frame; f; f = f.parent) {
    for (const r of f.ranges) if (r.name === name) return r;
  }
  return undefined;
}

const wholeRowSize = (r: Range): Size => plus(...r.columns.map((c) => c.size), fixed(8 * r.columns.length));

/**
 * A column reference, resolved as transformColumnRef does. `c`: a column of any visible entry, innermost
 * level first; failing that, a relation name (a whole row). `a.c`: relation `a` and its column `c`, or
 * `a.*`. PostgreSQL reads `a.c` with no column `c` in `a` as the call `c(a)`, and `x.c` with `x` no
 * relation as the call `c(x)`: both are refused here, as is any longer name.
 */
function columnRef(ref: Obj, place: Place, j: Judge): Size {
  only('ColumnRef', ref, ['fields']);
  const fields = list(ref.fields);
  const parts = fields.map((f) => (isObj(f) && isObj(f.String) ? String(f.String.sval) : isObj(f) && 'A_Star' in f ? '*' : '?'));
  const shown = parts.join('.');
  if (parts.length === 1) {
    const name = parts[0] as string;
    if (name === '*') refuse('SQL_CONSTRUCT', { name: '*' });
    const column = findColumn(place.frame, name);
    if (column) {
      readSources(j, column.size);
      return column.size;
    }
    const output = place.outputs?.find((c) => c.name === name);
    if (output) return output.size;
    const range = findRange(place.frame, name);
    if (range) return wholeRow(range, shown, place, j);
    return refuse('SQL_NAME', { name: shown });
  }
  if (parts.length === 2) {
    const [rel, col] = parts as [string, string];
    const range = findRange(place.frame, rel);
    if (!range) return refuse('SQL_NAME', { name: shown });
    if (col === '*') return wholeRow(range, shown, place, j);
    const column = range.columns.find((c) => c.name === col);
    if (!column) return refuse('SQL_NAME', { name: shown });
    readSources(j, column.size);
    return column.size;
  }
  return refuse('SQL_NAME', { name: shown });
}

function wholeRow(range: Range, shown: string, place: Place, j: Judge): Size {
  if (!place.wholeRow) refuse('SQL_WHOLE_ROW', { name: shown });
  const size = wholeRowSize(range);
  readSources(j, size);
  return size;
}

// ----- types, operators, functions -----

function typeName(t: Json): { name: string; array: boolean } {
  const [kind, body] = isObj(t) && !('names' in t) ? kindOf(t) : ['TypeName', isObj(t) ? t : {}];
  if (kind !== 'TypeName') refuseConstruct(kind);
  only('TypeName', body, ['names', 'typmods', 'typemod', 'arrayBounds']);
  const parts = names(body.names);
  const name = parts[parts.length - 1] ?? '?';
  const shown = parts.join('.');
  if (parts.length > 2 || (parts.length === 2 && parts[0] !== 'pg_catalog') || !DATA_VIEW_TYPES.has(name))
    refuse('SQL_CAST_TYPE', { name: shown });
  for (const m of list(body.typmods)) {
    const [k, c] = kindOf(m);
    if (k !== 'A_Const' || !isObj(c.ival)) refuse('SQL_CAST_TYPE', { name: shown });
  }
  for (const bound of list(body.arrayBounds)) {
    const [k] = kindOf(bound);
    if (k !== 'Integer') refuse('SQL_CAST_TYPE', { name: shown });
  }
  return { name, array: list(body.arrayBounds).length > 0 };
}

/** The longest text a cast to this type gives, from what is cast. */
function castSize(t: { name: string; array: boolean }, arg: Size, typmods: Json): Size {
  if (t.array || t.name === 'jsonb' || t.name === 'json') return times(arg, 2);
  if (t.name === 'text' || t.name === 'varchar' || t.name === 'bpchar') {
    const n = list(typmods)
      .map((m) => kindOf(m)[1])
      .map((c) => (isObj(c.ival) ? Number(c.ival.ival ?? 0) : Number.NaN))[0];
    if (n !== undefined && Number.isFinite(n) && n > 0 && t.name !== 'text') return fixed(n);
    return lub(arg, SCALAR);
  }
  return t.name === 'numeric' ? NUMERIC : SCALAR;
}

/**
 * What a cast to numeric may take: a constant within a double's range, or values of no text column, unless
 * the cast bounds the number itself (`::numeric(20, 2)`, whose precision refuses anything larger).
 */
function numericFrom(arg: Json, type: Json, size: Size, j: Judge): void {
  const text = literalText(arg);
  if (text !== undefined) {
    boundedNumber(text);
    return;
  }
  const precision = isObj(type) ? list(type.typmods).map((m) => kindOf(m)[1])[0] : undefined;
  const p = isObj(precision) && isObj(precision.ival) ? Number(precision.ival.ival ?? 0) : Number.NaN;
  if (p > 0 && p <= 1000) return;
  if (!numberShaped(arg) || [...size.src.keys()].some((k) => j.texts.has(k)))
    refuse('SQL_TOO_LARGE', { name: '::numeric（文本请写明精度，如 ::numeric(20, 2)）' });
}

/** Functions that answer a number of bounded size from what they are given. */
const NUMBER_FUNCTIONS = new Set([
  'count',
  'sum',
  'avg',
  'min',
  'max',
  'round',
  'trunc',
  'abs',
  'ceil',
  'ceiling',
  'floor',
  'sign',
  'mod',
  'div',
  'sqrt',
  'cbrt',
  'ln',
  'log',
  'log10',
  'date_part',
  'extract',
  'length',
  'char_length',
  'character_length',
  'octet_length',
  'position',
  'strpos',
  'array_length',
  'cardinality',
  'width_bucket',
  'row_number',
  'rank',
  'dense_rank',
  'ntile',
  'percent_rank',
  'cume_dist',
  ...STATISTICAL_AGGREGATES,
  'coalesce',
  'greatest',
  'least',
]);

/** An expression that is a number by its shape (a column, arithmetic, a number function, another cast), not text. */
function numberShaped(node: Json): boolean {
  const [k, n] = kindOf(node);
  switch (k) {
    case 'A_Const':
      return isObj(n.ival) || isObj(n.fval) || n.isnull === true;
    case 'ColumnRef':
      return true;
    case 'TypeCast':
      // A cast to another number type is bounded by that type; a cast to text keeps what it casts.
      return ['text', 'varchar', 'bpchar'].includes(typeName(n.typeName).name) ? numberShaped(n.arg) : true;
    case 'FuncCall':
      return (
        NUMBER_FUNCTIONS.has(names(n.funcname).at(-1) ?? '') && list(n.args).every((a) => kindOf(a)[0] !== 'A_Const' || numberShaped(a))
      );
    case 'A_Expr':
      return (
        n.kind === 'AEXPR_OP' &&
        ['+', '-', '*', '/', '%'].includes(names(n.name).at(-1) ?? '') &&
        [n.lexpr, n.rexpr].every((x) => !x || numberShaped(x))
      );
    case 'CoalesceExpr':
      return list(n.args).every(numberShaped);
    case 'MinMaxExpr':
      return list(n.args).every(numberShaped);
    default:
      return false;
  }
}

function operator(nameList: Json, shownKind?: string): string {
  const parts = names(nameList);
  const op = parts[parts.length - 1] ?? '?';
  if (parts.length > 2 || (parts.length === 2 && parts[0] !== 'pg_catalog') || !DATA_VIEW_OPERATORS.has(op))
    refuse('SQL_OPERATOR', { name: shownKind ?? parts.join('.') });
  return op;
}

/** Aggregates that collect their rows into one value: as large as what they read. */
const COLLECTORS = new Set(['string_agg', 'array_agg', 'json_agg', 'jsonb_agg', 'json_object_agg', 'jsonb_object_agg']);
/** Functions a collector's value may be handed to: they measure it. */
const MEASURES = new Set(['length', 'char_length', 'character_length', 'octet_length', 'cardinality', 'array_length']);
/** Functions whose argument may be a whole row. */
const ROW_TAKERS = new Set(['to_json', 'to_jsonb', 'row_to_json', 'json_agg', 'jsonb_agg']);

const literalText = (node: Json): string | undefined => {
  const [k, c] = kindOf(node);
  return k === 'A_Const' && isObj(c.sval) && typeof c.sval.sval === 'string' ? c.sval.sval : undefined;
};
const charCount = (s: string) => Array.from(s).length;

/** How each allowed function's result is bounded by its arguments' (characters as text). */
type SizeRule = (args: Size[], call: Obj, order: Size[]) => Size;
const first: SizeRule = (a) => a[0] ?? SCALAR;
const scalar: SizeRule = () => SCALAR;
const numeric: SizeRule = () => NUMERIC;
const json: SizeRule = (a) => plus(times(plus(...a), 6), fixed(8 * a.length + 2));
/** Functions that build new text, counted in `built` and `reads`. */
const BUILDERS = new Set([
  'concat',
  'concat_ws',
  'lpad',
  'rpad',
  'replace',
  'translate',
  'overlay',
  'upper',
  'lower',
  'initcap',
  'to_char',
  'normalize',
  'reverse',
  'string_to_array',
  'array_to_string',
  'like_escape',
  'similar_to_escape',
  ...JSON_BUILDERS,
]);
const SIZE_RULES: Record<string, SizeRule> = namedTable({
  count: scalar,
  sum: numeric,
  avg: numeric,
  min: first,
  max: first,
  bool_and: scalar,
  bool_or: scalar,
  every: scalar,
  bit_and: scalar,
  bit_or: scalar,
  stddev: numeric,
  stddev_pop: numeric,
  stddev_samp: numeric,
  variance: numeric,
  var_pop: numeric,
  var_samp: numeric,
  percentile_cont: scalar,
  percentile_disc: (_a, _c, order) => lub(...order),
  mode: (_a, _c, order) => lub(...order),
  corr: scalar,
  covar_pop: scalar,
  covar_samp: scalar,
  regr_slope: scalar,
  regr_intercept: scalar,
  regr_r2: scalar,
  regr_count: scalar,
  // Collectors: their value is as large as the rows they read, which the cost check counts.
  string_agg: (a) => plus(...a),
  array_agg: (a) => times(plus(...a), 2),
  json_agg: json,
  jsonb_agg: json,
  json_object_agg: json,
  jsonb_object_agg: json,
  row_number: scalar,
  rank: scalar,
  dense_rank: scalar,
  percent_rank: scalar,
  cume_dist: scalar,
  ntile: scalar,
  lag: (a) => lub(a[0] ?? SCALAR, a[2] ?? fixed(0)),
  lead: (a) => lub(a[0] ?? SCALAR, a[2] ?? fixed(0)),
  first_value: first,
  last_value: first,
  nth_value: first,
  now: scalar,
  date_trunc: scalar,
  date_part: numeric,
  extract: numeric,
  date_bin: scalar,
  age: scalar,
  make_date: scalar,
  make_time: scalar,
  make_timestamp: scalar,
  make_interval: scalar,
  to_char: (a, call) => {
    const format = literalText(list(call.args)[1]);
    return format !== undefined ? fixed(8 * charCount(format) + 32) : plus(times(a[1] ?? SCALAR, 8), fixed(32));
  },
  to_date: scalar,
  to_timestamp: scalar,
  justify_days: scalar,
  justify_hours: scalar,
  justify_interval: scalar,
  isfinite: scalar,
  timezone: scalar,
  overlaps: scalar,
  clock_timestamp: scalar,
  statement_timestamp: scalar,
  transaction_timestamp: scalar,
  length: scalar,
  char_length: scalar,
  character_length: scalar,
  octet_length: scalar,
  lower: first,
  upper: first,
  initcap: first,
  substr: first,
  substring: first,
  left: first,
  right: first,
  btrim: first,
  ltrim: first,
  rtrim: first,
  replace: (a, call) => replaceSize(a, call),
  translate: (a, call) => {
    const to = literalText(list(call.args)[2]);
    const wide = to === undefined ? 4 : Math.max(1, ...Array.from(to).map((ch) => Buffer.byteLength(ch)));
    return wide > 1 ? times(a[0] ?? SCALAR, wide) : (a[0] ?? SCALAR);
  },
  split_part: first,
  concat: (a) => plus(...a),
  concat_ws: (a) => plus(...a, times(a[0] ?? fixed(0), Math.max(0, a.length - 2))),
  position: scalar,
  strpos: scalar,
  starts_with: scalar,
  reverse: first,
  overlay: (a) => plus(a[0] ?? SCALAR, a[1] ?? SCALAR),
  ascii: scalar,
  chr: () => fixed(1),
  md5: () => fixed(32),
  to_hex: scalar,
  // NFKD can write one character as up to 18.
  normalize: (a) => times(a[0] ?? SCALAR, 18),
  is_normalized: scalar,
  like_escape: (a) => times(a[0] ?? SCALAR, 2),
  similar_to_escape: (a) => times(a[0] ?? SCALAR, 2),
  string_to_array: (a) => times(a[0] ?? SCALAR, 4),
  lpad: (_a, call) => padSize(call),
  rpad: (_a, call) => padSize(call),
  array_to_string: (a, call) => {
    const sep = literalText(list(call.args)[1]);
    return times(a[0] ?? SCALAR, sep === undefined ? 2 : 1 + charCount(sep));
  },
  abs: numeric,
  round: numeric,
  trunc: numeric,
  ceil: numeric,
  ceiling: numeric,
  floor: numeric,
  mod: numeric,
  div: numeric,
  power: numeric,
  pow: numeric,
  sqrt: numeric,
  cbrt: numeric,
  exp: numeric,
  ln: numeric,
  log: numeric,
  log10: numeric,
  sign: numeric,
  pi: scalar,
  degrees: scalar,
  radians: scalar,
  scale: scalar,
  width_bucket: scalar,
  random: scalar,
  to_number: numeric,
  num_nulls: scalar,
  num_nonnulls: scalar,
  pg_typeof: scalar,
  array_length: scalar,
  cardinality: scalar,
  array_position: scalar,
  unnest: first,
  generate_series: scalar,
  to_json: json,
  to_jsonb: json,
  row_to_json: json,
  json_build_object: json,
  jsonb_build_object: json,
  json_build_array: json,
  jsonb_build_array: json,
});

/** Allowed functions the guard has no size rule for (none: every allowed function must have one, or it is refused). */
export const functionsWithoutSizeRule = (): string[] => [...DATA_VIEW_FUNCTIONS.keys()].filter((f) => !Object.hasOwn(SIZE_RULES, f));

/** The text lpad/rpad build: exactly the constant length, in characters of the fill. */
function padSize(call: Obj): Size {
  const length = list(call.args)[1];
  const [k, c] = kindOf(length);
  const n =
    k === 'A_Const' && isObj(c.ival) && Object.keys(c).every((x) => x === 'ival' || x === 'location')
      ? Number(c.ival.ival ?? 0)
      : Number.NaN;
  const name = names(call.funcname).at(-1) ?? 'lpad';
  if (!(n >= 0 && n <= PAD_MAX)) refuse('SQL_PAD_ARGS', { name });
  return fixed(n);
}

/**
 * replace(s, from, to) is at most |s| · max(1, |to| / |from|): every match of `from` (at least one
 * character, or there is no match) becomes `to`. A product of two sizes that both hold table values is
 * unbounded and refused.
 */
function replaceSize(a: Size[], call: Obj): Size {
  const [s = SCALAR, , to = SCALAR] = a;
  const from = literalText(list(call.args)[1]);
  const minFrom = from?.length ? charCount(from) : 1;
  if (hasSources(to)) {
    if (hasSources(s)) refuse('SQL_TOO_LARGE', { name: 'replace' });
    return plus(s, times(to, Math.ceil(s.b / minFrom)));
  }
  return times(s, Math.max(1, Math.ceil(to.b / minFrom)));
}

/** Whether a generate_series argument is an integer constant, possibly negated. */
function integerConstant(a: Json): boolean {
  const [k, c] = kindOf(a);
  if (k === 'A_Const')
    return (
      (isObj(c.ival) && Object.keys(c).every((x) => x === 'ival' || x === 'location')) ||
      (isObj(c.fval) && typeof c.fval.fval === 'string' && /^\d+$/.test(c.fval.fval))
    );
  return k === 'A_Expr' && c.kind === 'AEXPR_OP' && names(c.name).join() === '-' && !c.lexpr && integerConstant(c.rexpr);
}

/** unnest over a list the planner can count: an ARRAY[…] of scalars or an array constant. */
function countableArray(a: Json): boolean {
  const [k, c] = kindOf(a);
  if (k === 'A_ArrayExpr') return list(c.elements).every((e) => kindOf(e)[0] !== 'RowExpr');
  if (k === 'TypeCast') return literalText(c.arg) !== undefined;
  return false;
}

function funcCall(call: Obj, place: Place, j: Judge): Size {
  only('FuncCall', call, [
    'funcname',
    'args',
    'agg_order',
    'agg_filter',
    'over',
    'agg_within_group',
    'agg_star',
    'agg_distinct',
    'func_variadic',
    'funcformat',
  ]);
  const parts = names(call.funcname);
  const name = parts[parts.length - 1] ?? '?';
  const schema = parts.length === 2 ? parts[0] : undefined;
  const shown = schema === 'pg_catalog' ? name : parts.join('.');
  if (parts.length > 2 || (schema !== undefined && schema !== 'pg_catalog')) refuse('SQL_FUNCTION', { name: shown });
  if (isDeniedFunction(name) || !j.functions.has(name)) refuse('SQL_FUNCTION', { name: shown });
  unpricedOnPglite(j, name, PGLITE_UNPRICED_FUNCTIONS);
  // substring(text from pattern) runs a regular expression: on PGlite its positions must be integer constants.
  if (j.kind === 'pglite' && name === 'substring' && !list(call.args).slice(1).every(integerConstant))
    refuse('SQL_PGLITE_UNPRICED', { name: 'substring（正则表达式）' });
  const collector = COLLECTORS.has(name);
  if (collector && (!place.collector || call.over)) refuse('SQL_COLLECTOR', { name });
  if (name === 'generate_series' && !list(call.args).every(integerConstant)) refuse('SQL_SERIES_ARGS');
  // Series joined with series make rows the planner cannot count: on PGlite a statement has one series.
  if (name === 'generate_series' && j.kind === 'pglite' && ++j.series > 1) refuse('SQL_PGLITE_UNPRICED', { name: '多个 generate_series' });
  if (name === 'translate') for (const a of list(call.args).slice(1)) shortPattern(j, a, 'translate 的参数');
  if (name === 'unnest' && (list(call.args).length !== 1 || !countableArray(list(call.args)[0]))) refuse('SQL_UNNEST_ARGS');
  const inner: Place = { frame: place.frame, ctes: place.ctes, wholeRow: ROW_TAKERS.has(name), collector: false };
  const args = list(call.args).map((a) => {
    const [k, body] = kindOf(a);
    if (k === 'NamedArgExpr') {
      only('NamedArgExpr', body, ['arg', 'name', 'argnumber']);
      return expr(body.arg, inner, j);
    }
    if (MEASURES.has(name) && place.collector) return expr(a, { ...inner, collector: true }, j);
    return expr(a, inner, j);
  });
  const plain: Place = { frame: place.frame, ctes: place.ctes };
  const order = list(call.agg_order).map((s) => sortBy(s, plain, j));
  if (call.agg_filter) expr(call.agg_filter, plain, j);
  if (call.over) windowDef(call.over, plain, j);
  const rule = SIZE_RULES[name];
  if (!rule) return refuse('SQL_FUNCTION', { name: shown });
  const size = check(j, rule(args, call, order), name);
  return BUILDERS.has(name) || collector ? builds(j, size, name) : size;
}

function windowDef(node: Json, place: Place, j: Judge): void {
  const [k, w] = isObj(node) && !('WindowDef' in node) ? ['WindowDef', node] : kindOf(node);
  if (k !== 'WindowDef') refuseConstruct(k);
  only('WindowDef', w, ['name', 'refname', 'partitionClause', 'orderClause', 'frameOptions', 'startOffset', 'endOffset']);
  for (const p of list(w.partitionClause)) expr(p, place, j);
  for (const s of list(w.orderClause)) sortBy(s, place, j);
  if (w.startOffset) expr(w.startOffset, place, j);
  if (w.endOffset) expr(w.endOffset, place, j);
}

/** An ORDER BY item: a bare name may be an output column where `place.outputs` says so. */
function sortBy(node: Json, place: Place, j: Judge): Size {
  const [k, s] = kindOf(node);
  if (k !== 'SortBy') refuseConstruct(k);
  only('SortBy', s, ['node', 'sortby_dir', 'sortby_nulls', 'useOp']);
  if (list(s.useOp).length) operator(s.useOp);
  return groupItem(s.node, place, j);
}

/** A GROUP BY / ORDER BY / DISTINCT ON item: a position, an output column's bare name, or an expression. */
function groupItem(node: Json, place: Place, j: Judge): Size {
  const [k, body] = kindOf(node);
  if (k === 'A_Const' && isObj(body.ival)) return SCALAR;
  if (k === 'ColumnRef' && place.outputs) {
    const fields = list(body.fields);
    const bare = fields.length === 1 && isObj(fields[0]) && isObj(fields[0].String) ? String(fields[0].String.sval) : undefined;
    const output = bare === undefined ? undefined : place.outputs.find((c) => c.name === bare);
    if (output && !findColumn(place.frame, bare as string)) return output.size;
  }
  return expr(node, { frame: place.frame, ctes: place.ctes }, j);
}

const ALLOWED_VALUE_FUNCTIONS = new Set([
  'SVFOP_CURRENT_DATE',
  'SVFOP_CURRENT_TIME',
  'SVFOP_CURRENT_TIME_N',
  'SVFOP_CURRENT_TIMESTAMP',
  'SVFOP_CURRENT_TIMESTAMP_N',
  'SVFOP_LOCALTIME',
  'SVFOP_LOCALTIME_N',
  'SVFOP_LOCALTIMESTAMP',
  'SVFOP_LOCALTIMESTAMP_N',
]);

/**
 * A numeric as text is at most 340 characters only while its magnitude is a double's: '1e130000' is eight
 * characters that stand for 130,001 digits. A number written in the SQL, or a constant text cast to
 * numeric, must stay within that.
 */
function boundedNumber(text: string): void {
  const n = Number(text.trim());
  if (!Number.isFinite(n) || text.length > NUMERIC.b) refuse('SQL_TOO_LARGE', { name: text.slice(0, 40) });
}

function constSize(c: Obj): Size {
  if (isObj(c.sval)) return fixed(charCount(String(c.sval.sval ?? '')));
  if (isObj(c.fval)) {
    boundedNumber(String(c.fval.fval ?? ''));
    return fixed(String(c.fval.fval ?? '').length);
  }
  if (isObj(c.bsval)) return fixed(String(c.bsval.bsval ?? '').length);
  return SCALAR;
}

/** An expression: checks it and answers its size bound. */
function expr(node: Json, place: Place, j: Judge): Size {
  if (++j.depth > MAX_DEPTH) refuse('SQL_CONSTRUCT', { name: '过深的嵌套' });
  try {
    return exprInner(node, place, j);
  } finally {
    j.depth--;
  }
}

function exprInner(node: Json, place: Place, j: Judge): Size {
  const [kind, n] = kindOf(node);
  const plain: Place = { frame: place.frame, ctes: place.ctes };
  switch (kind) {
    case 'A_Const':
      only(kind, n, ['ival', 'fval', 'boolval', 'sval', 'bsval', 'isnull']);
      return constSize(n);
    case 'ColumnRef':
      return columnRef(n, place, j);
    case 'FuncCall':
      return funcCall(n, place, j);
    case 'TypeCast': {
      only(kind, n, ['arg', 'typeName']);
      const t = typeName(n.typeName);
      const arg = expr(n.arg, { ...plain, collector: place.collector }, j);
      if (t.name === 'numeric' && !t.array) numericFrom(n.arg, n.typeName, arg, j);
      const size = castSize(t, arg, isObj(n.typeName) ? n.typeName.typmods : undefined);
      return t.array || t.name === 'json' || t.name === 'jsonb' ? builds(j, size, `::${t.name}`) : check(j, size, `::${t.name}`);
    }
    case 'A_Expr':
      return aExpr(n, plain, j);
    case 'BoolExpr':
      only(kind, n, ['boolop', 'args']);
      for (const a of list(n.args)) expr(a, plain, j);
      return BOOL;
    case 'NullTest':
      only(kind, n, ['arg', 'nulltesttype', 'argisrow']);
      expr(n.arg, plain, j);
      return BOOL;
    case 'BooleanTest':
      only(kind, n, ['arg', 'booltesttype']);
      expr(n.arg, plain, j);
      return BOOL;
    case 'CaseExpr': {
      only(kind, n, ['arg', 'args', 'defresult']);
      if (n.arg) expr(n.arg, plain, j);
      const results: Size[] = [];
      for (const w of list(n.args)) {
        const [wk, when] = kindOf(w);
        if (wk !== 'CaseWhen') refuseConstruct(wk);
        only(wk, when, ['expr', 'result']);
        expr(when.expr, plain, j);
        results.push(expr(when.result, plain, j));
      }
      if (n.defresult) results.push(expr(n.defresult, plain, j));
      return lub(...results);
    }
    case 'CoalesceExpr':
      only(kind, n, ['args']);
      return lub(...list(n.args).map((a) => expr(a, plain, j)));
    case 'MinMaxExpr':
      only(kind, n, ['args', 'op']);
      return lub(...list(n.args).map((a) => expr(a, plain, j)));
    case 'CollateClause': {
      only(kind, n, ['arg', 'collname']);
      const parts = names(n.collname);
      if (parts.length > 2 || (parts.length === 2 && parts[0] !== 'pg_catalog'))
        refuse('SQL_CONSTRUCT', { name: `COLLATE ${parts.join('.')}` });
      return expr(n.arg, plain, j);
    }
    case 'A_ArrayExpr': {
      only(kind, n, ['elements', 'list_start', 'list_end']);
      const elements = list(n.elements).map((e) => expr(e, plain, j));
      return builds(j, plus(times(plus(...elements), 2), fixed(elements.length + 2)), 'ARRAY[…]');
    }
    case 'A_Indirection': {
      only(kind, n, ['arg', 'indirection']);
      for (const i of list(n.indirection)) {
        const [ik, idx] = kindOf(i);
        if (ik !== 'A_Indices') refuseConstruct('fieldSelection');
        only(ik, idx, ['is_slice', 'lidx', 'uidx']);
        if (idx.lidx) expr(idx.lidx, plain, j);
        if (idx.uidx) expr(idx.uidx, plain, j);
      }
      return expr(n.arg, plain, j);
    }
    case 'RowExpr':
      only(kind, n, ['args', 'row_format', 'colnames']);
      return plus(...list(n.args).map((a) => expr(a, plain, j)));
    case 'SubLink':
      return subLink(n, plain, j);
    case 'SQLValueFunction':
      only(kind, n, ['op', 'typmod']);
      if (!ALLOWED_VALUE_FUNCTIONS.has(String(n.op))) refuseConstruct(String(n.op));
      return SCALAR;
    case 'GroupingFunc':
      only(kind, n, ['args']);
      for (const a of list(n.args)) expr(a, plain, j);
      return SCALAR;
    default:
      return refuseConstruct(kind);
  }
}

function exprList(node: Json, place: Place, j: Judge): Size[] {
  const [k, body] = kindOf(node);
  if (k === 'List') return list(body.items).map((e) => expr(e, place, j));
  return [expr(node, place, j)];
}

/**
 * What PGlite cannot interrupt and its planner cannot price: regular expressions (backtracking over
 * back-references, nested repetition) and raising to a power (a numeric of any number of digits). On
 * PostgreSQL the statement time limit stops them; on PGlite they are refused.
 */
const PGLITE_UNPRICED_OPERATORS: ReadonlySet<string> = new Set(['~', '~*', '!~', '!~*', '^', '@>', '<@', '&&', '?|', '?&']);
/** LIKE and its operators: as slow as the text times the pattern, so on PGlite the pattern is a short constant. */
const LIKE_OPERATORS: ReadonlySet<string> = new Set(['~~', '!~~', '~~*', '!~~*']);
/** Longest constant pattern a LIKE or translate takes on PGlite. */
const PGLITE_PATTERN_MAX = 200;

function shortPattern(j: Judge, node: Json, what: string): void {
  if (j.kind !== 'pglite') return;
  const text = literalText(node);
  if (text === undefined || charCount(text) > PGLITE_PATTERN_MAX)
    refuse('SQL_PGLITE_UNPRICED', { name: `${what}（内嵌数据库上只能是不超过 ${PGLITE_PATTERN_MAX} 个字符的常量）` });
}
const PGLITE_UNPRICED_FUNCTIONS: ReadonlySet<string> = new Set(['similar_to_escape', 'power', 'pow', 'exp']);

function unpricedOnPglite(j: Judge, name: string, unpriced: ReadonlySet<string>): void {
  if (j.kind === 'pglite' && unpriced.has(name)) refuse('SQL_PGLITE_UNPRICED', { name });
}

function aExpr(n: Obj, place: Place, j: Judge): Size {
  only('A_Expr', n, ['kind', 'name', 'lexpr', 'rexpr', 'rexpr_list_start', 'rexpr_list_end']);
  const kind = String(n.kind);
  const between = /BETWEEN/.test(kind);
  const op = between ? 'BETWEEN' : operator(n.name);
  unpricedOnPglite(j, op, PGLITE_UNPRICED_OPERATORS);
  if (kind === 'AEXPR_SIMILAR' && j.kind === 'pglite') refuse('SQL_PGLITE_UNPRICED', { name: 'SIMILAR TO' });
  if (kind === 'AEXPR_LIKE' || kind === 'AEXPR_ILIKE' || LIKE_OPERATORS.has(op)) shortPattern(j, n.rexpr, 'LIKE 的模式');
  const left = n.lexpr ? expr(n.lexpr, place, j) : fixed(0);
  const right = n.rexpr ? lub(...exprList(n.rexpr, place, j)) : fixed(0);
  switch (kind) {
    case 'AEXPR_OP':
      if (op === '||') return builds(j, plus(left, right), '||');
      if (op === '-' || op === '#-') return lub(left, right, NUMERIC);
      if (op === '->' || op === '->>' || op === '#>' || op === '#>>') return times(left, 2);
      // A product has as many digits as its factors together: chained through subqueries, it grows like
      // a power, and on PGlite nothing stops the multiplication.
      if (op === '*' && j.kind === 'pglite') return builds(j, plus(left, right), '*');
      if (['+', '*', '/', '%', '^', '|/', '||/', '@', '&', '|', '#', '<<', '>>'].includes(op))
        return lub(NUMERIC, left.src.size ? fixed(0) : fixed(0));
      return BOOL;
    case 'AEXPR_NULLIF':
      return left;
    case 'AEXPR_OP_ANY':
    case 'AEXPR_OP_ALL':
    case 'AEXPR_DISTINCT':
    case 'AEXPR_NOT_DISTINCT':
    case 'AEXPR_IN':
    case 'AEXPR_LIKE':
    case 'AEXPR_ILIKE':
    case 'AEXPR_SIMILAR':
    case 'AEXPR_BETWEEN':
    case 'AEXPR_NOT_BETWEEN':
    case 'AEXPR_BETWEEN_SYM':
    case 'AEXPR_NOT_BETWEEN_SYM':
      return BOOL;
    default:
      return refuse('SQL_CONSTRUCT', { name: kind });
  }
}

function subLink(n: Obj, place: Place, j: Judge): Size {
  only('SubLink', n, ['subLinkType', 'subLinkId', 'testexpr', 'operName', 'subselect']);
  const type = String(n.subLinkType);
  if (type === 'ARRAY_SUBLINK') refuseConstruct('arraySubLink');
  if (!['EXISTS_SUBLINK', 'ALL_SUBLINK', 'ANY_SUBLINK', 'ROWCOMPARE_SUBLINK', 'EXPR_SUBLINK'].includes(type))
    refuse('SQL_CONSTRUCT', { name: type });
  if (list(n.operName).length) unpricedOnPglite(j, operator(n.operName), PGLITE_UNPRICED_OPERATORS);
  if (n.testexpr) expr(n.testexpr, place, j);
  const columns = query(n.subselect, place.frame, place.ctes, j, false);
  return type === 'EXPR_SUBLINK' ? (columns[0]?.size ?? SCALAR) : BOOL;
}

// ----- queries -----

/**
 * The name PostgreSQL gives an output column written without AS (FigureColname). A name the guard cannot
 * tell is "?column?", which no reference resolves to: a mistake here can only refuse a valid query.
 */
function figureColname(node: Json, j: Judge): string {
  return figure(node, j)[0] ?? '?column?';
}
function figure(node: Json, j: Judge): [string | undefined, number] {
  const [k, n] = kindOf(node);
  switch (k) {
    case 'ColumnRef': {
      const last = list(n.fields).at(-1);
      return isObj(last) && isObj(last.String) ? [String(last.String.sval), 2] : [undefined, 0];
    }
    case 'A_Indirection':
      return figure(n.arg, j);
    case 'FuncCall':
      return [names(n.funcname).at(-1), 2];
    case 'A_Expr':
      return n.kind === 'AEXPR_NULLIF' ? ['nullif', 2] : [undefined, 0];
    case 'TypeCast': {
      const [name, strength] = figure(n.arg, j);
      if (strength > 1) return [name, strength];
      const t = isObj(n.typeName) ? names(n.typeName.names).at(-1) : undefined;
      return t ? [t, 1] : [name, strength];
    }
    case 'CollateClause':
      return figure(n.arg, j);
    case 'GroupingFunc':
      return ['grouping', 2];
    case 'SubLink': {
      if (n.subLinkType === 'EXISTS_SUBLINK') return ['exists', 2];
      if (n.subLinkType === 'EXPR_SUBLINK') {
        const [sk, sub] = kindOf(n.subselect);
        const columns = sk === 'SelectStmt' ? j.outputs.get(sub) : undefined;
        return columns?.[0] ? [columns[0].name, 2] : [undefined, 0];
      }
      return [undefined, 0];
    }
    case 'CaseExpr':
      return ['case', 1];
    case 'A_ArrayExpr':
      return ['array', 1];
    case 'RowExpr':
      return ['row', 1];
    case 'CoalesceExpr':
      return ['coalesce', 2];
    case 'MinMaxExpr':
      return [n.op === 'IS_GREATEST' ? 'greatest' : 'least', 2];
    case 'SQLValueFunction': {
      const op = String(n.op)
        .replace(/^SVFOP_/, '')
        .replace(/_N$/, '')
        .toLowerCase();
      return [op, 2];
    }
    default:
      return [undefined, 0];
  }
}

const aliasNames = (alias: Json): string[] => (isObj(alias) ? names(alias.colnames) : []);

/** Columns renamed by an alias column list (the first N), as PostgreSQL renames them. */
function renamed(columns: Column[], alias: Json): Column[] {
  const given = aliasNames(alias);
  if (given.length > columns.length) refuse('SQL_CONSTRUCT', { name: '别名列数多于查询的列数' });
  return columns.map((c, i) => (i < given.length ? { name: given[i] as string, size: c.size } : c));
}

function aliasOf(alias: Json): string | undefined {
  if (!isObj(alias)) return undefined;
  only('Alias', alias, ['aliasname', 'colnames']);
  return typeof alias.aliasname === 'string' ? alias.aliasname : undefined;
}

function cteLookup(scope: CteScope | undefined, name: string): Column[] | undefined {
  for (let s = scope; s; s = s.parent) {
    const found = s.ctes.get(name);
    if (found) return found;
  }
  return undefined;
}

/**
 * A FROM item: the namespace entries it adds. `outer` is what the enclosing level sees from outside,
 * `before` the entries to its left at this level, visible to it only where PostgreSQL makes them so
 * (LATERAL subqueries, functions, the right side of a join).
 */
function fromItem(node: Json, outer: Frame | undefined, before: Range[], ctes: CteScope | undefined, j: Judge): Range[] {
  const [kind, n] = kindOf(node);
  const lateral: Frame = { ranges: before, parent: outer };
  switch (kind) {
    case 'RangeVar': {
      only(kind, n, ['relname', 'schemaname', 'catalogname', 'inh', 'relpersistence', 'alias']);
      const name = typeof n.relname === 'string' ? n.relname : '?';
      const schema = typeof n.schemaname === 'string' ? n.schemaname : undefined;
      const shown = [n.catalogname, schema, name].filter((p) => typeof p === 'string').join('.');
      const alias = aliasOf(n.alias);
      if (n.catalogname !== undefined) refuse('SQL_TABLE', { name: shown });
      const cte = schema === undefined ? cteLookup(ctes, name) : undefined;
      if (cte) return [{ name: alias ?? name, columns: renamed(cte, n.alias), colsVisible: true }];
      if (schema !== undefined && schema !== 'public') refuse('SQL_TABLE', { name: shown });
      if (!isDataViewTable(name)) refuse('SQL_TABLE', { name: shown });
      j.tables.add(name);
      // No such relation, or a view table private to its recipients: named but never read.
      const catalog = j.catalog.get(schema ? `${schema}.${name}` : name);
      if (!catalog?.length) refuse('SQL_TABLE', { name: shown });
      const columns = (catalog ?? []).map((c) => {
        const key = `${name}.${c.name}`;
        if (c.bound !== null) j.bounds.set(key, c.bound);
        if (c.text) j.texts.add(key);
        return { name: c.name, size: { b: 0, src: new Map([[key, 1]]) } };
      });
      return [{ name: alias ?? name, columns: renamed(columns, n.alias), colsVisible: true }];
    }
    case 'RangeSubselect': {
      only(kind, n, ['lateral', 'subquery', 'alias']);
      const columns = query(n.subquery, n.lateral ? lateral : outer, ctes, j, false);
      return [{ name: aliasOf(n.alias), columns: renamed(columns, n.alias), colsVisible: true }];
    }
    case 'RangeFunction': {
      only(kind, n, ['lateral', 'ordinality', 'is_rowsfrom', 'functions', 'alias', 'coldeflist']);
      const alias = aliasOf(n.alias);
      const functions = list(n.functions);
      const columns: Column[] = [];
      const place: Place = { frame: lateral, ctes };
      for (const f of functions) {
        const [lk, l] = kindOf(f);
        if (lk !== 'List') refuseConstruct(lk);
        const [call, defs] = list(l.items);
        const [ck, c] = kindOf(call);
        if (ck !== 'FuncCall') refuseConstruct(ck);
        const size = funcCall(c, place, j);
        for (const d of list(defs)) columns.push(columnDef(d));
        if (!list(defs).length) {
          const fname = names(c.funcname).at(-1) ?? '?';
          columns.push({ name: functions.length === 1 && alias ? alias : fname, size });
        }
      }
      for (const d of list(n.coldeflist)) {
        columns.length = 0;
        columns.push(columnDef(d));
      }
      if (n.ordinality) columns.push({ name: 'ordinality', size: SCALAR });
      const fname = functions.length === 1 ? names(kindOf(list(kindOf(functions[0])[1].items)[0])[1].funcname).at(-1) : undefined;
      return [{ name: alias ?? fname, columns: renamed(columns, n.alias), colsVisible: true }];
    }
    case 'JoinExpr': {
      only(kind, n, ['jointype', 'isNatural', 'larg', 'rarg', 'usingClause', 'join_using_alias', 'quals', 'alias', 'rtindex']);
      const left = fromItem(n.larg, outer, before, ctes, j);
      const right = fromItem(n.rarg, outer, [...before, ...left], ctes, j);
      const colsOf = (entries: Range[]) => entries.filter((r) => r.colsVisible).flatMap((r) => r.columns);
      const lcols = colsOf(left);
      const rcols = colsOf(right);
      let using = names(n.usingClause);
      if (n.isNatural) using = lcols.map((c) => c.name).filter((c) => rcols.some((r) => r.name === c));
      for (const u of using) {
        if (!lcols.some((c) => c.name === u) || !rcols.some((c) => c.name === u)) refuse('SQL_NAME', { name: u });
      }
      const merged = using.map((u) => ({
        name: u,
        size: lub(lcols.find((c) => c.name === u)?.size ?? SCALAR, rcols.find((c) => c.name === u)?.size ?? SCALAR),
      }));
      const joinCols = [...merged, ...lcols.filter((c) => !using.includes(c.name)), ...rcols.filter((c) => !using.includes(c.name))];
      if (n.quals) expr(n.quals, { frame: { ranges: [...left, ...right], parent: outer }, ctes }, j);
      const alias = aliasOf(n.alias);
      const entries: Range[] = alias
        ? [{ name: alias, columns: renamed(joinCols, n.alias), colsVisible: true }]
        : [...[...left, ...right].map((r) => ({ ...r, colsVisible: false })), { name: undefined, columns: joinCols, colsVisible: true }];
      const usingAlias = aliasOf(n.join_using_alias);
      if (usingAlias) entries.push({ name: usingAlias, columns: merged, colsVisible: false });
      return entries;
    }
    default:
      return refuseConstruct(kind);
  }
}

function columnDef(node: Json): Column {
  const [k, d] = kindOf(node);
  if (k !== 'ColumnDef') refuseConstruct(k);
  only(k, d, ['colname', 'typeName', 'is_local']);
  const t = typeName(d.typeName);
  return { name: String(d.colname), size: castSize(t, SCALAR, isObj(d.typeName) ? d.typeName.typmods : undefined) };
}

/**
 * A query (SELECT, VALUES or a set operation): checks it and answers its output columns. `outer` is what
 * its names see outside it; `top` marks the outermost query, whose output columns may collect.
 */
function query(node: Json, outer: Frame | undefined, ctes: CteScope | undefined, j: Judge, top: boolean): Column[] {
  const [kind, s] = kindOf(node);
  if (kind !== 'SelectStmt') refuseConstruct(kind);
  if (++j.depth > MAX_DEPTH) refuse('SQL_CONSTRUCT', { name: '过深的嵌套' });
  try {
    const columns = select(s, outer, ctes, j, top);
    j.outputs.set(s, columns);
    return columns;
  } finally {
    j.depth--;
  }
}

function select(s: Obj, outer: Frame | undefined, outerCtes: CteScope | undefined, j: Judge, top: boolean): Column[] {
  only('SelectStmt', s, [
    'distinctClause',
    'targetList',
    'fromClause',
    'whereClause',
    'groupClause',
    'groupDistinct',
    'havingClause',
    'windowClause',
    'valuesLists',
    'sortClause',
    'limitOffset',
    'limitCount',
    'limitOption',
    'withClause',
    'op',
    'all',
    'larg',
    'rarg',
  ]);
  const ctes = withClause(s.withClause, outer, outerCtes, j);
  // LIMIT and OFFSET may not read columns.
  const limits: Place = { frame: undefined, ctes };
  if (s.limitCount) expr(s.limitCount, limits, j);
  if (s.limitOffset) expr(s.limitOffset, limits, j);

  if (s.op && s.op !== 'SETOP_NONE') {
    const left = query({ SelectStmt: s.larg }, outer, ctes, j, top);
    const right = query({ SelectStmt: s.rarg }, outer, ctes, j, top);
    const columns = left.map((c, i) => ({ name: c.name, size: lub(c.size, right[i]?.size ?? SCALAR) }));
    setOpOrder(s, columns);
    return columns;
  }

  if (list(s.valuesLists).length) {
    const rows = list(s.valuesLists).map((row) => {
      const [k, l] = kindOf(row);
      if (k !== 'List') refuseConstruct(k);
      return list(l.items).map((e) => expr(e, { frame: outer, ctes }, j));
    });
    const width = Math.max(...rows.map((r) => r.length));
    const columns = Array.from({ length: width }, (_, i) => ({ name: `column${i + 1}`, size: lub(...rows.map((r) => r[i] ?? SCALAR)) }));
    setOpOrder(s, columns);
    return columns;
  }

  const ranges: Range[] = [];
  for (const item of list(s.fromClause)) ranges.push(...fromItem(item, outer, ranges, ctes, j));
  const frame: Frame = { ranges, parent: outer };
  const place: Place = { frame, ctes };

  const columns: Column[] = [];
  for (const t of list(s.targetList)) {
    const [tk, rt] = kindOf(t);
    if (tk !== 'ResTarget') refuseConstruct(tk);
    only(tk, rt, ['name', 'val']);
    const [vk, v] = kindOf(rt.val);
    const fields = vk === 'ColumnRef' ? list(v.fields) : [];
    if (fields.length && isObj(fields.at(-1)) && 'A_Star' in (fields.at(-1) as Obj)) {
      columns.push(...star(fields, frame, j));
      continue;
    }
    const size = expr(rt.val, { ...place, collector: top }, j);
    columns.push({ name: typeof rt.name === 'string' ? rt.name : figureColname(rt.val, j), size });
  }

  if (s.whereClause) expr(s.whereClause, place, j);
  for (const g of list(s.groupClause)) groupingItem(g, { ...place, outputs: columns }, j);
  if (s.havingClause) expr(s.havingClause, place, j);
  for (const w of list(s.windowClause)) windowDef(w, place, j);
  for (const d of list(s.distinctClause)) if (isObj(d) && Object.keys(d).length) groupItem(d, { ...place, outputs: columns }, j);
  for (const o of list(s.sortClause)) sortBy(o, { ...place, outputs: columns }, j);
  return columns;
}

/** `*` and `a.*` in a select list: the columns they stand for, each read once. */
function star(fields: Json[], frame: Frame, j: Judge): Column[] {
  const parts = names(fields.slice(0, -1));
  let columns: Column[];
  if (!parts.length) columns = frame.ranges.filter((r) => r.colsVisible).flatMap((r) => r.columns);
  else if (parts.length === 1) {
    const range = findRange(frame, parts[0] as string);
    if (!range) return refuse('SQL_NAME', { name: `${parts[0]}.*` });
    columns = range.columns;
  } else return refuse('SQL_NAME', { name: `${parts.join('.')}.*` });
  for (const c of columns) readSources(j, c.size);
  return columns;
}

function groupingItem(node: Json, place: Place, j: Judge): void {
  const [k, g] = kindOf(node);
  if (k === 'GroupingSet') {
    only(k, g, ['kind', 'content']);
    for (const c of list(g.content)) groupingItem(c, place, j);
    return;
  }
  if (k === 'RowExpr') {
    only(k, g, ['args', 'row_format', 'colnames']);
    for (const a of list(g.args)) groupItem(a, place, j);
    return;
  }
  groupItem(node, place, j);
}

/** ORDER BY of a set operation or VALUES: result column names or positions only, as PostgreSQL requires. */
function setOpOrder(s: Obj, columns: Column[]): void {
  for (const o of list(s.sortClause)) {
    const [k, by] = kindOf(o);
    if (k !== 'SortBy') refuseConstruct(k);
    only(k, by, ['node', 'sortby_dir', 'sortby_nulls', 'useOp']);
    if (list(by.useOp).length) operator(by.useOp);
    const [nk, n] = kindOf(by.node);
    if (nk === 'A_Const' && isObj(n.ival)) continue;
    const fields = nk === 'ColumnRef' ? names(n.fields) : [];
    if (fields.length !== 1 || !columns.some((c) => c.name === fields[0])) refuse('SQL_NAME', { name: fields.join('.') || 'ORDER BY' });
  }
}

/** A WITH list: each CTE sees the ones before it (all of them when recursive) and the outer levels. */
function withClause(node: Json, outer: Frame | undefined, parent: CteScope | undefined, j: Judge): CteScope | undefined {
  if (!node) return parent;
  const w = isObj(node) && 'WithClause' in node ? kindOf(node)[1] : (node as Obj);
  only('WithClause', w, ['ctes', 'recursive']);
  if (w.recursive && j.kind === 'pglite') refuse('SQL_RECURSIVE');
  const scope: CteScope = { ctes: new Map(), parent };
  for (const c of list(w.ctes)) {
    const [k, cte] = kindOf(c);
    if (k !== 'CommonTableExpr') refuseConstruct(k);
    only(k, cte, ['ctename', 'aliascolnames', 'ctematerialized', 'ctequery']);
    const name = String(cte.ctename);
    const [qk] = kindOf(cte.ctequery);
    if (qk !== 'SelectStmt') refuseConstruct(qk);
    if (w.recursive) scope.ctes.set(name, recursiveColumns(cte, name));
    const columns = query(cte.ctequery, outer, w.recursive ? scope : { ctes: new Map(scope.ctes), parent }, j, false);
    scope.ctes.set(name, renamed(columns, { colnames: cte.aliascolnames }));
  }
  return scope;
}

/**
 * The columns a recursive CTE's self-reference has: its column list, or the names of its first, non-recursive
 * branch. Their values may grow with each round, so each is a source of its own (PostgreSQL only; its
 * statement_timeout stops the rounds).
 */
function recursiveColumns(cte: Obj, name: string): Column[] {
  let given = names(cte.aliascolnames);
  if (!given.length) {
    let [, q] = kindOf(cte.ctequery);
    while (q.op && q.op !== 'SETOP_NONE' && isObj(q.larg)) q = q.larg;
    given = list(q.targetList).map((t) => {
      const rt = kindOf(t)[1];
      if (typeof rt.name === 'string') return rt.name;
      const f = kindOf(rt.val)[0] === 'ColumnRef' ? names(kindOf(rt.val)[1].fields).at(-1) : undefined;
      return f ?? '?column?';
    });
  }
  return given.map((c) => ({ name: c, size: { b: 0, src: new Map([[`${name}.${c} (recursive)`, 1]]) } }));
}

// ----- the verdict -----

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

/** The token a PostgreSQL syntax error quotes at its end (`… at or near "x"`), found without a backtracking search. */
function quotedAtEnd(message: string): string | undefined {
  const lead = 'at or near "';
  const at = message.indexOf(lead);
  if (at < 0 || !message.endsWith('"') || message.length - 1 < at + lead.length) return undefined;
  return message.slice(at + lead.length, -1);
}

/** Where a parse error is and near which text. */
function syntaxWhere(text: string, e: unknown): string {
  const details = isObj(e) && isObj(e.sqlDetails) ? e.sqlDetails : {};
  const message = e instanceof Error ? e.message : String(e);
  const pos = typeof details.cursorPosition === 'number' ? details.cursorPosition : 0;
  if (/at end of input/.test(message)) {
    const end = where(text, Array.from(text).length);
    return `第 ${end.line} 行第 ${end.column} 列（语句在末尾处不完整）`;
  }
  const { line, column, near } = where(text, pos);
  const token = quotedAtEnd(message) ?? near;
  return `第 ${line} 行第 ${column} 列附近（"${token.slice(0, 40)}"）`;
}

type Refusal = { ok: false; code: ErrorCode; params?: ErrorParams | undefined };
/** A parsed statement and the relations it names that the catalog must describe. */
type Parsed = { ok: true; body: string; stmt: Obj; relations: string[] } | Refusal;

/** What an accepted data view reads and builds, for the cost check. */
export interface DataViewPlan {
  /** The statement to run (trailing semicolons and blanks dropped). */
  body: string;
  /** The tables it reads. */
  tables: string[];
  /** Characters its expressions build from the SQL's own text, summed. */
  built: number;
  /** Table values its expressions read or copy: how many times each column's value, and its longest text when the type bounds it. */
  reads: { table: string; column: string; times: number; bound: number | null }[];
}
type Verdict = ({ ok: true } & DataViewPlan) | Refusal;

const parsedTexts = new Map<string, Parsed>();
const verdicts = new Map<string, Verdict>();
const MAX_CACHED = 1000;

function remember<T>(map: Map<string, T>, key: string, value: T): T {
  if (map.size >= MAX_CACHED) map.clear();
  map.set(key, value);
  return value;
}

/** The relations a tree names that may be allowed tables (CTE names among them do no harm). */
function relationsOf(node: Json, out: Set<string>): void {
  if (Array.isArray(node)) {
    for (const n of node) relationsOf(n, out);
    return;
  }
  if (!isObj(node)) return;
  if (typeof node.relname === 'string' && isDataViewTable(node.relname) && node.catalogname === undefined) {
    if (node.schemaname === undefined) out.add(node.relname);
    else if (node.schemaname === 'public') out.add(`public.${node.relname}`);
  }
  for (const v of Object.values(node)) relationsOf(v, out);
}

/** `text` without the semicolons and spaces at its end, in one pass from the end (a regex is quadratic on long runs). */
function withoutTrailingSemicolons(text: string): string {
  let end = text.length;
  while (end > 0 && /[;\s]/.test(text[end - 1] as string)) end--;
  return text.slice(0, end);
}

async function parse(text: string, kind: DatabaseKind): Promise<Parsed> {
  const key = `${kind}\u0000${text}`;
  const cached = parsedTexts.get(key);
  if (cached) return cached;
  const body = withoutTrailingSemicolons(text.trim());
  if (!body) return remember(parsedTexts, key, { ok: false, code: 'SQL_EMPTY' });
  const parseText = await loadParser();
  let tree: Awaited<ReturnType<Parse>>;
  try {
    tree = await parseText(body);
  } catch (e) {
    return remember(parsedTexts, key, { ok: false, code: 'SQL_SYNTAX', params: { where: syntaxWhere(body, e) } });
  }
  const stmts = tree.stmts ?? [];
  if (!stmts.length) return remember(parsedTexts, key, { ok: false, code: 'SQL_EMPTY' });
  if (stmts.length > 1) return remember(parsedTexts, key, { ok: false, code: 'SQL_ONE_STATEMENT' });
  const stmt = stmts[0]?.stmt;
  if (!isObj(stmt) || !isObj(stmt.SelectStmt)) return remember(parsedTexts, key, { ok: false, code: 'SQL_ONLY_QUERIES' });
  const relations = new Set<string>();
  try {
    relationsOf(stmt, relations);
  } catch (e) {
    if (e instanceof RangeError) return remember(parsedTexts, key, { ok: false, code: 'SQL_CONSTRUCT', params: { name: '过深的嵌套' } });
    throw e;
  }
  return remember(parsedTexts, key, { ok: true, body, stmt, relations: [...relations].sort() });
}

function judge(
  parsed: Parsed & { ok: true },
  kind: DatabaseKind,
  catalog: CatalogColumns,
  functions: ReadonlyMap<string, string>,
): Verdict {
  const j: Judge = {
    kind,
    catalog,
    functions,
    tables: new Set(),
    built: 0,
    reads: new Map(),
    bounds: new Map(),
    texts: new Set(),
    series: 0,
    outputs: new WeakMap(),
    depth: 0,
  };
  try {
    query(parsed.stmt, undefined, undefined, j, true);
  } catch (e) {
    if (e instanceof Refused) return { ok: false, code: e.code, params: e.params };
    // A tree nested past the JavaScript stack is refused like one past MAX_DEPTH.
    if (e instanceof RangeError) return { ok: false, code: 'SQL_CONSTRUCT', params: { name: '过深的嵌套' } };
    throw e;
  }
  const reads = [...j.reads]
    .filter(([key]) => !key.endsWith(' (recursive)'))
    .map(([key, times]) => {
      const dot = key.indexOf('.');
      return { table: key.slice(0, dot), column: key.slice(dot + 1), times, bound: j.bounds.get(key) ?? null };
    })
    .sort((a, b) => `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`));
  return { ok: true, body: parsed.body, tables: [...j.tables].sort(), built: j.built, reads };
}

/** Runs one statement with parameters and answers its rows (a Kysely database, or the data views' own connection). */
export type Rows = <R = Record<string, unknown>>(text: string, params?: readonly unknown[]) => Promise<R[]>;

/** `Rows` over a Kysely database or transaction. */
export const rowsOf =
  (db: Kysely<any>): Rows =>
  async <R>(text: string, params: readonly unknown[] = []) =>
    (await db.executeQuery<R>(CompiledQuery.raw(text, [...params]))).rows as R[];

/**
 * Reads the columns of the named relations from the catalog, on the connection the data view will run on
 * (so names resolve as they will there).
 */
/**
 * Tables of views whose records are private to the department they are addressed to (留言管理): no data
 * view reads them, whoever designs it.
 */
export async function privateViewTables(rows: Rows): Promise<Set<string>> {
  const defs = await rows<{ id: number; dis_menu: string | null }>('select id, dis_menu from lc_generation');
  const out = new Set<string>();
  for (const d of defs) {
    const name = menuComponentName(d.dis_menu);
    if (name !== undefined && RECIPIENT_FIELD[name] !== undefined) out.add(`lc_view_${d.id}`);
  }
  return out;
}

/**
 * The columns of the relations, read on `rows` (the connection that will run the statement); which view
 * tables are private is read on `definitions`, the server's own connection (a data-view login cannot read
 * the definitions).
 */
export async function catalogColumns(
  rows: Rows,
  relations: readonly string[],
  definitions: Rows = rows,
): Promise<Map<string, CatalogColumn[]>> {
  const out = new Map<string, CatalogColumn[]>();
  if (!relations.length) return out;
  // A private table reads as no relation at all, so the statement is refused as naming an unknown table.
  const hidden = relations.some((r) => LOW_CODE_TABLE.test(r.replace(/^public\./, '')))
    ? await privateViewTables(definitions)
    : new Set<string>();
  const found = await rows<{ rel: string; name: string; typlen: number; typname: string; typmod: number; typcategory: string }>(
    `select r.rel, a.attname as name, t.typlen, t.typname, a.atttypmod as typmod, t.typcategory
    from unnest($1::text[]) r(rel)
    join pg_attribute a on a.attrelid = to_regclass(case when r.rel like 'public.%'
      then 'public.' || quote_ident(substr(r.rel, 8)) else quote_ident(r.rel) end)
    join pg_type t on t.oid = a.atttypid
    where a.attnum > 0 and not a.attisdropped
    order by r.rel, a.attnum`,
    [[...relations]],
  );
  for (const r of found) {
    if (hidden.has(r.rel.replace(/^public\./, ''))) continue;
    let bound: number | null = null;
    if (Number(r.typlen) > 0) bound = 64;
    else if ((r.typname === 'varchar' || r.typname === 'bpchar') && Number(r.typmod) > 4) bound = Number(r.typmod) - 4;
    else if (r.typname === 'numeric') bound = 340;
    const columns = out.get(r.rel) ?? [];
    columns.push({ name: r.name, bound, text: r.typcategory === 'S' });
    out.set(r.rel, columns);
  }
  return out;
}

/** Looks up the columns of the relations a statement names; `catalogColumns` on a connection. */
export type CatalogReader = (relations: readonly string[]) => Promise<CatalogColumns>;

export interface GuardOptions {
  /** The function allow-list (tests widen it to show the deny-list still holds). Verdicts are not cached with another list. */
  functions?: ReadonlyMap<string, string>;
}

/**
 * The accepted statement and what it reads and builds; throws a 400 with the reason otherwise.
 *
 * Verdicts are cached per SQL text, database kind and the column sets of the relations it names: the
 * columns are read from the catalog on every call (on the connection that will run it, in its
 * transaction), and a verdict is found again only for the very same columns. So a table redesigned since
 * (columns added or retyped), here or by another server instance, is judged afresh, and no verdict
 * outlives a column set it relied on.
 */
export async function guardDataView(
  text: string,
  kind: DatabaseKind,
  readCatalog: CatalogReader,
  options: GuardOptions = {},
): Promise<DataViewPlan> {
  const parsed = await parse(text, kind);
  if (!parsed.ok) throw badRequest(parsed.code, parsed.params);
  const catalog = await readCatalog(parsed.relations);
  const fingerprint = JSON.stringify(parsed.relations.map((r) => [r, catalog.get(r) ?? null]));
  const key = `${kind}\u0000${text}\u0000${fingerprint}`;
  let verdict = options.functions ? undefined : verdicts.get(key);
  if (!verdict) {
    verdict = judge(parsed, kind, catalog, options.functions ?? DATA_VIEW_FUNCTIONS);
    if (!options.functions) remember(verdicts, key, verdict);
  }
  if (!verdict.ok) throw badRequest(verdict.code, verdict.params);
  const { ok: _ok, ...plan } = verdict;
  return plan;
}

/** The relations a statement names that the catalog must describe (empty for a text the guard refuses before that). */
export async function relationsOfDataView(text: string, kind: DatabaseKind): Promise<string[]> {
  const parsed = await parse(text, kind);
  return parsed.ok ? parsed.relations : [];
}

/** As guardDataView with the catalog of `db`: the statement to run. */
export async function guardDataViewSql(text: string, kind: DatabaseKind, db: Kysely<any>, options: GuardOptions = {}): Promise<string> {
  return (await guardDataView(text, kind, (r) => catalogColumns(rowsOf(db), r), options)).body;
}

// ----- grants -----

/** The setting rows that hold this database's data-view login (sys_setting, which no data view may read). */
export const DATA_VIEW_LOGIN_SETTINGS = { role: 'data_view_role', password: 'data_view_password' } as const;

/**
 * The roles data views read as in this database, those that exist: the shared NOLOGIN role
 * DATA_VIEW_ROLE (an administrator's login may be its member) and this database's own login role.
 */
export async function dataViewGrantees(db: Kysely<any>): Promise<string[]> {
  const rows = await sql<{ name: string }>`
    select rolname as name from pg_roles where rolname = ${DATA_VIEW_ROLE}
      or (to_regclass('sys_setting') is not null and rolname = (
        select value from sys_setting where name = ${DATA_VIEW_LOGIN_SETTINGS.role}))
    order by 1`.execute(db);
  return rows.rows.map((r) => r.name);
}

/**
 * Grants each data-view role (or those given) SELECT on every allowed table of the current schema it
 * cannot read yet. Answers the tables granted.
 */
export async function grantDataViewReads(db: Kysely<any>, roles?: readonly string[]): Promise<string[]> {
  const grantees = roles ?? (await dataViewGrantees(db));
  const granted = new Set<string>();
  const hidden = await privateViewTables(rowsOf(db));
  for (const role of grantees) {
    const missing = await sql<{ name: string }>`
      select c.relname as name from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_roles r on r.rolname = ${role}
      where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v', 'm')
        and (c.relname = any(${[...DATA_VIEW_TABLES]}::text[]) or c.relname ~ ${LOW_CODE_TABLE.source})
        and not has_table_privilege(r.oid, c.oid, 'SELECT')
      order by 1`.execute(db);
    const tables = missing.rows.map((r) => r.name).filter((t) => !hidden.has(t));
    if (tables.length) await sql`grant select on table ${sql.join(tables.map((t) => sql.table(t)))} to ${sql.id(role)}`.execute(db);
    for (const t of tables) granted.add(t);
    await revokePrivateReads(db, role, hidden);
  }
  return [...granted].sort();
}

/** Takes back from a data-view role any read of a private view table (granted before the view was private). */
export async function revokePrivateReads(db: Kysely<any>, role: string, hidden?: ReadonlySet<string>): Promise<void> {
  const tables = hidden ?? (await privateViewTables(rowsOf(db)));
  const held = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relname = any(${[...tables]}::text[]) and has_table_privilege(${role}, c.oid, 'SELECT')`.execute(
    db,
  );
  for (const { name } of held.rows) await sql`revoke select on ${sql.table(name)} from ${sql.id(role)}`.execute(db);
}
