import type { AppContext } from '../context.js';
import { type Reader, unreadAddressedCount } from './dept-messages.js';

/**
 * An account's unread system messages and leave messages, and their sum (the bell's count): the leave
 * messages are those left for the account and the 留言管理 records addressed to its department.
 */
export async function unreadCounts(ctx: AppContext, user: Reader): Promise<{ sysNum: number; leaveNum: number; total: number }> {
  const db = ctx.db;
  const [row, addressed] = await Promise.all([
    db
      .selectNoFrom([
        db
          .selectFrom('sys_message')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', user.id)
          .where('have_read', '=', false)
          .as('sysNum'),
        db
          .selectFrom('leave_message')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', user.id)
          .where('have_read', '=', false)
          .as('leaveNum'),
      ])
      .executeTakeFirstOrThrow(),
    unreadAddressedCount(ctx, user),
  ]);
  const sysNum = Number(row.sysNum ?? 0);
  const leaveNum = Number(row.leaveNum ?? 0) + addressed;
  return { sysNum, leaveNum, total: sysNum + leaveNum };
}
