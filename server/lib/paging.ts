import { type SelectQueryBuilder, sql } from 'kysely';

/** A page of a list: `{ content, totalElements }`. */
export interface Page<R> {
  content: R[];
  totalElements: number;
}

export {
  DEFAULT_SIZE,
  firstPageOneQuery,
  fromFirstPageOne,
  idParam,
  optionalIdOf,
  optionalIdParam,
  PAGE_MAX,
  pageFields,
  pageNumber,
  pageQuery,
  pageQueryDefaults,
  pageQueryOf,
  pageSize,
  SIZE_MAX,
  sortParam,
} from '../../src/contract/paging.js';

import { DEFAULT_SIZE, PAGE_MAX } from '../../src/contract/paging.js';

/** Rows one page of a list holds at most. */
const ROWS_MAX = 10_000;

const whole = (n: number | undefined, dflt: number, max: number) =>
  n === undefined || !Number.isFinite(n) ? dflt : Math.min(Math.max(Math.trunc(n), 0), max);

/** 0-based page and size → limit and offset; a size is 1 to ROWS_MAX rows, DEFAULT_SIZE when not given. */
export function pageParams(page: number | undefined, size: number | undefined): { limit: number; offset: number } {
  const limit = Math.max(whole(size, DEFAULT_SIZE, ROWS_MAX), 1);
  return { limit, offset: whole(page, 0, PAGE_MAX) * limit };
}

/**
 * One page of a filtered query and the total it pages through. `base` holds the filters; the count
 * runs on it as it is (its selection cleared), and `rows` adds the columns and the order.
 */
export async function paginate<DB, TB extends keyof DB, O, R>(
  base: SelectQueryBuilder<DB, TB, O>,
  rows: (q: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, R>,
  page: { page?: number | undefined; size?: number | undefined },
): Promise<Page<R>> {
  const { limit, offset } = pageParams(page.page, page.size);
  const total = (await base.clearSelect().select(sql<string | number>`count(*)`.as('n')).executeTakeFirstOrThrow()) as {
    n: string | number;
  };
  const content = await rows(base).limit(limit).offset(offset).execute();
  return { content, totalElements: Number(total.n) };
}
