import { channel } from 'node:diagnostics_channel';
import { pipeline, Readable } from 'node:stream';
import { crc32, createDeflateRaw } from 'node:zlib';

/**
 * A one-sheet workbook written as a stream that is pulled by whoever reads it: the sheet's XML is made
 * a slice at a time only as the reader takes the deflated bytes, so neither the XML nor the archive is
 * ever held whole, a slow reader slows the writing, and a reader that goes away stops it (the rows are
 * no longer iterated). Cells are written as ExcelJS writes them: strings as `t="str"`, booleans as
 * `t="b"`, the header row bold, columns sized by their header.
 */

/** Published once per streamed workbook when it ends: `{ rows, complete }` (rows written, and whether the reader took it all). */
export const workbookStreamEnded = channel('wastegen:xlsx-stream-ended');

/** Sheet XML gathered before it is handed to the deflater. */
const SLICE_CHARS = 64 * 1024;

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
  '</Types>';
const ROOT_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
  '</Relationships>';
const WORKBOOK_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' +
  '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
  '</Relationships>';
/** Style 0 is the default; style 1 is the bold header. */
const STYLES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

/** Characters XML 1.0 cannot hold (and lone surrogates): dropped, as ExcelJS drops them. */
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: dropping what XML cannot hold is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const escapeXml = (s: string) => s.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (s: string) => escapeXml(s).replace(/"/g, '&quot;');

function columnName(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

function cellXml(ref: string, v: unknown, style: string): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' && Number.isFinite(v)) return `<c r="${ref}"${style}><v>${v}</v></c>`;
  if (typeof v === 'boolean') return `<c r="${ref}"${style} t="b"><v>${v ? 1 : 0}</v></c>`;
  const text = v instanceof Date ? v.toISOString() : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return `<c r="${ref}"${style} t="str"><v>${escapeXml(text)}</v></c>`;
}

/** The sheet's XML in slices of about SLICE_CHARS, made as they are asked for. */
function* sheetXml(header: readonly string[], rows: Iterable<readonly unknown[]>, written: { rows: number }): Generator<string> {
  const refs = header.map((_, i) => columnName(i));
  const widths = header.map((h) => Math.min(Math.max(String(h ?? '').length * 2, 10) + 4, 40));
  let out =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheetFormatPr defaultRowHeight="15"/>';
  if (widths.length)
    out += `<cols>${widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>`;
  out += '<sheetData>';
  // A row is cut between cells when a slice fills up, so one wide row of long texts is never made at once.
  const rowParts = function* (r: number, cells: readonly unknown[], style: string): Generator<string> {
    out += `<row r="${r}"${style ? ' s="1" customFormat="1"' : ''}>`;
    for (let i = 0; i < cells.length; i++) {
      out += cellXml(`${refs[i] ?? columnName(i)}${r}`, cells[i], style);
      if (out.length >= SLICE_CHARS) {
        yield out;
        out = '';
      }
    }
    out += '</row>';
  };
  let r = 1;
  if (header.length) yield* rowParts(r++, header, ' s="1"');
  for (const cells of rows) {
    yield* rowParts(r++, cells, '');
    written.rows++;
  }
  out += '</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>';
  yield out;
}

interface Written {
  name: Buffer;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
}

const LOCAL = 0x04034b50;
const DESCRIPTOR = 0x08074b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
/** Sizes and checksum follow the data (bit 3); names are UTF-8 (bit 11). */
const FLAGS = 0x0808;

/** The zip entry of one part, deflated as its text is pulled from `texts`. */
async function* entry(name: string, texts: Iterable<string>, offset: number, done: (w: Written) => void): AsyncGenerator<Buffer> {
  const nameBytes = Buffer.from(name, 'utf8');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(LOCAL, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(FLAGS, 6);
  local.writeUInt16LE(8, 8);
  local.writeUInt16LE(nameBytes.length, 26);
  yield Buffer.concat([local, nameBytes]);
  let crc = 0;
  let size = 0;
  let compressedSize = 0;
  const plain = function* () {
    for (const text of texts) {
      const bytes = Buffer.from(text, 'utf8');
      crc = crc32(bytes, crc);
      size += bytes.length;
      yield bytes;
    }
  };
  const deflater = createDeflateRaw();
  // A failure or an early end on either side ends both.
  pipeline(Readable.from(plain(), { objectMode: false }), deflater, () => {});
  for await (const chunk of deflater) {
    compressedSize += (chunk as Buffer).length;
    yield chunk as Buffer;
  }
  if (size > 0xfffffffe || compressedSize > 0xfffffffe) throw new Error(`${name} is too large for a zip without zip64`);
  const descriptor = Buffer.alloc(16);
  descriptor.writeUInt32LE(DESCRIPTOR, 0);
  descriptor.writeUInt32LE(crc >>> 0, 4);
  descriptor.writeUInt32LE(compressedSize, 8);
  descriptor.writeUInt32LE(size, 12);
  yield descriptor;
  done({ name: nameBytes, crc, compressedSize, size, offset });
}

function centralDirectory(parts: Written[], offset: number): Buffer {
  const records = parts.map((p) => {
    const h = Buffer.alloc(46);
    h.writeUInt32LE(CENTRAL, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(20, 6);
    h.writeUInt16LE(FLAGS, 8);
    h.writeUInt16LE(8, 10);
    h.writeUInt32LE(p.crc >>> 0, 16);
    h.writeUInt32LE(p.compressedSize, 20);
    h.writeUInt32LE(p.size, 24);
    h.writeUInt16LE(p.name.length, 28);
    h.writeUInt32LE(p.offset, 42);
    return Buffer.concat([h, p.name]);
  });
  const directory = Buffer.concat(records);
  if (offset > 0xfffffffe) throw new Error('workbook is too large for a zip without zip64');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([directory, end]);
}

/**
 * A one-sheet workbook (`header` in bold, then `rows`) as a readable stream of xlsx bytes. `rows` is
 * iterated only as the stream is read; destroying the stream stops it.
 */
export function workbookStream(sheetName: string, header: readonly string[], rows: Iterable<readonly unknown[]>): Readable {
  const title = sheetName.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet1';
  const workbook =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
    `xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet sheetId="1" name="${escapeAttribute(title)}" r:id="rId2"/></sheets></workbook>`;
  const written = { rows: 0 };
  const parts: [string, Iterable<string>][] = [
    ['[Content_Types].xml', [CONTENT_TYPES]],
    ['_rels/.rels', [ROOT_RELS]],
    ['xl/workbook.xml', [workbook]],
    ['xl/_rels/workbook.xml.rels', [WORKBOOK_RELS]],
    ['xl/styles.xml', [STYLES]],
    ['xl/worksheets/sheet1.xml', sheetXml(header, rows, written)],
  ];
  async function* archive(): AsyncGenerator<Buffer> {
    let complete = false;
    try {
      const done: Written[] = [];
      let offset = 0;
      for (const [name, texts] of parts) {
        for await (const chunk of entry(name, texts, offset, (w) => done.push(w))) {
          offset += chunk.length;
          yield chunk;
        }
      }
      yield centralDirectory(done, offset);
      complete = true;
    } finally {
      if (workbookStreamEnded.hasSubscribers) workbookStreamEnded.publish({ rows: written.rows, complete });
    }
  }
  return Readable.from(archive(), { objectMode: false });
}
