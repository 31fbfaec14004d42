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
    const body = p.deflated ?? deflateRawSync(p.data ?? Buffer.alloc(0));
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

export function rowXml(r: number, cells: (string | number)[]): string {
  const cs = cells.map((v, i) =>
    typeof v === 'number'
      ? `<c r="${column(i)}${r}"><v>${v}</v></c>`
      : `<c r="${column(i)}${r}" t="inlineStr"><is><t>${escapeXml(v)}</t></is></c>`,
  );
  return `<row r="${r}">${cs.join('')}</row>`;
}

const SHEET_HEAD =
  '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_TAIL = '</sheetData></worksheet>';

/** The parts of a one-sheet workbook around a given sheet part. */
function workbookParts(sheet: ZipPart): ZipPart[] {
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
        '</Relationships>',
    ),
    sheet,
  ];
}

/** A real xlsx (inline strings, no styles) with these rows on its one sheet. */
export function plainXlsx(rows: (string | number)[][]): Buffer {
  const xml = SHEET_HEAD + rows.map((r, i) => rowXml(i + 1, r)).join('') + SHEET_TAIL;
  return zip(workbookParts(part('xl/worksheets/sheet1.xml', xml)));
}

/**
 * A one-sheet xlsx whose sheet is a header row then `copies` repetitions of `block` (rows of XML),
 * deflated piece by piece so the unpacked sheet is never held in memory. Fully flushed pieces
 * are independent, so the block is deflated once and repeated.
 */
export function repeatedXlsx(header: (string | number)[], block: string, copies: number, declaredSize?: number): Buffer {
  const flush = { finishFlush: constants.Z_FULL_FLUSH, level: 9 };
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
export function dataRows(count: number, cells: (string | number)[], from = 2): string {
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
