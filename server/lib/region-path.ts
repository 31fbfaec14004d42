import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** A region as the forms send it: its codes, province first, and its labels as the region table names them. */
export interface RegionPath {
  codes: string[];
  /** The labels joined by `/`, as records keep them. */
  fmt: string;
  /** Whether it reaches the lowest level (a district or county). */
  complete: boolean;
}

/**
 * The region of `text` (`code,code,code`), or null when it is no real path down the tree: each code
 * six digits, each the child of the one before, the first a province. Labels are always the table's,
 * never the client's.
 */
export async function regionPath(db: Kysely<DB>, text: string): Promise<RegionPath | null> {
  const codes = text.split(',').map((s) => s.trim());
  if (codes.length > 3 || codes.some((c) => !/^\d{6}$/.test(c))) return null;
  const rows = await db.selectFrom('region').select(['code', 'parent_code', 'name']).where('code', 'in', codes).execute();
  const byCode = new Map(rows.map((r) => [r.code, r]));
  const path = codes.map((c) => byCode.get(c));
  const chained = path.every((r, i) => r && (i === 0 ? r.parent_code === null : r.parent_code === codes[i - 1]));
  if (!chained) return null;
  const deeper = await db.selectFrom('region').select('code').where('parent_code', '=', codes.at(-1)!).limit(1).executeTakeFirst();
  return { codes, fmt: path.map((r) => r!.name).join('/'), complete: !deeper };
}
