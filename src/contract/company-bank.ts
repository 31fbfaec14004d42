/**
 * Company bank information: the settlement account of the caller's company (开户银行, 账户名称, 银行账号),
 * read and saved by its signed-in users; a user without a company has none and is refused.
 */
import { z } from 'zod';
import { call, resource } from './define.js';
import { nullableText, ok } from './fields.js';

export const bankInfo = z.object({
  companyId: z.number(),
  ...nullableText('bankName', 'accountName', 'accountNo', 'updateTime'),
});

export const bankBody = z.object({
  bankName: z.string().max(100, '开户银行不能超过100个字符').optional(),
  accountName: z.string().max(100, '账户名称不能超过100个字符').optional(),
  accountNo: z.string().max(40, '银行账号格式不正确').optional(),
});

export const companyBank = resource('company-bank', '企业银行信息', {
  info: call('GET', '/api/companyBank/info', '本企业的银行信息', 'session', {
    answer: bankInfo,
    errors: ['NO_COMPANY'],
    example: { as: 'producer' },
  }),
  save: call('PUT', '/api/companyBank', '保存本企业的银行信息', 'session', {
    log: '修改银行信息',
    body: bankBody,
    answer: ok,
    errors: ['NO_COMPANY', 'BANK_NAME_REQUIRED', 'BANK_ACCOUNT_NAME_REQUIRED', 'BANK_ACCOUNT_NO_REQUIRED', 'BANK_ACCOUNT_NO_INVALID'],
  }),
});
