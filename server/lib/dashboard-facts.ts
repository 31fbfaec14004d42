import { createHash } from 'node:crypto';
import { type Kysely, type SqlBool, sql } from 'kysely';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { designedView } from '../lowcode/view-store.js';
import { type BusinessViewName, businessViews } from './business-views.js';

/**
 * The dashboards' figures are sums over business records. Summing 100,000 records per request is too
 * slow for a dashboard, so dash_fact holds running sums that statement-level triggers on each source
 * view's table update in the same transaction as every insert, update, delete or truncate — through
 * /api/general, imports, scripts or plain SQL alike. A figure is then a read of a handful of fact rows
 * and always equals the records as they are committed.
 *
 * Each source record contributes to the fact rows of company 0 (everyone), of every company it involves
 * (role '*', once per record), and of each party by role: 'a' (owner, producer, payer, asker), 'b'
 * (disposer, payee, asked), 'c' (the company it was created in) and 'd' (the carrier an order names).
 * Parties are found when the record is written: by warehouse, by company id, or through the record it
 * refers to (a logistics order through its disposal order); when a record read that way changes or goes,
 * the facts of the records reading it move with it (DEPENDENCIES). A company's rename moves nothing: no
 * party is found by name. rebuildFacts() recomputes a source from its table.
 */

export const FACT_SOURCES = ['stockIn', 'disposalInquiry', 'contract', 'disposalOrder', 'logisticsOrder', 'vehicle'] as const;
export type FactSource = (typeof FACT_SOURCES)[number];

const EPOCH = "'1970-01-01'::date";

/** SQL over `dash_j` (the record as jsonb) for each key and sum; tables of other sources as `{name}`. */
interface SourceSpec {
  /** The field holding the record's status; a record without one counts as the form's default status. */
  status: string;
  category?: string;
  warehouse?: string;
  day?: string;
  day2?: string;
  qty?: string;
  amount?: string;
  amount2?: string;
  a?: string;
  b?: string;
  /** The carrier (运输单位) an order names, a party besides the other three. */
  d?: string;
}

/** A SQL string literal. */
const literal = (v: string) => `'${v.replaceAll("'", "''")}'`;
const text = (key: string) => `nullif(trim(dash_j->>'${key}'), '')`;
const num = (key: string) => `dash_num(dash_j->>'${key}')`;
const bucket = (unit: 'year' | 'month' | 'day', ...keys: string[]) =>
  `date_trunc('${unit}', coalesce(${[...keys.map((k) => `dash_date(dash_j->>'${k}')`), `dash_date(dash_j->>'create_time')`].join(', ')}))::date`;
const companyWithId = (key: string) => `(select c.id from company c where c.id = dash_int(dash_j->>'${key}'))`;
/** A company a logistics order's disposal order names by id. */
const orderParty = (key: string) => `(select c.id from {disposalOrder} o join company c on c.id = dash_int(to_jsonb(o)->>'${key}')
      where o.id = dash_int(dash_j->>'disposalOrderId'))`;
/** The company the record was created in; a record written without it (plain SQL) takes its creator's. */
const CREATOR = `coalesce(dash_int(dash_j->>'create_company'), (select u.company_id from sys_user u where u.username = dash_j->>'create_by'))`;

