import { decodeDefinition, definitionHash, isUndesigned, sortKeysDeep } from './canonical.js';
import { isAbsent, isRecord, readNumeric } from './coerce.js';
import { FIELD_NAME, reservedNameProblem, SYSTEM_FIELDS, type SystemFieldName, screenPath, systemFieldOf, viewPath } from './names.js';
import { sortByKeys } from './order.js';
import { parseScreen, parseView } from './parse.js';
import { type Problem, type ProblemCode, pointerOf } from './problems.js';
import type {
  BigScreenModel,
  ButtonModel,
  CanvasModel,
  ChartModel,
  ColumnModel,
  ContainerPageModel,
  DataType,
  DialogModel,
  DividerModel,
  FieldKind,
  FieldModel,
  FormPageModel,
  LayoutItemModel,
  ListPageModel,
  PageModel,
  Relation,
  RemoteOptions,
  Show,
  SourceInfo,
  UploadRules,
} from './types.js';
import { isValidatorName } from './validators.js';
import type { WireButton, WireField, WireFieldConfigure, WireLayoutItem, WireScreen, WireTemplate, WireView } from './wire.js';

/**
 * Definitions (as pulled, decoded) → page models. Each rule is a small named function; the problems
 * they find are collected with their JSON pointers, and nothing is thrown.
 */

export type DefinitionKind = 'view' | 'screen';

export interface DefinitionInput {
  kind: DefinitionKind;
  /** Path relative to the project root, used in problems and banners. */
  file: string;
  json: unknown;
}

export interface NormalizeResult {
  page?: PageModel;
  /** Created but not designed yet: reported, never an error. */
  skipped?: { id: number | undefined; reason: string };
  problems: Problem[];
}

/** Collects problems for one file. */
class Sink {
  readonly problems: Problem[] = [];
  constructor(readonly file: string) {}
  add(code: ProblemCode, pointer: string, message: string, hint?: string): void {
    this.problems.push(hint ? { code, file: this.file, pointer, message, hint } : { code, file: this.file, pointer, message });
  }
}

// ----- field rules -----

const KNOWN_CONFIGURE = new Set([
  'sort',
  'search',
  'dict',
  'show',
  'width',
  'align',
  'sortable',
  'overflow',
  'tags',
  'unit',
  'money',
  'required',
  'min',
  'max',
  'pattern',
  'validator',
  'decimals',
  'defaultValue',
  'tips',
  'inputWidth',
  'disabled',
  'editLock',
  'textarea',
  'rows',
  'file',
  'fileType',
  'fileSize',
  'city',
  'editor',
  'sportData',
  'sportData_type',
  'sportData_list_multiple',
  'sportData_url',
  'sportData_params',
  'timeFmt',
  'showRelation',
  'requiredRelation',
]);

/** Upload whitelists of lowcode-engine.md §5.2. */
export const GENERAL_UPLOAD_TYPES = ['doc', 'docx', 'xls', 'xlsx', 'pdf', 'jpg', 'jpeg', 'png'];
export const IMAGE_UPLOAD_TYPES = ['jpg', 'jpeg', 'png'];

export const TEXT_MAX_LENGTH = 255;
export const TEXTAREA_MAX_LENGTH = 1024;

/** Unknown dataTypes are read as varchar (definitions.md §1.2), with a warning. */
export function dataTypeOf(raw: string | undefined, sink: Sink, pointer: string): DataType {
  const t = raw?.trim().toLowerCase();
  if (t === 'varchar' || t === 'long' || t === 'decimal' || t === 'datetime') return t;
  if (t !== undefined) sink.add('W_DATATYPE', pointer, `unknown dataType ${JSON.stringify(raw)}, read as varchar`);
  return 'varchar';
}

/** How a field is edited. The most specific configure key wins. */
export function fieldKind(dataType: DataType, c: WireFieldConfigure): FieldKind {
  if (c.file === 'image') return 'image';
  if (c.file === 'file') return 'file';
  if (c.editor) return 'editor';
  if (c.city) return 'city';
  if (c.sportData) return 'remote';
  if (c.dict) return 'dict';
  if (dataType === 'datetime') return 'datetime';
  if (dataType === 'long') return 'long';
  if (dataType === 'decimal') return 'decimal';
  if (c.textarea) return 'textarea';
  return 'text';
}

/**
 * Form `show` is 1–4. A table column's `show` is a visibility flag, so true reads as 1 and false as 2;
 * absent is 1.
 */
