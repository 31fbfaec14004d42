import { type Kysely, type RawBuilder, sql } from 'kysely';
import { RECIPIENT_FIELD } from '../access/parties.js';
import type { SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { viewTable } from '../lowcode/ddl.js';
import type { ViewModel } from '../lowcode/view-model.js';
import { businessView } from './business-views.js';
import { WIRE_TIME_FORMAT } from './sql.js';

/**
 * 留言管理's records addressed to a department (its 接收部门, RECIPIENT_FIELD): the department's users
 * are told of one as of a message left for them (the websocket's 您有一条新留言, the badge, 未读留言).
 * The record holds one 是否已读 for the department: it is unread until one of the department's users
 * reads it in 未读留言. Nobody else is told, whatever their data scope: not the author, not another
 * department, not another company's users.
 */

/** 是否已读 (dictionary yesOrNo) holding 是. */
const READ = '1';

/** Who is told: the account's id, its department and its company. */
export type Reader = Pick<SessionUser, 'id' | 'deptId' | 'companyId'>;

/** The view holding department messages and its columns; null when none is designed or it lacks them. */
interface Addressed {
  view: ViewModel;
  table: string;
  dept: string;
  read: string;
  title: string | undefined;
  content: string | undefined;
  signed: string | undefined;
}

const NAME = 'leaveMessage';

async function addressedView(ctx: AppContext): Promise<Addressed | null> {
  const recipient = RECIPIENT_FIELD[NAME];
  let view: ViewModel | null;
  try {
    view = await businessView(ctx, NAME);
  } catch {
    // A definition that cannot be read tells nobody; its page says why.
    return null;
  }
  if (!view || !recipient) return null;
  const v = view;
  const column = (name: string) => {
    const c = v.byName.get(name)?.column;
    return c && v.columns.some((x) => x.name === c) ? c : undefined;
  };
  const dept = column(recipient);
  const read = column('haveRead');
  if (!dept || !read) return null;
  return { view: v, table: viewTable(v.id), dept, read, title: column('title'), content: column('content'), signed: column('contactName') };
}

/** The rows of `t` addressed to the reader's department, but the reader's own; a department of another company than the reader's is none of them. */
function addressedTo(a: Addressed, user: Reader): RawBuilder<unknown> {
  if (user.deptId === null) return sql`false`;
  return sql`t.${sql.ref(a.dept)} = ${user.deptId} and t.create_user is distinct from ${user.id}
    and exists (select 1 from sys_dept d where d.id = ${user.deptId} and (d.company_id is null or d.company_id = ${user.companyId ?? -1}))`;
}

const unread = (a: Addressed) => sql`coalesce(t.${sql.ref(a.read)}::text, '') <> ${READ}`;
const text = (column: string | undefined) => (column ? sql`coalesce(t.${sql.ref(column)}::text, '')` : sql`''`);

/** The columns a department message is answered with, from `t` and its author `u` (of company `c`). */
const rowColumns = (a: Addressed) => sql`t.id::int as id, ${text(a.content)} as content,
  coalesce(nullif(${text(a.signed)}, ''), u.nick_name, u.username, '') as "senderName",
  to_char(t.create_time, ${sql.lit(WIRE_TIME_FORMAT)}) as "createTime", t.create_time as at,
  u.username as "senderUsername", c.name as "senderCompany", ${a.view.id}::int as "viewId", nullif(${text(a.title)}, '') as title`;

/** How many department messages the reader has not read. */
export async function unreadAddressedCount(ctx: AppContext, user: Reader): Promise<number> {
  const a = await addressedView(ctx);
  if (!a || user.deptId === null) return 0;
  const r = await sql<{
    n: number;
  }>`select count(*)::int as n from ${sql.table(a.table)} t where ${addressedTo(a, user)} and ${unread(a)}`.execute(ctx.db);
  return Number(r.rows[0]?.n ?? 0);
}

export interface InboxRow {
  id: number;
  content: string;
  senderName: string;
  createTime: string;
  senderUsername: string | null;
  senderCompany: string | null;
  /** The 留言管理 view of a department message; absent for a message left for the reader. */
  viewId?: number;
  title?: string | null;
}

/** A row as read: both kinds, with the time they sort by. */
type ReadRow = Omit<InboxRow, 'viewId' | 'title'> & { at: unknown; viewId: number | string | null; title: string | null };

/** A row as answered: a message left for the reader has no view and no title. */
function answered({ at: _at, viewId, title, ...row }: ReadRow): InboxRow {
  return viewId === null || viewId === undefined ? row : { ...row, viewId: Number(viewId), title: title ?? null };
}

/** A page of the reader's unread messages, newest first: those left for the reader and its department's. */
export async function unreadInbox(
  ctx: AppContext,
  user: Reader,
  limit: number,
  offset: number,
): Promise<{ content: InboxRow[]; totalElements: number }> {
  const a = await addressedView(ctx);
  const own = sql`select m.id, m.content, m.sender_name as "senderName", to_char(m.create_time, ${sql.lit(WIRE_TIME_FORMAT)}) as "createTime",
      m.create_time as at, u.username as "senderUsername", c.name as "senderCompany", null::int as "viewId", null::text as title
    from leave_message m left join sys_user u on u.id = m.sender_id left join company c on c.id = u.company_id
    where m.user_id = ${user.id} and m.have_read = false`;
  const dept =
    a && user.deptId !== null
      ? sql`union all select ${rowColumns(a)} from ${sql.table(a.table)} t left join sys_user u on u.id = t.create_user
          left join company c on c.id = u.company_id where ${addressedTo(a, user)} and ${unread(a)}`
      : sql``;
  const all = sql`(${own} ${dept})`;
  const [rows, total] = await Promise.all([
    sql<ReadRow>`select * from ${all} x order by x.at desc, x."viewId" nulls first, x.id desc limit ${limit} offset ${offset}`.execute(
      ctx.db,
    ),
    sql<{ n: number }>`select count(*)::int as n from ${all} x`.execute(ctx.db),
  ]);
  return {
    content: rows.rows.map(answered),
    totalElements: Number(total.rows[0]?.n ?? 0),
  };
}

/**
 * Marks a department message read for its department and answers it; undefined when `viewId` is not
 * the view of department messages or the record is not addressed to the reader's department.
 */
export async function readAddressed(
  ctx: AppContext,
  writer: Kysely<DB>,
  user: Reader,
  viewId: number,
  id: number,
): Promise<InboxRow | undefined> {
  const a = await addressedView(ctx);
  if (!a || a.view.id !== viewId || user.deptId === null) return undefined;
  const r = await sql<ReadRow>`
    with t as (
      update ${sql.table(a.table)} t set ${sql.ref(a.read)} = ${READ}, update_time = now()
      where t.id = ${id} and ${addressedTo(a, user)}
      returning t.*
    )
    select ${rowColumns(a)} from t left join sys_user u on u.id = t.create_user left join company c on c.id = u.company_id`.execute(writer);
  const row = r.rows[0];
  return row ? answered(row) : undefined;
}

/**
 * After department messages are added (a form's add, an import) or re-addressed: each active account of
 * an addressed department, but their author, gets the notice a leave message gets, once per department:
 * 您有一条新留言 with the message's title, or 您有N条新留言 for several.
 */
export async function noticeAddressed(
  ctx: AppContext,
  view: ViewModel,
  author: Pick<SessionUser, 'id' | 'username'>,
  ids: readonly number[],
): Promise<void> {
  if (RECIPIENT_FIELD[view.componentName] === undefined || !ids.length) return;
  const a = await addressedView(ctx);
  if (!a || a.view.id !== view.id) return;
  const found = await sql<{ dept: number | string | null; title: string }>`
    select t.${sql.ref(a.dept)}::bigint as dept, ${text(a.title)} as title from ${sql.table(a.table)} t
    where t.id in (${sql.join([...new Set(ids)])}) order by t.id`.execute(ctx.db);
  const byDept = new Map<number, string[]>();
  for (const r of found.rows) {
    const dept = r.dept === null ? null : Number(r.dept);
    if (dept === null || !Number.isSafeInteger(dept)) continue;
    byDept.set(dept, [...(byDept.get(dept) ?? []), r.title]);
  }
  if (!byDept.size) return;
  // The departments' own accounts, in their company (a platform department holds the platform's).
  const users = await ctx.db
    .selectFrom('sys_user as u')
    .innerJoin('sys_dept as d', 'd.id', 'u.dept_id')
    .select(['u.id', 'u.username', 'u.dept_id'])
    .where('u.dept_id', 'in', [...byDept.keys()])
    .where('u.status', '=', 0)
    .where('u.id', '!=', author.id)
    .where((eb) => eb.or([eb('d.company_id', 'is', null), eb('d.company_id', '=', eb.ref('u.company_id'))]))
    .execute();
  for (const u of users) {
    const titles = byDept.get(Number(u.dept_id)) ?? [];
    const body =
      titles.length === 1
        ? { noticeInfo: '您有一条新留言', content: titles[0] ?? '' }
        : { noticeInfo: `您有${titles.length}条新留言`, content: '' };
    ctx.realtime.push(u.id, { sender: author.username, reception: u.username, body, flag: 'leaveMessage' });
  }
}
