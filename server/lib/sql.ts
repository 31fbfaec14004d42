import { sql } from 'kysely';
import { z } from 'zod';
import { normalizeDateTime } from '../../src/model/index.js';

/** Escapes LIKE wildcards so user text matches literally. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** ILIKE pattern for "contains this text". */
export const containing = (s: string) => `%${escapeLike(s)}%`;

/** Times on the wire are `YYYY-MM-DD HH:mm:ss`, formatted by the database. */
export const WIRE_TIME_FORMAT = 'YYYY-MM-DD HH24:MI:SS';
export const wireTime = (column: string) => sql<string>`to_char(${sql.ref(column)}, ${sql.lit(WIRE_TIME_FORMAT)})`;

/** Response schema of a page: `{ content, totalElements }`. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ content: z.array(item), totalElements: z.number() });

/**
 * Fields of an answer's row given as text or null, one per name; spread into the row's z.object where they
 * stand, so the answer keeps its field order.
 */
export const nullableText = <K extends string>(...names: K[]) =>
  Object.fromEntries(names.map((n) => [n, z.string().nullable()])) as Record<K, z.ZodNullable<z.ZodString>>;

/** The largest PostgreSQL integer (int4): every id column and every count a client sends fits it. */
export const INT4_MAX = 2_147_483_647;

/**
 * A whole number from the query, a form or JSON, between `min` and `max`; what falls outside is a 400
 * with the bound, never a database error. The bound is checked first so a 20-digit number says so.
 */
export const boundedInt = (min: number, max: number) =>
  z.coerce
    .number({ error: '必须是数字' })
    .max(max, { error: `不能大于 ${max}` })
    .min(min, { error: `不能小于 ${min}` })
    .int({ error: '必须是整数' });

/** A row id: a positive PostgreSQL integer. */
export const dbId = boundedInt(1, INT4_MAX);

/** Whether a number read by hand (not by a schema) is a row id the database can look up. */
export const isDbId = (n: number) => Number.isInteger(n) && n >= 1 && n <= INT4_MAX;

/**
 * A `YYYY-MM-DD HH:mm:ss` time from a client that exists on the calendar: the shape alone lets
 * `9999-99-99 99:99:99` through, which the database refuses.
 */
export const wireTimeText = (message: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, message)
    .refine((s) => normalizeDateTime(s) !== null, message);
