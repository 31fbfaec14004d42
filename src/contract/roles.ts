/**
 * Roles: the role list and form, the menus a role grants and the departments a 自定义 role sees.
 */
import { z } from 'zod';
import { call, resource, write } from './define.js';
import { dbId, idList, ok, optId, pageOf, ref, text } from './fields.js';
import { pageQuery } from './paging.js';

/** The role form. */
export const roleBody = z.object({
  id: optId,
  name: text.optional(),
  level: z.coerce.number().int().min(1).max(99).optional(),
  description: text.nullable().optional(),
  dataScope: z.string().optional(),
  /** The departments a 自定义 role sees: ids, or eladmin's `{ id }` objects. */
  depts: z
    .array(z.union([dbId, ref]))
    .optional()
    .transform((v) => v?.map((d) => (typeof d === 'number' ? d : d.id))),
  menus: z.array(ref).optional(),
  /** The company that owns a new role (managers of 全部 only; null: a platform role). */
  companyId: optId,
});

/** A role as answered. */
export const roleItem = z.object({
  id: z.number(),
  name: z.string(),
  level: z.number(),
  description: z.string().nullable(),
  dataScope: z.string(),
  /** The company that owns the role; null for a platform role. */
  companyId: z.number().nullable(),
  depts: z.array(z.object({ id: z.number(), name: z.string() })),
  menus: z.array(z.object({ id: z.number() })),
  createTime: z.string().nullable(),
});
export type RoleItem = z.infer<typeof roleItem>;

/** A department a 自定义 role may be given. */
export interface ScopeDeptNode {
  id: number;
  name: string;
  enabled: boolean;
  children?: ScopeDeptNode[];
}
export const scopeDeptNode: z.ZodType<ScopeDeptNode> = z.lazy(() =>
  z.object({ id: z.number(), name: z.string(), enabled: z.boolean(), children: z.array(scopeDeptNode).optional() }),
);

/** Who reads the role list: the role page and the pages that give accounts their roles. */
export const ROLE_READERS = ['role:list', 'user:list', 'user:add', 'user:edit', 'companyApply:list', 'companyApply:approve'] as const;

/** What the role form may refuse, adding or editing. */
const FORM_ERRORS = [
  'ROLE_NAME_REQUIRED',
  'ROLE_NAME_TAKEN',
  'ROLE_NAME_HIDDEN_CHARS',
  'ROLE_SCOPE_INVALID',
  'ROLE_SCOPE_DEPTS_REQUIRED',
  'ROLE_SCOPE_DEPT_NOT_FOUND',
  'ROLE_SCOPE_BEYOND_OWN',
  'COMPANY_ROLE_NOT_ALL',
  'COMPANY_ROLE_DEPTS',
  'MENU_NOT_FOUND',
] as const;

export const roles = resource('roles', '角色', {
  list: call('GET', '/api/roles', '角色列表', 'session', {
    query: z.object({ ...pageQuery, blurry: z.string().optional() }),
    answer: pageOf(roleItem),
    errors: ['LOOKUP_DENIED', 'SORT_FIELD_UNSUPPORTED', 'SORT_DIRECTION_UNSUPPORTED'],
    example: { query: { page: 0, size: 10 } },
  }),
  depts: call('GET', '/api/roles/depts', '自定义数据权限可选的部门', ['role:add', 'role:edit'], {
    answer: z.array(scopeDeptNode),
    errors: [],
  }),
  one: call('GET', '/api/roles/:id', '角色详情', ROLE_READERS, {
    params: z.object({ id: dbId }),
    answer: roleItem,
    errors: ['ROLE_NOT_FOUND'],
    example: { params: { id: 1 } },
  }),
  add: write('POST', '/api/roles', '新增角色', 'role:add', {
    body: roleBody,
    status: 201,
    answer: z.object({ id: z.number() }),
    errors: [...FORM_ERRORS, 'COMPANY_NOT_FOUND', 'ROLE_ADD_NEEDS_COMPANY', 'ROLE_LEVEL_NOT_MANAGEABLE', 'MENU_NOT_GRANTABLE'],
  }),
  edit: write('PUT', '/api/roles', '修改角色', 'role:edit', {
    body: roleBody,
    answer: ok,
    errors: [
      ...FORM_ERRORS,
      'ROLE_ID_REQUIRED',
      'ROLE_NOT_FOUND',
      'PLATFORM_ROLE_READ_ONLY',
      'ROLE_LEVEL_NOT_MANAGEABLE',
      'MENU_NOT_GRANTABLE',
    ],
  }),
  grantMenus: write('PUT', '/api/roles/menu', '修改角色菜单', 'role:edit', {
    body: z.object({ id: dbId, menus: z.array(ref) }),
    answer: ok,
    errors: ['ROLE_NOT_FOUND', 'PLATFORM_ROLE_READ_ONLY', 'MENU_NOT_FOUND', 'ROLE_LEVEL_NOT_MANAGEABLE', 'MENU_NOT_GRANTABLE'],
  }),
  remove: write('DELETE', '/api/roles', '删除角色', 'role:del', {
    body: idList,
    answer: ok,
    errors: ['NOTHING_TO_DELETE', 'ROLE_NOT_FOUND', 'PLATFORM_ROLE_READ_ONLY', 'ROLE_IN_USE', 'ROLE_LEVEL_NOT_MANAGEABLE'],
    example: { body: [2147483000] },
  }),
});
