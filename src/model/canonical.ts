import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { compareText } from './problems.js';

/**
 * Canonical JSON: object keys sorted by code unit, arrays kept in order. `wastegen pull` writes
 * definitions this way so that a review diff shows a single changed field, and the content hash is
 * taken over it so that the CLI and the app agree on it byte for byte.
 */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort(compareText)) {
      const v = sortKeysDeep((value as Record<string, unknown>)[k]);
      // defineProperty, so that a "__proto__" key from a definition stays a plain key.
      if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      else out[k] = v;
    }
    return out;
  }
  return value;
}

export function canonicalJson(value: unknown, indent = 0): string {
  if (!indent) {
    const compact = compactJson(value);
    if (compact !== undefined) return compact;
  }
  return JSON.stringify(sortKeysDeep(value), null, indent || undefined);
}

/** An object's keys in the order sortKeysDeep's copy enumerates them: array indices first, ascending, then by code unit. */
function canonicalKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record).sort(compareText);
  const indices = keys.filter(isArrayIndex);
  if (!indices.length) return keys;
  return [...indices.sort((a, b) => Number(a) - Number(b)), ...keys.filter((k) => !isArrayIndex(k))];
}

const isArrayIndex = (k: string) => /^(?:0|[1-9]\d*)$/.test(k) && Number(k) < 4_294_967_295;

/**
 * Canonical JSON without indentation, written in one pass (no sorted copy): the same text as
 * JSON.stringify(sortKeysDeep(value)) for what JSON.parse gives. Undefined for anything else (a
 * value with toJSON, a function, a non-finite number, a non-plain object), which takes the general path.
 */
function compactJson(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        const parts: string[] = [];
        for (const item of value) {
          const text = item === undefined ? 'null' : compactJson(item);
          if (text === undefined) return undefined;
          parts.push(text);
        }
        return `[${parts.join(',')}]`;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return undefined;
      const record = value as Record<string, unknown>;
      const parts: string[] = [];
      for (const k of canonicalKeys(record)) {
        const v = record[k];
        if (v === undefined) continue;
        const text = compactJson(v);
        if (text === undefined) return undefined;
        parts.push(`${JSON.stringify(k)}:${text}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      return undefined;
  }
}

/** Keys that change on every save without changing the page. */
const VOLATILE = new Set(['createTime', 'updateTime', 'createBy', 'updateBy']);

/**
 * Content hash of a decoded definition: sha256 of its canonical JSON, without the volatile
 * timestamps, as `sha256-` plus the first 16 hex digits.
 */
export function definitionHash(definition: unknown): string {
  const stable =
    definition !== null && typeof definition === 'object' && !Array.isArray(definition)
      ? Object.fromEntries(Object.entries(definition).filter(([k]) => !VOLATILE.has(k)))
      : definition;
  return `sha256-${bytesToHex(sha256(utf8ToBytes(canonicalJson(stable)))).slice(0, 16)}`;
}

/**
 * A definition as it is stored under definitions/: disTemplate and disMenu decoded from their JSON
 * text (when they parse; otherwise kept as text so that the validator can point at them).
 */
export function decodeDefinition(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...raw };
  for (const key of ['disTemplate', 'disMenu']) {
    const v = out[key];
    if (typeof v !== 'string') continue;
    if (v.trim() === '') {
      out[key] = null;
      continue;
    }
    try {
      out[key] = JSON.parse(v);
    } catch {
      // Left as text: `wastegen generate` reports it with its pointer.
    }
  }
  return out;
}

/** A definition that has been created but not designed yet (empty disTemplate): skipped, not an error. */
export function isUndesigned(raw: unknown): boolean {
  if (raw === null || typeof raw !== 'object') return false;
  const t = (raw as Record<string, unknown>).disTemplate;
  if (t === undefined || t === null || t === '') return true;
  if (typeof t === 'string') {
    if (t.trim() === '') return true;
    try {
      const parsed: unknown = JSON.parse(t);
      return parsed === null || (typeof parsed === 'object' && !Array.isArray(parsed) && Object.keys(parsed).length === 0);
    } catch {
      return false;
    }
  }
  return typeof t === 'object' && t !== null && !Array.isArray(t) && Object.keys(t).length === 0;
}
