/**
 * Spreadsheets as the server tests send and read them: a workbook written from rows, the rows of a
 * returned workbook, and an import upload.
 */
import ExcelJS from 'exceljs';
import type { ApiClient } from './server.js';

/** A cell as read back: text, a number, a date or a formula's parts (exceljs's value), null when empty. */
export type Cell = string | number | boolean | Date | null | { [k: string]: unknown };

/** An xlsx of one sheet, Sheet1, holding `rows`. */
export async function workbook(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet1');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The rows of one worksheet of an xlsx (the first by default), an empty cell as null. */
export async function sheetRows(data: Buffer, sheet = 0): Promise<Cell[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data as unknown as ExcelJS.Buffer);
  const rows: Cell[][] = [];
  wb.worksheets[sheet]?.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1).map((v) => (v === undefined ? null : (v as Cell))));
  });
  return rows;
}

/** Posts `data` as the multipart `file` named `name` to `path` (a view's import, by default). */
export function uploadFile(client: ApiClient, path: string | number, name: string, data: Buffer) {
  const fd = new FormData();
  fd.append('file', new Blob([new Uint8Array(data)]), name);
  return client.request('POST', typeof path === 'number' ? `/api/general/${path}/import` : path, { body: fd });
}
