/** Names derived from definitions: file slugs, identifiers and route paths, decided here only. */

/** `stockIn` → `stock-in`; anything that is not a Latin letter or digit becomes a separator. */
export function kebabCase(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z])(?=[A-Z][a-z])/g, '$1-')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
}

/** `stock-in` / `stockIn` → `StockIn`; a leading digit gets a `V` so that the result is an identifier. */
export function pascalCase(text: string): string {
  const p = kebabCase(text)
    .split('-')
    .filter(Boolean)
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join('');
  return /^[0-9]/.test(p) ? `V${p}` : p;
}

const SCREEN_SLUGS: Record<number, string> = { 1: 'list-preview', 2: 'big-screen', 3: 'form-preview', 4: 'container' };

export function viewSlug(componentName: string | undefined): string {
  return (componentName && kebabCase(componentName)) || 'view';
}

/** Screens' menu names are usually `vBuild{id}`, which says nothing; the type does. */
export function screenSlug(componentName: string | undefined, type: number | undefined): string {
  const named = componentName && !/^v-?build-?\d*$/i.test(componentName) ? kebabCase(componentName) : '';
  return named || SCREEN_SLUGS[type ?? 0] || 'screen';
}

export const viewFileName = (id: number, componentName: string | undefined) => `${id}-${viewSlug(componentName)}.json`;
export const screenFileName = (id: number, componentName: string | undefined, type: number | undefined) =>
  `${id}-${screenSlug(componentName, type)}.json`;

/** A field name a generated schema and the reference server's table can both use. */
export const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;

/**
 * The columns every view table has, by the field name a definition declares them with. Such a field
 * is listed, sorted and searched like any other, shown read-only in forms, and never written from a
 * request: the server sets it.
 */
export const SYSTEM_FIELDS = {
  id: { column: 'id', dataType: 'long' },
  createTime: { column: 'create_time', dataType: 'datetime' },
  updateTime: { column: 'update_time', dataType: 'datetime' },
  createBy: { column: 'create_by', dataType: 'varchar' },
  /** The company and department of the user who created the record (the server sets them, never a request). */
  createCompany: { column: 'create_company', dataType: 'long' },
  createDept: { column: 'create_dept', dataType: 'long' },
} as const;

export type SystemFieldName = keyof typeof SYSTEM_FIELDS;

/** System columns of every view table that no field may name or show: create_user, the author's account id. */
const HIDDEN_SYSTEM_COLUMNS = new Set(['create_user']);

export const systemFieldOf = (name: string): SystemFieldName | undefined =>
  Object.hasOwn(SYSTEM_FIELDS, name) ? (name as SystemFieldName) : undefined;

/** Parameters of the list call itself. */
export const LIST_PARAMS = ['page', 'size', 'sort', 'startTime', 'endTime', 'timestamp', 'sign', 'token'] as const;

/**
 * The createTime range's parameters. A view may declare a field of either name (a contract's endTime):
 * the parameter then filters that field, and the list sends no createTime range.
 */
export const RANGE_PARAMS = ['startTime', 'endTime'] as const;

/** Parameters a field can never be named after: the list call always reads them itself. */
const RESERVED_PARAMS = LIST_PARAMS.filter((p) => !(RANGE_PARAMS as readonly string[]).includes(p));

/** Whether a list over these field names has the createTime range: only while no field takes startTime or endTime. */
export function hasCreateRange(fieldNames: Iterable<string>): boolean {
  for (const name of fieldNames) if ((RANGE_PARAMS as readonly string[]).includes(name)) return false;
  return true;
}

/** A list whose search form offers 创建时间 starts with it this many days back (the specification's default start). */
export const DEFAULT_RANGE_DAYS = 90;

/**
 * How many days back a list's 创建时间 range starts when the list opens with no search of its own, or
 * null when it starts empty. A default applies only where the view's search form offers 创建时间: it
 * declares the system field createTime as a search column (a list of events: stock-ins, orders). A
 * list of things (vehicles, warehouses, contracts) declares none and shows every record, and a list
 * whose fields take startTime or endTime has no createTime range at all.
 */
export function defaultRangeDays(columns: readonly { name: string; search: boolean }[], fieldNames: Iterable<string>): number | null {
  if (!hasCreateRange(fieldNames)) return null;
  return columns.some((c) => c.name === 'createTime' && c.search) ? DEFAULT_RANGE_DAYS : null;
}

/**
 * Why a name that passes FIELD_NAME still cannot be a field, or undefined when it can. One sentence,
 * shared by `wastegen check` and the reference server's answer to a design.
 */
const LIST_PARAM_OF = new Map(RESERVED_PARAMS.map((p) => [p.toLowerCase(), p]));
const RANGE_PARAM_OF = new Map(RANGE_PARAMS.map((p) => [p.toLowerCase(), p]));
/** Lower-cased system column and field names, each to its field. */
const SYSTEM_NAME_OF = new Map<string, string>();
for (const [field, s] of Object.entries(SYSTEM_FIELDS)) {
  if (!SYSTEM_NAME_OF.has(s.column)) SYSTEM_NAME_OF.set(s.column, field);
  if (!SYSTEM_NAME_OF.has(field.toLowerCase())) SYSTEM_NAME_OF.set(field.toLowerCase(), field);
}

export function reservedNameProblem(name: string): string | undefined {
  const lower = name.toLowerCase();
  const param = LIST_PARAM_OF.get(lower);
  if (param)
    return `field name ${JSON.stringify(name)} is reserved: the list call reads ${param} as its own parameter (reserved: ${RESERVED_PARAMS.join(', ')})`;
  const range = RANGE_PARAM_OF.get(lower);
  if (range && range !== name)
    return `field name ${JSON.stringify(name)} differs from the list call's ${range} only in case; declare it as ${JSON.stringify(range)}`;
  if (systemFieldOf(name)) return undefined;
  if (HIDDEN_SYSTEM_COLUMNS.has(lower))
    return `field name ${JSON.stringify(name)} clashes with the system column ${lower}, which the server keeps and no field shows`;
  const system = SYSTEM_NAME_OF.get(lower);
  if (system) {
    const column = SYSTEM_FIELDS[system as SystemFieldName].column;
    return `field name ${JSON.stringify(name)} clashes with the system column ${column}; declare it as ${JSON.stringify(system)} to list it`;
  }
  return undefined;
}
