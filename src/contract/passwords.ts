/**
 * Passwords and the e-mail code: an account's password age and the expired-password dialog, the
 * administrators' reset to the default password, and the code sent before an e-mail change.
 */
import { z } from 'zod';
import { call, resource } from './define.js';
import { field, ok, text } from './fields.js';
import { PASSWORD_CHANGE_ERRORS } from './users.js';

export const passwords = resource('passwords', '密码', {
  check: call('GET', '/api/pwd/check', '当前账号的密码期限', 'session', {
    pending: true,
    answer: z.object({
      pwdExpired: z.boolean(),
      lastPasswordResetDate: z.string().nullable(),
      maxAgeDays: z.number(),
      daysLeft: z.number().nullable(),
    }),
    errors: [],
  }),
  save: call('POST', '/api/pwd/save', '修改过期密码', 'session', {
    pending: true,
    log: '修改密码',
    body: z.object({ oldPass: field, newPass: field, confirmPass: field }).nullish(),
    answer: ok,
    errors: PASSWORD_CHANGE_ERRORS,
  }),
  reset: call('POST', '/api/pwd/reset', '重置为默认密码', 'user:edit', {
    log: '重置密码',
    // The users: `[1, 2]`, `{ ids: [1, 2] }` or `{ id: 1 }`, read by the handler.
    body: z.unknown(),
    answer: ok.extend({ count: z.number() }),
    errors: ['USER_NOT_FOUND', 'USER_LEVEL_NOT_MANAGEABLE', 'USER_ROLES_NOT_MANAGEABLE', 'CONFLICT'],
    example: { body: { ids: [2147483000] } },
  }),
  sendEmailCode: call('POST', '/api/code/resetEmail', '发送修改邮箱的验证码', 'session', {
    query: z.object({ email: text.optional() }),
    body: z.object({ type: z.string().optional(), value: text.optional(), email: text.optional() }).nullish(),
    answer: ok,
    errors: ['EMAIL_REQUIRED', 'EMAIL_INVALID', 'CODE_SENT_RECENTLY'],
  }),
});
