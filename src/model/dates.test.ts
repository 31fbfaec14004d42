import { describe, expect, it } from 'vitest';
import { normalizeDateTime } from './dates.js';

describe('normalizeDateTime', () => {
  it('reads the accepted forms of a real date and time', () => {
    expect(normalizeDateTime('2028-02-29')).toBe('2028-02-29 00:00:00');
    expect(normalizeDateTime('2026-01-05 7:08')).toBe('2026-01-05 07:08:00');
    expect(normalizeDateTime('2026-01-05T23:59:59.5')).toBe('2026-01-05 23:59:59');
    expect(normalizeDateTime('0001-01-01')).toBe('0001-01-01 00:00:00');
  });

  it('refuses what the database would: no such day, time or year', () => {
    for (const v of [
      '2026-02-29',
      '2026-13-01',
      '9999-99-99 99:99:99',
      '2026-01-01 24:00',
      '2026-01-01 23:60',
      '0000-01-01',
      '0000-12-31 12:00:00',
    ])
      expect(normalizeDateTime(v), v).toBeNull();
  });
});
