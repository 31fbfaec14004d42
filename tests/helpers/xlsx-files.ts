import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * Hand-built xlsx archives for the import limits: minimal real workbooks, zip bombs whose sheet inflates
 * to hundreds of MB, and archives whose directory lies about the sizes.
 */

export interface ZipPart {
  name: string;
  /** Raw deflate data, or the plain bytes to deflate. */
  deflated?: Buffer;
  data?: Buffer;
  /** Unpacked size and checksum the headers state; by default the true ones. */
  size: number;
  crc?: number;
}

export const part = (name: string, text: string | Buffer): ZipPart => {
  const data = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  return { name, data, size: data.length, crc: crc32(data) };
};

export function zip(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    // The fastest level: test files of noise text take seconds to deflate at the default one.
    const body = p.deflated ?? deflateRawSync(p.data ?? Buffer.alloc(0), { level: 1 });
    const name = Buffer.from(p.name, 'utf8');
    const fields = (h: Buffer, at: number) => {
      h.writeUInt16LE(20, at);
      h.writeUInt16LE(0x800, at + 2);
      h.writeUInt16LE(8, at + 4);
      h.writeUInt32LE((p.crc ?? 0) >>> 0, at + 10);
      h.writeUInt32LE(body.length, at + 14);
      h.writeUInt32LE(p.size, at + 18);
      h.writeUInt16LE(name.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    fields(local, 4);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    fields(cd, 6);
    cd.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    central.push(cd, name);
    offset += local.length + name.length + body.length;
  }
  const cdBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cdBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cdBytes, end]);
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const column = (i: number) => {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
};

/**
 * A cell: a number, an inline string, a reference to shared string `s`, inline rich text in `runs`, or
 * a formula `f` whose cached result is the string `str`.
 */
export type CellSpec = string | number | { s: number } | { runs: string[] } | { f: string; str: string };

function cellXml(ref: string, v: CellSpec): string {
  if (typeof v === 'number') return `<c r="${ref}"><v>${v}</v></c>`;
  if (typeof v === 'string') return `<c r="${ref}" t="inlineStr"><is><t>${escapeXml(v)}</t></is></c>`;
  if ('s' in v) return `<c r="${ref}" t="s"><v>${v.s}</v></c>`;
  if ('runs' in v) return `<c r="${ref}" t="inlineStr"><is>${v.runs.map((t) => `<r><t>${escapeXml(t)}</t></r>`).join('')}</is></c>`;
  return `<c r="${ref}" t="str"><f>${escapeXml(v.f)}</f><v>${escapeXml(v.str)}</v></c>`;
}

export function rowXml(r: number, cells: CellSpec[]): string {
  return `<row r="${r}">${cells.map((v, i) => cellXml(`${column(i)}${r}`, v)).join('')}</row>`;
}

const SHEET_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_TAIL = '</sheetData></worksheet>';

/** The parts of a one-sheet workbook around a given sheet part, and its shared strings if any. */
function workbookParts(sheet: ZipPart, sharedStrings?: ZipPart): ZipPart[] {
  return [
    part(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        '</Types>',
    ),
    part(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
        '</Relationships>',
    ),
    part(
      'xl/workbook.xml',
      '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ),
    part(
      'xl/_rels/workbook.xml.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
        (sharedStrings
          ? '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
          : '') +
        '</Relationships>',
    ),
    ...(sharedStrings ? [sharedStrings] : []),
    sheet,
  ];
}

/** A real xlsx (inline strings, no styles) with these rows on its one sheet. */
export function plainXlsx(rows: CellSpec[][]): Buffer {
  const xml = SHEET_HEAD + rows.map((r, i) => rowXml(i + 1, r)).join('') + SHEET_TAIL;
  return zip(workbookParts(part('xl/worksheets/sheet1.xml', xml)));
}

/** A shared string: plain text, or rich text in runs. */
export type SharedString = string | string[];

/** The shared strings part holding `strings` once each, in order (cells refer to them as `{ s: index }`). */
export function sharedStringsPart(strings: SharedString[]): ZipPart {
  const items = strings.map((s) =>
    typeof s === 'string' ? `<si><t>${escapeXml(s)}</t></si>` : `<si>${s.map((t) => `<r><t>${escapeXml(t)}</t></r>`).join('')}</si>`,
  );
  return part(
    'xl/sharedStrings.xml',
    '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
      `count="${strings.length}" uniqueCount="${strings.length}">${items.join('')}</sst>`,
  );
}

/** A real xlsx with a shared strings part and these rows, whose `{ s: i }` cells show `strings[i]`. */
export function sharedStringsXlsx(strings: SharedString[], rows: CellSpec[][]): Buffer {
  const xml = SHEET_HEAD + rows.map((r, i) => rowXml(i + 1, r)).join('') + SHEET_TAIL;
  return zip(workbookParts(part('xl/worksheets/sheet1.xml', xml), sharedStringsPart(strings)));
}

/**
 * `length` characters of a fixed pseudo-random sequence of 'a' and 'b' (from `seed`): about one bit a
 * character, so it deflates 4 to 7 times, well within the ratio an import allows.
 */
export function noiseText(length: number, seed = 1): string {
  const bytes = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 1 ? 0x61 : 0x62;
  }
  return bytes.toString('latin1');
}

