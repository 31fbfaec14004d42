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
      // defineProperty, so that a "__proto__" key from a definition stays a plain key.
      Object.defineProperty(out, k, {
        value: sortKeysDeep((value as Record<string, unknown>)[k]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

export function canonicalJson(value: unknown, indent = 0): string {
  return JSON.stringify(sortKeysDeep(value), null, indent || undefined);
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
