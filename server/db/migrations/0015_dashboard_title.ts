import { type Kysely, sql } from 'kysely';

// Only /abandonhome is 首页; the demo menu's /dashboard entry is the company dashboard, 企业看板.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update sys_menu set title = '企业看板' where path = 'dashboard' and title = '首页'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update sys_menu set title = '首页' where path = 'dashboard' and title = '企业看板'`.execute(db);
}
