/**
 * Testing applications (处置检测申请): a company asks a disposer to test samples of a waste; the
 * disposer's company is told. Each company lists the applications it made and those sent to it;
 * those who see every company list them all.
 */
import { z } from 'zod';
import { MOBILE_RE } from '../shared/manual-order.js';
import { call, resource } from './define.js';
import { INT4_MAX, judgedByHandler, ok, pageOf } from './fields.js';
import { pageFields } from './paging.js';

/**
 * The application form, judged by the handler so that each field's message is answered as it is; a
 * problem with a catalogue code of its own names the code (the form is the server's only).
 */
export const testingBody = z.object({
  disposerCompanyId: z.coerce
    .number({ message: 'DISPOSER_REQUIRED' })
    .int('DISPOSER_REQUIRED')
    .positive({ message: 'DISPOSER_REQUIRED' })
    .max(INT4_MAX, { message: 'DISPOSER_REQUIRED' }),
  wasteCategoryCode: z.string({ message: '请输入危废代码' }).trim().min(1, '请输入危废代码').max(20),
  wasteName: z.string({ message: '请输入危废名称' }).trim().min(1, '请输入危废名称').max(255),
  quantity: z.coerce.number().positive('数量必须大于0').max(1e9).optional(),
  sampleCount: z.coerce.number().int().min(1, '样品数量至少为1').max(1000).optional(),
  linkman: z.string({ message: '请输入联系人' }).trim().min(1, '请输入联系人').max(100),
  phone: z.string({ message: 'MOBILE_REQUIRED' }).trim().min(1, 'MOBILE_REQUIRED').regex(MOBILE_RE, 'MOBILE_INVALID'),
  remark: z.string().trim().max(1024).nullish(),
});

/** An application as listed; status 0 submitted, 1 accepted, 2 tested, 3 refused. */
export const testingItem = z.object({
  id: z.number(),
  applicantName: z.string().nullable(),
  disposerCompanyId: z.number(),
  disposerName: z.string(),
  wasteCategoryCode: z.string(),
  wasteName: z.string(),
  quantity: z.number().nullable(),
  sampleCount: z.number(),
  linkman: z.string(),
  phone: z.string(),
  remark: z.string().nullable(),
  status: z.number(),
  createTime: z.string(),
});

export const testingApplications = resource('testing-application', '处置检测申请', {
  apply: call('POST', '/api/dispoaslTestingApplication/apply', '提交检测申请', 'session', {
    log: '处置检测申请',
    body: judgedByHandler(testingBody),
    answer: ok.extend({ id: z.number() }),
    errors: ['NO_COMPANY', 'DISPOSER_REQUIRED', 'MOBILE_REQUIRED', 'MOBILE_INVALID', 'WASTE_CODE_NOT_FOUND'],
    example: { as: 'producer', body: {}, refuses: 'DISPOSER_REQUIRED' },
  }),
  list: call('GET', '/api/dispoaslTestingApplication', '检测申请列表', 'session', {
    query: z.object({ ...pageFields }),
    answer: pageOf(testingItem),
    errors: [],
    example: { as: 'disposer', query: { page: 0, size: 10 } },
  }),
});
