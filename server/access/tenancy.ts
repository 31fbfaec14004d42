import { type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DB } from '../db/schema.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import type { DataScope } from './scope.js';

/**
 * Tenancy of accounts: a company owns its departments (sys_dept.company_id), its users sit only in them,
 * and it may own roles (sys_role.company_id). Departments and roles without a company are the platform's.
 *
 * Managing users, roles and departments follows the manager's data scope exactly as records do:
 * - a user is a record of its company, in its department, and of itself (本人);
 * - a department is a record of its company, and of itself for 本部门 and 自定义;
 * - a company's roles are seen by its users and managed under 本企业 of that company; platform roles are
 *   seen by every role reader and managed only under 全部.
 * What lies outside the scope answers 404, as a missing row does.
 */

/** Who manages: the session user's identity, company and data scope. */
export interface Manager {
  id: number;
  username: string;
  isAdmin: boolean;
  companyId: number | null;
  dataScope: DataScope;
}

type Cond = Expression<SqlBool>;

const never = sql<SqlBool>`false`;
const always = sql<SqlBool>`true`;

/**
 * What a data scope reaches, as one condition on a row's company and department columns: everything for
 * 全部; otherwise its company's rows, its departments' rows and the `also` rows, or nothing when it names none.
 */
function reach(s: DataScope, company: string, dept: string, also: Cond[] = []): Cond {
  if (s.all) return always;
  const parts: Cond[] = [...also];
  if (s.companyId !== null) parts.unshift(sql<SqlBool>`${sql.ref(company)} = ${s.companyId}`);
  if (s.depts.length) parts.push(sql<SqlBool>`${sql.ref(dept)} in (${sql.join(s.depts)})`);
  return parts.length ? sql<SqlBool>`(${sql.join(parts, sql` or `)})` : never;
}

/** The users (`sys_user as u`) a manager reaches: those of its scope, and itself. */
export const usersWithin = (m: Manager) => (eb: ExpressionBuilder<DB & { u: DB['sys_user'] }, 'u'>) =>
  reach(m.dataScope, 'u.company_id', 'u.dept_id', [eb('u.id', '=', m.id)]);

/** The departments (`sys_dept as d`) a manager reaches. */
export const deptsWithin = (m: Manager) => () => reach(m.dataScope, 'd.company_id', 'd.id');

/**
 * The departments (`sys_dept as d`) a form may address, as a leave message's recipient: the platform's,
 * the caller's company's, and each other company's top department.
 */
export function deptsAddressable(m: { companyId: number | null; dataScope: DataScope }) {
  return (eb: ExpressionBuilder<DB & { d: DB['sys_dept'] }, 'd'>): Cond => {
    if (m.dataScope.all) return always;
    const parts: Cond[] = [eb('d.company_id', 'is', null), eb('d.pid', 'is', null)];
    if (m.companyId !== null) parts.push(eb('d.company_id', '=', m.companyId));
    return eb.or(parts);
  };
}

/** deptsAddressable as a condition on a department table aliased `t`. */
export function addressableDeptCondition(m: { companyId: number | null; dataScope: DataScope }): RawBuilder<unknown> {
  if (m.dataScope.all) return sql`t.enabled = true`;
  const own = m.companyId === null ? sql`` : sql` or t.company_id = ${m.companyId}`;
  return sql`t.enabled = true and (t.company_id is null or t.pid is null${own})`;
}

/** The roles (`sys_role as r`) a role reader sees: the platform's and its own company's. */
export function rolesSeen(m: Manager) {
  return (eb: ExpressionBuilder<DB & { r: DB['sys_role'] }, 'r'>): Cond => {
    if (m.dataScope.all) return always;
    const platform = eb('r.company_id', 'is', null);
    return m.companyId === null ? platform : eb.or([platform, eb('r.company_id', '=', m.companyId)]);
  };
}