/**
 * The shared-string bomb: one shared string of `chars` characters, held once in the shared strings
 * part, shown by every one of `rows` × `columns` cells. About 240 KB for 1 MB of text; read as the
 * reader builds it, 500 cells of it are 500 MB of text.
 */
export function sharedStringBombXlsx(chars = 1024 * 1024, rows = 50, columns = 10): Buffer {
  const sheet = Array.from({ length: rows }, () => Array.from({ length: columns }, () => ({ s: 0 })));
  return sharedStringsXlsx([noiseText(chars)], sheet);
}

/**
 * About `chars` characters of inline text (cells of 30,000 noise characters under a `名称` header), a
 * quarter of that in file: a block of 40 rows deflated once and repeated, so the file is made quickly.
 */
export function inlineTextXlsx(chars: number): Buffer {
  const cell = 30_000;
  const block = Array.from({ length: 40 }, (_, i) => rowXml(i + 2, [noiseText(cell, i + 1)])).join('');
  return repeatedXlsx(['名称'], block, Math.ceil(chars / (40 * cell)), undefined, 1);
}

/**
 * A one-sheet xlsx whose sheet is a header row then `copies` repetitions of `block` (rows of XML),
 * deflated piece by piece so the unpacked sheet is never held in memory. Fully flushed pieces
 * are independent, so the block is deflated once and repeated.
 */
export function repeatedXlsx(header: CellSpec[], block: string, copies: number, declaredSize?: number, level = 9): Buffer {
  const flush = { finishFlush: constants.Z_FULL_FLUSH, level };
  const head = Buffer.from(SHEET_HEAD + rowXml(1, header), 'utf8');
  const body = Buffer.from(block, 'utf8');
  const tail = Buffer.from(SHEET_TAIL, 'utf8');
  const bodyDeflated = deflateRawSync(body, flush);
  const deflated = Buffer.concat([
    deflateRawSync(head, flush),
    ...Array.from({ length: copies }, () => bodyDeflated),
    deflateRawSync(tail),
  ]);
  const size = head.length + body.length * copies + tail.length;
  return zip(workbookParts({ name: 'xl/worksheets/sheet1.xml', deflated, size: declaredSize ?? size }));
}

/** Rows numbered from 2 that repeat one cell value, `count` of them, as sheet XML. */
export function dataRows(count: number, cells: CellSpec[], from = 2): string {
  let out = '';
  for (let r = from; r < from + count; r++) out += rowXml(r, cells);
  return out;
}

/**
 * About `mb` MB of unpacked sheet (blank rows, so no row limit stops it first) that deflates to a few
 * thousandths of it; `declaredSize` makes its zip directory state another size.
 */
export function bombXlsx(mb: number, declaredSize?: number): Buffer {
  const row = '<row r="2"><c r="A2"/></row>';
  const block = row.repeat(Math.ceil((1024 * 1024) / row.length));
  return repeatedXlsx(['名称'], block, mb, declaredSize);
}
