import { posix } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { ApiError, badRequest } from '../errors.js';
import { contentDisposition } from '../lib/files.js';
import { CellTextRefused, MAX_CELL_CHARS, SharedStringLengths, SheetText, XmlRefused } from './cell-text.js';
import { readXls } from './xls.js';
import { endOfArchive, type InflateBudget, inflateEntry, storedHeader, type ZipEntry, ZipRefused, zipEntries } from './zip-limits.js';

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

export interface Sheet {
  header: string[];
  rows: (string | number | boolean | null)[][];
}

/** What one import may cost; see ServerConfig.importMax*. */
export interface ImportLimits {
  maxUnpackedBytes: number;
  /** Unpacked bytes per compressed byte, for parts past their first MB. */
  maxRatio: number;
  maxRows: number;
  maxColumns: number;
  /** Characters of text in all the sheet's cells, a shared string counted for each cell that shows it (default 20 Mi). */
  maxTextChars?: number;
}

/** The defaults of ServerConfig.importMax*. */
export const DEFAULT_IMPORT_LIMITS: ImportLimits = {
  maxUnpackedBytes: 100 * 1024 * 1024,
  maxRatio: 100,
  maxRows: 50_000,
  maxColumns: 200,
  maxTextChars: 20 * 1024 * 1024,
};

const textLimit = (limits: ImportLimits) => limits.maxTextChars ?? (DEFAULT_IMPORT_LIMITS.maxTextChars as number);

export const megabytes = (n: number) => `${Number((n / 1024 / 1024).toFixed(1))} MB`;

/** Compound File Binary: legacy .xls, and also password-protected xlsx, which Excel wraps in one. */
const CFB_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const CFB_ENCRYPTION = Buffer.from('EncryptionInfo', 'utf16le');
/** workbook.xml and its relationships are read whole; nothing legitimate comes near this. */
const PART_MAX_BYTES = 8 * 1024 * 1024;

const WORKBOOK = 'xl/workbook.xml';
const WORKBOOK_RELS = 'xl/_rels/workbook.xml.rels';
const EMPTY_RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>';
const EMPTY_SST = '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>';

