import { type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import { decimalPlaces } from '../../src/model/index.js';
import type { App } from '../app.js';
import { currentUser, hasPermission, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { parseBody } from '../lib/body.js';
import { warehouseWithin } from '../lib/business-records.js';
import { type FactSums, factGroups2, factTotalsAll, type Scope, sumOver } from '../lib/dashboard-facts.js';
import { dates, figure, isRefreshParam, optionalIdParam, scopeKey, scopeOf, seesAll, three } from '../lib/dashboard-scope.js';
import { dictLabels, dictLabelsOf } from '../lib/dict-labels.js';
import { pageNumber, paginate } from '../lib/paging.js';
import { boundedInt, dbId, INT4_MAX, pageOf, WIRE_TIME_FORMAT } from '../lib/sql.js';

/**
 * The company dashboard: inventory and order tiles, finance, bulletins, warehouse inventories and the
 * inventory limits they are checked against. Every figure is a sum over the records of the business
 * views (see server/lib/dashboard-facts.ts), for the user's company — or every company for
 * administrators and the supervisory department — and answers when it was computed (computedAt).
 */

/** Stock-in statuses (stockStatus): 0 awaiting stock-in, 1 in stock, 2 shipped out. Held waste is 0 and 1. */
const HELD = ['0', '1'] as const;
const IN_STOCK = ['1'] as const;
/** Inquiries awaiting a quote (0) or quoted (1); closed (2) and rejected (3) are over. */
const OPEN_INQUIRY = ['0', '1'] as const;
/** Orders to be confirmed (0) or under way (1); done (2), cancelled (3) and rejected (4) are over. */
const ONGOING = ['0', '1'] as const;
const DONE = ['2'] as const;
/** Contracts awaiting signature (1) or in force (2). */
const LIVE_CONTRACT = ['1', '2'] as const;
/** The fourth order tile counts the contracts that end within this many days. */
export const EXPIRING_DAYS = 30;

const OK = { status: 200, message: '操作成功' };
const ok = z.object({ status: z.number(), message: z.string() });

const refreshOnly = z.object({ isRefresh: isRefreshParam });
const warehouseQuery = z.object({ warehouseId: optionalIdParam, isRefresh: isRefreshParam });

const inventorySchema = z.object({
  inventoryTotal: z.number(),
  inquiringNum: z.number(),
  disposalNum: z.number(),
  inNum: z.number(),
  warehouseId: z.number().nullable(),
  computedAt: z.string(),
});

const share = z.object({ key: z.string(), name: z.string(), quantity: z.number(), count: z.number(), ratio: z.number() });

const ratioSchema = z.object({
  inventoryTotal: z.number(),
  categories: z.array(share),
  statuses: z.array(share),
  warehouseId: z.number().nullable(),
  computedAt: z.string(),
});

const ordersSchema = z.object({
  ongoingDisposalInquiry: z.number(),
  ongoingDisposalOrder: z.number(),
  ongoingLogisticsOrder: z.number(),
  count: z.number(),
  countLabel: z.string(),
  computedAt: z.string(),
});

const financeSchema = z.object({
  payable: z.number(),
  yearPaid: z.number(),
  receivable: z.number(),
  yearReceived: z.number(),
  computedAt: z.string(),
});

const bulletinRow = z.object({
  id: z.number(),
  title: z.string(),
  content: z.string(),
  status: z.number(),
  views: z.number(),
  createBy: z.string().nullable(),
  createTime: z.string(),
});

const configRow = z.object({
  id: z.number(),
  companyId: z.number(),
  companyName: z.string().nullable(),
  warehouseId: z.number().nullable(),
  warehouseName: z.string().nullable(),
  wasteCategory: z.string().nullable(),
  maxQuantity: z.number(),
  remark: z.string().nullable(),
  createTime: z.string(),
});

/** A quantity in tons: more than 0, at most 3 decimals. */
const tons = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\s*\d+(\.\d+)?\s*$/, '请输入正确的数量')
      .transform(Number),
  ])
  .pipe(
    z
      .number()
      .gt(0, '数量必须大于0')
      .lt(1e13, '数量过大')
      .refine((n) => decimalPlaces(n) <= 3, '数量最多保留3位小数'),
  );

