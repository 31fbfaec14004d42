import type { z } from 'zod';
import { sortKeysDeep } from '../canonical.js';
import {
  basicOptionShape,
  buttonConfigureShape,
  dialogOptionShape,
  fieldConfigureShape,
  templateShape,
  type WireValueKind,
  wireValueKind,
} from '../wire.js';

/** The keys the wire shapes name, per block; any other key is kept as the model's `extra`. */
export const KNOWN_CONFIGURE: ReadonlySet<string> = new Set(Object.keys(fieldConfigureShape));
export const KNOWN_BUTTON: ReadonlySet<string> = new Set(Object.keys(buttonConfigureShape));
export const KNOWN_TEMPLATE: ReadonlySet<string> = new Set(Object.keys(templateShape));
export const KNOWN_BASIC: ReadonlySet<string> = new Set(Object.keys(basicOptionShape));
export const KNOWN_DIALOG: ReadonlySet<string> = new Set(Object.keys(dialogOptionShape));

/** The keys of a wire shape whose values read as one of `kinds`. */
export function keysOfKind(shape: Record<string, z.ZodType>, ...kinds: WireValueKind[]): ReadonlySet<string> {
  return new Set(Object.keys(shape).filter((k) => kinds.includes(wireValueKind(shape[k] as z.ZodType)?.kind as WireValueKind)));
}

/** Configure keys holding a switch (true/false), and those holding a plain number. */
export const CONFIGURE_BOOLEAN_KEYS = keysOfKind(fieldConfigureShape, 'boolean');
export const CONFIGURE_NUMBER_KEYS = keysOfKind(fieldConfigureShape, 'number', 'integer');

/** The words a configure key of one of a fixed set takes (align, file, sportData_type), or undefined. */
export const configureWords = (key: string): readonly string[] | undefined =>
  Object.hasOwn(fieldConfigureShape, key) ? wireValueKind(fieldConfigureShape[key as keyof typeof fieldConfigureShape])?.values : undefined;

/** Keys a block does not name, kept as they came, sorted so that key order never matters; undefined when there are none. */
export function extraOf(block: Record<string, unknown>, known: ReadonlySet<string>): Record<string, unknown> | undefined {
  const keys = Object.keys(block).filter((k) => !known.has(k) && block[k] !== undefined);
  return keys.length ? (sortKeysDeep(Object.fromEntries(keys.map((k) => [k, block[k]]))) as Record<string, unknown>) : undefined;
}

/**
 * Drops undefined members so that models compare and print the same however they were built. Takes a
 * freshly built object: it is returned as it is when no member is undefined.
 */
export function compact<T extends object>(o: T): T {
  // Values and keys come in the same order, each read at once (reading members one by one by key
  // costs a lookup each).
  const values = Object.values(o);
  if (!values.includes(undefined)) return o;
  const keys = Object.keys(o);
  const out: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) {
    const v = values[i];
    if (v === undefined) continue;
    const k = keys[i] as string;
    // defineProperty, so that a "__proto__" key stays a plain key.
    if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    else out[k] = v;
  }
  return out as T;
}
