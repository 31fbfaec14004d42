/** Companies: the company picker of forms (the inquiry's asked disposer, a contract's or an order's parties). */
import { z } from 'zod';
import { call, resource } from './define.js';
import { pageOf } from './fields.js';

export const companyOption = z.object({ id: z.number(), name: z.string(), type: z.string() });

export const companies = resource('companies', '企业', {
  // Active companies, of one type or of several joined by commas. For the manual disposal order
  // (disposalOrder:add) and the list permission of a view whose field draws its options from it.
  list: call('GET', '/api/company/list', '企业选择列表', 'session', {
    query: z.object({ type: z.string().max(20).optional(), blurry: z.string().max(100).optional() }),
    answer: pageOf(companyOption),
    errors: ['LOOKUP_DENIED'],
  }),
});
