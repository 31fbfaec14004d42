/**
 * Date and time values of records, read alike by the form's schema and the reference server.
 * Accepted: 'YYYY-MM-DD', 'YYYY-MM-DD HH:mm', 'YYYY-MM-DD HH:mm:ss' (also with T between, and
 * fractions of a second), and epoch milliseconds. The date must exist: 2026-02-30 and 0000-01-01 do not.
 */

/** The dayjs format of a datetime field that names none, and the format date-times travel in. */
export const DEFAULT_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** The dayjs format of a date alone. */
export const DATE_FORMAT = 'YYYY-MM-DD';

/** Whether a dayjs format shows hours (else a date picker shows no time); no format means the default, which does. */
export const hasTimeOfDay = (format: string | undefined): boolean => /[Hh]/.test(format ?? DEFAULT_TIME_FORMAT);

const DATE_TIME = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;

const pad = (n: number) => String(n).padStart(2, '0');

/** 'YYYY-MM-DD HH:mm:ss' (midnight for a date alone, or always with `dateOnly`), or null when not a real date. */
export function normalizeDateTime(v: unknown, dateOnly = false): string | null {
  let s: string;
  if (typeof v === 'number' && Number.isFinite(v)) {
    const d = new Date(v);
    s = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  } else if (typeof v === 'string') s = v.trim();
  else return null;
  const m = DATE_TIME.exec(s);
  if (!m) return null;
  const [y, mo, d, h = 0, mi = 0, se = 0] = m.slice(1).map((x) => (x === undefined ? undefined : Number(x))) as number[];
  // Year 0 is no year to the database (1 BC precedes AD 1).
  if ((y as number) < 1) return null;
  const date = new Date(Date.UTC(y as number, (mo as number) - 1, d));
  if (date.getUTCMonth() !== (mo as number) - 1 || date.getUTCDate() !== d || h > 23 || mi > 59 || se > 59) return null;
  const day = `${String(y).padStart(4, '0')}-${pad(mo as number)}-${pad(d as number)}`;
  return dateOnly ? `${day} 00:00:00` : `${day} ${pad(h)}:${pad(mi)}:${pad(se)}`;
}

/** A date alone ('2026-01-05'), which a range end reads as the whole day. */
export const isDateOnlyText = (v: string): boolean => /^\d{4}-\d{1,2}-\d{1,2}$/.test(v.trim());
