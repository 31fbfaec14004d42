/**
 * User accounts: the administrators' user list and form, and each account's own profile, password,
 * e-mail, avatar and the personal centre's cities.
 */
import { z } from 'zod';
import { call, MULTIPART, resource, write } from './define.js';
import { field, idList, nullableText, ok, optId, pageOf, ref, text } from './fields.js';
import { pageQuery } from './paging.js';

/** An account as answered to those who may see it. */
export const userInfo = z.object({
  id: z.number(),
  username: z.string(),
  nickName: z.string(),
  ...nullableText('phone', 'email', 'sex'),
  dept: z.object({ id: z.number(), name: z.string() }).nullable(),
  deptId: z.number().nullable(),
  ...nullableText('deptCode', 'job', 'avatar'),
  company: z.number().nullable(),
  isAdmin: z.boolean(),
  pwdExpired: z.boolean(),
  ...nullableText('lastPasswordResetDate', 'permission'),
  enabled: z.boolean(),
  createTime: z.string().nullable(),
});
export type UserInfo = z.infer<typeof userInfo>;

/** An account as the user page lists it: with its roles and its company's name (所属企业). */
export const userWithRoles = userInfo.extend({
  roles: z.array(z.object({ id: z.number(), name: z.string() })),
  companyName: z.string().nullable(),
});

/** The administrators' user form. */
export const userBody = z.object({
  id: optId,
  username: text.optional(),
  nickName: text.optional(),
  phone: text.nullable().optional(),
  email: text.nullable().optional(),
  sex: text.nullable().optional(),
  deptId: optId,
  dept: ref.nullable().optional(),
  job: text.nullable().optional(),
  roles: z.array(ref).optional(),
  isAdmin: z.boolean().optional(),
  enabled: z.union([z.boolean(), z.string()]).optional(),
  permission: z.string().max(50).nullable().optional(),
  companyId: optId,
});

/** What the user form may refuse, adding or editing. */
const FORM_ERRORS = [
  'USERNAME_REQUIRED',
  'USERNAME_INVALID',
  'USERNAME_TAKEN',
  'NICKNAME_REQUIRED',
  'NICKNAME_LENGTH',
  'NICKNAME_HIDDEN_CHARS',
  'PHONE_REQUIRED',
  'PHONE_INVALID_11',
  'PHONE_TAKEN',
  'EMAIL_INVALID',
  'SEX_INVALID',
  'COMPANY_NOT_FOUND',
  'DEPT_NOT_FOUND',
  'DEPT_OTHER_COMPANY',
  'USER_OUTSIDE_SCOPE',
  'ROLE_NOT_FOUND',
  'ROLE_NOT_GRANTABLE',
  'ROLE_OTHER_COMPANY',
  'ROLE_LEVEL_NOT_ASSIGNABLE',
  'ADMIN_ONLY_SETS_ADMIN',
  'CANNOT_DEMOTE_SELF',
  'CANNOT_DISABLE_SELF',
] as const;

/** What changing one's own password may refuse (checkPasswordChange), here and in the expired-password form. */
export const PASSWORD_CHANGE_ERRORS = [
  'OLD_PASSWORD_REQUIRED',
  'NEW_PASSWORD_REQUIRED',
  'OLD_PASSWORD_WRONG',
  'PASSWORDS_DIFFER',
  'PASSWORD_UNCHANGED',
  'PASSWORD_RULE',
  'PASSWORD_DECRYPT_FAILED',
  'ACCOUNT_LOCKED',
] as const;

const idName = z.object({ id: z.number(), name: z.string() });

