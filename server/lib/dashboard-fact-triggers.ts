import type { BusinessViewName } from './business-views.js';
import type { FactSource } from './dashboard-facts.js';

/**
 * The SQL of the facts' triggers, built as text (trigger functions cannot take parameters): for each
 * source, what a record contributes to dash_fact and dash_fact_total (SPECS), the statements that add the
 * facts of written records in the same transaction as every insert, update, delete or truncate, and those
 * that move the facts of records reading a written one (DEPENDENCIES).
 *
 * Each source record contributes to the fact rows of company 0 (everyone), of every company it involves
 * (role '*', once per record), and of each party by role: 'a' (owner, producer, payer, asker), 'b'
 * (disposer, payee, asked), 'c' (the company it was created in) and 'd' (the carrier an order names).
 * Parties are found when the record is written: by warehouse, by company id, or through the record it
 * refers to (a logistics order through its disposal order); when a record read that way changes or goes,
 * the facts of the records reading it move with it. A company's rename moves nothing: no party is found
 * by name.
 */

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
/**
 * The company the record was created in; a record written without it (plain SQL) takes its author's, by
 * the author's account id (a username can change hands).
 */
const CREATOR = `coalesce(dash_int(dash_j->>'create_company'), (select u.company_id from sys_user u where u.id = dash_int(dash_j->>'create_user')))`;

export const SPECS: Record<FactSource, SourceSpec> = {
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
export interface FactTables {
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
export function addFactsSql(
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
export const TRIGGERS = ['ins', 'upd', 'del', 'trunc'] as const;
export const triggerName = (op: (typeof TRIGGERS)[number]) => `dash_facts_${op}`;

/** Functions of one source's triggers, for its table and the tables it reads. */
export function functionsSql(source: FactSource, t: FactTables): string {
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

export function triggersSql(source: FactSource, table: string): string {
  const t = `"${table}"`;
  return [
    ...TRIGGERS.map((op) => `drop trigger if exists ${triggerName(op)} on ${t};`),
    `create trigger ${triggerName('ins')} after insert on ${t} referencing new table as dash_new for each statement execute function ${fnName(source, 'ins')}();`,
    `create trigger ${triggerName('upd')} after update on ${t} referencing old table as dash_old new table as dash_new for each statement execute function ${fnName(source, 'upd')}();`,
    `create trigger ${triggerName('del')} after delete on ${t} referencing old table as dash_old for each statement execute function ${fnName(source, 'del')}();`,
    `create trigger ${triggerName('trunc')} after truncate on ${t} for each statement execute function ${fnName(source, 'trunc')}();`,
  ].join('\n');
}
