import { type Kysely, sql } from 'kysely';

// Failed logins per username as typed, whether or not the account exists, shared by every instance:
// the failures counted in the current window, when that window began, and until when the name is locked.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sys_login_guard (
      username varchar(255) primary key,
      failures integer not null default 0,
      window_start timestamptz,
      locked_until timestamptz
    )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists sys_login_guard`.execute(db);
}
