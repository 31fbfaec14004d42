/**
 * The one place where values from definitions become TypeScript source. Strings are always single-
 * quoted literals with every dangerous character escaped (quotes, backslash, line breaks, U+2028/9,
 * control characters, bidirectional formatting characters); keys are bare only when they are plain
 * identifiers. Comments hold neither control nor bidirectional characters. Layout follows Biome's
 * (Prettier's) rules for the project's settings, so that `biome format` leaves the output as it is:
 * objects written expanded stay expanded, arrays and small objects go on one line when they fit.
 */
export const LINE_WIDTH = 140;
const INDENT = '  ';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/*
 * Characters no generated text holds raw: controls (C0, DEL, C1), which make git take a file for
 * binary and a terminal run escape sequences; the line and paragraph separators U+2028/9, line
 * breaks to JavaScript; the bidirectional formatting characters (U+061C, U+200E/F, U+202A–E,
 * U+2066–9), which make an editor or a review tool show the code around them reordered; and a lone
 * surrogate, which UTF-8 cannot hold (written, it becomes U+FFFD, and the file never matches what was
 * compiled). A surrogate pair is one character and is kept. The expressions below name the same set;
 * literal.test.ts checks them against every character.
 */

/** Text that needs no escaping in a single-quoted literal: one test, so that plain text costs nothing more. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must be escaped
const PLAIN_TEXT = /^[^'"\\\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]*$/;
/** Text a comment holds as it is: no character it drops, and no `*` that could end it. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a comment drops
const PLAIN_COMMENT = /^[^*\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]*$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a comment drops
const COMMENT_SPACES = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
const COMMENT_DROPPED = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Whether a literal writes the character of this code point as `\uXXXX`: the set above. Iterated by
 * code point, a surrogate pair is one code point above U+FFFF, so a surrogate here is a lone one.
 */
const escapedCode = (c: number): boolean =>
  c <= 0x1f ||
  (c >= 0x7f && c <= 0x9f) ||
  c === 0x061c ||
  c === 0x200e ||
  c === 0x200f ||
  (c >= 0x2028 && c <= 0x202e) ||
  (c >= 0x2066 && c <= 0x2069) ||
  (c >= 0xd800 && c <= 0xdfff);

/** Text whose every character takes one column. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: every character below U+1100 is narrow, controls included
const NARROW_TEXT = /^[\u0000-\u10ff]*$/;

export function stringLiteral(s: string): string {
  if (PLAIN_TEXT.test(s)) return `'${s}'`;
  // Single quotes, unless the text holds more of them than double quotes (Biome's and Prettier's rule).
  const singles = s.split("'").length - 1;
  const doubles = s.split('"').length - 1;
  const quote = singles > doubles ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) as number;
    if (ch === quote) out += `\\${quote}`;
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (escapedCode(code)) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}${quote}`;
}

/** Columns a text takes in an editor, as Biome counts them: East Asian wide characters take two. */
export function textWidth(s: string): number {
  if (NARROW_TEXT.test(s)) return s.length;
  let width = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    const wide =
      (c >= 0x1100 && c <= 0x115f) ||
      (c >= 0x2e80 && c <= 0xa4cf && c !== 0x303f) ||
      (c >= 0xac00 && c <= 0xd7a3) ||
      (c >= 0xf900 && c <= 0xfaff) ||
      (c >= 0xfe30 && c <= 0xfe4f) ||
      (c >= 0xff00 && c <= 0xff60) ||
      (c >= 0xffe0 && c <= 0xffe6) ||
      (c >= 0x20000 && c <= 0x3fffd);
    width += wide ? 2 : 1;
  }
  return width;
}

export const propertyKey = (key: string): string => (IDENTIFIER.test(key) ? key : stringLiteral(key));

/**
 * Text for inside a comment: each run of control characters (line breaks and tabs among them) and
 * line or paragraph separators becomes one space, bidirectional formatting characters are dropped,
 * a lone surrogate becomes U+FFFD (as UTF-8 would write it), and no sequence is left that ends the
 * comment: `*\/` is escaped last, so that a character dropped from between a `*` and a `/` cannot
 * leave one.
 */
