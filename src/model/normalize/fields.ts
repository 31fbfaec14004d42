import { FIELD_NAME, reservedNameProblem, SYSTEM_FIELDS, type SystemFieldName, systemFieldOf } from '../names.js';
import { sortByKeys } from '../order.js';
import { patternShape } from '../pattern-shape.js';
import type { ColumnModel, DataType, FieldModel, Show } from '../types.js';
import { isValidatorName, VALIDATORS } from '../validators.js';
import type { WireField, WireFieldConfigure } from '../wire.js';
import {
  dataTypeOf,
  decimalsOf,
  defaultValueOf,
  fieldKind,
  maxLengthOf,
  relationOf,
  remoteOf,
  showOf,
  stepOf,
  timeFormatOf,
  uploadOf,
} from './field-rules.js';
import { compact, extraOf, KNOWN_CONFIGURE } from './keys.js';
import { Sink } from './sink.js';

/** A tableOption or formOption entry whose name passed its checks, with its data type settled. */
export interface ReadField {
  raw: WireField;
  name: string;
  pointer: string;
  configure: WireFieldConfigure;
  dataType: DataType;
  /** The table's system column this field lists (id, createTime, updateTime, createBy). */
  system?: SystemFieldName;
}

/** A field's name, or the problem that keeps it out: missing, not an identifier, reserved, or already used. */
function nameOf(raw: WireField, pointer: string, seen: Map<string, string>, sink: Sink): string | undefined {
  const name = raw.name?.trim();
  if (!name) {
    sink.add('E_REQUIRED', `${pointer}/name`, 'a field needs a name');
    return undefined;
  }
  if (!FIELD_NAME.test(name)) {
    sink.add(
      'E_NAME',
      `${pointer}/name`,
      `field name ${JSON.stringify(name)} is not an identifier (a letter, then letters, digits or _; at most 63)`,
    );
    return undefined;
  }
  const reserved = reservedNameProblem(name);
  if (reserved) {
    sink.add('E_NAME', `${pointer}/name`, reserved);
    return undefined;
  }
  const dup = seen.get(name.toLowerCase());
  if (dup) {
    sink.add('E_DUPLICATE', `${pointer}/name`, `field ${JSON.stringify(name)} is already defined at ${dup}`);
    return undefined;
  }
  seen.set(name.toLowerCase(), pointer);
  return name;
}

/** A system column's type is the table's, whatever the definition says; saying otherwise is a warning. */
function systemDataType(system: SystemFieldName, raw: WireField, pointer: string, sink: Sink): DataType {
  const fixed = SYSTEM_FIELDS[system].dataType;
  if (raw.dataType !== undefined && raw.dataType !== fixed)
    sink.add('W_IGNORED', `${pointer}/dataType`, `${system} is the table's system column: its dataType is always ${fixed}`);
  return fixed;
}

/** Reads a field list's names, checks them, and orders the list by configure.sort. */
export function readFieldList(list: { items: WireField[]; viaItems: boolean } | undefined, base: string, sink: Sink): ReadField[] {
  if (!list) return [];
  const at = list.viaItems ? `${base}/items` : base;
  const seen = new Map<string, string>();
  const out: ReadField[] = [];
  list.items.forEach((raw, i) => {
    const pointer = `${at}/${i}`;
    const name = nameOf(raw, pointer, seen, sink);
    if (name === undefined) return;
    const configure = raw.configure ?? {};
    const system = systemFieldOf(name);
    if (system) out.push({ raw, name, pointer, configure, dataType: systemDataType(system, raw, pointer, sink), system });
    else out.push({ raw, name, pointer, configure, dataType: dataTypeOf(raw.dataType, sink, `${pointer}/dataType`) });
  });
  return sortByKeys(out, (f) => f.configure.sort);
}

/** The server sets system columns: in a form they are read-only (show 3) or hidden (show 4), never required or locked. */
function systemShow(show: Show): Show {
  return show === 2 || show === 4 ? 4 : 3;
}

function warnSystemFlags(f: ReadField, sink: Sink): void {
  const c = f.configure;
  const p = `${f.pointer}/configure`;
  if (c.required) sink.add('W_IGNORED', `${p}/required`, `${f.name} is set by the server and is never required of the user`);
  if (c.editLock) sink.add('W_IGNORED', `${p}/editLock`, `${f.name} is set by the server and is never edited`);
}

/**
 * A pattern must compile, and be small enough to bound what it costs (`patternShape`); the schema
 * ignores one that does not compile, so it is reported here.
 */