export function showOf(v: unknown, sink: Sink, pointer: string): Show {
  if (isAbsent(v) || v === true || v === 'true') return 1;
  if (v === false || v === 'false' || v === 0 || v === '0') return 2;
  const n = readNumeric(v);
  if (n.ok && (n.value === 1 || n.value === 2 || n.value === 3 || n.value === 4)) return n.value;
  sink.add('E_ENUM', pointer, `expected show 1, 2, 3 or 4 (or true/false), got ${JSON.stringify(v)}`);
  return 1;
}

/** timeFmt in the wire's Java style → dayjs. `hh` is read as 24-hour (definitions.md §1.2). */
export function timeFormatOf(timeFmt: string | undefined, dataType: DataType): string | undefined {
  if (!timeFmt) return dataType === 'datetime' ? 'YYYY-MM-DD HH:mm:ss' : undefined;
  return timeFmt.replace(/yyyy/g, 'YYYY').replace(/yy/g, 'YY').replace(/dd/g, 'DD').replace(/hh/g, 'HH');
}

export function maxLengthOf(kind: FieldKind, pattern: string | undefined): number | undefined {
  if (kind === 'text') return TEXT_MAX_LENGTH;
  if (kind === 'textarea') return pattern ? undefined : TEXTAREA_MAX_LENGTH;
  return undefined;
}

/** long steps by 1; decimal by 10^-decimals. */
export function stepOf(dataType: DataType, decimals: number | undefined): number | undefined {
  if (dataType === 'long') return 1;
  if (dataType === 'decimal' && decimals !== undefined) return Number((10 ** -decimals).toFixed(decimals));
  return undefined;
}

/** Digits after the point, 0 to 10; a value out of range is reported and not used. */
function decimalsOf(c: WireFieldConfigure, sink: Sink, pointer: string): number | undefined {
  if (c.decimals === undefined || (c.decimals >= 0 && c.decimals <= 10)) return c.decimals;
  sink.add('E_RANGE', `${pointer}/decimals`, `decimals must be 0 to 10, got ${c.decimals}`);
  return undefined;
}

function relationOf(raw: { item?: string[] | undefined; value?: string | undefined } | undefined): Relation | undefined {
  if (!raw?.item?.length) return undefined;
  return { fields: raw.item, value: raw.value ?? '' };
}

function remoteOf(c: WireFieldConfigure, sink: Sink, pointer: string): RemoteOptions | undefined {
  if (!c.sportData) return undefined;
  if (!c.sportData_url) sink.add('E_REQUIRED', `${pointer}/sportData_url`, 'a remote-options field (sportData) needs sportData_url');
  return {
    url: c.sportData_url ?? '',
    tree: c.sportData_type === 'tree',
    multiple: c.sportData_list_multiple ?? false,
    params: (c.sportData_params ?? []).flatMap((p, i) => {
      if (!p.key) {
        sink.add('E_REQUIRED', `${pointer}/sportData_params/${i}/key`, 'a remote-options parameter needs a key');
        return [];
      }
      return [{ key: p.key, source: p.type === '2' ? ('field' as const) : ('fixed' as const), value: p.value ?? '' }];
    }),
  };
}

function uploadOf(c: WireFieldConfigure, sink: Sink, pointer: string): UploadRules | undefined {
  if (!c.file) return undefined;
  const image = c.file === 'image';
  const accept = (c.fileType ?? []).map((t) => t.replace(/^\./, '').toLowerCase());
  if (c.fileSize !== undefined && c.fileSize < 1)
    sink.add('E_RANGE', `${pointer}/fileSize`, `fileSize is the maximum file count and must be at least 1, got ${c.fileSize}`);
  return {
    image,
    accept: accept.length ? [...new Set(accept)] : image ? IMAGE_UPLOAD_TYPES : GENERAL_UPLOAD_TYPES,
    maxCount: Math.max(1, c.fileSize ?? 1),
  };
}

/** Keys this page does not name, kept as they came (definitions.md §0), sorted so key order never matters. */
function extraOf(c: Record<string, unknown>, known: ReadonlySet<string> = KNOWN_CONFIGURE): Record<string, unknown> | undefined {
  const keys = Object.keys(c).filter((k) => !known.has(k) && c[k] !== undefined);
  return keys.length ? (sortKeysDeep(Object.fromEntries(keys.map((k) => [k, c[k]]))) as Record<string, unknown>) : undefined;
}

