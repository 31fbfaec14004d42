/**
 * Display formatting shared by the app and the server: relative times, money, the cents currency
 * filter, byte sizes and ellipsis. Pure functions; "now" is a parameter wherever time matters.
 * A value that is not a number (null, undefined, '', NaN, text) formats as NOT_A_NUMBER.
 */

export const NOT_A_NUMBER = '-';

/**
 * Money shows 2 decimals: amounts, freight, prepayments, contract and payment totals, wherever they
 * are shown (lists, details, dashboards). Cost figures show 3: the finance panel's payable, paid,
 * receivable and received, and prices per unit (元/吨). Weights in tons show 3.
 */
export const MONEY_DECIMALS = 2;
export const COST_DECIMALS = 3;
export const WEIGHT_DECIMALS = 3;
/** The ellipsis filter's default length, in characters. */
export const ELLIPSIS_LENGTH = 25;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A finite number from a number or numeric text, else null. */
export function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v !== 'string') return null;
  const t = v.trim().replaceAll(',', '');
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/**
 * Rounds half away from zero at `decimals` places, on the decimal text of the number, so that
 * 1.005 rounds to 1.01 (binary floating point holds it as 1.00499…).
 */
export function roundTo(value: number, decimals: number): number {
  const sign = value < 0 ? -1 : 1;
  const shifted = Math.round(Number(`${Math.abs(value)}e${decimals}`));
  return sign * Number(`${shifted}e-${decimals}`);
}

/** Digits grouped by three with commas: 1234567 → 1,234,567. */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, ',');
}

/** A number with thousands separators and a fixed number of decimals: formatMoney(1234567.891) → 1,234,567.89. */
export function formatMoney(value: unknown, decimals: number = MONEY_DECIMALS): string {
  const n = toNumber(value);
  if (n === null) return NOT_A_NUMBER;
  const rounded = roundTo(n, decimals);
  const [whole = '0', fraction] = Math.abs(rounded).toFixed(decimals).split('.');
  const sign = rounded < 0 ? '-' : '';
  return `${sign}${groupThousands(whole)}${fraction === undefined ? '' : `.${fraction}`}`;
}

/** Cost figures (the finance panel, prices per unit): 3 decimals, thousands separated. */
export function formatCost(value: unknown): string {
  return formatMoney(value, COST_DECIMALS);
}

/** Weights in tons: 3 decimals, thousands separated. */
export function formatWeight(value: unknown): string {
  return formatMoney(value, WEIGHT_DECIMALS);
}

/** The currency filter: the value is in cents (fen); shown in yuan with 2 decimals: 123456 → ¥1,234.56. */
export function formatCurrency(cents: unknown, symbol = '¥'): string {
  const n = toNumber(cents);
  if (n === null) return NOT_A_NUMBER;
  const text = formatMoney(roundTo(n, 0) / 100, 2);
  return text.startsWith('-') ? `-${symbol}${text.slice(1)}` : `${symbol}${text}`;
}

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB'];

/** Byte sizes in base 1000: 999 → 999 B, 1500 → 1.5 KB, 2_350_000 → 2.35 MB (at most `digits` decimals, no trailing zeros). */
export function formatBytes(bytes: unknown, digits = 2): string {
  const n = toNumber(bytes);
  if (n === null) return NOT_A_NUMBER;
  let unit = 0;
  let v = Math.abs(n);
  while (v >= 1000 && unit < BYTE_UNITS.length - 1) {
    v /= 1000;
    unit++;
  }
  // Rounding may carry into the next unit: 999,999 B is 1 MB, not 1000 KB.
  if (roundTo(v, digits) >= 1000 && unit < BYTE_UNITS.length - 1) {
    v /= 1000;
    unit++;
  }
  const shown = String(roundTo(v, unit === 0 ? 0 : digits));
  return `${n < 0 ? '-' : ''}${shown} ${BYTE_UNITS[unit]}`;
}

/** Text cut at `length` characters (not UTF-16 units) with ... appended; shorter text is unchanged. */
export function ellipsis(text: unknown, length: number = ELLIPSIS_LENGTH): string {
  if (text === null || text === undefined) return '';
  const chars = Array.from(String(text));
  return chars.length > length ? `${chars.slice(0, Math.max(0, length)).join('')}...` : chars.join('');
}

/** A moment as epoch milliseconds: a Date, milliseconds, 10-digit seconds, or date text (YYYY-MM-DD[ HH:mm[:ss]] is local time). */
export function toEpochMs(time: unknown): number | null {
  if (time instanceof Date) return Number.isFinite(time.getTime()) ? time.getTime() : null;
  if (typeof time === 'number') {
    if (!Number.isFinite(time)) return null;
    return Math.abs(time) < 1e11 ? time * 1000 : time;
  }
  if (typeof time !== 'string' || !time.trim()) return null;
  const t = time.trim();
  if (/^\d+$/.test(t)) return toEpochMs(Number(t));
  const local = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(t);
  if (local) {
    const [, y, mo, d, h = '0', mi = '0', s = '0'] = local;
    return new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)).getTime();
  }
  const parsed = Date.parse(t);
  return Number.isFinite(parsed) ? parsed : null;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The default format of a date alone, and of a date with its time. */
export const DATE_PATTERN = 'YYYY-MM-DD';
export const TIME_PATTERN = 'YYYY-MM-DD HH:mm';

/** Local date (and time) with tokens YYYY, MM, DD, HH, mm, ss; by default the date alone: formatDate(t) → 2026-01-05. */
export function formatDate(time: unknown, pattern: string = DATE_PATTERN): string {
  const ms = toEpochMs(time);
  if (ms === null) return '';
  const d = new Date(ms);
  const parts: Record<string, string> = {
    YYYY: String(d.getFullYear()),
    MM: pad(d.getMonth() + 1),
    DD: pad(d.getDate()),
    HH: pad(d.getHours()),
    mm: pad(d.getMinutes()),
    ss: pad(d.getSeconds()),
  };
  return pattern.replace(/YYYY|MM|DD|HH|mm|ss/g, (k) => parts[k] ?? k);
}

/** Local date and time, by default to the minute: formatTime(t) → 2026-01-05 09:07. */
export function formatTime(time: unknown, pattern: string = TIME_PATTERN): string {
  return formatDate(time, pattern);
}

/**
 * How long ago, in the bands the pages use: under 30 s 刚刚; under an hour N分钟前; under a day
 * N小时前 (both rounded up); under 48 hours 1天前. Older moments are shown as a date: `pattern`
 * when given, else M月D日H时m分. A moment in the future reads 刚刚.
 */
export function formatRelativeTime(time: unknown, now: number = Date.now(), pattern?: string): string {
  const ms = toEpochMs(time);
  if (ms === null) return '';
  const diff = now - ms;
  if (diff < 30 * SECOND) return '刚刚';
  if (diff < HOUR) return `${Math.ceil(diff / MINUTE)}分钟前`;
  if (diff < DAY) return `${Math.ceil(diff / HOUR)}小时前`;
  if (diff < 2 * DAY) return '1天前';
  if (pattern) return formatDate(ms, pattern);
  const d = new Date(ms);
  return `${d.getMonth() + 1}月${d.getDate()}日${d.getHours()}时${d.getMinutes()}分`;
}
