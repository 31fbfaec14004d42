import { type Kysely, sql } from 'kysely';
import { ensureDataViewLogin } from '../../lowcode/data-view-login.js';
import { DATA_VIEW_LOGIN_SETTINGS } from '../../lowcode/sql-guard.js';

// PostgreSQL only: this database's own login for SQL data views (server/lowcode/data-view-login.ts), a role
// with a random name and password kept in sys_setting, SELECT on the allowed tables only, and the limits
// every data-view session starts with. An account that may not create roles leaves the migration passing
// with a warning; data views then need DATA_VIEW_DATABASE_URL (docs/security.md), or the server creates
// the login later once it may.
export async function up(db: Kysely<unknown>): Promise<void> {
  const kind = await sql<{ pglite: boolean }>`select version() like '%PGlite%' as pglite`.execute(db);
  if (kind.rows[0]?.pglite) return;
  const result = await ensureDataViewLogin(db);
  if (!result.ok) console.warn(`PostgreSQL: no data-view login (${result.reason}); data views need DATA_VIEW_DATABASE_URL`);
  else for (const w of result.warnings) console.warn(`PostgreSQL: ${w}`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const rows = await sql<{ value: string }>`select value from sys_setting where name = ${DATA_VIEW_LOGIN_SETTINGS.role}`.execute(db);
  await sql`delete from sys_setting where name in (${DATA_VIEW_LOGIN_SETTINGS.role}, ${DATA_VIEW_LOGIN_SETTINGS.password})`.execute(db);
  const role = rows.rows[0]?.value;
  if (!role || !/^wastegen_dv_[0-9a-f]{12}$/.test(role)) return;
  // Other databases copied from this one may still use the role: only its grants here go.
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
