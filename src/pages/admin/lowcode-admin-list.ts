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
