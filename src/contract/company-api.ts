/**
 * The company behind an account (and whether the dashboard lists its filling-system entries), read and
 * updated by its own users; its name only by those holding company:edit.
 */
import { z } from 'zod';
import { call, resource } from './define.js';
import { dbId, judgedByHandler, nullableText, ok } from './fields.js';

export const companyInfo = z.object({
  id: z.number().nullable(),
  ...nullableText(
    'name',
    'type',
    'typeLabel',
    'creditCode',
    'bciId',
    'deptCode',
    'region',
    'regionFmt',
    'address',
    'contactName',
    'contactPhone',
  ),
  status: z.number().nullable(),
  /** Whether the dashboard lists the filling-system entries: not the supervisory department, and a company id (bciId) on file. */
  fillingEntry: z.boolean(),
});

const optionalText = (max: number, message: string) => z.string().trim().max(max, message).nullish();

/**
 * The company form, judged by the handler so that each field's problem is answered as it is: a message
 * that is a catalogue code answers that code, any other message its text under INVALID_INPUT. No app form
 * judges by it, so a message may be a code.
 */
export const companyUpdateBody = z.object({
  id: dbId.optional(),
  name: z.string().trim().min(1, 'COMPANY_NAME_REQUIRED').max(255, 'COMPANY_NAME_TOO_LONG').optional(),
  creditCode: optionalText(18, 'CREDIT_CODE_INVALID'),
  bciId: optionalText(64, '企业编号不能超过64个字符'),
  region: optionalText(255, '地区过长'),
  regionFmt: optionalText(255, '地区过长'),
  address: optionalText(512, '地址不能超过512个字符'),
  contactName: optionalText(100, '联系人不能超过100个字符'),
  contactPhone: optionalText(20, 'MOBILE_INVALID'),
});

export const companyApi = resource('company-api', '本企业信息', {
  // Those who see every company may ask for any company's code; everyone else gets their own company.
  info: call('GET', '/api/companyApi/info', '本企业信息', 'session', {
    query: z.object({ deptCode: z.string().max(64).optional() }),
    answer: companyInfo,
    errors: [],
  }),
  update: call('POST', '/api/companyApi/update', '修改本企业信息', 'session', {
    log: '修改企业信息',
    body: judgedByHandler(companyUpdateBody),
    answer: ok,
    errors: [
      'NO_COMPANY',
      'COMPANY_OF_OTHERS',
      'COMPANY_NAME_REQUIRED',
      'COMPANY_NAME_TOO_LONG',
      'CREDIT_CODE_INVALID',
      'MOBILE_INVALID',
      'COMPANY_NOT_FOUND',
      'COMPANY_RENAME_DENIED',
      'COMPANY_NAME_TAKEN',
      'COMPANY_NAME_HIDDEN_CHARS',
      'COMPANY_NAME_LETTERS',
      'CONTACT_NAME_HIDDEN_CHARS',
      'CREDIT_CODE_TAKEN',
      'BCI_ID_TAKEN',
      'COMPANY_INFO_DUPLICATE',
    ],
  }),
});