const KNOWN_BUTTON = new Set([
  'position',
  'action',
  'submitType',
  'submitUrl',
  'groovyAction',
  'view',
  'foreignKey',
  'websiteUrl',
  'confirm',
  'multiple',
  'root',
  'rootDIY',
  'showRelation_item',
  'showRelation_value',
  'sort',
]);
const KNOWN_TEMPLATE = new Set(['basicOption', 'tableOption', 'formOption', 'dialogOption', 'formDividerOption', 'btnDIYOption']);
const KNOWN_BASIC = new Set([
  'add',
  'del',
  'edit',
  'look',
  'download',
  'import',
  'template',
  'orderNumber',
  'operation',
  'operationWidth',
  'sortName',
  'sortType',
  'importSubmitUrl',
]);
const KNOWN_DIALOG = new Set([
  'width',
  'labelWidth',
  'inputWidth',
  'inline',
  'submitUrl',
  'detailUrl',
  'key',
  'export',
  'suffix',
  'initGroovy',
]);

function defaultValueOf(v: unknown, sink: Sink, pointer: string): string | number | boolean | undefined {
  if (isAbsent(v)) return undefined;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  sink.add('E_TYPE', pointer, 'defaultValue must be text, a number or a boolean');
  return undefined;
}

/** Drops undefined members so that models compare and print the same however they were built. */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

interface ReadField {
  raw: WireField;
  name: string;
  pointer: string;
  configure: WireFieldConfigure;
  dataType: DataType;
  system?: SystemFieldName;
}

/** Reads a field list's names, checks them, and orders the list by configure.sort. */
function readFieldList(list: { items: WireField[]; viaItems: boolean } | undefined, base: string, sink: Sink): ReadField[] {
  if (!list) return [];
  const at = list.viaItems ? `${base}/items` : base;
  const seen = new Map<string, string>();
  const out: ReadField[] = [];
  list.items.forEach((raw, i) => {
    const pointer = `${at}/${i}`;
    const name = raw.name?.trim();
    if (!name) {
      sink.add('E_REQUIRED', `${pointer}/name`, 'a field needs a name');
      return;
    }
    if (!FIELD_NAME.test(name)) {
      sink.add(
        'E_NAME',
        `${pointer}/name`,
        `field name ${JSON.stringify(name)} is not an identifier (a letter, then letters, digits or _; at most 63)`,
      );
      return;
    }
    const reserved = reservedNameProblem(name);
    if (reserved) {
      sink.add('E_NAME', `${pointer}/name`, reserved);
      return;
    }
    const dup = seen.get(name.toLowerCase());
    if (dup) {
      sink.add('E_DUPLICATE', `${pointer}/name`, `field ${JSON.stringify(name)} is already defined at ${dup}`);
      return;
    }
    seen.set(name.toLowerCase(), pointer);
    const configure = raw.configure ?? {};
    const system = systemFieldOf(name);
    if (system) {
      // A system column's type is the table's, whatever the definition says.
      const fixed = SYSTEM_FIELDS[system].dataType;
      if (raw.dataType !== undefined && raw.dataType !== fixed)
        sink.add('W_IGNORED', `${pointer}/dataType`, `${name} is the table's system column: its dataType is always ${fixed}`);
      out.push({ raw, name, pointer, configure, dataType: fixed, system });
      return;
    }
    out.push({ raw, name, pointer, configure, dataType: dataTypeOf(raw.dataType, sink, `${pointer}/dataType`) });
  });
  return sortByKeys(out, (f) => f.configure.sort);
}

