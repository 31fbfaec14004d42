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
  'bell \u0007 escape \u001b[31m csi \u009b',
  '\u202eRTL\u202c isolate \u2066x\u2069 marks \u200e\u200f\u061c',
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

  it('escapes every control and bidirectional formatting character and lone surrogate as \\uXXXX, and only those; a comment drops the same', () => {
    const escaped: number[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      if (stringLiteral(ch) === `'\\u${c.toString(16).padStart(4, '0')}'`) escaped.push(c);
    }
    const expected = [
      ...range(0x00, 0x1f).filter((c) => c !== 0x09 && c !== 0x0a && c !== 0x0d),
      ...range(0x7f, 0x9f),
      0x061c,
      0x200e,
      0x200f,
      ...range(0x2028, 0x202e),
      ...range(0x2066, 0x2069),
      ...range(0xd800, 0xdfff),
    ];
    expect(escaped).toEqual(expected);
    const dropped: number[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      if (c === 0x2a) continue;
      const ch = String.fromCharCode(c);
      if (commentText(`a${ch}b`) !== `a${ch}b`) dropped.push(c);
    }
    // A comment keeps every character a literal keeps, and only those (and the line breaks and tab a literal spells out).
    expect(dropped).toEqual([...expected, 0x09, 0x0a, 0x0d].sort((a, b) => a - b));
    expect(stringLiteral('\u202eevil\u202c')).toBe("'\\u202eevil\\u202c'");
  });

  it('keeps a surrogate pair and spells a lone surrogate, so that the text survives UTF-8 as it was', () => {
    for (const s of ['lone \ud800 high', 'lone \udc00 low', 'reversed \udc00\ud800', '😀\ud83d', '\ude00😀']) {
      const printed = stringLiteral(s);
      expect(Buffer.from(printed, 'utf8').toString('utf8'), JSON.stringify(s)).toBe(printed);
      expect(new Function(`return ${printed};`)()).toBe(s);
      const comment = commentText(s);
      expect(Buffer.from(comment, 'utf8').toString('utf8')).toBe(comment);
    }
    expect(stringLiteral('😀\ud83d')).toBe("'😀\\ud83d'");
    expect(commentText('a\ud800b😀')).toBe('a\ufffdb😀');
  });

  it('keeps plain text, CJK, Hebrew and emoji as they are', () => {
    for (const s of ['危废入库（吨）', 'עברית العربية', '😀 🚛 👨\u200d👩\u200d👧', 'a b-c_d.e/f']) expect(stringLiteral(s)).toBe(`'${s}'`);
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

  it('turns control characters into a space and drops bidirectional ones', () => {
    expect(commentText('ctl\u0000\u0001\u0007\u001b[31m\u007fend')).toBe('ctl [31m end');
    expect(commentText('tab\there\u0085next\u2028line')).toBe('tab here next line');
    expect(commentText('\u202eRTL\u202c \u2066iso\u2069 \u200emark\u200f\u061c')).toBe('RTL iso mark');
    expect(commentText('  plain title  ')).toBe('plain title');
  });

  it('leaves no control, bidirectional or comment-ending character, whatever it is given', () => {
    expect(commentText('*\u202e/ and *\u0000/')).toBe('*\\/ and * /');
    const every = Array.from({ length: 0x2100 }, (_, c) => String.fromCharCode(c)).join('*/');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not be left
    expect(commentText(every)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|\*\//);
  });
});

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
