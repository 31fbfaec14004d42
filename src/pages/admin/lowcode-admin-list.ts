import type { ListQuery } from '../../engine';
import type { ColumnModel, FormModel, ListApi, ListPageModel } from '../../model/types';

/**
 * The engine's list and delete hooks (useListQuery, useCrud) for an administration resource that is
 * not a view: its list and delete calls, its text searches, and `id` as its key. Built once per page
 * module, so the hooks see the same model on every render.
 */
export interface AdminListModel {
  list: Pick<ListPageModel, 'viewId' | 'api' | 'columns' | 'defaultSort'>;
  crud: Pick<ListPageModel, 'viewId' | 'api' | 'form'>;
}

export function adminListModel(
  urls: { list: string; del: string },
  searches: readonly { name: string; label: string; kind?: ColumnModel['searchKind'] }[],
): AdminListModel {
  const api: ListApi = {
    list: urls.list,
    del: urls.del,
    detail: '',
    add: '',
    edit: '',
    export: '',
    import: '',
    template: '',
    groovy: '',
    preAdd: '',
  };
  const columns: ColumnModel[] = searches.map((s) => ({
    name: s.name,
    label: s.label,
    dataType: 'varchar',
    visible: true,
    tags: false,
    sortable: false,
    overflow: false,
    money: false,
    search: true,
    searchKind: s.kind ?? 'text',
  }));
  // The hooks read only the key of the form's dialog.
  const form = { fields: [], dividers: [], dialog: { key: 'id' } } as unknown as FormModel;
  return {
    list: { viewId: 0, api, columns, defaultSort: { field: 'id', order: 'desc' } },
    crud: { viewId: 0, api, form },
  };
}

/**
 * What an administration list's table takes from the list hook: its rows and loading state, the
 * selection when deleting is allowed, and paging with the total, whose changes go back to the hook.
 */
export function adminTableProps<T>(list: ListQuery<T>, selectable: boolean) {
  return {
    rowKey: 'id',
    size: 'middle' as const,
    loading: list.loading,
    dataSource: list.rows,
    rowSelection: selectable ? { selectedRowKeys: list.selected.keys, onChange: list.select } : undefined,
    pagination: {
      current: list.query.page,
      pageSize: list.query.size,
      total: list.total,
      showSizeChanger: true,
      showTotal: (t: number) => `共 ${t} 条`,
    },
    onChange: (p: { current?: number; pageSize?: number }) =>
      list.change({ page: p.current ?? 1, size: p.pageSize ?? list.query.size, sort: null }),
  };
}
