/**
 * The view designer's document: a view's template as plain JSON, edited immutably, and checked by
 * the page model itself (the same normaliser, codes, messages and JSON pointers as `wastegen check`).
 * Pure: no React, so the rules here are tested on their own.
 */
import {
  DIGITS_TEXT,
  type FieldKind,
  fieldKind,
  isAbsent,
  isRecord,
  isWarning,
  type ListPageModel,
  normalizeDefinition,
  type Problem,
  readBoolean,
  readNumeric,
  type Show,
  sortByKeys,
  viewFileName,
} from '../../model/index';

export type Json = Record<string, unknown>;

/** The template with its lists as plain arrays; any other key is kept as it came. */
export interface Template extends Json {
  basicOption: Json;
  tableOption: Json[];
  /** Absent: the form is made of the table's columns. */
  formOption?: Json[];
  dialogOption: Json;
  formDividerOption: Json[];
  btnDIYOption: Json[];
}

/** disMenu: componentName is the permission prefix and route name; pid is the parent menu the page is published under. */
export interface MenuInfo extends Json {
  componentName?: string;
  name?: string;
  pid?: number | null;
}

export type ListKey = 'tableOption' | 'formOption' | 'formDividerOption' | 'btnDIYOption';

// ----- a key's value as the controls show it -----

/** A switch's state: true only for a readable true. */
export const boolOf = (v: unknown) => {
  const r = readBoolean(v);
  return r.ok ? (r.value ?? false) : false;
};
export const numOf = (v: unknown) => {
  const r = readNumeric(v);
  return r.ok ? r.value : undefined;
};
export const textOf = (v: unknown) => (v === undefined || v === null ? '' : Array.isArray(v) ? v.join(',') : String(v));
/** '' and null are absent on the wire: an emptied input removes its key. */
export const orAbsent = (v: string) => (v === '' ? undefined : v);

/** configure.show in words: 1 shown and editable, 2 hidden, 3 shown read-only, 4 hidden and not submitted. */
export const SHOW_OPTIONS: { value: Show; label: string }[] = [
  { value: 1, label: '显示' },
  { value: 2, label: '隐藏' },
  { value: 3, label: '只读' },
  { value: 4, label: '隐藏且不提交' },
];

/** What 发布 asks first, in the view list and in the designer alike. */
export const publishConfirm = (name: string) => ({
  title: '发布视图',
  content: `发布后「${name}」立即在其菜单和路由上可用。确定发布吗？`,
  okText: '发布',
});

/** JSON text, an object, or absent → an object ({} when absent or not an object). */
export function readJsonObject(raw: unknown): Json {
  if (isRecord(raw)) return raw;
  if (typeof raw !== 'string' || !raw.trim()) return {};
  try {
    const v = JSON.parse(raw) as unknown;
    return isRecord(v) ? v : {};
  } catch {
    return {};
  }
}

/** A list as an array or `{items: [...]}` (both are on the wire) → an array of objects. */
function listOf(raw: unknown): Json[] | undefined {
  if (isAbsent(raw)) return undefined;
  const items = Array.isArray(raw) ? raw : isRecord(raw) && Array.isArray(raw.items) ? raw.items : undefined;
  if (!items) return undefined;
  return items.map((x) => (isRecord(x) ? x : {}));
}

const bySort = (list: Json[]) => sortByKeys(list, (x) => sortOf(x));

const sortOf = (item: Json): number | undefined => numOf(isRecord(item.configure) ? item.configure.sort : undefined);

/**
 * A stored template → the designer's document: lists become arrays in their display order
 * (configure.sort, then position, as the page model orders them). A template that is not an
 * object starts empty.
 */
export function templateOf(raw: unknown): Template {
  const t = readJsonObject(raw);
  const form = listOf(t.formOption);
  return {
    ...t,
    basicOption: isRecord(t.basicOption)
      ? t.basicOption
      : { add: true, edit: true, del: true, look: true, operation: true, orderNumber: true },
    tableOption: bySort(listOf(t.tableOption) ?? []),
    ...(form ? { formOption: bySort(form) } : {}),
    dialogOption: isRecord(t.dialogOption) ? t.dialogOption : {},
    formDividerOption: listOf(t.formDividerOption) ?? [],
    btnDIYOption: bySort(listOf(t.btnDIYOption) ?? []),
  };
}

/** The template as it is saved: without a formOption the form is the table's. */
export function templateText(t: Template): string {
  const { formOption, ...rest } = t;
  return JSON.stringify(formOption ? { ...rest, formOption } : rest);
}

// ----- immutable edits -----

export function setKey<T extends Json>(o: T, key: string, value: unknown): T {
  const next = { ...o } as Json;
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next as T;
}

/** Sets `configure[key]` of an item; undefined removes the key. */
export function setConfigure(item: Json, key: string, value: unknown): Json {
  const c = isRecord(item.configure) ? item.configure : {};
  return { ...item, configure: setKey(c, key, value) };
}

export function configureOf(item: Json): Json {
  return isRecord(item.configure) ? item.configure : {};
}

