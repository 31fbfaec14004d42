import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** value → label of one dictionary (empty when it does not exist). */
export async function dictLabels(db: Kysely<DB>, dictName: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('sys_dict_detail as d')
    .innerJoin('sys_dict as t', 't.id', 'd.dict_id')
    .select(['d.value', 'd.label'])
    .where('t.name', '=', dictName)
    .execute();
  return new Map(rows.map((r) => [r.value, r.label]));
}
