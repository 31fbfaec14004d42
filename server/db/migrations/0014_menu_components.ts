import { type Kysely, sql } from 'kysely';

// The app's own pages that stand in for a screen are named by their menu's component, not by the
// screen's id in the app: the logistics detail and the leave-message inbox of the demo menus.
const PAGES = [
  { path: '/logistics/vBuild/temp/25', component: 'logistics/detail' },
  { path: '/message/vBuild/temp/97', component: 'message/leaveMessage' },
] as const;
const SCREEN_PAGE = 'vBuild/temp';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const p of PAGES)
    await sql`update sys_menu set component = ${p.component} where path = ${p.path} and component = ${SCREEN_PAGE}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const p of PAGES)
    await sql`update sys_menu set component = ${SCREEN_PAGE} where path = ${p.path} and component = ${p.component}`.execute(db);
}