export function commentText(s: string): string {
  if (PLAIN_COMMENT.test(s)) return s.trim();
  return s.replace(COMMENT_SPACES, ' ').replace(COMMENT_DROPPED, '').replace(LONE_SURROGATE, '\ufffd').replace(/\*\//g, '*\\/').trim();
}

function numberLiteral(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`cannot print ${n} as a literal`);
  return Object.is(n, -0) ? '0' : String(n);
}

type Plain = null | boolean | number | string | Plain[] | { [key: string]: Plain | undefined };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The keys of o whose values are defined, in order (undefined entries are not printed). */
function definedKeys(o: Record<string, unknown>): string[] {
  const keys = Object.keys(o);
  for (const k of keys) if (o[k] === undefined) return keys.filter((key) => o[key] !== undefined);
  return keys;
}

/** Whether o has more than one defined entry. */
function severalEntries(o: Record<string, unknown>): boolean {
  let n = 0;
  for (const k of Object.keys(o)) if (o[k] !== undefined && ++n > 1) return true;
  return false;
}

/** A one-line rendering and the columns it takes. */
interface Flat {
  text: string;
  width: number;
}

/** A rendering made of ASCII only: one column per unit, without looking at it again. */
const ascii = (text: string): Flat => ({ text, width: text.length });

/** A property key as printed, its columns, and the key with its colon as an expanded object writes it. */
interface PrintedKey extends Flat {
  head: string;
}

/** Keys recur across every page of a compile: each is printed (and measured) once. */
const RECURRING_MAX = 10_000;
const printedKeys = new Map<string, PrintedKey>();

function printedKey(k: string): PrintedKey {
  let printed = printedKeys.get(k);
  if (printed === undefined) {
    const text = propertyKey(k);
    printed = { text, width: textWidth(text), head: `${text}: ` };
    if (printedKeys.size < RECURRING_MAX) printedKeys.set(k, printed);
  }
  return printed;
}

/** Indentation of each depth, made once. */
const indents: string[] = [];
const indentOf = (depth: number): string => (indents[depth] ??= INDENT.repeat(depth));

/**
 * A string's literal and its columns. Not cached: hashing each fresh string for a lookup costs more
 * than escaping it.
 */
function printedString(s: string): Flat {
  const text = stringLiteral(s);
  return { text, width: textWidth(text) };
}

/**
 * One-line renderings of the objects and arrays of one literal() call, so that descending into a
 * value that had to be broken does not render its children again at every level. Null: it had to be.
 */
type FlatCache = Map<object, Flat | null>;

/**
 * A rendering wider than this fits no line, wherever it starts (the room left on a line is at most
 * the line): an array or object stops being rendered on one line as soon as it is wider, so that a
 * large value costs its breaking, not the one-line text of every level of it.
 */
const TOO_WIDE = LINE_WIDTH;

/** A string, number, boolean or null as a literal. */
function scalarText(value: unknown): string {
  if (typeof value === 'string') return stringLiteral(value);
  if (value === null) return 'null';
  if (typeof value === 'number') return numberLiteral(value);
  if (typeof value === 'boolean') return String(value);
  throw new Error(`cannot print a ${typeof value} as a literal`);
}

/** Flat (one-line) rendering, or undefined when the value has to be broken (it holds an expanded object, or is too wide). */
function flat(value: unknown, expandObjects: boolean, cache: FlatCache): Flat | undefined {
  if (typeof value === 'string') return printedString(value);
  if (!expandObjects && typeof value === 'object' && value !== null) {
    const known = cache.get(value);
    if (known !== undefined) return known ?? undefined;
    const rendered = flatComposite(value, false, cache);
    cache.set(value, rendered ?? null);
    return rendered;
  }
  if (value === null) return ascii('null');
  if (typeof value === 'number') return ascii(numberLiteral(value));
  if (typeof value === 'boolean') return ascii(String(value));
  if (typeof value === 'object') return flatComposite(value, expandObjects, cache);
  throw new Error(`cannot print a ${typeof value} as a literal`);
}

