import { type Kysely, sql } from 'kysely';
import { DATA_VIEW_ROLE, grantDataViewReads } from '../../lowcode/sql-guard.js';

// PostgreSQL only: the role SQL data views run under. It cannot log in and may only SELECT the tables a
// data view is allowed to read (granted here on the existing ones, by ddl.ts on each new view table, and
// again at run time for any the role still lacks). The server's account becomes a member so that it can
// `SET LOCAL ROLE` to it. Roles are shared by every database of the server, and several databases may
// migrate at once: a role that already exists, or appears meanwhile, is used as it is. An account that may
// not create roles leaves the migration passing with a warning; an administrator then creates the role
// (docs/security.md) and data views refuse to run until it exists.
export async function up(db: Kysely<unknown>): Promise<void> {
  const kind = await sql<{ pglite: boolean }>`select version() like '%PGlite%' as pglite`.execute(db);
  if (kind.rows[0]?.pglite) return;
  const role = DATA_VIEW_ROLE;
  await sql
    .raw(`do $$ begin
      if not exists (select from pg_roles where rolname = '${role}') then
        create role ${role} nologin;
      end if;
    exception when duplicate_object or unique_violation or insufficient_privilege then null;
    end $$`)
    .execute(db);
  await sql
    .raw(`do $$ begin
      if exists (select from pg_roles where rolname = '${role}') and not pg_has_role(current_user, '${role}', 'MEMBER') then
        execute format('grant ${role} to %I', current_user);
      end if;
    exception when others then null;
    end $$`)
    .execute(db);
  const state = await sql<{ exists: boolean; member: boolean }>`
    select true as exists, pg_has_role(current_user, oid, 'MEMBER') as member from pg_roles where rolname = ${role}`.execute(db);
  const found = state.rows[0];
  if (!found) {
    console.warn(
      `PostgreSQL: role ${role} does not exist and this account may not create it; data views will not run until an administrator creates it`,
    );
    return;
  }
  if (!found.member)
    console.warn(`PostgreSQL: this account is not a member of ${role}; data views will not run until an administrator grants it`);
  await sql
    .raw(`do $$ begin
      execute format('grant usage on schema %I to ${role}', current_schema());
    exception when others then null;
    end $$`)
    .execute(db);
  await grantDataViewReads(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const role = DATA_VIEW_ROLE;
  // The role itself stays: other databases of the server may use it.
  await sql
    .raw(`do $$ declare r record; begin
      if not exists (select from pg_roles where rolname = '${role}') then return; end if;
      for r in select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and has_table_privilege('${role}', c.oid, 'SELECT') and c.relkind in ('r', 'p', 'v', 'm') loop
        execute format('revoke select on %I from ${role}', r.relname);
      end loop;
    exception when others then null;
    end $$`)
    .execute(db);
}
