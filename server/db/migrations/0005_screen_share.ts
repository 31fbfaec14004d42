import { type Kysely, sql } from 'kysely';

// Share links of big screens: each screen holds an access key (null until it is first shared). A link
// carries the key it was made with, so renewing the key revokes every earlier link.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table lc_screen add column access_key varchar(64)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table lc_screen drop column if exists access_key`.execute(db);
}
