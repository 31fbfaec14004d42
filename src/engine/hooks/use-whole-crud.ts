import { useMemo } from 'react';
import { type CrudOptions, useCrud } from './use-crud';
import type { RowCrud } from './use-list-crud';
import type { ListSource } from './use-list-query';

/**
 * Add, edit and delete over a list read whole (a tree): there is no page to step back from, so a
 * delete, like an add or an edit, reads the list again with `reload`.
 */
export function useWholeCrud<T, R = unknown>(source: ListSource<R>, reload: () => void, options?: CrudOptions): RowCrud<T> {
  const list = useMemo(() => ({ reload, deleted: () => reload() }), [reload]);
  return useCrud<T, R>(source, list, options) as unknown as RowCrud<T>;
}
