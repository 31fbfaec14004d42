import { type Kysely, sql } from 'kysely';

// Reviews of company applications: who decided, when, why a rejection was made, and for an approval
// the company and the first account it created. An application is decided once (status 0 → 1 or 2).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table company_application
      add column reviewer_id integer references sys_user(id) on delete set null,
      add column reviewer_name varchar(255),
      add column review_time timestamp,
      add column reason varchar(500),
      add column company_id integer references company(id) on delete set null,
      add column user_id integer references sys_user(id) on delete set null
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table company_application
      drop column if exists reviewer_id,
      drop column if exists reviewer_name,
      drop column if exists review_time,
      drop column if exists reason,
      drop column if exists company_id,
      drop column if exists user_id
  `.execute(db);
}