const configBody = z.object({
  id: dbId.optional(),
  companyId: optionalIdParam,
  warehouseId: optionalIdParam.nullable(),
  wasteCategory: z.string().trim().max(40).nullish(),
  maxQuantity: tons,
  remark: z.string().trim().max(255).nullish(),
});

const ratioOf = (part: number, total: number) => (total > 0 ? Math.round((part / total) * 10_000) / 10_000 : 0);

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  /** A warehouse the user may look at: their company's own, any for those who see every company; another's is missing. */
  async function checkWarehouse(u: SessionUser, warehouseId: number | undefined): Promise<void> {
    if (warehouseId === undefined) return;
    if (!(await warehouseWithin(db, u, warehouseId))) throw notFound('仓库不存在');
  }

  const inventory = async (scope: Scope, warehouseId: number | undefined) => {
    const stock = { source: 'stockIn' as const, scope, role: 'a' as const, warehouseId };
    const [held, inStock, inquiring, disposal] = await factTotalsAll(db, [
      { ...stock, statuses: HELD },
      { ...stock, statuses: IN_STOCK },
      // Inquiries name no warehouse: the company's open inquiries, whichever warehouse is picked.
      { source: 'disposalInquiry', scope, statuses: OPEN_INQUIRY },
      { source: 'disposalOrder', scope, statuses: ONGOING, warehouseId },
    ]);
    return {
      inventoryTotal: three(held.qty),
      inquiringNum: three(inquiring.qty),
      disposalNum: three(disposal.qty),
      inNum: three(inStock.qty),
      warehouseId: warehouseId ?? null,
    };
  };

  app.get(
    '/api/inventoryInfo',
    {
      config: { session: true },
      schema: { querystring: warehouseQuery, response: { 200: inventorySchema } },
    },
    async (req) => {
      const u = currentUser(req);
      const { warehouseId, isRefresh } = req.query;
      await checkWarehouse(u, warehouseId);
      const scope = scopeOf(u);
      return figure(ctx, `inventory|${scopeKey(scope)}|${warehouseId ?? ''}`, isRefresh, () => inventory(scope, warehouseId));
    },
  );

  app.get(
    '/api/inventoryRatio',
    {
      config: { session: true },
      schema: { querystring: warehouseQuery, response: { 200: ratioSchema } },
    },
    async (req) => {
      const u = currentUser(req);
      const { warehouseId, isRefresh } = req.query;
      await checkWarehouse(u, warehouseId);
      const scope = scopeOf(u);
      return figure(ctx, `inventoryRatio|${scopeKey(scope)}|${warehouseId ?? ''}`, isRefresh, async () => {
        const filter = { source: 'stockIn' as const, scope, role: 'a' as const, warehouseId, statuses: HELD };
        const [groups, dicts] = await Promise.all([
          factGroups2(db, filter, 'category', 'status'),
          dictLabelsOf(db, ['wasteCategory', 'stockStatus']),
        ]);
        const byCategory = sumOver(groups, () => true);
        const byStatus = sumOver(
          groups.map((g) => ({ ...g, key1: g.key2, key2: g.key1 })),
          () => true,
        );
        const categoryNames = dicts.get('wasteCategory') ?? new Map<string, string>();
        const statusNames = dicts.get('stockStatus') ?? new Map<string, string>();
        const total = byStatus.reduce((s, g) => s + g.qty, 0);
        const shares = (groups: typeof byStatus, names: Map<string, string>) =>
          groups
            .map((g) => ({
              key: g.key,
              name: names.get(g.key) ?? (g.key || '未分类'),
              quantity: three(g.qty),
              count: g.n,
              ratio: ratioOf(g.qty, total),
            }))
            .sort((a, b) => b.quantity - a.quantity || a.key.localeCompare(b.key));
        return {
          inventoryTotal: three(total),
          categories: shares(byCategory, categoryNames),
          statuses: shares(byStatus, statusNames),
          warehouseId: warehouseId ?? null,
        };
      });
    },
  );

  app.get(
    '/api/produceOrderDashboard',
    {
      config: { session: true },
      schema: { querystring: refreshOnly, response: { 200: ordersSchema } },
    },
    async (req) => {
      const scope = scopeOf(currentUser(req));
      return figure(ctx, `orders|${scopeKey(scope)}`, req.query.isRefresh, async () => {
        const d = dates();
        const [inquiries, orders, logistics, expiring] = await factTotalsAll(db, [
          { source: 'disposalInquiry', scope, statuses: OPEN_INQUIRY },
          { source: 'disposalOrder', scope, statuses: ONGOING },
          { source: 'logisticsOrder', scope, statuses: ONGOING },
          { source: 'contract', scope, statuses: LIVE_CONTRACT, day2From: d.today, day2To: d.plusDays(EXPIRING_DAYS) },
        ]);
        return {
          ongoingDisposalInquiry: inquiries.n,
          ongoingDisposalOrder: orders.n,
          ongoingLogisticsOrder: logistics.n,
          count: expiring.n,
          countLabel: `${EXPIRING_DAYS}天内到期合同`,
        };
      });
    },
  );

  app.get(
    '/api/finAcc/dashboard',
    {
      config: { session: true },
      schema: { querystring: refreshOnly, response: { 200: financeSchema } },
    },
    async (req) => {
      const scope = scopeOf(currentUser(req));
      return figure(ctx, `finance|${scopeKey(scope)}`, req.query.isRefresh, async () => {
        const d = dates();
        const year = { dayFrom: d.yearStart, dayTo: d.yearEnd };
        // The producer pays the disposal order (role a) and the freight of its logistics orders (role a);
        // the disposer is paid the order (role b), the carrier the freight (role c). Open orders are owed
        // less what was prepaid; paid this year is what was done this year plus this year's prepayments.
        const side = (orderRole: 'a' | 'b', freightRole: 'a' | 'c') => [
          { source: 'disposalOrder' as const, scope, role: orderRole, statuses: ONGOING },
          { source: 'disposalOrder' as const, scope, role: orderRole, statuses: DONE, ...year },
          { source: 'logisticsOrder' as const, scope, role: freightRole, statuses: ONGOING },
          { source: 'logisticsOrder' as const, scope, role: freightRole, statuses: DONE, ...year },
          { source: 'disposalOrder' as const, scope, role: orderRole, statuses: ONGOING, ...year },
        ];
        const sums = await factTotalsAll(db, [...side('a', 'a'), ...side('b', 'c')]);
        const figures = (at: number) => {
          const [openOrders, doneOrders, openFreight, doneFreight, openThisYear] = sums.slice(at, at + 5) as [
            FactSums,
            FactSums,
            FactSums,
            FactSums,
            FactSums,
          ];
          return {
            owed: three(openOrders.amount - openOrders.amount2 + openFreight.amount),
            settled: three(doneOrders.amount + openThisYear.amount2 + doneFreight.amount),
          };
        };
        const [pay, receive] = [figures(0), figures(5)];
        return { payable: pay.owed, yearPaid: pay.settled, receivable: receive.owed, yearReceived: receive.settled };
      });
    },
  );

  // ----- bulletins -----

  const bulletinColumns = [
    'id',
    'title',
    'content',
    'status',
    'views',
    'create_by as createBy',
    sql<string>`to_char(create_time, ${WIRE_TIME_FORMAT})`.as('createTime'),
  ] as const;
  const mayEditBulletins = (u: SessionUser) => hasPermission(u.roles, 'bulletin:edit');

  app.get(
    '/api/bulletin',
    {
      config: { session: true },
      schema: {
        querystring: z.object({
          status: boundedInt(-INT4_MAX, INT4_MAX).optional(),
          page: pageNumber.optional(),
          size: z.coerce.number().int().min(1).max(1000).optional(),
        }),
        response: { 200: pageOf(bulletinRow) },
      },
    },
    async (req) => {
      const u = currentUser(req);
      const status = req.query.status ?? 10;
      // Drafts are for those who edit bulletins.
      if (status !== 10 && !mayEditBulletins(u)) throw forbidden();
      const base = db.selectFrom('bulletin').where('status', '=', status);
      return paginate(base, (q) => q.select(bulletinColumns).orderBy('create_time', 'desc').orderBy('id', 'desc'), {
        page: req.query.page,
        size: req.query.size ?? 10,
      });
    },
  );

  const bulletinBody = z.object({
    id: dbId.optional(),
    title: z.string().trim().min(1, '请输入公告标题').max(255, '公告标题不能超过255个字符'),
    content: z.string().trim().min(1, '请输入公告内容').max(20_000, '公告内容过长'),
    status: z.union([z.literal(10), z.literal(0)]).optional(),
  });

  app.post(
    '/api/bulletin',
    {
      config: { permission: 'bulletin:edit', log: '新增公告' },
      schema: { response: { 200: ok.extend({ id: z.number() }) } },
    },
    async (req) => {
      const u = currentUser(req);
      const body = parseBody(bulletinBody, req.body);
      const row = await db
        .insertInto('bulletin')
        .values({ title: body.title, content: body.content, status: body.status ?? 10, create_by: u.username })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { ...OK, id: row.id };
    },
  );

  app.put('/api/bulletin', { config: { permission: 'bulletin:edit', log: '修改公告' }, schema: { response: { 200: ok } } }, async (req) => {
    const body = parseBody(bulletinBody, req.body);
    if (!body.id) throw badRequest('id 不能为空');
    const res = await db
      .updateTable('bulletin')
      .set({
        title: body.title,
        content: body.content,
        ...(body.status === undefined ? {} : { status: body.status }),
        update_time: sql`now()`,
      })
      .where('id', '=', body.id)
      .executeTakeFirst();
    if (!Number(res.numUpdatedRows)) throw notFound('公告不存在');
    return OK;
  });

  app.delete(
    '/api/bulletin',
    {
      config: { permission: 'bulletin:edit', log: '删除公告' },
      schema: { body: z.array(dbId).min(1, '请选择要删除的数据'), response: { 200: ok } },
    },
    async (req) => {
      await db.deleteFrom('bulletin').where('id', 'in', req.body).execute();
      return OK;
    },
  );

  // A bulletin was opened: its read count goes up by one.
  app.post(
    '/api/viewsNum/add',
    {
      config: { session: true },
      schema: {
        body: z.object({ id: dbId }).nullish(),
        querystring: z.object({ id: dbId.optional() }),
        response: { 200: z.object({ status: z.number(), id: z.number(), viewsNum: z.number() }) },
      },
    },
    async (req) => {
      const u = currentUser(req);
      const id = req.body?.id ?? req.query.id;
      if (!id) throw badRequest('请选择公告');
      let q = db.updateTable('bulletin').set({ views: sql`views + 1` }).where('id', '=', id);
      if (!mayEditBulletins(u)) q = q.where('status', '=', 10);
      const row = await q.returning(['id', 'views']).executeTakeFirst();
      if (!row) throw notFound('公告不存在');
      return { status: 200, id: row.id, viewsNum: row.views };
    },
  );

  // ----- warehouses and their inventories -----

  const warehouseItem = z.object({
    id: z.number(),
    name: z.string(),
    companyId: z.number(),
    companyName: z.string().nullable(),
    regionFmt: z.string().nullable(),
    address: z.string().nullable(),
    linkmanName: z.string().nullable(),
    phone: z.string().nullable(),
    unloadingPoint: z.boolean(),
    inventory: z.number(),
    inNum: z.number(),
    count: z.number(),
  });

  app.get(
    '/api/companyWarehouse/warehouse',
    {
      config: { session: true },
      schema: {
        querystring: z.object({ companyId: optionalIdParam, isRefresh: isRefreshParam }),
        response: { 200: pageOf(warehouseItem).extend({ computedAt: z.string() }) },
      },
    },
    async (req) => {
      const u = currentUser(req);
      const scope = scopeOf(u);
      const asked = seesAll(u) ? req.query.companyId : undefined;
      return figure(ctx, `warehouses|${scopeKey(scope)}|${asked ?? ''}`, req.query.isRefresh, async () => {
        let q = db
          .selectFrom('company_warehouse as w')
          .innerJoin('company as c', 'c.id', 'w.company_id')
          .leftJoin('company_linkman as l', 'l.id', 'w.linkman_id')
          .select([
            'w.id',
            'w.name',
            'w.company_id as companyId',
            'c.name as companyName',
            'w.region_fmt as regionFmt',
            'w.address',
            'l.name as linkmanName',
            'l.phone',
            'w.unloading_point as unloadingPoint',
          ]);
        if (scope.kind === 'company') q = q.where('w.company_id', '=', scope.companyId);
        else if (scope.kind === 'none') q = q.where(sql<SqlBool>`false`);
        if (asked) q = q.where('w.company_id', '=', asked);
        const rows = await q.orderBy('w.id').execute();
        const stock = { source: 'stockIn' as const, scope, role: 'a' as const };
        const groups = await factGroups2(db, { ...stock, statuses: HELD }, 'warehouse_id', 'status');
        const held = sumOver(groups, () => true);
        const inStock = sumOver(groups, (status) => (IN_STOCK as readonly string[]).includes(status));
        const heldBy = new Map(held.map((g) => [Number(g.key), g]));
        const inBy = new Map(inStock.map((g) => [Number(g.key), g]));
        const content = rows.map((r) => ({
          ...r,
          inventory: three(heldBy.get(r.id)?.qty ?? 0),
          inNum: three(inBy.get(r.id)?.qty ?? 0),
          count: heldBy.get(r.id)?.n ?? 0,
        }));
        return { content, totalElements: content.length };
      });
    },
  );

  const inventoryLine = z.object({
    category: z.string(),
    name: z.string(),
    quantity: z.number(),
    inNum: z.number(),
    count: z.number(),
    maxQuantity: z.number().nullable(),
    overLimit: z.boolean(),
  });

  app.get(
    '/api/companyWarehouse/Inventorys',
    {
      config: { session: true },
      schema: {
        querystring: warehouseQuery,
        response: {
          200: z.object({
            warehouseId: z.number(),
            warehouseName: z.string(),
            total: z.number(),
            content: z.array(inventoryLine),
            totalElements: z.number(),
            computedAt: z.string(),
          }),
        },
      },
    },
    async (req) => {
      const u = currentUser(req);
      const { warehouseId, isRefresh } = req.query;
      if (!warehouseId) throw badRequest('请选择仓库');
      await checkWarehouse(u, warehouseId);
      return figure(ctx, `warehouseInventory|${warehouseId}`, isRefresh, async () => {
        const w = await db
          .selectFrom('company_warehouse')
          .select(['name', 'company_id'])
          .where('id', '=', warehouseId)
          .executeTakeFirstOrThrow();
        // The warehouse's owner's figures: whoever looks, a warehouse holds what its company stocked in it.
        const owner: Scope = { kind: 'company', companyId: w.company_id };
        const stock = { source: 'stockIn' as const, scope: owner, role: 'a' as const, warehouseId };
        const [groups, names, limits] = await Promise.all([
          factGroups2(db, { ...stock, statuses: HELD }, 'category', 'status'),
          dictLabels(db, 'wasteCategory'),
          db
            .selectFrom('inventory_config')
            .select(['waste_category', 'max_quantity'])
            .where('company_id', '=', w.company_id)
            .where((eb) => eb.or([eb('warehouse_id', '=', warehouseId), eb('warehouse_id', 'is', null)]))
            .orderBy('warehouse_id', (ob) => ob.desc().nullsLast())
            .execute(),
        ]);
        const held = sumOver(groups, () => true);
        const inBy = new Map(sumOver(groups, (status) => (IN_STOCK as readonly string[]).includes(status)).map((g) => [g.key, g]));
        // The most specific limit wins: this warehouse before all warehouses, a category before all categories.
        const limitOf = (category: string) =>
          limits.find((l) => l.waste_category === category)?.max_quantity ?? limits.find((l) => !l.waste_category)?.max_quantity ?? null;
        const content = held
          .map((g) => {
            const max = limitOf(g.key);
            const quantity = three(g.qty);
            return {
              category: g.key,
              name: names.get(g.key) ?? (g.key || '未分类'),
              quantity,
              inNum: three(inBy.get(g.key)?.qty ?? 0),
              count: g.n,
              maxQuantity: max === null ? null : Number(max),
              overLimit: max !== null && quantity > Number(max),
            };
          })
          .sort((a, b) => b.quantity - a.quantity || a.category.localeCompare(b.category));
        return {
          warehouseId,
          warehouseName: w.name,
          total: three(held.reduce((s, g) => s + g.qty, 0)),
          content,
          totalElements: content.length,
        };
      });
    },
  );

  // ----- inventory limits (/api/config) -----

  const configScope = (u: SessionUser, asked?: number) => {
    if (seesAll(u)) return asked ?? null;
    if (!u.companyId) throw forbidden('当前账号未关联企业');
    return u.companyId;
  };
  const limitPermission = ['stockIn:edit', 'warehouse:edit'];

  app.get(
    '/api/config',
    {
      config: { session: true },
      schema: {
        querystring: z.object({
          companyId: optionalIdParam,
          page: pageNumber.optional(),
          size: z.coerce.number().int().min(1).max(1000).optional(),
        }),
        response: { 200: pageOf(configRow) },
      },
    },
    async (req) => {
      const company = configScope(currentUser(req), req.query.companyId);
      let base = db.selectFrom('inventory_config as i');
      if (company !== null) base = base.where('i.company_id', '=', company);
      return paginate(
        base,
        (q) =>
          q
            .leftJoin('company as c', 'c.id', 'i.company_id')
            .leftJoin('company_warehouse as w', 'w.id', 'i.warehouse_id')
            .select([
              'i.id',
              'i.company_id as companyId',
              'c.name as companyName',
              'i.warehouse_id as warehouseId',
              'w.name as warehouseName',
              'i.waste_category as wasteCategory',
              'i.max_quantity as maxQuantity',
              'i.remark',
              sql<string>`to_char(i.create_time, ${WIRE_TIME_FORMAT})`.as('createTime'),
            ])
            .orderBy('i.id', 'desc'),
        { page: req.query.page, size: req.query.size ?? 10 },
      );
    },
  );

  const saveConfig = async (u: SessionUser, body: z.infer<typeof configBody>, id?: number) => {
    let companyId = configScope(u, body.companyId);
    if (body.warehouseId) {
      const w = await warehouseWithin(db, u, body.warehouseId);
      if (!w) throw notFound('仓库不存在');
      if (companyId !== null && w.company_id !== companyId) throw badRequest('仓库不属于所选企业');
      companyId = w.company_id;
    }
    if (companyId === null) throw badRequest('请选择企业');
    const values = {
      company_id: companyId,
      warehouse_id: body.warehouseId ?? null,
      waste_category: body.wasteCategory || null,
      max_quantity: body.maxQuantity,
      remark: body.remark || null,
    };
    if (id === undefined) {
      const row = await db
        .insertInto('inventory_config')
        .values({ ...values, create_by: u.username })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    }
    let q = db.updateTable('inventory_config').set(values).where('id', '=', id);
    if (!seesAll(u)) q = q.where('company_id', '=', u.companyId ?? -1);
    const res = await q.executeTakeFirst();
    if (!Number(res.numUpdatedRows)) throw notFound('库存限额不存在');
    return id;
  };

  app.post(
    '/api/config',
    {
      config: { permission: limitPermission, log: '新增库存限额' },
      schema: { response: { 200: ok.extend({ id: z.number() }) } },
    },
    async (req) => ({ ...OK, id: await saveConfig(currentUser(req), parseBody(configBody, req.body)) }),
  );

  app.put(
    '/api/config',
    {
      config: { permission: limitPermission, log: '修改库存限额' },
      schema: { response: { 200: ok.extend({ id: z.number() }) } },
    },
    async (req) => {
      const body = parseBody(configBody, req.body);
      if (!body.id) throw badRequest('id 不能为空');
      return { ...OK, id: await saveConfig(currentUser(req), body, body.id) };
    },
  );

  const deleteConfig = { config: { permission: limitPermission, log: '删除库存限额' }, schema: { response: { 200: ok } } };
  const idList = z.array(dbId, { message: '请选择要删除的数据' }).min(1, '请选择要删除的数据');
  const removeConfig = async (u: SessionUser, body: unknown) => {
    const ids = parseBody(idList, body);
    let q = db.deleteFrom('inventory_config').where('id', 'in', ids);
    if (!seesAll(u)) q = q.where('company_id', '=', u.companyId ?? -1);
    await q.execute();
    return OK;
  };
  app.delete('/api/config/', deleteConfig, async (req) => removeConfig(currentUser(req), req.body));
  app.delete('/api/config', deleteConfig, async (req) => removeConfig(currentUser(req), req.body));
}
