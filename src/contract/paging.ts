/**
 * Paging, once for every list: the query fields a paged call reads and the page it answers. Each
 * resource states its page base (the number of the first page on the wire) in its contract.
 */
import { z } from 'zod';
import { boundedInt, dbId, isDbId } from './fields.js';

/**
 * The one reading of a list's query. `page` is 0-based on the wire (the UI shows page 1 for page=0),
 * `size` is 1 to SIZE_MAX and a page then serves at most ROWS_MAX rows, `sort` is `field,dir` once or
 * repeated, and ids are positive PostgreSQL integers.
 */

/** The highest 0-based page number a list accepts; a page beyond it is a 400, not a database error. */
export const PAGE_MAX = 1_000_000;
/** The largest page size a list accepts; each list then serves at most its own number of rows. */
export const SIZE_MAX = 1_000_000;
/** Rows of a page when the query names no size. */
export const DEFAULT_SIZE = 10;

/** `page` of a list: 0-based, 0 to PAGE_MAX. */
export const pageNumber = boundedInt(0, PAGE_MAX);
/** `size` of a list: 1 to SIZE_MAX (served up to the list's own maximum). */
export const pageSize = boundedInt(1, SIZE_MAX);
/** `sort` of a list: `field,dir`, once or repeated. */
export const sortParam = z.union([z.string(), z.array(z.string())]);

/** A row id: a positive PostgreSQL integer. */
export const idParam = dbId;
/** An optional row id from a query: absent or blank is none, anything else must be a row id. */
export const optionalIdOf = (message: string) =>
  z
    .union([z.string(), z.number()])
    .optional()
    .transform((v, c) => {
      if (v === undefined || v === '') return undefined;
      const n = Number(v);
      if (!isDbId(n)) {
        c.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return n;
    });
export const optionalIdParam = optionalIdOf('编号不正确');

/** The page and size of a list's query, each optional. */
export const pageFields = {
  page: pageNumber.optional(),
  size: pageSize.optional(),
};
/** The page, size and sort of a list's query, each optional. */
export const pageQuery = { ...pageFields, sort: sortParam.optional() };

/** The paging fields with the first page and DEFAULT_SIZE filled in. */
export const pageQueryDefaults = {
  page: pageNumber.default(0),
  size: pageSize.default(DEFAULT_SIZE),
};

/**
 * The paging fields of the message calls, whose wire page counts from 1 (the dashboard asks for page 1;
 * 0 reads as the first page too). `fromFirstPageOne` turns them into the 0-based page of every list.
 */
export const firstPageOneQuery = {
  page: pageNumber.default(1),
  size: pageSize.default(DEFAULT_SIZE),
};
export const fromFirstPageOne = (q: { page: number; size: number }) => ({ page: Math.max(q.page, 1) - 1, size: q.size });

/** The paging fields of a resource whose first page is `base` (0 for lists, 1 for the message calls). */
export const pageQueryOf = (base: 0 | 1) => (base === 0 ? pageQuery : firstPageOneQuery);
