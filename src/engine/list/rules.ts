/**
 * The list page's decisions that do not need React: who may do what, which custom buttons show
 * where, how row actions overflow into 更多, and where buttons lead. Pure: the user's permissions
 * come in as a `can` function.
 */
import { type ButtonModel, buttonPermissions, type ListPageModel, lowcodePageOf, viewPath } from '../../model';
import { APP_PATHS } from '../../shared/app-paths';

/** Whether the user holds a permission, or any of a list. */
export type Can = (permission: string | readonly string[]) => boolean;

/**
 * Row actions shown in the row: the first (查看 where the user may look); the rest go into the 更多
 * menu, so the fixed 操作 column stays narrow and never lies over the data.
 */
export const ROW_ACTION_LIMIT = 1;

export const MESSAGES = {
  added: '新增成功',
  edited: '编辑成功',
  deleted: '删除成功',
  submitted: '提交成功',
  done: '操作成功',
  confirmAction: '确认执行该操作？',
  confirmTitle: '提示',
  keepOneColumn: '请至少选择一列',
  importTypes: '允许上传 xls、xlsx',
  importDone: '导入成功，详见返回的文件',
  importPartly: '导入完成',
  chooseRows: '请选择数据',
  chooseOneRow: '请选择一条数据',
  unsafeAddress: '链接地址不安全，未打开',
} as const;

/**
 * What an import's toast and its dialog both say: 导入成功，详见返回的文件 when every row was written,
 * else that the import is done with how many rows were and were not; the counts when the server gave them.
 */
export function importSummary(result: { succeeded?: number; failed?: number }): { ok: boolean; title: string; counts?: string } {
  const { succeeded, failed } = result;
  const ok = !failed;
  const counts = succeeded === undefined ? undefined : `成功 ${succeeded} 条，失败 ${failed ?? 0} 条`;
  return { ok, title: ok ? MESSAGES.importDone : MESSAGES.importPartly, counts };
}

/** The toast's text: the summary's title with its counts. */
export function importToast(result: { succeeded?: number; failed?: number }): string {
  const { ok, title, counts } = importSummary(result);
  if (!counts) return title;
  return ok ? `${title}（${counts}）` : `${title}：${counts}，详见返回的文件`;
}

export function confirmDeleteText(count: number): string {
  return `确认删除选中的${count}条数据？`;
}

export interface ListAbilities {
  add: boolean;
  edit: boolean;
  del: boolean;
  look: boolean;
  pre: boolean;
  export: boolean;
  import: boolean;
  template: boolean;
}

/** What the page offers this user: the definition's switch and the permission, both. */
export function abilitiesOf(model: Pick<ListPageModel, 'features' | 'permissions'>, can: Can): ListAbilities {
  const f = model.features;
  const p = model.permissions;
  return {
    add: f.add && can(p.add),
    edit: f.edit && can(p.edit),
    del: f.del && can(p.del),
    look: f.look && can(p.look),
    pre: can(p.pre),
    export: f.export,
    // The import writes records: it needs the add permission (the server checks the same).
    import: f.import && can(p.add),
    template: f.template,
  };
}

/** A custom button shows to a holder of one of its roles; one that names no role, to the administrator alone. */
export function buttonAllowed(button: Pick<ButtonModel, 'roles'>, can: Can): boolean {
  return can(buttonPermissions(button.roles));
}

/**
 * A row button with showWhen shows only where row[field] equals value, compared as text; one that opens
 * a linked record (linkField) only where the row links one.
 */
export function buttonShownOnRow(button: Pick<ButtonModel, 'showWhen' | 'linkField'>, row: Readonly<Record<string, unknown>>): boolean {
  if (button.linkField && linkedId(button, row) === undefined) return false;
  if (!button.showWhen) return true;
  const v = row[button.showWhen.field];
  return (v === null || v === undefined ? '' : String(v)) === button.showWhen.value;
}

/** The key of the record a linkField button opens from this row, as text; undefined when the row links none. */
export function linkedId(button: Pick<ButtonModel, 'linkField'>, row: Readonly<Record<string, unknown>> | undefined): string | undefined {
  if (!button.linkField || !row) return undefined;
  const v = row[button.linkField];
  if (v === undefined || v === null) return undefined;
  const text = String(v).trim();
  return /^\d{1,15}$/.test(text) ? text : undefined;
}

/**
 * The route parameter naming the records a list shows, and nothing else: a relation's linked record. The
 * list call filters by it within the caller's scope, like every other filter.
 */
export const RECORD_PARAM = 'id';

