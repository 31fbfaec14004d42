import { type Kysely, type RawBuilder, sql } from 'kysely';
import { SCOPE_COLUMNS } from '../access/parties.js';
import { BUS_CHANNEL } from '../bus.js';
import type { DB } from '../db/schema.js';

/**
 * Every view table tells the server's instances when its rows change, whoever changes them (psql, a
 * script, another program): after each statement that inserts, updates, deletes or truncates, its
 * triggers (ROW_TRIGGERS) run `wastegen_rows_changed()`, which sends on the bus's channel the event
 * `rows-outside`: the view's id, the ids of the rows the statement changed and the scopes they were and
 * are in (each row's SCOPE_COLUMNS values, once per distinct set). A statement of more than MAX_ROWS rows,
 * a payload PostgreSQL's NOTIFY cannot carry (8000 bytes) and a TRUNCATE send `ids: null`: any row of the
 * view may have changed. The notice is sent when the transaction commits, and only then.
 *
 * The server's record writes (record-writes.ts) tell the instances themselves, with the rows' states: each
 * such statement marks its transaction (writerMark, evaluated in the statement's RETURNING, so only once
 * it wrote a row), and the trigger that finds the mark clears it and sends nothing. Any other write of the
 * server (imports, actions, seeding) is told by the trigger as an outside write, besides what the server
 * itself forgets after it.
 */

/** The triggers of every view table, by name: each one event, with the transition tables that event has. */
export const ROW_TRIGGERS = [
  { name: 'wastegen_rows_insert', event: 'insert', tables: 'referencing new table as new_rows' },
  { name: 'wastegen_rows_update', event: 'update', tables: 'referencing old table as old_rows new table as new_rows' },
  { name: 'wastegen_rows_delete', event: 'delete', tables: 'referencing old table as old_rows' },
  { name: 'wastegen_rows_truncate', event: 'truncate', tables: '' },
] as const;

const FUNCTION = 'wastegen_rows_changed';
/** The setting a record write marks its transaction with (see writerMark). */
const WRITER = 'wastegen.writer';
/** Most rows a statement's notice names; more are told as the whole view (their ids alone would not fit). */
const MAX_ROWS = 1000;
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_PAYLOAD = 7900;

/** A row's scope: its scope columns' values, from the row as jsonb `j` (null values left out). */
const scopeOf = (j: string) => `jsonb_strip_nulls(jsonb_build_object(${SCOPE_COLUMNS.map((c) => `'${c}', ${j} -> '${c}'`).join(', ')}))`;

const event = (ids: string, scopes: string) =>
  `json_build_object('o', '', 'e', json_build_object('t', 'rows-outside', 'viewId', view_id, 'ids', ${ids}, 'scopes', ${scopes}))::text`;

/** The body of the trigger function (compared with the installed one at start-up). */
const BODY = `
declare
  view_id bigint := substring(tg_table_name from '^lc_view_([0-9]+)$')::bigint;
  n bigint;
  ids jsonb;
  scopes jsonb;
  payload text;
begin
  -- A record write of the server marked its transaction: it tells its rows itself.
  if coalesce(current_setting('${WRITER}', true), '') <> '' then
    perform set_config('${WRITER}', '', true);
    return null;
  end if;
  if tg_op = 'INSERT' then
    select count(*) into n from new_rows;
    if n between 1 and ${MAX_ROWS} then
      select jsonb_agg(distinct x.id), jsonb_agg(distinct ${scopeOf('to_jsonb(x)')}) into ids, scopes from new_rows x;
    end if;
  elsif tg_op = 'UPDATE' then
    select count(*) into n from new_rows;
    if n between 1 and ${MAX_ROWS} then
      select jsonb_agg(distinct r.id), jsonb_agg(distinct r.s) into ids, scopes from (
        select x.id, ${scopeOf('to_jsonb(x)')} as s from old_rows x
        union all
        select x.id, ${scopeOf('to_jsonb(x)')} as s from new_rows x) r;
    end if;
  elsif tg_op = 'DELETE' then
    select count(*) into n from old_rows;
    if n between 1 and ${MAX_ROWS} then
      select jsonb_agg(distinct x.id), jsonb_agg(distinct ${scopeOf('to_jsonb(x)')}) into ids, scopes from old_rows x;
    end if;
  end if;
  if n = 0 then
    return null;
  end if;
  if ids is not null then
    payload := ${event('ids', 'scopes')};
  end if;
  if payload is null or octet_length(payload) > ${MAX_PAYLOAD} then
    payload := ${event('null', `'[]'::json`)};
  end if;
  perform pg_notify('${BUS_CHANNEL}', payload);
  return null;
end
`;

/**
 * The mark of a record write's statement, as a column of its RETURNING (see above): the view table's
 * trigger leaves the statement's rows to the server, which tells them itself.
 */
export const writerMark = (instanceId: string): RawBuilder<string> => sql<string>`set_config(${WRITER}, ${instanceId}, true)`;

/** Creates the trigger function, or replaces it when its body is not this one (two concurrent starts: under the start-up lock). */
async function installFunction(db: Kysely<DB>): Promise<void> {
  const current = await sql<{ src: string }>`select prosrc as src from pg_proc where oid = to_regprocedure(${`${FUNCTION}()`})`.execute(db);
  if (current.rows[0]?.src === BODY) return;
  await sql.raw(`create or replace function ${FUNCTION}() returns trigger language plpgsql as $wastegen$${BODY}$wastegen$`).execute(db);
}

/** Creates those of the table's triggers it lacks (`have`: the names it has). */
async function installTriggers(db: Kysely<DB>, table: string, have: ReadonlySet<string>): Promise<void> {
  for (const t of ROW_TRIGGERS) {
    if (have.has(t.name)) continue;
    await sql`create trigger ${sql.id(t.name)} after ${sql.raw(t.event)} on ${sql.table(table)} ${sql.raw(t.tables)}
      for each statement execute function ${sql.raw(FUNCTION)}()`.execute(db);
  }
}

/** Gives the view table its triggers (and the database the function) where they are missing. */
export async function installRowNotify(db: Kysely<DB>, table: string): Promise<void> {
  await installFunction(db);
  const names = ROW_TRIGGERS.map((t) => t.name);
  const have = await sql<{ name: string }>`select tgname as name from pg_trigger
    where tgrelid = to_regclass(${table}) and tgname = any(${names}::text[])`.execute(db);
  await installTriggers(db, table, new Set(have.rows.map((r) => r.name)));
}

/**
 * Gives every view table its triggers where they are missing, and brings the function up to date: run at
 * start-up, for tables made before there were triggers. Reads the catalogue only, once the triggers are in.
 */
export async function installRowNotifyAll(db: Kysely<DB>): Promise<void> {
  await installFunction(db);
  const names = ROW_TRIGGERS.map((t) => t.name);
  const tables = await sql<{ name: string; have: string | null }>`
    select c.relname as name, string_agg(t.tgname, ',') as have
    from pg_class c left join pg_trigger t on t.tgrelid = c.oid and t.tgname = any(${names}::text[])
    where c.relkind = 'r' and c.relnamespace = current_schema()::regnamespace and c.relname ~ '^lc_view_[0-9]+$'
    group by c.relname`.execute(db);
  for (const t of tables.rows) {
    const have = new Set((t.have ?? '').split(',').filter(Boolean));
    if (have.size < ROW_TRIGGERS.length) await installTriggers(db, t.name, have);
  }
}
