import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { DATA_VIEW_LOGIN_SETTINGS, grantDataViewReads } from './sql-guard.js';

/**
 * PostgreSQL only: the login SQL data views connect as. Data views never run on the server's own
 * connections (no SET ROLE on a privileged session that a statement could switch back from): they run on
 * a pool of their own that logs in as this role, which can read the allowed tables and nothing else.
 *
 * Roles are shared by every database of a PostgreSQL server, while each database (each test file's, or
 * several deployments on one server) needs its own: so each database gets a role with a random name
 * (`wastegen_dv_<hex>`) and a random password, both kept in the database's sys_setting, which no data
 * view may read. Nothing is ever changed on a role another database made, so parallel databases cannot
 * clobber each other; a database copied from a template shares the template's role, which is harmless
 * (grants are per database).
 */

/** Limits every data-view session starts with, set on the role. statement_timeout is a ceiling: each call sets its own, lower one. */
export const DATA_VIEW_ROLE_SETTINGS: readonly [string, string][] = [
  ['default_transaction_read_only', 'on'],
  ['statement_timeout', '30s'],
  ['lock_timeout', '5s'],
  ['idle_in_transaction_session_timeout', '60s'],
  ['work_mem', '16MB'],
];
/** Also set on the role when the account may (a superuser-only setting): most temporary file space a data view's statement may use. */
export const DATA_VIEW_TEMP_FILE_LIMIT = '256MB';

export interface DataViewLogin {
  role: string;
  password: string;
}

export type LoginResult = { ok: true; login: DataViewLogin; warnings: string[] } | { ok: false; reason: string };

const ROLE_NAME = /^wastegen_dv_[0-9a-f]{12}$/;
const PASSWORD = /^[A-Za-z0-9_-]{32,}$/;

async function stored(db: Kysely<any>): Promise<DataViewLogin | undefined> {
  const rows = await sql<{ name: string; value: string }>`
    select name, value from sys_setting where name in (${DATA_VIEW_LOGIN_SETTINGS.role}, ${DATA_VIEW_LOGIN_SETTINGS.password})`.execute(db);
  const got = new Map(rows.rows.map((r) => [r.name, r.value]));
  const role = got.get(DATA_VIEW_LOGIN_SETTINGS.role);
  const password = got.get(DATA_VIEW_LOGIN_SETTINGS.password);
  return role && password && ROLE_NAME.test(role) && PASSWORD.test(password) ? { role, password } : undefined;
}

const roleExists = async (db: Kysely<any>, role: string) =>
  (await sql`select 1 from pg_roles where rolname = ${role}`.execute(db)).rows.length > 0;

const reasonOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Runs a statement that may fail without failing the transaction around it (migrations run in one): under
 * a savepoint that is rolled back on failure. Throws the statement's error after rolling back.
 */
async function attempt(db: Kysely<any>, run: () => Promise<unknown>): Promise<void> {
  await sql`savepoint data_view_login`.execute(db);
  try {
    await run();
  } catch (e) {
    await sql`rollback to savepoint data_view_login`.execute(db);
    throw e;
  }
  await sql`release savepoint data_view_login`.execute(db);
}

async function createRole(db: Kysely<any>, login: DataViewLogin): Promise<void> {
  // Both are made of [0-9a-z_-] only (checked above), so they are safe to write into the statement.
  await attempt(db, () =>
    sql
      .raw(
        `create role ${login.role} login password '${login.password}' nosuperuser nocreatedb nocreaterole noinherit noreplication nobypassrls`,
      )
      .execute(db),
  );
}

