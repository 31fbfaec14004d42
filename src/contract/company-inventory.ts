/**
 * Company inventory (企业库存): stock-in records that are in stock, added and edited as records of the
 * stock-in view. A warehouse must be the caller's company's own (any, for those who see every company);
 * a record outside the caller's data scope is answered as missing.
 */
import { z } from 'zod';
import { call, resource } from './define.js';
import { judgedByHandler, ok } from './fields.js';
import { BUSINESS_VIEW_ERRORS } from './lowcode-fields.js';

/** A stock-in record: the view's fields by name (`id` names the record on edit); the handler judges it. */
export const inventoryRecord = judgedByHandler(z.record(z.string(), z.unknown()));

export const companyInventory = resource({
  name: 'company-inventory',
  title: '企业库存',
  pageBase: 0,
  calls: {
    // A blank stockNo is numbered RK…; inTime defaults to now and handler to the caller's name.
    add: call({
      method: 'POST',
      path: '/api/companyInventory',
      summary: '新增企业库存',
      access: { permission: 'stockIn:add' },
      log: '新增企业库存',
      body: inventoryRecord,
      // stockNo: the number sent, or the one generated.
      answer: ok.extend({ id: z.number(), stockNo: z.unknown() }),
      errors: [...BUSINESS_VIEW_ERRORS, 'WAREHOUSE_NOT_FOUND'],
      example: { body: { warehouseId: 2147483000 }, refuses: 'WAREHOUSE_NOT_FOUND' },
    }),
    edit: call({
      method: 'POST',
      path: '/api/companyInventory/update',
      summary: '修改企业库存',
      access: { permission: 'stockIn:edit' },
      log: '修改企业库存',
      body: inventoryRecord,
      answer: ok,
      errors: [...BUSINESS_VIEW_ERRORS, 'ID_REQUIRED', 'INVENTORY_NOT_FOUND', 'WAREHOUSE_NOT_FOUND'],
      example: { body: { id: 2147483000 }, refuses: 'INVENTORY_NOT_FOUND' },
    }),
  },
});
