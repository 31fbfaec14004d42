import { type Kysely, sql } from 'kysely';
import { AUDIT_FUNCTION, auditTable, IGNORED } from '../audit.js';

// The audit trigger left a column named have_read out of every table's entries, so a view's field of that
// name changed without a trace. Read marks and counters are now named per table (the trigger's second
// argument): the function is replaced, and the triggers of the tables that name some are made again.
export async function up(db: Kysely<unknown>): Promise<void> {
  await AUDIT_FUNCTION.execute(db);
  for (const table of Object.keys(IGNORED)) {
    const exists = await sql<{ ok: boolean }>`select to_regclass(${table}) is not null as ok`.execute(db);
    if (!exists.rows[0]?.ok) continue;
    await sql`drop trigger if exists wg_audit on ${sql.table(table)}`.execute(db);
    await auditTable(db, table);
  }
}

// Going back would hide such fields from the trail again: nothing is undone.
export async function down(): Promise<void> {}
