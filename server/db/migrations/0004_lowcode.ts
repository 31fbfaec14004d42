import { type Kysely, sql } from 'kysely';

// Low-code definitions: views (generation), screens and SQL data views. The tables behind views
// (lc_view_{id}) are created by design/publish, not here.

/** What a view and a screen keep of their design: the menu entry and the template as JSON text, and when. */
const DESIGN = sql.raw(`dis_menu text,
      dis_template text,
      create_time timestamp not null default now(),
      update_time timestamp not null default now()`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table lc_generation (
      id serial primary key,
      name varchar(255) not null,
      menu_id integer,
      status integer not null default 0,
      ${DESIGN}
    );
    create table lc_screen (
      id serial primary key,
      name varchar(255) not null,
      menu_id integer,
      status integer not null default 0,
      type integer not null check (type between 1 and 4),
      ${DESIGN}
    );
    create table lc_data_view (
      id serial primary key,
      name varchar(255) not null,
      sql text not null,
      create_time timestamp not null default now(),
      update_time timestamp not null default now()
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    do $$ declare r record; begin
      for r in select tablename from pg_tables where schemaname = current_schema() and tablename like 'lc\_view\_%' loop
        execute format('drop table %I', r.tablename);
      end loop;
    end $$`.execute(db);
  await sql`drop table if exists lc_data_view, lc_screen, lc_generation`.execute(db);
}