export function normalizeField(f: ReadField, sink: Sink): FieldModel {
  const c = f.configure;
  const p = `${f.pointer}/configure`;
  const kind = fieldKind(f.dataType, c);
  if (c.pattern !== undefined) {
    try {
      new RegExp(c.pattern);
    } catch (e) {
      sink.add('E_PATTERN', `${p}/pattern`, `not a valid regular expression: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  let validator: FieldModel['validator'];
  if (c.validator !== undefined) {
    if (isValidatorName(c.validator)) validator = c.validator;
    else
      sink.add(
        'E_VALIDATOR',
        `${p}/validator`,
        `unknown validator ${JSON.stringify(c.validator)}`,
        'use one of mobile, mobileList, phone, landline, phoneOrLandline, email, idCard, ipv4, url, externalLink, lowercase, uppercase, letters',
      );
  }
  if (c.min !== undefined && c.max !== undefined && c.min > c.max) sink.add('E_RANGE', `${p}/min`, `min ${c.min} is above max ${c.max}`);
  const decimalsRead = decimalsOf(c, sink, p);
  const decimals = f.dataType === 'decimal' ? decimalsRead : undefined;
  if (f.system) {
    // The server sets system columns: in a form they are shown read-only (or hidden) and never submitted.
    if (c.required) sink.add('W_IGNORED', `${p}/required`, `${f.name} is set by the server and is never required of the user`);
    if (c.editLock) sink.add('W_IGNORED', `${p}/editLock`, `${f.name} is set by the server and is never edited`);
  }
  const show = showOf(c.show, sink, `${p}/show`);
  const model: FieldModel = {
    name: f.name,
    system: f.system,
    label: f.raw.chName?.trim() || f.name,
    dataType: f.dataType,
    kind,
    show: f.system ? (show === 2 || show === 4 ? 4 : 3) : show,
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
    extra: extraOf(c),
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
    extra: extraOf(c),
  });
}

/** Relations name fields of the same form; a type-2 remote parameter names one too. */
function checkReferences(fields: FieldModel[], reads: ReadField[], sink: Sink): void {
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

function dividersOf(template: WireTemplate, fields: FieldModel[], sink: Sink): DividerModel[] {
  const list = template.formDividerOption;
  if (!list) return [];
  const at = list.viaItems ? '/disTemplate/formDividerOption/items' : '/disTemplate/formDividerOption';
  const out: DividerModel[] = [];
  list.items.forEach((d, i) => {
    const pointer = `${at}/${i}/position`;
    let target: FieldModel | undefined;
    const pos = d.position;
    const n = readNumeric(pos);
    if (typeof pos === 'string' && !/^\s*\d+\s*$/.test(pos)) target = fields.find((f) => f.name === pos.trim());
    else if (n.ok && n.value !== undefined && Number.isInteger(n.value)) target = fields[n.value];
    if (!target) {
      sink.add(
        'E_REFERENCE',
        pointer,
        `divider position ${JSON.stringify(pos)} is neither a form field's name nor an index below ${fields.length}`,
      );
      return;
    }
    out.push({ before: target.name, title: d.chName ?? '' });
  });
  return out;
}

/** Form defaults of lowcode-engine.md §9: dialog width 400px, label width 80px, input width 250px. */
function dialogOf(template: WireTemplate): DialogModel {
  const d = template.dialogOption ?? {};
  return compact({
    width: d.width ?? 400,
    labelWidth: d.labelWidth ?? 80,
    inputWidth: d.inputWidth ?? 250,
    inline: d.inline ?? false,
    key: d.key?.trim() || 'id',
    suffix: d.suffix,
    initGroovy: d.initGroovy ?? false,
  });
}

const BUTTON_NEEDS: Record<ButtonModel['action'], keyof NonNullable<WireButton['configure']> | undefined> = {
  submit: 'submitUrl',
  groovy: undefined,
  dialog: 'view',
  view: 'view',
  website: 'websiteUrl',
  system: 'websiteUrl',
};

function buttonsOf(template: WireTemplate, columnNames: Set<string>, sink: Sink): ButtonModel[] {
  const list = template.btnDIYOption;
  if (!list) return [];
  const at = list.viaItems ? '/disTemplate/btnDIYOption/items' : '/disTemplate/btnDIYOption';
  const seen = new Map<string, string>();
  const read: { b: ButtonModel; sort: number | undefined }[] = [];
  list.items.forEach((raw, i) => {
    const pointer = `${at}/${i}`;
    const c = raw.configure ?? {};
    const name = raw.name?.trim() || `button${i + 1}`;
    const position = c.position === 'fun' ? ('toolbar' as const) : ('row' as const);
    const dup = seen.get(`${position}:${name}`);
    if (dup) sink.add('E_DUPLICATE', `${pointer}/name`, `button ${JSON.stringify(name)} is already defined at ${dup}`);
    seen.set(`${position}:${name}`, pointer);
    if (!c.action) {
      sink.add('E_REQUIRED', `${pointer}/configure/action`, 'a button needs an action (submit, groovy, dialog, view, website or system)');
      return;
    }
    const need = BUTTON_NEEDS[c.action];
    if (need && isAbsent(c[need])) sink.add('E_REQUIRED', `${pointer}/configure/${need}`, `a ${c.action} button needs ${need}`);
    if (c.showRelation_item && !columnNames.has(c.showRelation_item))
      sink.add(
        'W_REFERENCE',
        `${pointer}/configure/showRelation_item`,
        `rows are matched on ${JSON.stringify(c.showRelation_item)}, which is not a field of this view`,
      );
    const b: ButtonModel = compact({
      name,
      label: raw.chName?.trim() || name,
      position,
      action: c.action,
      submitType: c.action === 'submit' ? (c.submitType ?? 'post') : undefined,
      submitUrl: c.submitUrl,
      groovyAction: c.groovyAction,
      view: c.view,
      foreignKey: c.foreignKey,
      websiteUrl: c.websiteUrl,
      confirm: c.confirm ?? false,
      multiple: c.multiple ?? false,
      roles: [...new Set([...(c.root ?? []), ...(c.rootDIY ?? [])])],
      showWhen: c.showRelation_item ? { field: c.showRelation_item, value: c.showRelation_value ?? '' } : undefined,
      extra: extraOf(c, KNOWN_BUTTON),
    });
    read.push({ b, sort: c.sort });
  });
  return sortByKeys(read, (r) => r.sort).map((r) => r.b);
}

