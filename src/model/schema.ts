import { z } from 'zod';
import { isRecord, NUMBER_TEXT } from './coerce.js';
import { DEFAULT_TIME_FORMAT, normalizeDateTime } from './dates.js';
import { patternMessage } from './pattern-text.js';
import type { FieldModel, FormModel } from './types.js';
import { VALIDATORS, type ValidatorName } from './validators.js';

/**
 * A form model → a zod schema whose messages are the ones the user sees in the form and the server answers with.
 *
 * Two consumers build the same schema two ways: `buildSchema(form)` at run time, and the generator,
 * which prints `rules.form({ name: rules.text({...}), … }, relationsOf(form))` from `fieldRules(form)`.
 * Both go through the builders below, so they agree by construction; the parity test checks it.
 *
 * What a parse gives:
 * - Empty input (undefined, null, '', whitespace only, an empty list, for files also the text '[]')
 *   is missing: `请输入{label}` when required (`请选择{label}` for a choice or a date, `请上传{label}` for
 *   files); otherwise the field passes, an absent key stays absent,
 *   and any other empty value comes out as `null`. Null rather than undefined because the server keeps
 *   the stored value of a key that is not sent (JSON drops undefined), so clearing a field on edit must
 *   send null. Either way no '' is ever submitted.
 * - Text is kept as typed (not trimmed); only its emptiness is judged on the trimmed text.
 * - Only the first problem of a field is reported, in this order: type, length, pattern, validator
 *   (text); number, integer, decimals, minimum, maximum (numbers); a real date (date-times); format,
 *   count (files).
 * - Keys that are not fields of the form are stripped (the record key, foreign keys and a city field's
 *   `{name}Fmt` are the caller's to add to the payload).
 */

// ----- options: plain JSON data, printed by the generator as they are -----

export interface TextOptions {
  label: string;
  required?: boolean;
  maxLength?: number;
  /** JavaScript regular-expression source without slashes, tested unanchored (like the server). */
  pattern?: string;
  validator?: ValidatorName;
  /** A choice (a dictionary, remote options, a region): a missing value asks 请选择{label}. */
  choice?: boolean;
}

export interface NumberOptions {
  label: string;
  required?: boolean;
  /** Most digits after the point. */
  decimals?: number;
  /** long fields: whole numbers only. */
  integer?: boolean;
  max?: number;
  min?: number;
}

export interface DateTimeOptions {
  label: string;
  required?: boolean;
  /** The format the field shows and its message names (dayjs tokens); YYYY-MM-DD HH:mm:ss when not given. */
  format?: string;
}

export interface FilesOptions {
  label: string;
  required?: boolean;
  maxCount: number;
}

export interface RelationRule {
  trigger: string;
  /** Compared with the trigger's value as text. */
  value: string;
  fields: readonly string[];
}

export interface Relations {
  /** While a trigger matches, its fields are visible; a field any show rule names is hidden otherwise. */
  show: readonly RelationRule[];
  /** While a trigger matches, its (visible) fields are required. */
  required: readonly RelationRule[];
}

export type RuleCall =
  | { rule: 'text'; options: TextOptions }
  | { rule: 'number'; options: NumberOptions }
  | { rule: 'datetime'; options: DateTimeOptions }
  | { rule: 'files'; options: FilesOptions };

// ----- field schemas -----

/** A builder's schema: `required: true` (literally) gives a value that is always there; anything else an optional, nullable one. */
export type FieldSchema<T, O> = O extends { required: true } ? z.ZodType<T, unknown> : z.ZodOptional<z.ZodType<T | null, unknown>>;

export type AnyFieldSchema = z.ZodType<unknown, unknown>;

export type FieldShape = Record<string, AnyFieldSchema>;

/** Labels of the builders' schemas, for the messages `rules.form` adds (relation-required fields). */
const labels = z.registry<{ label: string; missing: string }>();

const isBlankText = (s: string) => s.trim() === '';

const isEmpty = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && isBlankText(v)) || (Array.isArray(v) && v.length === 0);

