import type { AppContext } from '../context.js';
import type { ViewField } from './view-model.js';

/** Dictionary name → (value → label), in the dictionary's order, for the dictionaries `fields` use. */
export async function dictionaries(ctx: AppContext, fields: ViewField[]): Promise<Map<string, Map<string, string>>> {
  const names = [...new Set(fields.map((f) => f.dict).filter((d): d is string => !!d))];
  const out = new Map<string, Map<string, string>>();
  if (!names.length) return out;
  const rows = await ctx.db
    .selectFrom('sys_dict as d')
    .innerJoin('sys_dict_detail as dd', 'dd.dict_id', 'd.id')
    .select(['d.name', 'dd.value', 'dd.label'])
    .where('d.name', 'in', names)
    .orderBy('dd.sort')
    .orderBy('dd.id')
    .execute();
  for (const r of rows) {
    const labels = out.get(r.name) ?? new Map<string, string>();
    labels.set(r.value, r.label);
    out.set(r.name, labels);
  }
  return out;
}
