import type { Kysely } from 'kysely';
import { HIDDEN_IN_NAMES } from '../../src/shared/person-rule.js';
import type { DB } from '../db/schema.js';
import { badRequest, type ErrorCode } from '../errors.js';
import { subtreeIds } from './accounts-menus.js';
import { EMAIL_RE, formatTime } from './accounts-users.js';
import { dbId } from './sql.js';

/** Readers and checks shared by the administration routes (users, menus, departments, roles). */

export { field, idList, int, optId, ref, sortNum, text } from '../../src/contract/fields.js';
export const id = dbId;

export const done = (message = '操作成功') => ({ status: 200, message });
export const trimmed = (v: string | null | undefined) => {
  const t = (v ?? '').trim();
  return t === '' ? null : t;
};

export function checkNickName(v: string | undefined): string {
  const n = (v ?? '').trim();
  if (!n) throw badRequest('NICKNAME_REQUIRED');
  if (n.length < 2 || n.length > 20) throw badRequest('NICKNAME_LENGTH');
  if (HIDDEN_IN_NAMES.test(n)) throw badRequest('NICKNAME_HIDDEN_CHARS');
  return n;
}

export function checkSex(v: string | null | undefined): string | null {
  const s = trimmed(v);
  if (s !== null && s !== '男' && s !== '女') throw badRequest('SEX_INVALID');
  return s;
}

export function checkEmail(v: string | null | undefined): string | null {
  const e = trimmed(v);
  if (e !== null && !EMAIL_RE.test(e)) throw badRequest('EMAIL_INVALID');
  return e;
}

export const asEnabled = (v: boolean | string | undefined) => (v === undefined ? undefined : v === true || v === 'true' || v === '1');

export async function exists(db: Kysely<DB>, table: 'sys_dept' | 'sys_role' | 'company' | 'sys_menu', ids: number[]): Promise<boolean> {
  if (!ids.length) return true;
  const rows = await db.selectFrom(table).select('id').where('id', 'in', ids).execute();
  return rows.length === new Set(ids).size;
}

/**
 * The parent a department or menu is put under (none: the top level). It must exist and, for one being
 * edited (currentId), be neither that one nor below it.
 */
export async function checkedParent(
  db: Kysely<DB>,
  table: 'sys_dept' | 'sys_menu',
  pid: number | null | undefined,
  currentId: number | null,
  refusals: { missing: ErrorCode; cycle: ErrorCode },
): Promise<number | null> {
  const parent = pid || null;
  if (parent === null) return null;
  if (!(await exists(db, table, [parent]))) throw badRequest(refusals.missing);
  if (currentId !== null) {
    const rows = await db.selectFrom(table).select(['id', 'pid']).execute();
    if (subtreeIds(rows, [currentId]).has(parent)) throw badRequest(refusals.cycle);
  }
  return parent;
}

/**
 * A level of the department or menu tree as its admin page lists it, all on one page: each row's item,
 * then whether the row has rows below it and when it was made.
 */
export function treeLevelPage<R extends { has_children: unknown; create_time: Date | null }, I extends object>(
  rows: R[],
  item: (r: R) => I,
) {
  return {
    content: rows.map((r) => ({ ...item(r), hasChildren: !!r.has_children, createTime: formatTime(r.create_time) })),
    totalElements: rows.length,
  };
}