/**
 * What a missing value's message asks for: 请输入 for what is typed, 请选择 for a choice (a dictionary,
 * remote options, a region, a date), 请上传 for files.
 */
export type MissingVerb = '请输入' | '请选择' | '请上传';

const requiredMessage = (label: string, verb: MissingVerb = '请输入') => `${verb}${label}`;

type Check<T> = { ok: true; value: T } | { ok: false; message: string };

const pass = <T>(value: T): Check<T> => ({ ok: true, value });
const fail = (message: string): Check<never> => ({ ok: false, message });

/**
 * The shared frame of every builder: emptiness and `required` first, then the kind's own check on a
 * value known not to be empty.
 */
function field<T, O extends { label: string; required?: boolean }>(
  o: O,
  empty: (v: unknown) => boolean,
  check: (v: unknown) => Check<T>,
  verb: MissingVerb = '请输入',
): FieldSchema<T, O> {
  const missing = requiredMessage(o.label, verb);
  const required = o.required === true;
  const inner = z.unknown().transform((v, ctx): T | null => {
    if (empty(v)) {
      if (!required) return null;
      ctx.addIssue({ code: 'custom', message: missing });
      return z.NEVER;
    }
    const r = check(v);
    if (r.ok) return r.value;
    ctx.addIssue({ code: 'custom', message: r.message });
    return z.NEVER;
  });
  const schema = required ? inner : inner.optional();
  labels.add(schema, { label: o.label, missing });
  return schema as FieldSchema<T, O>;
}

/**
 * A field pattern's test: undefined for a pattern that does not compile (the normaliser reports it as
 * E_PATTERN, and here it checks nothing), otherwise a test of one text. 'timeout' means the pattern
 * could not be run to the end in the time the host allows, 'too long' that the host does not run it
 * on a text that long, 'busy' that the pattern has spent its time for now; each way the value is refused.
 */
export type PatternTester = (pattern: string) => ((text: string) => boolean | 'timeout' | 'too long' | 'busy') | undefined;

/** Texts of at most this many characters are tested against a pattern outside the linear shape (the server's bound). */
export const PATTERN_TEXT_MAX = 1000;

/** The browser's tester: the pattern as a plain RegExp, tested unanchored. */
export const nativePatterns: PatternTester = (pattern) => {
  try {
    const re = new RegExp(pattern);
    return (text) => re.test(text);
  } catch {
    return undefined;
  }
};

/** A select's number or a multiple select's / cascader's list reads as text (lists comma-joined, like the server). */
function asText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x)))) return v.join(',');
  return undefined;
}

function text<const O extends TextOptions>(o: O, patterns: PatternTester = nativePatterns): FieldSchema<string, O> {
  const test = o.pattern === undefined ? undefined : patterns(o.pattern);
  const validator = o.validator ? VALIDATORS[o.validator] : undefined;
  return field(
    o,
    isEmpty,
    (v) => {
      const s = asText(v);
      if (s === undefined) return fail(`${o.label}格式不正确，应为文本`);
      if (o.maxLength !== undefined && s.length > o.maxLength) return fail(`${o.label}长度不能超过${o.maxLength}个字符`);
      if (test && o.pattern !== undefined) {
        const matched = test(s);
        if (matched === 'timeout') return fail(`${o.label}的格式规则过于复杂，无法校验，请联系管理员`);
        if (matched === 'too long') return fail(`${o.label}过长，无法按格式规则校验`);
        if (matched === 'busy') return fail(`${o.label}暂时无法按格式规则校验，请稍后重试`);
        if (!matched) return fail(patternMessage(o.label, o.pattern));
      }
      if (validator && !validator.test(s)) return fail(validator.message);
      return pass(s);
    },
    o.choice ? '请选择' : '请输入',
  );
}

/** Digits after the point of a number as JavaScript prints it, exponent form included (1.5e-7 → 8). */
export function decimalPlaces(n: number): number {
  const [mantissa = '', exponent = '0'] = String(Math.abs(n)).split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}

