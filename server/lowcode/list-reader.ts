import type { AppContext } from '../context.js';
import { ListCache } from './list-cache.js';
import type { ListReader } from './list-types.js';
import { MemoryListReader } from './memory-list-reader.js';
import { RowIndexes } from './row-index.js';
import { writeGroupOf } from './row-match.js';
import { SqlListReader } from './sql-list-reader.js';

/**
 * With views' rows in memory a list miss costs little, so the list cache keeps fewer rows: less memory
 * (it keeps each block's pages as JSON text too), less to collect, fewer cached filters for every write
 * to judge.
 */
const CACHED_ROWS_WITH_INDEX = 80_000;

/** How one server reads its lists: the list cache, the views' rows in memory (when held), the reader. */
export interface ListReading {
  cache: ListCache;
  /** The rows of views in memory, kept in step with the cache; none when lists are read from the database. */
  indexes: RowIndexes | undefined;
  reader: ListReader;
}

/**
 * The server's list reading, chosen from its settings: rows in memory (LIST_CACHE and LIST_INDEX on, the
 * default; at most LIST_INDEX_ROWS of them) or the database (either off, or LIST_INDEX_ROWS=0); the list
 * cache (at most LIST_CACHE_ROWS) serves pages before either unless LIST_CACHE=0.
 */
export function chooseListReading(ctx: AppContext): ListReading {
  const trusted = () => ctx.bus.mode !== 'disconnected';
  const { listCache, listIndex, listIndexRows, listCacheRows } = ctx.config;
  const indexes = listCache && listIndex && listIndexRows > 0 ? new RowIndexes(trusted, listIndexRows) : undefined;
  // PGlite runs one statement at a time, so misses and writes take turns; a PostgreSQL pool runs them side by side.
  const cache = new ListCache(
    listCache,
    listCacheRows ?? (indexes ? CACHED_ROWS_WITH_INDEX : undefined),
    trusted,
    ctx.dbKind === 'pglite',
    () => ctx.bus.barrier(),
    indexes,
    writeGroupOf,
  );
  const database = new SqlListReader(ctx, cache);
  return { cache, indexes, reader: indexes ? new MemoryListReader(ctx, cache, indexes, database) : database };
}
