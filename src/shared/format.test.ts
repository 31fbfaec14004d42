import { describe, expect, it } from 'vitest';
import {
  DATE_PATTERN,
  ellipsis,
  formatBytes,
  formatCost,
  formatCurrency,
  formatDate,
  formatMoney,
  formatRelativeTime,
  formatTime,
  NOT_A_NUMBER,
  roundTo,
  TIME_PATTERN,
  toEpochMs,
} from './format.js';

describe('formatRelativeTime', () => {
  const now = new Date(2026, 10, 21, 12, 0, 0).getTime();
  const ago = (ms: number) => now - ms;

  it('says 刚刚 under 30 seconds, and for a moment in the future', () => {
    expect(formatRelativeTime(ago(0), now)).toBe('刚刚');
    expect(formatRelativeTime(ago(29_999), now)).toBe('刚刚');
    expect(formatRelativeTime(now + 60_000, now)).toBe('刚刚');
  });

  it('counts minutes under an hour and hours under a day, rounded up', () => {
    expect(formatRelativeTime(ago(30_000), now)).toBe('1分钟前');
    expect(formatRelativeTime(ago(61_000), now)).toBe('2分钟前');
    expect(formatRelativeTime(ago(59 * 60_000), now)).toBe('59分钟前');
    expect(formatRelativeTime(ago(3_600_000), now)).toBe('1小时前');
    expect(formatRelativeTime(ago(3_600_001), now)).toBe('2小时前');
    expect(formatRelativeTime(ago(23.5 * 3_600_000), now)).toBe('24小时前');
  });

  it('says 1天前 from 24 up to 48 hours, then shows the date', () => {
    expect(formatRelativeTime(ago(24 * 3_600_000), now)).toBe('1天前');
    expect(formatRelativeTime(ago(48 * 3_600_000 - 1), now)).toBe('1天前');
    expect(formatRelativeTime(ago(48 * 3_600_000), now)).toBe('11月19日12时0分');
    expect(formatRelativeTime(ago(72 * 3_600_000), now, 'YYYY-MM-DD')).toBe('2026-11-18');
  });

  it('reads Dates, seconds, milliseconds and local date text alike', () => {
    const t = new Date(2026, 10, 21, 11, 50, 0);
    expect(formatRelativeTime(t, now)).toBe('10分钟前');
    expect(formatRelativeTime(t.getTime(), now)).toBe('10分钟前');
    expect(formatRelativeTime(Math.floor(t.getTime() / 1000), now)).toBe('10分钟前');
    expect(formatRelativeTime('2026-11-21 11:50:00', now)).toBe('10分钟前');
    expect(formatRelativeTime('not a time', now)).toBe('');
    expect(formatRelativeTime(null, now)).toBe('');
  });
});

describe('money', () => {
  it.each([
    [0, '0.00'],
    [999, '999.00'],
    [1000, '1,000.00'],
    [1234567.891, '1,234,567.89'],
    [-1234567.5, '-1,234,567.50'],
    ['98765.4', '98,765.40'],
  ])('groups thousands and keeps 2 decimals: %j → %s', (value, text) => {
    expect(formatMoney(value)).toBe(text);
  });

  it('rounds half away from zero on the decimal value', () => {
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(-1.005, 2)).toBe(-1.01);
    expect(formatMoney(1.005)).toBe('1.01');
    expect(formatMoney(0.0005, 3)).toBe('0.001');
    expect(formatMoney(-0.001)).toBe('0.00');
  });

  it('shows cost figures with 3 decimals', () => {
    expect(formatCost(1234.5)).toBe('1,234.500');
    expect(formatCost(2_000_000.0005)).toBe('2,000,000.001');
  });

  it('answers - for what is not a number', () => {
    for (const v of [null, undefined, '', 'abc', Number.NaN, Number.POSITIVE_INFINITY, {}]) expect(formatMoney(v)).toBe(NOT_A_NUMBER);
  });
});

describe('formatCurrency (the value is in cents)', () => {
  it('shows yuan with 2 decimals', () => {
    expect(formatCurrency(123456)).toBe('¥1,234.56');
    expect(formatCurrency(5)).toBe('¥0.05');
    expect(formatCurrency(-99999)).toBe('-¥999.99');
    expect(formatCurrency(100000000, '')).toBe('1,000,000.00');
    expect(formatCurrency(null)).toBe(NOT_A_NUMBER);
  });
});

describe('formatBytes (base 1000)', () => {
  it.each([
    [0, undefined, '0 B'],
    [999, undefined, '999 B'],
    [1000, undefined, '1 KB'],
    [1024, undefined, '1.02 KB'],
    [1500, undefined, '1.5 KB'],
    [2_350_000, undefined, '2.35 MB'],
    [5e9, 1, '5 GB'],
  ])('steps by 1000, not 1024: %d (%j decimals) → %s', (bytes, decimals, text) => {
    expect(formatBytes(bytes, decimals)).toBe(text);
  });

  it('carries a rounded 1000 into the next unit', () => {
    expect(formatBytes(999_999)).toBe('1 MB');
  });
});

describe('ellipsis', () => {
  it('cuts at 25 characters by default and counts characters, not UTF-16 units', () => {
    const long = '江苏省危险废物综合服务平台关于二〇二六年度危废管理计划备案的通知';
    expect(ellipsis(long)).toBe(`${Array.from(long).slice(0, 25).join('')}...`);
    expect(ellipsis('a'.repeat(25))).toBe('a'.repeat(25));
    expect(ellipsis('😀'.repeat(30), 3)).toBe('😀😀😀...');
    expect(ellipsis(null)).toBe('');
  });
});

describe('dates', () => {
  it('formats local dates with the usual tokens', () => {
    const t = new Date(2026, 0, 5, 9, 7, 3);
    // The default of a date is the date alone (YYYY-MM-DD); of a time, to the minute (YYYY-MM-DD HH:mm).
    expect(formatDate(t)).toBe('2026-01-05');
    expect(formatTime(t)).toBe('2026-01-05 09:07');
    expect([DATE_PATTERN, TIME_PATTERN]).toEqual(['YYYY-MM-DD', 'YYYY-MM-DD HH:mm']);
    expect(formatDate(t, 'YYYY-MM-DD HH:mm:ss')).toBe('2026-01-05 09:07:03');
    expect(toEpochMs('2026-01-05')).toBe(new Date(2026, 0, 5).getTime());
    expect(formatDate(undefined)).toBe('');
  });
});