function number<const O extends NumberOptions>(o: O): FieldSchema<number, O> {
  return field(o, isEmpty, (v) => {
    const n = typeof v === 'number' ? v : typeof v === 'string' && NUMBER_TEXT.test(v) ? Number(v) : Number.NaN;
    if (!Number.isFinite(n)) return fail(`${o.label}必须为数字`);
    if (o.integer && !Number.isInteger(n)) return fail(`${o.label}必须为整数`);
    if (o.decimals !== undefined && decimalPlaces(n) > o.decimals) return fail(`${o.label}最多保留${o.decimals}位小数`);
    if (o.min !== undefined && n < o.min) return fail(`最小值不能小于 ${o.min}`);
    if (o.max !== undefined && n > o.max) return fail(`最大值不能大于 ${o.max}`);
    return pass(n);
  });
}

/** The message of a value that is not a real date: it names the field's format (检查日期格式应为 YYYY-MM-DD). */
export function dateMessage(label: string, format: string = DEFAULT_TIME_FORMAT): string {
  return /(日期|时间|期限|日)$/.test(label) ? `${label}格式应为 ${format}` : `${label}日期格式应为 ${format}`;
}

/**
 * A date-time is any text or epoch milliseconds that names a real moment ('2026-01-05',
 * '2026-01-05 09:30', '2026-01-05 09:30:00'; not '2026-02-30'). It comes out as given: the server
 * stores it normalised.
 */
function datetime<const O extends DateTimeOptions>(o: O): FieldSchema<string | number, O> {
  return field(
    o,
    isEmpty,
    (v) => {
      if ((typeof v !== 'string' && typeof v !== 'number') || normalizeDateTime(v) === null) return fail(dateMessage(o.label, o.format));
      return pass(v);
    },
    '请选择',
  );
}

/**
 * A file field's value is the JSON text of its list of uploads, which is also what comes out.
 * Accepted: that text; the list itself (of upload answers as objects, or of paths), which is
 * stringified; and, for records stored before the JSON form, comma-separated paths, which become a
 * JSON list of those paths.
 */