/** The company whose roles a manager may change, `'all'` for every role, or null for none. */
export function roleOwner(m: Manager): number | 'all' | null {
  if (m.dataScope.all) return 'all';
  return m.dataScope.companyId;
}

/** The company a department belongs to, by id; a department that does not exist is left out. */
export async function companiesOfDepts(db: Kysely<DB>, ids: readonly number[]): Promise<Map<number, number | null>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('sys_dept')
    .select(['id', 'company_id'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.company_id]));
}

/** The departments among `ids` a manager does not reach. */
async function deptsOutside(db: Kysely<DB>, m: Manager, ids: readonly number[]): Promise<number[]> {
  if (m.dataScope.all || !ids.length) return [];
  const inside = await db
    .selectFrom('sys_dept as d')
    .select('d.id')
    .where('d.id', 'in', [...new Set(ids)])
    .where(deptsWithin(m))
    .execute();
  const seen = new Set(inside.map((r) => r.id));
  return ids.filter((id) => !seen.has(id));
}

/** 404 unless every department exists and the manager reaches it. */
export async function assertDeptsWithin(db: Kysely<DB>, m: Manager, ids: readonly number[]): Promise<void> {
  const known = await companiesOfDepts(db, ids);
  if (ids.some((id) => !known.has(id))) throw notFound('DEPT_NOT_FOUND');
  if ((await deptsOutside(db, m, ids)).length) throw notFound('DEPT_NOT_FOUND');
}

/**
 * What a manager's checks on accounts judge, per account: its company, department, administrator flag,
 * state and roles. Read before the checks; see assertAccountsAsJudged.
 */
export type JudgedAccounts = ReadonlyMap<number, string>;

const accountKeys = async (db: Kysely<DB>, ids: readonly number[]): Promise<Map<number, string>> => {
  const res = await sql<{ id: number; key: string }>`select u.id, concat_ws('|', u.company_id, u.dept_id, u.is_admin, u.status,
      (select string_agg(r.role_id::text, ',' order by r.role_id) from sys_users_roles r where r.user_id = u.id)) as key
    from sys_user u where u.id in (${sql.join([...new Set(ids)])})`.execute(db);
  return new Map(res.rows.map((r) => [Number(r.id), r.key]));
};

/**
 * `only`: for checks that an administrator of 全部 passes whatever the accounts' state (reach, rank and
 * roles manageable: a delete, a password reset), nothing is judged for such a caller, so its write does
 * not conflict with another change of the same accounts.
 */
export async function judgedAccounts(db: Kysely<DB>, ids: readonly number[], only?: { stateFree: Manager }): Promise<JudgedAccounts> {
  if (only?.stateFree.isAdmin && only.stateFree.dataScope.all) return new Map();
  return ids.length ? accountKeys(db, ids) : new Map();
}

/**
 * The first step of a write to accounts judged by `judged`: locks them (until the transaction ends) and
 * answers 409 CONFLICT when any has moved company or department, or changed roles, state or rank since:
 * the checks no longer hold. Writes to accounts all take this lock, so two cannot both pass on one
 * account's old state (a company's edit while the platform moves the account elsewhere).
 */
export async function assertAccountsAsJudged(trx: Kysely<DB>, judged: JudgedAccounts): Promise<void> {
  if (!judged.size) return;
  const ids = [...judged.keys()].sort((a, b) => a - b);
  await sql`select 1 from sys_user where id in (${sql.join(ids)}) order by id for update`.execute(trx);
  // Read again in a statement of its own, after the lock: it sees every write that held it before.
  const now = await accountKeys(trx, ids);
  for (const [id, key] of judged) if (now.get(id) !== key) throw conflict('CONFLICT');
}

/**
 * Holds departments (shared) until the transaction ends, for a write that puts an account or a department
 * in them: a delete of them (which locks them all first) waits for it or is waited for; one deleted
 * meanwhile answers `missing` (400).
 */