/** Moves an item from one position to another and numbers configure.sort 1…n in the new order. */
export function moveItem(list: readonly Json[], from: number, to: number): Json[] {
  if (from === to || from < 0 || from >= list.length || to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved as Json);
  return renumber(next);
}

/** configure.sort 1…n in list order, so the saved order is the order shown. */
export function renumber(list: readonly Json[]): Json[] {
  return list.map((item, i) => (sortOf(item) === i + 1 ? item : setConfigure(item, 'sort', i + 1)));
}

// ----- field kinds -----

/** Every field kind's name, in the order the kind select lists them; a record, so no kind goes without one. */
const FIELD_KIND_LABELS: Record<FieldKind, string> = {
  text: '单行文本',
  textarea: '多行文本',
  editor: '富文本',
  long: '整数',
  decimal: '小数',
  datetime: '日期时间',
  dict: '字典',
  remote: '远程选项',
  city: '省市区',
  image: '图片上传',
  file: '文件上传',
};

export const FIELD_KINDS: readonly { kind: FieldKind; label: string }[] = Object.entries(FIELD_KIND_LABELS).map(([kind, label]) => ({
  kind: kind as FieldKind,
  label,
}));

/** The configure keys that decide a field's kind: setting a kind removes the others'. */
const KIND_KEYS = ['file', 'editor', 'city', 'sportData', 'dict', 'textarea'] as const;

const DATA_TYPE_OF: Record<FieldKind, string> = {
  text: 'varchar',
  textarea: 'varchar',
  editor: 'varchar',
  long: 'long',
  decimal: 'decimal',
  datetime: 'datetime',
  dict: 'varchar',
  remote: 'varchar',
  city: 'varchar',
  image: 'varchar',
  file: 'varchar',
};

/**
 * The kind a field is edited as, by the model's own rule (fieldKind). A dictionary field whose
 * dictionary is not picked yet is still a dictionary field here, so the picker stays where the user put it.
 */
export function kindOf(field: Json): FieldKind {
  const c = configureOf(field);
  const dataType = String(field.dataType ?? '').toLowerCase();
  const dt = dataType === 'long' || dataType === 'decimal' || dataType === 'datetime' ? dataType : 'varchar';
  const file = c.file === 'image' || c.file === 'file' ? c.file : undefined;
  const dictPicked = typeof c.dict === 'string' && 'dict' in c;
  return fieldKind(dt, {
    file,
    editor: boolOf(c.editor),
    city: boolOf(c.city),
    sportData: boolOf(c.sportData),
    dict: dictPicked ? c.dict || '?' : undefined,
    textarea: boolOf(c.textarea),
  } as Parameters<typeof fieldKind>[1]);
}

/** A field turned into another kind: its dataType and the one configure key that makes that kind. */
export function withKind(field: Json, kind: FieldKind): Json {
  let c: Json = { ...configureOf(field) };
  for (const k of KIND_KEYS) delete c[k];
  if (kind === 'textarea') c.textarea = true;
  if (kind === 'editor') c.editor = true;
  if (kind === 'city') c.city = true;
  if (kind === 'remote') c = { sportData_type: 'list', ...c, sportData: true };
  if (kind === 'dict') c.dict = typeof configureOf(field).dict === 'string' ? configureOf(field).dict : '';
  if (kind === 'image' || kind === 'file') c.file = kind;
  return { ...field, dataType: DATA_TYPE_OF[kind], configure: c };
}

/** Form keys every kind has. */
const FORM_COMMON = ['required', 'show', 'defaultValue', 'tips', 'inputWidth', 'disabled', 'editLock'] as const;

/** The form's configure keys that apply to each kind (besides the common ones and the relations). */
export const FORM_KEYS: Record<FieldKind, readonly string[]> = {
  text: ['pattern', 'validator'],
  textarea: ['rows', 'pattern', 'validator'],
  editor: [],
  long: ['min', 'max'],
  decimal: ['min', 'max', 'decimals'],
  datetime: ['timeFmt'],
  dict: ['dict'],
  remote: ['sportData_type', 'sportData_list_multiple', 'sportData_url', 'sportData_params'],
  city: [],
  image: ['fileType', 'fileSize'],
  file: ['fileType', 'fileSize'],
};

/** The table's configure keys that apply to a column of each kind. */
export function tableKeysOf(kind: FieldKind): string[] {
  const keys = ['search', 'show', 'width', 'align', 'sortable', 'overflow', 'unit'];
  if (kind === 'dict') keys.push('dict', 'tags');
  if (kind === 'long' || kind === 'decimal') keys.push('money');
  if (kind === 'decimal') keys.push('decimals');
  if (kind === 'datetime') keys.push('timeFmt');
  return keys;
}

export function formKeysOf(kind: FieldKind): string[] {
  return [...FORM_COMMON, ...FORM_KEYS[kind]];
}

/** A new field with a free name (`field1`, `field2`, …) at the end of a list. */
export function newField(list: readonly Json[]): Json {
  const names = new Set(list.map((f) => String(f.name ?? '').toLowerCase()));
  let i = list.length + 1;
  while (names.has(`field${i}`)) i++;
  return { name: `field${i}`, chName: `字段${i}`, dataType: 'varchar', linked: false, configure: { sort: list.length + 1, show: 1 } };
}

