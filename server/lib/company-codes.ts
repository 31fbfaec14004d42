import { type ExpressionBuilder, type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/schema.js';

/**
 * A company's codes (credit code, filling-system id bciId, department code) are compared without case
 * wherever they are looked up or must be unique: 91320500mA1XXXXX names the company that holds
 * 91320500MA1XXXXX. The unique indexes are on the lower-cased codes (migration 0024).
 */

/** The column holds this code, in any case. `<> ''` lets the partial unique indexes answer it. */
export const sameCode = (column: string, code: string): RawBuilder<boolean> =>
  sql<boolean>`(lower(${sql.ref(column)}) = lower(${code}) and ${sql.ref(column)} <> '')`;

/** A company (of `table`, or the alias given) holding the code as any of its codes. */
export const companyCodeIs =
  (code: string, alias = '') =>
  (eb: ExpressionBuilder<DB, 'company'>) =>
    eb.or([sameCode(`${alias}credit_code`, code), sameCode(`${alias}bci_id`, code), sameCode(`${alias}dept_code`, code)]);
