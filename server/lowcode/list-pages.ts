import type { AppContext } from '../context.js';
import { LoopShare } from '../lib/loop-share.js';
import type { ListCache } from './list-cache.js';
import { countValue, EXACT_COUNT_MAX, fencedForTimeOnly, searchesText } from './list-sql.js';
import type { ListQuery, RowBlock, SortKey } from './list-types.js';
import type { ViewModel } from './view-model.js';

/**
 * A list's pages through the list cache, whichever ListReader reads what the cache misses: counts, and
 * rows in blocks of pages (see cachedPage), which record writes move on (see ListCache.write).
 */

/**
 * Rows a cached block also holds on either side of its own: a write that shifts the block by rows before
 * it (a new first row of the list, a row that left or joined the filter above it) or takes rows out of it
 * moves it along them instead of dropping it, as long as the margin lasts.
 */
export const BLOCK_MARGIN = 10;

/**
 * A block of list rows as the cache holds it: the `size` rows from offset `start` (fewer at the end of the
 * list), in `order`, with `lead` rows before them and up to BLOCK_MARGIN after them (`toEnd`: its rows run
 * to the end of the list).
 */
export interface CachedBlock extends RowBlock {
  order: ListQuery['sort'];
  /** The order and size of the blocks it is read with (blocks of one filter with the same `group` join up). */
  group: string;
  start: number;
  size: number;
  lead: number;
}

/** What a list's misses are read from: the database, or the rows in memory with the database behind them. */
export interface PageSource {
  /** Whether the query's rows are read now without a statement (a block then costs about what a page costs). */
  holds(view: ViewModel, q: ListQuery): boolean;
  /**
   * Whether a block of the query's rows is read more cheaply by counting them first and, when they are few,
   * sorting them (see needsFence): the database's plan, when the rows are not held.
   */
  needsFence(q: ListQuery): boolean;
  count(view: ViewModel, q: ListQuery): Promise<number>;
  /**
   * The query's rows from `offset`, at most `limit`; `fence`: found first, then sorted (few rows);
   * `after`: the sort key of the row at `offset - 1`, when known, to read onwards from it.
   */
  block(view: ViewModel, q: ListQuery, offset: number, limit: number, fence: boolean, after?: SortKey): Promise<RowBlock>;
}

const BLOCK_ROWS = 100;
/** Most rows a filter may select for a block of its rows to be read by sorting them (see needsFence). */
const FENCE_ROWS = 10_000;
/**
 * Most rows a time range may select to be read by sorting them. Gathering and sorting a month of a
 * million-row table (43,000 ids and keys) takes about 80 ms; a walk along another order that meets the
 * range only near its end reads most of the table (0.5–0.7 s), and the planner cannot tell which.
 */
const RANGE_FENCE_ROWS = 50_000;
/** Most rows a filter read by sorting them may select for its pages to be read one by one. */
const FEW_ROWS = 1000;

/** Most rows the query may select to be read fenced, once needsFence says it walks an order it does not filter by. */
export function fenceRows(q: ListQuery): number {
  // A text search is read fenced however many rows it finds (see searchesText).
  if (searchesText(q)) return Number.POSITIVE_INFINITY;
  return fencedForTimeOnly(q) ? RANGE_FENCE_ROWS : FENCE_ROWS;
}

/**
 * List calls served per turn of the event loop on PostgreSQL (see LoopShare): between turns the instance
 * reads the database's answers, so a write is not held up behind every list call that arrived with it.
 * Measured with the mixed bench on PostgreSQL, runs interleaved: 4 brings a write's p95 below a list
 * call's (100,000 rows: 28–33 ms against 35–45 with 8; 1,000,000 rows, rows not in memory: 36–50 against
 * 51–60) with list calls as before; 2 cuts writes further but lists lose; 16 and more leave writes half as
 * long again as lists.
 */
const LISTS = new LoopShare(4);

/**
 * The sort key of the row at `offset - 1` of the list, when the cached block before (same filter, order
 * and block size, starting at `start`) holds it: the user is paging forward, and the next block is read
 * onwards from that row rather than by skipping `offset` rows.
 */
function keyBefore(cache: ListCache, view: ViewModel, group: string, start: number, offset: number): SortKey | undefined {
  if (start < 0) return undefined;
  const before = cache.peek<CachedBlock>(view.id, `b${group}|${start}`);
  if (!before || before.start !== start || before.group !== group) return undefined;
  const at = offset - 1 - (before.start - before.lead);
  return at >= 0 && at < before.keys.length ? before.keys[at] : undefined;
}

/**
 * An estimate that writes moved to within what a count tells exactly is counted again: the rows
 * may now be few enough for an exact count, which the list then shows without 约.
 */
const estimateTooLow = (held: number): boolean => {
  const c = countValue(held);
  return c.estimated && c.n <= EXACT_COUNT_MAX;
};

