import type { Kysely } from 'kysely';
import type { SessionUser } from '../auth.js';
import type { DB } from '../db/schema.js';
import { takeNumbers } from '../lowcode/doc-numbers.js';
import type { ViewModel } from '../lowcode/view-model.js';

/**
 * Writes of business records by calls other than /api/general (manual disposal orders, company
 * inventory, quotes): the record is judged by the view's own form schema (recordValues) before it gets
 * here, is read and written within the caller's row scope (server/access/rows.ts) — a record outside it is
 * answered as missing — and every write tells the views' caches, as /api/general does.
 */

/**
 * A warehouse the user may use or look at: one of its company's, any for those who see all. Undefined
 * when there is none such: another company's warehouse is answered as missing.
 */
export async function warehouseWithin(db: Kysely<DB>, u: SessionUser, id: number) {
  let q = db
    .selectFrom('company_warehouse as w')
    .innerJoin('company as c', 'c.id', 'w.company_id')
    .select(['w.id', 'w.name', 'w.company_id', 'w.region', 'w.region_fmt', 'w.address', 'c.name as company_name'])
    .where('w.id', '=', id);
  if (!u.dataScope.all) q = q.where('w.company_id', '=', u.companyId ?? -1);
  return q.executeTakeFirst();
}

/** A contract the user's company is a party to (any for those who see all); undefined when there is none such. */
export async function contractWithin(db: Kysely<DB>, u: SessionUser, id: number) {
  let q = db.selectFrom('company_contract').select(['id', 'contract_no', 'party_a_company', 'party_b_company']).where('id', '=', id);
  if (!u.dataScope.all) {
    const own = u.companyId ?? -1;
    q = q.where((eb) => eb.or([eb('party_a_company', '=', own), eb('party_b_company', '=', own)]));
  }
  return q.executeTakeFirst();
}

/** The next number of a company's day series: prefix + yyyyMMdd + 4 digits (RK202611210001); see takeNumbers. */
export async function nextNumber(
  db: Kysely<DB>,
  view: ViewModel,
  column: string,
  prefix: string,
  companyId: number | null,
  at = new Date(),
): Promise<string> {
  const [next] = await takeNumbers(db, view, column, prefix, 1, companyId, at);
  return next as string;
}
