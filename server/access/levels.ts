import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { forbidden } from '../errors.js';
import { allMenus, menuIdsOfUser } from '../lib/accounts-menus.js';

/**
 * Role levels, as in eladmin: a smaller number is a higher role. A user's level is the smallest level
 * among its roles; an administrator (is_admin) stands above every role. A user may assign and manage
 * only roles at or below its own level, manage only users at or below it, and grant only menus it holds.
 */

/** The level of an administrator: above every role (roles start at 1). */
export const ADMIN_LEVEL = 0;
/** The level of an account without roles: below every role. */
export const NO_ROLE_LEVEL = Number.POSITIVE_INFINITY;

interface Actor {
  id: number;
  isAdmin: boolean;
}

/** The roles of the given users, one row per user and role, the highest (smallest level) first. */
export async function rolesOfUsers(db: Kysely<DB>, userIds: readonly number[]) {
  if (!userIds.length) return [];
  return db
    .selectFrom('sys_users_roles as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select(['ur.user_id', 'r.id', 'r.name', 'r.level'])
    .where('ur.user_id', 'in', userIds)
    .orderBy('r.level')
    .orderBy('r.id')
    .execute();
}

/** Levels of users by id: ADMIN_LEVEL for administrators, the smallest role level otherwise. */
export async function levelsOf(db: Kysely<DB>, userIds: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!userIds.length) return out;
  const users = await db.selectFrom('sys_user').select(['id', 'is_admin']).where('id', 'in', userIds).execute();
  const roles = await rolesOfUsers(db, userIds);
  for (const u of users) out.set(u.id, u.is_admin ? ADMIN_LEVEL : NO_ROLE_LEVEL);
  for (const r of roles) if (r.level < (out.get(r.user_id) ?? NO_ROLE_LEVEL)) out.set(r.user_id, r.level);
  return out;
}

/** The caller's own level. */
export async function levelOf(db: Kysely<DB>, me: Actor): Promise<number> {
  if (me.isAdmin) return ADMIN_LEVEL;
  return (await levelsOf(db, [me.id])).get(me.id) ?? NO_ROLE_LEVEL;
}

/** A user may hand out only roles at or below its own level. */
export async function assertAssignableRoles(db: Kysely<DB>, me: Actor, roleIds: readonly number[]): Promise<void> {
  if (me.isAdmin || !roleIds.length) return;
  const mine = await levelOf(db, me);
  const roles = await db
    .selectFrom('sys_role')
    .select('level')
    .where('id', 'in', [...new Set(roleIds)])
    .execute();
  if (roles.some((r) => r.level < mine)) throw forbidden('ROLE_LEVEL_NOT_ASSIGNABLE');
}

/** A user may create, edit or delete only roles at or below its own level (the levels given are the roles' current or new ones). */
export async function assertManageableRoleLevels(db: Kysely<DB>, me: Actor, levels: readonly number[]): Promise<void> {
  if (me.isAdmin || !levels.length) return;
  const mine = await levelOf(db, me);
  if (levels.some((l) => l < mine)) throw forbidden('ROLE_LEVEL_NOT_MANAGEABLE');
}

/** A user may edit, disable, reset or delete only users at or below its own level; administrators only by administrators. */
export async function assertManageableUsers(db: Kysely<DB>, me: Actor, userIds: readonly number[]): Promise<void> {
  if (me.isAdmin || !userIds.length) return;
  const mine = await levelOf(db, me);
  const levels = await levelsOf(db, [...new Set(userIds)]);
  if ([...levels.values()].some((l) => l < mine)) throw forbidden('USER_LEVEL_NOT_MANAGEABLE');
}

/**
 * A role may be given only menus its grantor holds (through its roles, with their directories).
 * Menus the role already has may stay: only the added ones are checked.
 */
export async function assertGrantableMenus(
  db: Kysely<DB>,
  me: Actor,
  menuIds: readonly number[],
  alreadyGranted: readonly number[] = [],
): Promise<void> {
  if (me.isAdmin) return;
  const kept = new Set(alreadyGranted);
  const added = [...new Set(menuIds)].filter((id) => !kept.has(id));
  if (!added.length) return;
  const held = await menuIdsOfUser(db, me.id, await allMenus(db));
  if (added.some((id) => !held.has(id))) throw forbidden('MENU_NOT_GRANTABLE');
}
