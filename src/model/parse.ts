import type { z } from 'zod';
import { FAILED, fastReader } from './fast-parse.js';
import { type Problem, type ProblemCode, pointerOf } from './problems.js';
import { type WireScreen, type WireView, wireScreen, wireView } from './wire.js';

type Issue = z.core.$ZodIssue;

/** Whether a union branch failed only because the value was of another type altogether. */
const isRootTypeMismatch = (issues: readonly Issue[]) =>
  issues.length === 1 && issues[0]?.code === 'invalid_type' && issues[0].path.length === 0;

function describeType(issue: Extract<Issue, { code: 'invalid_type' }>, input: unknown): string {
  const got = input === undefined ? 'nothing' : Array.isArray(input) ? 'a list' : input === null ? 'null' : typeof input;
  const expected = issue.expected === 'array' ? 'a list' : issue.expected === 'object' ? 'an object' : issue.expected;
  return `expected ${expected}, got ${got}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/** Zod issues as problems; a union's issues are taken from the branch that matched the value's type. */
export function issuesToProblems(issues: readonly Issue[], file: string, input: unknown, base: readonly PropertyKey[] = []): Problem[] {
  const out: Problem[] = [];
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    if (issue.code === 'invalid_union') {
      const branches = issue.errors.filter((b) => !isRootTypeMismatch(b));
      if (branches.length === 0) {
        out.push({ code: 'E_TYPE', file, pointer: pointerOf(path), message: 'expected a list, or an object with "items"' });
      } else {
        for (const b of branches.slice(0, 1)) out.push(...issuesToProblems(b, file, input, path));
      }
      continue;
    }
    let code: ProblemCode = 'E_TYPE';
    let message = issue.message;
    if (issue.code === 'custom' && typeof issue.params?.code === 'string') code = issue.params.code as ProblemCode;
    else if (issue.code === 'invalid_type') message = describeType(issue, valueAt(input, path));
    out.push({ code, file, pointer: pointerOf(path), message });
  }
  return out;
}

export interface Parsed<T> {
  value: T | undefined;
  problems: Problem[];
  /** Pointers whose values were dropped after a problem, so that later checks do not report them again. */
  dropped: Set<string>;
}

function pathOf(pointer: string): string[] {
  return pointer === ''
    ? []
    : pointer
        .slice(1)
        .split('/')
        .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function dropAt(root: unknown, path: string[]): boolean {
  let v = root;
  for (const k of path.slice(0, -1)) {
    if (v === null || typeof v !== 'object') return false;
    v = (v as Record<string, unknown>)[k];
  }
  const last = path[path.length - 1];
  if (last === undefined || v === null || typeof v !== 'object' || !(last in v)) return false;
  if (Array.isArray(v)) v[Number(last)] = undefined;
  else delete (v as Record<string, unknown>)[last];
  return true;
}

function emptyItemAt(root: unknown, path: string[]): boolean {
  const list = valueAt(root, path.slice(0, -1));
  const last = Number(path[path.length - 1]);
  if (!Array.isArray(list) || !Number.isInteger(last) || last >= list.length || list[last] !== undefined) return false;
  list[last] = {};
  return true;
}

/** Each schema's fast reader (null: it has none), made on its first parse. */
const fastReaders = new Map<z.ZodType, ((v: unknown) => unknown) | null>();

/**
 * Parses (a valid definition through the schema's fast reader, which gives zod's output without its
 * bookkeeping), and on failure drops each offending value and parses again, so that one bad value does not
 * hide the problems of the rest of the definition: every problem is reported in one run.
 */
function parseWith<T>(schema: z.ZodType<T>, json: unknown, file: string): Parsed<T> {
  let fast = fastReaders.get(schema);
  if (fast === undefined) {
    fast = fastReader(schema) ?? null;
    fastReaders.set(schema, fast);
  }
  if (fast) {
    const value = fast(json);
    if (value !== FAILED) return { value: value as T, problems: [], dropped: new Set() };
  }
  const problems: Problem[] = [];
  const dropped = new Set<string>();
  const emptied = new Set<string>();
  let input = json;
  for (let round = 0; round < 10; round++) {
    const r = schema.safeParse(input);
    if (r.success) return { value: r.data, problems, dropped };
    const found = issuesToProblems(r.error.issues, file, input);
    if (round === 0) input = structuredClone(json);
    let progress = false;
    for (const p of found) {
      if (dropped.has(p.pointer)) {
        // A list item that is not an object (null, a number): a hole fails the item schema as well,
        // so an empty object stands in for it. What the normaliser finds in it is not reported.
        if (!emptied.has(p.pointer)) {
          emptied.add(p.pointer);
          progress = emptyItemAt(input, pathOf(p.pointer)) || progress;
        }
        continue;
      }
      problems.push(p);
      dropped.add(p.pointer);
      progress = dropAt(input, pathOf(p.pointer)) || progress;
    }
    if (!progress) break;
  }
  return { value: undefined, problems, dropped };
}

export const parseView = (json: unknown, file: string): Parsed<WireView> => parseWith(wireView, json, file);
export const parseScreen = (json: unknown, file: string): Parsed<WireScreen> => parseWith(wireScreen, json, file);

/**
 * The most characters a definition file may hold: 8 Mi, some 500 times the largest of the demo set.
 * The server takes requests of up to 4 MiB, and `wastegen pull` writes a definition indented, less
 * than twice its size in a request, so any definition a server accepted fits. The limit also keeps a
 * definition's pages printable: a text the printer escapes (six characters for one) and prints
 * several times (a label in its column, its field and its form rule) grows some twenty times, which
 * from 8 Mi stays well below the longest string JavaScript holds (512 Mi characters).
 */
export const DEFINITION_MAX_CHARS = 8 * 1024 * 1024;

/**
 * JSON text of a definition file; a syntax error is a problem at the whole file, and so is a text
 * longer than DEFINITION_MAX_CHARS, which is not parsed.
 */
export function parseJsonFile(text: string, file: string): { json: unknown; problems: Problem[] } {
  if (text.length > DEFINITION_MAX_CHARS)
    return {
      json: undefined,
      problems: [
        {
          code: 'E_TOO_LARGE',
          file,
          pointer: '',
          message: `the file holds ${text.length} characters, more than the ${DEFINITION_MAX_CHARS} (8 Mi) a definition may hold`,
          hint: 'no server accepts a definition this large: check how the file was made, or split the view',
        },
      ],
    };
  try {
    return { json: JSON.parse(text), problems: [] };
  } catch (e) {
    return {
      json: undefined,
      problems: [
        {
          code: 'E_JSON',
          file,
          pointer: '',
          message: `not valid JSON: ${e instanceof Error ? e.message : String(e)}`,
          hint: 'run `wastegen pull` again, or fix the file by hand',
        },
      ],
    };
  }
}
