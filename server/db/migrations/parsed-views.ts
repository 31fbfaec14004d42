import { type Kysely, sql } from 'kysely';
import { syncViewTable } from '../../lowcode/ddl.js';
import { type DefinitionRow, readView, type ViewModel } from '../../lowcode/view-model.js';
import type { DB } from '../schema.js';

/** The designed views of these definition rows, in order; a definition that no longer parses is passed over. */
export function parsedViews(rows: DefinitionRow[]): ViewModel[] {
  const out: ViewModel[] = [];
  for (const row of rows) {
    try {
      const view = readView(row);
      if (view) out.push(view);
    } catch {
      // left as it is
    }
  }
  return out;
}

/**
 * Brings every designed view's table up to its definition as syncViewTable makes it now (columns,
 * indexes, triggers); a definition that no longer parses is left as it is, for its next save.
 */
export async function syncDesignedViews(db: Kysely<unknown>): Promise<void> {
  const rows = await sql<DefinitionRow>`
    select id, name, coalesce(status, 0) as status, dis_menu, dis_template from lc_generation where dis_template is not null order by id`.execute(
    db,
  );
  for (const view of parsedViews(rows.rows)) await syncViewTable(db as Kysely<DB>, view);
}
