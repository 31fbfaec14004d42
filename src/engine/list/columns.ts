import type { ColumnModel } from '../../model';

/** The columns a list shows at first: those the definition shows, or all when it shows none. */
export function initialVisible(columns: readonly Pick<ColumnModel, 'name' | 'visible'>[]): Set<string> {
  const shown = columns.filter((c) => c.visible).map((c) => c.name);
  return new Set(shown.length ? shown : columns.map((c) => c.name));
}

/**
 * The column settings after the table's columns changed (a definition changed while the page is open):
 * the user's choice for each column that stays, the definition's for each new one, a removed one
 * dropped; when that leaves none, the definition's again, as at first.
 */
export function refreshVisible(
  columns: readonly Pick<ColumnModel, 'name' | 'visible'>[],
  previous: ReadonlySet<string>,
  previousNames: ReadonlySet<string>,
): Set<string> {
  const next = new Set<string>();
  for (const c of columns) {
    if (previousNames.has(c.name) ? previous.has(c.name) : c.visible) next.add(c.name);
  }
  return next.size ? next : initialVisible(columns);
}

/**
 * What makes a column a key column, the ones a reader looks for first: the record's number (or its
 * name, where it has no number), its state, and its quantity.
 */
export type KeyColumn = 'number' | 'status' | 'quantity';

type KeyFacts = Pick<ColumnModel, 'name' | 'label' | 'dataType' | 'dict' | 'remote' | 'unit'>;

/** A number: text that is not a choice, labelled …号 (单号, 编号, 车牌号). */
const isNumber = (c: KeyFacts) => !c.dict && !c.remote && c.dataType === 'varchar' && /号$/.test(c.label);
/** A state: a dictionary column labelled …状态. */
const isStatus = (c: KeyFacts) => !!c.dict && /状态$/.test(c.label);
/** A quantity: a decimal counted in tons, or labelled 数量 or 重量. */
const isQuantity = (c: KeyFacts) => c.dataType === 'decimal' && (c.unit === '吨' || /数量|重量/.test(c.label));

/**
 * The key columns of a list, by name: its first number column (or, without one, its first column:
 * what names the record), its state columns and its quantity columns.
 */
export function keyColumns(columns: readonly KeyFacts[]): Map<string, KeyColumn> {
  const keys = new Map<string, KeyColumn>();
  const number = columns.find(isNumber) ?? columns[0];
  if (number) keys.set(number.name, 'number');
  for (const c of columns) if (!keys.has(c.name) && isStatus(c)) keys.set(c.name, 'status');
  for (const c of columns) if (!keys.has(c.name) && isQuantity(c)) keys.set(c.name, 'quantity');
  return keys;
}

const KEY_ORDER: readonly KeyColumn[] = ['number', 'status', 'quantity'];

/**
 * The order a list draws its columns in: the key columns first (number, state, quantity), then the
 * others as the definition orders them. On a screen narrower than the table they are what shows
 * before any sideways scroll, and the fixed 操作 column never lies over them.
 */
export function displayOrder<T extends KeyFacts>(columns: readonly T[], keys = keyColumns(columns)): T[] {
  const rank = (c: T) => {
    const k = keys.get(c.name);
    return k ? KEY_ORDER.indexOf(k) : KEY_ORDER.length;
  };
  return columns
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i)
    .map(({ c }) => c);
}
