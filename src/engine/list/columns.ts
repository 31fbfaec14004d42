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
