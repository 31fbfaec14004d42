import dayjs from 'dayjs';
import { type Kysely, sql } from 'kysely';
import { isStrongPassword } from '../../src/shared/password-rule.js';
import { decryptPassword, hashPassword, PASSWORD_MAX_AGE_DAYS } from '../auth.js';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { badRequest } from '../errors.js';
import { loginGuard } from '../login-guard.js';

/** Wire format of timestamps in this module (eladmin's). */
export function formatTime(d: Date | null | undefined): string | null {
  return d ? dayjs(d).format('YYYY-MM-DD HH:mm:ss') : null;
}

/** A password is due for change when it was never set by its owner or is older than this. */
export { PASSWORD_MAX_AGE_DAYS };
export const DEFAULT_USER_PASSWORD = 'Waste@2026';

export const PHONE_RE = /^1[2-9]\d{9}$/;
export const EMAIL_RE = /^[\w.+-]+@[\w-]+(\.[\w-]+)+$/;

import type { UserInfo } from '../../src/contract/users.js';

export { type UserInfo, userInfo as userInfoSchema } from '../../src/contract/users.js';

/** sys_user joined with its department, plus the password-age verdict computed by the database clock. */
export function selectUsers(db: Kysely<DB>) {
  return db
    .selectFrom('sys_user as u')
    .leftJoin('sys_dept as d', 'd.id', 'u.dept_id')
    .select([
      'u.id',
      'u.username',
      'u.nick_name',
      'u.phone',
      'u.email',
      'u.sex',
      'u.dept_id',
      'u.job',
      'u.avatar',
      'u.password',
      'u.is_admin',
      'u.status',
      'u.permission',
      'u.company_id',
      'u.agreement_accepted',
      'u.pwd_reset_time',
      'u.create_time',
      'd.name as dept_name',
      'd.code as dept_code',
      sql<boolean>`(u.pwd_reset_time is null or u.pwd_reset_time < now() - make_interval(days => ${PASSWORD_MAX_AGE_DAYS}))`.as(
        'pwd_expired',
      ),
    ]);
}

export type UserRow = Awaited<ReturnType<ReturnType<typeof selectUsers>['executeTakeFirstOrThrow']>>;

export function toUserInfo(r: UserRow): UserInfo {
  return {
    id: r.id,
    username: r.username,
    nickName: r.nick_name,
    phone: r.phone,
    email: r.email,
    sex: r.sex,
    dept: r.dept_id != null && r.dept_name != null ? { id: r.dept_id, name: r.dept_name } : null,
    deptId: r.dept_id,
    deptCode: r.dept_code,
    job: r.job,
    avatar: r.avatar,
    company: r.company_id,
    isAdmin: r.is_admin,
    pwdExpired: r.pwd_expired,
    lastPasswordResetDate: formatTime(r.pwd_reset_time),
    permission: r.permission,
    enabled: r.status === 0,
    createTime: formatTime(r.create_time),
  };
}

/** Live (not deleted) user by id, or null. */
export async function findUser(db: Kysely<DB>, id: number): Promise<UserRow | null> {
  return (await selectUsers(db).where('u.id', '=', id).where('u.status', '<>', 2).executeTakeFirst()) ?? null;
}

/** The personal centre's phone: required, an 11-digit mobile number. */
export function checkPhone(phone: string | null | undefined): string {
  const p = (phone ?? '').trim();
  if (!p) throw badRequest('PHONE_REQUIRED');
  if (!PHONE_RE.test(p)) throw badRequest('PHONE_INVALID_11');
  return p;
}

/** Phones are unique among live users. */
export async function assertPhoneFree(db: Kysely<DB>, phone: string, exceptUserId: number | null): Promise<void> {
  let q = db.selectFrom('sys_user').select('id').where('phone', '=', phone).where('status', '<>', 2);
  if (exceptUserId != null) q = q.where('id', '<>', exceptUserId);
  if (await q.executeTakeFirst()) throw badRequest('PHONE_TAKEN');
}

export type SortSpec = [column: string, direction: 'asc' | 'desc'][];

/**
 * `field,asc|desc` (repeatable) against a whitelist of wire names → columns. An unknown field is a
 * 400, not silently ignored, so a typo in a client shows up at once.
 */
export function parseSort(sort: string | string[] | undefined, columns: Record<string, string>, fallback: SortSpec): SortSpec {
  const parts = (Array.isArray(sort) ? sort : sort ? [sort] : []).filter((s) => s.trim());
  if (!parts.length) return fallback;
  return parts.map((s) => {
    const [field = '', dir = 'asc'] = s.split(',').map((x) => x.trim());
    const column = Object.hasOwn(columns, field) ? columns[field] : undefined;
    if (!column) throw badRequest('SORT_FIELD_UNSUPPORTED', { field });
    const d = dir.toLowerCase();
    if (d !== 'asc' && d !== 'desc') throw badRequest('SORT_DIRECTION_UNSUPPORTED', { dir });
    return [column, d];
  });
}

/**
 * A user changing their own password, checked in the order the forms answer: old and new given, the
 * confirmation (where the form sends one) equal to the new, the old one right, the new one strong and
 * different. Answers the user and the new password in plain text.
 */
export async function checkPasswordChange(
  ctx: AppContext,
  userId: number,
  body: { oldPass?: string | undefined; newPass?: string | undefined; confirmPass?: string | undefined },
  /** The caller's address: a wrong old password counts against the account's login lock from there. */
  address: string,
): Promise<{ row: UserRow; newPlain: string }> {
  const { oldPass = '', newPass = '', confirmPass } = body;
  if (!oldPass) throw badRequest('OLD_PASSWORD_REQUIRED');
  if (!newPass) throw badRequest('NEW_PASSWORD_REQUIRED');
  const oldPlain = decryptPassword(ctx.secrets, oldPass);
  const newPlain = decryptPassword(ctx.secrets, newPass);
  if (confirmPass !== undefined && decryptPassword(ctx.secrets, confirmPass) !== newPlain) throw badRequest('PASSWORDS_DIFFER');
  const row = await findUser(ctx.db, userId);
  if (!row || !(await loginGuard(ctx).check({ username: row.username, address }, oldPlain, row.password)))
    throw badRequest('OLD_PASSWORD_WRONG');
  if (!isStrongPassword(newPlain)) throw badRequest('PASSWORD_RULE');
  if (newPlain === oldPlain) throw badRequest('PASSWORD_UNCHANGED');
  return { row, newPlain };
}

/** Saves a user's own new password (with `also` of the same form) and ends every session of theirs: they sign in again. */
export async function saveOwnPassword(ctx: AppContext, userId: number, newPlain: string, also: { phone?: string } = {}): Promise<void> {
  await ctx.db
    .updateTable('sys_user')
    .set({ password: await hashPassword(newPlain), pwd_reset_time: sql<Date>`now()`, update_time: sql<Date>`now()`, ...also })
    .where('id', '=', userId)
    .execute();
  await ctx.sessions.destroyAllOf(userId);
}