export async function holdDepts(
  trx: Kysely<DB>,
  ids: readonly number[],
  missing: 'DEPT_NOT_FOUND' | 'PARENT_DEPT_NOT_FOUND',
): Promise<void> {
  const wanted = [...new Set(ids)].sort((a, b) => a - b);
  if (!wanted.length) return;
  const held = await sql`select id from sys_dept where id in (${sql.join(wanted)}) order by id for share`.execute(trx);
  if (held.rows.length !== wanted.length) throw badRequest(missing);
}

/** 404 unless every user exists (not deleted) and the manager reaches it. */
export async function assertUsersWithin(db: Kysely<DB>, m: Manager, ids: readonly number[]): Promise<void> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return;
  const rows = await db
    .selectFrom('sys_user as u')
    .select('u.id')
    .where('u.id', 'in', wanted)
    .where('u.status', '<>', 2)
    .where(usersWithin(m))
    .execute();
  if (rows.length !== wanted.length) throw notFound('USER_NOT_FOUND');
}

/**
 * Where an account is to sit: its company and department must agree (a company's users sit in its own
 * departments, a platform account in the platform's), and the manager must reach the result. The company
 * follows the department when only the department is given.
 */
export async function placeUser(
  db: Kysely<DB>,
  m: Manager,
  place: { companyId: number | null; deptId: number | null; id: number | null },
): Promise<{ companyId: number | null; deptId: number | null }> {
  let { companyId } = place;
  const { deptId } = place;
  if (deptId !== null) {
    const owner = (await companiesOfDepts(db, [deptId])).get(deptId);
    if (owner === undefined) throw badRequest('DEPT_NOT_FOUND');
    if (owner !== companyId) throw badRequest('DEPT_OTHER_COMPANY');
  }
  const s = m.dataScope;
  if (!s.all) {
    const byCompany = s.companyId !== null && companyId === s.companyId;
    const byDept = deptId !== null && s.depts.includes(deptId);
    const self = place.id === m.id && companyId === m.companyId;
    if (!byCompany && !byDept && !self) throw forbidden('USER_OUTSIDE_SCOPE');
  }
  companyId ??= null;
  return { companyId, deptId };
}

/** 400 when a role of some company is to be held by an account of another (or of none). */
export async function assertRolesFitCompany(db: Kysely<DB>, roleIds: readonly number[], companyId: number | null): Promise<void> {
  if (!roleIds.length) return;
  const other = await db
    .selectFrom('sys_role')
    .select('id')
    .where('id', 'in', [...new Set(roleIds)])
    .where('company_id', 'is not', null)
    .where((eb) => (companyId === null ? eb.lit(true) : eb('company_id', '<>', companyId)))
    .executeTakeFirst();
  if (other) throw badRequest('ROLE_OTHER_COMPANY');
}

/** The roles of `ids` a manager sees, with their companies. */
const seenRoles = (db: Kysely<DB>, m: Manager, ids: number[]) =>
  db.selectFrom('sys_role as r').select(['r.id', 'r.company_id']).where('r.id', 'in', ids).where(rolesSeen(m)).execute();

/**
 * Roles a manager may give an account of `companyId`: each must exist and be seen; a company's role only
 * to that company's accounts; and the manager must own it (全部, or 本企业 of its company) or hold it.
 */
export async function assertGrantableRoles(
  db: Kysely<DB>,
  m: Manager,
  roleIds: readonly number[],
  companyId: number | null,
): Promise<void> {
  const wanted = [...new Set(roleIds)];
  if (!wanted.length) return;
  const roles = await seenRoles(db, m, wanted);
  if (roles.length !== wanted.length) throw badRequest('ROLE_NOT_FOUND');
  if (roles.some((r) => r.company_id !== null && r.company_id !== companyId)) throw badRequest('ROLE_OTHER_COMPANY');
  const owner = roleOwner(m);
  if (owner === 'all') return;
  const held = new Set(
    (await db.selectFrom('sys_users_roles').select('role_id').where('user_id', '=', m.id).execute()).map((r) => r.role_id),
  );
  if (roles.some((r) => !held.has(r.id) && (r.company_id === null || r.company_id !== owner))) throw forbidden('ROLE_NOT_GRANTABLE');
}