/** Settings, schema usage and grants of the login; answers what could not be set. */
async function configure(db: Kysely<any>, role: string): Promise<string[]> {
  const warnings: string[] = [];
  for (const [name, value] of DATA_VIEW_ROLE_SETTINGS) {
    try {
      await attempt(db, () => sql.raw(`alter role ${role} set ${name} = '${value}'`).execute(db));
    } catch (e) {
      warnings.push(`could not set ${name} on ${role}: ${reasonOf(e)}`);
    }
  }
  try {
    await attempt(db, () => sql.raw(`alter role ${role} set temp_file_limit = '${DATA_VIEW_TEMP_FILE_LIMIT}'`).execute(db));
  } catch (e) {
    // temp_file_limit is superuser-only: without it a data view's sorts may spill up to the disk, in time
    // bounded by statement_timeout. An administrator can set it (docs/security.md).
    warnings.push(
      `temp_file_limit not set on ${role} (${reasonOf(e)}); an administrator may run: ALTER ROLE ${role} SET temp_file_limit = '${DATA_VIEW_TEMP_FILE_LIMIT}'`,
    );
  }
  try {
    await attempt(db, () =>
      sql.raw(`do $$ begin execute format('grant usage on schema %I to ${role}', current_schema()); end $$`).execute(db),
    );
  } catch (e) {
    warnings.push(`could not grant ${role} usage on the schema: ${reasonOf(e)}`);
  }
  await grantDataViewReads(db, [role]);
  return warnings;
}

/**
 * Makes sure this database has its data-view login: the one stored in sys_setting (created again with the
 * stored password if the role is gone, e.g. a database restored on another server), or a new one. Needs
 * an account that may create roles (CREATEROLE); without it the answer says why, and data views need
 * DATA_VIEW_DATABASE_URL (docs/security.md). Run it inside a transaction (a migration, or
 * `db.transaction()`): a statement that fails is rolled back to a savepoint, not the whole transaction.
 */
export async function ensureDataViewLogin(db: Kysely<any>): Promise<LoginResult> {
  const kind = await sql<{ pglite: boolean }>`select version() like '%PGlite%' as pglite`.execute(db);
  if (kind.rows[0]?.pglite) return { ok: false, reason: 'PGlite has no roles' };
  const existing = await stored(db);
  if (existing) {
    if (!(await roleExists(db, existing.role))) {
      try {
        await createRole(db, existing);
      } catch (e) {
        if (!(await roleExists(db, existing.role))) return { ok: false, reason: `cannot create role ${existing.role}: ${reasonOf(e)}` };
      }
      return { ok: true, login: existing, warnings: await configure(db, existing.role) };
    }
    await grantDataViewReads(db, [existing.role]);
    return { ok: true, login: existing, warnings: [] };
  }
  const login = { role: `wastegen_dv_${randomBytes(6).toString('hex')}`, password: randomBytes(24).toString('base64url') };
  try {
    await createRole(db, login);
  } catch (e) {
    return { ok: false, reason: `this account may not create the data-view login (${reasonOf(e)})` };
  }
  const kept = await sql<{ name: string }>`
    insert into sys_setting (name, value) values (${DATA_VIEW_LOGIN_SETTINGS.role}, ${login.role}), (${DATA_VIEW_LOGIN_SETTINGS.password}, ${login.password})
    on conflict (name) do nothing returning name`.execute(db);
  if (kept.rows.length < 2) {
    // Another instance stored its login first: that one is this database's, ours goes.
    await sql`delete from sys_setting where name in (${DATA_VIEW_LOGIN_SETTINGS.role}, ${DATA_VIEW_LOGIN_SETTINGS.password}) and value in (${login.role}, ${login.password})`.execute(
      db,
    );
    await sql.raw(`drop role if exists ${login.role}`).execute(db);
    return ensureDataViewLogin(db);
  }
  return { ok: true, login, warnings: await configure(db, login.role) };
}

/** The stored login of this database, if any (no role is created). */
export const storedDataViewLogin = stored;

/** The URL of the data-view login: the server's own URL with the login's name and password. */
export function dataViewUrl(serverUrl: string, login: DataViewLogin): string {
  const u = new URL(serverUrl);
  u.username = login.role;
  u.password = login.password;
  return u.toString();
}
