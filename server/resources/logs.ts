import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import { type LogChange, type LogEntry, logs } from '../../src/contract/logs.js';
import type { App } from '../app.js';
import { currentUser, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { forbidden } from '../errors.js';
import { formatTime } from '../lib/accounts-users.js';
import { namedTable } from '../lib/named-table.js';
import { paginate } from '../lib/paging.js';
import { designedView } from '../lowcode/view-store.js';
import { registerResource } from './register.js';

/** What the audited core tables hold, as the pages name it (a view's table is named by its view). */
const TABLE_TITLES: Readonly<Record<string, string>> = namedTable({
  sys_setting: '系统设置',
  sys_dept: '部门',
  sys_role: '角色',
  sys_menu: '菜单',
  sys_roles_menus: '角色菜单',
  sys_roles_depts: '角色数据权限部门',
  sys_user: '用户',
  sys_users_roles: '用户角色',
  sys_dict: '字典',
  sys_dict_detail: '字典详情',
  company: '企业',
  company_bank: '企业银行信息',
  company_application: '企业入驻申请',
  company_linkman: '企业联系人',
  company_waste_category: '企业危废类别',
  waste_category: '危废类别',
  disposal_process: '处置工艺',
  disposal_order_manual: '手工处置单',
  disposal_testing_application: '处置检测申请',
  materials_code: '物料编码',
  inventory_config: '库存限额',
  dash_target: '年度目标',
  bulletin: '公告',
  privacy_policy: '隐私政策',
  file_record: '文件',
  sys_message: '系统消息',
  leave_message: '留言',
  lc_generation: '视图',
  lc_screen: '大屏',
  lc_data_view: '数据视图',
});

const VIEW_TABLE = /^lc_view_(\d+)$/;

type Row = {
  id: number;
  description: string;
  username: string | null;
  company_id: number | null;
  company_name: string | null;
  request_ip: string | null;
  address: string | null;
  browser: string | null;
  time: number;
  create_time: Date;
  record_table: string | null;
  record_id: string | null;
  action: string | null;
  changes: Record<string, [unknown, unknown]> | null;
  view_title: string | null;
};

/** A time bound of the query as a timestamp; a bare date `to` reaches to the end of that day. */
const bound = (v: string, end: boolean) => (v.length === 10 ? `${v} ${end ? '23:59:59.999' : '00:00:00'}` : v);

/**
 * The operation log and audit trail: each account reads its own entries; an account that manages users
 * reads the entries of the accounts its data scope reaches (全部: every one; a company's: its company's;
 * else its departments' users and its own), filtered by company, user, record and time.
 */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  /** Field labels of a view's table, by column (empty when the view cannot be read). */
  async function viewLabels(viewId: number): Promise<Map<string, string>> {
    try {
      const view = await designedView(ctx, viewId);
      return new Map(view.fields.map((f) => [f.column, f.label]));
    } catch {
      return new Map();
    }
  }

  async function entries(rows: Row[]): Promise<LogEntry[]> {
    const labels = new Map<number, Map<string, string>>();
    for (const r of rows) {
      const m = r.record_table ? VIEW_TABLE.exec(r.record_table) : null;
      const viewId = m ? Number(m[1]) : undefined;
      if (viewId !== undefined && !labels.has(viewId)) labels.set(viewId, await viewLabels(viewId));
    }
    return rows.map((r) => {
      const m = r.record_table ? VIEW_TABLE.exec(r.record_table) : null;
      const fieldLabels = m ? labels.get(Number(m[1])) : undefined;
      const changes: LogChange[] = Object.entries(r.changes ?? {}).map(([field, [before, after]]) => ({
        field,
        label: fieldLabels?.get(field) ?? null,
        before,
        after,
      }));
      return {
        id: Number(r.id),
        description: r.description,
        username: r.username,
        companyId: r.company_id === null ? null : Number(r.company_id),
        companyName: r.company_name,
        requestIp: r.request_ip,
        address: r.address,
        browser: r.browser,
        time: r.time,
        createTime: formatTime(r.create_time),
        record: r.record_table
          ? { table: r.record_table, title: m ? r.view_title : (TABLE_TITLES[r.record_table] ?? null), id: r.record_id }
          : null,
        action: r.action === 'insert' || r.action === 'update' || r.action === 'delete' ? r.action : null,
        changes,
      };
    });
  }

  type Filters = { table?: string | undefined; recordId?: string | undefined; from?: string | undefined; to?: string | undefined };

  /** The page of entries that `where` selects, newest first. */
  async function page(
    where: (eb: ExpressionBuilder<DB, 'sys_log'>) => Expression<SqlBool>,
    f: Filters,
    paging: { page?: number | undefined; size?: number | undefined },
  ) {
    let base = db.selectFrom('sys_log').where(where);
    if (f.table) {
      // A view's table is also found by its view's title.
      const table = f.table;
      base = base.where((eb) =>
        eb.or([
          eb('sys_log.record_table', '=', table),
          eb(
            'sys_log.record_table',
            'in',
            eb.selectFrom('lc_generation').select(sql<string>`'lc_view_' || id`.as('t')).where('name', '=', table),
          ),
        ]),
      );
    }
    if (f.recordId) base = base.where('sys_log.record_id', '=', f.recordId);
    if (f.from) base = base.where('sys_log.create_time', '>=', sql<Date>`cast(${bound(f.from, false)} as timestamp)`);
    if (f.to) base = base.where('sys_log.create_time', '<=', sql<Date>`cast(${bound(f.to, true)} as timestamp)`);
    const { content, totalElements } = await paginate(
      base,
      (q) =>
        q
          .leftJoin('company as c', 'c.id', 'sys_log.company_id')
          .leftJoin('lc_generation as g', (j) => j.on(sql<string>`'lc_view_' || g.id`, '=', sql.ref('sys_log.record_table')))
          .select([
            'sys_log.id',
            'sys_log.description',
            'sys_log.username',
            'sys_log.company_id',
            'c.name as company_name',
            'sys_log.request_ip',
            'sys_log.address',
            'sys_log.browser',
            'sys_log.time',
            'sys_log.create_time',
            'sys_log.record_table',
            'sys_log.record_id',
            'sys_log.action',
            'sys_log.changes',
            'g.name as view_title',
          ])
          .orderBy('sys_log.id', 'desc'),
      paging,
    );
    return { content: await entries(content as Row[]), totalElements };
  }

  /** Whether the user (by id or username) is one the caller's data scope reaches. */
  async function userWithin(me: SessionUser, by: { id?: number | undefined; username?: string | undefined }): Promise<boolean> {
    const s = me.dataScope;
    if (s.all) return true;
    let q = db.selectFrom('sys_user').select(['id', 'username', 'company_id', 'dept_id']);
    if (by.id !== undefined) q = q.where('id', '=', by.id);
    if (by.username !== undefined) q = q.where('username', '=', by.username);
    const u = await q.executeTakeFirst();
    // An unknown user has no entries to show.
    if (!u) return true;
    return (
      (s.companyId !== null && u.company_id === s.companyId) ||
      (u.dept_id !== null && s.depts.includes(u.dept_id)) ||
      u.id === s.self ||
      u.id === me.id
    );
  }

  registerResource(app, logs, {
    mine: async (req) => {
      const me = currentUser(req);
      return page((eb) => eb('sys_log.user_id', '=', me.id), req.query, req.query);
    },
    all: async (req) => {
      const me = currentUser(req);
      const q = req.query;
      const s = me.dataScope;
      if (!s.all && q.companyId !== undefined && q.companyId !== s.companyId) throw forbidden('LOG_OUTSIDE_SCOPE');
      if ((q.userId !== undefined || q.username) && !(await userWithin(me, { id: q.userId, username: q.username || undefined })))
        throw forbidden('LOG_OUTSIDE_SCOPE');
      return page(
        (eb) => {
          const and: Expression<SqlBool>[] = [];
          if (!s.all) {
            const or: Expression<SqlBool>[] = [eb('sys_log.user_id', '=', me.id)];
            if (s.companyId !== null) or.push(eb('sys_log.company_id', '=', s.companyId));
            if (s.depts.length)
              or.push(
                eb('sys_log.user_id', 'in', eb.selectFrom('sys_user').select('sys_user.id').where('sys_user.dept_id', 'in', s.depts)),
              );
            if (s.self !== null) or.push(eb('sys_log.user_id', '=', s.self));
            and.push(eb.or(or));
          }
          if (q.companyId !== undefined) and.push(eb('sys_log.company_id', '=', q.companyId));
          if (q.userId !== undefined) and.push(eb('sys_log.user_id', '=', q.userId));
          if (q.username) and.push(eb('sys_log.username', '=', q.username));
          return eb.and(and);
        },
        q,
        q,
      );
    },
  });
}
