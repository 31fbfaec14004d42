/**
 * The page model: what a definition means, settled once (names, defaults, sort order, relations,
 * validators, permission keys). The emitters print it into generated/ and the runtime renderer
 * interprets it; neither decides any of these things again. Plain data only, so that it can be
 * printed as a literal and compared with `toEqual`.
 */
import type { SystemFieldName } from './names.js';
import type { ValidatorName } from './validators.js';

export type DataType = 'varchar' | 'long' | 'decimal' | 'datetime';

/** 1 shown and editable, 2 hidden, 3 shown read-only, 4 hidden and not submitted. */
export type Show = 1 | 2 | 3 | 4;

/** How a field is edited; decided from dataType and configure in one place (`fieldKind`). */
export type FieldKind = 'text' | 'textarea' | 'editor' | 'long' | 'decimal' | 'datetime' | 'dict' | 'remote' | 'city' | 'file' | 'image';

export interface Relation {
  /** The fields the trigger controls. */
  fields: string[];
  /** Compared with the trigger's value as text. */
  value: string;
}

export interface RemoteParam {
  key: string;
  /** `fixed`: value is sent as it is; `field`: value names the field whose current value is sent. */
  source: 'fixed' | 'field';
  value: string;
}

export interface RemoteOptions {
  url: string;
  tree: boolean;
  multiple: boolean;
  params: RemoteParam[];
}

export interface UploadRules {
  image: boolean;
  /** Lower-case extensions without dots. */
  accept: string[];
  maxCount: number;
}

export interface FieldModel {
  name: string;
  /** Set when the field is one of the table's system columns (names.ts SYSTEM_FIELDS): read-only, never submitted. */
  system?: SystemFieldName;
  label: string;
  dataType: DataType;
  kind: FieldKind;
  show: Show;
  required: boolean;
  min?: number;
  max?: number;
  /** JavaScript regular-expression source without slashes. */
  pattern?: string;
  validator?: ValidatorName;
  /** Digits after the point for decimal fields; the step is 10^-decimals. */
  decimals?: number;
  step?: number;
  /** Text inputs 255, textareas 1024; absent when a pattern decides the format. */
  maxLength?: number;
  defaultValue?: string | number | boolean;
  tips?: string;
  inputWidth?: number | string;
  disabled: boolean;
  /** Editable when adding, read-only when editing. */
  editLock: boolean;
  dict?: string;
  rows?: number;
  /** dayjs format (yyyy-MM-dd hh:mm:ss read as YYYY-MM-DD HH:mm:ss). */
  timeFormat?: string;
  remote?: RemoteOptions;
  upload?: UploadRules;
  showRelation?: Relation;
  requiredRelation?: Relation;
  /** configure keys this model does not name, kept as they came. */
  extra?: Record<string, unknown>;
}

export type Align = 'left' | 'center' | 'right';

export interface ColumnModel {
  name: string;
  /** Set when the column is one of the table's system columns (names.ts SYSTEM_FIELDS). */
  system?: SystemFieldName;
  label: string;
  dataType: DataType;
  /** Visible by default (the user may change it in the column chooser). */
  visible: boolean;
  width?: number | string;
  align?: Align;
  dict?: string;
  tags: boolean;
  sortable: boolean;
  overflow: boolean;
  unit?: string;
  money: boolean;
  decimals?: number;
  timeFormat?: string;
  /** In the search bar. */
  search: boolean;
  /** How the search bar edits it. */
  searchKind: 'text' | 'number' | 'date' | 'dict' | 'remote' | 'city';
  remote?: RemoteOptions;
  extra?: Record<string, unknown>;
}

export interface DividerModel {
  /** Drawn before this field. */
  before: string;
  title: string;
}

export interface DialogModel {
  width: number | string;
  labelWidth: number | string;
  inputWidth?: number | string;
  inline: boolean;
  /** Primary-key field. */
  key: string;
  suffix?: string;
  initGroovy: boolean;
}

export interface FormModel {
  /** In display order. */
  fields: FieldModel[];
  dividers: DividerModel[];
  dialog: DialogModel;
}

export type ButtonAction = 'submit' | 'groovy' | 'dialog' | 'view' | 'website' | 'system';

export interface ButtonModel {
  name: string;
  label: string;
  /** `toolbar` acts on the selected rows (`fun`), `row` is a row action (`opt`). */
  position: 'toolbar' | 'row';
  action: ButtonAction;
  submitType?: 'get' | 'post' | 'download';
  submitUrl?: string;
  groovyAction?: string;
  /** Target view of `dialog` and `view`. */
  view?: number;
  /** One-to-many: the target view's field holding this row's key (`view`, `dialog`). */
  foreignKey?: string;
  /**
   * Many-to-one: the field of this row holding the key of the one record the button opens (`dialog`,
   * `view`, `system`). The button shows only on rows where it holds a value; the record opens read-only.
   */
  linkField?: string;
  websiteUrl?: string;
  confirm: boolean;
  multiple: boolean;
  /** Roles that see the button (root ∪ rootDIY); empty means the administrator alone, who always does. */
  roles: string[];
  /** Row buttons: shown only where row[field] equals value (as text). */
  showWhen?: { field: string; value: string };
  /** configure keys this model does not name, kept as they came. */
  extra?: Record<string, unknown>;
}

