/** Company contracts: the effective contracts with a party A, and how many of one's contracts end soon. */
import { z } from 'zod';
import { call, resource } from './define.js';
import { nullableText } from './fields.js';

/** A contract as the manual disposal order picks it. */
export const effectiveContract = z.object({
  id: z.number(),
  contractNo: z.string(),
  ...nullableText('partyAName', 'partyAPhone', 'partyARegionFmt', 'partyAAddress'),
  partyAUserId: z.number().nullable(),
  partyARegion: z.string().nullable(),
  beginTime: z.string(),
  endTime: z.string(),
  filePath: z.string().nullable(),
});

export const companyContracts = resource('company-contracts', '企业合同', {
  // party A by id or by the company's code (dept or credit code), as the company picker hands it over.
  effective: call('GET', '/api/disposalOrder/effectiveContract', '与签约企业的有效合同', 'session', {
    query: z.object({ partyACompany: z.string().max(64).optional() }),
    answer: z.object({ status: z.literal(200), data: z.array(effectiveContract) }),
    errors: ['NO_COMPANY_DATA', 'PARTY_A_REQUIRED'],
    example: { query: { partyACompany: '1' } },
  }),
  expiring: call('GET', '/api/expiringContracts', '即将到期的合同数', 'session', {
    answer: z.object({ count: z.number() }),
    errors: [],
  }),
});