const SPECS: Record<FactSource, SourceSpec> = {
  // Held waste: owner is the warehouse's company, or the creator's when the record names no warehouse.
  // company_warehouse is the SQL view over the warehouse view's table (entity-views.ts), whichever it is.
  stockIn: {
    status: 'status',
    category: text('wasteCategory'),
    warehouse: `dash_int(dash_j->>'warehouseId')`,
    day: bucket('year', 'inTime'),
    qty: num('quantity'),
    a: `coalesce((select w.company_id from company_warehouse w where w.id = dash_int(dash_j->>'warehouseId')), ${CREATOR})`,
  },
  // The asker is the creator's company; the asked disposer is companyId. The warehouse is that of the
  // stock-in the inquiry was raised from (来源入库单).
  disposalInquiry: {
    status: 'inquiryStatus',
    warehouse: `(select dash_int(to_jsonb(s)->>'warehouseId') from {stockIn} s where s.id = dash_int(dash_j->>'stockId'))`,
    day: bucket('month'),
    qty: num('quantity'),
    amount: `${num('quotedPrice')} * ${num('quantity')}`,
    b: companyWithId('companyId'),
  },
  contract: {
    status: 'contractStatus',
    day: bucket('month', 'signDate'),
    day2: `dash_date(dash_j->>'endDate')`,
    amount: num('amount'),
    a: companyWithId('partyAId'),
    b: companyWithId('partyBId'),
  },
  // Payer: the producer; payee: the disposer; the carrier it names. amount2 is the prepaid part.
  disposalOrder: {
    status: 'orderStatus',
    warehouse: `(select dash_int(to_jsonb(s)->>'warehouseId') from {stockIn} s where s.id = dash_int(dash_j->>'stockId'))`,
    day: bucket('month'),
    qty: num('quantity'),
    amount: `coalesce(${num('amount')}, ${num('price')} * ${num('quantity')})`,
    amount2: `case when dash_j->>'needPrepay' = '1' then ${num('prepayPrice')} end`,
    a: companyWithId('producerId'),
    b: companyWithId('disposerId'),
    d: companyWithId('carrierId'),
  },
  // The carrier is the creator's company; the producer, disposer and named carrier are those of its
  // disposal order.
  logisticsOrder: {
    status: 'orderStatus',
    warehouse: `(select dash_int(to_jsonb(s)->>'warehouseId') from {disposalOrder} o join {stockIn} s on s.id = dash_int(to_jsonb(o)->>'stockId')
      where o.id = dash_int(dash_j->>'disposalOrderId'))`,
    day: bucket('month', 'loadTime'),
    qty: num('weight'),
    amount: num('freight'),
    a: orderParty('producerId'),
    b: orderParty('disposerId'),
    d: orderParty('carrierId'),
  },
  vehicle: {
    status: 'vehicleStatus',
    category: text('vehicleType'),
    qty: num('loadCapacity'),
  },
};

/**
 * `{name}` placeholders → table names, or the SQL `states` gives for a source (its records as they were
 * before a write); a missing table reads as an empty set.
 */
function withTables(expr: string, tables: Map<BusinessViewName, string>, states?: ReadonlyMap<string, string>): string {
  return expr.replace(/\{(\w+)\}/g, (_, name: string) => {
    const state = states?.get(name);
    if (state) return state;
    const t = tables.get(name as BusinessViewName);
    return t ? `"${t}"` : '(select null::bigint as id where false)';
  });
}

/**
 * Facts that read another source's records: an inquiry's and a disposal order's warehouse is their
 * stock-in's, a logistics order's warehouse and parties come through its disposal order. When those
 * fields of a record change (or it is deleted), the facts of the records that read it move with it.
 * `rows` selects, over the dependent table `{self}`, the records that read any of the records `{ids}`,
 * by indexed reference columns; `needs` are the columns it names, by source.
 */
interface Dependency {
  source: FactSource;
  on: FactSource;
  fields: string[];
  rows: string;
  needs: [FactSource, string][];
}

const DEPENDENCIES: Dependency[] = [
  {
    source: 'disposalInquiry',
    on: 'stockIn',
    fields: ['warehouseId'],
    rows: 'select d.* from {self} d where d."stockId" in ({ids})',
    needs: [['disposalInquiry', 'stockId']],
  },
  {
    source: 'disposalOrder',
    on: 'stockIn',
    fields: ['warehouseId'],
    rows: 'select d.* from {self} d where d."stockId" in ({ids})',
    needs: [['disposalOrder', 'stockId']],
  },
  {
    source: 'logisticsOrder',
    on: 'disposalOrder',
    fields: ['stockId', 'producerId', 'disposerId', 'carrierId'],
    rows: 'select d.* from {self} d where d."disposalOrderId" in ({ids})',
    needs: [['logisticsOrder', 'disposalOrderId']],
  },
  {
    source: 'logisticsOrder',
    on: 'stockIn',
    fields: ['warehouseId'],
    rows: 'select d.* from {self} d where d."disposalOrderId" in (select o.id from {disposalOrder} o where o."stockId" in ({ids}))',
    needs: [
      ['logisticsOrder', 'disposalOrderId'],
      ['disposalOrder', 'stockId'],
    ],
  },
];

/** What every source's triggers are built from: the tables, each source's default status and its columns. */
interface FactTables {
  tables: Map<BusinessViewName, string>;
  statusDefaults: Map<FactSource, string | null>;
  columns: Map<FactSource, ReadonlySet<string>>;
}

/**
 * Statements of `on`'s update or delete trigger that move the facts of the records reading the written
 * ones: taken out as they were computed before the write (`on`'s records as they were: the old rows in
 * place of the new), put back as they are now. Nothing runs unless a read field changed.
 */
