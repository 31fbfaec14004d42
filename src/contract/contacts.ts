/** Contacts: the linkmen of a company, for the pickers of its forms. */
import { z } from 'zod';
import { companyListQuery } from './company-lists.js';
import { call, resource } from './define.js';
import { nullableText, pageOf } from './fields.js';

export const contacts = resource({
  name: 'contacts',
  title: '企业联系人',
  calls: {
    list: call({
      method: 'GET',
      path: '/api/companyLinkman/list',
      summary: '本企业的联系人',
      access: 'session',
      query: companyListQuery,
      answer: pageOf(z.object({ id: z.number(), name: z.string(), ...nullableText('phone', 'position') })),
      errors: ['NO_COMPANY_DATA'],
    }),
  },
});
