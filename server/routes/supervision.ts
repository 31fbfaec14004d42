import { z } from 'zod';
import { roundTo } from '../../src/shared/format.js';
import { seesAll } from '../access/company.js';
import type { App } from '../app.js';
import { currentUser, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { forbidden } from '../errors.js';
import { parseBody } from '../lib/body.js';
import { factByCompany, factCompanies, factTotalsAll } from '../lib/dashboard-facts.js';
import { dates, figure, numbers, refreshOnly, three } from '../lib/dashboard-scope.js';
import { pageFields, pageParams } from '../lib/paging.js';
import { answers, ok } from '../lib/route.js';
import { nullableText } from '../lib/sql.js';

/**
 * /api/companyApi/homePage: the supervisory department's home — summaries, to-dos, costs and statistics
 * against yearly targets — and the companies behind its figures.
 */

/** companyType values. */
const PRODUCER = '1';
const DISPOSER = '2';
const COLLECTOR = '4';

/** A producing company that stocked in less than this many tons this year counts as small or micro. */
export const MICRO_TONS = 10;

/** Statuses: orders not cancelled (3) or rejected (4); contracts signed (awaiting, in force, expired). */
const LIVE_ORDER = ['0', '1', '2'];
const ONGOING = ['0', '1'];
const SIGNED_CONTRACT = ['1', '2', '3'];
const LIVE_CONTRACT = ['1', '2'];

/** Names of the supervisory statistics, each answered with `{name}Target` and `{name}Progress`. */
export const STATISTICS = [
  'allCompany',
  'managementCompany',
  'material',
  'disposalOrder',
  'logisticsOrder',
  'disposalVolume',
  'wasteVolume',
  'contractAmount',
  'tradingVolume',
  'paymentAmount',
] as const;

/**
 * /api/companyApi/homePage/companies: the producing companies behind the supervisory home's figures, for the pages its tiles and pies
 * open: each with the tons it stocked in this year, whether it is party A of a contract in force, and
 * whether it had a disposal order this year. Filters: `micro=1` the small and micro companies (under
 * MICRO_TONS this year), `haveYearCount` 1/0 with or without a contract in force, `haveServerCount` 1/0
 * with or without a disposal order this year, `blurry` part of the name or credit code. The same rules
 * as the home's figures, so a tile's count is the list's total.
 */

const flag = z.enum(['0', '1']).optional();

const row = z.object({
  id: z.number(),
  name: z.string(),
  ...nullableText('creditCode', 'regionFmt', 'address', 'contactName', 'contactPhone'),
  yearStockTons: z.number(),
  micro: z.boolean(),
  haveContract: z.boolean(),
  haveServer: z.boolean(),
});

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  const supervisorsOnly = (u: SessionUser) => {
    if (!seesAll(u)) throw forbidden('SUPERVISORS_ONLY');
  };

  /** Active companies of a type. */
  const companiesOfType = async (type: string) =>
    (await db.selectFrom('company').select('id').where('type', '=', type).where('status', '=', 1).execute()).map((r) => r.id);

  /**
   * A figure of the supervisory home at /api/companyApi/homePage/{path}, for supervisors only: `shape`, when
   * it was computed (also as refreshTime), cached under `key` and recomputed on isRefresh=1.
   */
  const homeFigure = <S extends z.ZodRawShape>(path: string, key: string, shape: S, compute: () => Promise<z.output<z.ZodObject<S>>>) => {
    // The answer's schema checks what goes out; compute's own type checks what it returns.
    const reply: z.ZodType<object> = z.object({ ...shape, refreshTime: z.string(), computedAt: z.string() });
    app.get(`/api/companyApi/homePage/${path}`, answers({ session: true }, reply, { querystring: refreshOnly }), async (req) => {
      supervisorsOnly(currentUser(req));
      const answer = await figure(ctx, `supervision|${key}`, req.query.isRefresh, compute);
      return { ...answer, refreshTime: answer.computedAt };
    });
  };

  homeFigure(
    'dataSummary',
    'summary',
    numbers('microCompanyCount', 'yearServerCount', 'yearContractCount', 'yearTransshipmentCount'),
    async () => {
      const d = dates();
      const year = { dayFrom: d.yearStart, dayTo: d.yearEnd };
      const all = { kind: 'all' } as const;
      const [producers, stockedThisYear, [services, contracts, transfers]] = await Promise.all([
        companiesOfType(PRODUCER),
        factByCompany(db, { source: 'stockIn', role: 'a', ...year }),
        factTotalsAll(db, [
          { source: 'disposalOrder', scope: all, statuses: LIVE_ORDER, ...year },
          { source: 'contract', scope: all, statuses: SIGNED_CONTRACT, ...year },
          { source: 'logisticsOrder', scope: all, statuses: LIVE_ORDER, ...year },
        ]),
      ]);
      return {
        microCompanyCount: producers.filter((id) => (stockedThisYear.get(id)?.qty ?? 0) < MICRO_TONS).length,
        yearServerCount: services.n,
        yearContractCount: contracts.n,
        yearTransshipmentCount: transfers.n,
      };
    },
  );

  homeFigure(
    'contractSummary',
    'contracts',
    numbers('haveContractCompanyCount', 'unContractCompanyCount', 'totalContractCompanyCount'),
    async () => {
      const d = dates();
      const [producers, withContract] = await Promise.all([
        companiesOfType(PRODUCER),
        factCompanies(db, { source: 'contract', role: 'a', statuses: LIVE_CONTRACT, day2From: d.today }),
      ]);
      const have = new Set(withContract);
      const haveCount = producers.filter((id) => have.has(id)).length;
      return {
        haveContractCompanyCount: haveCount,
        unContractCompanyCount: producers.length - haveCount,
        totalContractCompanyCount: producers.length,
      };
    },
  );

  homeFigure('serverSummary', 'services', numbers('haveServerCompanyCount', 'unServerCompanyCount'), async () => {
    const d = dates();
    const [producers, served] = await Promise.all([
      companiesOfType(PRODUCER),
      factCompanies(db, { source: 'disposalOrder', role: 'a', statuses: LIVE_ORDER, dayFrom: d.yearStart, dayTo: d.yearEnd }),
    ]);
    const have = new Set(served);
    const haveCount = producers.filter((id) => have.has(id)).length;
    return { haveServerCompanyCount: haveCount, unServerCompanyCount: producers.length - haveCount };
  });

  homeFigure(
    'toDoData',
    'todo',
    numbers('unFinishTransshipmentCount', 'toDoServerCount', 'beUpdateServerCount', 'beAuditPlanCount'),
    async () => {
      const all = { kind: 'all' } as const;
      const [[transfers, toConfirm, rejected], applications] = await Promise.all([
        factTotalsAll(db, [
          { source: 'logisticsOrder', scope: all, statuses: ONGOING },
          { source: 'disposalOrder', scope: all, statuses: ['0'] },
          { source: 'disposalOrder', scope: all, statuses: ['4'] },
        ]),
        db
          .selectFrom('company_application')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', '=', 0)
          .executeTakeFirstOrThrow(),
      ]);
      return {
        // Logistics orders not yet delivered; disposal orders to confirm; rejected ones awaiting a correction; applications to review.
        unFinishTransshipmentCount: transfers.n,
        toDoServerCount: toConfirm.n,
        beUpdateServerCount: rejected.n,
        beAuditPlanCount: Number(applications.n),
      };
    },
  );

  homeFigure(
    'costInfo',
    'cost',
    numbers(
      'disposalAmount',
      'disposalQuantity',
      'avgDisposalPrice',
      'prepaidAmount',
      'freightAmount',
      'transportWeight',
      'avgFreightPerTon',
    ),
    async () => {
      const d = dates();
      const year = { dayFrom: d.yearStart, dayTo: d.yearEnd };
      const all = { kind: 'all' } as const;
      const [orders, freight] = await factTotalsAll(db, [
        { source: 'disposalOrder', scope: all, statuses: LIVE_ORDER, ...year },
        { source: 'logisticsOrder', scope: all, statuses: LIVE_ORDER, ...year },
      ]);
      const per = (a: number, q: number) => (q > 0 ? three(a / q) : 0);
      return {
        disposalAmount: three(orders.amount),
        disposalQuantity: three(orders.qty),
        avgDisposalPrice: per(orders.amount, orders.qty),
        prepaidAmount: three(orders.amount2),
        freightAmount: three(freight.amount),
        transportWeight: three(freight.qty),
        avgFreightPerTon: per(freight.amount, freight.qty),
      };
    },
  );

  const statisticsShape = Object.fromEntries(
    STATISTICS.flatMap((n) => [
      [n, z.number()],
      [`${n}Target`, z.number().nullable()],
      [`${n}Progress`, z.number().nullable()],
    ]),
  );

  homeFigure('statistics', 'statistics', { ...statisticsShape, year: z.number() }, async () => {
    const d = dates();
    const year = { dayFrom: d.yearStart, dayTo: d.yearEnd };
    const all = { kind: 'all' } as const;
    const [companies, sums, targets] = await Promise.all([
      db
        .selectFrom('company')
        .select(['type', (eb) => eb.fn.countAll<number>().as('n')])
        .where('status', '=', 1)
        .groupBy('type')
        .execute(),
      factTotalsAll(db, [
        { source: 'disposalOrder', scope: all, statuses: LIVE_ORDER, ...year },
        { source: 'disposalOrder', scope: all, statuses: ['2'], ...year },
        { source: 'logisticsOrder', scope: all, statuses: LIVE_ORDER, ...year },
        { source: 'stockIn', scope: all, ...year },
        { source: 'contract', scope: all, statuses: SIGNED_CONTRACT, ...year },
        { source: 'disposalOrder', scope: all, statuses: ONGOING, ...year },
      ]),
      db.selectFrom('dash_target').select(['name', 'value']).where('year', '=', d.year).execute(),
    ]);
    const [orders, done, logistics, stocked, contracts, ongoingPrepaid] = sums;
    const ofType = (type: string) => Number(companies.find((c) => c.type === type)?.n ?? 0);
    const values: Record<(typeof STATISTICS)[number], number> = {
      allCompany: ofType(PRODUCER),
      managementCompany: ofType(DISPOSER),
      material: ofType(COLLECTOR),
      disposalOrder: orders.n,
      logisticsOrder: logistics.n,
      disposalVolume: three(done.qty),
      wasteVolume: three(stocked.qty),
      contractAmount: three(contracts.amount),
      tradingVolume: three(orders.amount),
      paymentAmount: three(done.amount + ongoingPrepaid.amount2),
    };
    const out: Record<string, number | null> = { year: d.year };
    for (const n of STATISTICS) {
      const target = targets.find((t) => t.name === n);
      const t = target ? Number(target.value) : null;
      out[n] = values[n];
      out[`${n}Target`] = t;
      out[`${n}Progress`] = t && t > 0 ? roundTo((values[n] / t) * 100, 2) : null;
    }
    return out;
  });

  app.put(
    '/api/companyApi/homePage/target',
    answers(
      {
        session: true,
        log: '修改年度目标',
      },
      ok,
    ),
    async (req) => {
      supervisorsOnly(currentUser(req));
      const body = parseBody(
        z.object({
          name: z.enum(STATISTICS, { message: '目标名称不正确' }),
          year: z.coerce.number().int().min(2000, '年份不正确').max(2100, '年份不正确').optional(),
          value: z.coerce.number({ message: '请输入目标值' }).min(0, '目标不能为负数').max(1e15, '目标过大'),
        }),
        req.body,
      );
      const year = body.year ?? dates().year;
      await db
        .insertInto('dash_target')
        .values({ name: body.name, year, value: body.value })
        .onConflict((oc) => oc.columns(['name', 'year']).doUpdateSet({ value: body.value }))
        .execute();
      return { status: 200, message: '保存成功' };
    },
  );

  app.get(
    '/api/companyApi/homePage/companies',
    answers({ session: true }, z.object({ content: z.array(row), totalElements: z.number() }), {
      querystring: z.object({
        micro: flag,
        haveYearCount: flag,
        haveServerCount: flag,
        blurry: z.string().trim().max(100).optional(),
        ...pageFields,
      }),
    }),
    async (req) => {
      if (!seesAll(currentUser(req))) throw forbidden('SUPERVISORS_ONLY');
      const q = req.query;
      const d = dates();
      let companies = db
        .selectFrom('company')
        .select(['id', 'name', 'credit_code', 'region_fmt', 'address', 'contact_name', 'contact_phone'])
        .where('type', '=', PRODUCER)
        .where('status', '=', 1);
      if (q.blurry) {
        const like = `%${q.blurry.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        companies = companies.where((eb) => eb.or([eb('name', 'ilike', like), eb('credit_code', 'ilike', like)]));
      }
      const [list, stocked, contracted, served] = await Promise.all([
        companies.orderBy('id').execute(),
        factByCompany(db, { source: 'stockIn', role: 'a', dayFrom: d.yearStart, dayTo: d.yearEnd }),
        factCompanies(db, { source: 'contract', role: 'a', statuses: LIVE_CONTRACT, day2From: d.today }),
        factCompanies(db, { source: 'disposalOrder', role: 'a', statuses: LIVE_ORDER, dayFrom: d.yearStart, dayTo: d.yearEnd }),
      ]);
      const withContract = new Set(contracted);
      const withServer = new Set(served);
      const rows = list
        .map((c) => {
          const tons = three(stocked.get(c.id)?.qty ?? 0);
          return {
            id: c.id,
            name: c.name,
            creditCode: c.credit_code,
            regionFmt: c.region_fmt,
            address: c.address,
            contactName: c.contact_name,
            contactPhone: c.contact_phone,
            yearStockTons: tons,
            micro: tons < MICRO_TONS,
            haveContract: withContract.has(c.id),
            haveServer: withServer.has(c.id),
          };
        })
        .filter(
          (r) =>
            (q.micro === undefined || r.micro === (q.micro === '1')) &&
            (q.haveYearCount === undefined || r.haveContract === (q.haveYearCount === '1')) &&
            (q.haveServerCount === undefined || r.haveServer === (q.haveServerCount === '1')),
        );
      const { limit, offset } = pageParams(q.page, q.size);
      return { content: rows.slice(offset, offset + limit), totalElements: rows.length };
    },
  );
}
