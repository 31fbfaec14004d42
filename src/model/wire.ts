import { z } from 'zod';
import { isAbsent, type Read, readBoolean, readInteger, readJsonText, readNumeric, readText, readTextList, readWidth } from './coerce.js';
import { FAILED, withFastReader } from './fast-parse.js';
import type { ProblemCode } from './problems.js';

/**
 * Zod schemas of the wire format, lenient: booleans, numbers and lists may come as text, embedded JSON
 * as text or decoded, empty text as absent. They accept what servers of this family send and give
 * typed values; every value that cannot be coerced becomes an issue carrying a problem code (see
 * `issuesToProblems`). Objects are loose: unknown keys are kept. The shapes are exported so that the
 * normaliser knows which keys are named here and keeps the others as `extra`.
 */

/** What a lenient wire value reads as; the editors pick their control by it. */
export type WireValueKind = 'boolean' | 'number' | 'integer' | 'width' | 'text' | 'list' | 'enum';

const valueKinds = z.registry<{ kind: WireValueKind; values?: readonly string[] }>();

/** The kind of value a wire schema reads (and for an enum its words), or undefined for a free or nested value. */
export const wireValueKind = (schema: z.ZodType): { kind: WireValueKind; values?: readonly string[] } | undefined => valueKinds.get(schema);

function lenient<T>(read: (v: unknown) => Read<T>, code: ProblemCode, kind: WireValueKind, values?: readonly string[]) {
  const schema = z
    .unknown()
    .transform((v, ctx): T | undefined => {
      const r = read(v);
      if (r.ok) return r.value;
      ctx.addIssue({ code: 'custom', message: r.message, params: { code }, input: v });
      return z.NEVER;
    })
    .optional()
    .register(valueKinds, values ? { kind, values } : { kind });
  // What the schema's parts do, in one call: absent stays absent, the rest is read or fails.
  return withFastReader(schema, (v) => {
    if (v === undefined) return undefined;
    const r = read(v);
    return r.ok ? r.value : FAILED;
  });
}

export const wBool = () => lenient(readBoolean, 'E_BOOLEAN', 'boolean');
export const wNum = () => lenient(readNumeric, 'E_NUMBER', 'number');
export const wInt = () => lenient(readInteger, 'E_NUMBER', 'integer');
export const wWidth = () => lenient(readWidth, 'E_NUMBER', 'width');
export const wText = () => lenient(readText, 'E_TYPE', 'text');
export const wList = () => lenient(readTextList, 'E_LIST', 'list');

/** One of a fixed set of words, compared without case; absent is undefined. */
export function wEnum<const T extends string>(values: readonly T[]) {
  return lenient(
    (v): Read<T> => {
      const r = readText(v);
      if (!r.ok || r.value === undefined) return r as Read<T>;
      const hit = values.find((x) => x.toLowerCase() === r.value?.trim().toLowerCase());
      return hit
        ? { ok: true, value: hit }
        : { ok: false, message: `expected one of ${values.join(', ')}, got ${JSON.stringify(r.value)}` };
    },
    'E_ENUM',
    'enum',
    values,
  );
}

/** An object, or absent ('' and null count as absent). */
function wObject<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.preprocess((v) => (isAbsent(v) ? undefined : v), z.looseObject(shape).optional());
}

/** JSON text inside JSON, or the decoded object as `wastegen pull` writes it. */
function wEmbedded<T extends z.ZodType>(inner: T) {
  return z
    .unknown()
    .transform((v, ctx) => {
      const r = readJsonText(v);
      if (!r.ok) {
        ctx.addIssue({ code: 'custom', message: r.message, params: { code: 'E_JSON' }, input: v });
        return z.NEVER;
      }
      return r.value;
    })
    .pipe(inner)
    .optional();
}

/** A list given as an array or as `{ "items": [...] }` (tableOption, formOption, btnDIYOption). */
function wItems<T extends z.ZodType>(item: T) {
  return z.preprocess((v) => (isAbsent(v) ? undefined : v), wItemList(item).optional());
}

function wItemList<T extends z.ZodType>(item: T) {
  return z
    .union([z.array(item), z.looseObject({ items: z.preprocess((v) => (isAbsent(v) ? [] : v), z.array(item)) })])
    .transform((v) => (Array.isArray(v) ? { items: v, viaItems: false } : { items: v.items, viaItems: true }));
}

const relation = wObject({ item: wList(), value: wText() });

