import { type Kysely, sql } from 'kysely';

// Core tables the auth layer stands on: settings and secrets, departments, roles, menus,
// users, sessions, captchas and the operation log.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sys_setting (
      name varchar(100) primary key,
      value text not null
    );
    create table sys_dept (
      id serial primary key,
      pid integer references sys_dept(id),
      name varchar(255) not null,
      code varchar(50),
      sort integer not null default 999,
      enabled boolean not null default true,
      create_time timestamp not null default now()
    );
    create table sys_role (
      id serial primary key,
      name varchar(255) not null unique,
      level integer not null default 3,
      description varchar(255),
      data_scope varchar(255) not null default '本级',
      create_time timestamp not null default now()
    );
    create table sys_menu (
      id serial primary key,
      pid integer references sys_menu(id) on delete cascade,
      type integer not null default 1,
      title varchar(255) not null,
      name varchar(255),
      component varchar(255),
      path varchar(255),
      icon varchar(255),
      permission varchar(255),
      sort integer not null default 999,
      hidden boolean not null default false,
      cache boolean not null default false,
      i_frame boolean not null default false,
      create_time timestamp not null default now()
    );
    create table sys_roles_menus (
      role_id integer not null references sys_role(id) on delete cascade,
      menu_id integer not null references sys_menu(id) on delete cascade,
      primary key (role_id, menu_id)
    );
    create table company (
      id serial primary key,
      name varchar(255) not null,
      type varchar(20) not null,
      credit_code varchar(50),
      region varchar(255),
      region_fmt varchar(255),
      address varchar(512),
      contact_name varchar(100),
      contact_phone varchar(20),
      dept_code varchar(50),
      bci_id varchar(64),
      status integer not null default 1,
      create_time timestamp not null default now()
    );
    create table sys_user (
      id serial primary key,
      username varchar(100) not null unique,
      nick_name varchar(255) not null,
      phone varchar(20),
      email varchar(255),
      sex varchar(2),
      dept_id integer references sys_dept(id),
      job varchar(255),
      avatar varchar(512),
      password varchar(255) not null,
      is_admin boolean not null default false,
      status integer not null default 0,
      permission varchar(50),
      company_id integer references company(id),
      agreement_accepted boolean not null default true,
      pwd_reset_time timestamp,
      create_time timestamp not null default now(),
      update_time timestamp not null default now()
    );
    create unique index sys_user_phone_key on sys_user(phone) where phone is not null and status <> 2;
    create table sys_users_roles (
      user_id integer not null references sys_user(id) on delete cascade,
      role_id integer not null references sys_role(id) on delete cascade,
      primary key (user_id, role_id)
    );
    create table sys_session (
      id varchar(64) primary key,
      user_id integer not null references sys_user(id) on delete cascade,
      ip varchar(64),
      browser varchar(255),
      create_time timestamp not null default now(),
      last_seen timestamp not null default now()
    );
    create table sys_captcha (
      uuid varchar(64) primary key,
      code varchar(20) not null,
      expires_at timestamp not null
    );
    create table sys_log (
      id bigserial primary key,
      user_id integer,
      username varchar(100),
      description varchar(255) not null,
      log_type varchar(10) not null default 'INFO',
      method varchar(255),
      params text,
      request_ip varchar(64),
      address varchar(255),
      browser varchar(255),
      time integer not null default 0,
      exception_detail text,
      create_time timestamp not null default now()
    );
    create index sys_log_user_time on sys_log(username, create_time desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists sys_log, sys_captcha, sys_session, sys_users_roles, sys_user, sys_roles_menus, sys_menu, sys_role, sys_dept, company, sys_setting cascade`.execute(
    db,
  );
}
