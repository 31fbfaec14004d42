import { type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import { scopeKey, scopeOf, seesAll } from '../access/company.js';
import type { App } from '../app.js';
import { currentUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import { factGroups2, type Scope, sumOver } from '../lib/dashboard-facts.js';
import { figure, isRefreshParam, three } from '../lib/dashboard-scope.js';
import { dictLabels } from '../lib/dict-labels.js';
import { optionalIdParam } from '../lib/paging.js';
import { answers } from '../lib/route.js';
import { nullableText, pageOf } from '../lib/sql.js';
import { checkWarehouse, HELD, IN_STOCK, warehouseQuery } from '../lib/warehouse-stock.js';

/** /api/companyWarehouse: the warehouses a user may see, each with the waste it holds, and one warehouse's inventory by category. */

const warehouseItem = z.object({
  id: z.number(),
  name: z.string(),
  companyId: z.number(),
  ...nullableText('companyName', 'regionFmt', 'address', 'linkmanName', 'phone'),
  unloadingPoint: z.boolean(),
  inventory: z.number(),
  inNum: z.number(),
  count: z.number(),
});

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  app.get(
    '/api/companyWarehouse/warehouse',
    answers({ session: true }, pageOf(warehouseItem).extend({ computedAt: z.string() }), {
      querystring: z.object({ companyId: optionalIdParam, isRefresh: isRefreshParam }),
    }),
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
    answers(
      { session: true },
      z.object({
        warehouseId: z.number(),
        warehouseName: z.string(),
        total: z.number(),
        content: z.array(inventoryLine),
        totalElements: z.number(),
        computedAt: z.string(),
      }),
      { querystring: warehouseQuery },
    ),
    async (req) => {
      const u = currentUser(req);
      const { warehouseId, isRefresh } = req.query;
      if (!warehouseId) throw badRequest('WAREHOUSE_REQUIRED');
      await checkWarehouse(ctx, u, warehouseId);
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
}
