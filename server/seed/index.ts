import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema.js';
import { syncEntityViews } from '../lib/entity-views.js';
import { seedAccounts } from './accounts.js';
import { seedBusiness } from './business.js';
import { seedDashboard } from './dashboard.js';
import { seedDictionaries } from './dictionaries.js';
import { seedLowcode } from './lowcode.js';

export type SeedModule = (trx: Transaction<DB>) => Promise<void>;

/** Seed modules in the order they run; later modules may refer to rows of earlier ones (see ids.ts). */
export const seedModules: [string, SeedModule][] = [
  ['accounts', seedAccounts],
  ['dictionaries', seedDictionaries],
  ['business', seedBusiness],
  ['lowcode', seedLowcode],
  ['dashboard', seedDashboard],
];

/**
 * Seeds a fresh database once, in one transaction: either all the demo data is there or none. Run at
 * every start after the migrations; on a database seeded before, it only brings the SQL views over the
 * business records in line with this version's definition of them (entity-views.ts).
 */
export async function seedIfEmpty(db: Kysely<DB>): Promise<boolean> {
  const done = await db.selectFrom('sys_setting').select('value').where('name', '=', 'seeded').executeTakeFirst();
  if (done) {
    await syncEntityViews(db);
    return false;
  }
  await db.transaction().execute(async (trx) => {
    for (const [, run] of seedModules) await run(trx);
    await trx.insertInto('sys_setting').values({ name: 'seeded', value: new Date().toISOString() }).execute();
  });
  return true;
}