export const users = resource('users', '用户', {
  list: call('GET', '/api/users', '用户列表', 'user:list', {
    query: z.object({
      ...pageQuery,
      deptId: optId,
      companyId: optId,
      blurry: z.string().optional(),
      enabled: z.string().optional(),
    }),
    answer: pageOf(userWithRoles),
    errors: ['SORT_FIELD_UNSUPPORTED', 'SORT_DIRECTION_UNSUPPORTED'],
    example: { query: { page: 0, size: 10, sort: 'id,desc' } },
  }),
  add: write('POST', '/api/users', '新增用户', 'user:add', {
    body: userBody,
    status: 201,
    answer: userWithRoles,
    errors: FORM_ERRORS,
  }),
  edit: write('PUT', '/api/users', '修改用户', 'user:edit', {
    body: userBody,
    answer: userWithRoles,
    errors: [
      ...FORM_ERRORS,
      'USER_ID_REQUIRED',
      'USER_NOT_FOUND',
      'ADMIN_NOT_EDITABLE',
      'USER_LEVEL_NOT_MANAGEABLE',
      'USER_ROLES_NOT_MANAGEABLE',
      'CONFLICT',
    ],
  }),
  remove: write('DELETE', '/api/users', '删除用户', 'user:del', {
    body: idList,
    answer: ok,
    errors: [
      'NOTHING_TO_DELETE',
      'CANNOT_DELETE_SELF',
      'USER_NOT_FOUND',
      'ADMIN_NOT_DELETABLE',
      'USER_LEVEL_NOT_MANAGEABLE',
      'USER_ROLES_NOT_MANAGEABLE',
      'CONFLICT',
    ],
    example: { body: [2147483000] },
  }),
  search: call('GET', '/api/users/search', '按用户名或昵称查找用户', ['user:list', 'user:add', 'user:edit'], {
    query: z.object({ blurry: z.string().optional() }),
    answer: z.array(z.object({ id: z.number(), username: z.string(), nickName: z.string() })),
    errors: [],
    example: { query: { blurry: 'a' } },
  }),
  companies: call('GET', '/api/users/companies', '可为用户选择的所属企业', ['user:add', 'user:edit'], {
    query: z.object({ blurry: z.string().max(100).optional() }),
    answer: z.array(idName),
    errors: [],
  }),
  saveProfile: call('PUT', '/api/users/center', '修改个人信息', 'session', {
    log: '修改个人信息',
    body: z.object({ id: optId, nickName: text.optional(), phone: text.nullable().optional(), sex: text.nullable().optional() }),
    answer: ok,
    errors: [
      'PROFILE_OF_OTHERS',
      'NICKNAME_REQUIRED',
      'NICKNAME_LENGTH',
      'NICKNAME_HIDDEN_CHARS',
      'PHONE_REQUIRED',
      'PHONE_INVALID_11',
      'PHONE_TAKEN',
      'SEX_INVALID',
    ],
  }),
  centerCities: call('GET', '/api/users/center/cities', '个人中心：本省各市及其企业数', 'session', {
    answer: z.object({
      province: z.object({ code: z.string(), name: z.string() }).nullable(),
      cities: z.array(z.object({ code: z.string(), name: z.string(), companies: z.number() })),
    }),
    errors: [],
  }),
  changePassword: call('POST', '/api/users/updatePass', '修改密码', 'session', {
    pending: true,
    form: true,
    log: '修改密码',
    body: z.object({ oldPass: field, newPass: field, phone: field }).nullish(),
    answer: ok,
    errors: [...PASSWORD_CHANGE_ERRORS, 'PHONE_REQUIRED', 'PHONE_INVALID_11', 'PHONE_TAKEN'],
  }),
  passwordExpired: call('GET', '/api/users/updatePass/:x', '当前账号的密码是否已过期', 'session', {
    pending: true,
    params: z.object({ x: z.string() }),
    answer: z.object({ pwdExpired: z.boolean() }),
    errors: [],
    example: { params: { x: 'check' } },
  }),
  changeEmail: call('POST', '/api/users/updateEmail/:code', '修改邮箱', 'session', {
    log: '修改邮箱',
    params: z.object({ code: z.string() }),
    body: z.object({ pass: field, password: field, email: field }),
    answer: ok,
    errors: [
      'NEW_EMAIL_REQUIRED',
      'EMAIL_INVALID',
      'USER_NOT_FOUND',
      'EMAIL_UNCHANGED',
      'CURRENT_PASSWORD_REQUIRED',
      'PASSWORD_DECRYPT_FAILED',
      'PASSWORD_WRONG',
      'ACCOUNT_LOCKED',
      'CODE_WRONG_OR_EXPIRED',
    ],
  }),
  changeAvatar: call('POST', '/api/users/updateAvatar', '修改头像', 'session', {
    log: '修改头像',
    body: MULTIPART,
    answer: z.object({ status: z.number(), message: z.string(), avatar: z.string() }),
    errors: ['AVATAR_REQUIRED', 'AVATAR_TYPE_NOT_ALLOWED'],
  }),
});
