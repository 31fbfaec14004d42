import { sql } from 'kysely';
import { z } from 'zod';
import { rowScope } from '../access/rows.js';
import type { App } from '../app.js';
import { requirePermission } from '../auth.js';
import type { AppContext } from '../context.js';
import { businessView } from '../lib/business-views.js';
import { answers } from '../lib/route.js';
import { viewTable } from '../lowcode/ddl.js';
import type { ViewModel } from '../lowcode/view-model.js';

/**
 * GET /api/logisticsOrder/warehouses: the warehouses the caller's logistics orders load from, for the
 * logistics home's picker. A carrier owns no warehouse, so /api/companyWarehouse/list is empty for it;
 * its orders reach a warehouse through their disposal order's stock-in record. Needs logisticsOrder:list,
 * like the orders per warehouse the picker filters.
 */

const warehouse = z.object({ id: z.number(), name: z.string() });

const has = (v: ViewModel | null, name: string) => !!v && v.columns.some((c) => c.name === name);

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  app.get(
    '/api/logisticsOrder/warehouses',
    answers({ session: true }, z.object({ content: z.array(warehouse), totalElements: z.number() })),
    async (req) => {
      const u = requirePermission(req, 'logisticsOrder:list');
      const [logistics, orders, stock] = await Promise.all([
        businessView(ctx, 'logisticsOrder'),
        businessView(ctx, 'disposalOrder'),
        businessView(ctx, 'stockIn'),
      ]);
      const linked =
        logistics && orders && stock && has(logistics, 'disposalOrderId') && has(orders, 'stockId') && has(stock, 'warehouseId');
      if (!linked) return { content: [], totalElements: 0 };
      const scope = await rowScope(ctx, logistics, u);
      // Through the disposal orders the caller may see: a waybill naming another's order tells nothing of it.
      const orderScope = await rowScope(ctx, orders, u);
      const seen = orderScope
        ? sql`(select * from ${sql.table(viewTable(orders.id))} as t where ${orderScope.condition})`
        : sql.table(viewTable(orders.id));
      const rows = await sql<{ id: number | string; name: string }>`
        select w.id, w.name from company_warehouse w
        where w.id in (
          select s."warehouseId" from ${sql.table(viewTable(logistics.id))} as t
          join ${seen} o on o.id = t."disposalOrderId"
          join ${sql.table(viewTable(stock.id))} s on s.id = o."stockId"
          ${scope ? sql`where ${scope.condition}` : sql``}
        )
        order by w.id`.execute(ctx.db);
      const content = rows.rows.map((r) => ({ id: Number(r.id), name: r.name }));
      return { content, totalElements: content.length };
    },
  );
}
