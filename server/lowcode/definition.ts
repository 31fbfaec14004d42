import { normalizeDefinition } from '../../src/model/normalize.js';
import { isWarning, sortProblems } from '../../src/model/problems.js';
import { isValidatorName, type ValidatorName } from '../../src/model/validators.js';
import { badRequest } from '../errors.js';
import { DefinitionError, isAbsent, isObject, parseJsonText, readBool, readList, readNumber, readString } from './coerce.js';

/**
 * What the server needs to know about a view definition (definitions.md §1), read leniently from
 * its disTemplate. Unknown keys are ignored here and kept in the stored text.
 */

type DataType = 'varchar' | 'long' | 'decimal' | 'datetime';

interface Relation {
  item: string[];
  value: string;
}

export interface FieldDef {
  name: string;
  chName: string;
  dataType: DataType;
  /** JSON pointer of the field inside the template (the form's entry when the field is in both). */
  pointer: string;
  /** 1 editable, 2 hidden, 3 read-only, 4 hidden and never stored from input */
  show: number;
  sort: number;
  required: boolean;
  min: number | undefined;
  max: number | undefined;
  pattern: RegExp | undefined;
  validator: ValidatorName | undefined;
  decimals: number | undefined;
  defaultValue: unknown;
  dict: string | undefined;
  /** textarea, rich-text editor or file list: stored as text */
  long: boolean;
  textarea: boolean;
  file: boolean;
  city: boolean;
  sportData: boolean;
  multiple: boolean;
  search: boolean;
  sortable: boolean;
  editLock: boolean;
  dateOnly: boolean;
  showRelation: Relation | undefined;
  requiredRelation: Relation | undefined;
}

interface ButtonDef {
  name: string;
  action: string;
  groovyAction: string | undefined;
  roles: string[];
}

interface ColumnDef {
  name: string;
  type: string;
  /** undefined for the `{name}Fmt` label column of a city cascader */
  field: FieldDef | undefined;
}

export interface ViewDef {
  id: number;
  name: string;
  componentName: string | undefined;
  /** Every distinct field of tableOption ∪ formOption, form first. */
  fields: FieldDef[];
  byName: Map<string, FieldDef>;
  /** Columns of the backing table besides id, create_time, update_time and create_by. */
  columns: ColumnDef[];
  tableFields: FieldDef[];
  formFields: FieldDef[];
  buttons: ButtonDef[];
  sortName: string | undefined;
  sortType: 'asc' | 'desc' | undefined;
}

const IDENTIFIER = /^[a-zA-Z][a-zA-Z0-9_]{0,62}$/;
/** Columns every view table has, and names the list call reads as parameters. */
const RESERVED = new Set(
  [
    'id',
    'create_time',
    'update_time',
    'create_by',
    'createTime',
    'updateTime',
    'createBy',
    'page',
    'size',
    'sort',
    'startTime',
    'endTime',
    'timestamp',
    'sign',
    'token',
  ].map((s) => s.toLowerCase()),
);

function isSafeFieldName(name: unknown): name is string {
  return typeof name === 'string' && IDENTIFIER.test(name) && !RESERVED.has(name.toLowerCase());
}

function readItems(v: unknown, pointer: string): { items: unknown[]; pointer: string } | undefined {
  if (isAbsent(v)) return undefined;
  if (Array.isArray(v)) return { items: v, pointer };
  if (isObject(v) && Array.isArray(v.items)) return { items: v.items, pointer: `${pointer}/items` };
  if (isObject(v) && isAbsent(v.items)) return { items: [], pointer: `${pointer}/items` };
  throw new DefinitionError(pointer, '应为字段列表');
}

function readRelation(v: unknown, pointer: string): Relation | undefined {
  if (isAbsent(v)) return undefined;
  if (!isObject(v)) throw new DefinitionError(pointer, '应为 {item, value}');
  const item = readList(v.item, `${pointer}/item`);
  if (!item.length) return undefined;
  return { item, value: isAbsent(v.value) ? '' : String(v.value) };
}

/**
 * Form `show` is 1–4; a table column's `show` is a visibility flag (true = 1, false = 2, hidden), and a
 * view without formOption reads the table's entries as its form.
 */
function readShow(v: unknown, pointer: string): number {
  if (isAbsent(v) || v === true || v === 'true') return 1;
  if (v === false || v === 'false' || v === 0 || v === '0') return 2;
  const n = readNumber(v, pointer);
  if (n === 1 || n === 2 || n === 3 || n === 4) return n;
  throw new DefinitionError(pointer, '应为 1、2、3 或 4');
}

