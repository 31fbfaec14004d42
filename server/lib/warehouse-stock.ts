import type { SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { notFound } from '../errors.js';
import { warehouseWithin } from './business-records.js';

/** What the dashboard tiles and the warehouse inventories count as waste held. */

/** Stock-in statuses (stockStatus): 0 awaiting stock-in, 1 in stock, 2 shipped out. Held waste is 0 and 1. */
export const HELD = ['0', '1'] as const;
export const IN_STOCK = ['1'] as const;

export { warehouseQuery } from '../../src/contract/figures.js';

/** A warehouse the user may look at: their company's own, any for those who see every company; another's is missing. */
export async function checkWarehouse(ctx: AppContext, u: SessionUser, warehouseId: number | undefined): Promise<void> {
  if (warehouseId === undefined) return;
  if (!(await warehouseWithin(ctx.db, u, warehouseId))) throw notFound('WAREHOUSE_NOT_FOUND');
}
