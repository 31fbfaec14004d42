import { type Kysely, sql } from 'kysely';

// A private file is read by the company it was uploaded in, not by whichever company its uploader's
// account belongs to later: each file keeps that company. Existing files take their uploader's company
// as it is at the upgrade.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table file_record add column if not exists company_id bigint`.execute(db);
  await sql`update file_record f set company_id = u.company_id from sys_user u where u.id = f.user_id and f.company_id is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table file_record drop column if exists company_id`.execute(db);
}
