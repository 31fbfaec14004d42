/**
 * Inventory limits (库存限额): the most a company may hold, per warehouse and waste category, which the
 * warehouse inventories are checked against. A company's accounts read and write their own company's
 * limits; those who see every company, any company's.
 */
import { z } from 'zod';
import { decimalPlaces } from '../model/index.js';
import { call, resource, write } from './define.js';
import { dbId, judgedByHandler, nullableText, ok, pageOf } from './fields.js';
import { optionalIdParam, pageFields } from './paging.js';

export const limitRow = z.object({
  id: z.number(),
  companyId: z.number(),
  companyName: z.string().nullable(),
  warehouseId: z.number().nullable(),
  ...nullableText('warehouseName', 'wasteCategory'),
  maxQuantity: z.number(),
  remark: z.string().nullable(),
  createTime: z.string(),
});

/** A quantity in tons: more than 0, at most 3 decimals. */
const tons = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\s*\d+(\.\d+)?\s*$/, '请输入正确的数量')
      .transform(Number),
  ])
  .pipe(
    z
      .number()
      .gt(0, '数量必须大于0')
      .lt(1e13, '数量过大')
      .refine((n) => decimalPlaces(n) <= 3, '数量最多保留3位小数'),
  );

/**
 * A limit: for the company, one of its warehouses (the warehouse's company then), and a waste category
 * (none: every category). Judged by the handler so that each field's message is answered as it is.
 */
export const limitBody = z.object({
  id: dbId.optional(),
  companyId: optionalIdParam,
  warehouseId: optionalIdParam.nullable(),
  wasteCategory: z.string().trim().max(40).nullish(),
  maxQuantity: tons,
  remark: z.string().trim().max(255).nullish(),
});

/** The ids of the limits to delete. */
export const limitIds = z.array(dbId, { message: 'NOTHING_TO_DELETE' }).min(1, 'NOTHING_TO_DELETE');

/** Who may write limits: stock-in or warehouse editors. */
const WRITE = ['stockIn:edit', 'warehouse:edit'] as const;
const SAVE_ERRORS = [
  'NO_COMPANY',
  'WAREHOUSE_NOT_FOUND',
  'WAREHOUSE_OF_OTHER_COMPANY',
  'COMPANY_REQUIRED',
  'WASTE_CATEGORY_NOT_FOUND',
] as const;

const removeCall = <P extends '/api/config' | '/api/config/'>(path: P) =>
  write('DELETE', path, '删除库存限额', WRITE, {
    body: judgedByHandler(limitIds),
    answer: ok,
    errors: ['NOTHING_TO_DELETE'],
    example: { as: 'producer', body: [2147483000] },
  });

export const inventoryConfig = resource('inventory-config', '库存限额', {
  list: call('GET', '/api/config', '库存限额列表', 'session', {
    query: z.object({ companyId: optionalIdParam, ...pageFields }),
    answer: pageOf(limitRow),
    errors: ['NO_COMPANY'],
    example: { as: 'producer', query: { page: 0, size: 10 } },
  }),
  add: write('POST', '/api/config', '新增库存限额', WRITE, {
    body: judgedByHandler(limitBody),
    answer: ok.extend({ id: z.number() }),
    errors: SAVE_ERRORS,
    example: { as: 'producer', body: { warehouseId: 2147483000, maxQuantity: 1 }, refuses: 'WAREHOUSE_NOT_FOUND' },
  }),
  edit: write('PUT', '/api/config', '修改库存限额', WRITE, {
    body: judgedByHandler(limitBody),
    answer: ok.extend({ id: z.number() }),
    errors: [...SAVE_ERRORS, 'ID_REQUIRED', 'INVENTORY_LIMIT_NOT_FOUND'],
    example: { as: 'producer', body: { id: 2147483000, maxQuantity: 1 }, refuses: 'INVENTORY_LIMIT_NOT_FOUND' },
  }),
  // The address the specification names, with its trailing slash; the same delete answers without it.
  remove: removeCall('/api/config/'),
  removeUnslashed: removeCall('/api/config'),
});
