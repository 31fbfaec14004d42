import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import { isRecord } from './coerce.js';
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
    // A definition as pulled (keys already sorted) is its canonical text as it stands.
    if (inCanonicalOrder(value)) return JSON.stringify(value);
    const compact = compactJson(value);
    if (compact !== undefined) return compact;
  }
  return JSON.stringify(sortKeysDeep(value), null, indent || undefined);
}

/** An object's keys in the order sortKeysDeep's copy enumerates them: array indices first, ascending, then by code unit. */
function canonicalKeys(record: Record<string, unknown>): string[] {
  // The default sort compares UTF-16 code units, as compareText does.
  const keys = Object.keys(record).sort();
  let index = false;
  for (const k of keys) {
    const c = k.charCodeAt(0);
    if (c >= 48 && c <= 57 && isArrayIndex(k)) {
      index = true;
      break;
    }
  }
  if (!index) return keys;
  return [...keys.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b)), ...keys.filter((k) => !isArrayIndex(k))];
}

/**
 * Whether JSON.stringify(value) already writes the canonical text: plain objects whose keys come in
 * canonical order (array indices, which the engine enumerates first and ascending, then the rest by code
 * unit), finite numbers, no undefined. Reads the value without copying or sorting anything.
 */
function inCanonicalOrder(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!inCanonicalOrder(value[i])) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  const record = value as Record<string, unknown>;
  let previous: string | undefined;
  for (const k in record) {
    if (!Object.hasOwn(record, k)) return false;
    const c = k.charCodeAt(0);
    if (!(c >= 48 && c <= 57 && isArrayIndex(k))) {
      if (previous !== undefined && !(previous < k)) return false;
      previous = k;
    }
    if (!inCanonicalOrder(record[k])) return false;
  }
  return true;
}

const isArrayIndex = (k: string) => /^(?:0|[1-9]\d*)$/.test(k) && Number(k) < 4_294_967_295;

/** Object keys recur across a definition's fields: each is quoted once. */
const quotedKeys = new Map<string, string>();
function quotedKey(k: string): string {
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (quotedKeys.size < 10_000) quotedKeys.set(k, q);
  }
  return q;
}

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
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          const item = value[i];
          const text = item === undefined ? 'null' : compactJson(item);
          if (text === undefined) return undefined;
          out += i === 0 ? text : `,${text}`;
        }
        return `${out}]`;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return undefined;
      const record = value as Record<string, unknown>;
      let out = '{';
      let first = true;
      for (const k of canonicalKeys(record)) {
        const v = record[k];
        if (v === undefined) continue;
        const text = compactJson(v);
        if (text === undefined) return undefined;
        out += `${first ? '' : ','}${quotedKey(k)}:${text}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      return undefined;
  }
}

/** Keys that change on every save without changing the page. */
const VOLATILE = new Set(['createTime', 'updateTime', 'createBy', 'updateBy', 'version']);

/**
 * Content hash of a decoded definition: sha256 of its canonical JSON, without the volatile
 * timestamps, as `sha256-` plus the first 16 hex digits.
 */
export function definitionHash(definition: unknown): string {
  const stable =
    definition !== null && typeof definition === 'object' && !Array.isArray(definition)
      ? Object.fromEntries(Object.entries(definition).filter(([k]) => !VOLATILE.has(k)))
      : definition;
  return `sha256-${sha256Hex(canonicalJson(stable)).slice(0, 16)}`;
}

/** sha256 of a text's UTF-8 bytes, in hex. */
export type Sha256Hex = (text: string) => string;

const portableSha256Hex: Sha256Hex = (text) => bytesToHex(sha256(utf8ToBytes(text)));
let sha256Hex = portableSha256Hex;

/**
 * Lets a host with a native sha256 (Node's crypto) take over from the portable one; undefined goes
 * back to it. It must give the same digest for every text, lone surrogates included (both encode
 * them as U+FFFD).
 */
export function setSha256(hash: Sha256Hex | undefined): void {
  sha256Hex = hash ?? portableSha256Hex;
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

/**
 * The content hash of a definition file's JSON, as its page model records it. It is taken over the
 * decoded definition, as the app decodes what the server sends before hashing it: a file holding
 * disTemplate as JSON text and one holding it decoded hash the same.
 */
export function sourceHashOf(json: unknown): string {
  return definitionHash(isRecord(json) ? decodeDefinition(json) : json);
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