function dependentsSql(on: FactSource, t: FactTables, op: 'upd' | 'del'): string[] {
  const own = t.tables.get(on);
  if (!own) return [];
  const deps = DEPENDENCIES.filter(
    (d) => d.on === on && t.tables.has(d.source) && d.needs.every(([source, column]) => t.columns.get(source)?.has(column)),
  );
  if (!deps.length) return [];
  const changed = (fields: string[]) =>
    op === 'del'
      ? 'select o.id from dash_old o'
      : `select o.id from dash_old o join dash_new n on n.id = o.id where ${fields
          .map((f) => `to_jsonb(o)->'${f}' is distinct from to_jsonb(n)->'${f}'`)
          .join(' or ')}`;
  const before = new Map([[on, `(select * from dash_old union all select * from "${own}" w where w.id not in (select id from dash_old))`]]);
  const statements: string[] = [];
  for (const d of deps) {
    const rows = withTables(d.rows.replace('{self}', `"${t.tables.get(d.source)}"`).replace('{ids}', changed(d.fields)), t.tables);
    const facts = (sign: number) => `select to_jsonb(d) as dash_j, ${sign} as dash_sign from (${rows}) d`;
    const status = t.statusDefaults.get(d.source) ?? null;
    statements.push(addFactsSql(d.source, facts(-1), t.tables, status, before), addFactsSql(d.source, facts(1), t.tables, status));
  }
  const fields = [...new Set(deps.flatMap((d) => d.fields))];
  return [`if exists (${changed(fields)}) then\n${statements.map((x) => `${x};`).join('\n')}\nend if`];
}

/**
 * The statement that adds the facts of `rows` (SQL yielding `dash_j jsonb, dash_sign int`) to dash_fact, and
 * the same sums without warehouse and category to dash_fact_total. Keys come out sorted and the two tables
 * are written in the same order by every writer, so two writers lock sum rows in the same order.
 */
function addFactsSql(
  source: FactSource,
  rows: string,
  tables: Map<BusinessViewName, string>,
  statusDefault: string | null,
  states?: ReadonlyMap<string, string>,
): string {
  const s = SPECS[source];
  const status = statusDefault === null ? text(s.status) : `coalesce(${text(s.status)}, ${literal(statusDefault)})`;
  const e = (expr: string | undefined, fallback: string) =>
    expr ? `coalesce(${withTables(expr, tables, states)}, ${fallback})` : fallback;
  const party = (expr: string | undefined) => (expr ? withTables(expr, tables, states) : 'null::integer');
  // Each record is read once (to_jsonb and the party look-ups are not repeated per use), records with the
  // same keys and parties are summed before they are spread over their companies and roles.
  return `
    with r as materialized (${rows}),
    x as materialized (
      select warehouse_id, status, category, day, day2, a, b, c, d,
        sum(dash_sign) as n, sum(dash_sign * qty) as qty, sum(dash_sign * amount) as amount, sum(dash_sign * amount2) as amount2
      from (
        select r.dash_sign,
          ${e(s.warehouse, '0')}::bigint as warehouse_id,
          left(${e(status, "''")}, 40) as status,
          left(${e(s.category, "''")}, 40) as category,
          ${e(s.day, EPOCH)} as day,
          ${e(s.day2, EPOCH)} as day2,
          ${e(s.qty, '0')} as qty,
          ${e(s.amount, '0')} as amount,
          ${e(s.amount2, '0')} as amount2,
          ${party(s.a)}::integer as a,
          ${party(s.b)}::integer as b,
          ${CREATOR}::integer as c,
          ${party(s.d)}::integer as d
        from r
      ) k
      group by warehouse_id, status, category, day, day2, a, b, c, d
    ),
    d as materialized (
      select p.company_id, p.role, x.warehouse_id, x.status, x.category, x.day, x.day2,
        sum(x.n) as n, sum(x.qty) as qty, sum(x.amount) as amount, sum(x.amount2) as amount2
      from x
      cross join lateral (values (0, '*', 0), (x.a, '*', 1), (x.b, '*', 2), (x.c, '*', 3), (x.d, '*', 7), (x.a, 'a', 4), (x.b, 'b', 5),
        (x.c, 'c', 6), (x.d, 'd', 8)) as p(company_id, role, k)
      where p.company_id is not null
        -- every company the record involves, once: b unless it is a, c unless it is a or b, d unless it is a, b or c
        and not (p.k = 2 and x.b is not distinct from x.a)
        and not (p.k = 3 and (x.c is not distinct from x.a or x.c is not distinct from x.b))
        and not (p.k = 7 and (x.d is not distinct from x.a or x.d is not distinct from x.b or x.d is not distinct from x.c))
      group by p.company_id, p.role, x.warehouse_id, x.status, x.category, x.day, x.day2
    ),
    total as (
      insert into dash_fact_total as f (source, company_id, role, status, day, day2, n, qty, amount, amount2)
      select '${source}', company_id, role, status, day, day2, sum(n), sum(qty), sum(amount), sum(amount2)
      from d
      group by company_id, role, status, day, day2
      order by company_id, role, status, day, day2
      on conflict (source, company_id, role, status, day, day2) do update set
        n = f.n + excluded.n, qty = f.qty + excluded.qty, amount = f.amount + excluded.amount, amount2 = f.amount2 + excluded.amount2
    )
    insert into dash_fact as f (source, company_id, role, warehouse_id, status, category, day, day2, n, qty, amount, amount2)
    select '${source}', company_id, role, warehouse_id, status, category, day, day2, n, qty, amount, amount2
    from d
    order by company_id, role, warehouse_id, status, category, day, day2
    on conflict (source, company_id, role, warehouse_id, status, category, day, day2) do update set
      n = f.n + excluded.n, qty = f.qty + excluded.qty, amount = f.amount + excluded.amount, amount2 = f.amount2 + excluded.amount2`;
}

