import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * Whose records a user sees and changes. Each role carries one of DATA_SCOPES; a user's scope is the
 * union of its roles' scopes:
 * - 全部: every record (administrators and the supervisory department always have it);
 * - 本企业: records created by a user of the same company, and records that name the company as a party;
 * - 本部门: records created in the user's department or a department below it;
 * - 本人: records the user created;
 * - 自定义: records created in the departments chosen on the role.
 * A user without roles sees its own records only.
 */

export const DATA_SCOPES = ['全部', '本企业', '本部门', '本人', '自定义'] as const;
export type DataScopeName = (typeof DATA_SCOPES)[number];
export const DEFAULT_DATA_SCOPE: DataScopeName = '本企业';
export const isDataScopeName = (v: unknown): v is DataScopeName => (DATA_SCOPES as readonly unknown[]).includes(v);

/** The supervisory department's code: its users see every company's records and figures. */
export const SUPERVISOR_DEPT = '01';

export type DataScope =
  | { all: true }
  | {
      all: false;
      /** Records of this company (created by its users, or naming it as a party); null: none. */
      companyId: number | null;
      /** Records created in these departments. */
      depts: number[];
      /** Records this user created, by its account id (never its username, which can change hands); null: none. */
      self: number | null;
    };

export const ALL_RECORDS: DataScope = { all: true };

/** A text naming the scope exactly, for cache keys: two users with the same key see the same records. */
export function dataScopeKey(s: DataScope): string {
  if (s.all) return 'all';
  return JSON.stringify([s.companyId, s.depts, s.self]);
}

interface ScopeSubject {
  id: number;
  username: string;
  isAdmin: boolean;
  deptId: number | null;
  deptCode: string | null;
  companyId: number | null;
}

/** The departments at and below `root` that belong to `company` (null: the platform's own). */
async function deptTree(db: Kysely<DB>, root: number, company: number | null): Promise<number[]> {
  const all = await db.selectFrom('sys_dept').select(['id', 'pid', 'company_id']).execute();
  const children = new Map<number, number[]>();
  for (const d of all) if (d.pid !== null) children.set(d.pid, [...(children.get(d.pid) ?? []), d.id]);
  const owner = new Map(all.map((d) => [d.id, d.company_id]));
  const out: number[] = [];
  const walk = (id: number) => {
    if (out.includes(id) || owner.get(id) !== company) return;
    out.push(id);
    for (const c of children.get(id) ?? []) walk(c);
  };
  walk(root);
  return out;
}

/**
 * The user's scope from its roles, read when its session is loaded. 本部门 stays inside the user's own
 * company (a platform account's: inside the platform's departments), so it is never wider than 本企业; a
 * company's 自定义 role reaches only that company's departments; the supervisory department's 全部 is
 * for platform accounts only.
 */
export async function loadDataScope(db: Kysely<DB>, u: ScopeSubject): Promise<DataScope> {
  if (u.isAdmin || (u.deptCode === SUPERVISOR_DEPT && u.companyId === null)) return ALL_RECORDS;
  const roles = await db
    .selectFrom('sys_users_roles as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select(['r.id', 'r.data_scope', 'r.company_id'])
    .where('ur.user_id', '=', u.id)
    .execute();
  // A company's role held outside its company grants nothing.
  const held = roles.filter((r) => r.company_id === null || r.company_id === u.companyId);
  const names = new Set(held.map((r) => (isDataScopeName(r.data_scope) ? r.data_scope : DEFAULT_DATA_SCOPE)));
  if (held.some((r) => r.company_id === null && r.data_scope === '全部')) return ALL_RECORDS;
  const depts = new Set<number>();
  if (names.has('本部门') && u.deptId !== null) for (const d of await deptTree(db, u.deptId, u.companyId)) depts.add(d);
  const custom = held.filter((r) => r.data_scope === '自定义');
  if (custom.length) {
    const chosen = await db
      .selectFrom('sys_roles_depts as rd')
      .innerJoin('sys_role as r', 'r.id', 'rd.role_id')
      .innerJoin('sys_dept as d', 'd.id', 'rd.dept_id')
      .select(['rd.dept_id', 'r.company_id as role_company', 'd.company_id as dept_company'])
      .where(
        'rd.role_id',
        'in',
        custom.map((r) => r.id),
      )
      .execute();
    for (const c of chosen) if (c.role_company === null || c.role_company === c.dept_company) depts.add(c.dept_id);
  }
  const company = (names.has('本企业') || names.has('全部')) && u.companyId !== null ? u.companyId : null;
  return {
    all: false,
    companyId: company,
    depts: [...depts].sort((a, b) => a - b),
    self: names.has('本人') || !held.length ? u.id : null,
  };
}
