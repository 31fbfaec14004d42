/**
 * The company dashboard's figures: inventory and order tiles and finance, each for the user's company
 * (every company for administrators and the supervisory department) and when it was computed.
 */
import { z } from 'zod';
import { call, resource } from './define.js';
import { figureOf, numbers, refreshOnly, warehouseQuery } from './figures.js';

const share = z.object({ key: z.string(), name: z.string(), quantity: z.number(), count: z.number(), ratio: z.number() });

export const dashboard = resource('dashboard', '首页看板', {
  inventory: call('GET', '/api/inventoryInfo', '库存概况', 'session', {
    query: warehouseQuery,
    answer: figureOf({
      ...numbers('inventoryTotal', 'inquiringNum', 'disposalNum', 'inNum'),
      warehouseId: z.number().nullable(),
    }),
    errors: ['WAREHOUSE_NOT_FOUND'],
  }),
  inventoryRatio: call('GET', '/api/inventoryRatio', '库存构成（按类别、按状态）', 'session', {
    query: warehouseQuery,
    answer: figureOf({
      inventoryTotal: z.number(),
      categories: z.array(share),
      statuses: z.array(share),
      warehouseId: z.number().nullable(),
    }),
    errors: ['WAREHOUSE_NOT_FOUND'],
  }),
  orders: call('GET', '/api/produceOrderDashboard', '订单概况', 'session', {
    query: refreshOnly,
    answer: figureOf({
      ...numbers('ongoingDisposalInquiry', 'ongoingDisposalOrder', 'ongoingLogisticsOrder', 'count'),
      countLabel: z.string(),
    }),
    errors: [],
  }),
  finance: call('GET', '/api/finAcc/dashboard', '财务概况', 'session', {
    query: refreshOnly,
    answer: figureOf(numbers('payable', 'yearPaid', 'receivable', 'yearReceived')),
    errors: [],
  }),
});
