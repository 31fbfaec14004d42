import { isRecord, NUMBER_TEXT, readJsonText } from './coerce.js';

/**
 * A definition's disMenu, read one way everywhere: JSON text or the decoded object.
 * - componentName and name are trimmed; empty text is absent.
 * - pid is the parent menu a view's page is published under: a positive whole number up to the
 *   largest int4; null for the top level (null, '' or 0); absent when not given or not such a number.
 */
export interface DefinitionMenu {
  componentName?: string;
  name?: string;
  pid?: number | null;
}

const INT4_MAX = 2_147_483_647;

const trimmed = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

function pidOf(v: unknown): number | null | undefined {
  if (v === null || v === '' || v === 0 || v === '0') return null;
  const n = typeof v === 'number' ? v : typeof v === 'string' && NUMBER_TEXT.test(v) ? Number(v) : Number.NaN;
  return Number.isInteger(n) && n > 0 && n <= INT4_MAX ? n : undefined;
}

/** The disMenu of a definition as stored or sent; anything that is not a JSON object reads as `{}`. */
export function readMenu(disMenu: unknown): DefinitionMenu {
  const r = readJsonText(disMenu);
  const o = r.ok && isRecord(r.value) ? r.value : {};
  const out: DefinitionMenu = {};
  const componentName = trimmed(o.componentName);
  if (componentName !== undefined) out.componentName = componentName;
  const name = trimmed(o.name);
  if (name !== undefined) out.name = name;
  const pid = Object.hasOwn(o, 'pid') ? pidOf(o.pid) : undefined;
  if (pid !== undefined) out.pid = pid;
  return out;
}

/** disMenu.componentName (a view's permission prefix and route name), or undefined. */
export const menuComponentName = (disMenu: unknown): string | undefined => readMenu(disMenu).componentName;
