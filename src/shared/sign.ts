/**
 * Request signing shared by the app's request layer, the CLI and the reference server.
 *
 * sign = upper-case hex SHA-256 of: the `key=value` pairs of the query and the body,
 * plus `timestamp=<ms>`, sorted by key then value, joined by `&`, followed directly by the secret.
 *
 * Value serialisation: strings as they are; numbers and booleans with String();
 * arrays joined by `,` (queries send arrays unindexed, `a=1&a=2`); objects as JSON;
 * null, undefined and empty strings are left out. A body that is not a plain object
 * (a JSON array such as a list of ids) is signed as the single pair `body=<JSON>`.
 * Multipart bodies are not signed: only their query and the timestamp are.
 *
 * Pure JS SHA-256 so it also works where WebCrypto is missing (plain http on a LAN host).
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

export type SignInput = Record<string, unknown> | unknown[] | null | undefined;

function serialise(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v))).join(',');
  return JSON.stringify(value);
}

function pairsOf(input: SignInput, out: [string, string][]): void {
  if (input === null || input === undefined) return;
  if (Array.isArray(input)) {
    out.push(['body', JSON.stringify(input)]);
    return;
  }
  for (const [k, v] of Object.entries(input)) {
    const s = serialise(v);
    if (s !== null) out.push([k, s]);
  }
}

/** The exact string that is hashed (without the secret); exported for tests and debugging. */
export function canonicalString(query: SignInput, body: SignInput, timestamp: string | number): string {
  const pairs: [string, string][] = [];
  pairsOf(query, pairs);
  pairsOf(body, pairs);
  pairs.push(['timestamp', String(timestamp)]);
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

export function signRequest(query: SignInput, body: SignInput, timestamp: string | number, secret: string): string {
  return bytesToHex(sha256(utf8ToBytes(canonicalString(query, body, timestamp) + secret))).toUpperCase();
}

/** Largest accepted clock difference between client and server. */
export const SIGN_MAX_AGE_MS = 5 * 60 * 1000;
