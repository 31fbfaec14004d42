import { sql } from 'kysely';

/** Escapes LIKE wildcards so user text matches literally. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** ILIKE pattern for "contains this text". */
export const containing = (s: string) => `%${escapeLike(s)}%`;

/** Times on the wire are `YYYY-MM-DD HH:mm:ss`, formatted by the database. */
export const WIRE_TIME_FORMAT = 'YYYY-MM-DD HH24:MI:SS';
export const wireTime = (column: string) => sql<string>`to_char(${sql.ref(column)}, ${sql.lit(WIRE_TIME_FORMAT)})`;

export {
  boundedInt,
  dbId,
  INT4_MAX,
  isDbId,
  nullableText,
  pageOf,
  wireTimeText,
} from '../../src/contract/fields.js';