const fnName = (source: FactSource, op: string) => `dash_facts_${source.toLowerCase()}_${op}`;
const TRIGGERS = ['ins', 'upd', 'del', 'trunc'] as const;
const triggerName = (op: (typeof TRIGGERS)[number]) => `dash_facts_${op}`;

/** Functions of one source's triggers, for its table and the tables it reads. */
function functionsSql(source: FactSource, t: FactTables): string {
  const tables = t.tables;
  const statusDefault = t.statusDefaults.get(source) ?? null;
  const plus = 'select to_jsonb(n) as dash_j, 1 as dash_sign from dash_new n';
  const minus = 'select to_jsonb(o) as dash_j, -1 as dash_sign from dash_old o';
  const prune = `delete from dash_fact where source = '${source}' and n = 0;
delete from dash_fact_total where source = '${source}' and n = 0`;
  const body = (statements: string[]) => `begin\n${statements.map((x) => `${x};`).join('\n')}\nreturn null;\nend`;
  const fn = (op: string, statements: string[]) =>
    `create or replace function ${fnName(source, op)}() returns trigger language plpgsql as $f$${body(statements)}$f$;`;
  return [
    fn('ins', [addFactsSql(source, plus, tables, statusDefault)]),
    fn('upd', [addFactsSql(source, `${minus} union all ${plus}`, tables, statusDefault), ...dependentsSql(source, t, 'upd'), prune]),
    fn('del', [addFactsSql(source, minus, tables, statusDefault), ...dependentsSql(source, t, 'del'), prune]),
    fn('trunc', [`delete from dash_fact where source = '${source}'`, `delete from dash_fact_total where source = '${source}'`]),
  ].join('\n');
}

function triggersSql(source: FactSource, table: string): string {
  const t = `"${table}"`;
  return [
    ...TRIGGERS.map((op) => `drop trigger if exists ${triggerName(op)} on ${t};`),
    `create trigger ${triggerName('ins')} after insert on ${t} referencing new table as dash_new for each statement execute function ${fnName(source, 'ins')}();`,
    `create trigger ${triggerName('upd')} after update on ${t} referencing old table as dash_old new table as dash_new for each statement execute function ${fnName(source, 'upd')}();`,
    `create trigger ${triggerName('del')} after delete on ${t} referencing old table as dash_old for each statement execute function ${fnName(source, 'del')}();`,
    `create trigger ${triggerName('trunc')} after truncate on ${t} for each statement execute function ${fnName(source, 'trunc')}();`,
  ].join('\n');
}

/**
 * Moves on when facts written before may differ from what the triggers compute now: since 2, facts that
 * read another record follow it when it changes, and those moved before were left where they were;
 * since 3, dash_fact_total holds the sums without warehouse and category, filled from here on.
 */
const FACTS_REVISION = 3;

/** Any number the instances agree on: the advisory lock held while one of them installs facts. */
const INSTALL_LOCK = 7_311_027_612;

interface Plan {
  source: FactSource;
  table: string;
  version: string;
  functions: string;
  rebuild: string;
}

