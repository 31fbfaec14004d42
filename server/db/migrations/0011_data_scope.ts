import { type Kysely, sql } from 'kysely';

// Roles carry a data scope (全部, 本企业, 本部门, 本人, 自定义 with chosen departments) and every
// low-code record knows the company and department of the user who created it. Existing records take
// them from their createBy; a record whose creator is gone keeps nulls and is seen by 全部 alone.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table if not exists sys_roles_depts (
    role_id integer not null references sys_role(id) on delete cascade,
    dept_id integer not null references sys_dept(id) on delete cascade,
    primary key (role_id, dept_id)
  )`.execute(db);
  await sql`update sys_role set data_scope = '本企业' where data_scope not in ('全部', '本企业', '本部门', '本人', '自定义')`.execute(db);
  await sql`alter table sys_role alter column data_scope set default '本企业'`.execute(db);
  const tables = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind = 'r' and c.relname ~ '^lc_view_[0-9]+$' order by 1`.execute(db);
  for (const { name } of tables.rows) {
    const t = sql.table(name);
    await sql`alter table ${t} add column if not exists create_company bigint, add column if not exists create_dept bigint`.execute(db);
    await sql`update ${t} as r set create_company = u.company_id, create_dept = u.dept_id
      from sys_user u where u.username = r.create_by`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists sys_roles_depts`.execute(db);
}
