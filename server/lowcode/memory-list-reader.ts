import type { RowScope } from '../access/rows.js';
import type { AppContext } from '../context.js';
import type { ListCache } from './list-cache.js';
import { cachedPage, type PageSource } from './list-pages.js';
import type { ListQuery, ListReader, RowBlock, SortKey } from './list-types.js';
import type { Row } from './record-input.js';
import type { RowIndexes } from './row-index.js';
import { textSortsByBytes } from './row-position.js';
import { indexLoader } from './row-state.js';
import type { ViewIndex } from './view-index.js';
import type { ViewModel } from './view-model.js';

/**
 * Lists read from the views' rows held in memory (see RowIndexes) where they can answer, and from the
 * database where they cannot: a view whose rows are not read yet (the first miss begins reading them),
 * a query the rows cannot tell, an export, a linked select's options.
 */
export class MemoryListReader implements ListReader, PageSource {
  constructor(
    private readonly ctx: AppContext,
    private readonly cache: ListCache,
    private readonly indexes: RowIndexes,
    /** What reads the database. */
    private readonly database: ListReader & PageSource,
  ) {}

  /**
   * The view's rows when they are held for this definition; otherwise undefined, and they are read.
   * Asked again at each miss: a write may have made the index forget them meanwhile.
   */
  #held(view: ViewModel): ViewIndex | undefined {
    return this.indexes.ready(view, indexLoader(this.ctx, view), textSortsByBytes(this.ctx));
  }

  page(view: ViewModel, q: ListQuery): Promise<string> {
    return cachedPage(this.ctx, this.cache, this, view, q);
  }

  holds(view: ViewModel, q: ListQuery): boolean {
    return this.#held(view)?.answers(q) === true;
  }

  needsFence(q: ListQuery): boolean {
    return this.database.needsFence(q);
  }

  async count(view: ViewModel, q: ListQuery): Promise<number> {
    return this.#held(view)?.count(q) ?? this.database.count(view, q);
  }

  async block(view: ViewModel, q: ListQuery, offset: number, limit: number, fence: boolean, after?: SortKey): Promise<RowBlock> {
    return this.#held(view)?.page(q, offset, limit) ?? this.database.block(view, q, offset, limit, fence, after);
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