/** Unknown keys of the template, basicOption and dialogOption, by where they were found. */
function extraOfTemplate(template: WireTemplate): ListPageModel['extra'] {
  const found = compact({
    template: extraOf(template, KNOWN_TEMPLATE),
    basicOption: template.basicOption ? extraOf(template.basicOption, KNOWN_BASIC) : undefined,
    dialogOption: template.dialogOption ? extraOf(template.dialogOption, KNOWN_DIALOG) : undefined,
  });
  return Object.keys(found).length ? found : undefined;
}

/**
 * The hash is taken over the decoded definition, as the app decodes what the server sends before
 * hashing it: a file holding disTemplate as JSON text and one holding it decoded hash the same.
 */
function sourceOf(file: string, json: unknown, status: number | undefined): SourceInfo {
  return { file, hash: definitionHash(isRecord(json) ? decodeDefinition(json) : json), status: status ?? 0 };
}

export function normalizeViewTemplate(view: WireView, template: WireTemplate, source: SourceInfo, sink: Sink): ListPageModel | undefined {
  const id = view.id as number;
  const componentName = view.disMenu?.componentName?.trim();
  if (!componentName) {
    sink.add('E_REQUIRED', '/disMenu/componentName', 'a view needs disMenu.componentName: it is the permission prefix and the route name');
    return undefined;
  }
  if (!FIELD_NAME.test(componentName))
    sink.add('E_NAME', '/disMenu/componentName', `componentName ${JSON.stringify(componentName)} is not an identifier`);
  const tableReads = readFieldList(template.tableOption, '/disTemplate/tableOption', sink);
  const formReads = template.formOption ? readFieldList(template.formOption, '/disTemplate/formOption', sink) : tableReads;
  // Without formOption the form is made of tableOption's fields: the form's checks are the ones to
  // report, and the column's (show, decimals) would only repeat them at the same pointers.
  const columns = tableReads.map((f) => normalizeColumn(f, template.formOption ? sink : new Sink(sink.file)));
  const fields = formReads.map((f) => normalizeField(f, sink));
  checkReferences(fields, formReads, sink);
  const basic = template.basicOption ?? {};
  const names = new Set([...columns.map((c) => c.name), ...fields.map((f) => f.name)]);
  let sortField = basic.sortName?.trim() || 'id';
  if (!names.has(sortField) && sortField !== 'id' && sortField !== 'createTime') {
    sink.add(
      'E_REFERENCE',
      '/disTemplate/basicOption/sortName',
      `default sort field ${JSON.stringify(sortField)} is not a field of this view`,
    );
    sortField = 'id';
  }
  const dialog = template.dialogOption ?? {};
  const exportBase = dialog.export?.replace(/\/+$/, '') || `/api/general/export/${id}`;
  return compact({
    kind: 'list' as const,
    viewId: id,
    title: view.name?.trim() || view.disMenu?.name?.trim() || componentName,
    componentName,
    path: viewPath(componentName, id),
    source,
    permissions: {
      list: `${componentName}:list`,
      add: `${componentName}:add`,
      edit: `${componentName}:edit`,
      del: `${componentName}:del`,
      look: `${componentName}:look`,
      pre: `${componentName}:pre`,
    },
    features: {
      add: basic.add ?? false,
      edit: basic.edit ?? false,
      del: basic.del ?? false,
      look: basic.look ?? false,
      export: basic.download ?? false,
      import: basic.import ?? false,
      template: basic.template ?? false,
      index: basic.orderNumber ?? false,
      operation: basic.operation ?? false,
    },
    operationWidth: basic.operationWidth,
    defaultSort: { field: sortField, order: basic.sortType ?? 'desc' },
    api: compact({
      list: `/api/general/list/${id}`,
      detail: dialog.detailUrl || '/api/general/detail',
      add: `/api/general/add/${id}`,
      edit: `/api/general/update/${id}`,
      del: `/api/general/delete/${id}`,
      submit: dialog.submitUrl || undefined,
      export: `${exportBase}/download`,
      import: basic.importSubmitUrl || `/api/general/${id}/import`,
      template: `/api/general/${id}/template`,
      groovy: `/api/general/groovy/${id}`,
      preAdd: `/api/general/preAdd/${id}`,
    }),
    columns,
    form: { fields, dividers: dividersOf(template, fields, sink), dialog: dialogOf(template) },
    buttons: buttonsOf(template, names, sink),
    extra: extraOfTemplate(template),
  });
}

