import type { Key } from 'react';
import type { FormMode } from '../contracts';
import type { TableList } from '../list/table-props';
import { type Crud, type CrudOptions, useCrud } from './use-crud';
import { type ListQuery, type ListQueryOptions, type ListSource, useListQuery } from './use-list-query';

/**
 * The list and CRUD hooks together, for a page that lays out its own table over rows whose shape it
 * knows (`T`, as the server answers them; the answer is not parsed).
 */
export interface RowList<T> extends Omit<ListQuery<T>, 'rows' | 'selected' | 'select'>, TableList<T> {
  selected: { keys: Key[]; rows: T[] };
}

export interface RowCrud<T> extends Omit<Crud<T>, 'dialog' | 'open' | 'remove'> {
  dialog: { mode: FormMode; row?: T } | null;
  open(state: { mode: FormMode; row?: T }): void;
  remove(rows: readonly T[], confirm?: string): Promise<boolean>;
}

export function useListCrud<T, R = unknown>(
  source: ListSource<R>,
  options?: ListQueryOptions,
  crudOptions?: CrudOptions,
): { list: RowList<T>; crud: RowCrud<T> } {
  const list = useListQuery<T, R>(source, options);
  const crud = useCrud<T, R>(source, list, crudOptions);
  return { list, crud } as unknown as { list: RowList<T>; crud: RowCrud<T> };
}
