import { useState } from 'react';
import type { ListQuery } from './use-list-query';

/**
 * A list's filters held together (a toolbar's box, a tree beside the table, selects): a change to
 * one searches with all of them, from page 1.
 */
export function useFilters<F extends Record<string, unknown>>(list: Pick<ListQuery<unknown>, 'search'>, initial: F) {
  const [filters, setFilters] = useState<F>(initial);
  const filterBy = (next: Partial<F>) => {
    const all = { ...filters, ...next };
    setFilters(all);
    list.search(all);
  };
  return [filters, filterBy] as const;
}
