import type { Kysely } from 'kysely';
import { syncDesignedViews } from './parsed-views.js';

// Every designed view's table gets the list indexes of its fields as they are now chosen: one company's
// rows in each sortable field's order, and each exact search in the default order; indexes of the older
// set that no list reads any more (one for every pair of search and sort field) are dropped. A
// definition that no longer parses is left as it is: its next save rebuilds its indexes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await syncDesignedViews(db);
}

// The indexes serve reads only; the older set is not rebuilt.
export async function down(): Promise<void> {}
