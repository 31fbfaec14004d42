/**
 * The query fields of a dashboard figure: whether to recompute it now, and the warehouse a figure of
 * one warehouse narrows to.
 */
import { z } from 'zod';
import { optionalIdParam } from './paging.js';

/** `isRefresh`: 1 recomputes the figure, 0 (or absent) may answer the one computed before. */
export const isRefreshParam = z
  .union([z.literal('0'), z.literal('1'), z.literal(0), z.literal(1), z.literal('true'), z.literal('false')])
  .optional()
  .transform((v) => v === '1' || v === 1 || v === 'true');

/** The query of a figure: only `isRefresh`. */
export const refreshOnly = z.object({ isRefresh: isRefreshParam });

/** The query of a figure one warehouse narrows: the warehouse and whether to recompute now. */
export const warehouseQuery = z.object({ warehouseId: optionalIdParam, isRefresh: isRefreshParam });
