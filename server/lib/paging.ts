import { type SelectQueryBuilder, sql } from 'kysely';

/** A page of a list: `{ content, totalElements }`. */
export interface Page<R> {
  content: R[];
  totalElements: number;
}

/** 0-based page and size → limit and offset; a size is 1 to 10,000 rows, 10 when not given. */
export function pageParams(page: number | undefined, size: number | undefined): { limit: number; offset: number } {
  const limit = Math.min(Math.max(size ?? 10, 1), 10000);
  return { limit, offset: Math.max(page ?? 0, 0) * limit };
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
