import { type Kysely, sql } from 'kysely';
import { syncViewTable } from '../../lowcode/ddl.js';
import type { DB } from '../schema.js';
import { parsedViews } from './parsed-views.js';

// Every designed view's table gets the list indexes of its fields as they are now chosen: one company's
// rows in each sortable field's order, and each exact search in the default order; indexes of the older
// set that no list reads any more (one for every pair of search and sort field) are dropped. A
// definition that no longer parses is left as it is: its next save rebuilds its indexes.
export async function up(db: Kysely<unknown>): Promise<void> {
  const rows = await sql<{ id: number; name: string; status: number; dis_menu: string | null; dis_template: string | null }>`
    select id, name, coalesce(status, 0) as status, dis_menu, dis_template from lc_generation where dis_template is not null order by id`.execute(
    db,
  );
  for (const view of parsedViews(rows.rows)) await syncViewTable(db as Kysely<DB>, view);
}

// The indexes serve reads only; the older set is not rebuilt.
export async function down(): Promise<void> {}
