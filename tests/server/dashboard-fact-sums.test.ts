import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FactFilter, factTotalsAll } from '../../server/lib/dashboard-facts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Several dashboard figures are read in one query: the facts grouped by what the filters tell apart,
// each filter's totals summed from its groups, from the sums per warehouse and category (dash_fact) when
// a filter names a warehouse, else from their totals (dash_fact_total, as the triggers keep it). For any
// facts and filters, each total must equal the database's own filtered sum of dash_fact, to the last
// decimal.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** Companies no seeded fact belongs to, so the test's facts are the only ones its filters see. */
const COMPANIES = [9001, 9002];

/** Clears the test companies' sums, as the triggers keep them in both tables. */
async function clear() {
  const db = server.ctx.db;
  await sql`delete from dash_fact where company_id in (${sql.join(COMPANIES)})`.execute(db);
  await sql`delete from dash_fact_total where company_id in (${sql.join(COMPANIES)})`.execute(db);
}

/** The totals of the test companies' sums over warehouse and category, as the triggers keep them. */
async function total() {
  await sql`insert into dash_fact_total (source, company_id, role, status, day, day2, n, qty, amount, amount2)
    select source, company_id, role, status, day, day2, sum(n), sum(qty), sum(amount), sum(amount2) from dash_fact
    where company_id in (${sql.join(COMPANIES)}) group by source, company_id, role, status, day, day2`.execute(server.ctx.db);
}
const DAYS = ['2026-01-01', '2026-02-15', '2026-03-31', '2026-06-30'];

const fact = fc.record({
  source: fc.constantFrom('stockIn' as const, 'contract' as const),
  company: fc.constantFrom(...COMPANIES),
  role: fc.constantFrom('*', 'a', 'b'),
  warehouse: fc.constantFrom(0, 7, 8),
  status: fc.constantFrom('0', '1', '2'),
  category: fc.constantFrom('', 'HW08', 'HW49'),
  day: fc.constantFrom(...DAYS),
  day2: fc.constantFrom(...DAYS),
  n: fc.integer({ min: -3, max: 20 }),
  qty: fc.integer({ min: -5000, max: 900_000 }).map((x) => (x / 1000).toFixed(3)),
  amount: fc.integer({ min: -100, max: 1_000_000 }).map((x) => (x / 100).toFixed(2)),
  amount2: fc.constantFrom('0', '0.1', '0.2', '1.005', '-2.5'),
});

const filter = fc.record({
  source: fc.constantFrom('stockIn' as const, 'contract' as const),
  company: fc.constantFrom(...COMPANIES),
  role: fc.constantFrom('*' as const, 'a' as const, 'b' as const),
  statuses: fc.option(fc.subarray(['0', '1', '2']), { nil: undefined }),
  warehouseId: fc.option(fc.constantFrom(0, 7, 8), { nil: undefined }),
  dayFrom: fc.option(fc.constantFrom(...DAYS), { nil: undefined }),
  dayTo: fc.option(fc.constantFrom(...DAYS), { nil: undefined }),
  day2From: fc.option(fc.constantFrom(...DAYS), { nil: undefined }),
  day2To: fc.option(fc.constantFrom(...DAYS), { nil: undefined }),
});

it('totals several filters exactly as the database sums each one', async () => {
  const db = server.ctx.db;
  await fc.assert(
    fc.asyncProperty(
      fc.uniqueArray(fact, {
        minLength: 0,
        maxLength: 40,
        selector: (f) => JSON.stringify([f.source, f.company, f.role, f.warehouse, f.status, f.category, f.day, f.day2]),
      }),
      fc.array(filter, { minLength: 1, maxLength: 6 }),
      async (facts, wanted) => {
        await clear();
        for (const f of facts)
          await sql`insert into dash_fact (source, company_id, role, warehouse_id, status, category, day, day2, n, qty, amount, amount2)
          values (${f.source}, ${f.company}, ${f.role}, ${f.warehouse}, ${f.status}, ${f.category}, ${f.day}::date, ${f.day2}::date,
            ${f.n}, ${f.qty}::numeric, ${f.amount}::numeric, ${f.amount2}::numeric)`.execute(db);
        await total();
        const filters: FactFilter[] = wanted.map((w) => ({
          source: w.source,
          scope: { kind: 'company', companyId: w.company },
          role: w.role,
          ...(w.statuses ? { statuses: w.statuses } : {}),
          ...(w.warehouseId !== undefined ? { warehouseId: w.warehouseId } : {}),
          ...(w.dayFrom ? { dayFrom: w.dayFrom } : {}),
          ...(w.dayTo ? { dayTo: w.dayTo } : {}),
          ...(w.day2From ? { day2From: w.day2From } : {}),
          ...(w.day2To ? { day2To: w.day2To } : {}),
        }));
        const got = await factTotalsAll(db, filters);
        for (const [k, w] of wanted.entries()) {
          const conds = [sql`source = ${w.source}`, sql`company_id = ${w.company}`, sql`role = ${w.role}`];
          if (w.statuses) conds.push(w.statuses.length ? sql`status in (${sql.join(w.statuses)})` : sql`false`);
          if (w.warehouseId !== undefined) conds.push(sql`warehouse_id = ${w.warehouseId}`);
          if (w.dayFrom) conds.push(sql`day >= ${w.dayFrom}::date`);
          if (w.dayTo) conds.push(sql`day <= ${w.dayTo}::date`);
          if (w.day2From) conds.push(sql`day2 >= ${w.day2From}::date`);
          if (w.day2To) conds.push(sql`day2 <= ${w.day2To}::date`);
          const r = await sql<Record<string, unknown>>`select coalesce(sum(n), 0) as n, coalesce(sum(qty), 0) as qty,
            coalesce(sum(amount), 0) as amount, coalesce(sum(amount2), 0) as amount2
          from dash_fact where ${sql.join(conds, sql` and `)}`.execute(db);
          const want = r.rows[0] ?? {};
          expect(got[k]).toEqual({ n: Number(want.n), qty: Number(want.qty), amount: Number(want.amount), amount2: Number(want.amount2) });
        }
      },
    ),
    { numRuns: 60 },
  );
  await clear();
});

it('adds the groups of a figure as decimals: 0.1 t and 0.2 t make 0.3 t', async () => {
  const db = server.ctx.db;
  const [company] = COMPANIES as [number];
  for (const [status, qty] of [
    ['0', '0.1'],
    ['1', '0.2'],
  ])
    await sql`insert into dash_fact (source, company_id, role, status, n, qty) values ('stockIn', ${company}, '*', ${status}, 1, ${qty}::numeric)`.execute(
      db,
    );
  await total();
  const scope = { kind: 'company', companyId: company } as const;
  const [all, first] = await factTotalsAll(db, [
    { source: 'stockIn', scope },
    { source: 'stockIn', scope, statuses: ['0'] },
  ]);
  expect(all).toEqual({ n: 2, qty: 0.3, amount: 0, amount2: 0 });
  expect(first).toEqual({ n: 1, qty: 0.1, amount: 0, amount2: 0 });
  await clear();
});
