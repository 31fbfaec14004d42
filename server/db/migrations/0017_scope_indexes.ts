import type { Kysely } from 'kysely';
import { syncDesignedViews } from './parsed-views.js';

// Every designed view's table gets the indexes its scoped lists read from: a company's or a department's
// rows in the default order, and a company's rows of one search value. Tables and columns already match
// their definitions, so only the missing indexes are built. A definition that no longer parses is left
// as it is: its next save builds them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await syncDesignedViews(db);
}

// The indexes serve reads only; leaving them in place is harmless.
export async function down(): Promise<void> {}
