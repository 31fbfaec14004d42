import type { FastifyRequest } from 'fastify';
import { STATISTICS, type Statistic, supervision, targetBody } from '../../src/contract/supervision.js';
import { roundTo } from '../../src/shared/format.js';
import { seesAll } from '../access/company.js';
import type { App } from '../app.js';
import { currentUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { forbidden } from '../errors.js';
import { parseBody } from '../lib/body.js';
import { factByCompany, factCompanies, factTotalsAll } from '../lib/dashboard-facts.js';
import { dates, figure, three } from '../lib/dashboard-scope.js';
import { pageParams } from '../lib/paging.js';
import { registerResource, writerOf } from './register.js';

/**
 * The supervisory department's home — summaries, to-dos, costs and statistics against yearly targets —
 * and the companies behind its figures, for those of data scope 全部 only.
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

const supervisorsOnly = (req: FastifyRequest) => {
  if (!seesAll(currentUser(req))) throw forbidden('SUPERVISORS_ONLY');
};

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  /** Active companies of a type. */
  const companiesOfType = async (type: string) =>
    (await db.selectFrom('company').select('id').where('type', '=', type).where('status', '=', 1).execute()).map((r) => r.id);

  /**
   * The handler of a figure of the supervisory home, for supervisors only: cached under `key`,
   * recomputed on isRefresh=1, answered with when it was computed (also as refreshTime).
   */
  const homeFigure =
    <T extends object>(key: string, compute: () => Promise<T>) =>
    async (req: FastifyRequest & { query: { isRefresh: boolean } }) => {
      supervisorsOnly(req);
      const answer = await figure(ctx, `supervision|${key}`, req.query.isRefresh, compute);
      return { ...answer, refreshTime: answer.computedAt };
    };

  const dataSummary = homeFigure('summary', async () => {
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
  });

  const contractSummary = homeFigure('contracts', async () => {
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
  });

  const serverSummary = homeFigure('services', async () => {
    const d = dates();
    const [producers, served] = await Promise.all([
      companiesOfType(PRODUCER),
      factCompanies(db, { source: 'disposalOrder', role: 'a', statuses: LIVE_ORDER, dayFrom: d.yearStart, dayTo: d.yearEnd }),
    ]);
    const have = new Set(served);
    const haveCount = producers.filter((id) => have.has(id)).length;
    return { haveServerCompanyCount: haveCount, unServerCompanyCount: producers.length - haveCount };
  });

  const toDoData = homeFigure('todo', async () => {
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
  });

  const costInfo = homeFigure('cost', async () => {
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
  });

  const statistics = homeFigure('statistics', async () => {
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
    const values: Record<Statistic, number> = {
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
    const out: Record<string, number | null> = {};
    for (const n of STATISTICS) {
      const target = targets.find((t) => t.name === n);
      const t = target ? Number(target.value) : null;
      out[n] = values[n];
      out[`${n}Target`] = t;
      out[`${n}Progress`] = t && t > 0 ? roundTo((values[n] / t) * 100, 2) : null;
    }
    // Every statistic with its target and progress, as the contract's answer lists them.
    return { ...(out as Record<Statistic, number> & Record<`${Statistic}${'Target' | 'Progress'}`, number | null>), year: d.year };
  });

  registerResource(app, supervision, {
    dataSummary,
    contractSummary,
    serverSummary,
    toDoData,
    costInfo,
    statistics,

    target: async (req) => {
      supervisorsOnly(req);
      const body = parseBody(targetBody, req.body);
      const year = body.year ?? dates().year;
      await writerOf(req)
        .insertInto('dash_target')
        .values({ name: body.name, year, value: body.value })
        .onConflict((oc) => oc.columns(['name', 'year']).doUpdateSet({ value: body.value }))
        .execute();
      return { status: 200, message: '保存成功' };
    },

    companies: async (req) => {
      supervisorsOnly(req);
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
  });
}
