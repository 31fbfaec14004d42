import { type Kysely, sql } from 'kysely';
import { formatDate } from '../../src/shared/format.js';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { type ApiError, badRequest } from '../errors.js';
import { viewTable } from './ddl.js';
import type { Row } from './record-input.js';
import type { ViewField, ViewModel } from './view-model.js';

/**
 * Document numbers the server assigns: a field locked once saved whose pattern is a prefix of capital
 * letters and 12 digits (`^RK\d{12}$`) holds the prefix, the day (YYYYMMDD, the server's local date)
 * and a 4-digit serial of that day, e.g. RK202611290001. Each company has its own series (the record's
 * create_company), so a company's numbers run one after another and tell nothing of other companies'
 * records; two companies' records may carry the same number, and a number is unique within a company.
 * A record that leaves it empty gets the next one of its company. A typed number is kept as typed
 * (and judged by the pattern) unless it is of today's series, which only the server gives, or another
 * record of the same company has it. Serials are taken from the doc_number counter of the company's
 * day in one upsert, which waits for any other writer of that series, and never below the highest
 * serial of that day already in the company's records (typed ahead of the day, or seeded); a series
 * past 9999 is refused, never numbered off the pattern. A serial taken by a write that then fails is
 * not reused.
 */

const NUMBER_PATTERN = /^\^([A-Z]{1,8})\\d\{12\}\$$/;

/** The generated number fields of a view, with their prefixes. */
export function numberedFields(view: ViewModel): { field: ViewField; prefix: string }[] {
  const out: { field: ViewField; prefix: string }[] = [];
  for (const f of view.formFields) {
    const m = f.form?.editLock && !f.system && f.dataType === 'varchar' ? NUMBER_PATTERN.exec(f.form.pattern ?? '') : null;
    if (m) out.push({ field: f, prefix: m[1] as string });
  }
  return out;
}

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

const MAX_SERIAL = 9999;
const headOf = (prefix: string, at: Date) => `${prefix}${formatDate(at, 'YYYYMMDD')}`;
const sameCompany = (companyId: number | null) => sql`t.create_company is not distinct from ${companyId}`;

/**
 * The next `n` numbers of a company's day series of one column: prefix + YYYYMMDD + 4 digits
 * (RK202611210001), from the doc_number counter, never below the largest number of that day already
 * in the company's records. A series that would pass 9999 is refused (DOC_NUMBER_EXHAUSTED).
 */
export async function takeNumbers(
  db: Kysely<DB>,
  view: ViewModel,
  column: string,
  prefix: string,
  n: number,
  companyId: number | null,
  at = new Date(),
): Promise<string[]> {
  if (n < 1) return [];
  const head = headOf(prefix, at);
  const key = `${view.id}:${column}:${companyId ?? '-'}:${head}`;
  const ref = sql.ref(`t.${column}`);
  const highest = view.columns.some((c) => c.name === column)
    ? sql`(select max(substr(${ref}, ${head.length + 1})::int) from ${sql.table(viewTable(view.id))} as t
        where ${sameCompany(companyId)} and ${ref} like ${`${head}%`} and ${ref} ~ '^[A-Z]+[0-9]{12}$')`
    : sql`null`;
  const res = await sql<{ last: number }>`
    insert into doc_number as s (name, last) values (${key}, ${n}::int + coalesce(${highest}, 0))
    on conflict (name) do update set last = greatest(s.last + ${n}::int, excluded.last)
    returning s.last`.execute(db);
  const last = Number(res.rows[0]?.last ?? n);
  if (last > MAX_SERIAL) {
    const label = view.fields.find((f) => f.column === column)?.label ?? column;
    throw badRequest('DOC_NUMBER_EXHAUSTED', { label });
  }
  const first = last - n + 1;
  return Array.from({ length: n }, (_, i) => `${head}${String(first + i).padStart(4, '0')}`);
}

