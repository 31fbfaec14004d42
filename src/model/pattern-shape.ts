/**
 * The shape of a field pattern (a JavaScript regular-expression source, compiled without flags), read
 * once by a small tokenizer that follows the language's own reading of the source:
 * - a `]` right after `[` or `[^` closes the class (`[]` matches nothing, `[^]` anything);
 * - a `{` starts a count only as `{digits}`, `{digits,}` or `{digits,digits}`, with any number of
 *   digits; any other `{` is a literal character.
 *
 * The shape says what a pattern may cost, so that a host can decide how to run it:
 * - `refusal`: the pattern is too large to be a field's rule: longer than PATTERN_MAX_LENGTH, or a
 *   count, or counts nested in one another multiplied, above PATTERN_MAX_COUNT. Such a pattern is a
 *   definition error. It bounds how long V8 compiles it, and how much work it does between two
 *   backtracks (V8 can stop a running pattern only when it backtracks).
 * - `linear`: one try of the pattern at any text costs at most `expanded` steps per character: it
 *   starts with `^` (without flags it can match at offset 0 only), has no top-level `|`, no
 *   backreference, lookaround or named group, no quantifier on a group, and at most one place that
 *   makes a choice (one `?`, `*`, `+`, `{n,}` or `{n,m}` with n < m, or one group with alternatives).
 *   With one choice point there is nothing to backtrack into but that one, so a text of n characters
 *   costs at most n tries of the rest.
 * - `expanded`: the characters the pattern checks in one pass with no choice: every atom's count
 *   (its largest, or its least for an open count) added up, alternatives and all.
 */

export const PATTERN_MAX_LENGTH = 500;
export const PATTERN_MAX_COUNT = 1000;

export interface PatternShape {
  refusal?: string;
  linear: boolean;
  expanded: number;
}

interface Count {
  min: number;
  max: number;
  end: number;
}

/** The count starting at `at` (a `{`), or undefined when that brace is a literal. */
function countAt(source: string, at: number): Count | undefined {
  let i = at + 1;
  const digits = (): string => {
    const start = i;
    while (i < source.length && source[i]! >= '0' && source[i]! <= '9') i++;
    return source.slice(start, i);
  };
  const min = digits();
  if (min === '') return undefined;
  let max = min;
  if (source[i] === ',') {
    i++;
    max = digits();
    if (max === '') max = 'open';
  }
  if (source[i] !== '}') return undefined;
  return { min: Number(min), max: max === 'open' ? Number.POSITIVE_INFINITY : Number(max), end: i + 1 };
}

interface Frame {
  /** The largest product of counts nested in this group so far. */
  product: number;
  alternatives: boolean;
}

export function patternShape(source: string): PatternShape {
  if (source.length > PATTERN_MAX_LENGTH) {
    return { refusal: `longer than ${PATTERN_MAX_LENGTH} characters`, linear: false, expanded: Number.POSITIVE_INFINITY };
  }
  let linear = source.startsWith('^');
  let choices = 0;
  let expanded = 0;
  const frames: Frame[] = [{ product: 1, alternatives: false }];
  /** The product of what the last atom or group repeats, before its own count. */
  let last: number | undefined;
  let lastIsGroup = false;
  let i = 0;
  const tooMany = (n: number) => n > PATTERN_MAX_COUNT;
  const refused = (refusal: string): PatternShape => ({ refusal, linear: false, expanded: Number.POSITIVE_INFINITY });
  const atom = () => {
    last = 1;
    lastIsGroup = false;
    expanded += 1;
  };
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1];
      if (next === undefined) return refused('ends with a lone backslash');
      // \1…\9 and \k<name> refer back to a group.
      if ((next >= '1' && next <= '9') || next === 'k') linear = false;
      i += 2;
      atom();
      continue;
    }
    if (c === '[') {
      let j = i + 1;
      if (source[j] === '^') j++;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      if (j >= source.length) return refused('has a character class that is not closed');
      i = j + 1;
      atom();
      continue;
    }
    if (c === '(') {
      if (source[i + 1] === '?') {
        // Only a plain non-capturing group is in the linear shape; lookarounds and named groups are not.
        if (source[i + 2] !== ':') linear = false;
        i += source[i + 2] === '<' && (source[i + 3] === '=' || source[i + 3] === '!') ? 4 : 3;
      } else i += 1;
      frames.push({ product: 1, alternatives: false });
      last = undefined;
      continue;
    }
    if (c === ')') {
      const frame = frames.pop();
      if (!frame || frames.length === 0) return refused('closes a group it did not open');
      if (frame.alternatives) choices++;
      const parent = frames[frames.length - 1]!;
      parent.product = Math.max(parent.product, frame.product);
      last = frame.product;
      lastIsGroup = true;
      i += 1;
      continue;
    }
    if (c === '|') {
      if (frames.length === 1) linear = false;
      frames[frames.length - 1]!.alternatives = true;
      last = undefined;
      i += 1;
      continue;
    }
    let count: Count | undefined;
    if (c === '*') count = { min: 0, max: Number.POSITIVE_INFINITY, end: i + 1 };
    else if (c === '+') count = { min: 1, max: Number.POSITIVE_INFINITY, end: i + 1 };
    else if (c === '?') count = { min: 0, max: 1, end: i + 1 };
    else if (c === '{') count = countAt(source, i);
    if (count) {
      if (tooMany(count.min) || (count.max !== Number.POSITIVE_INFINITY && tooMany(count.max))) {
        return refused(`repeats something more than ${PATTERN_MAX_COUNT} times`);
      }
      if (last !== undefined) {
        const bounded = count.max === Number.POSITIVE_INFINITY ? Math.max(count.min, 1) : count.max;
        const product = last * bounded;
        if (tooMany(product)) return refused(`nests counts that multiply to more than ${PATTERN_MAX_COUNT}`);
        const frame = frames[frames.length - 1]!;
        frame.product = Math.max(frame.product, product);
        if (lastIsGroup) linear = false;
        else expanded += bounded - 1;
      }
      if (count.min !== count.max) choices++;
      i = count.end;
      // A lazy mark changes the order of tries, not their number.
      if (source[i] === '?') i += 1;
      last = undefined;
      continue;
    }
    i += 1;
    if (c === '^' || c === '$') last = undefined;
    else atom();
  }
  if (frames.length !== 1) return refused('leaves a group open');
  return { linear: linear && choices <= 1, expanded: Math.max(expanded, 1) };
}
