/**
 * Messages: each account's system messages and leave messages (read, mark read, delete, count the
 * unread), leaving a message for an account, and sending a system message. The first page is 1.
 */
import { z } from 'zod';
import { call, resource } from './define.js';
import { dbId, pageOf } from './fields.js';
import { firstPageOneQuery } from './paging.js';

/** `page` is 1-based on these calls (the dashboard asks for page 1); 0 is read as the first page too. */
const pageQuery = z.object(firstPageOneQuery);

const okMessage = z.object({ status: z.literal(200), message: z.string() });

/** A system message as its recipient reads it. */
export const sysMessageRow = z.object({
  id: z.number(),
  title: z.string(),
  time: z.string(),
  content: z.string(),
  createTime: z.string(),
  haveRead: z.number(),
});

/**
 * A leave message: the name it was signed with, and the sending account's username and company (null once
 * gone, or without one). A 留言管理 record addressed to the reader's department names its view (`viewId`)
 * and its 留言标题; a message left for the reader has neither.
 */
export const leaveMessageRow = z.object({
  id: z.number(),
  content: z.string(),
  createTime: z.string(),
  senderName: z.string(),
  senderUsername: z.string().nullable(),
  senderCompany: z.string().nullable(),
  viewId: z.number().nullable().optional(),
  title: z.string().nullable().optional(),
});

export const messages = resource(
  'messages',
  '消息',
  {
    sysPage: call('GET', '/api/sysMessage/page', '系统消息列表（未读在前）', 'session', {
      query: pageQuery.extend({ haveRead: z.enum(['0', '1']).optional() }),
      answer: pageOf(sysMessageRow),
      errors: [],
      example: { query: { page: 1, size: 5 } },
    }),
    sysReadAll: call('GET', '/api/sysMessage/readAll', '系统消息全部已读', 'session', {
      answer: okMessage,
      errors: [],
    }),
    sysReadOne: call('GET', '/api/sysMessage/readOne', '阅读一条系统消息', 'session', {
      query: z.object({ id: dbId }),
      answer: okMessage.extend({ data: sysMessageRow }),
      errors: ['MESSAGE_NOT_FOUND'],
      example: { query: { id: 2147483000 }, refuses: 'MESSAGE_NOT_FOUND' },
    }),
    unreadNum: call('GET', '/api/sysMessage/getUnreadNum', '未读的系统消息与留言数（留言含发给本部门的）', 'session', {
      answer: z.object({ status: z.literal(200), data: z.object({ sysNum: z.number(), leaveNum: z.number(), total: z.number() }) }),
      errors: [],
    }),
    sysDelete: call('GET', '/api/sysMessage/deleteMsg', '删除系统消息（id 或 ids，逗号分隔）', 'session', {
      query: z.object({ id: z.string().optional(), ids: z.string().optional() }),
      answer: okMessage.extend({ data: z.object({ count: z.number() }) }),
      errors: ['MESSAGE_REQUIRED', 'MESSAGE_ID_INVALID', 'MESSAGE_NOT_FOUND'],
      example: { refuses: 'MESSAGE_REQUIRED' },
    }),
    sysSend: call('POST', '/api/sysMessage', '发送系统消息（不指定接收人则发给所有账号）', 'sysMessage:add', {
      log: '发送系统消息',
      // Every company's accounts receive it: the platform's own message, not a company's.
      platform: true,
      body: z.object({
        title: z.string().max(1000).optional().nullable(),
        content: z.string().max(100_000).optional().nullable(),
        usernames: z.array(z.string().max(100)).max(10_000).optional().nullable(),
      }),
      answer: okMessage.extend({ data: z.object({ count: z.number() }) }),
      errors: ['MESSAGE_TITLE_REQUIRED', 'MESSAGE_CONTENT_REQUIRED', 'RECEIVER_REQUIRED', 'USERS_NOT_FOUND'],
    }),
    leaveUnread: call('GET', '/api/unreadLeaveMessage', '未读留言列表（留给本人的与发给本部门的）', 'session', {
      query: pageQuery,
      answer: pageOf(leaveMessageRow),
      errors: [],
      example: { query: { page: 1, size: 3 } },
    }),
    leaveReadOne: call('GET', '/api/leaveMessage/readOne', '阅读一条留言（部门留言带 viewId，为本部门标记已读）', 'session', {
      query: z.object({ id: dbId, viewId: dbId.optional() }),
      answer: okMessage.extend({ data: leaveMessageRow }),
      errors: ['LEAVE_MESSAGE_NOT_FOUND'],
      example: { query: { id: 2147483000 }, refuses: 'LEAVE_MESSAGE_NOT_FOUND' },
    }),
    leave: call('POST', '/api/leaveMessage', '留言（不指定接收人则留给管理员）', 'session', {
      body: z.object({ content: z.string().optional().nullable(), reception: z.string().max(100).optional().nullable() }),
      answer: okMessage.extend({ data: z.object({ reception: z.string() }) }),
      errors: ['LEAVE_MESSAGE_REQUIRED', 'LEAVE_MESSAGE_TOO_LONG', 'RECEIVER_NOT_FOUND'],
    }),
  },
  { pageBase: 1 },
);
