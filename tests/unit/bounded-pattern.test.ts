import fc from 'fast-check';
import { checkSync } from 'recheck';
import { describe, expect, it, vi } from 'vitest';
import {
  type BoundedPatternOptions,
  boundedPatterns,
  LINEAR_STEPS,
  plainlyLinear,
  WORKER_TEXT_MAX,
} from '../../server/lib/bounded-pattern.js';
import { PATTERN_TEXT_MAX, patternShape, rules } from '../../src/model/index.js';

const SEEDED = [
  '^CK\\d{12}$',
  '^HT\\d{4}-\\d{4}$',
  '^[京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼][A-Z][A-HJ-NP-Z0-9]{4,5}[A-HJ-NP-Z0-9挂学警港澳]$',
  '^\\d{3}-\\d{3}-\\d{2}$',
  '^XK',
  '^(男|女)$',
  '^1[3-9]\\d{9}$',
  '^[\\u4e00-\\u9fa5]{2,50}$',
  '^\\d+$',
];

const OUTSIDE = [
  '^(a+)+$',
  '^(a|a)*$',
  '(a)\\1',
  '^(?=a)a',
  '^(?<x>a)',
  '\\d+$',
  '^a|b',
  '^\\s*\\s*x$',
  '^\\d+\\d+x',
  '^[\\w.-]+@[\\w-]+\\.[a-z]{2,}$',
  '^(a|b)(c|d)',
  '^(a|b+)',
  '^a{1,5000}',
  '^(?:ab)?',
  '^[abc',
  '^(a',
  '^a)',
  // The first ] after [ or [^ closes the class: what follows is read, not hidden in it.
  '^[^](?:a+)+]',
  '^[]|(?:a+)+b]',
  // A count of any number of digits is a count.
  '^a*a{0,10000}b',
];

/** Patterns the definition refuses, each with why: their cost cannot be bounded. */
const REFUSED: [string, RegExp][] = [
  ['^a*a{0,10000}b', /more than 1000 times/],
  ['^a{0,10000}a{0,10000}a{0,10000}b', /more than 1000 times/],
  [`^${'.{1000}'.repeat(100)}`, /longer than 500/],
  [`^${'a{1000}'.repeat(14000)}`, /longer than 500/],
  ['^(?:(?=[^]{990000})[^]){1000}', /more than 1000 times/],
  ['^(?:(?=[^]{1000})[^]){1000}', /multiply to more than 1000/],
  ['(?:(?:a{100}){100}){100}', /multiply to more than 1000/],
  ['(?:(?:(?:(?=[^]{10})){10}){10}){2}', /multiply to more than 1000/],
];

describe('plainlyLinear', () => {
  it('takes the shapes definitions use and leaves out every one that can backtrack', () => {
    for (const p of SEEDED) expect(plainlyLinear(p), p).toBe(true);
    for (const p of OUTSIDE) expect(plainlyLinear(p), p).toBe(false);
  });

  it('refuses patterns too large to bound, and reads the rest to the end', () => {
    for (const [p, why] of REFUSED) expect(patternShape(p).refusal, p.slice(0, 40)).toMatch(why);
    expect(patternShape('^(?:a{10}){100}').refusal).toBeUndefined();
    expect(patternShape('^CK\\d{12}$')).toEqual({ linear: true, expanded: 14 });
    expect(patternShape('^[]a*').linear).toBe(true);
    expect(patternShape('^a{01000}a*')).toEqual({ linear: true, expanded: 1001 });
    // Tokenizing is linear in the pattern's length, whatever it holds.
    for (const piece of ['a{', '[', '\\', '(', '|', 'a{1,', '(?:']) patternShape(piece.repeat(100_000));
  });

  it('takes only patterns recheck proves safe', () => {
    // Pieces that combine into patterns with one or more choice points, groups and alternatives.
    const atom = fc.constantFrom('a', 'b', '\\d', '\\s', '.', '[ab]', '[^a]', '\\w', 'x', '\\(', '{', '\\\\');
    const quant = fc.constantFrom('', '', '', '*', '+', '?', '{2}', '{1,3}', '{2,}', '*?');
    const piece: fc.Arbitrary<string> = fc.letrec<{ piece: string }>((tie) => ({
      piece: fc.oneof(
        { weight: 5, arbitrary: fc.tuple(atom, quant).map(([a, q]) => a + q) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(
              fc.array(tie('piece'), { minLength: 1, maxLength: 3 }),
              fc.constantFrom('|', ''),
              fc.array(tie('piece'), { maxLength: 2 }),
              quant,
            )
            .map(([l, bar, r, q]) => `(${l.join('')}${bar}${r.join('')})${q}`),
        },
      ),
    })).piece;
    const pattern = fc
      .tuple(fc.constantFrom('^', '^', ''), fc.array(piece, { minLength: 1, maxLength: 6 }), fc.constantFrom('$', ''))
      .map(([s, ps, e]) => s + ps.join('') + e);
    let taken = 0;
    fc.assert(
      fc.property(pattern, (p) => {
        if (!plainlyLinear(p)) return;
        taken++;
        const r = checkSync(p, '', { timeout: 10_000 });
        expect(r.status, `${p}: ${r.status === 'vulnerable' ? r.attack.pattern : ''}`).toBe('safe');
      }),
      { numRuns: 300, seed: 20261130 },
    );
    // The generator reaches the shape often enough for the property to mean something.
    expect(taken).toBeGreaterThan(60);
  }, 120_000);
});

