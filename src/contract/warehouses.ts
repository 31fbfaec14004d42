/**
 * Warehouses: a company's warehouses and unloading points for pickers, the warehouses a user may see with
 * the waste each holds, one warehouse's inventory by category, and the warehouses a carrier's logistics
 * orders load from.
 */
import { z } from 'zod';
import { companyListQuery } from './company-lists.js';
import { call, resource } from './define.js';
import { nullableText, pageOf } from './fields.js';
import { isRefreshParam, warehouseQuery } from './figures.js';
import { optionalIdParam } from './paging.js';

/** A warehouse as a picker shows it: where it is and whom to call. */
export const warehouseOption = z.object({
  id: z.number(),
  name: z.string(),
  ...nullableText('region', 'regionFmt', 'address'),
  linkmanId: z.number().nullable(),
  ...nullableText('linkmanName', 'phone'),
});

/** A warehouse with the waste it holds: held (inventory), in stock (inNum) and the number of records. */
export const warehouseStock = z.object({
  id: z.number(),
  name: z.string(),
  companyId: z.number(),
  ...nullableText('companyName', 'regionFmt', 'address', 'linkmanName', 'phone'),
  unloadingPoint: z.boolean(),
  inventory: z.number(),
  inNum: z.number(),
  count: z.number(),
});

/** One waste category a warehouse holds, against its limit. */
export const inventoryLine = z.object({
  category: z.string(),
  name: z.string(),
  quantity: z.number(),
  inNum: z.number(),
  count: z.number(),
  maxQuantity: z.number().nullable(),
  overLimit: z.boolean(),
});

export const warehouses = resource('warehouses', '仓库', {
  list: call('GET', '/api/companyWarehouse/list', '本企业的仓库', 'session', {
    query: companyListQuery,
    answer: pageOf(warehouseOption),
    errors: ['NO_COMPANY_DATA'],
  }),
  unloadingPoints: call('GET', '/api/companyWarehouse/unloadingPoint', '本企业的卸货点', 'session', {
    query: companyListQuery,
    answer: z.object({ status: z.literal(200), data: z.array(warehouseOption) }),
    errors: ['NO_COMPANY_DATA'],
  }),
  withStock: call('GET', '/api/companyWarehouse/warehouse', '可见的仓库及其存量', 'session', {
    query: z.object({ companyId: optionalIdParam, isRefresh: isRefreshParam }),
    answer: pageOf(warehouseStock).extend({ computedAt: z.string() }),
    errors: [],
  }),
  inventory: call('GET', '/api/companyWarehouse/Inventorys', '一个仓库按类别的存量', 'session', {
    query: warehouseQuery,
    answer: z.object({
      warehouseId: z.number(),
      warehouseName: z.string(),
      total: z.number(),
      content: z.array(inventoryLine),
      totalElements: z.number(),
      computedAt: z.string(),
    }),
    errors: ['WAREHOUSE_REQUIRED', 'WAREHOUSE_NOT_FOUND'],
    example: { as: 'producer', query: { warehouseId: 1 } },
  }),
  // A carrier owns no warehouse, so its list is empty; its orders reach a warehouse through their
  // disposal order's stock-in record. Needs logisticsOrder:list, like the orders per warehouse it filters.
  ofLogisticsOrders: call('GET', '/api/logisticsOrder/warehouses', '物流单装货的仓库', 'session', {
    answer: pageOf(z.object({ id: z.number(), name: z.string() })),
    errors: ['NO_PERMISSION'],
  }),
});
