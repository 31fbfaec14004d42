/**
 * The environmental authority's filling system: a short-lived token for the caller's company and the
 * addresses of its entries (转移联单填报, 管理计划查询) with that token. The answer's own `code` says
 * whether there is an entry: FILLING_OK, or why not (with `data` null).
 */
import { z } from 'zod';
import { call, resource } from './define.js';

/** The `code` of an answer that holds a token; any other code means no entry. */
export const FILLING_OK = '00000';

export const fillingToken = z.object({
  code: z.string(),
  message: z.string(),
  data: z
    .object({
      token: z.string(),
      companyCode: z.string(),
      baseUrl: z.string(),
      dangerUrl: z.string(),
      planUrl: z.string(),
      expiresAt: z.number(),
    })
    .nullable(),
});

export const fillingSystem = resource('filling-system', '固废管理信息系统入口', {
  // The company is named by its code (company id, credit code or department code), as CompanyCode or companyCode.
  token: call('GET', '/api/guFeiUrl/getTokenByCompayCode', '填报系统的凭证与入口地址', 'session', {
    query: z.object({ CompanyCode: z.string().max(64).optional(), companyCode: z.string().max(64).optional() }),
    answer: fillingToken,
    errors: [],
    example: { as: 'producer', query: { CompanyCode: 'BCI3205050001' } },
  }),
});