function attrs(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of tag.matchAll(/(?<![\w:.-])([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) out.set(m[1] as string, m[2] ?? m[3] ?? '');
  return out;
}

/** Relationship targets of the workbook by id and by type, as paths inside the archive. */
function relationships(xml: string): { byId: Map<string, string>; byType: Map<string, string> } {
  const byId = new Map<string, string>();
  const byType = new Map<string, string>();
  for (const m of xml.matchAll(/<(?:\w+:)?Relationship\b[^<>]*>/g)) {
    const a = attrs(m[0]);
    const target = a.get('Target');
    if (!target || a.get('TargetMode') === 'External') continue;
    const path = posix.normalize(target.startsWith('/') ? target.slice(1) : `xl/${target}`);
    if (a.get('Id')) byId.set(a.get('Id') as string, path);
    const type = a.get('Type')?.split('/').pop();
    if (type && !byType.has(type)) byType.set(type, path);
  }
  return { byId, byType };
}

/** The archive path of the first worksheet in the workbook's order. */
function firstSheetPath(workbookXml: string, rels: ReturnType<typeof relationships>, names: Set<string>): string | undefined {
  const sheet = /<(?:\w+:)?sheet\b[^<>]*>/.exec(workbookXml);
  if (sheet) {
    const a = attrs(sheet[0]);
    const rid = [...a].find(([k]) => k === 'id' || k.endsWith(':id'))?.[1];
    const path = rid ? rels.byId.get(rid) : undefined;
    if (path && names.has(path)) return path;
  }
  const numbered = [...names]
    .map((n) => /^xl\/worksheets\/sheet(\d+)\.xml$/.exec(n))
    .filter((m): m is RegExpExecArray => !!m)
    .sort((a, b) => Number(a[1]) - Number(b[1]));
  return numbered[0]?.[0];
}

async function wholePart(data: Buffer, entry: ZipEntry | undefined, budget: InflateBudget): Promise<Buffer | undefined> {
  if (!entry) return undefined;
  if (entry.size > PART_MAX_BYTES) throw new ZipRefused('invalid', `${entry.name} is too large`);
  const chunks: Buffer[] = [];
  for await (const c of inflateEntry(data, entry, budget)) chunks.push(c);
  const whole = Buffer.concat(chunks);
  if (hasLongTag(whole)) throw new XmlRefused(`${entry.name} has markup longer than ${TAG_MAX_BYTES} bytes`);
  return whole;
}

/** A tag of workbook.xml or its relationships is never this long; the XML reader takes seconds per MB of one. */
const TAG_MAX_BYTES = 4096;

/** Whether some `<` runs more than TAG_MAX_BYTES before its `>` (or the part's end), in one pass. */
export function hasLongTag(xml: Buffer): boolean {
  let at = xml.indexOf(0x3c);
  while (at >= 0) {
    const close = xml.indexOf(0x3e, at);
    if ((close < 0 ? xml.length : close) - at > TAG_MAX_BYTES) return true;
    if (close < 0) return false;
    at = xml.indexOf(0x3c, close);
  }
  return false;
}

/** Any failure to read a workbook is a refusal: ours say which limit, the rest that it is unreadable. */
function refusal(e: unknown, limits: ImportLimits): ApiError {
  if (e instanceof ApiError) return e;
  if (e instanceof CellTextRefused) {
    return e.reason === 'cell'
      ? badRequest('IMPORT_CELL_TOO_LONG', { row: e.row, column: e.column, max: MAX_CELL_CHARS })
      : badRequest('IMPORT_TEXT_TOO_LARGE', { chars: textLimit(limits) });
  }
  if (e instanceof XmlRefused) return badRequest('IMPORT_NOT_XLSX');
  if (!(e instanceof ZipRefused)) return badRequest('IMPORT_NOT_XLSX');
  if (e.reason === 'unpacked') return badRequest('IMPORT_UNPACKED_TOO_LARGE', { size: megabytes(limits.maxUnpackedBytes) });
  if (e.reason === 'ratio') return badRequest('IMPORT_RATIO_TOO_HIGH', { ratio: limits.maxRatio });
  if (e.reason === 'lying') return badRequest('IMPORT_SIZE_MISMATCH');
  if (e.reason === 'encrypted') return badRequest('IMPORT_ENCRYPTED');
  return badRequest('IMPORT_NOT_XLSX');
}

/**
 * First worksheet of an uploaded workbook. An xlsx is read as a stream: the zip's directory is checked
 * before anything is inflated, every inflated byte is counted against `maxUnpackedBytes`, each cell's
 * text against MAX_CELL_CHARS and all of it against `maxTextChars` before the reader sees it, and
 * reading stops at the first row past `maxRows`. A legacy .xls (BIFF) is read by `readXls` under the
 * same row, column and text limits. What the file holds decides how it is read, not its name.
 */
export async function readWorkbook(data: Buffer, limits: ImportLimits = DEFAULT_IMPORT_LIMITS): Promise<Sheet> {
  if (data.length >= 8 && data.subarray(0, 8).equals(CFB_MAGIC)) {
    // A password-protected xlsx is a Compound File holding its encrypted package.
    if (data.includes(CFB_ENCRYPTION)) throw badRequest('IMPORT_ENCRYPTED');
    return readXls(data, limits, textLimit(limits));
  }
  if (data.length < 4 || data.readUInt32LE(0) !== 0x04034b50) throw badRequest('IMPORT_NOT_XLSX');
  try {
    const entries = zipEntries(data, { maxUnpacked: limits.maxUnpackedBytes, maxRatio: limits.maxRatio });
    const byName = new Map(entries.map((e) => [e.name, e]));
    const budget: InflateBudget = { left: limits.maxUnpackedBytes, maxRatio: limits.maxRatio };
    const workbook = await wholePart(data, byName.get(WORKBOOK), budget);
    if (!workbook) throw new ZipRefused('invalid', 'no workbook part');
    const relsXml = (await wholePart(data, byName.get(WORKBOOK_RELS), budget)) ?? Buffer.from(EMPTY_RELS);
    const rels = relationships(relsXml.toString('utf8'));
    const sheetPath = firstSheetPath(workbook.toString('utf8'), rels, new Set(byName.keys()));
    const sheet = sheetPath ? byName.get(sheetPath) : undefined;
    if (!sheet) return { header: [], rows: [] };
    const strings = byName.get(rels.byType.get('sharedStrings') ?? 'xl/sharedStrings.xml');
    const styles = byName.get(rels.byType.get('styles') ?? 'xl/styles.xml');
    return await readSheet(data, { workbook, rels: relsXml, strings, styles, sheet }, budget, limits);
  } catch (e) {
    throw refusal(e, limits);
  }
}

interface Parts {
  workbook: Buffer;
  rels: Buffer;
  strings: ZipEntry | undefined;
  styles: ZipEntry | undefined;
  sheet: ZipEntry;
}

/** Bytes read between two turns of the event loop, so a long sheet does not hold other calls. */
const READ_SLICE_BYTES = 1024 * 1024;

/** How many bytes at the end of `b` begin a UTF-8 character that the next chunk completes. */
function cutCharacter(b: Buffer): number {
  for (let k = 1; k <= Math.min(3, b.length); k++) {
    const byte = b[b.length - k] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > k ? k : 0;
  }
  return 0;
}

/**
 * A part's bytes, each chunk ending on a whole UTF-8 character (the reader decodes chunk by chunk and
 * would mangle a character cut in two), each seen by `scanner` before it is passed on.
 */
async function* scanned(chunks: AsyncIterable<Buffer>, scanner: { feed(b: Buffer): void; end(): void }): AsyncGenerator<Buffer> {
  let held: Buffer | undefined;
  let sinceTurn = 0;
  for await (const chunk of chunks) {
    const data = held ? Buffer.concat([held, chunk]) : chunk;
    const cut = cutCharacter(data);
    held = cut ? data.subarray(data.length - cut) : undefined;
    const ready = cut ? data.subarray(0, data.length - cut) : data;
    if (!ready.length) continue;
    scanner.feed(ready);
    yield ready;
    sinceTurn += ready.length;
    if (sinceTurn >= READ_SLICE_BYTES) {
      sinceTurn = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  if (held) {
    scanner.feed(held);
    yield held;
  }
  scanner.end();
}

/**
 * The streaming reader takes the parts it needs, re-packed uncompressed, in the order it reads them
 * without temporary files, under the names it knows; each is inflated (and counted) as it is read, and
 * the text of the shared strings and of the sheet's cells is counted before the reader sees it.
 */
async function readSheet(data: Buffer, parts: Parts, budget: InflateBudget, limits: ImportLimits): Promise<Sheet> {
  let refuse: (e: unknown) => void = () => {};
  const refused = new Promise<never>((_, reject) => {
    refuse = reject;
  });
  refused.catch(() => {});
  async function* archive(): AsyncGenerator<Buffer> {
    try {
      yield storedHeader(WORKBOOK_RELS, parts.rels.length);
      yield parts.rels;
      yield storedHeader(WORKBOOK, parts.workbook.length);
      yield parts.workbook;
      const strings = new SharedStringLengths();
      const text = new SheetText(strings, { maxCellChars: MAX_CELL_CHARS, maxTextChars: textLimit(limits) });
      const streamed: [string, ZipEntry | undefined, { feed(b: Buffer): void; end(): void } | undefined][] = [
        ['xl/sharedStrings.xml', parts.strings, strings],
        ['xl/styles.xml', parts.styles, undefined],
        ['xl/worksheets/sheet1.xml', parts.sheet, text],
      ];
      for (const [name, entry, scanner] of streamed) {
        if (!entry) {
          if (name === 'xl/sharedStrings.xml') yield* [storedHeader(name, EMPTY_SST.length), Buffer.from(EMPTY_SST)];
          continue;
        }
        yield storedHeader(name, entry.size);
        const inflated = inflateEntry(data, entry, budget);
        yield* scanner ? scanned(inflated, scanner) : inflated;
      }
      yield endOfArchive();
    } catch (e) {
      // The reader cannot be told of a failure in its input; the caller stops waiting for it instead.
      refuse(e);
    }
  }
  const source = Readable.from(archive(), { objectMode: false, highWaterMark: 64 * 1024 });
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(source, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const rows = async (): Promise<Sheet> => {
    for await (const ws of reader) return await sheetRows(ws, limits);
    return { header: [], rows: [] };
  };
  const reading = rows();
  reading.catch(() => {});
  try {
    return await Promise.race([reading, refused]);
  } finally {
    source.destroy();
  }
}

async function sheetRows(ws: ExcelJS.stream.xlsx.WorksheetReader, limits: ImportLimits): Promise<Sheet> {
  let header: string[] | undefined;
  const rows: Sheet['rows'] = [];
  for await (const row of ws) {
    if (!header) {
      // The header is row 1; a sheet without one has no column that can match a field.
      if (row.number !== 1) return { header: [], rows: [] };
      if (row.cellCount > limits.maxColumns) throw badRequest('IMPORT_TOO_MANY_COLUMNS', { columns: limits.maxColumns });
      header = [];
      for (let col = 1; col <= row.cellCount; col++) header.push(String(cellValue(row.findCell(col)?.value ?? null) ?? '').trim());
      continue;
    }
    if (!(row.number > 1)) continue;
    const values = header.map((_, i) => {
      const v = cellValue(row.findCell(i + 1)?.value ?? null);
      return typeof v === 'string' ? v.trim() : v;
    });
    if (!values.some((v) => v !== null && v !== '')) continue;
    if (rows.length >= limits.maxRows) throw badRequest('IMPORT_TOO_MANY_ROWS', { rows: limits.maxRows });
    rows.push(values);
  }
  return { header: header ?? [], rows };
}

/** Rows written between two turns of the event loop, so a long sheet does not hold other calls. */
const WRITE_SLICE_ROWS = 200;

/** A one-sheet workbook, written as a stream: rows are not kept as cell objects, and other calls run in between. */
export async function writeWorkbook(sheetName: string, header: string[], rows: unknown[][]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  const collected = (async () => {
    for await (const c of out) chunks.push(c as Buffer);
  })();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(sheetName.slice(0, 31) || 'Sheet1');
  ws.columns = header.map((h) => ({ width: Math.min(Math.max(String(h ?? '').length * 2, 10) + 4, 40) }));
  const head = ws.addRow(header);
  head.font = { bold: true };
  head.commit();
  for (let i = 0; i < rows.length; i++) {
    ws.addRow(rows[i] as unknown[]).commit();
    if (i % WRITE_SLICE_ROWS === WRITE_SLICE_ROWS - 1) await new Promise((resolve) => setImmediate(resolve));
  }
  ws.commit();
  await wb.commit();
  await collected;
  return Buffer.concat(chunks);
}

export { workbookStream } from './xlsx-writer.js';

/** Sends a workbook, whole or as a stream (which the reply ends, and destroys if the client goes away). */
export function sendXlsx(reply: FastifyReply, fileName: string, data: Buffer | Readable): FastifyReply {
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', contentDisposition('attachment', fileName, 'xlsx'))
    .send(data);
}
