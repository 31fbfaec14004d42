import { isRecord, NUMBER_TEXT, readJsonText } from './coerce.js';

/**
 * The views a screen's template names: `baseView` (the list views of types 1 and 4) and `formView`
 * (the form of type 3). Each may be a number, comma-separated text ("12,13") or a list of numbers
 * or numeric text; read here only.
 */

export type ViewIdsForm = 'number' | 'text' | 'list';

/** The ids as written, in order, with the form they came in; an entry that is no number reads as NaN. */
export interface ViewIds {
  form: ViewIdsForm;
  ids: number[];
}

const entry = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' && NUMBER_TEXT.test(v) ? Number(v) : Number.NaN);

/** A view reference as it can stand: a positive whole number. */
export const isViewId = (n: number): boolean => Number.isSafeInteger(n) && n > 0;

/** baseView or formView as written; undefined when absent (undefined, null, '') or neither a number, text nor a list. */
export function readViewIds(v: unknown): ViewIds | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'number') return { form: 'number', ids: [v] };
  if (typeof v === 'string')
    return {
      form: 'text',
      ids: v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map(entry),
    };
  if (Array.isArray(v)) return { form: 'list', ids: v.map(entry) };
  return undefined;
}

/** New ids in the form the old value had: a number stays a number, text stays comma text, a list a list. */
export function writeViewIds(form: ViewIdsForm, ids: readonly (number | string)[]): number | string | (number | string)[] {
  if (form === 'list') return [...ids];
  if (form === 'text') return ids.join(',');
  return ids[0] ?? '';
}

/** The valid view ids of baseView or formView, in order; junk entries are left out. */
export const viewIdsOf = (v: unknown): number[] => readViewIds(v)?.ids.filter(isViewId) ?? [];

/**
 * The views a screen of `type` shows, from its template (JSON text or object): formView for a form
 * (type 3), else baseView.
 */
export function screenTemplateViews(type: number, template: unknown): number[] {
  const r = readJsonText(template);
  if (!r.ok || !isRecord(r.value)) return [];
  return viewIdsOf(type === 3 ? r.value.formView : r.value.baseView);
}
