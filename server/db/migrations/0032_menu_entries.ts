import { type Kysely, sql } from 'kysely';

// One sidebar entry per page:
// - the disposal-order screen (处置单) showed the same list as the 处置订单 page; its menu stays, so
//   the list buttons that open it keep their route, but no longer shows in the sidebar;
// - 打印二维码 was reachable only by its address: it shows, under 危废管理, to the roles that hold it.
// Menus an administrator has moved or changed are left as they are.

const DISPOSAL_SCREEN_PATH = '/dispose/vBuild/temp/30';
const QRCODE_COMPONENT = 'qrcode/print';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update sys_menu set hidden = true where type = 1 and path = ${DISPOSAL_SCREEN_PATH} and hidden = false`.execute(db);
  const waste = (
    await sql<{ id: number }>`select id from sys_menu where type = 0 and pid is null and path = 'waste' order by id limit 1`.execute(db)
  ).rows[0];
  const lowcode = (
    await sql<{ id: number }>`select id from sys_menu where type = 0 and pid is null and path = 'dev-tools' order by id limit 1`.execute(db)
  ).rows[0];
  if (!waste) return;
  await sql`update sys_menu set hidden = false, pid = ${waste.id}, sort = 9
    where type = 1 and component = ${QRCODE_COMPONENT} and hidden = true
      and (pid is null or pid = ${lowcode?.id ?? null})`.execute(db);
  // Every role holding the page reaches it through 危废管理.
  await sql`insert into sys_roles_menus (role_id, menu_id)
    select distinct rm.role_id, ${waste.id}::integer from sys_roles_menus rm join sys_menu m on m.id = rm.menu_id
    where m.component = ${QRCODE_COMPONENT}
    on conflict do nothing`.execute(db);
}

// The entries stay where they are.
export async function down(): Promise<void> {}
