/**
 * Company applications (企业入驻申请): anyone applies from the login page with a captcha; an
 * administrator lists the applications and approves one (creating the company and its first account)
 * or rejects it with a reason.
 */
import { z } from 'zod';
import { call, resource } from './define.js';
import { dbId, nullableText, ok, pageOf, ref } from './fields.js';
import { pageQuery } from './paging.js';

/** Form values may arrive as strings or numbers; absent, null and blank all read as ''. */
const formText = z
  .union([z.string(), z.number()])
  .nullable()
  .optional()
  .transform((v) => (v === null || v === undefined ? '' : String(v).trim()));

/** The apply form: the region as comma-joined codes down to a district, the captcha's code and uuid. */
export const applyBody = z.object({
  name: formText,
  type: formText,
  comtype: formText,
  region: formText,
  regionFmt: formText,
  applicant: formText,
  phone: formText,
  source: formText,
  code: formText,
  uuid: formText,
});

/** An application as the review page lists it; status 0 pending, 1 approved, 2 rejected. */
export const applicationItem = z.object({
  id: z.number(),
  name: z.string(),
  type: z.string(),
  comtype: z.string().nullable(),
  region: z.string(),
  regionFmt: z.string(),
  applicant: z.string(),
  phone: z.string(),
  source: z.number(),
  status: z.number(),
  ...nullableText('createTime', 'reviewerName', 'reviewTime', 'reason'),
  companyId: z.number().nullable(),
  userId: z.number().nullable(),
  username: z.string().nullable(),
});

/** An approval: the new account's username (the applicant's phone when blank), its roles and permission. */
export const approveBody = z.object({
  id: dbId,
  username: z.string().max(50).optional(),
  deptId: dbId.nullable().optional(),
  roles: z.array(ref).optional(),
  permission: z.string().max(50).nullable().optional(),
});

export const rejectBody = z.object({ id: dbId, reason: z.string().optional() });

export const companyApplications = resource('company-application', '企业入驻申请', {
  apply: call('POST', '/api/companyApplication/insert', '申请入驻', 'public', {
    body: applyBody,
    answer: z.object({ status: z.literal(200), message: z.string() }),
    errors: [
      'COMPANY_NAME_REQUIRED',
      'COMPANY_NAME_TOO_LONG',
      'COMPANY_NAME_HIDDEN_CHARS',
      'COMPANY_NAME_LETTERS',
      'COMPANY_TYPE_REQUIRED',
      'COMPANY_REGION_REQUIRED',
      'APPLICANT_REQUIRED',
      'APPLICANT_TOO_LONG',
      'APPLICANT_HIDDEN_CHARS',
      'MOBILE_REQUIRED',
      'MOBILE_INVALID',
      'CAPTCHA_ENTRY_REQUIRED',
      'CAPTCHA_MISSING_OR_EXPIRED',
      'CAPTCHA_WRONG',
      'COMPANY_TYPE_INVALID',
      'COMPANY_REGION_INVALID',
      'COMPANY_REGION_NOT_COUNTY',
      'COMPANY_NAME_TAKEN',
      'APPLICATION_PENDING',
    ],
    example: { body: {}, refuses: 'COMPANY_NAME_REQUIRED' },
  }),
  // Pending first (the oldest on top), then the decided ones, latest first.
  list: call('GET', '/api/companyApplication', '入驻申请列表', 'companyApply:list', {
    query: z.object({ ...pageQuery, blurry: z.string().optional(), status: z.string().optional() }),
    answer: pageOf(applicationItem),
    errors: ['APPLICATION_STATUS_INVALID'],
    example: { query: { page: 0, size: 10, status: '0' } },
  }),
  // Only a manager of 全部 approves: approval makes a company. Its account gets only platform roles.
  approve: call('POST', '/api/companyApplication/approve', '审核通过入驻申请', 'companyApply:approve', {
    log: '审核通过企业入驻',
    body: approveBody,
    answer: ok.extend({ companyId: z.number(), userId: z.number(), username: z.string() }),
    errors: [
      'APPLICATION_NOT_FOUND',
      'APPLICATION_DECIDED',
      'USERNAME_INVALID',
      'USERNAME_TAKEN',
      'PHONE_TAKEN',
      'COMPANY_EXISTS',
      'SCOPE_ALL_ONLY',
      'DEPT_OTHER_COMPANY',
      'ROLE_REQUIRED',
      'ROLE_NOT_FOUND',
      'ROLE_LEVEL_NOT_ASSIGNABLE',
      'ROLE_OTHER_COMPANY',
    ],
    example: { body: { id: 2147483000, roles: [{ id: 3 }] }, refuses: 'APPLICATION_NOT_FOUND' },
  }),
  reject: call('POST', '/api/companyApplication/reject', '驳回入驻申请', 'companyApply:reject', {
    log: '驳回企业入驻',
    body: rejectBody,
    answer: ok,
    errors: ['REJECT_REASON_REQUIRED', 'REJECT_REASON_TOO_LONG', 'APPLICATION_NOT_FOUND', 'APPLICATION_DECIDED'],
    example: { body: { id: 2147483000, reason: '资料不全' }, refuses: 'APPLICATION_NOT_FOUND' },
  }),
});