export interface ListPermissions {
  list: string;
  add: string;
  edit: string;
  del: string;
  look: string;
  pre: string;
}

export interface ListFeatures {
  add: boolean;
  edit: boolean;
  del: boolean;
  look: boolean;
  export: boolean;
  import: boolean;
  template: boolean;
  index: boolean;
  operation: boolean;
}

export interface SourceInfo {
  /** Definition file relative to the project root. */
  file: string;
  /** Content hash of the definition (see hash.ts), compared by the app with the server's. */
  hash: string;
  /** 0 draft, 1 published (views); 0 disabled, 1 enabled (screens). */
  status: number;
}

/** Every call a list page makes, with the definition's overrides applied. */
export interface ListApi {
  list: string;
  /** GET with generalId and the key (dialogOption.detailUrl). */
  detail: string;
  add: string;
  edit: string;
  del: string;
  /** dialogOption.submitUrl: one URL for both add and edit, when the definition sets it. */
  submit?: string;
  /** `{export}/download` */
  export: string;
  import: string;
  template: string;
  groovy: string;
  preAdd: string;
}

export interface ListPageModel {
  kind: 'list';
  viewId: number;
  title: string;
  /** Permission prefix and the page's name in routes. */
  componentName: string;
  path: string;
  source: SourceInfo;
  permissions: ListPermissions;
  features: ListFeatures;
  operationWidth?: number | string;
  defaultSort: { field: string; order: 'asc' | 'desc' };
  api: ListApi;
  /** In column order. */
  columns: ColumnModel[];
  form: FormModel;
  /** In their configured order. */
  buttons: ButtonModel[];
  /** Keys of the template, basicOption and dialogOption this model does not name, kept as they came. */
  extra?: { template?: Record<string, unknown>; basicOption?: Record<string, unknown>; dialogOption?: Record<string, unknown> };
}

/** Screen type 3: one view's form as a full page. */
export interface FormPageModel {
  kind: 'form';
  screenId: number;
  title: string;
  path: string;
  source: SourceInfo;
  formView: number;
}

/** Screen types 1 (one list view) and 4 (list views as tabs). */
export interface ContainerPageModel {
  kind: 'container';
  screenId: number;
  screenType: 1 | 4;
  title: string;
  path: string;
  source: SourceInfo;
  views: number[];
}

export interface ThemeColor {
  start: string;
  end: string;
}

export interface CanvasModel {
  basic: {
    width: number;
    height: number;
    bgColor?: string;
    bgImg?: string;
    defaultCol: number;
    defaultW: number;
    defaultH: number;
    margin: number;
    autoUpdate: boolean;
    timer: number;
  };
  /** `width` (pixels or CSS text) narrows the header, centred; absent is the canvas's width. */
  header: { width?: number | string; height: number; marginTop: number; bgImg?: string; bgPosition: string; bgSize: string };
  mainTitle: Record<string, unknown>;
  subTitle: Record<string, unknown>;
  themeColor: ThemeColor[];
}

export type ChartKind = 'lineBar' | 'pie' | 'scrollList' | 'cityTransaction' | 'siteInfo' | 'provinceInfo' | 'companyData' | 'radar';

export interface ChartModel {
  kind: ChartKind;
  chartIndex: number;
  flexSize: number;
  dataViewId?: number;
  common: Record<string, unknown>;
  /** The chart's own settings (configure.private), with the defaults of its kind filled in. */
  options: Record<string, unknown>;
}

export interface LayoutItemModel {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
  container: {
    style: Record<string, unknown>;
    header: Record<string, unknown>;
    super: {
      flexDirection: 'row' | 'column';
      absolute: { enabled: boolean; top: number; left: number };
      scroll: { enabled: boolean; direction: 'vertical' | 'horizontal'; speed: number };
      curtain: { enabled: boolean; curtainColor: string };
      animation: string;
    };
  };
  charts: ChartModel[];
}

export interface BigScreenModel {
  kind: 'bigScreen';
  screenId: number;
  title: string;
  path: string;
  source: SourceInfo;
  canvas: CanvasModel;
  /** Sorted top to bottom, left to right. */
  layout: LayoutItemModel[];
}

export type PageModel = ListPageModel | FormPageModel | ContainerPageModel | BigScreenModel;

/** What the checks across definitions and the route list read of a page: a page model is one. */
export type PageOutline =
  | Pick<ListPageModel, 'kind' | 'viewId' | 'componentName' | 'path' | 'title' | 'source'>
  | Pick<FormPageModel, 'kind' | 'screenId' | 'formView' | 'path' | 'title' | 'source'>
  | Pick<ContainerPageModel, 'kind' | 'screenId' | 'views' | 'path' | 'title' | 'source'>
  | Pick<BigScreenModel, 'kind' | 'screenId' | 'path' | 'title' | 'source'>;
