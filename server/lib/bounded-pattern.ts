import vm from 'node:vm';
import { PATTERN_TEXT_MAX, type PatternTester, patternShape } from '../../src/model/index.js';

/**
 * A field's `pattern` is written by whoever designs the page and tested against what any user submits
 * or imports. V8 runs it by backtracking, so a pattern like `^(a+)+$` or `\d+\d+x` takes seconds or
 * years on a long or crafted value, and would hold the server's only thread meanwhile.
 *
 * So the server tests a pattern by its shape (`patternShape`; a definition whose pattern is too large
 * to bound is refused before it gets here):
 * - a pattern in the linear shape runs as it is, while the text's length times its expanded size
 *   stays within LINEAR_STEPS, and otherwise under the time limit;
 * - any other runs under the time limit, which V8 enforces when the pattern backtracks, on a text of
 *   at most LIMITED_TEXT_MAX characters; a longer text is refused without running it.
 * A pattern that once runs out of time is not run again by this process: every later value is
 * refused at once with a message naming the field, and the server logs it once, so one bad
 * definition costs one limit.
 */

/** How long one test of a pattern may run when it is not run as it is. */
export const PATTERN_TIME_LIMIT_MS = 50;

/**
 * Steps a linear-shaped pattern may take run as it is: the text's length times the pattern's
 * expanded size (V8 takes about 4 ns a step, so about 16 ms). A longer text runs under the limit.
 */
export const LINEAR_STEPS = 4_000_000;

/**
 * Longest text a pattern outside the linear shape is tested on. V8 stops a pattern only when it
 * backtracks; between two backtracks it may walk the text once per step of the pattern's largest
 * count (at most PATTERN_MAX_COUNT), so the time limit holds only for a text this short.
 */
export const LIMITED_TEXT_MAX: number = PATTERN_TEXT_MAX;

/** True when the pattern may run as it is on a text of any length the steps allow (see `patternShape`). */
export function plainlyLinear(source: string): boolean {
  const shape = patternShape(source);
  return shape.refusal === undefined && shape.linear;
}

const script = new vm.Script('re.test(text)', { filename: 'field-pattern' });

/**
 * The server's pattern tester: `undefined` for a pattern that does not compile (the normaliser reports
 * it as E_PATTERN), otherwise a test answering true, false, 'timeout' or 'too long'.
 */
export function boundedPatterns(limitMs: number = PATTERN_TIME_LIMIT_MS, onTimeout?: (pattern: string) => void): PatternTester {
  const outOfTime = new Set<string>();
  const sandbox: { re: RegExp | null; text: string } = { re: null, text: '' };
  const context = vm.createContext(sandbox);
  const limited = (re: RegExp, pattern: string, text: string): boolean | 'timeout' => {
    if (outOfTime.has(pattern)) return 'timeout';
    sandbox.re = re;
    sandbox.text = text;
    try {
      return script.runInContext(context, { timeout: limitMs }) === true;
    } catch (e) {
      if ((e as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw e;
      outOfTime.add(pattern);
      onTimeout?.(pattern);
      return 'timeout';
    } finally {
      sandbox.re = null;
      sandbox.text = '';
    }
  };
  return (pattern) => {
    const shape = patternShape(pattern);
    let re: RegExp;
    try {
      re = new RegExp(pattern);
      // V8 compiles at the first test; a pattern it cannot compile (its stack runs out) is one that does not compile.
      if (shape.refusal === undefined) re.test('');
    } catch {
      return undefined;
    }
    // Too large to be a field's rule: the normaliser refuses it, and one stored before that rule is never run.
    if (shape.refusal !== undefined) return () => 'timeout';
    return (text) => {
      if (shape.linear && text.length * shape.expanded <= LINEAR_STEPS) return re.test(text);
      if (!shape.linear && text.length > LIMITED_TEXT_MAX) return 'too long';
      return limited(re, pattern, text);
    };
  };
}

/** The tester every form schema of this server process uses. */
export const serverPatterns: PatternTester = boundedPatterns(PATTERN_TIME_LIMIT_MS, (pattern) =>
  console.warn(
    `field pattern ran out of its ${PATTERN_TIME_LIMIT_MS} ms and is no longer run; values are refused until it is changed: ${JSON.stringify(pattern.slice(0, 200))}`,
  ),
);
