import { sql } from 'kysely';
import { messages } from '../../src/contract/messages.js';
import type { App } from '../app.js';
import type { SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { readAddressed, unreadInbox } from '../lib/dept-messages.js';
import { plainText } from '../lib/message-html.js';
import { fromFirstPageOne, pageParams, paginate } from '../lib/paging.js';
import { isDbId, wireTime } from '../lib/sql.js';
import { unreadCounts } from '../lib/unread.js';
import { registerResource, writerOf } from './register.js';

const LEAVE_MAX = 1024;

const fmtTime = wireTime('create_time');
const fmtMinute = sql<string>`to_char(create_time, 'YYYY-MM-DD HH24:MI')`;

/**
 * Who left a message, beside the name it was signed with (any nick name, the administrator's included):
 * the sending account's username and company as they are now, which no sender chooses for itself.
 */
const senderOf = () => [
  sql<string | null>`(select u.username from sys_user u where u.id = leave_message.sender_id)`.as('senderUsername'),
  sql<string | null>`(select c.name from sys_user u join company c on c.id = u.company_id where u.id = leave_message.sender_id)`.as(
    'senderCompany',
  ),
];

/** The wire's page counts from 1 on these calls; 0 is read as the first page too. */
const pageOf = fromFirstPageOne;

const idList = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);

