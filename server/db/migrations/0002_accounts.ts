import { type Kysely, sql } from 'kysely';

// Dictionaries and e-mail verification codes of the accounts module.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sys_dict (
      id serial primary key,
      name varchar(100) not null unique,
      description varchar(255),
      create_time timestamp not null default now()
    );
    create table sys_dict_detail (
      id serial primary key,
      dict_id integer not null references sys_dict(id) on delete cascade,
      label varchar(255) not null,
      value varchar(255) not null,
      type varchar(20) not null default '',
      sort integer not null default 999,
      create_time timestamp not null default now(),
      unique (dict_id, value)
    );
    create index sys_dict_detail_dict on sys_dict_detail(dict_id, sort);
    create table sys_email_code (
      id serial primary key,
      user_id integer not null references sys_user(id) on delete cascade,
      email varchar(255) not null,
      code varchar(20) not null,
      expires_at timestamp not null,
      used boolean not null default false,
      create_time timestamp not null default now()
    );
    create index sys_email_code_user on sys_email_code(user_id, create_time desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists sys_email_code, sys_dict_detail, sys_dict cascade`.execute(db);
}
