import { VALIDATORS } from '../../src/model/validators.js';
import { ApiError } from '../errors.js';
import { isAbsent, isObject } from './coerce.js';
import type { FieldDef, ViewDef } from './definition.js';

/**
 * Turns a submitted record into column values, checking it against the definition with the messages of
 * lowcode-engine.md §5.1. Keys that are not fields, and fields of show 4, are ignored.
 */

interface FieldProblem {
  field: string;
  message: string;
}

export class RecordInvalid extends ApiError {
  constructor(readonly errors: FieldProblem[]) {
    super(400, errors[0]?.message ?? '数据校验失败');
  }
}

const TEXT_MAX = 255;
const TEXTAREA_MAX = 1024;
const DECIMAL_LIMIT = 1e14; // numeric(20,6)

/** 'YYYY-MM-DD[ HH:mm[:ss]]' (also with T, or epoch ms) → 'YYYY-MM-DD HH:mm:ss', or null when not a real date. */
export function normaliseDateTime(v: unknown, dateOnly = false): string | null {
  let s: string;
  if (typeof v === 'number' && Number.isFinite(v)) {
    const d = new Date(v);
    const p = (n: number) => String(n).padStart(2, '0');
    s = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
  } else if (typeof v === 'string') s = v.trim();
  else return null;
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/.exec(s);
  if (!m) return null;
  const [y, mo, d, h = 0, mi = 0, se = 0] = m.slice(1).map((x) => (x === undefined ? undefined : Number(x))) as number[];
  const date = new Date(Date.UTC(y as number, (mo as number) - 1, d));
  if (date.getUTCMonth() !== (mo as number) - 1 || date.getUTCDate() !== d || h > 23 || mi > 59 || se > 59) return null;
  const p = (n: number) => String(n).padStart(2, '0');
  const day = `${y}-${p(mo as number)}-${p(d as number)}`;
  return dateOnly ? `${day} 00:00:00` : `${day} ${p(h)}:${p(mi)}:${p(se)}`;
}

function toText(f: FieldDef, v: unknown): string {
  if (Array.isArray(v)) return f.file ? JSON.stringify(v) : v.map((x) => String(x)).join(',');
  if (isObject(v)) return JSON.stringify(v);
  return String(v);
}

function decimalsOf(n: number): number {
  const s = String(n);
  if (s.includes('e')) return 0;
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
}

function convert(f: FieldDef, raw: unknown, problems: FieldProblem[]): unknown {
  const fail = (message: string) => {
    problems.push({ field: f.name, message });
    return undefined;
  };
  if (f.dataType === 'long' || f.dataType === 'decimal') {
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isFinite(n)) return fail(f.dataType === 'long' ? `${f.chName}必须为整数` : `${f.chName}必须为数字`);
    if (f.dataType === 'long' && !Number.isSafeInteger(n)) return fail(`${f.chName}必须为整数`);
    if (f.dataType === 'decimal') {
      if (Math.abs(n) >= DECIMAL_LIMIT) return fail(`${f.chName}超出范围`);
      const allowed = f.decimals ?? 6;
      if (decimalsOf(n) > allowed) return fail(`${f.chName}最多保留${allowed}位小数`);
    }
    if (f.min !== undefined && n < f.min) return fail(`最小值不能小于 ${f.min}`);
    if (f.max !== undefined && n > f.max) return fail(`最大值不能大于 ${f.max}`);
    return n;
  }
  if (f.dataType === 'datetime') {
    const d = normaliseDateTime(raw, f.dateOnly);
    return d ?? fail(`${f.chName}日期格式不正确`);
  }
  const s = toText(f, raw);
  if (!f.long && s.length > TEXT_MAX) return fail(`${f.chName}长度不能超过${TEXT_MAX}个字符`);
  if (f.textarea && !f.pattern && s.length > TEXTAREA_MAX) return fail(`${f.chName}长度不能超过${TEXTAREA_MAX}个字符`);
  if (f.pattern && !f.pattern.test(s)) return fail('格式不正确');
  const validator = f.validator ? VALIDATORS[f.validator] : undefined;
  if (validator && !validator.test(s)) return fail(validator.message);
  return s;
}

const matches = (value: unknown, expected: string) => (isAbsent(value) ? '' : String(value)) === expected;

/**
 * @param input    the submitted record
 * @param existing the stored record on update (field names → values), so that relations and required
 *                 fields are judged on the record as it will be; editLock fields keep their stored value
 * @returns column → value for every field the input carried (all fields on add)
 */
export function prepareRecord(view: ViewDef, input: Record<string, unknown>, existing?: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...(existing ?? {}) };
  for (const f of view.fields) {
    if (f.show === 4 || (existing && f.editLock)) continue;
    if (f.name in input) merged[f.name] = input[f.name];
    else if (!existing && !isAbsent(f.defaultValue)) merged[f.name] = f.defaultValue;
    if (f.city && `${f.name}Fmt` in input) merged[`${f.name}Fmt`] = input[`${f.name}Fmt`];
  }
  const hidden = new Set<string>();
  const relationRequired = new Set<string>();
  const shownBy = new Map<string, boolean>();
  for (const f of view.fields) {
    if (f.showRelation) {
      const on = matches(merged[f.name], f.showRelation.value);
      for (const target of f.showRelation.item) shownBy.set(target, (shownBy.get(target) ?? false) || on);
    }
    if (f.requiredRelation && matches(merged[f.name], f.requiredRelation.value)) {
      for (const target of f.requiredRelation.item) relationRequired.add(target);
    }
  }
  for (const [target, shown] of shownBy) if (!shown) hidden.add(target);

  const problems: FieldProblem[] = [];
  const values: Record<string, unknown> = {};
  for (const f of view.fields) {
    if (f.show === 4 || hidden.has(f.name)) continue;
    const provided = !existing || (f.name in input && !f.editLock);
    const raw = merged[f.name];
    const empty = isAbsent(raw) || (Array.isArray(raw) && raw.length === 0);
    if (empty) {
      if (f.required || relationRequired.has(f.name)) problems.push({ field: f.name, message: `请输入${f.chName}` });
      else if (provided) values[f.name] = null;
    } else if (provided) {
      const v = convert(f, raw, problems);
      if (v !== undefined) values[f.name] = v;
    }
    const fmt = `${f.name}Fmt`;
    if (f.city && !view.byName.has(fmt) && (!existing || fmt in input)) {
      const labels = merged[fmt];
      values[fmt] = isAbsent(labels) ? null : Array.isArray(labels) ? labels.join('/') : String(labels).slice(0, TEXT_MAX);
    }
  }
  if (problems.length) throw new RecordInvalid(problems);
  return values;
}