function fileList(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  if (s.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(s);
      return Array.isArray(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  return s
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

/** An upload answer (an object) or a stored path. */
const isFile = (x: unknown) => (typeof x === 'string' && !isBlankText(x)) || isRecord(x);

const isEmptyFiles = (v: unknown) => isEmpty(v) || (typeof v === 'string' && fileList(v)?.length === 0);

function files<const O extends FilesOptions>(o: O): FieldSchema<string, O> {
  return field(
    o,
    isEmptyFiles,
    (v) => {
      const list = fileList(v);
      if (!list?.every(isFile)) return fail(`${o.label}格式不正确，应为上传文件的列表`);
      if (list.length > o.maxCount) return fail('文件数量超过限定个数');
      return pass(typeof v === 'string' && v.trim().startsWith('[') ? v.trim() : JSON.stringify(list));
    },
    '请上传',
  );
}

// ----- the form -----

const textOf = (v: unknown) => (v === undefined || v === null ? '' : String(v));

const matches = (values: Record<string, unknown>, rule: RelationRule) => textOf(values[rule.trigger]) === rule.value;

/** Fields some show rule names and none of those rules currently shows. Triggers are read from the raw input. */
export function hiddenFields(relations: Relations, values: Record<string, unknown>): Set<string> {
  const shown = new Map<string, boolean>();
  for (const rule of relations.show) {
    const on = matches(values, rule);
    for (const f of rule.fields) shown.set(f, (shown.get(f) ?? false) || on);
  }
  return new Set([...shown].filter(([, on]) => !on).map(([f]) => f));
}

/**
 * The show a field has for these values (types.ts `FieldModel.show`). A field some show rule names is
 * visible while one of those rules matches: show 1 in an editable form and 3 in a read-only one,
 * whatever its own show 1, 2 or 3 says (a show-3 field a relation shows becomes editable); and hidden
 * (show 2) otherwise. Show 4 stays 4, and a field no show rule names keeps its own show.
 */
export function currentShow(
  field: Pick<FieldModel, 'name' | 'show'>,
  relations: Relations,
  values: Record<string, unknown>,
  readOnlyForm = false,
): FieldModel['show'] {
  if (field.show === 4) return 4;
  const rules = relations.show.filter((rule) => rule.fields.includes(field.name));
  if (!rules.length) return field.show;
  if (!rules.some((rule) => matches(values, rule))) return 2;
  return readOnlyForm ? 3 : 1;
}

/** Fields a matching required rule names. */
export function relationRequiredFields(relations: Relations, values: Record<string, unknown>): Set<string> {
  return new Set(relations.required.filter((rule) => matches(values, rule)).flatMap((rule) => rule.fields));
}

export type FormOutput<S extends FieldShape> = z.output<z.ZodObject<S>>;

export type FormSchema<S extends FieldShape> = z.ZodPipe<z.ZodUnknown, z.ZodTransform<FormOutput<S>, unknown>> & {
  /** The field schemas, e.g. to check one field on blur. They know nothing of relations. */
  readonly shape: S;
  readonly relations: Relations;
};

/**
 * The form's schema. Before the fields are checked, fields hidden by a show rule are dropped: they
 * are neither validated nor in the output, whatever they hold, and whatever `required` says, since a
 * required field is required while it is visible. A required rule that matches makes its visible
 * fields required (`请输入{label}` at [field]). Relations name fields by name; names outside the shape
 * are ignored, except as triggers, which are read from the input as it came.
 */
function form<S extends FieldShape>(shape: S, relations: Relations): FormSchema<S> {
  const object = z.object(shape);
  const order = Object.keys(shape);
  const rank = (issue: z.core.$ZodIssue) => {
    const key = issue.path[0];
    return typeof key === 'string' && Object.hasOwn(shape, key) ? order.indexOf(key) : -1;
  };
  const schema = z.unknown().transform((input, ctx): FormOutput<S> => {
    let values = input;
    const missing: string[] = [];
    if (isRecord(input)) {
      const hidden = hiddenFields(relations, input);
      values = Object.fromEntries(Object.entries(input).filter(([k]) => !hidden.has(k)));
      for (const name of relationRequiredFields(relations, input)) {
        const f = Object.hasOwn(shape, name) ? shape[name] : undefined;
        if (!f || hidden.has(name)) continue;
        const alone = f.safeParse(input[name]);
        if (alone.success && (alone.data === undefined || alone.data === null)) missing.push(name);
      }
    }
    const r = object.safeParse(values);
    const issues = [...(r.error?.issues ?? [])];
    for (const name of missing) if (!issues.some((i) => i.path[0] === name)) issues.push(requiredIssue(name, shape[name]));
    if (r.success && issues.length === 0) return r.data;
    // In field order, so that the first message is the first field's.
    for (const issue of issues.sort((a, b) => rank(a) - rank(b))) ctx.addIssue({ ...issue });
    return z.NEVER;
  });
  return Object.assign(schema, { shape, relations });
}

function requiredIssue(name: string, schema: AnyFieldSchema | undefined): z.core.$ZodIssue {
  const message = (schema && labels.get(schema)?.missing) ?? requiredMessage(name);
  return { code: 'custom', path: [name], message, input: undefined };
}

/** The builders the generated schema modules call: `rules.text({ label: '…', required: true, maxLength: 255 })`. */
export const rules = { text, number, datetime, files, form };

// ----- model → rule calls -----

/** label, then required, then the rest by name; undefined and false left out, so the printed call stays short. */
function optionsOf<O>(label: string, required: boolean, rest: Record<string, string | number | boolean | undefined>): O {
  const out: Record<string, unknown> = { label };
  if (required) out.required = true;
  for (const key of Object.keys(rest).sort()) {
    const v = rest[key];
    if (v !== undefined && v !== false) out[key] = v;
  }
  return out as O;
}

/** Each form's show targets, once per list of fields (a rule is asked for each field of the form). */
const showTargetsOf = new WeakMap<readonly FieldModel[], ReadonlySet<string>>();

/** Fields some showRelation of the form names. */
function showTargets(form: FormModel): ReadonlySet<string> {
  let targets = showTargetsOf.get(form.fields);
  if (!targets) {
    targets = new Set(form.fields.flatMap((f) => f.showRelation?.fields ?? []));
    showTargetsOf.set(form.fields, targets);
  }
  return targets;
}

/**
 * The builder call for one field. A field a showRelation names is emitted optional even when
 * required: `relationsOf` turns its `required` into a required rule on the same trigger, so that it is
 * required exactly while it is visible. That is why the form is needed.
 */
export function fieldRule(field: FieldModel, form: FormModel): RuleCall {
  const required = field.required && !showTargets(form).has(field.name);
  switch (field.kind) {
    case 'long':
    case 'decimal':
      return {
        rule: 'number',
        options: optionsOf<NumberOptions>(field.label, required, {
          decimals: field.kind === 'decimal' ? field.decimals : undefined,
          integer: field.kind === 'long',
          max: field.max,
          min: field.min,
        }),
      };
    case 'datetime':
      return { rule: 'datetime', options: optionsOf<DateTimeOptions>(field.label, required, { format: field.timeFormat }) };
    case 'file':
    case 'image':
      return { rule: 'files', options: optionsOf<FilesOptions>(field.label, required, { maxCount: field.upload?.maxCount ?? 1 }) };
    default:
      return {
        rule: 'text',
        options: optionsOf<TextOptions>(field.label, required, {
          choice: field.kind === 'dict' || field.kind === 'remote' || field.kind === 'city',
          maxLength: field.maxLength,
          pattern: field.pattern,
          validator: field.validator,
        }),
      };
  }
}

/**
 * Fields the user may write: show 1 and 2, and show 3 ones a showRelation names (editable while it
 * shows them). Other show 3 and 4 fields and the table's system columns are never submitted.
 */
export function submittedFields(form: FormModel): FieldModel[] {
  const targets = showTargets(form);
  return form.fields.filter((f) => (f.show === 1 || f.show === 2 || (f.show === 3 && targets.has(f.name))) && !f.system);
}

/** The rule call of every submitted field, in field order: what the generator prints as the shape. */
export function fieldRules(form: FormModel): [name: string, call: RuleCall][] {
  return submittedFields(form).map((f) => [f.name, fieldRule(f, form)]);
}

/**
 * The form's relations, in field order. For each trigger: its showRelation; its requiredRelation; then,
 * if some submitted field its showRelation names is required, a required rule with the same trigger
 * and value for those fields (see `fieldRule`).
 */
export function relationsOf(form: FormModel): { show: RelationRule[]; required: RelationRule[] } {
  const submitted = new Map(submittedFields(form).map((f) => [f.name, f]));
  const show: RelationRule[] = [];
  const required: RelationRule[] = [];
  for (const f of form.fields) {
    if (f.showRelation) show.push({ trigger: f.name, value: f.showRelation.value, fields: [...f.showRelation.fields] });
    if (f.requiredRelation) required.push({ trigger: f.name, value: f.requiredRelation.value, fields: [...f.requiredRelation.fields] });
    const whileShown = f.showRelation?.fields.filter((name) => submitted.get(name)?.required) ?? [];
    if (f.showRelation && whileShown.length) required.push({ trigger: f.name, value: f.showRelation.value, fields: whileShown });
  }
  return { show, required };
}

export function applyRule(call: RuleCall, patterns?: PatternTester): AnyFieldSchema {
  switch (call.rule) {
    case 'text':
      return rules.text(call.options, patterns);
    case 'number':
      return rules.number(call.options);
    case 'datetime':
      return rules.datetime(call.options);
    case 'files':
      return rules.files(call.options);
  }
}

/**
 * The form's schema at run time; the generated schema module is the same thing written out. The
 * server passes its own pattern tester, which bounds the time a designer's pattern may take.
 */
export function buildSchema(form: FormModel, patterns?: PatternTester): FormSchema<FieldShape> {
  return rules.form(Object.fromEntries(fieldRules(form).map(([name, call]) => [name, applyRule(call, patterns)])), relationsOf(form));
}
