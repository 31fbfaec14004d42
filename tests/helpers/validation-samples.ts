import type { FieldModel } from '../../src/model/index.js';

/**
 * Values worth trying against a field's rules: empty, plausible, and the edges of its rules. The
 * parity tests (tests/unit/schema-parity.test.ts, engine-parity.test.ts) run two validators on each
 * and compare the verdicts.
 */
export function samplesFor(f: FieldModel): unknown[] {
  const base: unknown[] = [undefined, null, '', '  ', '   ', 'x'.repeat(1025)];
  switch (f.kind) {
    case 'long':
    case 'decimal':
      return [
        ...base,
        0,
        1,
        -1,
        1.5,
        1.2345,
        1e-7,
        1.5e-7,
        '12',
        '+5',
        '.5',
        '5.',
        '60%',
        '1e3',
        'abc',
        f.min,
        f.max,
        (f.min ?? 0) - 1,
        (f.max ?? 0) + 1,
        1e9,
        1e12,
      ];
    case 'file':
    case 'image':
      return [
        ...base,
        '[]',
        JSON.stringify([{ name: 'a.pdf', url: '/file/a.pdf' }]),
        JSON.stringify(Array.from({ length: 9 }, (_, i) => `/f/${i}.png`)),
        JSON.stringify(Array.from({ length: 12 }, (_, i) => `/f/${i}.png`)),
        'not json',
      ];
    case 'datetime':
      return [
        ...base,
        '2026-01-05 09:30:00',
        '2026-01-05 09:30',
        '2026-01-05T09:30:00.250',
        '2026-01-05',
        ' 2026-1-5 ',
        1767605400000,
        '2026-02-30',
        '2026-13-01',
        '2026-01-05 24:00:00',
        'tomorrow',
        '05/01/2026',
        true,
      ];
    default:
      return [
        ...base,
        ' padded ',
        f.defaultValue,
        'RK202601010001',
        '900-249-08',
        'abc',
        'ABC',
        '13800138000',
        '12345',
        'a@b.cn',
        '110105194912310021',
        'https://example.com/a',
        '沪A12345',
        'x'.repeat(21),
        'x'.repeat(256),
        1,
        ['1', '2'],
      ];
  }
}