function me(req: { user: SessionUser | null }): SessionUser {
  // The core hook has authenticated every non-public route before the handler runs.
  return req.user!;
}

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  registerResource(app, messages, {
    sysPage: async (req) => {
      const user = me(req);
      const q = req.query;
      let base = db.selectFrom('sys_message').where('user_id', '=', user.id);
      if (q.haveRead !== undefined) base = base.where('have_read', '=', q.haveRead === '1');
      const { content, totalElements } = await paginate(
        base,
        (x) =>
          x
            .select(['id', 'title', 'content', 'have_read', fmtMinute.as('time'), fmtTime.as('createTime')])
            // Unread first, each part newest first.
            .orderBy('have_read')
            .orderBy('create_time', 'desc')
            .orderBy('id', 'desc'),
        pageOf(q),
      );
      return {
        content: content.map((r) => ({
          id: r.id,
          title: r.title,
          time: r.time,
          content: r.content,
          createTime: r.createTime,
          haveRead: r.have_read ? 1 : 0,
        })),
        totalElements,
      };
    },

    sysReadAll: async (req) => {
      await writerOf(req)
        .updateTable('sys_message')
        .set({ have_read: true })
        .where('user_id', '=', me(req).id)
        .where('have_read', '=', false)
        .execute();
      return { status: 200 as const, message: '操作成功' };
    },

    sysReadOne: async (req) => {
      const row = await writerOf(req)
        .updateTable('sys_message')
        .set({ have_read: true })
        .where('id', '=', req.query.id)
        .where('user_id', '=', me(req).id)
        .returning(['id', 'title', 'content', fmtMinute.as('time'), fmtTime.as('createTime')])
        .executeTakeFirst();
      if (!row) throw notFound('MESSAGE_NOT_FOUND');
      return { status: 200 as const, message: '操作成功', data: { ...row, haveRead: 1 } };
    },

    unreadNum: async (req) => ({ status: 200 as const, data: await unreadCounts(ctx, me(req)) }),

    sysDelete: async (req) => {
      const ids = [...idList(req.query.id), ...idList(req.query.ids)];
      if (!ids.length) throw badRequest('MESSAGE_REQUIRED');
      if (ids.some((n) => !isDbId(n))) throw badRequest('MESSAGE_ID_INVALID');
      const res = await writerOf(req).deleteFrom('sys_message').where('id', 'in', ids).where('user_id', '=', me(req).id).executeTakeFirst();
      const count = Number(res.numDeletedRows);
      if (!count) throw notFound('MESSAGE_NOT_FOUND');
      return { status: 200 as const, message: '删除成功', data: { count } };
    },

    // The messages left for the user and those addressed to its department (see dept-messages.ts).
    leaveUnread: async (req) => {
      const { limit, offset } = pageParams(pageOf(req.query).page, req.query.size);
      return unreadInbox(ctx, me(req), limit, offset);
    },

    leaveReadOne: async (req) => {
      const user = me(req);
      if (req.query.viewId !== undefined) {
        const addressed = await readAddressed(ctx, writerOf(req), user, req.query.viewId, req.query.id);
        if (!addressed) throw notFound('LEAVE_MESSAGE_NOT_FOUND');
        return { status: 200 as const, message: '操作成功', data: addressed };
      }
      const row = await writerOf(req)
        .updateTable('leave_message')
        .set({ have_read: true })
        .where('id', '=', req.query.id)
        .where('user_id', '=', user.id)
        .returning(['id', 'content', 'sender_name as senderName', fmtTime.as('createTime'), ...senderOf()])
        .executeTakeFirst();
      if (!row) throw notFound('LEAVE_MESSAGE_NOT_FOUND');
      return { status: 200 as const, message: '操作成功', data: row };
    },

    /**
     * A leave message to the named account, or without a name to the administrator. Whether the name is an
     * active account does not show: the answer is the same (status, body), and so is the work before it,
     * one statement that finds the account, stores the message for it if there is one, sends the notice
     * with the commit, and takes a transaction id either way, so both commits write and flush alike.
     */
    leave: async (req) => {
      const user = me(req);
      const content = (req.body.content ?? '').trim();
      if (!content) throw badRequest('LEAVE_MESSAGE_REQUIRED');
      if (content.length > LEAVE_MAX) throw badRequest('LEAVE_MESSAGE_TOO_LONG', { max: LEAVE_MAX });
      let reception = req.body.reception?.trim();
      if (!reception) {
        // No name given (nothing of the caller's to tell apart): the platform's first administrator.
        const admin = await db
          .selectFrom('sys_user')
          .select('username')
          .where('status', '=', 0)
          .where('is_admin', '=', true)
          .orderBy('id')
          .limit(1)
          .executeTakeFirst();
        if (!admin) throw badRequest('RECEIVER_NOT_FOUND');
        reception = admin.username;
      }
      const notice = {
        sender: user.username,
        reception,
        body: { noticeInfo: '您有一条新留言', content },
        flag: 'leaveMessage',
      };
      const text = JSON.stringify(notice);
      // The recipient is the account holding the name now; its notice goes to that account's sockets by id.
      const recipient = await db
        .selectFrom('sys_user')
        .select('id')
        .where('username', '=', reception)
        .where('status', '=', 0)
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      // An unknown name is answered as a known one is: the answer does not tell which names exist.
      if (!recipient) return { status: 200 as const, message: '留言成功', data: { reception } };
      // NOTIFY carries under 8000 bytes: a longer notice reaches other instances without its text (they push nothing).
      const remote =
        Buffer.byteLength(text) > 6000 ? sql`json_build_object('t', 'notice', 'userId', ${recipient.id}::integer, 'text', '')` : undefined;
      const { notify, done } = ctx.bus.inStatement({ t: 'notice', userId: recipient.id, text }, remote);
      const sent = await sql<{ stored: number; xact: string }>`
        with stored as (
          insert into leave_message (user_id, sender_id, sender_name, content)
          select id, ${user.id}, ${user.nickName || user.username}, ${content} from sys_user where id = ${recipient.id} and status = 0
          returning id
        )
        select count(*)::int as stored, ${notify ? sql`max(${notify})` : sql`null`} as notified, pg_current_xact_id()::text as xact
        from stored
      `.execute(writerOf(req));
      done((sent.rows[0]?.stored ?? 0) > 0);
      return { status: 200 as const, message: '留言成功', data: { reception } };
    },

    sysSend: async (req) => {
      const title = (req.body.title ?? '').trim();
      const content = (req.body.content ?? '').trim();
      if (!title) throw badRequest('MESSAGE_TITLE_REQUIRED');
      if (!content) throw badRequest('MESSAGE_CONTENT_REQUIRED');
      const wanted = req.body.usernames ? [...new Set(req.body.usernames.map((u) => u.trim()).filter(Boolean))] : null;
      if (wanted && !wanted.length) throw badRequest('RECEIVER_REQUIRED');
      let q = db.selectFrom('sys_user').select(['id', 'username']).where('status', '=', 0);
      if (wanted) q = q.where('username', 'in', wanted);
      const users = await q.orderBy('id').execute();
      if (wanted) {
        const found = new Set(users.map((u) => u.username));
        const missing = wanted.filter((u) => !found.has(u));
        if (missing.length) throw badRequest('USERS_NOT_FOUND', { names: missing.join('、') });
      }
      if (users.length) {
        await writerOf(req)
          .insertInto('sys_message')
          .values(users.map((u) => ({ user_id: u.id, title, content })))
          .execute();
      }
      const noticeInfo = plainText(title);
      for (const u of users) {
        ctx.realtime.push(u.id, { sender: 'system', reception: u.username, body: { noticeInfo }, flag: 'sysMessage' });
      }
      return { status: 200 as const, message: '发送成功', data: { count: users.length } };
    },
  });
}
