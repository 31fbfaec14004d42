import type { FastifyRequest } from 'fastify';
import { NoResultError } from 'kysely';
import { type ApiError, badRequest, type ErrorCode } from './errors.js';

/**
 * Text the database cannot hold is refused at the door, for every route alike: a NUL character
 * (PostgreSQL text and jsonb refuse U+0000) and a lone UTF-16 surrogate (no UTF-8 encoding exists; the
 * drivers would store U+FFFD instead, silently). The query, the path parameters and a parsed JSON or
 * form body are walked once, keys and values, to a bounded depth; multipart field values and file names
 * are checked as the route reads its parts.
 */

/** Deeper bodies than this are refused rather than walked: no page or design nests half as deep. */
export const MAX_DEPTH = 64;

// String.prototype.isWellFormed (ES2024, native in Node 20): false when a surrogate stands alone.
const wellFormed = (s: string) => (s as string & { isWellFormed(): boolean }).isWellFormed();

/** The refusal for one text, or undefined when the database can store it as sent. */
export function textProblem(s: string): ApiError | undefined {
  if (s.includes('\u0000')) return badRequest('INPUT_NUL');
  if (!wellFormed(s)) return badRequest('INPUT_SURROGATE');
  return undefined;
}

/** Throws the 400 for a text the database cannot hold (a multipart field's value, a file name). */
export function checkText(s: string): string {
  const problem = textProblem(s);
  if (problem) throw problem;
  return s;
}

/**
 * Every text in a parsed value, keys included, in one pass without recursion. Numbers, booleans and
 * null need no check; anything else (a multipart file, a buffer) is not walked.
 */
export function checkValue(value: unknown): void {
  if (typeof value === 'string') {
    checkText(value);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const stack: [unknown, number][] = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [v, depth] = next;
    if (typeof v === 'string') {
      checkText(v);
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= MAX_DEPTH) throw badRequest('INPUT_TOO_DEEP');
    if (Array.isArray(v)) {
      for (const x of v) if (typeof x === 'object' || typeof x === 'string') stack.push([x, depth + 1]);
      continue;
    }
    // A Buffer or a stream is not text; any other object (JSON, querystring, form) is walked.
    if (ArrayBuffer.isView(v) || typeof (v as { pipe?: unknown }).pipe === 'function') continue;
    for (const key of Object.keys(v)) {
      checkText(key);
      const x = (v as Record<string, unknown>)[key];
      if (typeof x === 'object' || typeof x === 'string') stack.push([x, depth + 1]);
    }
  }
}

/**
 * preValidation hook: runs after the access hook (onRequest), so a caller without a session is still
 * told 401 first, and before the route's schema and handler see the input.
 */
export function inputGuard(
  req: Pick<FastifyRequest, 'routeOptions' | 'params' | 'query' | 'body' | 'isMultipart' | 'parts' | 'file'>,
  _reply: unknown,
  done: (err?: Error) => void,
): void {
  // A callback hook rather than an async one: the check is synchronous and runs on every call.
  try {
    // An address that matches no route is the 404 handler's, whatever it carries.
    if (req.routeOptions.url) {
      checkValue(req.params);
      checkValue(req.query);
      if (req.isMultipart()) checkMultipart(req);
      else checkValue(req.body);
    }
  } catch (e) {
    done(e as Error);
    return;
  }
  done();
}

/** What a multipart part carries as text: its field name, a field's value, a file's name, the fields read before it. */
interface PartText {
  fieldname?: unknown;
  value?: unknown;
  filename?: unknown;
  fields?: unknown;
}

function checkOnePart(part: PartText): void {
  if (typeof part.fieldname === 'string') checkText(part.fieldname);
  if (typeof part.value === 'string') checkText(part.value);
  if (typeof part.filename === 'string') checkText(part.filename);
}

function checkPart(part: PartText | undefined): void {
  if (!part) return;
  checkOnePart(part);
  // file() answers the first file with the fields sent before it (each of which refers to them all again).
  if (part.fields && typeof part.fields === 'object') {
    for (const f of Object.values(part.fields)) for (const x of [f].flat()) if (x && typeof x === 'object') checkOnePart(x as PartText);
  }
}

/**
 * A multipart body is read by the route itself, part by part: its readers are wrapped so that each
 * field value and file name is checked as the route reads it.
 */
function checkMultipart(req: Pick<FastifyRequest, 'parts' | 'file'>): void {
  const parts = req.parts.bind(req);
  const file = req.file.bind(req);
  req.parts = async function* checkedParts(options) {
    for await (const part of parts(options)) {
      checkPart(part as PartText);
      yield part;
    }
  } as typeof req.parts;
  req.file = (async (options) => {
    const part = await file(options);
    checkPart(part as PartText | undefined);
    return part;
  }) as typeof req.file;
}

/**
 * The database's own refusals of a value (SQLSTATE class 22, data exception) that a request can cause:
 * text that is not a number or a time, a number or a text too large for its column, a character the
 * encoding cannot hold. Each is a value the validation above should have refused; when one still
 * reaches the database it is answered 400 and logged as an error, so the missing check is found.
 */
const DATABASE_INPUT_ERRORS = new Map<string, ErrorCode>([
  ['22P02', 'DB_VALUE_FORMAT'],
  ['22003', 'DB_NUMBER_RANGE'],
  ['22008', 'DB_TIME_RANGE'],
  ['22007', 'DB_TIME_FORMAT'],
  ['22001', 'DB_TEXT_TOO_LONG'],
  ['22021', 'DB_CHARACTER'],
  ['22P05', 'DB_CHARACTER'],
]);

/** Every code a database refusal of a value is answered with (tests tell them from checks made here). */
export const DATABASE_INPUT_CODES: ReadonlySet<ErrorCode> = new Set(DATABASE_INPUT_ERRORS.values());

/** The 400 refusal's code for a database error caused by a value, or undefined for any other error. */
export function databaseInputCode(err: unknown): ErrorCode | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? DATABASE_INPUT_ERRORS.get(code) : undefined;
}

/**
 * Failures a concurrent write causes when it lands between a request's checks and its own write: a row
 * its checks read is gone when read again (Kysely's NoResultError), a row it names was deleted (23503),
 * the same unique value was written at once (23505), or two transactions waited on each other (40P01,
 * 40001). The request is answered 409 CONFLICT, as a lost race; it is logged as an error, so that the
 * write that should have held its rows is found.
 */
const CONCURRENT_WRITE_ERRORS = new Set(['23503', '23505', '40P01', '40001']);

export function concurrentWriteLost(err: unknown): boolean {
  if (err instanceof NoResultError) return true;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CONCURRENT_WRITE_ERRORS.has(code);
}
