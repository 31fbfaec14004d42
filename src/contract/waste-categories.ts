/** Waste categories: the categories a company handles, its own or another's. */
import { z } from 'zod';
import { companyListQuery } from './company-lists.js';
import { call, resource } from './define.js';
import { pageOf } from './fields.js';

export const wasteCategory = z.object({ code: z.string(), name: z.string(), category: z.string() });

export const wasteCategories = resource('waste-categories', '企业危废类别', {
  mine: call('GET', '/api/myWasteCategory', '本企业的危废类别', 'session', {
    answer: pageOf(wasteCategory),
    errors: [],
  }),
  // Another company's categories: for those who pick them for an order (a disposer fills orders with the producer's).
  ofCompany: call('GET', '/api/companyWasteCategory', '一个企业的危废类别', 'session', {
    query: companyListQuery,
    answer: pageOf(wasteCategory),
    errors: ['LOOKUP_DENIED'],
  }),
});
