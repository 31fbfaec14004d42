import { type Kysely, sql } from 'kysely';

// Failed passwords are counted per username and client address, so failures from one address lock the
// name for that address only. Counts kept per username alone locked a name for every address; they last
// minutes at most and are dropped rather than given an address they never had.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from sys_login_guard`.execute(db);
  await sql`alter table sys_login_guard add column address varchar(64) not null default ''`.execute(db);
  await sql`alter table sys_login_guard drop constraint sys_login_guard_pkey`.execute(db);
  await sql`alter table sys_login_guard add constraint sys_login_guard_pkey primary key (username, address)`.execute(db);
  await sql`alter table sys_login_guard alter column address drop default`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from sys_login_guard`.execute(db);
  await sql`alter table sys_login_guard drop constraint sys_login_guard_pkey`.execute(db);
  await sql`alter table sys_login_guard drop column address`.execute(db);
  await sql`alter table sys_login_guard add constraint sys_login_guard_pkey primary key (username)`.execute(db);
}
