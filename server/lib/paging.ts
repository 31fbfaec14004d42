import { type SelectQueryBuilder, sql } from 'kysely';
import { boundedInt } from './sql.js';

/** A page of a list: `{ content, totalElements }`. */
export interface Page<R> {
  content: R[];
  totalElements: number;
}

/** The highest 0-based page number a list accepts; a page beyond it is a 400, not a database error. */
export const PAGE_MAX = 1_000_000;
/** The largest page size a list accepts; each list then serves at most its own number of rows. */
export const SIZE_MAX = 1_000_000;
/** Rows one page of an administration list holds at most. */
const ROWS_MAX = 10_000;

/** `page` of a list: 0-based, 0 to PAGE_MAX. */
export const pageNumber = boundedInt(0, PAGE_MAX);
/** `size` of a list: 1 to SIZE_MAX (served up to the list's own maximum). */
export const pageSize = boundedInt(1, SIZE_MAX);

const whole = (n: number | undefined, dflt: number, max: number) =>
  n === undefined || !Number.isFinite(n) ? dflt : Math.min(Math.max(Math.trunc(n), 0), max);

/** 0-based page and size → limit and offset; a size is 1 to 10,000 rows, 10 when not given. */
export function pageParams(page: number | undefined, size: number | undefined): { limit: number; offset: number } {
  const limit = Math.max(whole(size, 10, ROWS_MAX), 1);
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
