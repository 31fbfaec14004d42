import { type Kysely, sql } from 'kysely';

// Renaming a company needs the button permission company:edit (企业名称修改, under 个人中心). The button
// menu is added where the 个人中心 page is, and granted to the roles that hold that page and see no more
// than their own company (data scope other than 全部): the company roles, which renamed their company
// before. An administrator grants or withdraws it on the role page. A database without the page (a
// fresh one, seeded after its migrations) gets the button from the seed.

const PERMISSION = 'company:edit';
const CENTER_COMPONENT = 'system/user/center';

export async function up(db: Kysely<unknown>): Promise<void> {
  const center = (
    await sql<{ id: number }>`select id from sys_menu where component = ${CENTER_COMPONENT} and type = 1 order by id limit 1`.execute(db)
  ).rows[0];
  if (!center) return;
  const existing = (await sql<{ id: number }>`select id from sys_menu where permission = ${PERMISSION} order by id limit 1`.execute(db))
    .rows[0];
  const button =
    existing ??
    (
      await sql<{ id: number }>`insert into sys_menu (pid, type, title, permission, sort)
        values (${center.id}, 2, '企业名称修改', ${PERMISSION}, 1) returning id`.execute(db)
    ).rows[0];
  if (!button || existing) return;
  await sql`insert into sys_roles_menus (role_id, menu_id)
    select distinct rm.role_id, ${button.id}::integer from sys_roles_menus rm join sys_role r on r.id = rm.role_id
    where rm.menu_id = ${center.id} and coalesce(r.data_scope, '') <> '全部'
    on conflict do nothing`.execute(db);
}

// The button and its grants stay.
export async function down(): Promise<void> {}
