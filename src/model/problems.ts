/**
 * Every problem found in a definition, by the parser, the normaliser or the CLI, is one of these:
 * a stable code (tests assert codes, never message text), the file, the JSON pointer into that
 * file, an English message and an optional hint. They are collected, never thrown one at a time.
 */
export const CODES = {
  E_JSON: 'the file or an embedded JSON text does not parse',
  E_TYPE: 'a value has the wrong shape (object, list, text)',
  E_NUMBER: 'a value cannot be read as a number',
  E_BOOLEAN: 'a value cannot be read as a boolean',
  E_LIST: 'a value cannot be read as a list',
  E_ENUM: 'a value is not one of the allowed words',
  E_REQUIRED: 'a required key is missing or empty',
  E_NAME: 'a field name is not a usable identifier',
  E_DUPLICATE: 'two fields, buttons or definitions share a name or id',
  E_PATTERN: 'a pattern is not a valid regular expression, or is too large to bound what it costs',
  E_VALIDATOR: 'an unknown named validator',
  E_RANGE: 'a number is out of range, or min is above max',
  E_REFERENCE: 'a relation, divider or button names a field or view that does not exist',
  E_SCREEN_TYPE: 'a screen type other than 1, 2, 3 or 4',
  E_URL: 'an address the app would open or draw is not one it may: links http, https, mailto, tel or a path; images https or a path',
  E_TOO_LARGE: 'a definition file is larger than wastegen compiles',
  E_CONFIG: 'wastegen.config.json is invalid',
  W_DATATYPE: 'an unknown dataType, read as varchar',
  W_REFERENCE: 'a screen names a view that is not among the pulled definitions',
  W_IGNORED: 'a key that has no effect where it is',
} as const;

export type ProblemCode = keyof typeof CODES;

export interface Problem {
  code: ProblemCode;
  /** Path of the definition file relative to the project root, e.g. definitions/views/12-stock-in.json */
  file: string;
  /** RFC 6901 JSON pointer into the file ('' is the whole file). */
  pointer: string;
  message: string;
  hint?: string;
}

export const isWarning = (p: Problem): boolean => p.code.startsWith('W_');

/** One error class for callers that want to throw the collected problems at once. */
export class DefinitionProblems extends Error {
  constructor(readonly problems: Problem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'DefinitionProblems';
  }
}

export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointerOf(path: readonly PropertyKey[], base = ''): string {
  return base + path.map((k) => `/${escapePointerToken(typeof k === 'symbol' ? String(k.description) : k)}`).join('');
}

export function formatProblem(p: Problem): string {
  const head = `${p.file}#${p.pointer}: ${isWarning(p) ? 'warning: ' : ''}${p.message}`;
  return p.hint ? `${head}\n  hint: ${p.hint}` : head;
}

/** Problems sorted by file, then pointer, then code, so that output and tests are stable. */
export function sortProblems(problems: readonly Problem[]): Problem[] {
  return [...problems].sort(
    (a, b) =>
      compareText(a.file, b.file) || compareText(a.pointer, b.pointer) || compareText(a.code, b.code) || compareText(a.message, b.message),
  );
}

/** Code-unit order, independent of the locale the CLI runs in. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
