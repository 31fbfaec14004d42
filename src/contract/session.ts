/**
 * The session: the first start's initialisation, the login (captcha, public key, sign-in), the signed-in
 * account's information, the logout and the acceptance of the entry agreement.
 */
import { z } from 'zod';
import { call, FILE, resource } from './define.js';
import { field, nullableText, ok } from './fields.js';
import { userInfo } from './users.js';

/** The login form: form fields arrive as strings, JSON ones may be numbers. */
export const loginBody = z.object({ username: field, password: field, code: field, uuid: field, rememberMe: field }).nullish();

/** A signed-in account: 200 with its roles, or 10001 while the entry agreement waits. */
export const loginAnswer = z.object({
  status: z.number(),
  message: z.string().optional(),
  token: z.string(),
  user: userInfo,
  roles: z.array(z.string()).optional(),
});

/** The signed-in account's company, as the session answers it. */
export const sessionCompany = z
  .object({
    id: z.number(),
    name: z.string(),
    type: z.string(),
    ...nullableText('regionFmt', 'address', 'deptCode'),
  })
  .nullable();

const LOGIN_ERRORS = [
  'USERNAME_REQUIRED',
  'PASSWORD_REQUIRED',
  'CAPTCHA_REQUIRED',
  'CAPTCHA_MISSING_OR_EXPIRED',
  'CAPTCHA_WRONG',
  'PASSWORD_DECRYPT_FAILED',
  'ACCOUNT_LOCKED',
  'LOGIN_FAILED',
  'ACCOUNT_INACTIVE',
] as const;

const login = {
  method: 'POST',
  summary: '登录',
  access: 'public',
  log: '用户登录',
  form: true,
  body: loginBody,
  answer: loginAnswer,
  errors: LOGIN_ERRORS,
} as const;

export const session = resource('session', '会话', {
  initCheck: call('GET', '/api/init/check', '系统是否已初始化', 'public', {
    answer: z.object({ status: z.number(), data: z.object({ inited: z.boolean() }) }),
    errors: [],
  }),
  init: call('POST', '/api/init', '初始化系统', 'public', {
    body: z.object({ systemName: z.string().trim().min(1, '请输入系统名称').max(100, '系统名称过长') }),
    answer: ok,
    errors: ['SYSTEM_INITIALISED'],
  }),
  captcha: call('GET', '/api/auth/code', '登录验证码', 'public', {
    answer: z.object({ img: z.string(), uuid: z.string() }),
    errors: [],
  }),
  publicKey: call('GET', '/api/auth/publicKey', '加密密码的 RSA 公钥（PEM 文本）', 'public', {
    answer: FILE,
    errors: [],
  }),
  login: call({ ...login, path: '/api/auth/login' }),
  login1: call({ ...login, path: '/api/auth/login1', summary: '登录（第二个入口）' }),
  info: call('GET', '/api/auth/info', '当前账号、角色及所属企业', 'session', {
    pending: true,
    answer: z.object({ user: userInfo, roles: z.array(z.string()), company: sessionCompany }),
    errors: [],
  }),
  logout: call('DELETE', '/api/auth/logout', '退出登录', 'session', {
    pending: true,
    answer: ok,
    errors: [],
  }),
  enter: call('GET', '/api/guFeiUrl/enter', '同意入驻协议', 'session', {
    pending: true,
    query: z.object({ code: z.string().max(2048).optional(), deptCode: z.string().max(64).optional() }),
    answer: ok,
    errors: ['ENTRY_CODE_REQUIRED', 'ENTRY_CODE_INVALID', 'ENTRY_DEPT_MISMATCH'],
    example: { query: { deptCode: 'x' }, refuses: 'ENTRY_DEPT_MISMATCH' },
  }),
});