/**
 * Columns an object's one-line rendering takes at the least, from its keys and the kinds of its
 * values, without rendering any: most objects of a page (columns, fields) are too wide for a line,
 * and are known to be before their values are escaped. A string takes at least half a column per
 * UTF-16 unit (an astral character is two units and one column or more) and its two quotes.
 */
function leastWidth(o: Record<string, unknown>, keys: readonly string[]): number {
  let width = 4 + 2 * (keys.length - 1);
  for (const k of keys) {
    const v = o[k];
    width += printedKey(k).width + 2 + (typeof v === 'string' ? 2 + Math.ceil(v.length / 2) : v === null || typeof v === 'boolean' ? 4 : 1);
  }
  return width;
}

function flatComposite(value: object, expandObjects: boolean, cache: FlatCache): Flat | undefined {
  if (Array.isArray(value)) {
    if (value.length === 0) return ascii('[]');
    // Prettier/Biome break an array of several objects (or arrays) with more than one entry each.
    if (value.length > 1 && value.every((v) => (isObject(v) && severalEntries(v)) || (Array.isArray(v) && v.length > 1))) return undefined;
    let text = '[';
    let width = 1;
    for (let i = 0; i < value.length; i++) {
      const part = flat(value[i], expandObjects, cache);
      if (part === undefined) return undefined;
      if (i === 0) text += part.text;
      else {
        text += `, ${part.text}`;
        width += 2;
      }
      width += part.width;
      if (width > TOO_WIDE) return undefined;
    }
    return { text: `${text}]`, width: width + 1 };
  }
  if (!isObject(value)) throw new Error(`cannot print a ${typeof value} as a literal`);
  const keys = definedKeys(value);
  if (keys.length === 0) return ascii('{}');
  if (expandObjects || leastWidth(value, keys) > TOO_WIDE) return undefined;
  let text = '{ ';
  let width = 2;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    const part = flat(value[k], expandObjects, cache);
    if (part === undefined) return undefined;
    const key = printedKey(k);
    if (i === 0) text += `${key.text}: ${part.text}`;
    else {
      text += `, ${key.text}: ${part.text}`;
      width += 2;
    }
    width += key.width + 2 + part.width;
    if (width > TOO_WIDE) return undefined;
  }
  return { text: `${text} }`, width: width + 2 };
}

export interface LiteralOptions {
  /** Objects nested deeper than this are written on one line when they fit. */
  expandDepth?: number;
}

/**
 * `value` as a TypeScript expression starting at column `indent * 2 + prefix`, where the caller has
 * already written `prefix` characters on the line and will write `suffix` characters after it.
 */
export function literal(value: unknown, indent = 0, prefix = 0, suffix = 1, options: LiteralOptions = {}, depth = 0): string {
  return literalIn(value, indent, prefix, suffix, options.expandDepth ?? 1, depth, new Map());
}

function literalIn(
  value: unknown,
  indent: number,
  prefix: number,
  suffix: number,
  expandDepth: number,
  depth: number,
  cache: FlatCache,
): string {
  // A value that cannot be broken is written as it is, whether it fits or not (Biome leaves a long
  // string literal as it is): its width does not matter.
  if (typeof value !== 'object' || value === null) return scalarText(value);
  const f = flat(value, depth < expandDepth, cache);
  if (f !== undefined && f.width <= LINE_WIDTH - indent * INDENT.length - prefix - suffix) return f.text;
  const pad = indentOf(indent + 1);
  // An empty array or object that does not fit where it starts keeps its empty line.
  if (Array.isArray(value)) {
    let out = value.length ? '[\n' : '[\n\n';
    for (const v of value) out += `${pad}${literalIn(v, indent + 1, 0, 1, expandDepth, depth + 1, cache)},\n`;
    return `${out}${indentOf(indent)}]`;
  }
  // What is left is an object that is not an array.
  const record = value as Record<string, unknown>;
  const keys = definedKeys(record);
  let out = keys.length ? '{\n' : '{\n\n';
  for (const k of keys) {
    const key = printedKey(k).head;
    out += `${pad}${key}${literalIn(record[k], indent + 1, key.length, 1, expandDepth, depth + 1, cache)},\n`;
  }
  return `${out}${indentOf(indent)}}`;
}

export type { Plain };
