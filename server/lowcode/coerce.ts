import { badRequest } from '../errors.js';

/**
 * Lenient readers for definition values (definitions.md §0): servers of this family send booleans as
 * 1/"1"/"true", numbers as strings ("250px"), lists as comma strings and empty strings for "absent".
 * Anything that cannot be coerced is a 400 naming the JSON pointer.
 */
export class DefinitionError extends Error {
  constructor(
    readonly pointer: string,
    readonly problem: string,
  ) {
    super(`定义不合法：${pointer}：${problem}`);
  }
}

export const isAbsent = (v: unknown): v is null | undefined | '' => v === undefined || v === null || v === '';

export function readBool(v: unknown, pointer: string): boolean {
  if (isAbsent(v)) return false;
  if (v === true || v === 1 || v === '1' || v === 'true') return true;
  if (v === false || v === 0 || v === '0' || v === 'false') return false;
  throw new DefinitionError(pointer, `应为布尔值，实际为 ${JSON.stringify(v)}`);
}

export function readNumber(v: unknown, pointer: string): number | undefined {
  if (isAbsent(v)) return undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*(px|%)?\s*$/.test(v)) return Number.parseFloat(v);
  throw new DefinitionError(pointer, `应为数字，实际为 ${JSON.stringify(v)}`);
}

export function readString(v: unknown): string | undefined {
  if (isAbsent(v)) return undefined;
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
}

export function readList(v: unknown, pointer: string): string[] {
  if (isAbsent(v)) return [];
  if (Array.isArray(v)) return v.filter((x) => !isAbsent(x)).map((x) => String(x).trim());
  if (typeof v === 'string')
    return v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  throw new DefinitionError(pointer, `应为列表，实际为 ${JSON.stringify(v)}`);
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses JSON text received inside JSON; objects are accepted as they are (lenient). */
export function parseJsonText(v: unknown, what: string): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    throw badRequest(`${what} 不是有效的 JSON`);
  }
}

/** Stores JSON text as received; an object is encoded (a lenient client may send it decoded). */
export function jsonText(v: unknown, what: string): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v === 'string') {
    parseJsonText(v, what);
    return v;
  }
  if (typeof v === 'object') return JSON.stringify(v);
  throw badRequest(`${what} 不是有效的 JSON`);
}
