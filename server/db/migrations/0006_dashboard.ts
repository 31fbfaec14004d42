import { type Kysely, sql } from 'kysely';

// Dashboards and the calls around them.
// - dash_fact: running sums of the business records (stock-ins, inquiries, contracts, orders, logistics
//   orders, vehicles) per company, role, warehouse, status, category and date bucket. Triggers on the
//   views' tables keep it equal to the records in the same transaction as every write, so a figure is
//   a read of a few hundred rows at most, whatever the number of records. The triggers are installed at
//   start-up on the tables the views resolve to (server/lib/dashboard-facts.ts); dash_source says which
//   table and which version of the trigger each source was last built from.
// - bulletin, inventory_config (inventory limits), dash_target (yearly targets of the supervisory
//   statistics), disposal_order_manual (the manual disposal order's own fields), disposal_testing_application,
//   materials_code (QR label codes).
// - dash_num, dash_int and dash_date read a JSON text as a number or a date, or null, never raising: the
//   triggers read records through to_jsonb, and a column a designer retyped to text must not fail a write.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function dash_num(t text) returns numeric language sql immutable as $$
      select case when t ~ '^\\s*[-+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)\\s*$' and length(t) < 40 then trim(t)::numeric end
    $$;
    create function dash_int(t text) returns bigint language sql immutable as $$
      select case when t ~ '^\\s*[0-9]{1,15}\\s*$' then trim(t)::bigint end
    $$;
    -- An impossible day (2026-02-30) moves forward within the month's overflow instead of raising.
    create function dash_date(t text) returns date language sql immutable as $$
      select case when t ~ '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])'
        then make_date(substr(t, 1, 4)::int, substr(t, 6, 2)::int, 1) + (substr(t, 9, 2)::int - 1) end
    $$;

    create table dash_fact (
      source varchar(40) not null,
      -- 0: every company (what administrators and the supervisory department see)
      company_id integer not null,
      -- '*' the record involves the company (each record once); 'a' party A (owner, producer, payer, asker);
      -- 'b' party B (disposer, payee, asked); 'c' the company of the user who created the record
      role char(1) not null,
      warehouse_id bigint not null default 0,
      status varchar(40) not null default '',
      category varchar(40) not null default '',
      day date not null default '1970-01-01',
      day2 date not null default '1970-01-01',
      n bigint not null default 0,
      qty numeric not null default 0,
      amount numeric not null default 0,
      amount2 numeric not null default 0,
      primary key (source, company_id, role, warehouse_id, status, category, day, day2)
    );

    create table dash_source (
      source varchar(40) primary key,
      table_name varchar(63) not null,
      version varchar(64) not null,
      installed_at timestamp not null default now()
    );

    create table bulletin (
      id serial primary key,
      title varchar(255) not null,
      content text not null,
      -- 10 published, 0 draft
      status integer not null default 10,
      views integer not null default 0,
      create_by varchar(100),
      create_time timestamp not null default now(),
      update_time timestamp not null default now()
    );
    create index bulletin_status on bulletin(status, create_time desc);

    create table inventory_config (
      id serial primary key,
      company_id integer not null references company(id) on delete cascade,
      warehouse_id integer references company_warehouse(id) on delete cascade,
      waste_category varchar(40),
      max_quantity numeric(16, 3) not null,
      remark varchar(255),
      create_by varchar(100),
      create_time timestamp not null default now()
    );
    create index inventory_config_company on inventory_config(company_id);

    create table dash_target (
      name varchar(40) not null,
      year integer not null,
      value numeric(20, 3) not null,
      primary key (name, year)
    );

    create table disposal_order_manual (
      record_id bigint primary key,
      view_id integer not null,
      payload jsonb not null,
      create_by varchar(100),
      create_time timestamp not null default now()
    );

    create table disposal_testing_application (
      id serial primary key,
      applicant_company_id integer references company(id) on delete set null,
      disposer_company_id integer not null references company(id) on delete cascade,
      waste_category_code varchar(20) not null,
      waste_name varchar(255) not null,
      quantity numeric(16, 3),
      sample_count integer not null default 1,
      linkman varchar(100) not null,
      phone varchar(20) not null,
      remark varchar(1024),
      -- 0 submitted, 1 accepted, 2 tested, 3 refused
      status integer not null default 0,
      user_id integer references sys_user(id) on delete set null,
      create_time timestamp not null default now()
    );
    create index disposal_testing_disposer on disposal_testing_application(disposer_company_id, create_time desc);

    create table materials_code (
      id serial primary key,
      code_num varchar(32) not null unique,
      operate_dept varchar(255),
      user_id integer references sys_user(id) on delete set null,
      create_time timestamp not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table if exists materials_code, disposal_testing_application, disposal_order_manual, dash_target, inventory_config,
      bulletin, dash_source, dash_fact cascade;
    drop function if exists dash_num(text), dash_int(text), dash_date(text);
  `.execute(db);
}
