import { badRequest } from '../errors.js';
import { MAX_CELL_CHARS } from './cell-text.js';
import type { ImportLimits, Sheet } from './xlsx.js';

/**
 * A legacy Excel 97–2003 workbook (.xls, BIFF in a Compound File) read with SheetJS, loaded only when
 * such a file arrives. The file is not compressed, so its size (bounded by the upload limit) bounds
 * what is read; rows past `maxRows` are not parsed, and the columns, each cell's text and all the
 * text are held to the same limits as an xlsx.
 */

type Cell = string | number | boolean | Date | null | undefined;
type XlsxModule = typeof import('@e965/xlsx');

let loading: Promise<XlsxModule> | undefined;
const sheetJs = () => {
  loading ??= import('@e965/xlsx');
  return loading;
};

const pad = (n: number) => String(n).padStart(2, '0');

/** A cell as plain data; dates as the xlsx reader gives them (they carry no time zone). */
function cellValue(v: Cell): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return null;
    const time = v.getUTCHours() || v.getUTCMinutes() || v.getUTCSeconds();
    const day = `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
    return time ? `${day} ${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}:${pad(v.getUTCSeconds())}` : day;
  }
  return typeof v === 'string' ? v.trim() : v;
}

/** Whether SheetJS failed because the workbook is protected by a password. */
const isEncrypted = (e: unknown) => e instanceof Error && /password/i.test(e.message);

/** The first worksheet of a BIFF workbook: header in row 1, then the non-empty rows. */
export async function readXls(data: Buffer, limits: ImportLimits, maxTextChars: number): Promise<Sheet> {
  const XLSX = await sheetJs();
  let book: ReturnType<XlsxModule['read']>;
  try {
    // One row more than allowed is parsed, so that a longer sheet is known to be too long.
    book = XLSX.read(data, { type: 'buffer', cellDates: true, dense: true, sheetRows: limits.maxRows + 2, bookFiles: false });
  } catch (e) {
    throw badRequest(isEncrypted(e) ? 'IMPORT_ENCRYPTED' : 'IMPORT_XLS_UNREADABLE');
  }
  const first = book.SheetNames[0];
  const ws = first === undefined ? undefined : book.Sheets[first];
  if (!ws?.['!ref']) return { header: [], rows: [] };
  const range = XLSX.utils.decode_range(ws['!ref']);
  if (range.e.c - Math.min(range.s.c, 0) + 1 > limits.maxColumns)
    throw badRequest('IMPORT_TOO_MANY_COLUMNS', { columns: limits.maxColumns });
  const grid = XLSX.utils.sheet_to_json<Cell[]>(ws, {
    header: 1,
    raw: true,
    defval: null,
    blankrows: true,
    range: { s: { r: 0, c: 0 }, e: range.e },
  });
  let chars = 0;
  const text = (v: Cell, row: number, column: number) => {
    if (typeof v !== 'string') return;
    if (v.length > MAX_CELL_CHARS) throw badRequest('IMPORT_CELL_TOO_LONG', { row, column, max: MAX_CELL_CHARS });
    chars += v.length;
    if (chars > maxTextChars) throw badRequest('IMPORT_TEXT_TOO_LARGE', { chars: maxTextChars });
  };
  const [head = [], ...body] = grid;
  head.forEach((v, c) => {
    text(v, 1, c + 1);
  });
  const header = head.map((v) => String(cellValue(v) ?? '').trim());
  while (header.length && header.at(-1) === '') header.pop();
  const rows: Sheet['rows'] = [];
  body.forEach((cells, r) => {
    cells.forEach((v, c) => {
      text(v, r + 2, c + 1);
    });
    const values = header.map((_, i) => cellValue(cells[i]));
    if (!values.some((v) => v !== null && v !== '')) return;
    if (rows.length >= limits.maxRows) throw badRequest('IMPORT_TOO_MANY_ROWS', { rows: limits.maxRows });
    rows.push(values);
  });
  return { header, rows };
}
