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
      /** The company's name, which some records name their parties by. */
      companyName: string | null;
      /** Records created in these departments. */
      depts: number[];
      /** Records this user (by username) created; null: none. */
      self: string | null;
    };

export const ALL_RECORDS: DataScope = { all: true };

/** A text naming the scope exactly, for cache keys: two users with the same key see the same records. */
export function dataScopeKey(s: DataScope): string {
  if (s.all) return 'all';
  return JSON.stringify([s.companyId, s.depts, s.self, s.companyName]);
}

interface ScopeSubject {
  id: number;
  username: string;
  isAdmin: boolean;
  deptId: number | null;
  deptCode: string | null;
  companyId: number | null;
}

/** The departments at and below `root`. */
async function deptTree(db: Kysely<DB>, root: number): Promise<number[]> {
  const all = await db.selectFrom('sys_dept').select(['id', 'pid']).execute();
  const children = new Map<number, number[]>();
  for (const d of all) if (d.pid !== null) children.set(d.pid, [...(children.get(d.pid) ?? []), d.id]);
  const out: number[] = [];
  const walk = (id: number) => {
    if (out.includes(id)) return;
    out.push(id);
    for (const c of children.get(id) ?? []) walk(c);
  };
  walk(root);
  return out;
}

/** The user's scope from its roles, read when its session is loaded. */
export async function loadDataScope(db: Kysely<DB>, u: ScopeSubject): Promise<DataScope> {
  if (u.isAdmin || u.deptCode === SUPERVISOR_DEPT) return ALL_RECORDS;
  const roles = await db
    .selectFrom('sys_users_roles as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select(['r.id', 'r.data_scope'])
    .where('ur.user_id', '=', u.id)
    .execute();
  const names = new Set(roles.map((r) => (isDataScopeName(r.data_scope) ? r.data_scope : DEFAULT_DATA_SCOPE)));
  if (names.has('全部')) return ALL_RECORDS;
  const depts = new Set<number>();
  if (names.has('本部门') && u.deptId !== null) for (const d of await deptTree(db, u.deptId)) depts.add(d);
  const custom = roles.filter((r) => r.data_scope === '自定义').map((r) => r.id);
  if (custom.length) {
    const chosen = await db.selectFrom('sys_roles_depts').select('dept_id').where('role_id', 'in', custom).execute();
    for (const c of chosen) depts.add(c.dept_id);
  }
  const company = names.has('本企业') && u.companyId !== null ? u.companyId : null;
  const companyName =
    company === null ? null : ((await db.selectFrom('company').select('name').where('id', '=', company).executeTakeFirst())?.name ?? null);
  return {
    all: false,
    companyId: company,
    companyName,
    depts: [...depts].sort((a, b) => a - b),
    self: names.has('本人') || !roles.length ? u.username : null,
  };
}
