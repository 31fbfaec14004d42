import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** value → label of one dictionary (empty when it does not exist). */
export async function dictLabels(db: Kysely<DB>, dictName: string): Promise<Map<string, string>> {
  return (await dictLabelsOf(db, [dictName])).get(dictName) ?? new Map();
}

/** value → label of several dictionaries in one query, by dictionary name. */
export async function dictLabelsOf(db: Kysely<DB>, dictNames: string[]): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>(dictNames.map((n) => [n, new Map()]));
  if (!dictNames.length) return out;
  const rows = await db
    .selectFrom('sys_dict_detail as d')
    .innerJoin('sys_dict as t', 't.id', 'd.dict_id')
    .select(['t.name', 'd.value', 'd.label'])
    .where('t.name', 'in', dictNames)
    .execute();
  for (const r of rows) out.get(r.name)?.set(r.value, r.label);
  return out;
}
