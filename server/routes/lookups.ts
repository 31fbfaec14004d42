import { type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import { scopeCompany, seesAll } from '../access/company.js';
import { requireLookup } from '../access/lookups.js';
import type { App } from '../app.js';
import type { SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, forbidden } from '../errors.js';
import { sameCode } from '../lib/company-codes.js';
import { optionalIdOf, pageFields } from '../lib/paging.js';
import { answers } from '../lib/route.js';
import { containing, isDbId, pageOf } from '../lib/sql.js';
import { companyTypes } from '../lowcode/reference-labels.js';

export interface RegionNode {
  value: string;
  label: string;
  children?: RegionNode[];
}

/** The dashboard counts the contracts that end within this many days. */
const EXPIRING_DAYS = 30;

/** Lists about companies are for accounts of a company (which see their own) and those who see all. */
function requireCompanyScope(u: SessionUser): SessionUser {
  if (!seesAll(u) && !u.companyId) throw forbidden('NO_COMPANY_DATA');
  return u;
}

const optionalId = optionalIdOf('企业编号不正确');

/**
 * Who reads which list: reference data (disposal processes) needs a session; lists of the caller's own
 * company (warehouses, unloading points, linkmen, contracts; every company for those who see all) need an
 * account of a company; lists about other companies need the permission of the page that picks from them
 * (the manual disposal order: disposalOrder:add) or the list permission of a view whose field draws its
 * options from them (see requireLookup).
 */
const MANUAL_ORDER = ['disposalOrder:add'];

/** Option lists answer every row; page and size are accepted for the callers that send them. */
const listQuery = z.object({ companyId: optionalId, ...pageFields });

const nullableString = z.string().nullable();
const warehouseRow = z.object({
  id: z.number(),
  region: nullableString,
  regionFmt: nullableString,
  address: nullableString,
  linkmanId: z.number().nullable(),
  linkmanName: nullableString,
  phone: nullableString,
});
const categoryRow = z.object({ code: z.string(), name: z.string(), category: z.string() });
const processRow = z.object({ id: z.number(), name: z.string(), code: z.string(), pid: z.number().nullable() });
const page = pageOf;

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  // The tree only changes with a new seed or migration, so it is built once per process.
  let regionTree: Promise<RegionNode[]> | null = null;
  const buildRegionTree = async (): Promise<RegionNode[]> => {
    const rows = await db.selectFrom('region').select(['code', 'parent_code', 'name']).orderBy('level').orderBy('code').execute();
    const nodes = new Map<string, RegionNode>();
    const roots: RegionNode[] = [];
    for (const r of rows) {
      const node: RegionNode = { value: r.code, label: r.name };
      nodes.set(r.code, node);
      const parent = r.parent_code ? nodes.get(r.parent_code) : undefined;
      if (parent) {
        parent.children ??= [];
        parent.children.push(node);
      } else if (!r.parent_code) roots.push(node);
    }
    return roots;
  };

  const regionNode: z.ZodType<RegionNode> = z.lazy(() =>
    z.object({ value: z.string(), label: z.string(), children: z.array(regionNode).optional() }),
  );

  // Public: the apply-to-join dialog on the login page picks the company's region before anyone is signed in.
  app.get('/api/region/regionTreeList', answers({ public: true }, z.array(regionNode)), async (_req, reply) => {
    regionTree ??= buildRegionTree().catch((e) => {
      regionTree = null;
      throw e;
    });
    reply.header('cache-control', 'public, max-age=3600');
    return regionTree;
  });

  const warehouses = (u: SessionUser, asked: number | undefined) => {
    const company = scopeCompany(u, asked);
    let q = db
      .selectFrom('company_warehouse as w')
      .leftJoin('company_linkman as l', 'l.id', 'w.linkman_id')
      .select([
        'w.id',
        'w.name',
        'w.region',
        'w.region_fmt as regionFmt',
        'w.address',
        'w.linkman_id as linkmanId',
        'l.name as linkmanName',
        'l.phone',
      ]);
    if (company === undefined) q = q.where(sql<SqlBool>`false`);
    else if (company !== null) q = q.where('w.company_id', '=', company);
    return q.orderBy('w.id');
  };

  app.get(
    '/api/companyWarehouse/list',
    answers({ session: true }, page(warehouseRow.extend({ name: z.string() })), { querystring: listQuery }),
    async (req) => {
      const content = await warehouses(requireCompanyScope(req.user!), req.query.companyId).execute();
      return { content, totalElements: content.length };
    },
  );

  app.get(
    '/api/companyWarehouse/unloadingPoint',
    answers({ session: true }, z.object({ status: z.literal(200), data: z.array(warehouseRow.extend({ name: z.string() })) }), {
      querystring: listQuery,
    }),
    async (req) => {
      const data = await warehouses(requireCompanyScope(req.user!), req.query.companyId).where('w.unloading_point', '=', true).execute();
      return { status: 200 as const, data };
    },
  );

  app.get(
    '/api/companyLinkman/list',
    answers({ session: true }, page(z.object({ id: z.number(), name: z.string(), phone: nullableString, position: nullableString })), {
      querystring: listQuery,
    }),
    async (req) => {
      const company = scopeCompany(requireCompanyScope(req.user!), req.query.companyId);
      let q = db.selectFrom('company_linkman').select(['id', 'name', 'phone', 'position']);
      if (company === undefined) q = q.where(sql<SqlBool>`false`);
      else if (company !== null) q = q.where('company_id', '=', company);
      const content = await q.orderBy('id').execute();
      return { content, totalElements: content.length };
    },
  );

  // Company picker of forms (the inquiry's asked disposer, a contract's or an order's parties): active
  // companies, of one type or of several joined by commas.
  app.get(
    '/api/company/list',
    answers({ session: true }, page(z.object({ id: z.number(), name: z.string(), type: z.string() })), {
      querystring: z.object({ type: z.string().max(20).optional(), blurry: z.string().max(100).optional() }),
    }),
    async (req) => {
      await requireLookup(ctx, req, '/api/company/list', MANUAL_ORDER);
      let q = db.selectFrom('company').select(['id', 'name', 'type']).where('status', '=', 1);
      const types = companyTypes(req.query.type);
      if (types.length) q = q.where('type', 'in', types);
      const b = req.query.blurry?.trim();
      if (b) q = q.where('name', 'ilike', containing(b));
      const content = await q.orderBy('id').execute();
      return { content, totalElements: content.length };
    },
  );

  const categoriesOf = async (companyId: number | null | undefined) => {
    if (!companyId) return [];
    return db
      .selectFrom('company_waste_category as cw')
      .innerJoin('waste_category as w', 'w.code', 'cw.code')
      .select(['w.code', 'w.name', 'w.category'])
      .where('cw.company_id', '=', companyId)
      .orderBy('w.category')
      .orderBy('w.code')
      .execute();
  };

  app.get('/api/myWasteCategory', answers({ session: true }, page(categoryRow)), async (req) => {
    const content = await categoriesOf(req.user!.companyId);
    return { content, totalElements: content.length };
  });

  // Another company's categories: for those who pick them for an order (a disposer fills orders with the producer's).
  app.get('/api/companyWasteCategory', answers({ session: true }, page(categoryRow), { querystring: listQuery }), async (req) => {
    const asked = req.query.companyId;
    if (asked !== undefined && asked !== req.user!.companyId) {
      await requireLookup(ctx, req, '/api/companyWasteCategory', [...MANUAL_ORDER, 'disposalOrder:edit']);
    }
    const content = await categoriesOf(asked ?? req.user!.companyId);
    return { content, totalElements: content.length };
  });

  // The disposal processes under one parent (null: the top level), in their order, as one whole page.
  const processesUnder = async (pid: number | null) => {
    const q = db.selectFrom('disposal_process').select(['id', 'name', 'code', 'pid']);
    const content = await (pid === null ? q.where('pid', 'is', null) : q.where('pid', '=', pid)).orderBy('sort').orderBy('id').execute();
    return { content, totalElements: content.length };
  };

  app.get(
    '/api/getUserProcessPrimary',
    answers({ session: true }, page(processRow), { querystring: listQuery.omit({ companyId: true }) }),
    () => processesUnder(null),
  );

  app.get(
    '/api/getUserProcess',
    answers({ session: true }, page(processRow), { querystring: z.object({ processID: z.string().optional(), ...pageFields }) }),
    async (req) => {
      const raw = req.query.processID?.trim();
      const processId = Number(raw);
      if (!raw || !isDbId(processId)) throw badRequest('PROCESS_REQUIRED');
      return processesUnder(processId);
    },
  );

  app.get(
    '/api/disposalOrder/effectiveContract',
    answers(
      { session: true },
      z.object({
        status: z.literal(200),
        data: z.array(
          z.object({
            id: z.number(),
            contractNo: z.string(),
            partyAName: nullableString,
            partyAPhone: nullableString,
            partyARegionFmt: nullableString,
            partyAAddress: nullableString,
            partyAUserId: z.number().nullable(),
            partyARegion: nullableString,
            beginTime: z.string(),
            endTime: z.string(),
            filePath: nullableString,
          }),
        ),
      }),
      { querystring: z.object({ partyACompany: z.string().max(64).optional() }) },
    ),
    async (req) => {
      const u = requireCompanyScope(req.user!);
      const key = req.query.partyACompany?.trim();
      if (!key) throw badRequest('PARTY_A_REQUIRED');
      // The company picker may hand over the id or the company's code (dept or credit code).
      const asId = /^\d{1,9}$/.test(key) ? Number(key) : -1;
      let q = db
        .selectFrom('company_contract as c')
        .innerJoin('company as a', 'a.id', 'c.party_a_company')
        .select([
          'c.id',
          'c.contract_no as contractNo',
          'c.party_a_name as partyAName',
          'c.party_a_phone as partyAPhone',
          'c.party_a_region_fmt as partyARegionFmt',
          'c.party_a_address as partyAAddress',
          'c.party_a_user_id as partyAUserId',
          'c.party_a_region as partyARegion',
          sql<string>`to_char(c.begin_time, 'YYYY-MM-DD')`.as('beginTime'),
          sql<string>`to_char(c.end_time, 'YYYY-MM-DD')`.as('endTime'),
          'c.file_path as filePath',
        ])
        .where((eb) => eb.or([eb('a.id', '=', asId), sameCode('a.dept_code', key), sameCode('a.credit_code', key)]))
        .where(sql<SqlBool>`c.end_time >= current_date`);
      // Others only see the contracts their own company is a party to.
      if (!seesAll(u)) {
        const own = u.companyId ?? -1;
        q = q.where((eb) => eb.or([eb('c.party_a_company', '=', own), eb('c.party_b_company', '=', own)]));
      }
      const data = await q.orderBy('c.end_time').orderBy('c.id').execute();
      return { status: 200 as const, data };
    },
  );

  app.get('/api/expiringContracts', answers({ session: true }, z.object({ count: z.number() })), async (req) => {
    const u = req.user!;
    let q = db
      .selectFrom('company_contract as c')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(sql<SqlBool>`c.end_time between current_date and current_date + ${EXPIRING_DAYS}::integer`);
    if (u.companyId) {
      const own = u.companyId;
      q = q.where((eb) => eb.or([eb('c.party_a_company', '=', own), eb('c.party_b_company', '=', own)]));
    } else if (!seesAll(u)) {
      return { count: 0 };
    }
    const row = await q.executeTakeFirstOrThrow();
    return { count: Number(row.n) };
  });
}
