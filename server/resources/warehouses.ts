import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { warehouses } from '../../src/contract/warehouses.js';
import { requireCompanyScope, scopeCompany, scopeKey, scopeOf, seesAll } from '../access/company.js';
import { rowScope } from '../access/rows.js';
import type { App } from '../app.js';
import { currentUser, requirePermission } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import { businessView } from '../lib/business-views.js';
import { factGroups2, type Scope, sumOver } from '../lib/dashboard-facts.js';
import { figure, three } from '../lib/dashboard-scope.js';
import { dictLabels } from '../lib/dict-labels.js';
import { checkWarehouse, HELD, IN_STOCK } from '../lib/warehouse-stock.js';
import { viewTable } from '../lowcode/ddl.js';
import type { ViewModel } from '../lowcode/view-model.js';
import { registerResource } from './register.js';

const has = (v: ViewModel | null, name: string) => !!v && v.columns.some((c) => c.name === name);

/**
 * Warehouses: a company's warehouses and unloading points, those a user may see with the waste each
 * holds, one warehouse's inventory by category, and those a carrier's logistics orders load from.
 */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  /**
   * The one reading of warehouses, in id order: each with its company and its contact. `company` is the
   * company whose warehouses are read (null: every company, undefined: none).
   */
  const warehouseRows = (company: number | null | undefined) => {
    let q = db
      .selectFrom('company_warehouse as w')
      .leftJoin('company as c', 'c.id', 'w.company_id')
      .leftJoin('company_linkman as l', 'l.id', 'w.linkman_id')
      .select([
        'w.id',
        'w.name',
        'w.company_id as companyId',
        'c.name as companyName',
        'w.region',
        'w.region_fmt as regionFmt',
        'w.address',
        'w.linkman_id as linkmanId',
        'l.name as linkmanName',
        'l.phone',
        'w.unloading_point as unloadingPoint',
      ]);
    if (company === undefined) q = q.where(sql<SqlBool>`false`);
    else if (company !== null) q = q.where('w.company_id', '=', company);
    return q.orderBy('w.id');
  };

  /** The warehouses, through their disposal orders' stock-in records, that the caller's logistics orders load from. */
  const loadedByLogisticsOrders = async (req: Parameters<typeof currentUser>[0]): Promise<RawBuilder<unknown> | null> => {
    const u = requirePermission(req, 'logisticsOrder:list');
    const [logistics, orders, stock] = await Promise.all([
      businessView(ctx, 'logisticsOrder'),
      businessView(ctx, 'disposalOrder'),
      businessView(ctx, 'stockIn'),
    ]);
    const linked = logistics && orders && stock && has(logistics, 'disposalOrderId') && has(orders, 'stockId') && has(stock, 'warehouseId');
    if (!linked) return null;
    const scope = await rowScope(ctx, logistics, u);
    // Through the disposal orders the caller may see: a waybill naming another's order tells nothing of it.
    const orderScope = await rowScope(ctx, orders, u);
    const seen = orderScope
      ? sql`(select * from ${sql.table(viewTable(orders.id))} as t where ${orderScope.condition})`
      : sql.table(viewTable(orders.id));
    return sql`(
      select s."warehouseId" from ${sql.table(viewTable(logistics.id))} as t
      join ${seen} o on o.id = t."disposalOrderId"
      join ${sql.table(viewTable(stock.id))} s on s.id = o."stockId"
      ${scope ? sql`where ${scope.condition}` : sql``}
    )`;
  };

  registerResource(app, warehouses, {
    list: async (req) => {
      const content = await warehouseRows(scopeCompany(requireCompanyScope(currentUser(req)), req.query.companyId)).execute();
      return { content, totalElements: content.length };
    },
    unloadingPoints: async (req) => {
      const data = await warehouseRows(scopeCompany(requireCompanyScope(currentUser(req)), req.query.companyId))
        .where('w.unloading_point', '=', true)
        .execute();
      return { status: 200 as const, data };
    },
    withStock: async (req) => {
      const u = currentUser(req);
      const scope = scopeOf(u);
      const asked = seesAll(u) ? req.query.companyId : undefined;
      const company = scopeCompany(u, asked);
      return figure(ctx, `warehouses|${scopeKey(scope)}|${asked ?? ''}`, req.query.isRefresh, async () => {
        const rows = await warehouseRows(company).where('c.id', 'is not', null).execute();
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
    inventory: async (req) => {
      const u = currentUser(req);
      const { warehouseId, isRefresh } = req.query;
      if (!warehouseId) throw badRequest('WAREHOUSE_REQUIRED');
      await checkWarehouse(ctx, u, warehouseId);
      return figure(ctx, `warehouseInventory|${warehouseId}`, isRefresh, async () => {
        const w = await warehouseRows(null).where('w.id', '=', warehouseId).executeTakeFirstOrThrow();
        // The warehouse's owner's figures: whoever looks, a warehouse holds what its company stocked in it.
        const owner: Scope = { kind: 'company', companyId: w.companyId };
        const stock = { source: 'stockIn' as const, scope: owner, role: 'a' as const, warehouseId };
        const [groups, names, limits] = await Promise.all([
          factGroups2(db, { ...stock, statuses: HELD }, 'category', 'status'),
          dictLabels(db, 'wasteCategory'),
          db
            .selectFrom('inventory_config')
            .select(['waste_category', 'max_quantity'])
            .where('company_id', '=', w.companyId)
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
    ofLogisticsOrders: async (req) => {
      const loaded = await loadedByLogisticsOrders(req);
      if (!loaded) return { content: [], totalElements: 0 };
      const content = (await warehouseRows(null).where(sql<SqlBool>`w.id in ${loaded}`).execute()).map((r) => ({
        id: Number(r.id),
        name: r.name,
      }));
      return { content, totalElements: content.length };
    },
  });
}
