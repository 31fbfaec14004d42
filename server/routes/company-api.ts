import { SignJWT } from 'jose';
import { z } from 'zod';
import { roundTo } from '../../src/shared/format.js';
import { parseSiteRules, SITE_KINDS, siteOfHost } from '../../src/shared/site.js';
import type { App } from '../app.js';
import { currentUser, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { PHONE_RE } from '../lib/accounts-users.js';
import { parseBody } from '../lib/body.js';
import { factByCompany, factCompanies, factTotalsAll, NAMED_PARTY_SOURCES, rebuildFacts } from '../lib/dashboard-facts.js';
import { dates, figure, isRefreshParam, isSupervisor, seesAll, three } from '../lib/dashboard-scope.js';
import { dictLabels } from '../lib/dict-labels.js';
import { dbId } from '../lib/sql.js';

/**
 * Company information and the supervisory home: the company behind an account (and its filling-system
 * entry), the supervisory department's summaries, to-dos, costs and statistics against yearly targets,
 * the filling-system token, and which entry site a host name is.
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

/** The filling-system token lives this long. */
const GUFEI_TOKEN_MINUTES = 30;
export const GUFEI_OK = '00000';

const ok = z.object({ status: z.number(), message: z.string() });
const refreshOnly = z.object({ isRefresh: isRefreshParam });

const companyInfo = z.object({
  id: z.number().nullable(),
  name: z.string().nullable(),
  type: z.string().nullable(),
  typeLabel: z.string().nullable(),
  creditCode: z.string().nullable(),
  bciId: z.string().nullable(),
  deptCode: z.string().nullable(),
  region: z.string().nullable(),
  regionFmt: z.string().nullable(),
  address: z.string().nullable(),
  contactName: z.string().nullable(),
  contactPhone: z.string().nullable(),
  status: z.number().nullable(),
  /** Whether the dashboard lists the filling-system entries: not the supervisory department, and a company id (bciId) on file. */
  fillingEntry: z.boolean(),
});

const CREDIT_CODE = /^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/;
const optionalText = (max: number, message: string) => z.string().trim().max(max, message).nullish();

const updateBody = z.object({
  id: dbId.optional(),
  name: z.string().trim().min(1, '企业名称不能为空').max(255, '企业名称不能超过255个字符').optional(),
  creditCode: optionalText(18, '统一社会信用代码格式不正确'),
  bciId: optionalText(64, '企业编号不能超过64个字符'),
  region: optionalText(255, '地区过长'),
  regionFmt: optionalText(255, '地区过长'),
  address: optionalText(512, '地址不能超过512个字符'),
  contactName: optionalText(100, '联系人不能超过100个字符'),
  contactPhone: optionalText(20, '手机号格式错误'),
});

const emptyToNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim());

export const CODE_TAKEN = {
  creditCode: '该统一社会信用代码已被其他企业使用',
  bciId: '该企业编号已被其他企业使用',
} as const;

