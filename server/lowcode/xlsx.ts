import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { badRequest } from '../errors.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const ONLY_EXCEL = '允许上传 xls、xlsx';

const pad = (n: number) => String(n).padStart(2, '0');

/** A cell as plain data. Excel dates carry no time zone; ExcelJS hands them over as UTC. */
function cellValue(v: ExcelJS.CellValue): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v instanceof Date) {
    const time = v.getUTCHours() || v.getUTCMinutes() || v.getUTCSeconds();
    const day = `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
    return time ? `${day} ${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}:${pad(v.getUTCSeconds())}` : day;
  }
  if ('richText' in v) return v.richText.map((r) => r.text).join('');
  if ('text' in v && typeof v.text === 'string') return v.text;
  if ('result' in v) return cellValue((v.result ?? null) as ExcelJS.CellValue);
  return null;
}

interface Sheet {
  header: string[];
  rows: (string | number | boolean | null)[][];
}

/** First worksheet of an uploaded workbook. Only real xlsx (zip) content is readable. */
export async function readWorkbook(data: Buffer): Promise<Sheet> {
  if (data.length < 4 || data.readUInt32LE(0) !== 0x04034b50) throw badRequest(ONLY_EXCEL);
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(data as unknown as ExcelJS.Buffer);
  } catch {
    throw badRequest(ONLY_EXCEL);
  }
  const ws = wb.worksheets[0];
  if (!ws) return { header: [], rows: [] };
  const header: string[] = [];
  ws.getRow(1).eachCell({ includeEmpty: true }, (cell, col) => {
    header[col - 1] = String(cellValue(cell.value) ?? '').trim();
  });
  const rows: Sheet['rows'] = [];
  for (let r = 2; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    const values = header.map((_, i) => {
      const v = cellValue(row.getCell(i + 1).value);
      return typeof v === 'string' ? v.trim() : v;
    });
    if (values.some((v) => v !== null && v !== '')) rows.push(values);
  }
  return { header, rows };
}

export async function writeWorkbook(sheetName: string, header: string[], rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheetName.slice(0, 31) || 'Sheet1');
  ws.addRow(header).font = { bold: true };
  for (const r of rows) ws.addRow(r);
  ws.columns.forEach((c, i) => {
    const len = Math.max(String(header[i] ?? '').length * 2, 10);
    c.width = Math.min(len + 4, 40);
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export function sendXlsx(reply: FastifyReply, fileName: string, data: Buffer): FastifyReply {
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', `attachment; filename="export.xlsx"; filename*=UTF-8''${encodeURIComponent(fileName)}`)
    .send(data);
}
