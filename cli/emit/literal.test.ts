import { describe, expect, it } from 'vitest';
import { commentText, literal, propertyKey, stringLiteral, textWidth } from './literal.js';

const HOSTILE = [
  '',
  "it's",
  'say "hi"',
  `both ' and " and '`,
  'back\\slash\\',
  'line\nbreak\r\nand\ttab',
  '<script>&amp;{}</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the text a hostile label holds
  'tick ` and ${interpolation}',
  'end */ of comment /*',
  'line sep \u2028 para sep \u2029',
  'nul \u0000 del \u007f',
  '危废入库（吨）',
  '😀 astral',
];

describe('stringLiteral', () => {
  it('round-trips every hostile text through the JavaScript parser', () => {
    for (const s of HOSTILE) expect(new Function(`return ${stringLiteral(s)};`)()).toBe(s);
  });

  it('round-trips random text', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let i = 0; i < 500; i++) {
      const s = Array.from({ length: next() % 20 }, () => String.fromCharCode(next() % 0x3000)).join('');
      expect(new Function(`return ${stringLiteral(s)};`)()).toBe(s);
    }
  });

  it("prefers single quotes unless the text holds more of them (Biome's choice)", () => {
    expect(stringLiteral('a')).toBe("'a'");
    expect(stringLiteral("it's")).toBe('"it\'s"');
    expect(stringLiteral(`'"`)).toBe(`'\\'"'`);
  });

  it('never leaves a raw line break', () => {
    for (const s of HOSTILE) expect(stringLiteral(s)).not.toMatch(/[\n\r\u2028\u2029]/);
  });
});

describe('literal', () => {
  it('prints objects and arrays that evaluate back to the value', () => {
    const value = { a: 1, 'b-c': [1, 'x', true, null], nested: { deep: [{ k: HOSTILE }] }, empty: {}, none: [] };
    expect(new Function(`return ${literal(value)};`)()).toEqual(value);
  });

  it('leaves out undefined members', () => {
    expect(literal({ a: 1, b: undefined }, 0, 0, 0, { expandDepth: 0 })).toBe('{ a: 1 }');
  });

  it('breaks what does not fit in 140 columns, counting CJK characters as two', () => {
    const short = { label: '危'.repeat(40) };
    expect(literal(short, 0, 0, 0, { expandDepth: 0 })).not.toContain('\n');
    const long = { label: '危'.repeat(70) };
    expect(literal(long, 0, 0, 0, { expandDepth: 0 })).toContain('\n');
    expect(textWidth('危a')).toBe(3);
  });

  it('keeps on one line a text longer than the line in UTF-16 units when its astral characters take one column each', () => {
    // 100 mathematical bold letters: 200 units, 100 columns.
    const astral = { label: '\u{1d400}'.repeat(100) };
    expect(literal(astral, 0, 0, 0, { expandDepth: 0 })).not.toContain('\n');
    // 100 astral CJK ideographs take two columns each.
    expect(literal({ label: '\u{20000}'.repeat(100) }, 0, 0, 0, { expandDepth: 0 })).toContain('\n');
    // Plain text one column past the line.
    expect(literal({ label: 'a'.repeat(128) }, 0, 0, 0, { expandDepth: 0 })).toContain('\n');
    expect(literal({ label: 'a'.repeat(127) }, 0, 0, 0, { expandDepth: 0 })).not.toContain('\n');
  });

  it('prints a recurring text the same each time, escaped or not', () => {
    for (let i = 0; i < 3; i++) for (const s of HOSTILE) expect(new Function(`return ${literal({ s }, 0, 0, 0)};`)()).toEqual({ s });
  });
});

describe('identifiers and comments', () => {
  it('quotes keys that are not identifiers', () => {
    expect(propertyKey('abc')).toBe('abc');
    expect(propertyKey('a-b')).toBe("'a-b'");
  });

  it('keeps comments on one line and closed', () => {
    expect(commentText('a */ b\nc')).toBe('a *\\/ b c');
  });
});
