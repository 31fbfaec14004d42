import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** An account's unread system messages and leave messages, and their sum (the bell's count). */
export async function unreadCounts(db: Kysely<DB>, userId: number): Promise<{ sysNum: number; leaveNum: number; total: number }> {
  const row = await db
    .selectNoFrom([
      db
        .selectFrom('sys_message')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('have_read', '=', false)
        .as('sysNum'),
      db
        .selectFrom('leave_message')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('have_read', '=', false)
        .as('leaveNum'),
    ])
    .executeTakeFirstOrThrow();
  const sysNum = Number(row.sysNum ?? 0);
  const leaveNum = Number(row.leaveNum ?? 0);
  return { sysNum, leaveNum, total: sysNum + leaveNum };
}
