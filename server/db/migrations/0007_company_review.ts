import { type Kysely, sql } from 'kysely';

// Reviews of company applications: who decided, when, why a rejection was made, and for an approval
// the company and the first account it created. An application is decided once (status 0 → 1 or 2).
// A database seeded before this migration also gets the 企业入驻审核 menu (a fresh one gets it from the
// seed): under the 系统管理 directory, granted to the roles that hold 用户管理.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table company_application
      add column reviewer_id integer references sys_user(id) on delete set null,
      add column reviewer_name varchar(255),
      add column review_time timestamp,
      add column reason varchar(500),
      add column company_id integer references company(id) on delete set null,
      add column user_id integer references sys_user(id) on delete set null
  `.execute(db);

  const dir = await sql<{ id: number }>`
    select id from sys_menu where pid is null and type = 0 and path = 'system' order by id limit 1
  `.execute(db);
  const already = await sql`select 1 from sys_menu where component = 'system/companyApply/index'`.execute(db);
  const systemId = dir.rows[0]?.id;
  if (systemId === undefined || already.rows.length) return;
  const page = await sql<{ id: number }>`
    insert into sys_menu (pid, type, title, name, component, path, icon, permission, sort)
    values (${systemId}, 1, '企业入驻审核', 'CompanyApply', 'system/companyApply/index', 'companyApply', 'audit', 'companyApply:list', 6)
    returning id
  `.execute(db);
  const pageId = page.rows[0]?.id;
  if (pageId === undefined) return;
  await sql`
    insert into sys_menu (pid, type, title, permission, sort)
    values (${pageId}, 2, '入驻申请通过', 'companyApply:approve', 1), (${pageId}, 2, '入驻申请驳回', 'companyApply:reject', 2)
  `.execute(db);
  await sql`
    insert into sys_roles_menus (role_id, menu_id)
    select distinct rm.role_id, m.id
    from sys_roles_menus rm
    join sys_menu u on u.id = rm.menu_id and u.component = 'system/user/index'
    cross join sys_menu m
    where m.id = ${pageId} or m.pid = ${pageId}
    on conflict do nothing
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from sys_menu where component = 'system/companyApply/index'`.execute(db);
  await sql`
    alter table company_application
      drop column if exists reviewer_id,
      drop column if exists reviewer_name,
      drop column if exists review_time,
      drop column if exists reason,
      drop column if exists company_id,
      drop column if exists user_id
  `.execute(db);
}
