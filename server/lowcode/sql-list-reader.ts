import { sql } from 'kysely';
import type { RowScope } from '../access/rows.js';
import type { AppContext } from '../context.js';
import { viewTable } from './ddl.js';
import type { ListCache } from './list-cache.js';
import { cachedPage, type PageSource } from './list-pages.js';
import {
  afterKey,
  countQuery,
  EXACT_COUNT_MAX,
  estimatedCount,
  estimateQuery,
  needsFence,
  plannedRows,
  rowsJsonQuery,
  rowsQuery,
  selectList,
} from './list-sql.js';
import type { ListQuery, ListReader, RowBlock, SortKey } from './list-types.js';
import type { Row } from './record-input.js';
import { SORT_KEY, sortKeyColumn } from './row-position.js';
import { findRecord } from './rows.js';
import type { ViewModel } from './view-model.js';

/** Lists read from the database: every miss of the list cache is a statement. */
export class SqlListReader implements ListReader, PageSource {
  constructor(
    private readonly ctx: AppContext,
    private readonly cache: ListCache,
  ) {}

  page(view: ViewModel, q: ListQuery): Promise<string> {
    return cachedPage(this.ctx, this.cache, this, view, q);
  }

  holds(): boolean {
    return false;
  }

  needsFence(q: ListQuery): boolean {
    return needsFence(q);
  }

  /** Exact up to EXACT_COUNT_MAX rows; above, the planner's estimate (see estimatedCount). */
  async count(view: ViewModel, q: ListQuery): Promise<number> {
    const n = Number((await countQuery(view, q).execute(this.ctx.db)).rows[0]?.n ?? 0);
    if (n <= EXACT_COUNT_MAX) return n;
    const plan = (await estimateQuery(view, q).execute(this.ctx.db)).rows[0]?.['QUERY PLAN'];
    return estimatedCount(plannedRows(plan) ?? n);
  }

  async block(view: ViewModel, q: ListQuery, offset: number, limit: number, fence: boolean, after?: SortKey): Promise<RowBlock> {
    // Each row also carries its sort key: a later write tells by them where its row goes in the block.
    const columns = sql`${selectList(view)}, ${sortKeyColumn(view, q)}`;
    // Read onwards from the row before the block when its key is known (keyset); a fenced read sorts its few rows anyway.
    const keyset = after && !fence ? afterKey(view, q, after) : undefined;
    const query = keyset ? rowsJsonQuery(view, q, limit, 0, columns, false, keyset) : rowsJsonQuery(view, q, limit, offset, columns, fence);
    const json = (await query.execute(this.ctx.db)).rows[0]?.rows ?? [];
    const keyed = (typeof json === 'string' ? JSON.parse(json) : json) as Row[];
    const keys = keyed.map((r) => r[SORT_KEY] as SortKey);
    // A copy without the key, not `delete`: that leaves objects slow to read and to serialise.
    const rows = keyed.map(({ [SORT_KEY]: _, ...row }) => row);
    return { rows, keys, toEnd: keyed.length < limit };
  }

  async rows(view: ViewModel, q: ListQuery, limit: number): Promise<Row[]> {
    return (await rowsQuery<Row>(view, q, limit).execute(this.ctx.db)).rows;
  }

  async options(view: ViewModel, q: ListQuery, label: string): Promise<{ label: string | null; value: number }[]> {
    const columns = sql`t.${sql.ref(label)} as label, t.id as value`;
    return (await rowsQuery<{ label: string | null; value: number }>(view, q, q.size, 0, columns).execute(this.ctx.db)).rows;
  }

  async records(view: ViewModel, ids: readonly number[]): Promise<Row[]> {
    const res = await sql<Row>`select ${selectList(view)} from ${sql.table(viewTable(view.id))} as t
        where t.id in (${sql.join(ids)})`.execute(this.ctx.db);
    return res.rows;
  }

  record(view: ViewModel, id: number, scope: RowScope | undefined): Promise<Row | undefined> {
    return findRecord(this.ctx.db, view, id, scope);
  }
}