/**
 * 403 USER_ROLES_NOT_MANAGEABLE unless the manager could give every role the users hold (as
 * assertGrantableRoles judges it): editing, disabling, deleting or resetting the password of an account
 * holding a role its manager could not give would hand that role's powers to the manager. Managers of
 * 全部 and administrators give every role.
 */
export async function assertUsersRolesManageable(db: Kysely<DB>, m: Manager, userIds: readonly number[]): Promise<void> {
  const owner = roleOwner(m);
  const wanted = [...new Set(userIds)];
  if (m.isAdmin || owner === 'all' || !wanted.length) return;
  const held = db.selectFrom('sys_users_roles').select('role_id').where('user_id', '=', m.id);
  const other = await db
    .selectFrom('sys_users_roles as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select('r.id')
    .where('ur.user_id', 'in', wanted)
    .where('r.id', 'not in', held)
    .where((eb) => (owner === null ? eb.lit(true) : eb.or([eb('r.company_id', 'is', null), eb('r.company_id', '<>', owner)])))
    .executeTakeFirst();
  if (other) throw forbidden('USER_ROLES_NOT_MANAGEABLE');
}

/**
 * The roles a manager may change: a role it does not see answers 404; a platform role needs 全部, and a
 * company's role 全部 or 本企业 of that company (403 otherwise).
 */
export async function assertManageableRoles(
  db: Kysely<DB>,
  m: Manager,
  roleIds: readonly number[],
): Promise<{ id: number; company_id: number | null }[]> {
  const wanted = [...new Set(roleIds)];
  if (!wanted.length) return [];
  const roles = await seenRoles(db, m, wanted);
  if (roles.length !== wanted.length) throw notFound('ROLE_NOT_FOUND');
  const owner = roleOwner(m);
  if (owner === 'all') return roles;
  if (roles.some((r) => r.company_id === null)) throw forbidden('PLATFORM_ROLE_READ_ONLY');
  if (roles.some((r) => r.company_id !== owner)) throw notFound('ROLE_NOT_FOUND');
  return roles;
}

/**
 * A company's department for its accounts and records: its first top department, made (named after the
 * company, with its department code) when it has none.
 */
export async function companyDepartment(db: Kysely<DB>, companyId: number): Promise<number> {
  const found = await db
    .selectFrom('sys_dept')
    .select('id')
    .where('company_id', '=', companyId)
    .where('pid', 'is', null)
    .orderBy('sort')
    .orderBy('id')
    .executeTakeFirst();
  if (found) return found.id;
  const company = await db.selectFrom('company').select(['name', 'dept_code']).where('id', '=', companyId).executeTakeFirstOrThrow();
  // The company's department code names its department, unless another department holds it already.
  const code = company.dept_code?.trim() || null;
  const taken = code !== null && (await db.selectFrom('sys_dept').select('id').where('code', '=', code).executeTakeFirst());
  const made = await db
    .insertInto('sys_dept')
    .values({ pid: null, name: company.name.slice(0, 255), code: taken ? null : code, sort: 999, enabled: true, company_id: companyId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return made.id;
}

/** The departments at and below the given ones, among `all`. */
export function subtree(all: readonly { id: number; pid: number | null }[], roots: readonly number[]): Set<number> {
  const children = new Map<number, number[]>();
  for (const d of all) if (d.pid !== null) children.set(d.pid, [...(children.get(d.pid) ?? []), d.id]);
  const out = new Set<number>();
  const stack = [...roots];
  while (stack.length) {
    const id = stack.pop() as number;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return out;
}
