/**
 * The one place where values from definitions become TypeScript source. Strings are always single-
 * quoted literals with every dangerous character escaped (quotes, backslash, line breaks, U+2028/9,
 * control characters); keys are bare only when they are plain identifiers. Layout follows Biome's
 * (Prettier's) rules for the project's settings, so that `biome format` leaves the output as it is:
 * objects written expanded stay expanded, arrays and small objects go on one line when they fit.
 */
export const LINE_WIDTH = 140;
const INDENT = '  ';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Text that needs no escaping in a single-quoted literal. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must be escaped
const PLAIN_TEXT = /^[^'"\\\u0000-\u001f\u007f\u2028\u2029]*$/;
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
    else if (code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029) out += `\\u${code.toString(16).padStart(4, '0')}`;
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

/** Text for inside a comment: no line breaks, and no sequence that ends the comment. */
export function commentText(s: string): string {
  return s
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .replace(/\*\//g, '*\\/')
    .trim();
}

function numberLiteral(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`cannot print ${n} as a literal`);
  return Object.is(n, -0) ? '0' : String(n);
}

type Plain = null | boolean | number | string | Plain[] | { [key: string]: Plain | undefined };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function entriesOf(o: Record<string, unknown>): [string, unknown][] {
  return Object.entries(o).filter(([, v]) => v !== undefined);
}

/**
 * One-line renderings of the objects and arrays of one literal() call, so that descending into a
 * value that had to be broken does not render its children again at every level.
 */
type FlatCache = Map<object, string | undefined>;

/** Flat (one-line) rendering, or undefined when the value has to be broken (it holds an expanded object). */
function flat(value: unknown, expandObjects: boolean, cache?: FlatCache): string | undefined {
  if (cache && !expandObjects && typeof value === 'object' && value !== null) {
    if (cache.has(value)) return cache.get(value);
    const text = flatUncached(value, false, cache);
    cache.set(value, text);
    return text;
  }
  return flatUncached(value, expandObjects, cache);
}

function flatUncached(value: unknown, expandObjects: boolean, cache?: FlatCache): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'string') return stringLiteral(value);
  if (typeof value === 'number') return numberLiteral(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    // Prettier/Biome break an array of several objects (or arrays) with more than one entry each.
    if (value.length > 1 && value.every((v) => (isObject(v) && entriesOf(v).length > 1) || (Array.isArray(v) && v.length > 1)))
      return undefined;
    const parts = value.map((v) => flat(v, expandObjects, cache));
    return parts.some((p) => p === undefined) ? undefined : `[${parts.join(', ')}]`;
  }
  if (isObject(value)) {
    const entries = entriesOf(value);
    if (entries.length === 0) return '{}';
    if (expandObjects) return undefined;
    const parts = entries.map(([k, v]) => {
      const f = flat(v, expandObjects, cache);
      return f === undefined ? undefined : `${propertyKey(k)}: ${f}`;
    });
    return parts.some((p) => p === undefined) ? undefined : `{ ${parts.join(', ')} }`;
  }
  throw new Error(`cannot print a ${typeof value} as a literal`);
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
  return literalIn(value, indent, prefix, suffix, options, depth, new Map());
}

function literalIn(
  value: unknown,
  indent: number,
  prefix: number,
  suffix: number,
  options: LiteralOptions,
  depth: number,
  cache: FlatCache,
): string {
  const expandDepth = options.expandDepth ?? 1;
  const expand = depth < expandDepth;
  const f = flat(value, expand, cache);
  const column = indent * INDENT.length + prefix;
  if (f !== undefined && column + textWidth(f) + suffix <= LINE_WIDTH) return f;
  const pad = INDENT.repeat(indent + 1);
  const end = INDENT.repeat(indent);
  if (Array.isArray(value)) {
    const items = value.map((v) => `${pad}${literalIn(v, indent + 1, 0, 1, options, depth + 1, cache)},`);
    return `[\n${items.join('\n')}\n${end}]`;
  }
  if (isObject(value)) {
    const items = entriesOf(value).map(([k, v]) => {
      const key = `${propertyKey(k)}: `;
      return `${pad}${key}${literalIn(v, indent + 1, key.length, 1, options, depth + 1, cache)},`;
    });
    return `{\n${items.join('\n')}\n${end}}`;
  }
  // A string longer than the line: Biome leaves long string literals as they are.
  return f ?? String(value);
}

export type { Plain };