/**
 * Why each of `rows` (column → value) cannot keep the number it types, or undefined: a number of
 * today's series is the server's to give (DOC_NUMBER_RESERVED); one another record of the company has,
 * or an earlier row of the same batch, is taken (DOC_NUMBER_TAKEN).
 */
export async function typedNumberProblems(
  db: Kysely<DB>,
  view: ViewModel,
  rows: Row[],
  companyId: number | null,
  at = new Date(),
): Promise<(ApiError | undefined)[]> {
  const out: (ApiError | undefined)[] = rows.map(() => undefined);
  for (const { field, prefix } of numberedFields(view)) {
    const head = headOf(prefix, at);
    const typed = rows.map((r) => (isEmpty(r[field.column]) ? undefined : String(r[field.column]).trim()));
    const values = [...new Set(typed.filter((v): v is string => v !== undefined))];
    if (!values.length) continue;
    const ref = sql.ref(`t.${field.column}`);
    const used = view.columns.some((c) => c.name === field.column)
      ? new Set(
          (
            await sql<{ no: string }>`select ${ref} as no from ${sql.table(viewTable(view.id))} as t
              where ${sameCompany(companyId)} and ${ref} in (${sql.join(values)})`.execute(db)
          ).rows.map((r) => r.no),
        )
      : new Set<string>();
    const label = field.label;
    typed.forEach((v, i) => {
      if (v === undefined || out[i]) return;
      if (v.startsWith(head)) out[i] = badRequest('DOC_NUMBER_RESERVED', { label });
      else if (used.has(v)) out[i] = badRequest('DOC_NUMBER_TAKEN', { label });
      else used.add(v);
    });
  }
  return out;
}

/**
 * The numbers `rows` type in generated number fields, per row (column → number), taken before
 * fillNumbers fills the empty ones; undefined when they type none. What holdTypedNumbers holds.
 */
export function typedNumbers(view: ViewModel, rows: Row[]): Row[] | undefined {
  const fields = numberedFields(view);
  let any = false;
  const out = rows.map((r) => {
    const typed: Row = {};
    for (const { field } of fields)
      if (!isEmpty(r[field.column])) {
        typed[field.column] = r[field.column];
        any = true;
      }
    return typed;
  });
  return any ? out : undefined;
}

/**
 * Inside the transaction of a write adding rows: holds each number they type (`typed`, see typedNumbers; an advisory lock of the
 * company's number, until the transaction ends) and judges them again, now that no other write can add
 * one of them before this one commits; throws the first refusal. Two adds typing one number at once then
 * cannot both pass the check they each made before.
 */
export async function holdTypedNumbers(trx: Kysely<DB>, view: ViewModel, typed: Row[], companyId: number | null): Promise<void> {
  const keys = new Set<string>();
  for (const { field } of numberedFields(view))
    for (const r of typed)
      if (!isEmpty(r[field.column])) keys.add(`typed:${view.id}:${field.column}:${companyId ?? '-'}:${String(r[field.column]).trim()}`);
  // In one order, so that two writes holding some of the same numbers wait for each other without deadlock.
  for (const key of [...keys].sort()) await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
  const refused = (await typedNumberProblems(trx, view, typed, companyId)).find(Boolean);
  if (refused) throw refused;
}

/**
 * Fills, in place, the empty generated numbers of records about to be added (column → value, see
 * recordValues) by the company `companyId`; a typed number refused by typedNumberProblems refuses the write.
 */
export async function fillNumbers(ctx: AppContext, view: ViewModel, rows: Row[], companyId: number | null): Promise<void> {
  const refused = (await typedNumberProblems(ctx.db, view, rows, companyId)).find(Boolean);
  if (refused) throw refused;
  for (const { field, prefix } of numberedFields(view)) {
    const empty = rows.filter((r) => isEmpty(r[field.column]));
    const numbers = await takeNumbers(ctx.db, view, field.column, prefix, empty.length, companyId);
    empty.forEach((r, i) => {
      r[field.column] = numbers[i];
    });
  }
}
