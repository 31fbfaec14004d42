import { type Kysely, sql } from 'kysely';
import { CONTRACT_COLUMNS, WAREHOUSE_COLUMNS } from './core-columns.js';

// Business tables behind files, messages, apply-to-join, agreements, visits and the look-ups
// that forms need (regions, warehouses, linkmen, contracts, waste categories, disposal processes).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table region (
      code varchar(12) primary key,
      parent_code varchar(12) references region(code),
      name varchar(64) not null,
      level integer not null
    );
    create index region_parent on region(parent_code);

    create table file_record (
      id serial primary key,
      file_path varchar(255) not null unique,
      file_name varchar(255) not null,
      column_name varchar(100),
      content_type varchar(100) not null,
      size integer not null,
      user_id integer references sys_user(id) on delete set null,
      create_time timestamp not null default now()
    );

    create table sys_message (
      id serial primary key,
      user_id integer not null references sys_user(id) on delete cascade,
      title text not null,
      content text not null,
      have_read boolean not null default false,
      create_time timestamp not null default now()
    );
    create index sys_message_user on sys_message(user_id, have_read, create_time desc);

    create table leave_message (
      id serial primary key,
      user_id integer not null references sys_user(id) on delete cascade,
      sender_id integer references sys_user(id) on delete set null,
      sender_name varchar(255) not null,
      content varchar(1024) not null,
      have_read boolean not null default false,
      create_time timestamp not null default now()
    );
    create index leave_message_user on leave_message(user_id, have_read, create_time desc);

    create table company_application (
      id serial primary key,
      name varchar(255) not null,
      type varchar(20) not null,
      comtype varchar(50),
      region varchar(255) not null,
      region_fmt varchar(255) not null,
      applicant varchar(100) not null,
      phone varchar(20) not null,
      source integer not null default 2,
      status integer not null default 0,
      create_time timestamp not null default now()
    );
    -- 0 pending, 1 approved, 2 rejected: one pending application per company name, even under races.
    create unique index company_application_pending on company_application(name) where status = 0;

    create table privacy_policy (
      type integer primary key,
      title varchar(100) not null,
      content text not null,
      update_time timestamp not null default now()
    );

    create table visits (
      date date primary key,
      pv integer not null default 0,
      ip integer not null default 0
    );
    create table visit_ip (
      date date not null,
      ip varchar(64) not null,
      primary key (date, ip)
    );

    create table company_linkman (
      id serial primary key,
      company_id integer not null references company(id) on delete cascade,
      name varchar(100) not null,
      phone varchar(20),
      position varchar(100),
      create_time timestamp not null default now()
    );
    create index company_linkman_company on company_linkman(company_id);

    create table company_warehouse (
      ${WAREHOUSE_COLUMNS}
    );
    create index company_warehouse_company on company_warehouse(company_id);

    create table company_contract (
      ${CONTRACT_COLUMNS}
    );
    create index company_contract_a on company_contract(party_a_company, end_time);
    create index company_contract_b on company_contract(party_b_company, end_time);

    create table waste_category (
      code varchar(20) primary key,
      name varchar(255) not null,
      category varchar(10) not null,
      category_name varchar(100) not null
    );
    create table company_waste_category (
      company_id integer not null references company(id) on delete cascade,
      code varchar(20) not null references waste_category(code),
      primary key (company_id, code)
    );

    create table disposal_process (
      id serial primary key,
      pid integer references disposal_process(id) on delete cascade,
      name varchar(100) not null,
      code varchar(20) not null,
      sort integer not null default 999
    );
    create index disposal_process_pid on disposal_process(pid);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists disposal_process, company_waste_category, waste_category, company_contract, company_warehouse,
    company_linkman, visit_ip, visits, privacy_policy, company_application, leave_message, sys_message, file_record, region cascade`.execute(
    db,
  );
}
