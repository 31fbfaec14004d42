import { type Kysely, sql } from 'kysely';

// Bank information: each company's settlement account (开户银行, 账户名称, 银行账号), one per company.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table if not exists company_bank (
    company_id integer primary key references company(id) on delete cascade,
    bank_name varchar(100) not null,
    account_name varchar(100) not null,
    account_no varchar(40) not null,
    update_by varchar(255),
    update_time timestamp not null default now()
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists company_bank`.execute(db);
}