/** The unique indexes on company codes, and what a clash on each one answers. */
const CODE_INDEXES: Record<string, string> = {
  company_credit_code_unique: CODE_TAKEN.creditCode,
  company_bci_id_unique: CODE_TAKEN.bciId,
};

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;
  const siteRules = parseSiteRules(ctx.config.siteHosts);
  for (const p of siteRules.problems) app.log.warn(`SITE_HOSTS: ${p}`);

  const supervisorsOnly = (u: SessionUser) => {
    if (!seesAll(u)) throw forbidden('仅监管部门可查看');
  };

  // ----- the company behind an account -----

  app.get(
    '/api/companyApi/info',
    {
      config: { session: true },
      schema: { querystring: z.object({ deptCode: z.string().max(64).optional() }), response: { 200: companyInfo } },
    },
    async (req) => {
      const u = currentUser(req);
      const asked = req.query.deptCode?.trim();
      let q = db.selectFrom('company').selectAll();
      // Those who see every company may ask for any company's code; everyone else gets their own company.
      if (seesAll(u) && asked && asked !== u.deptCode) q = q.where('dept_code', '=', asked);
      else q = q.where('id', '=', u.companyId ?? -1);
      const c = await q.orderBy('id').executeTakeFirst();
      const types = await dictLabels(db, 'companyType');
      return {
        id: c?.id ?? null,
        name: c?.name ?? null,
        type: c?.type ?? null,
        typeLabel: c ? (types.get(c.type) ?? null) : null,
        creditCode: c?.credit_code ?? null,
        bciId: c?.bci_id ?? null,
        deptCode: c?.dept_code ?? null,
        region: c?.region ?? null,
        regionFmt: c?.region_fmt ?? null,
        address: c?.address ?? null,
        contactName: c?.contact_name ?? null,
        contactPhone: c?.contact_phone ?? null,
        status: c?.status ?? null,
        fillingEntry: !isSupervisor(u) && !!c?.bci_id,
      };
    },
  );

  app.post(
    '/api/companyApi/update',
    {
      config: {
        session: true,
        log: '修改企业信息',
      },
      schema: { response: { 200: ok } },
    },
    async (req) => {
      const u = currentUser(req);
      const b = parseBody(updateBody, req.body);
      const isAdmin = u.isAdmin || u.roles.includes('admin');
      const id = isAdmin ? (b.id ?? u.companyId) : u.companyId;
      if (!id) throw badRequest('当前账号未关联企业');
      if (!isAdmin && b.id !== undefined && b.id !== u.companyId) throw forbidden('不能修改其他企业的信息');
      const creditCode = emptyToNull(b.creditCode);
      if (creditCode && !CREDIT_CODE.test(creditCode)) throw badRequest('统一社会信用代码格式不正确');
      const contactPhone = emptyToNull(b.contactPhone);
      if (contactPhone && !PHONE_RE.test(contactPhone)) throw badRequest('手机号格式错误');
      const before = await db.selectFrom('company').select('name').where('id', '=', id).executeTakeFirst();
      if (!before) throw notFound('企业不存在');
      if (b.name && b.name !== before.name) {
        const taken = await db.selectFrom('company').select('id').where('name', '=', b.name).where('id', '<>', id).executeTakeFirst();
        if (taken) throw badRequest('企业名称已存在');
      }
      // The filling-system token is found by any of a company's codes: a code may name one company only,
      // whichever of its codes another company holds it as.
      const bciId = b.bciId !== undefined ? (emptyToNull(b.bciId) ?? null) : undefined;
      const codeTaken = async (code: string) =>
        !!(await db
          .selectFrom('company')
          .select('id')
          .where('id', '<>', id)
          .where((eb) => eb.or([eb('credit_code', '=', code), eb('bci_id', '=', code), eb('dept_code', '=', code)]))
          .executeTakeFirst());
      if (creditCode && (await codeTaken(creditCode))) throw badRequest(CODE_TAKEN.creditCode);
      if (bciId && (await codeTaken(bciId))) throw badRequest(CODE_TAKEN.bciId);
      const set = {
        ...(b.name ? { name: b.name } : {}),
        ...(creditCode !== undefined ? { credit_code: creditCode } : {}),
        ...(bciId !== undefined ? { bci_id: bciId } : {}),
        ...(b.region !== undefined ? { region: emptyToNull(b.region) ?? null } : {}),
        ...(b.regionFmt !== undefined ? { region_fmt: emptyToNull(b.regionFmt) ?? null } : {}),
        ...(b.address !== undefined ? { address: emptyToNull(b.address) ?? null } : {}),
        ...(b.contactName !== undefined ? { contact_name: emptyToNull(b.contactName) ?? null } : {}),
        ...(contactPhone !== undefined ? { contact_phone: contactPhone } : {}),
      };
      try {
        if (Object.keys(set).length) await db.updateTable('company').set(set).where('id', '=', id).execute();
      } catch (e) {
        // Another company took the code between the check and this write: the unique index says which.
        const clash = e as { code?: string; constraint?: string; message?: string };
        if (clash.code === '23505') {
          const index = Object.keys(CODE_INDEXES).find((k) => clash.constraint === k || clash.message?.includes(k));
          throw badRequest(index ? (CODE_INDEXES[index] as string) : '企业信息与其他企业重复');
        }
        throw e;
      }
      // Contracts and orders name their companies: a renamed company's records are attributed again.
      if (b.name && b.name !== before.name) {
        await rebuildFacts(ctx, NAMED_PARTY_SOURCES);
        // Sessions hold their company's name, by which records name their parties.
        ctx.sessions.invalidate();
      }
      return { status: 200, message: '保存成功' };
    },
  );

  // ----- the supervisory home -----

  /** Active companies of a type. */
  const companiesOfType = async (type: string) =>
    (await db.selectFrom('company').select('id').where('type', '=', type).where('status', '=', 1).execute()).map((r) => r.id);

  app.get(
    '/api/companyApi/homePage/dataSummary',
    {
      config: { session: true },
      schema: {
        querystring: refreshOnly,
        response: {
          200: z.object({
            microCompanyCount: z.number(),
            yearServerCount: z.number(),
            yearContractCount: z.number(),
            yearTransshipmentCount: z.number(),
            refreshTime: z.string(),
            computedAt: z.string(),
          }),
        },
      },
    },
    async (req) => {
      supervisorsOnly(currentUser(req));
      const answer = await figure(ctx, 'supervision|summary', req.query.isRefresh, async () => {
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
      return { ...answer, refreshTime: answer.computedAt };
    },
  );

  app.get(
    '/api/companyApi/homePage/contractSummary',
    {
      config: { session: true },
      schema: {
        querystring: refreshOnly,
        response: {
          200: z.object({
            haveContractCompanyCount: z.number(),
            unContractCompanyCount: z.number(),
            totalContractCompanyCount: z.number(),
            refreshTime: z.string(),
            computedAt: z.string(),
          }),
        },
      },
    },
    async (req) => {
      supervisorsOnly(currentUser(req));
      const answer = await figure(ctx, 'supervision|contracts', req.query.isRefresh, async () => {
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
      return { ...answer, refreshTime: answer.computedAt };
    },
  );

  app.get(
    '/api/companyApi/homePage/serverSummary',
    {
      config: { session: true },
      schema: {
        querystring: refreshOnly,
        response: {
          200: z.object({
            haveServerCompanyCount: z.number(),
            unServerCompanyCount: z.number(),
            refreshTime: z.string(),
            computedAt: z.string(),
          }),
        },
      },
    },
    async (req) => {
      supervisorsOnly(currentUser(req));
      const answer = await figure(ctx, 'supervision|services', req.query.isRefresh, async () => {
        const d = dates();
        const [producers, served] = await Promise.all([
          companiesOfType(PRODUCER),
          factCompanies(db, { source: 'disposalOrder', role: 'a', statuses: LIVE_ORDER, dayFrom: d.yearStart, dayTo: d.yearEnd }),
        ]);
        const have = new Set(served);
        const haveCount = producers.filter((id) => have.has(id)).length;
        return { haveServerCompanyCount: haveCount, unServerCompanyCount: producers.length - haveCount };
      });
      return { ...answer, refreshTime: answer.computedAt };
    },
  );

  app.get(
    '/api/companyApi/homePage/toDoData',
    {
      config: { session: true },
      schema: {
        querystring: refreshOnly,
        response: {
          200: z.object({
            unFinishTransshipmentCount: z.number(),
            toDoServerCount: z.number(),
            beUpdateServerCount: z.number(),
            beAuditPlanCount: z.number(),
            refreshTime: z.string(),
            computedAt: z.string(),
          }),
        },
      },
    },
    async (req) => {
      supervisorsOnly(currentUser(req));
      const answer = await figure(ctx, 'supervision|todo', req.query.isRefresh, async () => {
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
      return { ...answer, refreshTime: answer.computedAt };
    },
  );

  app.get(
    '/api/companyApi/homePage/costInfo',
    {
      config: { session: true },
      schema: {
        querystring: refreshOnly,
        response: {
          200: z.object({
            disposalAmount: z.number(),
            disposalQuantity: z.number(),
            avgDisposalPrice: z.number(),
            prepaidAmount: z.number(),
            freightAmount: z.number(),
            transportWeight: z.number(),
            avgFreightPerTon: z.number(),
            refreshTime: z.string(),
            computedAt: z.string(),
          }),
        },
      },
    },
    async (req) => {
      supervisorsOnly(currentUser(req));
      const answer = await figure(ctx, 'supervision|cost', req.query.isRefresh, async () => {
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
      return { ...answer, refreshTime: answer.computedAt };
    },
  );

  const statisticsShape = Object.fromEntries(
    STATISTICS.flatMap((n) => [
      [n, z.number()],
      [`${n}Target`, z.number().nullable()],
      [`${n}Progress`, z.number().nullable()],
    ]),
  );

  app.get(
    '/api/companyApi/homePage/statistics',
    {
      config: { session: true },
      schema: {
        querystring: refreshOnly,
        response: { 200: z.object({ ...statisticsShape, year: z.number(), refreshTime: z.string(), computedAt: z.string() }) },
      },
    },
    async (req) => {
      supervisorsOnly(currentUser(req));
      const answer = await figure(ctx, 'supervision|statistics', req.query.isRefresh, async () => {
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
      return { ...answer, refreshTime: answer.computedAt } as never;
    },
  );

  app.put(
    '/api/companyApi/homePage/target',
    {
      config: {
        session: true,
        log: '修改年度目标',
      },
      schema: { response: { 200: ok } },
    },
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

  // ----- the environmental authority's filling system -----

  app.get(
    '/api/guFeiUrl/getTokenByCompayCode',
    {
      config: { session: true },
      schema: {
        querystring: z.object({ CompanyCode: z.string().max(64).optional(), companyCode: z.string().max(64).optional() }),
        response: {
          200: z.object({
            code: z.string(),
            message: z.string(),
            data: z
              .object({
                token: z.string(),
                companyCode: z.string(),
                baseUrl: z.string(),
                dangerUrl: z.string(),
                planUrl: z.string(),
                expiresAt: z.number(),
              })
              .nullable(),
          }),
        },
      },
    },
    async (req) => {
      const u = currentUser(req);
      const code = (req.query.CompanyCode ?? req.query.companyCode ?? '').trim();
      const base = ctx.config.gufeiBaseUrl;
      if (!base) return { code: 'A0500', message: '未配置固废管理信息系统地址', data: null };
      if (isSupervisor(u)) return { code: 'A0403', message: '监管部门无需填报', data: null };
      if (!code) return { code: 'A0400', message: '企业编号不能为空', data: null };
      let q = db
        .selectFrom('company')
        .select(['id', 'bci_id', 'credit_code', 'dept_code'])
        .where((eb) => eb.or([eb('bci_id', '=', code), eb('credit_code', '=', code), eb('dept_code', '=', code)]));
      if (!seesAll(u)) q = q.where('id', '=', u.companyId ?? -1);
      const company = await q.orderBy('id').executeTakeFirst();
      if (!company) return { code: 'A0404', message: '企业不存在或不属于当前账号', data: null };
      const expiresAt = Date.now() + GUFEI_TOKEN_MINUTES * 60_000;
      const token = await new SignJWT({ companyId: company.id, username: u.username })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(company.bci_id ?? company.credit_code ?? code)
        .setAudience('gufei')
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt / 1000))
        .sign(ctx.secrets.jwtSecret);
      const root = base.endsWith('/') ? base : `${base}/`;
      const withToken = (path: string) => `${root}${path}?token=${encodeURIComponent(token)}`;
      return {
        code: GUFEI_OK,
        message: '成功',
        data: {
          token,
          companyCode: code,
          baseUrl: root,
          dangerUrl: withToken('order/danger'),
          planUrl: withToken('plan/query'),
          expiresAt,
        },
      };
    },
  );

  // ----- entry site by host name (public: the login page reads it) -----

  app.get(
    '/api/site',
    {
      config: { public: true },
      schema: {
        response: {
          200: z.object({
            kind: z.enum(SITE_KINDS),
            label: z.string(),
            color: z.string(),
            host: z.string(),
            systemName: z.string().nullable(),
          }),
        },
      },
    },
    async (req) => {
      const site = siteOfHost(req.hostname, siteRules.rules);
      const name = await db.selectFrom('sys_setting').select('value').where('name', '=', 'system_name').executeTakeFirst();
      return { ...site, host: req.hostname, systemName: name?.value ?? null };
    },
  );
}
