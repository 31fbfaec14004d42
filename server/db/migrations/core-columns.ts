import { sql } from 'kysely';

// The columns of the core warehouse and contract tables as 0003_business created them, which
// 0012_one_store's down creates again. Applied migrations must keep producing the same SQL: never edit.

export const WAREHOUSE_COLUMNS = sql.raw(`id serial primary key,
      company_id integer not null references company(id) on delete cascade,
      name varchar(255) not null,
      region varchar(255),
      region_fmt varchar(255),
      address varchar(512),
      linkman_id integer references company_linkman(id) on delete set null,
      unloading_point boolean not null default false,
      create_time timestamp not null default now()`);

export const CONTRACT_COLUMNS = sql.raw(`id serial primary key,
      contract_no varchar(64) not null unique,
      party_a_company integer not null references company(id) on delete cascade,
      party_a_name varchar(100),
      party_a_phone varchar(20),
      party_a_region varchar(255),
      party_a_region_fmt varchar(255),
      party_a_address varchar(512),
      party_a_user_id integer references sys_user(id) on delete set null,
      party_b_company integer not null references company(id) on delete cascade,
      begin_time date not null,
      end_time date not null,
      amount numeric(16, 3),
      file_path text,
      create_time timestamp not null default now()`);
