/** The calls behind 视图管理: the list of view definitions and the menu tree (parent menus); the designer makes its own. */

import { generation } from '../../../contract/generation';
import { menus } from '../../../contract/menus';
import { menuComponentName, readMenu } from '../../../model';
import { api } from '../../../request';

export interface ViewRow {
  id: number;
  name: string;
  menuId: number | null;
  status: number;
  disMenu: string | null;
  disTemplate: string | null;
  createTime: string | null;
  updateTime: string | null;
}

export interface MenuNode {
  id: number;
  label: string;
  children?: MenuNode[];
}

export interface Page<T> {
  content: T[];
  totalElements: number;
}

export const componentNameOf = (row: Pick<ViewRow, 'disMenu'>): string => menuComponentName(row.disMenu) ?? '';

/** The parent menu a view is published under (disMenu.pid), else undefined (also for the top level). */
export const parentMenuOf = (row: Pick<ViewRow, 'disMenu'>): number | undefined => readMenu(row.disMenu).pid ?? undefined;

export const viewApi = {
  list: (params: { page: number; size: number; name?: string }, signal?: AbortSignal): Promise<Page<ViewRow>> =>
    api(generation.calls.list, { query: params }, { signal }),
  add: (body: { name: string; menuId: number | null; disMenu: string }): Promise<{ id: number; message: string }> =>
    api(generation.calls.add, { body }),
  update: (body: { id: number; name: string; menuId?: number | null; disMenu?: string }): Promise<{ message: string }> =>
    api(generation.calls.update, { body }),
  remove: (ids: number[]): Promise<{ message: string }> => api(generation.calls.remove, { body: ids }),
  publish: (id: number): Promise<{ message: string }> => api(generation.calls.publish, { body: { id } }),
  /** Every menu as an id/label tree; quiet, since a user may manage views without managing menus. */
  menuTree: (): Promise<MenuNode[]> => api(menus.calls.tree, {}, { silent: true, skipAuthHandlers: true }),
};
