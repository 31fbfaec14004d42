import { isRecord, readJsonText } from '../../src/model/index.js';
import { badRequest } from '../errors.js';
import { pageQueryDefaults } from '../lib/paging.js';
import { dbId, INT4_MAX } from '../lib/sql.js';

/** Request readers shared by the low-code routes. */

/** A view, screen or data-view id: a positive PostgreSQL integer. */
export const idSchema = dbId;

/**
 * The id a record body names: a whole number or its digits, nothing the number coercion would also read
 * (`true` as 1, `[5]` or ` 5` as 5), so a flag or a list in a form's id names no record. `null` when absent
 * or unreadable.
 */
export function bodyId(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^[0-9]{1,10}$/.test(v) ? Number(v) : Number.NaN;
  return Number.isInteger(n) && n >= 1 && n <= INT4_MAX ? n : null;
}

/** Lists answer with 0-based pages; `size=9999` asks for everything (the designer does). */
export const pageQuery = pageQueryDefaults;

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
  if (!ids.length) throw badRequest('NOTHING_TO_DELETE');
  if (!ids.every((n) => typeof n === 'number' && Number.isSafeInteger(n) && n > 0)) throw badRequest('ID_NOT_POSITIVE');
  if (!ids.every((n) => (n as number) <= INT4_MAX)) throw badRequest('ID_TOO_LARGE', { max: INT4_MAX });
  return [...new Set(ids as number[])];
}

/** JSON text inside a JSON body (disTemplate, disMenu) is stored as received; an object is encoded. */
export function jsonText(v: unknown, what: string): string | null {
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return null;
  if (typeof v === 'object') return JSON.stringify(v);
  if (typeof v !== 'string' || !readJsonText(v).ok) throw badRequest('JSON_TEXT_INVALID', { what });
  return v;
}