/** A tester whose stopped patterns are kept, with a promise for the nth stop (an event, not a wait for time). */
function watched(options: Omit<BoundedPatternOptions, 'onStopped'>) {
  const stops: { pattern: string; why: string }[] = [];
  const waiting: { n: number; resolve: () => void }[] = [];
  const tester = boundedPatterns({
    ...options,
    onStopped: (pattern, why) => {
      stops.push({ pattern, why });
      for (const w of waiting.filter((x) => stops.length >= x.n)) w.resolve();
    },
  });
  const stopped = (n: number) =>
    new Promise<void>((resolve) => {
      if (stops.length >= n) resolve();
      else waiting.push({ n, resolve });
    });
  return { tester, stops, stopped };
}

describe('boundedPatterns', () => {
  it('answers as the pattern does, on the server thread and on the worker', async () => {
    const test = boundedPatterns({ limitMs: 2_000 });
    await test.ready();
    for (const [p, text] of [
      ['^CK\\d{12}$', 'CK123456789012'],
      ['^CK\\d{12}$', 'CK12345'],
      ['^[\\w.-]+@[\\w-]+\\.[a-z]{2,}$', 'a.b@c-d.cn'],
      ['^[\\w.-]+@[\\w-]+\\.[a-z]{2,}$', 'a.b@c'],
      ['XK', 'ABXK'],
      ['^[京津沪][A-Z]', '沪A'],
      ['😀$', 'x😀'],
      // Lone surrogates reach the worker as they are.
      ['^(?:x|y)*\uD800', 'xy\uD800'],
      ['^(?:x|y)*\uFFFD', 'xy\uD800'],
    ] as const) {
      expect(test(p)?.(text), `${p} ${text}`).toBe(new RegExp(p).test(text));
    }
    expect(test('(')).toBeUndefined();
    expect(test('a{2,1}')).toBeUndefined();
  });

  it('refuses a value that outlives the wait as busy, then stops its pattern for good once the worker is judged', async () => {
    const { tester: testerOf, stops, stopped } = watched({ limitMs: 50 });
    await testerOf.ready();
    const test = testerOf('^(a+)+$');
    // Without the limit this takes 2^40 steps.
    expect(test?.(`${'a'.repeat(40)}!`)).toBe('busy');
    // While the worker is judged, values of the pattern wait with it.
    expect(test?.('aaa')).toBe('busy');
    await stopped(1);
    expect(stops).toEqual([{ pattern: '^(a+)+$', why: 'timeout' }]);
    expect(test?.('aaa')).toBe('timeout');
    expect(testerOf('^(a+)+$')?.('aaa')).toBe('timeout');
    // Other patterns go on as before, on a new worker.
    await testerOf.ready();
    expect(testerOf('^(b+)+$')?.('bbb')).toBe(true);
    const quadratic = testerOf('\\d+\\d+x');
    expect(quadratic?.('1'.repeat(200))).toBe(false);
    // A pattern outside the linear shape is not run on a longer text.
    expect(quadratic?.('1'.repeat(PATTERN_TEXT_MAX + 1))).toBe('too long');
    expect(testerOf('^(?:(?=[^]{999})[^])*$')?.('a'.repeat(1e6))).toBe('too long');
  });

  it('leaves work V8 cannot interrupt to the worker, and stops a pattern whose test throws', async () => {
    const { tester: testerOf, stops, stopped } = watched({ limitMs: 50 });
    // Lookaheads that walk the text once per step of a count: about a second of forward work each,
    // never a backtrack, so V8 cannot stop them; the server's thread leaves them after 50 ms.
    const forward = (n: number) => `(?=(?:[^](?:${'(?=a*$)'.repeat(n)}b??){1000})+)`;
    expect(patternShape(forward(5)).refusal).toBeUndefined();
    await testerOf.ready();
    expect(testerOf(forward(4))?.('a'.repeat(1000))).toBe('busy');
    await testerOf.ready();
    expect(testerOf(forward(5))?.('a'.repeat(1000))).toBe('busy');
    // While two left workers may still be running, what needs a worker is refused as busy;
    // what the server's thread answers goes on.
    expect(testerOf('^[\\w.-]+@[\\w-]+\\.[a-z]{2,}$')?.('a.b@c-d.cn')).toBe('busy');
    expect(testerOf('^CK\\d{12}$')?.('CK123456789012')).toBe(true);
    await stopped(2);
    expect(stops.map((x) => x.why)).toEqual(['timeout', 'timeout']);

    // V8's backtrack stack overflows (or, cold, the test outlives the wait): the pattern is stopped.
    const deep = watched({ limitMs: 50 });
    await deep.tester.ready();
    const test = deep.tester('(?=(?:[^](?:b*?c*?d*?e*?f*?g*?h*?i*?){1000})+)');
    expect(['busy', 'timeout']).toContain(test?.('a'.repeat(1000)));
    await deep.stopped(1);
    expect(test?.('a')).toBe('timeout');
  }, 60_000);

  it('stops a pattern whose tests keep outliving the wait, even when each is quick by the worker’s clock', async () => {
    // Each test outlives the wait (cubic in the text: 10–40 ms on 500 characters) and none is long by
    // the worker's clock.
    const { tester, stops } = watched({ limitMs: 5, stopMs: 60_000 });
    const test = tester('a*a*b');
    for (let i = 0; i < 3 && stops.length === 0; i++) {
      await tester.ready();
      expect(test?.('a'.repeat(500))).toBe('busy');
      // Until its worker is judged, the pattern's values wait; then they run again, or it is stopped.
      await vi.waitFor(() => expect(test?.('b')).not.toBe('busy'), { timeout: 10_000, interval: 20 });
    }
    expect(stops).toHaveLength(1);
    expect(test?.('b')).toBe('timeout');
  }, 60_000);

  it('runs a linear-shaped pattern on the server thread up to its steps, and on the worker beyond them', async () => {
    // The worker's test below takes about 0.2 s on a fast machine; a pattern is stopped once its test
    // takes 4 times the wait by the worker's clock, so the wait is short enough to stop it on any machine.
    const { tester: testerOf, stops, stopped } = watched({ limitMs: 10 });
    await testerOf.ready();
    const test = testerOf('^.*a{1000}b');
    expect(patternShape('^.*a{1000}b')).toEqual({ linear: true, expanded: 1002 });
    expect(test?.('a'.repeat(Math.floor(LINEAR_STEPS / 1002)))).toBe(false);
    expect(test?.('a'.repeat(WORKER_TEXT_MAX))).toBe('busy');
    await stopped(1);
    expect(stops.map((x) => x.pattern)).toEqual(['^.*a{1000}b']);
    // A long text on a pattern of one step a character goes to the worker and is answered there
    // (with a wait long enough for a machine busy with other tests).
    const roomy = boundedPatterns({ limitMs: 10_000 });
    await roomy.ready();
    expect(patternShape('^x{10}[^<>]*$').expanded).toBe(11);
    expect(roomy('^x{10}[^<>]*$')?.('x'.repeat(50_000))).toBe(true);
    expect(roomy('^x{10}[^<>]*$')?.(`${'x'.repeat(50_000)}<`)).toBe(false);
    // No pattern is tested on a text longer than the worker takes.
    expect(roomy('^[^<>]*$')?.('x'.repeat(WORKER_TEXT_MAX + 1))).toBe('too long');
  });

  it('refuses values as busy once a pattern, or all of them, have spent their minute, and runs them again after it', () => {
    // A clock that moves 3 ms at every reading: each test on the server thread costs 3 ms.
    let clock = 0;
    const now = () => {
      clock += 3;
      return clock;
    };
    const testerOf = boundedPatterns({ perPatternBudgetMs: 5, allPatternsBudgetMs: 8, now });
    const one = testerOf('^a*$');
    const two = testerOf('^b*$');
    expect(one?.('aa')).toBe(true);
    expect(one?.('aa')).toBe(true);
    expect(one?.('aa')).toBe('busy');
    expect(two?.('bb')).toBe(true);
    expect(two?.('bb')).toBe('busy');
    clock += 60_000;
    expect(one?.('aa')).toBe(true);
    expect(two?.('b')).toBe(true);
  });

  it('refuses values as busy once one turn of the event loop has spent its time, and runs them at the next', async () => {
    let clock = 0;
    const now = () => {
      clock += 3;
      return clock;
    };
    const test = boundedPatterns({ turnBudgetMs: 5, now })('^a*$');
    expect(test?.('a')).toBe(true);
    expect(test?.('a')).toBe(true);
    expect(test?.('a')).toBe('busy');
    await new Promise((resolve) => setImmediate(resolve));
    expect(test?.('a')).toBe(true);
  });

  it('gives the form schema a message naming the field for each refusal', async () => {
    const messages = (pattern: string, text: string, tester = boundedPatterns({ limitMs: 50 })) =>
      rules
        .text({ label: '编号', pattern }, tester)
        .safeParse(text)
        .error?.issues.map((i) => i.message);
    const slow = watched({ limitMs: 50 });
    await slow.tester.ready();
    expect(messages('^(a+)+$', `${'a'.repeat(40)}!`, slow.tester)).toEqual(['编号暂时无法按格式规则校验，请稍后重试']);
    await slow.stopped(1);
    expect(messages('^(a+)+$', 'aaa', slow.tester)).toEqual(['编号的格式规则过于复杂，无法校验，请联系管理员']);
    expect(messages('\\d+\\d+x', '1'.repeat(PATTERN_TEXT_MAX + 1))).toEqual(['编号过长，无法按格式规则校验']);
    const spent = boundedPatterns({ limitMs: 1_000, perPatternBudgetMs: 0 });
    expect(messages('^(?:a|b)*c', 'abc', spent)).toEqual(['编号暂时无法按格式规则校验，请稍后重试']);
  });
});