// ----- screens -----

const CANVAS_DEFAULTS = {
  basic: { width: 1920, height: 1080, defaultCol: 24, defaultW: 6, defaultH: 18, margin: 20, autoUpdate: false, timer: 60 },
  header: { height: 80, marginTop: 0, bgPosition: 'center', bgSize: '100% 100%' },
};

const CONTAINER_DEFAULTS = {
  style: { padding: 0, bgPosition: 'center', bgSize: 'contain', borderRadius: 4, boxShadow: 'inset 0 0 10px rgba(0, 0, 0, 0.3)' },
  header: { showTitle: false, content: '', height: 50, fontSize: 16, color: '#ffffff', textAlign: 'center' },
};

type WireSuper = NonNullable<NonNullable<WireLayoutItem['container']>['super']>;

/** Container behaviour, whether the designer wrote flags with settings beside them or objects with `enabled`. */
function superOf(s: WireSuper | undefined): LayoutItemModel['container']['super'] {
  const sup = s ?? {};
  const part = <T extends object>(v: boolean | ({ enabled?: boolean | undefined } & T) | undefined) =>
    typeof v === 'object' ? v : ({ enabled: v ?? false } as { enabled?: boolean } & Partial<T>);
  const absolute = part<{ top?: number; left?: number }>(sup.absolute);
  const scroll = part<{ direction?: 'vertical' | 'horizontal'; speed?: number }>(sup.scroll);
  const curtain = part<{ curtainColor?: string }>(sup.curtain);
  return {
    flexDirection: sup.flexDirection ?? 'row',
    absolute: { enabled: absolute.enabled ?? false, top: absolute.top ?? sup.top ?? 0, left: absolute.left ?? sup.left ?? 0 },
    scroll: {
      enabled: scroll.enabled ?? false,
      direction: scroll.direction ?? sup.direction ?? 'vertical',
      speed: scroll.speed ?? sup.speed ?? 3000,
    },
    curtain: { enabled: curtain.enabled ?? false, curtainColor: curtain.curtainColor ?? sup.curtainColor ?? 'rgba(0, 0, 0, 0.4)' },
    animation: typeof sup.animation === 'string' ? sup.animation : '',
  };
}

/** Documented defaults of lowcode-engine.md §3.4, per chart kind. */
const CHART_DEFAULTS: Partial<Record<ChartModel['kind'], Record<string, unknown>>> = {
  pie: { radiusInside: 0, radiusOutSide: 70, fontSize: 12, roseType: '' },
  scrollList: { interval: 3000 },
};

/** Documented defaults under what the definition gives; keys sorted, so key order in the file never matters. */
const withDefaults = (defaults: Record<string, unknown>, given: Record<string, unknown> | undefined) =>
  sortKeysDeep(compact({ ...defaults, ...Object.fromEntries(Object.entries(given ?? {}).filter(([, v]) => !isAbsent(v))) })) as Record<
    string,
    unknown
  >;

function canvasOf(t: NonNullable<WireScreen['disTemplate']>): CanvasModel {
  const c = t.canvasConfigure ?? {};
  return {
    basic: withDefaults(CANVAS_DEFAULTS.basic, c.basic) as CanvasModel['basic'],
    header: withDefaults(CANVAS_DEFAULTS.header, c.header) as CanvasModel['header'],
    mainTitle: withDefaults({}, c.mainTitle),
    subTitle: withDefaults({}, c.subTitle),
    themeColor: (c.themeColor ?? []).map((x) => ({ start: x.start ?? '', end: x.end ?? x.start ?? '' })),
  };
}

