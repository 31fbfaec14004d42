import {
  dateMessage,
  decimalPlaces,
  type FieldShape,
  type FormSchema,
  hiddenFields,
  NUMBER_TEXT,
  normalizeDateTime,
} from '../../src/model/index.js';
import { NUMERIC_LIMIT } from '../../src/shared/limits.js';
import { ApiError } from '../errors.js';
import { textProblem } from '../input-guard.js';
import type { ViewField, ViewModel } from './view-model.js';

/**
 * A submitted record → column values. The record is judged by the form's own schema (the page
 * model's buildSchema), so the server refuses exactly what the form refuses, with the same messages.
 * On top of it only what the table imposes: locked fields keep their stored value on update, a value
 * must fit its column (varchar 255, numeric(20,6), bigint within safe integers, text without U+0000 or lone surrogates),
 * and dates are stored normalised. Fields the form does not submit (show 4, show 3 unless a show rule makes it editable, system fields)
 * are never taken from the caller: a new record holds their default, an updated one keeps what it held.
 */

export type Row = Record<string, unknown>;

interface FieldProblem {
  field: string;
  message: string;
}

/**
 * Answered, by whichever call throws it, as 400 `{ status, code: INVALID_INPUT, message, errors: [{ field, message }] }`:
 * each field's first problem, in form order.
 */
export class RecordInvalid extends ApiError {
  constructor(readonly errors: FieldProblem[]) {
    super(400, 'INVALID_INPUT', errors[0]?.message);
    this.with({ errors });
  }
}

const VARCHAR_MAX = 255;
const NUMERIC_DECIMALS = 6;
const INTEGER_TEXT = /^\s*[-+]?\d+\s*$/;
const DATE_ONLY = 'YYYY-MM-DD';

const isEmpty = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

const numberOf = (v: unknown, text: RegExp) => (typeof v === 'number' ? v : typeof v === 'string' && text.test(v) ? Number(v) : Number.NaN);

/** A value the form accepted → what its column stores, or the reason it does not fit. */
function toColumn(f: ViewField, v: unknown): { value: unknown } | { problem: string } {
  if (v === null || v === undefined) return { value: null };
  switch (f.dataType) {
    case 'long': {
      const n = numberOf(v, INTEGER_TEXT);
      return Number.isSafeInteger(n) ? { value: n } : { problem: `${f.label}必须为整数` };
    }
    case 'decimal': {
      const n = numberOf(v, NUMBER_TEXT);
      if (!Number.isFinite(n)) return { problem: `${f.label}必须为数字` };
      if (Math.abs(n) >= NUMERIC_LIMIT) return { problem: `${f.label}超出范围` };
      if (decimalPlaces(n) > NUMERIC_DECIMALS) return { problem: `${f.label}最多保留${NUMERIC_DECIMALS}位小数` };
      return { value: n };
    }
    case 'datetime': {
      const t = normalizeDateTime(v, f.dateOnly);
      return t ? { value: t } : { problem: dateMessage(f.label, f.dateOnly ? DATE_ONLY : undefined) };
    }
    default: {
      const s = String(v);
      const long = f.form?.kind === 'textarea' || f.form?.kind === 'editor' || f.file;
      if (!long && s.length > VARCHAR_MAX) return { problem: `${f.label}长度不能超过${VARCHAR_MAX}个字符` };
      // PostgreSQL text holds neither U+0000 nor a lone surrogate (an imported cell is not checked at the door).
      return textProblem(s) ? { problem: `${f.label}含有无法保存的字符` } : { value: s };
    }
  }
}

/** A city cascader's labels (`{name}Fmt`), as one text. */
function labelsText(v: unknown): string | null {
  if (isEmpty(v)) return null;
  const text = (Array.isArray(v) ? v.join('/') : String(v)).replaceAll('\u0000', '').slice(0, VARCHAR_MAX);
  // A cut through a surrogate pair leaves half of it: String.prototype.toWellFormed (Node 20) replaces it.
  return (text as string & { toWellFormed(): string }).toWellFormed();
}

/**
 * @param input    the submitted record (keys that are not submitted fields are ignored)
 * @param existing the stored record as the wire shows it, on update: fields not sent, locked fields and
 *                 fields the form does not submit take their stored value, so that relations and
 *                 required fields are judged on the record as it will be
 * @param schema   the form's schema (the seed passes one that also writes read-only fields)
 * @returns column → value for every field written: on add all submitted fields and the defaults of the
 *          fields the form does not submit, on update those sent
 */
export function recordValues(
  view: ViewModel,
  input: Row,
  existing?: Row,
  schema: FormSchema<FieldShape> = view.schema,
  { onlyWritten = false }: { onlyWritten?: boolean } = {},
): Row {
  const shape = schema.shape;
  const names = Object.keys(shape);
  const kept = new Set<string>();
  let candidate = input;
  if (existing) {
    candidate = { ...input };
    for (const f of view.page.form.fields) {
      if (Object.hasOwn(shape, f.name) && !f.editLock && Object.hasOwn(input, f.name)) continue;
      candidate[f.name] = existing[f.name];
      kept.add(f.name);
    }
  }
  const problems = new Map<string, string>();
  const parsed = schema.safeParse(candidate);
  for (const issue of parsed.error?.issues ?? []) {
    const name = String(issue.path[0] ?? '');
    // A stored value is not judged again (it may predate a rule), unless the record now lacks it and
    // the writer may write it (`onlyWritten`: a party or recipient writing only what it owns).
    if (problems.has(name) || (kept.has(name) && (onlyWritten || !isEmpty(candidate[name])))) continue;
    problems.set(name, issue.message);
  }
  const hidden = hiddenFields(schema.relations, candidate);
  const values: Row = {};
  for (const name of names) {
    const f = view.byName.get(name);
    if (!f || f.system || kept.has(name) || hidden.has(name) || problems.has(name)) continue;
    const out = shape[name]?.safeParse(candidate[name]);
    if (!out?.success || out.data === undefined) continue;
    const column = toColumn(f, out.data);
    if ('problem' in column) problems.set(name, column.problem);
    else values[f.column] = column.value;
    const fmt = `${name}Fmt`;
    if (f.city && !view.byName.has(fmt) && (!existing || Object.hasOwn(input, fmt))) values[fmt] = labelsText(input[fmt]);
  }
  // A new record's fields the form shows without submitting (read-only, or hidden and not submitted)
  // hold what the add form starts them with: their default, whatever the caller sent.
  if (!existing) {
    for (const f of view.page.form.fields) {
      if (f.system || f.defaultValue === undefined || Object.hasOwn(shape, f.name)) continue;
      const field = view.byName.get(f.name);
      if (!field) continue;
      const column = toColumn(field, String(f.defaultValue));
      if ('value' in column) values[field.column] = column.value;
    }
  }
  if (problems.size) {
    const order = (name: string) => (Object.hasOwn(shape, name) ? names.indexOf(name) : -1);
    const errors = [...problems].sort(([a], [b]) => order(a) - order(b)).map(([field, message]) => ({ field, message }));
    throw new RecordInvalid(errors);
  }
  return values;
}