/** What every source should look like now: its table, trigger functions and rebuild statement. */
async function computePlans(ctx: AppContext, views: Map<BusinessViewName, { id: number; table: string }>): Promise<Plans> {
  const tables = new Map<BusinessViewName, string>();
  for (const [name, v] of views) tables.set(name, v.table);
  // A designed view has a table; one that does not (its design failed) counts as absent.
  const names = [...tables.values()];
  const live = names.length
    ? (
        await sql<{ name: string }>`select relname as name from pg_class where relkind = 'r' and relname in (${sql.join(names)})`.execute(
          ctx.db,
        )
      ).rows
    : [];
  const present = new Set(live.map((r) => r.name));
  for (const [k, t] of tables) if (!present.has(t)) tables.delete(k);
  const facts: FactTables = { tables, statusDefaults: new Map(), columns: new Map() };
  for (const source of FACT_SOURCES) {
    const view = views.get(source);
    if (!tables.has(source) || !view) continue;
    const model = await designedView(ctx, view.id).catch(() => null);
    const dflt = model?.byName.get(SPECS[source].status)?.form?.defaultValue;
    facts.statusDefaults.set(source, dflt === undefined || dflt === '' ? null : String(dflt));
    facts.columns.set(source, new Set(model?.columns.map((c) => c.name) ?? []));
  }
  const out: Plan[] = [];
  for (const source of FACT_SOURCES) {
    const table = tables.get(source);
    if (!table || !facts.statusDefaults.has(source)) continue;
    const statusDefault = facts.statusDefaults.get(source) ?? null;
    const functions = functionsSql(source, facts);
    const rebuild = addFactsSql(source, `select to_jsonb(t) as dash_j, 1 as dash_sign from "${table}" t`, tables, statusDefault);
    // FACTS_REVISION moves every version on, so that each source's facts are computed again once.
    const version = createHash('sha1')
      .update(`${FACTS_REVISION}\n${table}\n${functions}\n${triggersSql(source, table)}`)
      .digest('hex');
    out.push({ source, table, version, functions, rebuild });
  }
  return { plans: out, key: out.map((p) => `${p.source}=${p.table}:${p.version}`).join(',') };
}

interface Plans {
  plans: Plan[];
  key: string;
}

/** What every source should look like now; worked out again only when the views resolve differently. */
async function plans(ctx: AppContext): Promise<Plans> {
  const s = stateOf(ctx);
  const views = await businessViews(ctx);
  if (s.planned && s.planned.views === views) return s.planned.plans;
  const p = await computePlans(ctx, views);
  s.planned = { views, plans: p };
  return p;
}

const TRIGGER_LIST = sql<{ table: string; name: string }>`
  select c.relname as table, t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
  where t.tgname like 'dash_facts_%' and not t.tgisinternal`;

/**
 * Brings the database in line with the plans, under an advisory lock so that instances take turns: a
 * source whose table, trigger text or triggers differ from what dash_source records (or that is asked to
 * rebuild) gets its functions and triggers again and its facts recomputed from the table, with writers
 * to that table held off meanwhile. Sources without a view lose their facts.
 */
