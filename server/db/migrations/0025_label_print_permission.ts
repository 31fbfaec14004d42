import { type Kysely, sql } from 'kysely';

// Label codes are made (and stored) by the 打印二维码 page only: its menu carries the permission the
// call asks for, so the roles that have the page, and no one else, may make them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update sys_menu set permission = 'qrcode:print'
    where component = 'qrcode/print' and (permission is null or permission = '')
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update sys_menu set permission = null where component = 'qrcode/print' and permission = 'qrcode:print'`.execute(db);
}
