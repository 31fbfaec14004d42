/** Contacts: the linkmen of a company, for the pickers of its forms. */
import { z } from 'zod';
import { companyListQuery } from './company-lists.js';
import { call, resource } from './define.js';
import { nullableText, pageOf } from './fields.js';

export const contacts = resource('contacts', '企业联系人', {
  list: call('GET', '/api/companyLinkman/list', '本企业的联系人', 'session', {
    query: companyListQuery,
    answer: pageOf(z.object({ id: z.number(), name: z.string(), ...nullableText('phone', 'position') })),
    errors: ['NO_COMPANY_DATA'],
  }),
});
