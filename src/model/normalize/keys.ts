import { sortKeysDeep } from '../canonical.js';
import { basicOptionShape, buttonConfigureShape, dialogOptionShape, fieldConfigureShape, templateShape } from '../wire.js';

/** The keys the wire shapes name, per block; any other key is kept as the model's `extra`. */
export const KNOWN_CONFIGURE: ReadonlySet<string> = new Set(Object.keys(fieldConfigureShape));
export const KNOWN_BUTTON: ReadonlySet<string> = new Set(Object.keys(buttonConfigureShape));
export const KNOWN_TEMPLATE: ReadonlySet<string> = new Set(Object.keys(templateShape));
export const KNOWN_BASIC: ReadonlySet<string> = new Set(Object.keys(basicOptionShape));
export const KNOWN_DIALOG: ReadonlySet<string> = new Set(Object.keys(dialogOptionShape));

/** Keys a block does not name, kept as they came, sorted so that key order never matters; undefined when there are none. */
export function extraOf(block: Record<string, unknown>, known: ReadonlySet<string>): Record<string, unknown> | undefined {
  const keys = Object.keys(block).filter((k) => !known.has(k) && block[k] !== undefined);
  return keys.length ? (sortKeysDeep(Object.fromEntries(keys.map((k) => [k, block[k]]))) as Record<string, unknown>) : undefined;
}

/** Drops undefined members so that models compare and print the same however they were built. */
export function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
