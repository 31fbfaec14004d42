import { isAbsent, readNumeric } from '../coerce.js';
import { DEFAULT_TIME_FORMAT } from '../dates.js';
import type { DataType, FieldKind, Relation, RemoteOptions, Show, UploadRules } from '../types.js';
import type { WireFieldConfigure } from '../wire.js';
import type { Sink } from './sink.js';

/** The small rules that read one property of a field's configure block. */

/** Upload types a field accepts when it names none: office documents and images, or images alone for an image field. */
export const GENERAL_UPLOAD_TYPES = ['doc', 'docx', 'xls', 'xlsx', 'pdf', 'jpg', 'jpeg', 'png'];
export const IMAGE_UPLOAD_TYPES = ['jpg', 'jpeg', 'png'];

export const TEXT_MAX_LENGTH = 255;
export const TEXTAREA_MAX_LENGTH = 1024;

/** Unknown dataTypes are read as varchar, with a warning. */
export function dataTypeOf(raw: string | undefined, sink: Sink, pointer: string): DataType {
  const t = raw?.trim().toLowerCase();
  if (t === 'varchar' || t === 'long' || t === 'decimal' || t === 'datetime') return t;
  if (t !== undefined) sink.add('W_DATATYPE', pointer, `unknown dataType ${JSON.stringify(raw)}, read as varchar`);
  return 'varchar';
}

/** How a field is edited. The most specific configure key wins. */
export function fieldKind(dataType: DataType, c: WireFieldConfigure): FieldKind {
  if (c.file === 'image') return 'image';
  if (c.file === 'file') return 'file';
  if (c.editor) return 'editor';
  if (c.city) return 'city';
  if (c.sportData) return 'remote';
  if (c.dict) return 'dict';
  if (dataType === 'datetime') return 'datetime';
  if (dataType === 'long') return 'long';
  if (dataType === 'decimal') return 'decimal';
  if (c.textarea) return 'textarea';
  return 'text';
}

/**
 * Form `show` is 1–4. A table column's `show` is a visibility flag, so true reads as 1 and false as 2;
 * absent is 1.
 */
export function showOf(v: unknown, sink: Sink, pointer: string): Show {
  if (isAbsent(v) || v === true || v === 'true') return 1;
  if (v === false || v === 'false' || v === 0 || v === '0') return 2;
  const n = readNumeric(v);
  if (n.ok && (n.value === 1 || n.value === 2 || n.value === 3 || n.value === 4)) return n.value;
  sink.add('E_ENUM', pointer, `expected show 1, 2, 3 or 4 (or true/false), got ${JSON.stringify(v)}`);
  return 1;
}

/** timeFmt in the wire's Java style → dayjs. `hh` is read as 24-hour: designers write it for hours of the day. */
export function timeFormatOf(timeFmt: string | undefined, dataType: DataType): string | undefined {
  if (!timeFmt) return dataType === 'datetime' ? DEFAULT_TIME_FORMAT : undefined;
  return timeFmt.replace(/yyyy/g, 'YYYY').replace(/yy/g, 'YY').replace(/dd/g, 'DD').replace(/hh/g, 'HH');
}

export function maxLengthOf(kind: FieldKind, pattern: string | undefined): number | undefined {
  if (kind === 'text') return TEXT_MAX_LENGTH;
  if (kind === 'textarea') return pattern ? undefined : TEXTAREA_MAX_LENGTH;
  return undefined;
}

/** long steps by 1; decimal by 10^-decimals. */
export function stepOf(dataType: DataType, decimals: number | undefined): number | undefined {
  if (dataType === 'long') return 1;
  if (dataType === 'decimal' && decimals !== undefined) return Number((10 ** -decimals).toFixed(decimals));
  return undefined;
}

/** Digits after the point, 0 to 10; a value out of range is reported and not used. */
export function decimalsOf(c: WireFieldConfigure, sink: Sink, pointer: string): number | undefined {
  if (c.decimals === undefined || (c.decimals >= 0 && c.decimals <= 10)) return c.decimals;
  sink.add('E_RANGE', `${pointer}/decimals`, `decimals must be 0 to 10, got ${c.decimals}`);
  return undefined;
}

export function relationOf(raw: { item?: string[] | undefined; value?: string | undefined } | undefined): Relation | undefined {
  if (!raw?.item?.length) return undefined;
  return { fields: raw.item, value: raw.value ?? '' };
}

/**
 * The one spelling of an options address: every reader of it (the server's reference checks, the
 * browser's fetch, push's id rewrite) then reads the same call and the same view. `/a/./b`, `%31`,
 * `//host/…`, a fragment or a backslash would each be read differently by one of them.
 */
const OPTIONS_ADDRESS = /^\/(?!0\d)[A-Za-z0-9_-]+(?:\/(?!0\d)[A-Za-z0-9_-]+)*(?:\?[^#\s\\]*)?$/;

export function remoteOf(c: WireFieldConfigure, sink: Sink, pointer: string): RemoteOptions | undefined {
  if (!c.sportData) return undefined;
  if (!c.sportData_url) sink.add('E_REQUIRED', `${pointer}/sportData_url`, 'a remote-options field (sportData) needs sportData_url');
  else if (!OPTIONS_ADDRESS.test(c.sportData_url))
    sink.add(
      'E_URL',
      `${pointer}/sportData_url`,
      'an options address is a path of letters, digits, _ and - segments, optionally with a query: no dots, encoded or doubled slashes, leading zeros, host, fragment, spaces or backslashes',
      'the server, the browser and wastegen push must all read it as the same call and the same view',
    );
  return {
    url: c.sportData_url ?? '',
    tree: c.sportData_type === 'tree',
    multiple: c.sportData_list_multiple ?? false,
    params: (c.sportData_params ?? []).flatMap((p, i) => {
      if (!p.key) {
        sink.add('E_REQUIRED', `${pointer}/sportData_params/${i}/key`, 'a remote-options parameter needs a key');
        return [];
      }
      return [{ key: p.key, source: p.type === '2' ? ('field' as const) : ('fixed' as const), value: p.value ?? '' }];
    }),
  };
}

export function uploadOf(c: WireFieldConfigure, sink: Sink, pointer: string): UploadRules | undefined {
  if (!c.file) return undefined;
  const image = c.file === 'image';
  const accept = (c.fileType ?? []).map((t) => t.replace(/^\./, '').toLowerCase());
  if (c.fileSize !== undefined && c.fileSize < 1)
    sink.add('E_RANGE', `${pointer}/fileSize`, `fileSize is the maximum file count and must be at least 1, got ${c.fileSize}`);
  return {
    image,
    accept: accept.length ? [...new Set(accept)] : image ? IMAGE_UPLOAD_TYPES : GENERAL_UPLOAD_TYPES,
    maxCount: Math.max(1, c.fileSize ?? 1),
  };
}

export function defaultValueOf(v: unknown, sink: Sink, pointer: string): string | number | boolean | undefined {
  if (isAbsent(v)) return undefined;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  sink.add('E_TYPE', pointer, 'defaultValue must be text, a number or a boolean');
  return undefined;
}
