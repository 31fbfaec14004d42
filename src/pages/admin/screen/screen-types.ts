import type { ScreenRow } from '../../../contract/screens';
import { screenPreviewPath as screenPagePreviewPath, screenTemplateViews } from '../../../model';
import { bigScreenViewerPath } from '../../../shared/app-paths';

/** A screen as its list answers it; a save sends the version it started from. */
export type { ScreenRow };

/** The names of the four screen types. */
export const SCREEN_TYPES: { value: number; label: string }[] = [
  { value: 1, label: '基础预览' },
  { value: 2, label: '大屏' },
  { value: 3, label: '表单预览' },
  { value: 4, label: '容器预览' },
];

export const typeName = (type: number): string => SCREEN_TYPES.find((t) => t.value === type)?.label ?? `类型 ${type}`;

/** A big screen opens in its viewer; the other types at their template page address. */
export const screenPreviewPath = (row: Pick<ScreenRow, 'id' | 'type'>): string =>
  row.type === 2 ? bigScreenViewerPath(row.id) : screenPagePreviewPath(row.id);

/** The view ids a type 1, 3 or 4 template names (`baseView`, or `formView`: a number, comma text or a list). */
export const templateViews = (type: number, text: string | null | undefined): number[] => screenTemplateViews(type, text);

/** The template of a type 1, 3 or 4 screen for the views picked. */
export function templateFor(type: number, views: readonly number[]): Record<string, unknown> {
  if (type === 3) return { formView: views[0] };
  return { baseView: type === 1 ? views.slice(0, 1) : [...views] };
}
