/**
 * Logistics orders on the logistics home and the logistics detail page: the order counters and the
 * last twelve months of the user's scope, the capacity panel, the newest orders per warehouse, and one
 * order's parties and transport. The figures are of the signed-in user's scope (every company for
 * administrators and the supervisory department) and answer when they were computed (computedAt).
 */
import { z } from 'zod';
import { call, resource } from './define.js';
import { nullableText } from './fields.js';
import { figureOf, numbers, refreshOnly } from './figures.js';
import { optionalIdParam, pageFields } from './paging.js';

/** The query naming one logistics order. */
export const logisticsOrderQuery = z.object({ id: z.coerce.number().int().positive({ message: '请选择物流订单' }) });

const series = z.array(z.number());

/**
 * A logistics order of a warehouse's list: the record of the logisticsOrder view as its list shows it,
 * with its disposal order's number (orderNo, as that view holds it) and parties, and the warehouse it
 * loads from (all null when the user may not see that disposal order).
 */
export const warehouseOrder = z.looseObject({
  id: z.number(),
  ...nullableText('producerName', 'disposerName'),
  warehouseId: z.number().nullable(),
  warehouseName: z.string().nullable(),
});
export type WarehouseOrder = z.infer<typeof warehouseOrder>;

/** A party of an order: its company and the company's contact, the address as the order gives it. */
export const orderParty = z.object({
  companyId: z.number().nullable(),
  ...nullableText('companyName', 'linkman', 'phone', 'address', 'regionFmt'),
});
export type OrderParty = z.infer<typeof orderParty>;

export const logisticsLinkman = z.object({
  id: z.number(),
  waybillNo: z.string().nullable(),
  shipper: orderParty,
  receiver: orderParty,
  carrier: orderParty.extend({ userName: z.string().nullable(), userPhone: z.string().nullable() }),
});
export type LogisticsLinkman = z.infer<typeof logisticsLinkman>;

export const transportInfo = z.object({
  id: z.number(),
  ...nullableText('waybillNo', 'orderStatus', 'orderStatusLabel'),
  weight: z.number().nullable(),
  freight: z.number().nullable(),
  ...nullableText('fromRegion', 'fromRegionFmt', 'fromAddress', 'toAddress', 'loadTime', 'arriveTime'),
  disposalOrder: z
    .object({
      id: z.number(),
      ...nullableText('orderNo', 'wasteCategory', 'wasteCategoryLabel'),
      quantity: z.number().nullable(),
    })
    .nullable(),
  vehicle: z
    .object({
      id: z.number(),
      ...nullableText('plateNo', 'vehicleType', 'vehicleTypeLabel'),
      loadCapacity: z.number().nullable(),
      ...nullableText('driverName', 'driverPhone', 'escortName', 'escortPhone'),
    })
    .nullable(),
});
export type TransportInfo = z.infer<typeof transportInfo>;

export const logistics = resource('logistics', '物流订单看板与详情', {
  dashboard: call('GET', '/api/logisticsOrder/dashboard', '物流订单概况', 'session', {
    query: refreshOnly,
    answer: figureOf(
      numbers('total', 'pending', 'inTransit', 'finished', 'cancelled', 'rejected', 'ongoingWeight', 'monthCount', 'yearFreight'),
    ),
    errors: [],
  }),
  // Orders, tons and freight per month over the last twelve months (by loading time), oldest first.
  monthly: call('GET', '/api/logisticsOrderDashboard', '近12个月物流订单', 'session', {
    query: refreshOnly,
    answer: figureOf({ months: z.array(z.string()), counts: series, weights: series, freights: series }),
    errors: [],
  }),
  capacity: call('GET', '/api/companyTransportInfo', '运力信息', 'session', {
    query: refreshOnly,
    answer: figureOf(numbers('existingCount', 'idleCount', 'inTransitCount', 'repairCount', 'loadCapacity', 'idleLoadCapacity')),
    errors: [],
  }),
  byWarehouse: call('GET', '/api/logisticsOrder/byWarehouseId', '仓库的物流订单', 'logisticsOrder:list', {
    query: z.object({ warehouseId: optionalIdParam, ...pageFields }),
    answer: z.object({ content: z.array(warehouseOrder), totalElements: z.number() }),
    errors: ['WAREHOUSE_NOT_FOUND', 'LOGISTICS_VIEW_NOT_FOUND'],
    example: { query: { page: 0, size: 10 } },
  }),
  linkman: call('GET', '/api/logisticsOrder/getLogisticsLinkman', '物流订单的托运方、收货方与承运方', 'logisticsOrder:list', {
    query: logisticsOrderQuery,
    answer: logisticsLinkman,
    errors: ['LOGISTICS_VIEW_NOT_FOUND', 'LOGISTICS_ORDER_NOT_FOUND'],
    example: { query: { id: 1 } },
  }),
  transport: call('GET', '/api/logisticsOrder/getTransportInfo', '物流订单的运输信息', 'logisticsOrder:list', {
    query: logisticsOrderQuery,
    answer: transportInfo,
    errors: ['LOGISTICS_VIEW_NOT_FOUND', 'LOGISTICS_ORDER_NOT_FOUND'],
    example: { query: { id: 1 } },
  }),
});
