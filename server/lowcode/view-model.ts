import {
  type ButtonModel,
  buildSchema,
  type ColumnModel,
  type DataType,
  type DefinitionKind,
  type FieldModel,
  type FieldShape,
  type FormSchema,
  hasTimeOfDay,
  isAbsent,
  isWarning,
  type ListPageModel,
  menuComponentName,
  normalizeDefinition,
  type PageModel,
  type Show,
  SYSTEM_FIELDS,
  type SystemFieldName,
  sortProblems,
} from '../../src/model/index.js';
import { definitionInvalidParams } from '../../src/shared/error-catalogue.js';
import { badRequest } from '../errors.js';
import { serverPatterns } from '../lib/bounded-pattern.js';
import type { ReferenceLabel } from './reference-labels.js';

/**
 * The server reads view and screen definitions only through the page model; this adapter adds what
 * SQL needs (columns and their types, how each field filters) and nothing the model already decides.
 */

/** One field of a view as the table and the list call see it: its form entry and its column merged. */
export interface ViewField {
  /** Name on the wire. */
  name: string;
  /** Column of the view's table: the name itself, or the system column a system field maps to. */
  column: string;
  system: SystemFieldName | undefined;
  label: string;
  dataType: DataType;
  /** The form's entry; undefined for a field that is only a list column (never written). */
  form: FieldModel | undefined;
  /** The form's show; a list column alone reads as 1. */
  show: Show;
  dict: string | undefined;
  city: boolean;
  remote: boolean;
  multiple: boolean;
  /** File or image list, stored as JSON text. */
  file: boolean;
  search: boolean;
  sortable: boolean;
  editLock: boolean;
  /** Its timeFormat has no hours: stored at midnight, listed as YYYY-MM-DD. */
  dateOnly: boolean;
  /** The list call filters it by equality (numbers, dictionary and remote options, createBy), not by text. */
  exact: boolean;
}

export interface ViewColumn {
  name: string;
  /** The spelling format_type() gives back, so that a design can compare it with the live column. */
  type: string;
  /** undefined for the `{name}Fmt` label column of a city cascader. */
  field: ViewField | undefined;
}

export interface ViewModel {
  id: number;
  title: string;
  componentName: string;
  page: ListPageModel;
  /** Every distinct field of the form and the list, form first. */
  fields: ViewField[];
  byName: Map<string, ViewField>;
  /** Columns the view's table holds besides the system ones. */
  columns: ViewColumn[];
  tableFields: ViewField[];
  formFields: ViewField[];
  buttons: ButtonModel[];
  /** The form's schema: what a record must satisfy to be written. */
  schema: FormSchema<FieldShape>;
  /** Fields picking other records whose labels are answered as `{name}Fmt` (set when the view is loaded). */
  references?: ReferenceLabel[];
}

export interface DefinitionRow {
  id: number;
  name: string;
  status?: number;
  dis_menu: string | null;
  dis_template: string | null;
}

/** How a problem names the definition it is in. */
const FILE_OF: Record<DefinitionKind, string> = { view: '视图定义', screen: '大屏定义' };

/** The long-text kinds are stored as text, every other text as varchar(255). */
const isLongText = (f: FieldModel | undefined) =>
  f?.kind === 'textarea' || f?.kind === 'editor' || f?.kind === 'file' || f?.kind === 'image';

function sqlType(dataType: DataType, form: FieldModel | undefined): string {
  switch (dataType) {
    case 'long':
      return 'bigint';
    case 'decimal':
      return 'numeric(20,6)';
    case 'datetime':
      return 'timestamp without time zone';
    default:
      return isLongText(form) ? 'text' : 'character varying(255)';
  }
}