async function install(ctx: AppContext, wanted: Plan[], rebuild: ReadonlySet<FactSource>): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${INSTALL_LOCK})`.execute(trx);
    const recorded = await trx.selectFrom('dash_source').selectAll().execute();
    const sourceOfTable = new Map(wanted.map((p) => [p.table, p.source]));
    const before = await TRIGGER_LIST.execute(trx);
    for (const table of new Set(before.rows.map((r) => r.table))) {
      const was = recorded.find((r) => r.table_name === table)?.source;
      if (sourceOfTable.has(table) && (was === undefined || was === sourceOfTable.get(table))) continue;
      for (const op of TRIGGERS) await sql.raw(`drop trigger if exists ${triggerName(op)} on "${table}"`).execute(trx);
    }
    for (const r of recorded) {
      if (wanted.some((p) => p.source === r.source)) continue;
      await trx.deleteFrom('dash_fact').where('source', '=', r.source).execute();
      await trx.deleteFrom('dash_fact_total').where('source', '=', r.source).execute();
      await trx.deleteFrom('dash_source').where('source', '=', r.source).execute();
    }
    const triggers = (await TRIGGER_LIST.execute(trx)).rows;
    for (const p of wanted) {
      const r = recorded.find((x) => x.source === p.source);
      const complete = TRIGGERS.every((op) => triggers.some((x) => x.table === p.table && x.name === triggerName(op)));
      if (r?.table_name === p.table && r.version === p.version && complete && !rebuild.has(p.source)) continue;
      await sql.raw(`lock table "${p.table}" in share row exclusive mode`).execute(trx);
      await sql.raw(p.functions).execute(trx);
      await sql.raw(triggersSql(p.source, p.table)).execute(trx);
      await trx.deleteFrom('dash_fact').where('source', '=', p.source).execute();
      await trx.deleteFrom('dash_fact_total').where('source', '=', p.source).execute();
      await sql.raw(p.rebuild).execute(trx);
      await trx
        .insertInto('dash_source')
        .values({ source: p.source, table_name: p.table, version: p.version })
        .onConflict((oc) => oc.column('source').doUpdateSet({ table_name: p.table, version: p.version, installed_at: sql`now()` }))
        .execute();
    }
  });
}

interface FactsState {
  /** The plans this process last brought the database in line with. */
  installedKey: string | null;
  running: Promise<void> | null;
  /** The last plans and the resolution of the views they were made from. */
  planned: { views: Map<BusinessViewName, unknown>; plans: Plans } | null;
}
const states = new WeakMap<AppContext, FactsState>();
function stateOf(ctx: AppContext): FactsState {
  let s = states.get(ctx);
  if (!s) {
    s = { installedKey: null, running: null, planned: null };
    states.set(ctx, s);
  }
  return s;
}

/** One run at a time per process; a caller that finds one running waits for it and then runs its own. */
async function serialised(ctx: AppContext, rebuild: ReadonlySet<FactSource>): Promise<void> {
  const s = stateOf(ctx);
  while (s.running) await s.running.catch(() => {});
  const p = (async () => {
    const { plans: wanted, key } = await plans(ctx);
    if (key === s.installedKey && !rebuild.size) return;
    await install(ctx, wanted, rebuild);
    s.installedKey = key;
  })();
  s.running = p;
  try {
    await p;
  } finally {
    if (s.running === p) s.running = null;
  }
}

/**
 * Makes sure every source's triggers sit on the table its view resolves to and its facts were built
 * from that table with the current trigger text. Cheap when nothing changed: one look-up of the views.
 */
export async function ensureFacts(ctx: AppContext): Promise<void> {
  const s = stateOf(ctx);
  if (s.installedKey !== null && !s.running) {
    // The common case: the views resolve as before.
    const { key } = await plans(ctx);
    if (key === s.installedKey) return;
  }
  await serialised(ctx, new Set());
}

/** Recomputes the facts of the given sources from their tables (after a company rename, say). */
export async function rebuildFacts(ctx: AppContext, sources: readonly FactSource[]): Promise<void> {
  await serialised(ctx, new Set(sources));
}

// ----- reading figures -----

/** Whose figures: every company's, one company's, or nobody's (a user without a company). */
export type Scope = { kind: 'all' } | { kind: 'company'; companyId: number } | { kind: 'none' };

export type Role = '*' | 'a' | 'b' | 'c' | 'd';

export interface FactFilter {
  source: FactSource;
  scope: Scope;
  /** Which part the company plays; every company's figures ignore it. Default '*'. */
  role?: Role;
  statuses?: readonly string[];
  warehouseId?: number;
  /** Inclusive bounds of the date bucket, YYYY-MM-DD. */
  dayFrom?: string;
  dayTo?: string;
  day2From?: string;
  day2To?: string;
}

export interface FactSums {
  n: number;
  qty: number;
  amount: number;
  amount2: number;
}

export const ZERO: FactSums = { n: 0, qty: 0, amount: 0, amount2: 0 };

/**
 * Which sums a read needs: dash_fact_total (no warehouse or category, a row per status and date bucket)
 * unless the read filters by warehouse or groups by warehouse or category. The totals table holds every
 * other column of dash_fact, so one query text serves both.
 */
const sumsTable = (byWarehouseOrCategory: boolean) => (byWarehouseOrCategory ? 'dash_fact' : 'dash_fact_total') as 'dash_fact';

/**
 * Fact rows of a filter; `each` selects every company's own rows (company 0 left out) instead of the
 * scope's; `detailed` reads the sums per warehouse and category.
 */
function filtered(db: Kysely<DB>, f: FactFilter, each = false, detailed = false) {
  let q = db.selectFrom(sumsTable(detailed || f.warehouseId !== undefined)).where('source', '=', f.source);
  if (each) q = q.where('company_id', '<>', 0).where('role', '=', f.role ?? '*');
  else if (f.scope.kind === 'all') q = q.where('company_id', '=', 0).where('role', '=', '*');
  else if (f.scope.kind === 'company') q = q.where('company_id', '=', f.scope.companyId).where('role', '=', f.role ?? '*');
  else q = q.where(sql<SqlBool>`false`);
  if (f.statuses) q = f.statuses.length ? q.where('status', 'in', [...f.statuses]) : q.where(sql<SqlBool>`false`);
  if (f.warehouseId !== undefined) q = q.where('warehouse_id', '=', f.warehouseId);
  if (f.dayFrom) q = q.where(sql<SqlBool>`day >= ${f.dayFrom}::date`);
  if (f.dayTo) q = q.where(sql<SqlBool>`day <= ${f.dayTo}::date`);
  if (f.day2From) q = q.where(sql<SqlBool>`day2 >= ${f.day2From}::date`);
  if (f.day2To) q = q.where(sql<SqlBool>`day2 <= ${f.day2To}::date`);
  return q;
}

const sums = [
  sql<number>`coalesce(sum(n), 0)`.as('n'),
  sql<number>`coalesce(sum(qty), 0)`.as('qty'),
  sql<number>`coalesce(sum(amount), 0)`.as('amount'),
  sql<number>`coalesce(sum(amount2), 0)`.as('amount2'),
];

const asSums = (r: { n: unknown; qty: unknown; amount: unknown; amount2: unknown } | undefined): FactSums => ({
  n: Number(r?.n ?? 0),
  qty: Number(r?.qty ?? 0),
  amount: Number(r?.amount ?? 0),
  amount2: Number(r?.amount2 ?? 0),
});

/** Totals of the records the filter selects. */
export async function factTotals(db: Kysely<DB>, f: FactFilter): Promise<FactSums> {
  if (f.scope.kind === 'none') return ZERO;
  return asSums(await filtered(db, f).select(sums).executeTakeFirst());
}

/** A PostgreSQL numeric as text, exactly: digits and the count of them after the point. */
function decimal(v: unknown): { digits: bigint; scale: number } {
  const text = String(v ?? 0);
  // A number the driver parsed may print in exponent notation; below 1e21 toFixed writes it out.
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text) ?? /^(-?)(\d*)(?:\.(\d*))?$/.exec(Number(text).toFixed(20));
  if (!m) return { digits: BigInt(Math.round(Number(text))), scale: 0 };
  const fraction = m[3] ?? '';
  return { digits: BigInt(`${m[1]}${m[2] || '0'}${fraction}`), scale: fraction.length };
}

/** An exact sum of numerics (as the database sums them), then as a number. */
class DecimalSum {
  #digits = 0n;
  #scale = 0;
  add(v: unknown): void {
    const d = decimal(v);
    if (d.scale > this.#scale) {
      this.#digits *= 10n ** BigInt(d.scale - this.#scale);
      this.#scale = d.scale;
    }
    this.#digits += d.digits * 10n ** BigInt(this.#scale - d.scale);
  }
  get value(): number {
    if (!this.#scale) return Number(this.#digits);
    const negative = this.#digits < 0n;
    const text = (negative ? -this.#digits : this.#digits).toString().padStart(this.#scale + 1, '0');
    return Number(`${negative ? '-' : ''}${text.slice(0, -this.#scale)}.${text.slice(-this.#scale)}`);
  }
}

