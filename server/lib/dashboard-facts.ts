import { type Kysely, type SqlBool, sql } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * The dashboards' figures are sums over business records. Summing 100,000 records per request is too
 * slow for a dashboard, so dash_fact holds running sums that statement-level triggers on each source
 * view's table update in the same transaction as every insert, update, delete or truncate — through
 * /api/general, imports, scripts or plain SQL alike (see dashboard-fact-triggers.ts, installed by
 * ensureFacts). A figure is then a read of a handful of fact rows and always equals the records as they
 * are committed. This file reads them.
 */

export const FACT_SOURCES = ['stockIn', 'disposalInquiry', 'contract', 'disposalOrder', 'logisticsOrder', 'vehicle'] as const;
export type FactSource = (typeof FACT_SOURCES)[number];

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