const remoteParam = z.looseObject({ key: wText(), type: wEnum(['1', '2']), value: wText() });

/** A field's configure block: what a column shows and how the form edits and checks the field. */
export const fieldConfigureShape = {
  // table
  sort: wNum(),
  search: wBool(),
  dict: wText(),
  show: z.unknown().optional(),
  width: wWidth(),
  align: wEnum(['left', 'center', 'right']),
  sortable: wBool(),
  overflow: wBool(),
  tags: wBool(),
  unit: wText(),
  money: wBool(),
  // form
  required: wBool(),
  min: wNum(),
  max: wNum(),
  pattern: wText(),
  validator: wText(),
  decimals: wInt(),
  defaultValue: z.unknown().optional(),
  tips: wText(),
  inputWidth: wWidth(),
  disabled: wBool(),
  editLock: wBool(),
  textarea: wBool(),
  rows: wInt(),
  file: wEnum(['image', 'file']),
  fileType: wList(),
  fileSize: wInt(),
  city: wBool(),
  editor: wBool(),
  sportData: wBool(),
  sportData_type: wEnum(['list', 'tree']),
  sportData_list_multiple: wBool(),
  sportData_url: wText(),
  sportData_params: z.preprocess((v) => (isAbsent(v) ? undefined : v), z.array(remoteParam).optional()),
  timeFmt: wText(),
  showRelation: relation,
  requiredRelation: relation,
};

export const fieldConfigure = wObject(fieldConfigureShape);

export const wireField = z.looseObject({
  name: wText(),
  chName: wText(),
  dataType: wText(),
  linked: wBool(),
  configure: fieldConfigure,
});

/** A custom button's configure block. */
export const buttonConfigureShape = {
  position: wEnum(['fun', 'opt']),
  action: wEnum(['submit', 'groovy', 'dialog', 'view', 'website', 'system']),
  submitType: wEnum(['get', 'post', 'download']),
  submitUrl: wText(),
  groovyAction: wText(),
  view: wInt(),
  foreignKey: wText(),
  linkField: wText(),
  websiteUrl: wText(),
  confirm: wBool(),
  multiple: wBool(),
  root: wList(),
  rootDIY: wList(),
  showRelation_item: wText(),
  showRelation_value: wText(),
  sort: wNum(),
};

export const wireButton = z.looseObject({
  name: wText(),
  chName: wText(),
  configure: wObject(buttonConfigureShape),
});

/** A view's switches: which actions it offers, and its default sort. */
export const basicOptionShape = {
  add: wBool(),
  del: wBool(),
  edit: wBool(),
  look: wBool(),
  download: wBool(),
  import: wBool(),
  template: wBool(),
  orderNumber: wBool(),
  operation: wBool(),
  operationWidth: wWidth(),
  sortName: wText(),
  sortType: wEnum(['asc', 'desc']),
  importSubmitUrl: wText(),
};

/** The add/edit dialog's layout and the addresses it calls. */
export const dialogOptionShape = {
  width: wWidth(),
  labelWidth: wWidth(),
  inputWidth: wWidth(),
  inline: wBool(),
  submitUrl: wText(),
  detailUrl: wText(),
  key: wText(),
  export: wText(),
  suffix: wText(),
  initGroovy: wBool(),
};

/** A view's disTemplate. */
export const templateShape = {
  basicOption: wObject(basicOptionShape),
  tableOption: wItems(wireField),
  formOption: wItems(wireField),
  dialogOption: wObject(dialogOptionShape),
  formDividerOption: wItems(z.looseObject({ position: z.unknown().optional(), chName: wText() })),
  btnDIYOption: wItems(wireButton),
};

export const wireTemplate = wObject(templateShape);

const wireMenu = wEmbedded(wObject({ componentName: wText(), name: wText() }));

export const wireView = z.looseObject({
  id: wInt(),
  name: wText(),
  menuId: wInt(),
  status: wInt(),
  disMenu: wireMenu,
  disTemplate: wEmbedded(wireTemplate),
});

// ----- screens -----

const wColor = wText;

