/** The system administration calls and the shapes they answer with. */
import type { z } from 'zod';
import { contractSource } from '../../../app/rest-data';
import { type applicationItem, type approveBody, companyApplications, type rejectBody } from '../../../contract/company-application';
import { type DeptItem, type DeptNode, type deptBody, depts as deptCalls } from '../../../contract/depts';
import { type DictEntry, type DictItem, dict, type dictBody, type entryBody } from '../../../contract/dict';
import { type MenuItem, type menuBody, menus as menuCalls } from '../../../contract/menus';
import { passwords } from '../../../contract/passwords';
import { type RoleItem, type roleBody, roles as roleCalls, type ScopeDeptNode } from '../../../contract/roles';
import { type userBody, users as userCalls, type userWithRoles } from '../../../contract/users';
import { api } from '../../../request';

export type { DeptNode, DictEntry, ScopeDeptNode };

/** The system lists: paged from their resource's page base by their data provider, deleted by their remove call. */
export const SOURCES = {
  users: contractSource(userCalls, 'list', 'remove'),
  roles: contractSource(roleCalls, 'list', 'remove'),
  menus: contractSource(menuCalls, 'list', 'remove'),
  depts: contractSource(deptCalls, 'list', 'remove'),
  dicts: contractSource(dict, 'list', 'remove'),
  /** A dictionary's entries, each deleted on its own. */
  entries: contractSource(dict, 'entries', 'removeEntry'),
  /** Company applications: read only, decided by approve and reject. */
  applications: contractSource(companyApplications, 'list'),
};

export interface Page<T> {
  content: T[];
  totalElements: number;
}

export type RoleRow = RoleItem;

/** Whose records a role's users see and change; a new role gets 本企业. */
export const DATA_SCOPES = ['全部', '本企业', '本部门', '本人', '自定义'] as const;
export const DEFAULT_DATA_SCOPE = '本企业';

export interface CompanyOption {
  id: number;
  name: string;
}

export type UserRow = z.infer<typeof userWithRoles>;
export type MenuRow = MenuItem;
export type DeptRow = DeptItem;
export type DictRow = DictItem;

export type ApplicationRow = z.infer<typeof applicationItem>;

/** Calls a dialog makes report their refusal inside the dialog, not as a toast too. */
const quiet = { silent: true } as const;

/** The departments the signed-in manager may place accounts in. */
export const deptTree = async (signal?: AbortSignal) => (await api(deptCalls.calls.tree, { query: { scope: 'manage' } }, { signal })).data;
/** Every role (the role pickers). */
export const allRoles = async (signal?: AbortSignal) =>
  (await api(roleCalls.calls.list, { query: { page: 0, size: 999 } }, { signal })).content;

export const users = {
  add: (body: z.input<typeof userBody>) => api(userCalls.calls.add, { body }, quiet),
  edit: (body: z.input<typeof userBody>) => api(userCalls.calls.edit, { body }, quiet),
  /** Enabling or disabling from the table: a refusal shows as a toast. */
  setEnabled: (id: number, enabled: boolean) => api(userCalls.calls.edit, { body: { id, enabled } }),
  resetPassword: (ids: number[]) => api(passwords.calls.reset, { body: { ids } }),
  /** The 所属企业 picker: companies whose name contains the text, at most 50. */
  companies: (blurry: string, signal?: AbortSignal) => api(userCalls.calls.companies, { query: { blurry } }, { signal }),
};

export const roles = {
  add: (body: z.input<typeof roleBody>) => api(roleCalls.calls.add, { body }, quiet),
  edit: (body: z.input<typeof roleBody>) => api(roleCalls.calls.edit, { body }, quiet),
  grant: (id: number, menuIds: number[]) => api(roleCalls.calls.grantMenus, { body: { id, menus: menuIds.map((m) => ({ id: m })) } }),
  /** Every department, disabled ones included, for a 自定义 role's picker. */
  deptTree: (signal?: AbortSignal) => api(roleCalls.calls.depts, {}, { signal }),
};

/** Every row of a tree list read level by level (the list answers one parent's children at a time). */
async function allLevels<T extends { id: number; hasChildren: boolean }>(read: (pid: number | null) => Promise<Page<T>>): Promise<T[]> {
  const out: T[] = [];
  let level: (number | null)[] = [null];
  while (level.length) {
    const pages = await Promise.all(level.map(read));
    const rows = pages.flatMap((p) => p.content);
    out.push(...rows);
    level = rows.filter((r) => r.hasChildren).map((r) => r.id);
  }
  return out;
}

/** Every menu. */
export const allMenus = (signal?: AbortSignal) =>
  allLevels((pid) => api(menuCalls.calls.list, { query: pid === null ? {} : { pid } }, { signal }));

export const menus = {
  search: async (blurry: string, signal?: AbortSignal) => (await api(menuCalls.calls.list, { query: { blurry } }, { signal })).content,
  add: (body: z.input<typeof menuBody>) => api(menuCalls.calls.add, { body }, quiet),
  edit: (body: z.input<typeof menuBody>) => api(menuCalls.calls.edit, { body }, quiet),
  /** Every menu as an id/label tree (role assignment). */
  tree: (signal?: AbortSignal) => api(menuCalls.calls.tree, {}, { signal }),
};

/** Every department, enabled or not. */
export const allDepts = (signal?: AbortSignal) =>
  allLevels((pid) => api(deptCalls.calls.list, { query: pid === null ? {} : { pid } }, { signal }));

export const depts = {
  add: (body: z.input<typeof deptBody>) => api(deptCalls.calls.add, { body }, quiet),
  edit: (body: z.input<typeof deptBody>) => api(deptCalls.calls.edit, { body }, quiet),
  setEnabled: (row: DeptRow, enabled: boolean) =>
    api(deptCalls.calls.edit, { body: { id: row.id, pid: row.pid, name: row.name, code: row.code, deptSort: row.deptSort, enabled } }),
};

export const dicts = {
  add: (body: z.input<typeof dictBody>) => api(dict.calls.add, { body }, quiet),
  edit: (body: z.input<typeof dictBody>) => api(dict.calls.edit, { body }, quiet),
  addEntry: (body: z.input<typeof entryBody>) => api(dict.calls.addEntry, { body }, quiet),
  editEntry: (body: z.input<typeof entryBody>) => api(dict.calls.editEntry, { body }, quiet),
};

export const applications = {
  approve: (body: z.input<typeof approveBody>) => api(companyApplications.calls.approve, { body }, quiet),
  reject: (body: z.input<typeof rejectBody>) => api(companyApplications.calls.reject, { body }, quiet),
};
