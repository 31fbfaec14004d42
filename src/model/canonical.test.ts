import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, sortKeysDeep } from './canonical.js';

describe('canonicalJson', () => {
  it('writes the same text as stringifying the sorted copy, for every kind of JSON value', () => {
    const samples: unknown[] = [
      null,
      true,
      0,
      -1.5e-7,
      '引号 " 和 \\ 与 \u2028',
      [],
      {},
      [1, 'a', null, [{ b: 2, a: 1 }], {}],
      {
        z: 1,
        a: { y: [3, { d: null, c: '中' }], b: true },
        A: 'upper',
        _: [],
        '': 'empty key',
        10: 'digit',
        2: 'two',
        '01': 'not an index',
        4294967295: 'too big',
      },
      JSON.parse('{"__proto__": {"x": 1}, "b": [true, false]}'),
      { skipped: undefined, kept: 1, list: [undefined, 2] },
    ];
    for (const value of samples) expect(canonicalJson(value)).toBe(JSON.stringify(sortKeysDeep(value)));
    // The same values with their keys already in order, as a pulled definition has them.
    for (const value of samples) {
      const sorted = JSON.parse(JSON.stringify(sortKeysDeep(value)));
      expect(canonicalJson(sorted)).toBe(JSON.stringify(sortKeysDeep(value)));
    }
  });

  it('gives the sorted copy’s text for any JSON, its keys in any order or already sorted', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const want = JSON.stringify(sortKeysDeep(value));
        expect(canonicalJson(value)).toBe(want);
        expect(canonicalJson(JSON.parse(want))).toBe(want);
      }),
      { numRuns: 500 },
    );
  });

  it('falls back to the general path for values JSON.parse never gives', () => {
    const date = new Date(Date.UTC(2026, 0, 2));
    expect(canonicalJson({ at: date })).toBe(JSON.stringify(sortKeysDeep({ at: date })));
    expect(canonicalJson({ n: Number.NaN })).toBe('{"n":null}');
    expect(canonicalJson({ b: 1, a: 2 }, 2)).toBe('{\n  "a": 2,\n  "b": 1\n}');
  });
});