function readField(raw: unknown, pointer: string, index: number): FieldDef {
  if (!isObject(raw) || !isSafeFieldName(raw.name)) throw badRequest(`字段名不合法：${pointer}/name`);
  const c = isObject(raw.configure) ? raw.configure : {};
  const p = `${pointer}/configure`;
  const dt = readString(raw.dataType);
  const dataType: DataType = dt === 'long' || dt === 'decimal' || dt === 'datetime' ? dt : 'varchar';
  const patternText = readString(c.pattern);
  let pattern: RegExp | undefined;
  if (patternText) {
    try {
      pattern = new RegExp(patternText);
    } catch {
      throw new DefinitionError(`${p}/pattern`, '正则表达式不合法');
    }
  }
  const validatorName = readString(c.validator);
  if (validatorName && !isValidatorName(validatorName)) throw new DefinitionError(`${p}/validator`, `未知的校验规则 ${validatorName}`);
  const validator = validatorName as ValidatorName | undefined;
  const file = readString(c.file);
  const textarea = readBool(c.textarea, `${p}/textarea`);
  const editor = readBool(c.editor, `${p}/editor`);
  const show = readShow(c.show, `${p}/show`);
  const decimals = readNumber(c.decimals, `${p}/decimals`);
  const timeFmt = readString(c.timeFmt) ?? 'yyyy-MM-dd hh:mm:ss';
  return {
    name: raw.name,
    chName: readString(raw.chName) ?? raw.name,
    dataType,
    pointer,
    show,
    sort: readNumber(c.sort, `${p}/sort`) ?? index,
    required: readBool(c.required, `${p}/required`),
    min: readNumber(c.min, `${p}/min`),
    max: readNumber(c.max, `${p}/max`),
    pattern,
    validator,
    decimals: decimals === undefined ? undefined : Math.max(0, Math.floor(decimals)),
    defaultValue: c.defaultValue,
    dict: readString(c.dict),
    long: textarea || editor || file === 'image' || file === 'file',
    textarea,
    file: file === 'image' || file === 'file',
    city: readBool(c.city, `${p}/city`),
    sportData: readBool(c.sportData, `${p}/sportData`),
    multiple: readBool(c.sportData_list_multiple, `${p}/sportData_list_multiple`),
    search: readBool(c.search, `${p}/search`),
    sortable: readBool(c.sortable, `${p}/sortable`),
    editLock: readBool(c.editLock, `${p}/editLock`),
    dateOnly: !/[hH]/.test(timeFmt),
    showRelation: readRelation(c.showRelation, `${p}/showRelation`),
    requiredRelation: readRelation(c.requiredRelation, `${p}/requiredRelation`),
  };
}

function readFields(v: unknown, pointer: string): FieldDef[] {
  const list = readItems(v, pointer);
  if (!list) return [];
  return list.items
    .map((raw, i) => readField(raw, `${list.pointer}/${i}`, i))
    .map((f, i) => ({ f, i }))
    .sort((a, b) => a.f.sort - b.f.sort || a.i - b.i)
    .map(({ f }) => f);
}

function readButtons(v: unknown): ButtonDef[] {
  const list = readItems(v, '/btnDIYOption');
  if (!list) return [];
  return list.items.filter(isObject).map((b, i) => {
    const c = isObject(b.configure) ? b.configure : {};
    const p = `${list.pointer}/${i}/configure`;
    return {
      name: readString(b.name) ?? '',
      action: readString(c.action) ?? '',
      groovyAction: readString(c.groovyAction),
      roles: [...readList(c.root, `${p}/root`), ...readList(c.rootDIY, `${p}/rootDIY`)],
    };
  });
}

export interface DefinitionRow {
  id: number;
  name: string;
  dis_menu: string | null;
  dis_template: string | null;
}

export function componentNameOf(disMenu: string | null): string | undefined {
  if (!disMenu) return undefined;
  try {
    const m = JSON.parse(disMenu);
    return isObject(m) ? readString(m.componentName) : undefined;
  } catch {
    return undefined;
  }
}