/** Whether a button opens the record(s) related to its row: a linked record, or the records naming the row. */
export function isRelation(button: Pick<ButtonModel, 'action' | 'linkField' | 'foreignKey'>): boolean {
  if (button.linkField) return button.action === 'dialog' || button.action === 'view' || button.action === 'system';
  return !!button.foreignKey && (button.action === 'dialog' || button.action === 'view');
}

/**
 * Custom buttons a read-only list keeps: those that only open something (a dialog, a page, a site), not
 * those that write.
 */
export function opensOnly(button: Pick<ButtonModel, 'action'>): boolean {
  return button.action === 'dialog' || button.action === 'view' || button.action === 'website' || button.action === 'system';
}

/** Actions that act on records and so need a selection (ids, a row id or a foreign key). */
export function needsRows(button: Pick<ButtonModel, 'action' | 'foreignKey' | 'linkField'>): boolean {
  if (button.linkField) return true;
  switch (button.action) {
    case 'submit':
    case 'groovy':
      return true;
    case 'view':
      return !!button.foreignKey;
    default:
      return false;
  }
}

/**
 * Whether a toolbar button can run with this many selected rows, and if not, why: an action on
 * records needs at least one, and exactly one unless `multiple`.
 */
export function toolbarButtonState(
  button: Pick<ButtonModel, 'action' | 'foreignKey' | 'linkField' | 'multiple'>,
  selected: number,
): { enabled: boolean; reason?: string } {
  if (needsRows(button) && selected === 0) return { enabled: false, reason: MESSAGES.chooseRows };
  if (!button.multiple && selected > 1) return { enabled: false, reason: MESSAGES.chooseOneRow };
  return { enabled: true };
}

export function toolbarButtons(buttons: readonly ButtonModel[], can: Can): ButtonModel[] {
  return buttons.filter((b) => b.position === 'toolbar' && buttonAllowed(b, can));
}

export function rowButtons(buttons: readonly ButtonModel[], can: Can, row: Readonly<Record<string, unknown>>): ButtonModel[] {
  return buttons.filter((b) => b.position === 'row' && buttonAllowed(b, can) && buttonShownOnRow(b, row));
}

/** Up to the limit inline; beyond it, the rest go into the 更多 menu. */
export function splitRowActions<T>(actions: readonly T[], limit = ROW_ACTION_LIMIT): { inline: T[]; more: T[] } {
  if (actions.length <= limit) return { inline: [...actions], more: [] };
  return { inline: actions.slice(0, limit), more: actions.slice(limit) };
}

// ----- custom button targets -----

/**
 * `view`: /dev-tools/temp/page/{name}/{view}, plus ?{foreignKey}={row id} (the records naming the row),
 * or ?id={linked id} for a linkField button (the one record the row links).
 */
export function viewTarget(
  button: Pick<ButtonModel, 'name' | 'view' | 'foreignKey' | 'linkField'>,
  rowId: unknown,
  linked?: string,
): string {
  const path = viewPath(button.name, button.view ?? '');
  if (button.linkField) return linked === undefined ? path : `${path}?${new URLSearchParams({ [RECORD_PARAM]: linked })}`;
  if (!button.foreignKey || rowId === undefined || rowId === null || rowId === '') return path;
  return `${path}?${new URLSearchParams({ [button.foreignKey]: String(rowId) })}`;
}

/**
 * `system`: websiteUrl inside the app, keeping the current query and adding rowId. The current page's
 * record filter (`id`) is its own and is not carried; a linkField button names its linked record by it.
 */
export function systemTarget(websiteUrl: string, currentSearch: string, rowId: unknown, selected = 0, linked?: string): string {
  const [path = '', own = ''] = websiteUrl.split('?');
  const query = new URLSearchParams(currentSearch);
  query.delete(RECORD_PARAM);
  const ownQuery = new URLSearchParams(own);
  for (const [k, v] of ownQuery) query.set(k, v);
  if (rowId !== undefined && rowId !== null && rowId !== '') query.set('rowId', String(rowId));
  if (linked !== undefined) query.set(RECORD_PARAM, linked);
  // The label print page makes one label per record the button acts on, unless the button fixes the number.
  if (path === APP_PATHS.qrcodePrint && !ownQuery.has('total') && selected > 0) query.set('total', String(selected));
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}

/**
 * Where a groovy answer's `location` goes: a flow detail or an apply form (an address of the app's
 * low-code pages: a view's page, or a screen's page such as the logistics detail or a form page)
 * opens in the app; any other address, the app's other pages included, opens in a new window.
 */
export function locationTarget(location: string): { inApp: boolean; href: string } {
  const href = location.trim();
  const local = href.startsWith('/') && !href.startsWith('//');
  return { inApp: local && lowcodePageOf(href) !== undefined, href };
}