function layoutOf(layout: WireLayoutItem[], canvas: CanvasModel, sink: Sink): LayoutItemModel[] {
  const seen = new Set<string>();
  const items = layout.map((item, i): LayoutItemModel => {
    const pointer = `/disTemplate/layout/${i}`;
    const id = item.i?.trim() || String(i);
    if (seen.has(id)) sink.add('E_DUPLICATE', `${pointer}/i`, `layout item ${JSON.stringify(id)} is already defined`);
    seen.add(id);
    const charts = sortByKeys(item.chart, (ch) => ch.chartIndex).map((ch, j): ChartModel => {
      const cp = `${pointer}/chart/${item.chart.indexOf(ch)}`;
      if (!ch.fileName) sink.add('E_REQUIRED', `${cp}/fileName`, 'a chart needs a fileName');
      const kind = ch.fileName ?? 'lineBar';
      const options = withDefaults(CHART_DEFAULTS[kind] ?? {}, ch.configure?.private);
      if (kind === 'pie' && Number(options.radiusInside) > Number(options.radiusOutSide))
        sink.add(
          'E_RANGE',
          `${cp}/configure/private/radiusInside`,
          `pie inner radius ${options.radiusInside} exceeds the outer radius ${options.radiusOutSide}`,
        );
      const dataViewId = ch.configure?.private?.dataViewId;
      return compact({
        kind,
        chartIndex: ch.chartIndex ?? j,
        flexSize: ch.flexSize ?? 1,
        dataViewId,
        common: withDefaults({}, ch.configure?.common),
        options,
      });
    });
    const sup = superOf(item.container?.super);
    const speed = sup.scroll.speed;
    if (!Number.isInteger(speed) || speed < 1) {
      const scroll = item.container?.super?.scroll;
      const at = typeof scroll === 'object' && scroll.speed !== undefined ? 'scroll/speed' : 'speed';
      sink.add('E_RANGE', `${pointer}/container/super/${at}`, `scroll speed must be a whole number of at least 1, got ${speed}`);
    }
    return {
      i: id,
      x: item.x ?? 0,
      y: item.y ?? 0,
      w: item.w ?? canvas.basic.defaultW,
      h: item.h ?? canvas.basic.defaultH,
      container: {
        style: withDefaults(CONTAINER_DEFAULTS.style, item.container?.style),
        header: withDefaults(CONTAINER_DEFAULTS.header, item.container?.header),
        super: sup,
      },
      charts,
    };
  });
  return sortByKeys(
    items,
    (x) => x.y,
    (x) => x.x,
  );
}

function viewIdsOf(v: number | (number | undefined)[] | undefined): number[] {
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).filter((x): x is number => x !== undefined);
}

export function normalizeScreenTemplate(
  screen: WireScreen,
  template: NonNullable<WireScreen['disTemplate']>,
  source: SourceInfo,
  sink: Sink,
): PageModel | undefined {
  const id = screen.id as number;
  const title = screen.name?.trim() || screen.disMenu?.name?.trim() || `大屏 ${id}`;
  const path = screenPath(id);
  switch (screen.type) {
    case 1:
    case 4: {
      const views = viewIdsOf(template.baseView);
      if (views.length === 0) {
        sink.add(
          'E_REQUIRED',
          '/disTemplate/baseView',
          `a type-${screen.type} screen needs baseView: the id of the list view${screen.type === 4 ? 's shown as tabs' : ' it shows'}`,
        );
        return undefined;
      }
      if (screen.type === 1 && views.length > 1)
        sink.add('E_RANGE', '/disTemplate/baseView', 'a type-1 screen shows one view; use type 4 for tabs');
      const model: ContainerPageModel = {
        kind: 'container',
        screenId: id,
        screenType: screen.type,
        title,
        path,
        source,
        views: [...new Set(views)],
      };
      return model;
    }
    case 3: {
      if (template.formView === undefined) {
        sink.add('E_REQUIRED', '/disTemplate/formView', 'a type-3 screen needs formView: the id of the view whose form it shows');
        return undefined;
      }
      const model: FormPageModel = { kind: 'form', screenId: id, title, path, source, formView: template.formView };
      return model;
    }
    case 2: {
      const canvas = canvasOf(template);
      for (const key of ['width', 'height', 'defaultCol', 'defaultW', 'defaultH'] as const) {
        const v = canvas.basic[key];
        if (!Number.isInteger(v) || v < 1)
          sink.add('E_RANGE', `/disTemplate/canvasConfigure/basic/${key}`, `${key} must be a whole number of at least 1, got ${v}`);
      }
      const model: BigScreenModel = {
        kind: 'bigScreen',
        screenId: id,
        title,
        path,
        source,
        canvas,
        layout: layoutOf(template.layout ?? [], canvas, sink),
      };
      return model;
    }
    default:
      sink.add(
        'E_SCREEN_TYPE',
        '/type',
        `screen type must be 1 (list preview), 2 (big screen), 3 (form preview) or 4 (tabs), got ${JSON.stringify(screen.type ?? null)}`,
      );
      return undefined;
  }
}

