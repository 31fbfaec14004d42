/** Waste categories: the categories a company handles, its own or another's. */
import { z } from 'zod';
import { companyListQuery } from './company-lists.js';
import { call, resource } from './define.js';
import { pageOf } from './fields.js';

export const wasteCategory = z.object({ code: z.string(), name: z.string(), category: z.string() });

export const wasteCategories = resource({
  name: 'waste-categories',
  title: '企业危废类别',
  calls: {
    mine: call({
      method: 'GET',
      path: '/api/myWasteCategory',
      summary: '本企业的危废类别',
      access: 'session',
      answer: pageOf(wasteCategory),
      errors: [],
    }),
    // Another company's categories: for those who pick them for an order (a disposer fills orders with the producer's).
    ofCompany: call({
      method: 'GET',
      path: '/api/companyWasteCategory',
      summary: '一个企业的危废类别',
      access: 'session',
      query: companyListQuery,
      answer: pageOf(wasteCategory),
      errors: ['LOOKUP_DENIED'],
    }),
  },
});
