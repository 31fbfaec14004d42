import { dashboard } from '../../src/contract/dashboard.js';
import { scopeKey, scopeOf } from '../access/company.js';
import type { App } from '../app.js';
import { currentUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { type FactSums, factGroups2, factTotalsAll, type Scope, sumOver } from '../lib/dashboard-facts.js';
import { dates, figure, scopedFigure, three } from '../lib/dashboard-scope.js';
import { dictLabelsOf } from '../lib/dict-labels.js';
import { checkWarehouse, HELD, IN_STOCK } from '../lib/warehouse-stock.js';
import { type CallRequest, registerResource } from './register.js';

/**
 * The company dashboard: inventory and order tiles and finance (bulletins, warehouse inventories and
 * inventory limits have their own resources). Every figure is a sum over the records of the business
 * views (see server/lib/dashboard-facts.ts), for the user's company — or every company for
 * administrators and the supervisory department — and answers when it was computed (computedAt).
 */

/** Inquiries awaiting a quote (0) or quoted (1); closed (2) and rejected (3) are over. */
const OPEN_INQUIRY = ['0', '1'] as const;
/** Orders to be confirmed (0) or under way (1); done (2), cancelled (3) and rejected (4) are over. */
const ONGOING = ['0', '1'] as const;
const DONE = ['2'] as const;
/** Contracts awaiting signature (1) or in force (2). */
const LIVE_CONTRACT = ['1', '2'] as const;
/** The fourth order tile counts the contracts that end within this many days. */
export const EXPIRING_DAYS = 30;

const ratioOf = (part: number, total: number) => (total > 0 ? Math.round((part / total) * 10_000) / 10_000 : 0);

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  const inventory = async (scope: Scope, warehouseId: number | undefined) => {
    const stock = { source: 'stockIn' as const, scope, role: 'a' as const, warehouseId };
    const [held, inStock, inquiring, disposal] = await factTotalsAll(db, [
      { ...stock, statuses: HELD },
      { ...stock, statuses: IN_STOCK },
      // An inquiry is in the warehouse of the stock-in it was raised from; one raised from none counts in the total only.
      { source: 'disposalInquiry', scope, statuses: OPEN_INQUIRY, warehouseId },
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

  const inventoryInfo = async (req: CallRequest<(typeof dashboard.calls)['inventory']>) => {
    const u = currentUser(req);
    const { warehouseId, isRefresh } = req.query;
    await checkWarehouse(ctx, u, warehouseId);
    const scope = scopeOf(u);
    return figure(ctx, `inventory|${scopeKey(scope)}|${warehouseId ?? ''}`, isRefresh, () => inventory(scope, warehouseId));
  };

  const inventoryRatio = async (req: CallRequest<(typeof dashboard.calls)['inventoryRatio']>) => {
    const u = currentUser(req);
    const { warehouseId, isRefresh } = req.query;
    await checkWarehouse(ctx, u, warehouseId);
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
  };

  const orders = async (scope: Scope) => {
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
  };

  const finance = async (scope: Scope) => {
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
  };

  registerResource(app, dashboard, {
    inventory: inventoryInfo,
    inventoryRatio,
    orders: scopedFigure(ctx, 'orders', orders),
    finance: scopedFigure(ctx, 'finance', finance),
  });
}
