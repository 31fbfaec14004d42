/**
 * How a list cell shows a value (the column's table keys): dictionary
 * labels, tag colours by the entry's type, money with thousands separators and 2 decimals, decimals,
 * dates by timeFormat, a unit after the value. Pure.
 */
import dayjs from 'dayjs';
import type { ColumnModel } from '../../model';
import { MONEY_DECIMALS, formatMoney as sharedMoney } from '../../shared/format';
import { toneColor } from '../../shared/statuses';
import { findOption } from '../options/remote-options';
import type { LoadStatus, RemoteOption } from '../options/types';

export { MONEY_DECIMALS };

/** The part of a dictionary entry a cell needs. */
export interface DictEntryLike {
  value: string | number;
  label: string;
  type?: string | null;
}

/** Dictionary entry type (element-ui tag types) → antd Tag colour. No type is the primary blue. */
export const tagColor = toneColor;

function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.replace(/,/g, ''));
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/**
 * 1234567.5 → "1,234,567.50", by the app's one money rule (rounded half away from zero on the
 * decimal value); an empty cell stays empty and text that is not a number is returned as it is.
 */
export function formatMoney(v: unknown, decimals = MONEY_DECIMALS): string {
  const n = toNumber(v);
  if (n === undefined) return v === null || v === undefined ? '' : String(v);
  return sharedMoney(n, decimals);
}

/** A decimal column's value with its configured digits. */
export function formatDecimal(v: unknown, decimals: number | undefined): string {
  if (v === null || v === undefined) return '';
  const n = toNumber(v);
  if (n === undefined || decimals === undefined) return String(v);
  return n.toFixed(decimals);
}

export function formatDate(v: unknown, format: string | undefined): string {
  if (v === null || v === undefined || v === '') return '';
  if (!format) return String(v);
  const d = dayjs(v as string | number);
  return d.isValid() ? d.format(format) : String(v);
}

/** Text after the value; nothing is added to an empty cell. */
export function withUnit(text: string, unit: string | undefined): string {
  return unit && text !== '' ? `${text} ${unit}` : text;
}

/** The values of a cell that may hold a comma list (multiple selects). */
export function valuesOf(v: unknown): string[] {
  if (v === null || v === undefined || v === '') return [];
  if (Array.isArray(v)) return v.map(String);
  return String(v)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Each value with its dictionary entry (a value the dictionary lacks keeps its text). */
const indexes = new WeakMap<readonly DictEntryLike[], Map<string, DictEntryLike>>();

/** value → entry, built once per loaded dictionary (every cell of a column reads the same list). */
function indexOf(entries: readonly DictEntryLike[] | undefined): Map<string, DictEntryLike> {
  if (!entries) return new Map();
  let index = indexes.get(entries);
  if (!index) {
    index = new Map(entries.map((e) => [String(e.value), e]));
    indexes.set(entries, index);
  }
  return index;
}

export function dictEntriesOf(v: unknown, entries: readonly DictEntryLike[] | undefined): DictEntryLike[] {
  const byValue = indexOf(entries);
  return valuesOf(v).map((x) => byValue.get(x) ?? { value: x, label: x });
}

export function dictText(v: unknown, entries: readonly DictEntryLike[] | undefined): string {
  return dictEntriesOf(v, entries)
    .map((e) => e.label)
    .join(',');
}

/** A plain (not dictionary, not remote) cell's text. */
export function cellText(column: Pick<ColumnModel, 'dataType' | 'money' | 'decimals' | 'timeFormat' | 'unit'>, v: unknown): string {
  let text: string;
  if (column.money) text = formatMoney(v);
  else if (column.dataType === 'decimal') text = formatDecimal(v, column.decimals);
  else if (column.dataType === 'datetime') text = formatDate(v, column.timeFormat);
  else text = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return withUnit(text, column.unit);
}

/** What a remote cell shows for a value no label can be found for: a bare id means nothing to a reader. */
export const UNRESOLVED_LABEL = '—';

/**
 * A remote (sportData) cell's text: the label the row carries (`{name}Fmt`, as the server sends for
 * referenced records), else each value's option label. Nothing shows while the options load, and a
 * value the options lack (a deleted record, or one outside the user's data scope) or whose options
 * failed shows UNRESOLVED_LABEL, never the raw id. `unresolved`: some value had no label.
 */
export function remoteText(
  value: unknown,
  fmt: unknown,
  options: readonly RemoteOption[] | undefined,
  status: LoadStatus,
): { text: string; unresolved: boolean } {
  const values = valuesOf(value);
  if (!values.length) return { text: '', unresolved: false };
  if (typeof fmt === 'string' && fmt.trim() !== '') return { text: fmt, unresolved: false };
  if (!options) return status === 'failed' ? { text: UNRESOLVED_LABEL, unresolved: true } : { text: '', unresolved: false };
  let unresolved = false;
  const labels = values.map((v) => {
    const label = findOption(options, v)?.label;
    if (label !== undefined && label !== '') return label;
    unresolved = true;
    return UNRESOLVED_LABEL;
  });
  return { text: [...new Set(labels)].join(','), unresolved };
}
