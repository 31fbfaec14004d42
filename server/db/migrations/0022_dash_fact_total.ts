import { type Kysely, sql } from 'kysely';

// dash_fact_total: the running sums of dash_fact without their warehouse and category, kept by the same
// triggers in the same statement. A figure that tells neither apart reads a row per status and date
// bucket here instead of one per warehouse and category too. It is filled when the facts are next
// installed: the trigger text changes with it, so every source's sums are computed again.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table dash_fact_total (
    source varchar(40) not null,
    company_id integer not null,
    role char(1) not null,
    status varchar(40) not null default '',
    day date not null default '1970-01-01',
    day2 date not null default '1970-01-01',
    n bigint not null default 0,
    qty numeric not null default 0,
    amount numeric not null default 0,
    amount2 numeric not null default 0,
    primary key (source, company_id, role, status, day, day2)
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists dash_fact_total`.execute(db);
}
