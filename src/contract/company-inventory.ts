/**
 * Company inventory (企业库存): stock-in records that are in stock, added and edited as records of the
 * stock-in view. A warehouse must be the caller's company's own (any, for those who see every company);
 * a record outside the caller's data scope is answered as missing.
 */
import { z } from 'zod';
import { resource, write } from './define.js';
import { judgedByHandler, ok } from './fields.js';
import { BUSINESS_VIEW_ERRORS } from './lowcode-fields.js';

/** A stock-in record: the view's fields by name (`id` names the record on edit); the handler judges it. */
export const inventoryRecord = judgedByHandler(z.record(z.string(), z.unknown()));

export const companyInventory = resource('company-inventory', '企业库存', {
  // A blank stockNo is numbered RK…; inTime defaults to now and handler to the caller's name. The record is
  // added already in stock (已入库), so the caller also needs stockIn:edit, which 确认入库 takes (else 403).
  add: write('POST', '/api/companyInventory', '新增企业库存', 'stockIn:add', {
    body: inventoryRecord,
    // stockNo: the number sent, or the one generated.
    answer: ok.extend({ id: z.number(), stockNo: z.unknown() }),
    errors: [...BUSINESS_VIEW_ERRORS, 'WAREHOUSE_NOT_FOUND', 'DOC_NUMBER_TAKEN', 'DOC_NUMBER_RESERVED', 'DOC_NUMBER_EXHAUSTED'],
    example: { body: { warehouseId: 2147483000 }, refuses: 'WAREHOUSE_NOT_FOUND' },
  }),
  edit: write('POST', '/api/companyInventory/update', '修改企业库存', 'stockIn:edit', {
    body: inventoryRecord,
    answer: ok,
    errors: [...BUSINESS_VIEW_ERRORS, 'ID_REQUIRED', 'INVENTORY_NOT_FOUND', 'WAREHOUSE_NOT_FOUND'],
    example: { body: { id: 2147483000 }, refuses: 'INVENTORY_NOT_FOUND' },
  }),
});
