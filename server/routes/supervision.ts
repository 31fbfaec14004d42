import { z } from 'zod';
import type { App } from '../app.js';
import { currentUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { forbidden } from '../errors.js';
import { factByCompany, factCompanies } from '../lib/dashboard-facts.js';
import { dates, seesAll, three } from '../lib/dashboard-scope.js';
import { pageNumber, pageParams } from '../lib/paging.js';
import { MICRO_TONS } from './company-api.js';

/**
 * The producing companies behind the supervisory home's figures, for the pages its tiles and pies
 * open: each with the tons it stocked in this year, whether it is party A of a contract in force, and
 * whether it had a disposal order this year. Filters: `micro=1` the small and micro companies (under
 * MICRO_TONS this year), `haveYearCount` 1/0 with or without a contract in force, `haveServerCount` 1/0
 * with or without a disposal order this year, `blurry` part of the name or credit code. The same rules
 * as the home's figures, so a tile's count is the list's total.
 */

const PRODUCER = '1';
/** Orders not cancelled (3) or rejected (4); contracts awaiting signature (1) or in force (2). */
const LIVE_ORDER = ['0', '1', '2'];
const LIVE_CONTRACT = ['1', '2'];

const flag = z.enum(['0', '1']).optional();

const row = z.object({
  id: z.number(),
  name: z.string(),
  creditCode: z.string().nullable(),
  regionFmt: z.string().nullable(),
  address: z.string().nullable(),
  contactName: z.string().nullable(),
  contactPhone: z.string().nullable(),
  yearStockTons: z.number(),
  micro: z.boolean(),
  haveContract: z.boolean(),
  haveServer: z.boolean(),
});

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  app.get(
    '/api/companyApi/homePage/companies',
    {
      config: { session: true },
      schema: {
        querystring: z.object({
          micro: flag,
          haveYearCount: flag,
          haveServerCount: flag,
          blurry: z.string().trim().max(100).optional(),
          page: pageNumber.optional(),
          size: z.coerce.number().int().min(1).max(1000).optional(),
        }),
        response: { 200: z.object({ content: z.array(row), totalElements: z.number() }) },
      },
    },
    async (req) => {
      if (!seesAll(currentUser(req))) throw forbidden('仅监管部门可查看');
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
