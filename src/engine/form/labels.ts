import { GENERAL_UPLOAD_TYPES, NUMBER_TEXT } from '../../model';

/** Option labels show at most 20 characters. */
export const OPTION_LABEL_MAX = 20;

/** A label longer than `max` characters (code points, so CJK and emoji count as one) → its first `max` plus …. */
export function truncateLabel(label: string, max = OPTION_LABEL_MAX): string {
  const chars = Array.from(label);
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : label;
}

/** The refusal of a file outside the general upload list, byte for byte (the space after the second 、 included). */
export const GENERAL_UPLOAD_MESSAGE = '允许上传 doc、docx、 xls、xlsx、pdf、jpg、jpeg、png';
export const TOO_MANY_FILES_MESSAGE = '文件数量超过限定个数';

/** The refusal of a file of another type: the general list's text, or the field's own list in that style. */
export function uploadTypeMessage(accept: readonly string[]): string {
  const general = accept.length === GENERAL_UPLOAD_TYPES.length && accept.every((t, i) => t === GENERAL_UPLOAD_TYPES[i]);
  return general ? GENERAL_UPLOAD_MESSAGE : `允许上传 ${accept.join('、')}`;
}

/** Lower-case extension without the dot ('' when there is none). */
export function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

export const isAccepted = (fileName: string, accept: readonly string[]) => accept.includes(extensionOf(fileName));

/** One uploaded file as stored in a file field's JSON list. */
export interface StoredFile {
  fileName: string;
  filePath: string;
  [key: string]: unknown;
}

const lastSegment = (path: string) => path.split('/').pop() || path;

/**
 * A file field's value → its files. Accepts the JSON list text (of upload answers or of paths), the
 * list itself, and comma-separated paths of records stored before the JSON form.
 */
export function parseFiles(value: unknown): StoredFile[] {
  let list: unknown[] = [];
  if (Array.isArray(value)) list = value;
  else if (typeof value === 'string' && value.trim()) {
    const s = value.trim();
    if (s.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(s);
        list = Array.isArray(parsed) ? parsed : [];
      } catch {
        list = [];
      }
    } else list = s.split(',');
  }
  return list.flatMap((x): StoredFile[] => {
    if (typeof x === 'string') {
      const path = x.trim();
      return path ? [{ fileName: lastSegment(path), filePath: path }] : [];
    }
    if (typeof x !== 'object' || x === null) return [];
    const o = x as Record<string, unknown>;
    const filePath = String(o.filePath ?? o.path ?? o.url ?? '');
    if (!filePath) return [];
    return [{ ...o, fileName: String(o.fileName ?? o.name ?? lastSegment(filePath)), filePath }];
  });
}

/** Files → the field's value: their JSON list text, or null for none. */
export function filesText(files: readonly StoredFile[]): string | null {
  return files.length ? JSON.stringify(files) : null;
}

/** A width from the model (number = px) as CSS. */
export function cssSize(v: number | string | undefined): string | undefined {
  if (v === undefined || v === '') return undefined;
  return typeof v === 'number' ? `${v}px` : NUMBER_TEXT.test(v) ? `${Number(v)}px` : v;
}
