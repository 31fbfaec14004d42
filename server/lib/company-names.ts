import type { Kysely } from 'kysely';
import { Converter } from 'opencc-js/t2cn';
import { nameKey } from '../../src/shared/person-rule.js';
import type { DB } from '../db/schema.js';

/** Traditional characters as their simplified forms (監管部門 reads as 监管部门), made on first use. */
let simplified: ((text: string) => string) | undefined;

/**
 * How a company's or department's name reads, for telling names apart: as nameKey reads it (NFKC, so a
 * Kangxi radical is its ideograph; no spaces or hidden marks), in simplified characters.
 */
export function readsAs(name: string): string {
  simplified ??= Converter({ from: 't', to: 'cn' });
  return simplified(nameKey(name));
}

/**
 * The letters a company's or department's name is written in, as NFKC reads it: Chinese characters (not
 * radicals or strokes, which pass for them), Latin letters, digits, spaces and common punctuation. Kana,
 * Cyrillic, Greek and other scripts hold look-alikes of these (エ of 工, а of a) and are refused.
 */
const NAME_LETTERS = /^(?:(?!\p{Radical})\p{Script=Han}|[A-Za-z0-9 ()[\]【】《》·•・\-‐–—_&.,、/'’"“”:+#@])+$/u;

/** Radicals, strokes, ideographic description and kanbun marks: they pass for ideographs, before NFKC too. */
const RADICALS = /[\u2E80-\u2FFF\u31C0-\u31EF\u3190-\u319F]/u;

/** Whether `name` is written only in the letters a company's or department's name may use (NAME_LETTERS). */
export const nameLettersAllowed = (name: string): boolean => !RADICALS.test(name) && NAME_LETTERS.test(name.normalize('NFKC'));

/**
 * Names other companies read: a company's name, its departments' (the address book, a message's sender),
 * and the platform's own, its system name and its departments' (those of no company). Names are compared
 * as they read (readsAs: ＡＢＣ is ABC, 監 is 监, spaces and hidden characters tell nothing apart). Each check
 * reads the names in full: a rename, an approval or a department's name is rare, and a platform's
 * thousands of names are a small read.
 */

/** The platform's own names: its system name and each of its departments' names. */
async function platformNameKeys(db: Kysely<DB>): Promise<Set<string>> {
  const [setting, depts] = await Promise.all([
    db.selectFrom('sys_setting').select('value').where('name', '=', 'system_name').execute(),
    db.selectFrom('sys_dept').select('name').where('company_id', 'is', null).execute(),
  ]);
  return new Set([...setting.map((s) => s.value), ...depts.map((d) => d.name)].filter((n) => !!n).map(readsAs));
}

/**
 * Whether `name` reads as a name another company (not `exceptId`) goes by, its own or one of its
 * departments', or as the platform's name or one of the platform's departments'.
 */
export async function companyNameTaken(db: Kysely<DB>, name: string, exceptId?: number): Promise<boolean> {
  const key = readsAs(name);
  if ((await platformNameKeys(db)).has(key)) return true;
  let companies = db.selectFrom('company').select('name');
  let depts = db.selectFrom('sys_dept').select('name').where('company_id', 'is not', null);
  if (exceptId !== undefined) {
    companies = companies.where('id', '<>', exceptId);
    depts = depts.where('company_id', '<>', exceptId);
  }
  const [others, theirDepts] = await Promise.all([companies.execute(), depts.execute()]);
  return [...others, ...theirDepts].some((o) => readsAs(o.name) === key);
}

/** Where a department sits: its id (null while new), its parent and its company (null: the platform's). */
export interface DeptPlace {
  id: number | null;
  pid: number | null;
  companyId: number | null;
}

/**
 * Whether a department's `name` reads as one it may not take. A company's department may not read as the
 * platform's name, a platform department's, or another company's name (its own company's is fine); a
 * platform department may not read as any company's name. Neither reads as a department beside it (same
 * parent, same company), so a picker and a sheet addressing departments by name tell them apart.
 */
export async function deptNameTaken(db: Kysely<DB>, name: string, place: DeptPlace): Promise<boolean> {
  const key = readsAs(name);
  if (place.companyId !== null && (await platformNameKeys(db)).has(key)) return true;
  let companies = db.selectFrom('company').select('name');
  if (place.companyId !== null) companies = companies.where('id', '<>', place.companyId);
  let siblings = db.selectFrom('sys_dept').select('name');
  siblings = place.pid === null ? siblings.where('pid', 'is', null) : siblings.where('pid', '=', place.pid);
  siblings = place.companyId === null ? siblings.where('company_id', 'is', null) : siblings.where('company_id', '=', place.companyId);
  if (place.id !== null) siblings = siblings.where('id', '<>', place.id);
  const [others, beside] = await Promise.all([companies.execute(), siblings.execute()]);
  return [...others, ...beside].some((o) => readsAs(o.name) === key);
}