/** One definition file's JSON → its page model, or the reason it is skipped, and its problems. */
export function normalizeDefinition(input: DefinitionInput): NormalizeResult {
  const sink = new Sink(input.file);
  if (!isRecord(input.json)) {
    sink.add('E_TYPE', '', 'a definition file holds one JSON object');
    return { problems: sink.problems };
  }
  const parsed = input.kind === 'view' ? parseView(input.json, input.file) : parseScreen(input.json, input.file);
  // A value the parser dropped is reported once: what is missing at or below it follows from that.
  const derived = (pointer: string) => [...parsed.dropped].some((d) => pointer === d || pointer.startsWith(`${d}/`));
  const done = (r: Omit<NormalizeResult, 'problems'>): NormalizeResult => ({
    ...r,
    problems: [...parsed.problems, ...sink.problems.filter((p) => !derived(p.pointer))],
  });
  const def = parsed.value;
  if (!def) return done({});
  if (def.id === undefined) {
    sink.add('E_REQUIRED', '/id', `a ${input.kind} definition needs an id`);
    return done({});
  }
  if (isUndesigned(input.json)) return done({ skipped: { id: def.id, reason: 'not designed yet (disTemplate is empty)' } });
  const source = sourceOf(input.file, input.json, def.status);
  let page: PageModel | undefined;
  if (input.kind === 'view') {
    const view = def as WireView;
    page = view.disTemplate ? normalizeViewTemplate(view, view.disTemplate, source, sink) : undefined;
  } else {
    const screen = def as WireScreen;
    page = screen.disTemplate ? normalizeScreenTemplate(screen, screen.disTemplate, source, sink) : undefined;
  }
  return done(page ? { page } : {});
}

export interface NormalizedSet {
  pages: PageModel[];
  skipped: { file: string; id: number | undefined; reason: string }[];
  problems: Problem[];
}

/** Every definition, then the checks across files: duplicate ids, screens naming missing views. */
export function normalizeAll(inputs: readonly DefinitionInput[]): NormalizedSet {
  const pages: PageModel[] = [];
  const skipped: NormalizedSet['skipped'] = [];
  const problems: Problem[] = [];
  for (const input of inputs) {
    const r = normalizeDefinition(input);
    problems.push(...r.problems);
    if (r.page) pages.push(r.page);
    if (r.skipped) skipped.push({ file: input.file, ...r.skipped });
  }
  const byId = new Map<string, PageModel>();
  for (const page of pages) {
    const key = page.kind === 'list' ? `view:${page.viewId}` : `screen:${page.screenId}`;
    const first = byId.get(key);
    if (first)
      problems.push({
        code: 'E_DUPLICATE',
        file: page.source.file,
        pointer: '/id',
        message: `${key.replace(':', ' ')} is also defined in ${first.source.file}`,
      });
    else byId.set(key, page);
  }
  const viewIds = new Set(pages.flatMap((p) => (p.kind === 'list' ? [p.viewId] : [])));
  const skippedIds = new Set(skipped.map((s) => s.id));
  for (const page of pages) {
    const refs =
      page.kind === 'container'
        ? page.views.map((v) => ({ v, pointer: '/disTemplate/baseView' }))
        : page.kind === 'form'
          ? [{ v: page.formView, pointer: '/disTemplate/formView' }]
          : [];
    for (const { v, pointer } of refs) {
      if (!viewIds.has(v))
        problems.push({
          code: 'W_REFERENCE',
          file: page.source.file,
          pointer,
          message: `view ${v} is not among the definitions${skippedIds.has(v) ? ' (it is not designed yet)' : ''}; the page renders it at run time`,
        });
    }
  }
  return { pages, skipped, problems };
}

export { pointerOf, Sink };