/**
 * Totals of several filters in one query, in the order given. The database sums the facts per group of
 * what the filters tell apart (source, company, role, status, warehouse, and one flag per date bound),
 * a few dozen rows; each filter's totals are then the exact sum of the groups it selects. Aggregates
 * filtered per figure would test every filter on every fact row instead.
 */
export async function factTotalsAll<const F extends readonly FactFilter[]>(
  db: Kysely<DB>,
  filters: F,
): Promise<{ [K in keyof F]: FactSums }> {
  const live = filters.map((f, i) => ({ f, i })).filter(({ f }) => f.scope.kind !== 'none');
  if (!live.length) return filters.map(() => ZERO) as { [K in keyof F]: FactSums };
  const bounds: { column: 'day' | 'day2'; after: boolean; value: string }[] = [];
  const flag = (column: 'day' | 'day2', after: boolean, value: string | undefined): number[] => {
    if (!value) return [];
    let at = bounds.findIndex((b) => b.column === column && b.after === after && b.value === value);
    if (at < 0) at = bounds.push({ column, after, value }) - 1;
    return [at];
  };
  const wanted = live.map(({ f, i }) => ({
    i,
    f,
    company: f.scope.kind === 'company' ? f.scope.companyId : 0,
    role: f.scope.kind === 'company' ? (f.role ?? '*') : '*',
    flags: [
      ...flag('day', true, f.dayFrom),
      ...flag('day', false, f.dayTo),
      ...flag('day2', true, f.day2From),
      ...flag('day2', false, f.day2To),
    ],
  }));
  const byStatus = live.some(({ f }) => f.statuses);
  const byWarehouse = live.some(({ f }) => f.warehouseId !== undefined);
  // Each group is one combination of the keys; the date bounds are flags b0, b1, …
  const keys = [
    sql`source`,
    sql`company_id`,
    sql`role`,
    ...(byStatus ? [sql`status`] : []),
    ...(byWarehouse ? [sql`warehouse_id`] : []),
    ...bounds.map((b, j) => sql`${sql.ref(b.column)} ${sql.raw(b.after ? '>=' : '<=')} ${b.value}::date as ${sql.ref(`b${j}`)}`),
  ];
  // The key's leading columns narrow the index range.
  const sources = [...new Set(wanted.map((w) => w.f.source))];
  const companies = [...new Set(wanted.map((w) => w.company))];
  const roles = [...new Set(wanted.map((w) => w.role))];
  const res = await sql<Record<string, unknown>>`select ${sql.join(keys)}, sum(n) as n, sum(qty) as qty, sum(amount) as amount,
      sum(amount2) as amount2 from ${sql.table(sumsTable(byWarehouse))}
    where source in (${sql.join(sources)}) and company_id in (${sql.join(companies)}) and role in (${sql.join(roles)})
    group by ${sql.join(keys.map((_, j) => sql.raw(String(j + 1))))}`.execute(db);
  const out: FactSums[] = filters.map(() => ZERO);
  for (const w of wanted) {
    const totals = { n: new DecimalSum(), qty: new DecimalSum(), amount: new DecimalSum(), amount2: new DecimalSum() };
    for (const g of res.rows) {
      if (g.source !== w.f.source || Number(g.company_id) !== w.company || String(g.role).trim() !== w.role) continue;
      if (w.f.statuses && !w.f.statuses.includes(String(g.status))) continue;
      if (w.f.warehouseId !== undefined && Number(g.warehouse_id) !== w.f.warehouseId) continue;
      if (!w.flags.every((b) => g[`b${b}`] === true)) continue;
      totals.n.add(g.n);
      totals.qty.add(g.qty);
      totals.amount.add(g.amount);
      totals.amount2.add(g.amount2);
    }
    out[w.i] = { n: totals.n.value, qty: totals.qty.value, amount: totals.amount.value, amount2: totals.amount2.value };
  }
  return out as { [K in keyof F]: FactSums };
}

