import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import { namedTable } from '../lib/named-table.js';
import { viewTable } from './ddl.js';
import type { ViewModel } from './view-model.js';

/**
 * Server-side button actions (`action: 'groovy'`). The production backend runs a Groovy script per
 * button; the reference server has no script engine, so a button names one of these actions in
 * `configure.groovyAction` instead. Each returns the answer body; a `location` in it makes the page
 * navigate.
 */
type Action = (ctx: AppContext, view: ViewModel, ids: number[]) => Promise<Record<string, unknown>>;

const needIds = (ids: number[]) => {
  if (!ids.length) throw badRequest('NOTHING_SELECTED');
};

export const ACTIONS: Record<string, Action> = namedTable({
  /** Confirms stock-in rows: status becomes 1 (已入库). Answers how many rows changed. */
  async markStocked(ctx, view, ids) {
    needIds(ids);
    if (!view.byName.has('status')) throw badRequest('VIEW_NO_STATUS');
    const res = await sql`update ${sql.table(viewTable(view.id))} set status = '1', update_time = now()
      where id in (${sql.join(ids)}) and status is distinct from '1'`.execute(ctx.db);
    return { status: 200, message: '操作成功', count: Number(res.numAffectedRows ?? 0) };
  },
  /** Opens the disposal-order page pre-filled from the selected stock-in row. */
  async createDisposalOrder(_ctx, _view, ids) {
    needIds(ids);
    return { status: 200, message: '操作成功', location: `/dev-tools/temp/page/disposalOrder/19?stockId=${ids[0]}` };
  },
  /**
   * Opens the inquiry page of the selected stock-in row: its inquiries, and the add form with the row as
   * 来源入库单, so the inquiry counts in that row's warehouse.
   */
  async createDisposalInquiry(_ctx, _view, ids) {
    needIds(ids);
    return { status: 200, message: '操作成功', location: `/dev-tools/temp/page/disposalInquiry/15?stockId=${ids[0]}` };
  },
});

/** Actions that write rows; the list cache of the view must be dropped after them. */
export const WRITING_ACTIONS = new Set(['markStocked']);
