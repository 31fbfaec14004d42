import { z } from 'zod';
import type { App } from '../app.js';
import { currentUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { notFound } from '../errors.js';
import { answers } from '../lib/route.js';
import { dbId, wireTime } from '../lib/sql.js';

/**
 * The personal centre's own reads and the leave-message inbox's reading: the cities of the user's
 * province with the platform's companies in each, and marking one leave message read.
 */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  // The province is the user's company's; without one, the province where most live companies are.

  app.get(
    '/api/leaveMessage/readOne',
    answers(
      { session: true },
      z.object({
        status: z.literal(200),
        message: z.string(),
        data: z.object({ id: z.number(), content: z.string(), senderName: z.string(), createTime: z.string() }),
      }),
      { querystring: z.object({ id: dbId }) },
    ),
    async (req) => {
      const row = await db
        .updateTable('leave_message')
        .set({ have_read: true })
        .where('id', '=', req.query.id)
        .where('user_id', '=', currentUser(req).id)
        .returning(['id', 'content', 'sender_name as senderName', wireTime('create_time').as('createTime')])
        .executeTakeFirst();
      if (!row) throw notFound('LEAVE_MESSAGE_NOT_FOUND');
      return { status: 200 as const, message: '操作成功', data: row };
    },
  );
}
