import type { AppContext } from '../context.js';

/**
 * Administrative regions by name, as files write them: a region is written as the names of its path
 * from the province down, joined by '/' (江苏省/苏州市/虎丘区), as the form's cascader labels it.
 */
export interface RegionNames {
  /** The codes from the province down to `code`; empty for a code that is no region. */
  pathOf(code: string): string[];
  /** The names of the path of `codes`' last region, joined by '/'; undefined for an unknown code. */
  labelOf(code: string): string | undefined;
  /**
   * The codes from the province down to the region `text` names: codes as stored (`320000,320500`), a
   * path of names (`江苏省/苏州市/虎丘区`, from the top, any depth) or one name found once. A name
   * several regions have, without the path that tells them apart, is ambiguous.
   */
  read(text: string): string[] | 'unknown' | 'ambiguous';
}

const CODES = /^\d{2,12}(\s*,\s*\d{2,12})*$/;
const NAME_SEPARATOR = /[/／]/;

/** The region table read once (a few thousand rows for a whole country). */
export async function regionNames(ctx: AppContext): Promise<RegionNames> {
  const rows = await ctx.db.selectFrom('region').select(['code', 'name', 'parent_code']).execute();
  const byCode = new Map(rows.map((r) => [r.code, r]));
  const named = new Map<string, string[]>();
  const under = new Map<string, Map<string, string[]>>();
  for (const r of rows) {
    named.set(r.name, [...(named.get(r.name) ?? []), r.code]);
    const parent = r.parent_code ?? '';
    const children = under.get(parent) ?? new Map<string, string[]>();
    children.set(r.name, [...(children.get(r.name) ?? []), r.code]);
    under.set(parent, children);
  }
  const pathOf = (code: string): string[] => {
    const out: string[] = [];
    for (let at = byCode.get(code); at && out.length < 8; at = at.parent_code ? byCode.get(at.parent_code) : undefined)
      out.unshift(at.code);
    return out;
  };
  return {
    pathOf,
    labelOf: (code) => {
      const path = pathOf(code.trim());
      return path.length ? path.map((c) => byCode.get(c)?.name).join('/') : undefined;
    },
    read: (text) => {
      const t = text.trim();
      if (CODES.test(t)) {
        const codes = t.split(',').map((c) => c.trim());
        return codes.every((c) => byCode.has(c)) ? codes : 'unknown';
      }
      const names = t
        .split(NAME_SEPARATOR)
        .map((n) => n.trim())
        .filter(Boolean);
      if (names.length === 1) {
        const found = named.get(names[0] as string) ?? [];
        return found.length === 1 ? pathOf(found[0] as string) : found.length ? 'ambiguous' : 'unknown';
      }
      let parent = '';
      for (const name of names) {
        const found = under.get(parent)?.get(name) ?? [];
        if (found.length !== 1) return found.length ? 'ambiguous' : 'unknown';
        parent = found[0] as string;
      }
      return pathOf(parent);
    },
  };
}
