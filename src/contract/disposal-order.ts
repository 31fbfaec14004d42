/**
 * The manual disposal order (新增手工处置单): whether the caller may add one (the list's 手工录入
 * button), and the order itself, written as a record of the disposal-order view with a copy of the
 * form as sent. Its fields and messages are shared with the dialog (src/shared/manual-order.ts).
 */
import { z } from 'zod';
import type { manualOrderSchema } from '../shared/manual-order.js';
import { call, resource, write } from './define.js';
import { ok } from './fields.js';
import { BUSINESS_VIEW_ERRORS } from './lowcode-fields.js';

/**
 * The order form (manualOrderSchema), judged by the handler so that every field's problem is answered;
 * the dialog leaves blank fields out, and a required one left out is such a problem.
 */
export const manualOrderBody = z.custom<Partial<z.input<typeof manualOrderSchema>>>(() => true);

export const disposalOrders = resource('disposal-order', '手工处置单', {
  addButton: call('GET', '/api/disposalOrder/addBtnShow', '是否显示手工录入', 'session', {
    answer: z.object({ status: z.number(), addBtnShow: z.union([z.literal(0), z.literal(1)]) }),
    errors: [],
    example: { as: 'disposer' },
  }),
  // The form's problems answer INVALID_INPUT with the first one's message and every field's in `errors`.
  // Party A is named by company id, department code or credit code; party B is the unloading point's
  // company, else the caller's own.
  add: write('POST', '/api/disposalOrder/insertManualDisposalOrder', '新增手工处置单', 'disposalOrder:add', {
    body: manualOrderBody,
    answer: ok.extend({ id: z.number(), orderNo: z.string(), amount: z.number() }),
    errors: [
      ...BUSINESS_VIEW_ERRORS,
      'PARTY_A_NOT_FOUND',
      'PARTY_A_IS_DISPOSER',
      'ORDER_REGION_INVALID',
      'PROCESS_NOT_FOUND',
      'WAREHOUSE_NOT_FOUND',
      'UNLOADING_POINT_REQUIRED',
      'CONTRACT_NOT_FOUND',
      'CONTRACT_OF_OTHER_PARTY',
      'WASTE_CODE_NOT_FOUND',
      'DOC_NUMBER_EXHAUSTED',
    ],
    example: { as: 'disposer', body: {}, refuses: 'INVALID_INPUT' },
  }),
});
