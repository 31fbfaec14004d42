import type { Kysely } from 'kysely';
import { nameKey } from '../../src/shared/person-rule.js';
import type { DB } from '../db/schema.js';

/**
 * Whether another company (not `exceptId`) has a name that reads as `name` (see nameKey: ＡＢＣ is ABC,
 * spaces and hidden characters tell nothing apart). Read in full: a rename or an approval is rare, and a
 * platform's thousands of names are a small read.
 */
export async function companyNameTaken(db: Kysely<DB>, name: string, exceptId?: number): Promise<boolean> {
  const key = nameKey(name);
  let q = db.selectFrom('company').select('name');
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  return (await q.execute()).some((o) => nameKey(o.name) === key);
}