export const wireCanvas = wObject({
  basic: wObject({
    width: wNum(),
    height: wNum(),
    bgColor: wColor(),
    bgImg: wText(),
    defaultCol: wInt(),
    defaultW: wInt(),
    defaultH: wInt(),
    margin: wNum(),
    autoUpdate: wBool(),
    timer: wNum(),
  }),
  header: wObject({ width: wWidth(), height: wNum(), marginTop: wNum(), bgImg: wText(), bgPosition: wText(), bgSize: wText() }),
  mainTitle: wObject({
    content: wText(),
    size: wNum(),
    color: wColor(),
    bold: wBool(),
    /** A CSS text-shadow, or a flag in older designers. */
    shadow: z.unknown().optional(),
    bg: wText(),
    /** The background image's alignment and size (CSS background-position, background-size). */
    bgPosition: wText(),
    bgSize: wText(),
    width: wWidth(),
    height: wNum(),
    marginTop: wNum(),
  }),
  subTitle: wObject({ time: wBool(), content: wText(), marginTop: wNum(), size: wNum(), color: wColor(), bold: wBool() }),
  themeColor: z.preprocess((v) => (isAbsent(v) ? undefined : v), z.array(z.looseObject({ start: wColor(), end: wColor() })).optional()),
});

export const CHART_KINDS = ['lineBar', 'pie', 'scrollList', 'cityTransaction', 'siteInfo', 'provinceInfo', 'companyData', 'radar'] as const;

export const wireChart = z.looseObject({
  fileName: wEnum(CHART_KINDS),
  chartIndex: wInt(),
  flexSize: wNum(),
  configure: wObject({
    common: wObject({}),
    private: wObject({
      dataViewId: wInt(),
      radiusInside: wNum(),
      radiusOutSide: wNum(),
      interval: wNum(),
    }),
  }),
});

export const wireLayoutItem = z.looseObject({
  i: wText(),
  x: wNum(),
  y: wNum(),
  w: wNum(),
  h: wNum(),
  container: wObject({
    style: wObject({}),
    header: wObject({ showTitle: wBool(), content: wText(), height: wNum(), fontSize: wNum() }),
    // absolute, scroll and curtain come as flags with their settings beside them
    // or as objects { enabled, ...settings }; normalize.ts reads both.
    super: wObject({
      flexDirection: wEnum(['row', 'column']),
      absolute: z.union([wObject({ enabled: wBool(), top: wNum(), left: wNum() }), wBool()]).optional(),
      top: wNum(),
      left: wNum(),
      scroll: z.union([wObject({ enabled: wBool(), direction: wEnum(['vertical', 'horizontal']), speed: wNum() }), wBool()]).optional(),
      direction: wEnum(['vertical', 'horizontal']),
      speed: wNum(),
      animation: z.unknown().optional(),
      curtain: z.union([wObject({ enabled: wBool(), curtainColor: wColor() }), wBool()]).optional(),
      curtainColor: wColor(),
    }),
  }),
  chart: z.preprocess((v) => (isAbsent(v) ? [] : v), z.array(wireChart)),
});

/** View ids as comma-separated text, `"12,13"`: a list may come as text. */
const idListText = z.string().transform((v, ctx): number[] => {
  const ids: number[] = [];
  for (const part of v.split(',')) {
    const r = readInteger(part.trim());
    if (!r.ok) {
      ctx.addIssue({ code: 'custom', message: r.message, params: { code: 'E_NUMBER' }, input: v });
      return z.NEVER;
    }
    if (r.value !== undefined) ids.push(r.value);
  }
  return ids;
});

export const wireScreenTemplate = wObject({
  // The list first: wInt() takes any value, so a list with one bad id would be reported as a whole.
  baseView: z.union([z.array(wInt()), idListText, wInt()]).optional(),
  formView: wInt(),
  canvasConfigure: wireCanvas,
  layout: z.preprocess((v) => (isAbsent(v) ? undefined : v), z.array(wireLayoutItem).optional()),
});

export const wireScreen = z.looseObject({
  id: wInt(),
  name: wText(),
  menuId: wInt(),
  status: wInt(),
  type: wInt(),
  disMenu: wireMenu,
  disTemplate: wEmbedded(wireScreenTemplate),
});

export type WireView = z.output<typeof wireView>;
export type WireScreen = z.output<typeof wireScreen>;
export type WireTemplate = NonNullable<WireView['disTemplate']>;
export type WireField = z.output<typeof wireField>;
export type WireFieldConfigure = NonNullable<WireField['configure']>;
export type WireButton = z.output<typeof wireButton>;
export type WireScreenTemplate = NonNullable<WireScreen['disTemplate']>;
export type WireLayoutItem = z.output<typeof wireLayoutItem>;
export type WireCanvas = NonNullable<z.output<typeof wireCanvas>>;
