import { sql } from 'kysely';
import type { RowScope } from '../access/rows.js';
import type { AppContext } from '../context.js';
import { viewTable } from './ddl.js';
import type { ListCache } from './list-cache.js';
import { cachedPage, type PageSource } from './list-pages.js';
import { selectList } from './list-sql.js';
import type { ListQuery, ListReader, RowBlock, SortKey } from './list-types.js';
import type { Row } from './record-input.js';
import type { RowIndexes, RowSource } from './row-index.js';
import { textSortsByBytes } from './row-position.js';
import { indexed, type RowState, rowState } from './row-state.js';
import type { ViewIndex } from './view-index.js';
import type { ViewModel } from './view-model.js';

/**
 * A view's table as the row index reads it: its size first (the planner's estimate, or a count that
 * stops one row past what the index may hold), then its rows (a scope's only, by the scope's condition)
 * in chunks in id order, each row's state as record writes read it (see rowState).
 */
export function rowSource(ctx: AppContext, view: ViewModel): RowSource {
  const table = viewTable(view.id);
  const where = (scope: RowScope | undefined) => (scope ? sql`(${scope.condition})` : sql`true`);
  return {
    async estimate() {
      // reltuples scaled to the pages the table has now, as the planner scales it; none before the first analyze.
      const r = await sql<{ n: number | string | null }>`
        select (c.reltuples / c.relpages * (pg_relation_size(c.oid) / current_setting('block_size')::float8))::float8 as n
        from pg_class c where c.oid = to_regclass(${table}) and c.relpages > 0 and c.reltuples >= 0`.execute(ctx.db);
      const n = r.rows[0]?.n;
      return n === undefined || n === null ? undefined : Math.round(Number(n));
    },
    async count(scope, atMost) {
      const r = await sql<{ n: number | string }>`select count(*)::int as n from (
        select 1 from ${sql.table(table)} as t where ${where(scope)} limit ${Math.max(0, Math.floor(atMost)) + 1}) x`.execute(ctx.db);
      return Number(r.rows[0]?.n ?? 0);
    },
    async load(scope, afterId, limit) {
      const r = await sql<{ rows: unknown }>`select coalesce(json_agg(x), '[]') as rows from (
        select ${rowState(view, [])}, ${selectList(view)} from ${sql.table(table)} as t
        where t.id > ${afterId} and ${where(scope)} order by t.id limit ${limit}) x`.execute(ctx.db);
      const json = r.rows[0]?.rows ?? [];
      return ((typeof json === 'string' ? JSON.parse(json) : json) as RowState[]).map(indexed);
    },
  };
}

/**
 * Lists read from the views' rows held in memory (see RowIndexes) where they can answer, and from the
 * database where they cannot: a view or scope whose rows are not held (not asked for often enough yet,
 * being read, or too large to hold), a query the rows cannot tell, an export, a linked select's options.
 */
export class MemoryListReader implements ListReader, PageSource {
  readonly #sources = new WeakMap<ViewModel, RowSource>();

  constructor(
    private readonly ctx: AppContext,
    private readonly cache: ListCache,
    private readonly indexes: RowIndexes,
    /** What reads the database. */
    private readonly database: ListReader & PageSource,
  ) {}

  /**
   * The rows that answer the query when they are held for this definition of the view (the view's, or its
   * scope's); otherwise undefined. `ask`: the list call's first question (see PageSource.holds), which counts
   * towards reading them. Asked again at each miss: a write may have made the index forget them meanwhile.
   */
  #held(view: ViewModel, q: ListQuery, ask = false): ViewIndex | undefined {
    let source = this.#sources.get(view);
    if (!source) {
      source = rowSource(this.ctx, view);
      this.#sources.set(view, source);
    }
    return this.indexes.ready(view, source, textSortsByBytes(this.ctx), q.scope, ask);
  }

  page(view: ViewModel, q: ListQuery): Promise<string> {
    return cachedPage(this.ctx, this.cache, this, view, q);
  }

  holds(view: ViewModel, q: ListQuery): boolean {
    return this.#held(view, q, true)?.answers(q) === true;
  }

  needsFence(q: ListQuery): boolean {
    return this.database.needsFence(q);
  }

  async count(view: ViewModel, q: ListQuery): Promise<number> {
    return this.#held(view, q)?.count(q) ?? this.database.count(view, q);
  }

  async block(view: ViewModel, q: ListQuery, offset: number, limit: number, fence: boolean, after?: SortKey): Promise<RowBlock> {
    return this.#held(view, q)?.page(q, offset, limit) ?? this.database.block(view, q, offset, limit, fence, after);
  }

  rows(view: ViewModel, q: ListQuery, limit: number): Promise<Row[]> {
    return this.database.rows(view, q, limit);
  }

  options(view: ViewModel, q: ListQuery, label: string): Promise<{ label: string | null; value: number }[]> {
    return this.database.options(view, q, label);
  }

  records(view: ViewModel, ids: readonly number[]): Promise<Row[]> {
    return this.database.records(view, ids);
  }

  /** The rows in memory tell, when they can, without a statement (no read of them is begun). */
  async record(view: ViewModel, id: number, scope: RowScope | undefined): Promise<Row | undefined> {
    const held = this.indexes.record(view, id, scope);
    return held === undefined ? this.database.record(view, id, scope) : (held ?? undefined);
  }
}