/** The JSON text of pages of a cached block, by first row and page size. */
const pageJson = new WeakMap<CachedBlock, Map<string, string>>();

/**
 * One page of the list, as the JSON text of `{ content, totalElements, totalEstimated? }`. With the cache on, rows are read
 * a block of pages at a time (BLOCK_ROWS rows): on PGlite a page query's cost is mostly its fixed part, so
 * ten pages cost little more than one, and the next pages of a filter are then served without a query.
 * Pages of cached blocks are serialised once.
 */
export async function cachedPage(ctx: AppContext, cache: ListCache, source: PageSource, view: ViewModel, q: ListQuery): Promise<string> {
  // PGlite answers on this thread: there is no answer from outside to let in between.
  if (ctx.dbKind === 'postgres') await LISTS.take();
  const filter = { key: q.countKey, filter: q };
  const wholeSize = Math.max(1, Math.floor(BLOCK_ROWS / q.size)) * q.size;
  const wholeStart = Math.floor((q.page * q.size) / wholeSize) * wholeSize;
  // A block of pages cached for the call is served as it is (most calls): the source is asked only on a miss.
  const indexed = cache.has(view.id, `b${q.orderKey}|${wholeSize}|${wholeStart}`) || source.holds(view, q);
  const count = (known?: number) =>
    cache.through(view.id, `c${q.countKey}`, { filter, count: true, recount: estimateTooLow }, async () => {
      if (known !== undefined) return known;
      return source.count(view, q);
    });
  // A filter no index serves in order is counted first: when it selects few rows, they are sorted.
  const counted = !indexed && source.needsFence(q) ? await count() : undefined;
  const fence = counted !== undefined && counted <= fenceRows(q);
  // Few rows are found at once and sorted cheaply; formatting them is what costs: one page is read.
  let whole = cache.enabled && !(fence && counted <= FEW_ROWS);
  // A filter in an order asked for the first time reads its page alone: most such lists (a search, a
  // rare filter, one company's deep page) are never asked for again, and a page costs less than half a
  // block. The next page asked of it reads a block, unless it is that same page. Rows in memory read a
  // block for about what a page costs.
  if (whole && !indexed && (!cache.sighted(view.id, q.orderKey) || cache.has(view.id, `b${q.orderKey}|${q.size}|${q.page * q.size}`)))
    whole = false;
  const blockSize = whole ? wholeSize : q.size;
  // Page sizes that divide BLOCK_ROWS read the same blocks.
  const blockStart = Math.floor((q.page * q.size) / blockSize) * blockSize;
  const weight = (b: unknown) => (b as CachedBlock).rows.length;
  const group = `${q.orderKey}|${blockSize}`;
  const blockKey = `b${group}|${blockStart}`;
  const block = await cache.through(view.id, blockKey, { filter, weight }, async (): Promise<CachedBlock> => {
    // With the cache, a margin of rows on either side (see BLOCK_MARGIN).
    const margin = whole ? BLOCK_MARGIN : 0;
    const offset = Math.max(0, blockStart - margin);
    const limit = blockStart - offset + blockSize + margin;
    const shape = { order: q.sort, group, start: blockStart, size: blockSize, lead: blockStart - offset };
    const read = await source.block(
      view,
      q,
      offset,
      limit,
      fence,
      offset > 0 ? keyBefore(cache, view, group, blockStart - blockSize, offset) : undefined,
    );
    return { rows: read.rows, keys: read.keys, toEnd: read.toEnd, ...shape };
  });
  const from = block.lead + q.page * q.size - blockStart;
  // A block that reaches the end of the list, and starts in it, tells the count without counting.
  const first = block.start - block.lead;
  const known = block.toEnd && (block.rows.length > 0 || first === 0) ? first + block.rows.length : undefined;
  // The count a block tells is kept only while that block is the one cached: its read began before the
  // count's lookup, so writes since then (which dropped or replaced the block) would not be judged
  // against it. Otherwise it is served with its block, and not kept.
  const fresh = known === undefined || cache.peek(view.id, blockKey) === block;
  const totalElements = counted ?? (fresh ? await count(known) : (known as number));
  // A block is never changed, only replaced: the JSON of its pages is kept with it.
  let pages = pageJson.get(block);
  if (!pages) {
    pages = new Map();
    pageJson.set(block, pages);
  }
  const at = `${from},${q.size}`;
  let content = pages.get(at);
  if (content === undefined) {
    content = JSON.stringify(block.rows.slice(from, from + q.size));
    pages.set(at, content);
  }
  // An estimated count (more rows than a count tells exactly) says so: the app shows it as 约 N 条.
  // A block that reaches the end tells the exact count, whatever the estimate said.
  const total = known !== undefined && countValue(totalElements).estimated ? countValue(known) : countValue(totalElements);
  return `{"content":${content},"totalElements":${total.n}${total.estimated ? ',"totalEstimated":true' : ''}}`;
}
