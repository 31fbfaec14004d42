/**
 * The query and answer shapes of the dashboards' figures: `isRefresh` asks for a figure computed now,
 * a warehouse narrows one, and each figure answers when it was computed (computedAt).
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

/** The shape of a figure made of numbers only, one per name. */
export const numbers = <K extends string>(...names: K[]) =>
  Object.fromEntries(names.map((n) => [n, z.number()])) as unknown as Record<K, z.ZodNumber>;

/** A figure's answer: its fields and when it was computed. */
export const figureOf = <S extends z.ZodRawShape>(shape: S) => z.object({ ...shape, computedAt: z.string() });
