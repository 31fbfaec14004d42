import { useMemo } from 'react';
import type { ContractList } from '../../../app/data-provider';
import { type ListSource, useWholeCrud } from '../../../engine';
import { type Load, useLookup } from '../../../request';
import { type FlatNode, nest, parentOptions, SYSTEM_CRUD, TOP } from './rules';

const holdsAny = () => true;

/**
 * A tree page (departments, menus): its rows read whole by `load` (again when `key` changes), their
 * add, edit and delete, the row being edited, the row 新增下级 was opened on, and the parent picker
 * under `top`. `title` and `holds` are module constants.
 */
export function useTreePage<T extends FlatNode, R = ContractList>(options: {
  source: ListSource<R>;
  key: string;
  load: Load<T[]>;
  top: string;
  title: (row: T) => string;
  holds?: (row: T) => boolean;
}) {
  const { source, key, load, top, title, holds = holdsAny } = options;
  const list = useLookup(key, load);
  const crud = useWholeCrud<T, R>(source, list.reload, SYSTEM_CRUD);
  const dialog = crud.dialog;
  const editing = dialog?.mode === 'edit' ? dialog.row : undefined;
  const parentId = dialog?.mode === 'add' ? dialog.row?.id : undefined;
  const fullTree = useMemo(() => nest(list.data ?? []), [list.data]);
  const parents = useMemo(
    () => [{ value: TOP, title: top, children: parentOptions(fullTree, editing?.id, title, holds) }],
    [fullTree, editing?.id, top, title, holds],
  );
  return { list, crud, editing, parentId, parents };
}
