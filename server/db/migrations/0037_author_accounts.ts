import { type Kysely, sql } from 'kysely';

// A record belongs to its author's account, not to a username: an account can be renamed, and a freed
// username taken by another account, which must not inherit the records, the 本人 scope or the leave
// messages of the name's earlier holder. Every view table gains create_user, the author's account id,
// filled in for existing records from the account that holds their create_by now (a record whose author
// is gone keeps null and is seen by the wider scopes alone). create_by stays as the name the author
// wrote under, which the lists show.
export async function up(db: Kysely<unknown>): Promise<void> {
  // A definition declaring a field of that name (which a design may no longer do) would have its values
  // taken for authors: the upgrade stops and names it instead.
  const declared = await sql<{ id: number; name: string }>`
    select id, name from lc_generation where dis_template ~ '"name"\\s*:\\s*"create_user"' order by id`.execute(db);
  if (declared.rows.length) {
    throw new Error(
      `${declared.rows.map((v) => `lc_generation ${v.id} (${v.name})`).join(', ')}: a field named create_user is in the way of the system column that now holds each record's author; rename the field in its definition and upgrade again`,
    );
  }
  const tables = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r' and c.relname ~ '^lc_view_[0-9]+$' order by 1`.execute(db);
  for (const { name } of tables.rows) {
    const t = sql.table(name);
    await sql`alter table ${t} add column if not exists create_user bigint`.execute(db);
    await sql`update ${t} as r set create_user = u.id from sys_user u where u.username = r.create_by and r.create_user is null`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const tables = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r' and c.relname ~ '^lc_view_[0-9]+$' order by 1`.execute(db);
  for (const { name } of tables.rows) await sql`alter table ${sql.table(name)} drop column if exists create_user`.execute(db);
}
