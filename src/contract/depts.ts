/**
 * Departments: the trees pickers read, and the department list and form administrators edit.
 */
import { z } from 'zod';
import { call, resource, write } from './define.js';
import { idList, int, ok, optId, pageOf, sortNum, text } from './fields.js';

/** The department form. */
export const deptBody = z.object({
  id: optId,
  pid: optId,
  name: text.optional(),
  code: z.string().max(50).nullable().optional(),
  deptSort: sortNum.optional(),
  enabled: z.boolean().optional(),
  /** The company a new top department belongs to (managers of 全部 only; null: the platform's). */
  companyId: optId,
});

/** A department as the department page lists it. */
export const deptItem = z.object({
  id: z.number(),
  pid: z.number().nullable(),
  name: z.string(),
  code: z.string().nullable(),
  deptSort: z.number(),
  enabled: z.boolean(),
  /** The company that owns the department; null for the platform's own. */
  companyId: z.number().nullable(),
  hasChildren: z.boolean(),
  createTime: z.string().nullable(),
});
export type DeptItem = z.infer<typeof deptItem>;

/** A department of the pickers' tree. */
export interface DeptNode {
  id: number;
  name: string;
  code: string | null;
  /** The company that owns the department; null for the platform's own. */
  companyId: number | null;
  children?: DeptNode[];
}
export const deptNode: z.ZodType<DeptNode> = z.lazy(() =>
  z.object({
    id: z.number(),
    name: z.string(),
    code: z.string().nullable(),
    companyId: z.number().nullable(),
    children: z.array(deptNode).optional(),
  }),
);

/** What the department form may refuse, adding or editing. */
const FORM_ERRORS = [
  'DEPT_NAME_REQUIRED',
  'DEPT_NAME_HIDDEN_CHARS',
  'DEPT_NAME_LETTERS',
  'PARENT_DEPT_NOT_FOUND',
  'PARENT_DEPT_CYCLE',
  'DEPT_OUTSIDE_SCOPE',
  'DEPT_OTHER_COMPANY_PARENT',
  'DEPT_CODE_ALL_ONLY',
  'DEPT_CODE_TAKEN',
  'DEPT_NAME_TAKEN',
] as const;

export const depts = resource('depts', '部门', {
  children: call('GET', '/api/dept/list', '部门选择：一个部门的下级部门和账号', 'session', {
    query: z.object({ deptId: int.optional() }),
    answer: z.object({
      depts: z.array(z.object({ id: z.number(), name: z.string(), hasChildren: z.boolean() })),
      users: z.array(z.object({ id: z.number(), username: z.string(), nickName: z.string() })),
    }),
    errors: ['LOOKUP_DENIED'],
  }),
  tree: call('GET', '/api/dept/find', '部门树（选择部门）', 'session', {
    query: z.object({ scope: z.enum(['manage']).optional() }),
    answer: z.object({ status: z.number(), data: z.array(deptNode) }),
    errors: ['LOOKUP_DENIED'],
  }),
  list: call('GET', '/api/dept', '部门列表（一层）', 'dept:list', {
    query: z.object({ pid: optId, name: z.string().optional() }),
    answer: pageOf(deptItem),
    errors: [],
  }),
  add: write('POST', '/api/dept', '新增部门', 'dept:add', {
    body: deptBody,
    status: 201,
    answer: z.object({ id: z.number() }),
    errors: [...FORM_ERRORS, 'COMPANY_NOT_FOUND'],
  }),
  edit: write('PUT', '/api/dept', '修改部门', 'dept:edit', {
    body: deptBody,
    answer: ok,
    errors: [...FORM_ERRORS, 'DEPT_ID_REQUIRED', 'DEPT_NOT_FOUND'],
  }),
  remove: write('DELETE', '/api/dept', '删除部门', 'dept:del', {
    body: idList,
    answer: ok,
    errors: ['NOTHING_TO_DELETE', 'DEPT_NOT_FOUND', 'DEPT_IN_USE'],
    example: { body: [2147483000] },
  }),
});
