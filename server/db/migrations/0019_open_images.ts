import { type Kysely, sql } from 'kysely';

// Only images uploaded to be shown without a session are served by /api/open/image. Images stored before
// this rule may already be drawn by screens and pictures in rich text, so they stay open.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table file_record add column open boolean not null default false`.execute(db);
  await sql`update file_record set open = true where content_type like 'image/%'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table file_record drop column if exists open`.execute(db);
}