export function newButton(list: readonly Json[]): Json {
  const names = new Set(list.map((f) => String(f.name ?? '')));
  let i = list.length + 1;
  while (names.has(`button${i}`)) i++;
  return {
    name: `button${i}`,
    chName: `按钮${i}`,
    configure: { position: 'opt', action: 'submit', submitType: 'post', submitUrl: '', confirm: true, sort: list.length + 1 },
  };
}

// ----- diagnostics -----

export interface DesignDoc {
  id: number;
  name: string;
  status?: number;
  menu: MenuInfo;
  template: Template;
}

/** The file `wastegen pull` writes the view to: problems name it as `wastegen check` does. */
export function fileOf(doc: Pick<DesignDoc, 'id' | 'menu'>): string {
  return `definitions/views/${viewFileName(doc.id, doc.menu.componentName?.trim() || undefined)}`;
}

/** The definition as it would be saved, as the server answers it (disMenu and disTemplate decoded). */
export function rawOf(doc: DesignDoc): Json {
  return { id: doc.id, name: doc.name, status: doc.status ?? 0, disMenu: doc.menu, disTemplate: JSON.parse(templateText(doc.template)) };
}

/**
 * The definition checked and normalised once: every problem (errors first) and, when it has no
 * errors, the list page model the runtime renderer draws.
 */
export function analyse(doc: DesignDoc): { problems: Problem[]; page?: ListPageModel } {
  const r = normalizeDefinition({ kind: 'view', file: fileOf(doc), json: rawOf(doc) });
  const problems = [...r.problems].sort((a, b) => Number(isWarning(a)) - Number(isWarning(b)));
  const page = r.page?.kind === 'list' && !problems.some((p) => !isWarning(p)) ? r.page : undefined;
  return { problems, page };
}

/** Every problem of the definition as it would be saved, errors first. */
export function diagnose(doc: DesignDoc): Problem[] {
  return analyse(doc).problems;
}

export const errorsOf = (problems: readonly Problem[]) => problems.filter((p) => !isWarning(p));

/** The problems at a JSON pointer or below it. */
export function problemsAt(problems: readonly Problem[], pointer: string): Problem[] {
  return problems.filter((p) => p.pointer === pointer || p.pointer.startsWith(`${pointer}/`));
}

/** Where a problem belongs in the designer: the tab and, for a list, the row. */
export function placeOf(pointer: string): { tab: string; row?: number; key?: string } {
  const parts = pointer.split('/').slice(1);
  if (parts[0] === 'disMenu') return { tab: 'basic', key: parts[1] };
  if (parts[0] !== 'disTemplate') return { tab: 'basic' };
  const [block, ...rest] = parts.slice(1);
  const tabs: Record<string, string> = {
    basicOption: 'basic',
    tableOption: 'table',
    formOption: 'form',
    dialogOption: 'dialog',
    formDividerOption: 'dividers',
    btnDIYOption: 'buttons',
  };
  const tab = tabs[block ?? ''] ?? 'json';
  const idx = rest[0] === 'items' ? rest.slice(1) : rest;
  const row = idx[0] !== undefined && DIGITS_TEXT.test(idx[0]) ? Number(idx[0]) : undefined;
  const key = row === undefined ? idx[0] : idx[1] === 'configure' ? idx[2] : idx[1];
  return { tab, row, key };
}

/** The field names of the form (formOption, or the table's columns without one). */
export function formFieldNames(t: Template): string[] {
  return (t.formOption ?? t.tableOption).map((f) => String(f.name ?? '')).filter(Boolean);
}

/**
 * The template with one field list replaced. A field relabelled in the table's list (tableOption) or
 * the form's (formOption) is relabelled in the other as well, where the other still bore the old
 * label: the list, its export and the add form name the field alike. A label the other list set
 * apart is kept.
 */
export function withList(t: Template, key: ListKey, next: Json[]): Template {
  const out: Template = { ...t, [key]: next };
  const otherKey = key === 'tableOption' ? 'formOption' : key === 'formOption' ? 'tableOption' : undefined;
  const other = otherKey ? t[otherKey] : undefined;
  if (!otherKey || !other) return out;
  const before = new Map((t[key] as Json[] | undefined)?.map((f) => [String(f.name ?? ''), f.chName]) ?? []);
  const renamed = new Map<string, { from: unknown; to: unknown }>();
  for (const f of next) {
    const name = String(f.name ?? '');
    if (name && before.has(name) && before.get(name) !== f.chName) renamed.set(name, { from: before.get(name), to: f.chName });
  }
  if (!renamed.size) return out;
  let changed = false;
  const carried = other.map((f) => {
    const r = renamed.get(String(f.name ?? ''));
    if (!r || f.chName !== r.from) return f;
    changed = true;
    return { ...f, chName: r.to };
  });
  return changed ? { ...out, [otherKey]: carried } : out;
}