function checkPattern(pattern: string | undefined, sink: Sink, pointer: string): void {
  if (pattern === undefined) return;
  const refusal = patternShape(pattern).refusal;
  if (refusal !== undefined) {
    sink.add('E_PATTERN', pointer, `a pattern ${refusal}`);
    return;
  }
  try {
    new RegExp(pattern);
  } catch (e) {
    sink.add('E_PATTERN', pointer, `not a valid regular expression: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function validatorOf(v: string | undefined, sink: Sink, pointer: string): FieldModel['validator'] {
  if (v === undefined) return undefined;
  if (isValidatorName(v)) return v;
  sink.add('E_VALIDATOR', pointer, `unknown validator ${JSON.stringify(v)}`, `use one of ${Object.keys(VALIDATORS).join(', ')}`);
  return undefined;
}

export function normalizeField(f: ReadField, sink: Sink): FieldModel {
  const c = f.configure;
  const p = `${f.pointer}/configure`;
  const kind = fieldKind(f.dataType, c);
  checkPattern(c.pattern, sink, `${p}/pattern`);
  const validator = validatorOf(c.validator, sink, `${p}/validator`);
  if (c.min !== undefined && c.max !== undefined && c.min > c.max) sink.add('E_RANGE', `${p}/min`, `min ${c.min} is above max ${c.max}`);
  const decimalsRead = decimalsOf(c, sink, p);
  const decimals = f.dataType === 'decimal' ? decimalsRead : undefined;
  if (f.system) warnSystemFlags(f, sink);
  const show = showOf(c.show, sink, `${p}/show`);
  const model: FieldModel = {
    name: f.name,
    system: f.system,
    label: f.raw.chName?.trim() || f.name,
    dataType: f.dataType,
    kind,
    show: f.system ? systemShow(show) : show,
    required: f.system ? false : (c.required ?? false),
    min: c.min,
    max: c.max,
    pattern: c.pattern,
    validator,
    decimals,
    step: stepOf(f.dataType, decimals),
    maxLength: maxLengthOf(kind, c.pattern),
    defaultValue: defaultValueOf(c.defaultValue, sink, `${p}/defaultValue`),
    tips: c.tips,
    inputWidth: c.inputWidth,
    disabled: c.disabled ?? false,
    editLock: f.system ? false : (c.editLock ?? false),
    dict: c.dict,
    rows: kind === 'textarea' ? (c.rows ?? 3) : undefined,
    timeFormat: kind === 'datetime' ? timeFormatOf(c.timeFmt, f.dataType) : undefined,
    remote: kind === 'remote' ? remoteOf(c, sink, p) : undefined,
    upload: kind === 'file' || kind === 'image' ? uploadOf(c, sink, p) : undefined,
    showRelation: relationOf(c.showRelation),
    requiredRelation: relationOf(c.requiredRelation),
    extra: extraOf(c, KNOWN_CONFIGURE),
  };
  return compact(model);
}

export function searchKindOf(f: ReadField): ColumnModel['searchKind'] {
  const c = f.configure;
  if (c.city) return 'city';
  if (c.sportData) return 'remote';
  if (c.dict) return 'dict';
  if (f.dataType === 'datetime') return 'date';
  if (f.dataType === 'long' || f.dataType === 'decimal') return 'number';
  return 'text';
}

export function normalizeColumn(f: ReadField, sink: Sink): ColumnModel {
  const c = f.configure;
  const p = `${f.pointer}/configure`;
  const show = showOf(c.show, sink, `${p}/show`);
  const decimals = decimalsOf(c, sink, p);
  const searchKind = searchKindOf(f);
  return compact({
    name: f.name,
    system: f.system,
    label: f.raw.chName?.trim() || f.name,
    dataType: f.dataType,
    visible: show === 1 || show === 3,
    width: c.width,
    align: c.align,
    dict: c.dict,
    tags: c.tags ?? false,
    sortable: c.sortable ?? false,
    overflow: c.overflow ?? false,
    unit: c.unit,
    money: c.money ?? false,
    decimals: f.dataType === 'decimal' ? decimals : undefined,
    timeFormat: f.dataType === 'datetime' ? timeFormatOf(c.timeFmt, f.dataType) : undefined,
    search: c.search ?? false,
    searchKind,
    remote: searchKind === 'remote' ? remoteOf(c, new Sink(sink.file), p) : undefined,
    extra: extraOf(c, KNOWN_CONFIGURE),
  });
}

/** Relations name fields of the same form; a type-2 remote parameter names one too. */
export function checkReferences(fields: FieldModel[], reads: ReadField[], sink: Sink): void {
  const names = new Set(fields.map((f) => f.name));
  fields.forEach((f, i) => {
    const p = `${reads[i]?.pointer}/configure`;
    for (const key of ['showRelation', 'requiredRelation'] as const) {
      const rel = f[key];
      if (!rel) continue;
      for (const target of rel.fields) {
        if (!names.has(target))
          sink.add('E_REFERENCE', `${p}/${key}/item`, `${key} names field ${JSON.stringify(target)}, which is not in this form`);
        else if (target === f.name)
          sink.add('E_REFERENCE', `${p}/${key}/item`, `${key} of ${JSON.stringify(f.name)} names the field itself`);
      }
    }
    f.remote?.params.forEach((param, j) => {
      if (param.source === 'field' && !names.has(param.value))
        sink.add(
          'E_REFERENCE',
          `${p}/sportData_params/${j}/value`,
          `parameter ${JSON.stringify(param.key)} reads field ${JSON.stringify(param.value)}, which is not in this form`,
        );
    });
  });
}
