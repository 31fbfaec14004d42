/** The system administration calls and the shapes they answer with. */
import { adminSource } from '../../../app/rest-data';
import { http } from '../../../request';

const rest = (url: string) => adminSource(url, { url, method: 'delete' });

/** The system lists: paged from 0 by their data provider, deleted with the ids as a DELETE's body. */
export const SOURCES = {
  users: rest('/api/users'),
  roles: rest('/api/roles'),
  menus: rest('/api/menus'),
  depts: rest('/api/dept'),
  dicts: rest('/api/dict'),
  /** A dictionary's entries, each deleted on its own. */
  entries: adminSource('/api/dictDetail', { url: '/api/dictDetail', method: 'delete-each' }),
  applications: adminSource('/api/companyApplication'),
};

export interface Page<T> {
  content: T[];
  totalElements: number;
}

export interface DeptNode {
  id: number;
  name: string;
  code: string | null;
  /** The company that owns the department; null for the platform's own. */
  companyId: number | null;
  children?: DeptNode[];
}

export interface RoleRow {
  id: number;
  name: string;
  level: number;
  description: string | null;
  dataScope: string;
  /** The company that owns the role; null for a platform role. */
  companyId: number | null;
  /** The departments a 自定义 role sees. */
  depts: { id: number; name: string }[];
  menus: { id: number }[];
  createTime: string | null;
}

/** Whose records a role's users see and change; a new role gets 本企业. */
export const DATA_SCOPES = ['全部', '本企业', '本部门', '本人', '自定义'] as const;
export const DEFAULT_DATA_SCOPE = '本企业';

/** A department a 自定义 role may be given. */
export interface ScopeDeptNode {
  id: number;
  name: string;
  enabled: boolean;
  children?: ScopeDeptNode[];
}

export interface CompanyOption {
  id: number;
  name: string;
}

export interface UserRow {
  id: number;
  username: string;
  nickName: string;
  phone: string | null;
  email: string | null;
  sex: string | null;
  dept: { id: number; name: string } | null;
  deptId: number | null;
  job: string | null;
  isAdmin: boolean;
  permission: string | null;
  enabled: boolean;
  createTime: string | null;
  roles: { id: number; name: string }[];
  company: number | null;
  /** The company's name (所属企业); null when the user has none. */
  companyName: string | null;
}

export interface MenuRow {
  id: number;
  pid: number | null;
  type: number;
  title: string;
  componentName: string | null;
  component: string | null;
  path: string | null;
  icon: string | null;
  permission: string | null;
  menuSort: number;
  hidden: boolean;
  cache: boolean;
  iFrame: boolean;
  hasChildren: boolean;
  createTime: string | null;
}

export interface DeptRow {
  id: number;
  pid: number | null;
  name: string;
  code: string | null;
  deptSort: number;
  enabled: boolean;
  hasChildren: boolean;
  createTime: string | null;
}

export interface DictRow {
  id: number;
  name: string;
  description: string | null;
  createTime: string | null;
}

export interface DictEntry {
  id: number;
  label: string;
  value: string;
  type: string;
  dictSort: number;
}

export interface ApplicationRow {
  id: number;
  name: string;
  type: string;
  comtype: string | null;
  regionFmt: string;
  applicant: string;
  phone: string;
  status: number;
  createTime: string | null;
  reviewerName: string | null;
  reviewTime: string | null;
  reason: string | null;
  companyId: number | null;
  userId: number | null;
  username: string | null;
}

/** Calls a dialog makes report their refusal inside the dialog, not as a toast too. */
const quiet = { silent: true } as const;

/** The departments the signed-in manager may place accounts in. */
export const deptTree = async () => (await http.get<{ data: DeptNode[] }>('/api/dept/find', { scope: 'manage' })).data;
/** Every role (the role pickers). */
export const allRoles = async () =>
  (await SOURCES.roles.dataProvider.getList({ resource: SOURCES.roles.resource, query: { page: 1, size: 999 } }))
    .rows as unknown as RoleRow[];

export const users = {
  add: (body: unknown) => http.post('/api/users', body, quiet),
  edit: (body: unknown) => http.put('/api/users', body, quiet),
  /** Enabling or disabling from the table: a refusal shows as a toast. */
  setEnabled: (id: number, enabled: boolean) => http.put('/api/users', { id, enabled }),
  resetPassword: (ids: number[]) => http.post<{ message: string }>('/api/pwd/reset', { ids }),
  /** The 所属企业 picker: companies whose name contains the text, at most 50. */
  companies: (blurry: string) => http.get<CompanyOption[]>('/api/users/companies', { blurry }),
};

export const roles = {
  add: (body: unknown) => http.post('/api/roles', body, quiet),
  edit: (body: unknown) => http.put('/api/roles', body, quiet),
  grant: (id: number, menuIds: number[]) => http.put('/api/roles/menu', { id, menus: menuIds.map((m) => ({ id: m })) }),
  /** Every department, disabled ones included, for a 自定义 role's picker. */
  deptTree: () => http.get<ScopeDeptNode[]>('/api/roles/depts'),
};

/** Every row of a tree list read level by level (the list answers one parent's children at a time). */
async function allLevels<T extends { id: number; hasChildren: boolean }>(url: string): Promise<T[]> {
  const out: T[] = [];
  let level: (number | null)[] = [null];
  while (level.length) {
    const pages = await Promise.all(level.map((pid) => http.get<Page<T>>(url, pid === null ? {} : { pid })));
    const rows = pages.flatMap((p) => p.content);
    out.push(...rows);
    level = rows.filter((r) => r.hasChildren).map((r) => r.id);
  }
  return out;
}

/** Every menu. */
export const allMenus = () => allLevels<MenuRow>('/api/menus');

export const menus = {
  search: async (blurry: string) => (await http.get<Page<MenuRow>>('/api/menus', { blurry })).content,
  add: (body: unknown) => http.post('/api/menus', body, quiet),
  edit: (body: unknown) => http.put('/api/menus', body, quiet),
};

/** Every department, enabled or not. */
export const allDepts = () => allLevels<DeptRow>('/api/dept');

export const depts = {
  add: (body: unknown) => http.post('/api/dept', body, quiet),
  edit: (body: unknown) => http.put('/api/dept', body, quiet),
  setEnabled: (row: DeptRow, enabled: boolean) =>
    http.put('/api/dept', { id: row.id, pid: row.pid, name: row.name, code: row.code, deptSort: row.deptSort, enabled }),
};

export const dicts = {
  add: (body: unknown) => http.post('/api/dict', body, quiet),
  edit: (body: unknown) => http.put('/api/dict', body, quiet),
  addEntry: (body: unknown) => http.post('/api/dictDetail', body, quiet),
  editEntry: (body: unknown) => http.put('/api/dictDetail', body, quiet),
};

export const applications = {
  approve: (body: unknown) => http.post<{ message: string; username: string }>('/api/companyApplication/approve', body, quiet),
  reject: (body: unknown) => http.post<{ message: string }>('/api/companyApplication/reject', body, quiet),
};
