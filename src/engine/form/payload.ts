import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';
import type { FieldModel, FormModel } from '../../model';
import { currentShow, DEFAULT_TIME_FORMAT, hiddenFields, relationRequiredFields, relationsOf } from '../../model';
import type { FormMode } from '../contracts';
import { filesText, parseFiles } from './labels';

dayjs.extend(customParseFormat);

/**
 * The form keeps its values in the shape they are sent in, so that a failed submit has nothing to
 * restore: text as text, numbers as numbers, datetimes as text in the field's timeFormat, select
 * values as text (a multiple select as a list of text), a city as comma-joined codes (its labels
 * in `{name}Fmt`), files as the JSON list text. These functions convert into and out of that shape.
 */

export type FormValues = Record<string, unknown>;

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * A datetime as the server sends it (`YYYY-MM-DD HH:mm:ss`, ISO, epoch ms, or already in the
 * format) → text in `format`; null when empty; the input unchanged when it cannot be read, so that
 * nothing the record holds is silently dropped.
 */
export function formatDateTime(v: unknown, format = DEFAULT_TIME_FORMAT): unknown {
  if (isBlank(v)) return null;
  let d: dayjs.Dayjs | undefined;
  if (dayjs.isDayjs(v)) d = v;
  else if (v instanceof Date || typeof v === 'number') d = dayjs(v);
  else if (typeof v === 'string') {
    const s = v.trim();
    const strict = dayjs(s, format, true);
    d = strict.isValid() ? strict : dayjs(s);
  }
  return d?.isValid() ? d.format(format) : v;
}

function editableValue(field: FieldModel, raw: unknown): unknown {
  if (isBlank(raw) || (Array.isArray(raw) && raw.length === 0)) {
    if (field.kind === 'remote' && field.remote?.multiple) return [];
    return null;
  }
  switch (field.kind) {
    case 'datetime':
      return formatDateTime(raw, field.timeFormat);
    case 'long':
    case 'decimal': {
      const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
      return Number.isFinite(n) ? n : String(raw);
    }
    case 'remote':
      if (field.remote?.multiple) {
        const list = Array.isArray(raw) ? raw : String(raw).split(',');
        return list.map((x) => String(x).trim()).filter(Boolean);
      }
      return Array.isArray(raw) ? raw.map(String).join(',') : String(raw);
    case 'city':
    case 'dict':
      return Array.isArray(raw) ? raw.map(String).join(',') : String(raw);
    case 'file':
    case 'image':
      return filesText(parseFiles(raw));
    default:
      return typeof raw === 'string' ? raw : String(raw);
  }
}

/**
 * The values a form starts with: the record (edit, look) or the initial values (add), with each
 * field in its editable shape; in add mode a field the initial values do not name takes its
 * defaultValue. Keys that are not fields (the key, `{city}Fmt`) are kept as they came.
 */
export function editableValues(form: FormModel, mode: FormMode, initial?: Record<string, unknown>): FormValues {
  const out: FormValues = { ...(initial ?? {}) };
  for (const f of form.fields) {
    const given = initial !== undefined && Object.hasOwn(initial, f.name);
    const raw = given ? initial[f.name] : mode === 'add' ? f.defaultValue : undefined;
    out[f.name] = editableValue(f, raw);
  }
  return out;
}

/** What a field does now: hidden (not drawn), shown read-only, or editable; and whether it is required. */
export interface FieldState {
  hidden: boolean;
  readOnly: boolean;
  required: boolean;
}

/**
 * What the field's current show (model `currentShow`: a showRelation shows its fields, show 2 ones
 * included, while its trigger holds the value, and hides them otherwise) says: show 2 and 4 are not
 * drawn; show 3, a look form and an editLock field being edited are read-only. Required: the
 * field's own flag, or a matching requiredRelation.
 */
export function fieldStates(form: FormModel, mode: FormMode, values: FormValues): Map<string, FieldState> {
  const relations = relationsOf(form);
  const required = relationRequiredFields(relations, values);
  return new Map(
    form.fields.map((f) => {
      const show = currentShow(f, relations, values, mode === 'look');
      return [
        f.name,
        {
          hidden: show === 2 || show === 4,
          readOnly: mode === 'look' || show === 3 || (mode === 'edit' && f.editLock),
          required: show !== 3 && mode !== 'look' && (f.required || required.has(f.name)),
        },
      ];
    }),
  );
}

/** The fields whose values decide another field's visibility or requirement. */
export function relationTriggers(form: FormModel): string[] {
  return form.fields.filter((f) => f.showRelation || f.requiredRelation).map((f) => f.name);
}

export interface PayloadOptions {
  /** Route query values, foreign keys, the key on edit: merged over the fields. */
  fixedValues?: Record<string, unknown>;
  /** Labels along a city's codes (from the region tree); undefined when unknown. */
  cityLabels?: (codes: string[]) => string[] | undefined;
  /** The only fields the user may change: the others are left out, so the record keeps them. */
  writable?: readonly string[];
}

/**
 * The submit payload (contracts.ts): from the schema's output (`parsed`: only the fields it knows,
 * relation-hidden ones dropped, empty values null) and the raw form values (for the triggers and
 * `{city}Fmt`). Fields of show 3 (unless a show rule makes them editable) and 4 and relation-hidden ones are left out whatever the schema
 * did; datetimes are formatted with timeFormat; a city adds `{name}Fmt`, its labels joined by '/';
 * files stay JSON list text; fields outside `writable` (when given) are left out; fixedValues are merged last.
 */
export function buildPayload(form: FormModel, parsed: FormValues, raw: FormValues, options: PayloadOptions = {}): FormValues {
  const relations = relationsOf(form);
  const hidden = hiddenFields(relations, raw);
  const out: FormValues = {};
  for (const f of form.fields) {
    // A show-3 field is read-only, unless a show rule makes it editable (its current show is then 1).
    const readOnly = f.show === 3 && currentShow(f, relations, raw) === 3;
    if (readOnly || f.show === 4 || hidden.has(f.name) || !Object.hasOwn(parsed, f.name)) continue;
    if (options.writable && !options.writable.includes(f.name)) continue;
    const v = parsed[f.name];
    if (v === undefined) continue;
    switch (f.kind) {
      case 'datetime':
        out[f.name] = formatDateTime(v, f.timeFormat);
        break;
      case 'city': {
        const codes = isBlank(v) ? [] : String(v).split(',');
        out[f.name] = codes.length ? codes.join(',') : null;
        const given = raw[`${f.name}Fmt`];
        const labels = codes.length ? (options.cityLabels?.(codes) ?? (Array.isArray(given) ? given.map(String) : undefined)) : undefined;
        out[`${f.name}Fmt`] = !codes.length ? null : labels ? labels.join('/') : isBlank(given) ? null : String(given);
        break;
      }
      case 'file':
      case 'image':
        out[f.name] = v === null ? null : filesText(parseFiles(v));
        break;
      default:
        out[f.name] = v;
    }
  }
  return { ...out, ...(options.fixedValues ?? {}) };
}