function viewField(form: FieldModel | undefined, column: ColumnModel | undefined): ViewField {
  const entry = (form ?? column) as FieldModel | ColumnModel;
  const system = form?.system ?? column?.system;
  const dataType = form?.dataType ?? (column as ColumnModel).dataType;
  const city = form?.kind === 'city' || column?.searchKind === 'city';
  const remote = form?.kind === 'remote' || column?.searchKind === 'remote';
  const multiple = (form?.remote?.multiple ?? false) || (column?.remote?.multiple ?? false);
  const dict = form?.dict ?? column?.dict;
  return {
    name: entry.name,
    column: system ? SYSTEM_FIELDS[system].column : entry.name,
    system,
    label: entry.label,
    dataType,
    form,
    show: form?.show ?? 1,
    dict,
    city,
    remote,
    multiple,
    file: form?.kind === 'file' || form?.kind === 'image',
    search: column?.search ?? false,
    sortable: column?.sortable ?? false,
    editLock: form?.editLock ?? false,
    dateOnly: !hasTimeOfDay(form?.timeFormat ?? column?.timeFormat),
    exact:
      dataType === 'long' ||
      dataType === 'decimal' ||
      system === 'createBy' ||
      (dataType === 'varchar' && !multiple && !city && (dict !== undefined || remote)),
  };
}

/** The page model of a view → what the table and the list call need. */
export function viewModelOf(page: ListPageModel): ViewModel {
  const columnOf = new Map(page.columns.map((c) => [c.name, c]));
  const byName = new Map<string, ViewField>();
  for (const f of page.form.fields) byName.set(f.name, viewField(f, columnOf.get(f.name)));
  for (const c of page.columns) if (!byName.has(c.name)) byName.set(c.name, viewField(undefined, c));
  const fields = [...byName.values()];
  const columns: ViewColumn[] = fields.filter((f) => !f.system).map((f) => ({ name: f.name, type: sqlType(f.dataType, f.form), field: f }));
  // A city cascader also keeps its labels in `{name}Fmt`.
  for (const f of fields) {
    const fmt = `${f.name}Fmt`;
    if (f.city && !f.system && !byName.has(fmt)) columns.push({ name: fmt, type: 'character varying(255)', field: undefined });
  }
  return {
    id: page.viewId,
    title: page.title,
    componentName: page.componentName,
    page,
    fields,
    byName,
    columns,
    tableFields: page.columns.map((c) => byName.get(c.name) as ViewField),
    formFields: page.form.fields.map((f) => byName.get(f.name) as ViewField),
    buttons: page.buttons,
    schema: buildSchema(page.form, serverPatterns),
  };
}

/**
 * A definition's page model, through the same normaliser as `wastegen generate`, so that nothing the
 * server accepts can later fail a team's CI. Errors (not warnings) answer 400 with their JSON
 * pointers and the catalogue's Chinese text of each problem; an undesigned definition gives undefined.
 */
export function readPage(kind: DefinitionKind, json: Record<string, unknown>): PageModel | undefined {
  const r = normalizeDefinition({ kind, file: FILE_OF[kind], json });
  const errors = sortProblems(r.problems.filter((p) => !isWarning(p)));
  if (errors.length) throw badRequest('DEFINITION_INVALID', definitionInvalidParams(errors));
  return r.page;
}

/** A stored or received view definition → its model; null when it has not been designed yet. */
export function readView(row: DefinitionRow): ViewModel | null {
  if (isAbsent(row.dis_template)) return null;
  const page = readPage('view', {
    id: row.id,
    name: row.name,
    status: row.status ?? 0,
    disMenu: row.dis_menu,
    disTemplate: row.dis_template,
  });
  return page?.kind === 'list' ? viewModelOf(page) : null;
}

/** disMenu.componentName of a stored view (its permission prefix), also for a view not designed yet. */
export function componentNameOf(_id: number, disMenu: string | null): string | undefined {
  return menuComponentName(disMenu);
}

/**
 * The views a stored screen draws (baseView of types 1 and 4, formView of type 3; none for a big
 * screen), or undefined when its definition does not read.
 */
export function screenViewsOf(row: { id: number; type: number; dis_template: string | null }): number[] | undefined {
  const r = normalizeDefinition({
    kind: 'screen',
    file: FILE_OF.screen,
    json: { id: row.id, type: row.type, disTemplate: row.dis_template },
  });
  if (r.skipped) return [];
  if (r.problems.some((p) => !isWarning(p))) return undefined;
  const page = r.page;
  return page?.kind === 'container' ? page.views : page?.kind === 'form' ? [page.formView] : page ? [] : undefined;
}
