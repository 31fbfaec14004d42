import type { Kysely } from 'kysely';
import { syncDesignedViews } from './parsed-views.js';

// Every designed view's table gets an index per pair of its first three exact searches, so that two
// filters over every company's rows (the administrator's status and category, say) read one index for
// their first page and capped count. A definition that no longer parses is left as it is: its next
// save builds its indexes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await syncDesignedViews(db);
}

// The indexes serve reads only; dropping them is left to the definitions' next save.
export async function down(): Promise<void> {}
