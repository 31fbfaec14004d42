/** Screens as /api/screen/list answers them, and the names and addresses of their four types. */
export interface ScreenRow {
  id: number;
  name: string;
  type: number;
  status: number;
  menuId?: number | null;
  disMenu?: string | null;
  disTemplate?: string | null;
  createTime?: string;
  updateTime?: string;
  /** Raised by every save; a save sends the one it started from. */
  version?: number;
}

export const SCREEN_TYPES: { value: number; label: string }[] = [
  { value: 1, label: '基础预览' },
  { value: 2, label: '大屏' },
  { value: 3, label: '表单预览' },
  { value: 4, label: '容器预览' },
];

export const typeName = (type: number): string => SCREEN_TYPES.find((t) => t.value === type)?.label ?? `类型 ${type}`;

/** A big screen opens in its viewer; the other types at their template page address. */
export const screenPreviewPath = (row: Pick<ScreenRow, 'id' | 'type'>): string =>
  row.type === 2 ? `/lsPreview?lsId=${row.id}` : `/dev-tools/vBuild/temp/${row.id}`;

/** The view ids a type 1, 3 or 4 template names (`baseView` list, or `formView`). */
export function templateViews(type: number, text: string | null | undefined): number[] {
  if (!text) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  if (!json || typeof json !== 'object') return [];
  const t = json as { baseView?: unknown; formView?: unknown };
  const ids = type === 3 ? [t.formView] : Array.isArray(t.baseView) ? t.baseView : [];
  return ids.map(Number).filter((n) => Number.isSafeInteger(n) && n > 0);
}

/** The template of a type 1, 3 or 4 screen for the views picked. */
export function templateFor(type: number, views: readonly number[]): Record<string, unknown> {
  if (type === 3) return { formView: views[0] };
  return { baseView: type === 1 ? views.slice(0, 1) : [...views] };
}
