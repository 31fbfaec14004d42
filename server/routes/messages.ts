import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { App } from '../app.js';
import type { SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { badRequest, notFound } from '../errors.js';
import { plainText } from '../lib/message-html.js';
import { firstPageOneQuery, fromFirstPageOne, paginate } from '../lib/paging.js';
import { answers } from '../lib/route.js';
import { dbId, isDbId, wireTime } from '../lib/sql.js';

const LEAVE_MAX = 1024;

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

const fmtTime = wireTime('create_time');
const fmtMinute = sql<string>`to_char(create_time, 'YYYY-MM-DD HH24:MI')`;

/** `page` is 1-based on these calls (the dashboard asks for page 1); 0 is read as the first page too. */
const pageQuery = z.object(firstPageOneQuery);
const pageOf = fromFirstPageOne;

const idList = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);

const okMessage = z.object({ status: z.literal(200), message: z.string() });

function me(req: { user: SessionUser | null }): SessionUser {
  // The core hook has authenticated every non-public route before the handler runs.
  return req.user!;
}

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  const sysRow = z.object({
    id: z.number(),
    title: z.string(),
    time: z.string(),
    content: z.string(),
    createTime: z.string(),
    haveRead: z.number(),
  });

  app.get(
    '/api/sysMessage/page',
    answers({ session: true }, z.object({ content: z.array(sysRow), totalElements: z.number() }), {
      querystring: pageQuery.extend({ haveRead: z.enum(['0', '1']).optional() }),
    }),
    async (req) => {
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
  );

  app.get('/api/sysMessage/readAll', answers({ session: true }, okMessage), async (req) => {
    await db.updateTable('sys_message').set({ have_read: true }).where('user_id', '=', me(req).id).where('have_read', '=', false).execute();
    return { status: 200 as const, message: '操作成功' };
  });

  app.get(
    '/api/sysMessage/readOne',
    answers({ session: true }, z.object({ status: z.literal(200), message: z.string(), data: sysRow }), {
      querystring: z.object({ id: dbId }),
    }),
    async (req) => {
      const row = await db
        .updateTable('sys_message')
        .set({ have_read: true })
        .where('id', '=', req.query.id)
        .where('user_id', '=', me(req).id)
        .returning(['id', 'title', 'content', fmtMinute.as('time'), fmtTime.as('createTime')])
        .executeTakeFirst();
      if (!row) throw notFound('MESSAGE_NOT_FOUND');
      return { status: 200 as const, message: '操作成功', data: { ...row, haveRead: 1 } };
    },
  );

  app.get(
    '/api/sysMessage/getUnreadNum',
    answers(
      { session: true },
      z.object({ status: z.literal(200), data: z.object({ sysNum: z.number(), leaveNum: z.number(), total: z.number() }) }),
    ),
    async (req) => ({ status: 200 as const, data: await unreadCounts(db, me(req).id) }),
  );

  app.get(
    '/api/sysMessage/deleteMsg',
    answers({ session: true }, okMessage.extend({ data: z.object({ count: z.number() }) }), {
      querystring: z.object({ id: z.string().optional(), ids: z.string().optional() }),
    }),
    async (req) => {
      const ids = [...idList(req.query.id), ...idList(req.query.ids)];
      if (!ids.length) throw badRequest('MESSAGE_REQUIRED');
      if (ids.some((n) => !isDbId(n))) throw badRequest('MESSAGE_ID_INVALID');
      const res = await db.deleteFrom('sys_message').where('id', 'in', ids).where('user_id', '=', me(req).id).executeTakeFirst();
      const count = Number(res.numDeletedRows);
      if (!count) throw notFound('MESSAGE_NOT_FOUND');
      return { status: 200 as const, message: '删除成功', data: { count } };
    },
  );

  app.get(
    '/api/unreadLeaveMessage',
    answers(
      { session: true },
      z.object({
        content: z.array(z.object({ id: z.number(), content: z.string(), createTime: z.string(), senderName: z.string() })),
        totalElements: z.number(),
      }),
      { querystring: pageQuery },
    ),
    async (req) => {
      const base = db.selectFrom('leave_message').where('user_id', '=', me(req).id).where('have_read', '=', false);
      return paginate(
        base,
        (x) =>
          x
            .select(['id', 'content', 'sender_name as senderName', fmtTime.as('createTime')])
            .orderBy('create_time', 'desc')
            .orderBy('id', 'desc'),
        pageOf(req.query),
      );
    },
  );

  /**
   * A leave message to the named account, or without a name to the administrator. Whether the name is an
   * active account does not show: the answer is the same (status, body), and so is the work before it,
   * one statement that finds the account, stores the message for it if there is one, sends the notice
   * with the commit, and takes a transaction id either way, so both commits write and flush alike.
   */
  app.post(
    '/api/leaveMessage',
    answers({ session: true }, okMessage.extend({ data: z.object({ reception: z.string() }) }), {
      body: z.object({ content: z.string().optional().nullable(), reception: z.string().max(100).optional().nullable() }),
    }),
    async (req) => {
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
      // NOTIFY carries under 8000 bytes: a longer notice reaches other instances without its text (they push nothing).
      const remote =
        Buffer.byteLength(text) > 6000 ? sql`json_build_object('t', 'notice', 'username', ${reception}::text, 'text', '')` : undefined;
      const { notify, done } = ctx.bus.inStatement({ t: 'notice', username: reception, text }, remote);
      const sent = await sql<{ stored: number; xact: string }>`
        with recipient as (
          select id from sys_user where username = ${reception} and status = 0 order by id limit 1
        ), stored as (
          insert into leave_message (user_id, sender_id, sender_name, content)
          select id, ${user.id}, ${user.nickName || user.username}, ${content} from recipient
          returning id
        )
        select count(*)::int as stored, ${notify ? sql`max(${notify})` : sql`null`} as notified, pg_current_xact_id()::text as xact
        from stored
      `.execute(db);
      done((sent.rows[0]?.stored ?? 0) > 0);
      return { status: 200 as const, message: '留言成功', data: { reception } };
    },
  );

  app.post(
    '/api/sysMessage',
    answers({ permission: 'sysMessage:add', log: '发送系统消息' }, okMessage.extend({ data: z.object({ count: z.number() }) }), {
      body: z.object({
        title: z.string().max(1000).optional().nullable(),
        content: z.string().max(100_000).optional().nullable(),
        usernames: z.array(z.string().max(100)).max(10_000).optional().nullable(),
      }),
    }),
    async (req) => {
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
        await db
          .insertInto('sys_message')
          .values(users.map((u) => ({ user_id: u.id, title, content })))
          .execute();
      }
      const noticeInfo = plainText(title);
      for (const u of users) {
        ctx.realtime.push(u.username, { sender: 'system', reception: u.username, body: { noticeInfo }, flag: 'sysMessage' });
      }
      return { status: 200 as const, message: '发送成功', data: { count: users.length } };
    },
  );
}
