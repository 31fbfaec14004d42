import { type Kysely, sql } from 'kysely';

// A session signed in with 记住我 outlives the idle timeout until this time (null: it does not).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sys_session add column remember_until timestamp`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sys_session drop column if exists remember_until`.execute(db);
}
