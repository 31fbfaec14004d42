import { z } from 'zod';
import { isRecord, readJsonText } from '../../src/model/index.js';
import { badRequest } from '../errors.js';

/** Request readers shared by the low-code routes. */

export const idSchema = z.coerce.number().int().positive();

/** Lists answer with 0-based pages; `size=9999` asks for everything (the designer does). */
export const pageQuery = {
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).default(10),
};

/** Ids of a delete call: `[1,2]`, `{ids:[…]}`, `{id}`, `"1,2"`, or `?id=` / `?ids=`. */
export function idsFrom(body: unknown, query: unknown): number[] {
  const out: unknown[] = [];
  const take = (v: unknown) => {
    if (Array.isArray(v)) out.push(...v);
    else if (typeof v === 'string') out.push(...v.split(',').filter((s) => s.trim() !== ''));
    else if (v !== undefined && v !== null) out.push(v);
  };
  if (Array.isArray(body) || typeof body === 'string' || typeof body === 'number') take(body);
  else if (isRecord(body)) {
    take(body.ids);
    take(body.id);
  }
  if (isRecord(query)) {
    take(query.ids);
    take(query.id);
  }
  const ids = out.map((v) => (typeof v === 'string' ? Number(v.trim()) : v));
  if (!ids.length) throw badRequest('请选择要删除的数据');
  if (!ids.every((n) => typeof n === 'number' && Number.isSafeInteger(n) && n > 0)) throw badRequest('id 必须是正整数');
  return [...new Set(ids as number[])];
}

/** JSON text inside a JSON body (disTemplate, disMenu) is stored as received; an object is encoded. */
export function jsonText(v: unknown, what: string): string | null {
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return null;
  if (typeof v === 'object') return JSON.stringify(v);
  if (typeof v !== 'string' || !readJsonText(v).ok) throw badRequest(`${what} 不是有效的 JSON`);
  return v;
}