/** Reads a template (already JSON-parsed). Throws 400 with the offending JSON pointer. */
export function readTemplate(row: DefinitionRow, template: unknown): ViewDef {
  if (!isObject(template)) throw badRequest('disTemplate 不是有效的 JSON 对象');
  try {
    const table = readFields(template.tableOption, '/tableOption');
    const formRaw = readFields(template.formOption, '/formOption');
    const form = formRaw.length || !isAbsent(template.formOption) ? formRaw : table;
    const byName = new Map<string, FieldDef>();
    const seen = new Set<string>();
    for (const f of form) {
      if (seen.has(f.name.toLowerCase())) throw badRequest(`字段名重复：${f.pointer}/name`);
      seen.add(f.name.toLowerCase());
      byName.set(f.name, f);
    }
    for (const t of table) {
      if (byName.has(t.name)) continue;
      if (seen.has(t.name.toLowerCase())) throw badRequest(`字段名重复：${t.pointer}/name`);
      seen.add(t.name.toLowerCase());
      byName.set(t.name, t);
    }
    // A field in both lists takes its input rules from the form and its column keys (search, sortable)
    // from the table; how it is stored and matched must not depend on the list, so the wider reading wins.
    for (const t of table) {
      const f = byName.get(t.name);
      if (!f || f.pointer === t.pointer) continue;
      byName.set(t.name, {
        ...f,
        search: t.search,
        sortable: t.sortable,
        long: f.long || t.long,
        dict: f.dict ?? t.dict,
        city: f.city || t.city,
        sportData: f.sportData || t.sportData,
        multiple: f.multiple || t.multiple,
      });
    }
    const fields = [...byName.values()];
    const columns: ColumnDef[] = fields.map((f) => ({ name: f.name, type: sqlType(f), field: f }));
    // A city cascader also keeps its labels in `{name}Fmt` (lowcode-engine.md §5.1).
    for (const f of fields) {
      if (f.city && !byName.has(`${f.name}Fmt`)) columns.push({ name: `${f.name}Fmt`, type: 'character varying(255)', field: undefined });
    }
    const basic = isObject(template.basicOption) ? template.basicOption : {};
    const sortType = readString(basic.sortType)?.toLowerCase();
    return {
      id: row.id,
      name: row.name,
      componentName: componentNameOf(row.dis_menu),
      fields,
      byName,
      columns,
      tableFields: table.map((t) => byName.get(t.name) as FieldDef),
      formFields: form.map((f) => byName.get(f.name) as FieldDef),
      buttons: readButtons(template.btnDIYOption),
      sortName: readString(basic.sortName),
      sortType: sortType === 'asc' || sortType === 'desc' ? sortType : undefined,
    };
  } catch (e) {
    if (e instanceof DefinitionError) throw badRequest(e.message);
    throw e;
  }
}

/** Parses the stored or received text; null when the view has not been designed yet. */
export function readDefinition(row: DefinitionRow): ViewDef | null {
  if (isAbsent(row.dis_template)) return null;
  return readTemplate(row, parseJsonText(row.dis_template, 'disTemplate'));
}

/** Whether the list call filters this field by equality (dictionary, remote option, number) rather than text search. */
export function matchesExactly(f: FieldDef): boolean {
  if (f.dataType === 'long' || f.dataType === 'decimal') return true;
  return f.dataType === 'varchar' && !f.multiple && !f.city && (f.dict !== undefined || f.sportData);
}

/** The spelling format_type() gives back, so that a design can compare it with the live column. */
function sqlType(f: FieldDef): string {
  switch (f.dataType) {
    case 'long':
      return 'bigint';
    case 'decimal':
      return 'numeric(20,6)';
    case 'datetime':
      return 'timestamp without time zone';
    default:
      return f.long ? 'text' : 'character varying(255)';
  }
}

/**
 * The checks `wastegen generate` makes, run when a definition is saved, so that nothing the server
 * accepts can later fail a team's CI. Answers 400 with the first problems' JSON pointers.
 */
export function assertCompiles(kind: 'view' | 'screen', definition: Record<string, unknown>): void {
  const { problems } = normalizeDefinition({ kind, file: kind === 'view' ? '视图定义' : '大屏定义', json: definition });
  const errors = sortProblems(problems.filter((p) => !isWarning(p)));
  if (!errors.length) return;
  const shown = errors.slice(0, 3).map((p) => `${p.pointer || '/'}：${p.message}`);
  throw badRequest(`定义不合法：${shown.join('；')}${errors.length > 3 ? `（共 ${errors.length} 处）` : ''}`);
}
