import { type Kysely, sql } from 'kysely';
import { syncViewTable } from '../../lowcode/ddl.js';
import type { DB } from '../schema.js';
import { parsedViews } from './parsed-views.js';

// Every designed view's table gets the indexes its scoped lists read from: a company's or a department's
// rows in the default order, and a company's rows of one search value. Tables and columns already match
// their definitions, so only the missing indexes are built. A definition that no longer parses is left
// as it is: its next save builds them.
export async function up(db: Kysely<unknown>): Promise<void> {
  const rows = await sql<{ id: number; name: string; status: number; dis_menu: string | null; dis_template: string | null }>`
    select id, name, coalesce(status, 0) as status, dis_menu, dis_template from lc_generation where dis_template is not null order by id`.execute(
    db,
  );
  for (const view of parsedViews(rows.rows)) await syncViewTable(db as Kysely<DB>, view);
}

// The indexes serve reads only; leaving them in place is harmless.
export async function down(): Promise<void> {}
