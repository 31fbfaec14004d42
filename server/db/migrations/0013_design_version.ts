import { type Kysely, sql } from 'kysely';

// A view definition and a screen carry the version their last design save made: a save names the
// version it started from and is refused when another save came first, however close in time.
const TABLES = ['lc_generation', 'lc_screen'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const t of TABLES) await sql`alter table ${sql.table(t)} add column if not exists version integer not null default 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of TABLES) await sql`alter table ${sql.table(t)} drop column if exists version`.execute(db);
}