export type GroupKey = 'status' | 'category' | 'warehouse_id' | 'month';

const groupColumn = (by: GroupKey) => (by === 'month' ? sql<string>`to_char(day, 'YYYY-MM')` : sql<string>`${sql.ref(by)}::text`);

/** Totals per group (status, category, warehouse or month of the date bucket), in key order; empty groups left out. */
export async function factGroups(db: Kysely<DB>, f: FactFilter, by: GroupKey): Promise<(FactSums & { key: string })[]> {
  return (await factGroups2(db, f, by, by)).map(({ key1, ...rest }) => ({ key: key1, ...rest }));
}

/** Totals per pair of groups (say status and category), in key order; empty groups left out. */
export async function factGroups2(
  db: Kysely<DB>,
  f: FactFilter,
  by1: GroupKey,
  by2: GroupKey,
): Promise<(FactSums & { key1: string; key2: string })[]> {
  if (f.scope.kind === 'none') return [];
  const detailed = [by1, by2].some((by) => by === 'warehouse_id' || by === 'category');
  const rows = await filtered(db, f, false, detailed)
    .select([groupColumn(by1).as('key1'), groupColumn(by2).as('key2'), ...sums])
    .groupBy([sql`1`, sql`2`])
    .having(sql<SqlBool>`sum(n) <> 0`)
    .orderBy(sql`1`)
    .orderBy(sql`2`)
    .execute();
  return rows.map((r) => ({ key1: String(r.key1), key2: String(r.key2), ...asSums(r) }));
}

/** Groups of factGroups2 summed over their second key, for the given second keys only. */
export function sumOver<T extends FactSums & { key1: string; key2: string }>(
  groups: T[],
  keep: (key2: string) => boolean,
): (FactSums & { key: string })[] {
  const out = new Map<string, FactSums & { key: string }>();
  for (const g of groups) {
    if (!keep(g.key2)) continue;
    const o = out.get(g.key1) ?? { key: g.key1, ...ZERO };
    out.set(g.key1, { key: g.key1, n: o.n + g.n, qty: o.qty + g.qty, amount: o.amount + g.amount, amount2: o.amount2 + g.amount2 });
  }
  return [...out.values()].filter((g) => g.n !== 0);
}

/** The companies that have records the filter selects, in the given role (the filter's scope is ignored). */
export async function factCompanies(db: Kysely<DB>, f: Omit<FactFilter, 'scope'> & { role: Role }): Promise<number[]> {
  const rows = await filtered(db, { ...f, scope: { kind: 'all' } }, true)
    .select('company_id')
    .groupBy('company_id')
    .having(sql<SqlBool>`sum(n) > 0`)
    .execute();
  return rows.map((r) => r.company_id);
}

/** Totals per company (company 0 left out) in the given role; the filter's scope is ignored. */
export async function factByCompany(db: Kysely<DB>, f: Omit<FactFilter, 'scope'> & { role: Role }): Promise<Map<number, FactSums>> {
  const rows = await filtered(db, { ...f, scope: { kind: 'all' } }, true)
    .select(['company_id', ...sums])
    .groupBy('company_id')
    .having(sql<SqlBool>`sum(n) > 0`)
    .execute();
  return new Map(rows.map((r) => [r.company_id, asSums(r)]));
}
