import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config.js';
import { MAX_CELL_CHARS, SharedStringLengths, SheetText } from '../../server/lowcode/cell-text.js';
import { DEFAULT_IMPORT_LIMITS, hasLongTag, readWorkbook } from '../../server/lowcode/xlsx.js';
import { workbookStreamEnded } from '../../server/lowcode/xlsx-writer.js';
import { type ErrorCode, type ErrorParams, errorMessage } from '../../src/shared/error-catalogue.js';
import { signRequest } from '../../src/shared/sign.js';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { sheetRows, uploadFile } from '../helpers/sheets.js';
import { field } from '../helpers/wire-field.js';
import {
  bombXlsx,
  dataRows,
  inlineTextXlsx,
  noiseText,
  part,
  plainXlsx,
  repeatedXlsx,
  sharedStringBombXlsx,
  sharedStringsXlsx,
  zip,
} from '../helpers/xlsx-files.js';

let server: TestServer;
let admin: ApiClient;
let viewId: number;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
  const add = await admin.post('/api/generation/add', {
    name: '导入限制',
    disMenu: JSON.stringify({ componentName: 'importLimits', name: '导入限制' }),
  });
  viewId = add.body.id;
  const design = await admin.post('/api/generation/design', {
    id: viewId,
    disTemplate: JSON.stringify({
      basicOption: { sortName: 'id', sortType: 'asc' },
      tableOption: [field('title', '名称', 'varchar'), field('score', '评分', 'long'), field('checkDate', '检查日期', 'datetime')],
      formOption: [
        field('title', '名称', 'varchar', { required: true }),
        field('score', '评分', 'long', { min: 1, max: 100 }),
        field('checkDate', '检查日期', 'datetime', { timeFmt: 'yyyy-MM-dd' }),
      ],
    }),
  });
  expect(design.status).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

const MB = 1024 * 1024;

const upload = (name: string, data: Buffer) => uploadFile(admin, viewId, name, data);

async function stored(): Promise<Record<string, unknown>[]> {
  const res = await admin.get(`/api/general/list/${viewId}`, { size: 1000 });
  expect(res.status).toBe(200);
  return res.body.content;
}

/** A thrown refusal by its code, its message from the catalogue. */
const refused = (code: ErrorCode, params?: ErrorParams) => ({ code, message: errorMessage(code, params) });

/**
 * Sends a file that must be refused with `code`, with another user's calls running alongside,
 * and checks that those calls were answered and that nothing was written.
 */
async function expectRefused(name: string, data: Buffer, code: ErrorCode, params?: ErrorParams) {
  const before = (await stored()).length;
  const [res, ...others] = await Promise.all([
    upload(name, data),
    admin.get(`/api/general/list/${viewId}`),
    admin.get('/api/general/list/12', { size: 5 }),
  ]);
  expect(res.status).toBe(400);
  expect(res.body).toEqual(refusal(400, code, params));
  for (const o of others) expect(o.status).toBe(200);
  expect((await stored()).length).toBe(before);
}

describe('import of workbooks within the limits', () => {
  it('imports an Excel-written workbook and a minimal one, and answers a verdict per row', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('第一页');
    ws.addRow(['名称', '评分', '检查日期']);
    ws.addRow(['一号库', 80, new Date(Date.UTC(2026, 2, 5))]);
    ws.addRow([{ richText: [{ text: '二号' }, { text: '库' }] }, { formula: '40+2', result: 42 }, '2026-03-06']);
    ws.addRow(['', 500, '']);
    wb.addWorksheet('第二页').addRow(['名称']);
    const res = await upload('巡检.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-import-success')).toBe('2');
    expect(res.headers.get('x-import-failed')).toBe('1');
    expect((await sheetRows(res.body as Buffer)).map((r) => r.at(-1))).toEqual([
      '导入结果',
      '成功',
      '成功',
      '请输入名称；最大值不能大于 100',
    ]);

    const minimal = await upload(
      '最小.xlsx',
      plainXlsx([
        ['名称', '评分'],
        ['三号库', 7],
      ]),
    );
    expect(minimal.status).toBe(200);
    expect(minimal.headers.get('x-import-success')).toBe('1');
    expect((await stored()).map((r) => [r.title, r.score, r.checkDate])).toEqual([
      ['一号库', 80, '2026-03-05'],
      ['二号库', 42, '2026-03-06'],
      ['三号库', 7, null],
    ]);
  });

  it('imports again what it exports', async () => {
    const exported = await admin.get(`/api/general/${viewId}/download`, { fields: 'title,score', headers: '名称,评分' });
    expect(exported.status).toBe(200);
    const before = (await stored()).length;
    const res = await upload('导出.xlsx', exported.body as Buffer);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-import-success')).toBe(String(before));
    expect((await stored()).length).toBe(2 * before);
  });
});

describe('import refusals', () => {
  it('refuses a zip bomb from its directory, before inflating it', async () => {
    const bomb = bombXlsx(300);
    expect(bomb.length).toBeLessThan(1.5 * MB);
    await expectRefused('炸弹.xlsx', bomb, 'IMPORT_UNPACKED_TOO_LARGE', { size: '100 MB' });
  });

  it('refuses a bomb that declares its size within the limit by its compression ratio', async () => {
    await expectRefused('炸弹.xlsx', bombXlsx(60), 'IMPORT_RATIO_TOO_HIGH', { ratio: 100 });
  });

  it('refuses a bomb whose directory declares small sizes, while inflating it', async () => {
    await expectRefused('炸弹.xlsx', bombXlsx(300, 2000), 'IMPORT_SIZE_MISMATCH');
    // Declared within the limit and at a plausible ratio: refused by the ratio it actually inflates at.
    const plausible = bombXlsx(300, 50 * MB);
    expect(plausible.length * 100).toBeGreaterThan(50 * MB);
    await expectRefused('炸弹.xlsx', plausible, 'IMPORT_RATIO_TOO_HIGH', { ratio: 100 });
  });

  it('refuses a file over the upload limit', async () => {
    const big = Buffer.alloc(10 * MB + 1, 1);
    big.writeUInt32LE(0x04034b50, 0);
    await expectRefused('大文件.xlsx', big, 'IMPORT_FILE_TOO_LARGE', { size: '10 MB' });
  });

  it('refuses more rows than the row limit while reading them, writing none', async () => {
    const rows = repeatedXlsx(['名称', '评分'], dataRows(50_001, ['第 n 行', 5]), 1);
    expect(rows.length).toBeLessThan(MB);
    await expectRefused('五万行.xlsx', rows, 'IMPORT_TOO_MANY_ROWS', { rows: 50000 });
  });

  it('refuses more header columns than the column limit', async () => {
    const header = Array.from({ length: 201 }, (_, i) => `列${i + 1}`);
    await expectRefused('宽表.xlsx', plainXlsx([header, ['x']]), 'IMPORT_TOO_MANY_COLUMNS', { columns: 200 });
  });

  it('refuses an unreadable .xls and a password-protected workbook with what to do instead', async () => {
    // A Compound File Binary header: how every BIFF .xls begins.
    const cfb = Buffer.alloc(1024);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(cfb);
    cfb.writeUInt16LE(0x3e, 24);
    cfb.writeUInt16LE(0xfffe, 28);
    cfb.write('Workbook', 512 + 0, 'utf16le');
    await expectRefused('旧格式.xls', cfb, 'IMPORT_XLS_UNREADABLE');
    expect(errorMessage('IMPORT_XLS_UNREADABLE')).toBe('无法读取该 .xls 文件，请上传在 Excel 中保存的 .xls 或 .xlsx 文件');
    const encrypted = Buffer.from(cfb);
    encrypted.write('EncryptionInfo', 512 + 128, 'utf16le');
    await expectRefused('加密.xlsx', encrypted, 'IMPORT_ENCRYPTED');
  });

  it('refuses files that are not workbooks with a clear message', async () => {
    await expectRefused('乱码.xlsx', Buffer.from('not a zip at all'), 'IMPORT_NOT_XLSX');
    await expectRefused('压缩包.xlsx', zip([part('readme.txt', 'hello')]), 'IMPORT_NOT_XLSX');
    // Stored, not deflated, so the ratio check passes: one tag of 1 MB in the workbook's parts kept the
    // XML reader busy for seconds while every other call waited.
    const stored = (name: string, text: string) => ({ ...part(name, text), deflated: deflateRawSync(Buffer.from(text), { level: 0 }) });
    const sheetXml = '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/></worksheet>';
    const longTag = (rels: string, workbook: string) =>
      zip([stored('xl/workbook.xml', workbook), stored('xl/_rels/workbook.xml.rels', rels), stored('xl/worksheets/sheet1.xml', sheetXml)]);
    const okWorkbook = '<workbook><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>';
    // They are refused before the XML reader sees them, by the length of the tag.
    expect(hasLongTag(Buffer.from(okWorkbook))).toBe(false);
    expect(hasLongTag(Buffer.from(`<a ${'-'.repeat(4_093)}>`))).toBe(false);
    expect(hasLongTag(Buffer.from(`<a ${'-'.repeat(4_094)}>`))).toBe(true);
    expect(hasLongTag(Buffer.from(`<a>${'text '.repeat(10_000)}</a>`))).toBe(false);
    expect(hasLongTag(Buffer.from(`<a>x<${'b'.repeat(5_000)}`))).toBe(true);
    const okRels = '<Relationships><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/sheet1.xml"/></Relationships>';
    await expectRefused(
      '长标签.xlsx',
      longTag(`<Relationship ${'-'.repeat(1_000_000)} Target="worksheets/sheet1.xml">`, okWorkbook),
      'IMPORT_NOT_XLSX',
    );
    await expectRefused('长标签.xlsx', longTag(okRels, `<workbook><sheet ${'-'.repeat(1_000_000)}>`), 'IMPORT_NOT_XLSX');
    await expectRefused('长标签.xlsx', longTag('<Relationship:0'.repeat(70_000), okWorkbook), 'IMPORT_NOT_XLSX');
    const whole = plainXlsx([['名称'], ['x']]);
    await expectRefused('截断.xlsx', whole.subarray(0, Math.floor(whole.length / 2)), 'IMPORT_NOT_XLSX');
    await expectRefused(
      '损坏.xlsx',
      zip([part('xl/workbook.xml', '<workbook'), part('xl/worksheets/sheet1.xml', '<<<')]),
      'IMPORT_NOT_XLSX',
    );
    expect((await upload('notes.txt', Buffer.from('hello'))).body).toEqual({
      status: 400,
      code: 'IMPORT_TYPE_NOT_ALLOWED',
      message: '允许上传 xls、xlsx',
    });
  });
});

describe('the workbook reader', () => {
  it('reads exactly the default row limit and refuses one more', async () => {
    const at = await readWorkbook(repeatedXlsx(['名称'], dataRows(50_000, ['x']), 1));
    expect(at.rows).toHaveLength(50_000);
    await expect(readWorkbook(repeatedXlsx(['名称'], dataRows(50_001, ['x']), 1))).rejects.toMatchObject(
      refused('IMPORT_TOO_MANY_ROWS', { rows: 50000 }),
    );
  });

  it('applies the limits it is given', async () => {
    const limits = { maxUnpackedBytes: 64 * 1024, maxRatio: 100, maxRows: 3, maxColumns: 2, maxTextChars: 1000 };
    await expect(readWorkbook(plainXlsx([['a'], ['1'], ['2'], ['3'], ['4']]), limits)).rejects.toMatchObject(
      refused('IMPORT_TOO_MANY_ROWS', { rows: 3 }),
    );
    await expect(readWorkbook(plainXlsx([['a', 'b', 'c'], ['1']]), limits)).rejects.toMatchObject(
      refused('IMPORT_TOO_MANY_COLUMNS', { columns: 2 }),
    );
    await expect(readWorkbook(bombXlsx(1), limits)).rejects.toMatchObject(refused('IMPORT_UNPACKED_TOO_LARGE', { size: '0.1 MB' }));
    expect(
      (
        await readWorkbook(
          plainXlsx([
            ['a', 'b'],
            ['1', ''],
          ]),
          limits,
        )
      ).rows,
    ).toEqual([['1', '']]);
    const lenient = { ...DEFAULT_IMPORT_LIMITS, maxUnpackedBytes: 400 * MB, maxRatio: 1000 };
    await expect(readWorkbook(bombXlsx(300, 2000), lenient)).rejects.toMatchObject(refused('IMPORT_SIZE_MISMATCH'));
    await expect(readWorkbook(bombXlsx(300), { ...lenient, maxRatio: 50 })).rejects.toMatchObject(
      refused('IMPORT_RATIO_TOO_HIGH', { ratio: 50 }),
    );
  });

  it('takes its limits from the environment', () => {
    expect(configFromEnv({})).toMatchObject({
      importMaxBytes: 10 * MB,
      importMaxUnpackedBytes: DEFAULT_IMPORT_LIMITS.maxUnpackedBytes,
      importMaxRows: DEFAULT_IMPORT_LIMITS.maxRows,
      importMaxColumns: DEFAULT_IMPORT_LIMITS.maxColumns,
      importMaxRatio: DEFAULT_IMPORT_LIMITS.maxRatio,
      importMaxTextChars: DEFAULT_IMPORT_LIMITS.maxTextChars,
    });
    expect(DEFAULT_IMPORT_LIMITS.maxTextChars).toBe(20 * MB);
    const env = {
      IMPORT_MAX_BYTES: '1000',
      IMPORT_MAX_UNPACKED_BYTES: '2000',
      IMPORT_MAX_ROWS: '30',
      IMPORT_MAX_COLUMNS: '4',
      IMPORT_MAX_RATIO: '7',
      IMPORT_MAX_TEXT_CHARS: '5000',
    };
    expect(configFromEnv(env)).toMatchObject({
      importMaxBytes: 1000,
      importMaxUnpackedBytes: 2000,
      importMaxRows: 30,
      importMaxColumns: 4,
      importMaxRatio: 7,
      importMaxTextChars: 5000,
    });
  });
});

describe('after a large import', () => {
  it('brings the statistics up to date, and on PGlite (no autovacuum) the visibility map too', async () => {
    const rows: (string | number)[][] = [['名称', '评分']];
    for (let i = 0; i < 1000; i++) rows.push([`批量${i}`, 1 + (i % 99)]);
    const res = await upload('批量.xlsx', plainXlsx(rows));
    expect(res.headers.get('x-import-success')).toBe('1000');
    const stats = await sql<{ analyzed: boolean; vacuumed: boolean }>`
      select last_analyze is not null as analyzed, last_vacuum is not null as vacuumed
      from pg_stat_user_tables where relname = ${`lc_view_${viewId}`}`.execute(server.ctx.db);
    expect(stats.rows[0]).toEqual({ analyzed: true, vacuumed: server.ctx.dbKind === 'pglite' });
  });
});

const cellTooLong = (row: number, column: number) => ({ row, column, max: 32767 });
const TEXT_TOO_LARGE = { chars: 20971520 };

describe('the text of cells', () => {
  it('refuses at once a small file whose cells all show one long shared string, writing nothing', async () => {
    // 1 MB of text held once, shown by 10 × 50 cells: 500 MB once read as the reader builds it.
    const bomb = sharedStringBombXlsx();
    expect(bomb.length).toBeLessThan(256 * 1024);
    expect(errorMessage('IMPORT_CELL_TOO_LONG', cellTooLong(1, 1))).toBe('第 1 行第 1 列的内容超过 32767 个字符');
    // Answered after 21.9 s with a 113 MB workbook when the text was counted only once expanded; how fast
    // it is refused now is measured by bench/import-text.bench.ts.
    await expectRefused('共享字符串.xlsx', bomb, 'IMPORT_CELL_TOO_LONG', cellTooLong(1, 1));
  });

  it('counts a shared string once for every cell that shows it', async () => {
    // 30,000 characters, within a cell's limit, shown by 700 cells: 21 million characters read.
    const bomb = sharedStringBombXlsx(30_000, 70, 10);
    expect(bomb.length).toBeLessThan(64 * 1024);
    await expectRefused('共享字符串.xlsx', bomb, 'IMPORT_TEXT_TOO_LARGE', TEXT_TOO_LARGE);
  });

  it('takes a cell of 32,767 characters and refuses one of 32,768, however it is written', async () => {
    expect(MAX_CELL_CHARS).toBe(32_767);
    const inline = (n: number) =>
      plainXlsx([
        ['名称', '评分'],
        [noiseText(n), 5],
      ]);
    const shared = (n: number) =>
      sharedStringsXlsx(
        ['名称', noiseText(n)],
        [
          [{ s: 0 }, '评分'],
          [{ s: 1 }, 5],
        ],
      );
    for (const [name, file] of [
      ['行内.xlsx', inline],
      ['共享.xlsx', shared],
    ] as const) {
      const at = await upload(name, file(32_767));
      expect(at.status, name).toBe(200);
      expect(at.headers.get('x-import-failed'), name).toBe('1');
      await expectRefused(name, file(32_768), 'IMPORT_CELL_TOO_LONG', cellTooLong(2, 1));
    }

    // Rich text, formula results, entities and characters outside the BMP (two UTF-16 units, as Excel counts).
    const half = noiseText(16_384);
    // The reader keeps only the last run of inline rich text: that run is the cell's text.
    const forms: [string, (extra: string) => Buffer, number][] = [
      [
        'shared rich text',
        (x) =>
          sharedStringsXlsx(
            [[half, noiseText(16_383, 7) + x]],
            [
              ['名称', '评分', '备注'],
              [5, 6, { s: 0 }],
            ],
          ),
        32_767,
      ],
      [
        'inline rich text',
        (x) =>
          plainXlsx([
            ['名称', '评分', '备注'],
            [5, 6, { runs: [half, noiseText(32_767, 7) + x] }],
          ]),
        32_767,
      ],
      [
        'formula result',
        (x) =>
          plainXlsx([
            ['名称', '评分', '备注'],
            [5, 6, { f: 'A1&B1', str: noiseText(32_767) + x }],
          ]),
        32_767,
      ],
      [
        'entities',
        (x) =>
          plainXlsx([
            ['名称', '评分', '备注'],
            [5, 6, `${'<&>'.repeat(10_922)}a${x}`],
          ]),
        32_767,
      ],
      [
        'astral characters',
        (x) =>
          plainXlsx([
            ['名称', '评分', '备注'],
            [5, 6, `${'😀'.repeat(16_383)}a${x}`],
          ]),
        32_767,
      ],
    ];
    for (const [form, file, read] of forms) {
      const at = await readWorkbook(file(''));
      expect(String(at.rows[0]?.[2]).length, form).toBe(read);
      await expect(readWorkbook(file('b')), form).rejects.toMatchObject(refused('IMPORT_CELL_TOO_LONG', cellTooLong(2, 3)));
    }
  });

  it('holds the whole sheet to the text limit, inline strings too', async () => {
    // Inline cells of 30,000 characters, 21 million in all: over the default limit of 20 Mi characters.
    const inline = inlineTextXlsx(21_000_000);
    expect(inline.length).toBeLessThan(6 * MB);
    await expectRefused('长文本.xlsx', inline, 'IMPORT_TEXT_TOO_LARGE', TEXT_TOO_LARGE);

    const limits = { ...DEFAULT_IMPORT_LIMITS, maxTextChars: 100_000 };
    const cells = (n: number) => Array.from({ length: n }, (_, i) => noiseText(25_000, i + 1));
    const header = ['名称', '评分', '备注', '附注', '其他'];
    // Header text counts too: 5 × 2 characters.
    expect((await readWorkbook(plainXlsx([header, cells(3)]), limits)).rows).toHaveLength(1);
    await expect(readWorkbook(plainXlsx([header, cells(4)]), limits)).rejects.toMatchObject(
      refused('IMPORT_TEXT_TOO_LARGE', { chars: 100000 }),
    );
    const viaShared = (n: number) => sharedStringsXlsx(cells(1), [header, Array.from({ length: n }, () => ({ s: 0 }))]);
    expect((await readWorkbook(viaShared(3), limits)).rows).toHaveLength(1);
    await expect(readWorkbook(viaShared(4), limits)).rejects.toMatchObject(refused('IMPORT_TEXT_TOO_LARGE', { chars: 100000 }));
    const viaFormula = (n: number) => plainXlsx([header, cells(n).map((str) => ({ f: '1', str }))]);
    expect((await readWorkbook(viaFormula(3), limits)).rows).toHaveLength(1);
    await expect(readWorkbook(viaFormula(4), limits)).rejects.toMatchObject(refused('IMPORT_TEXT_TOO_LARGE', { chars: 100000 }));
  });

  it('counts the same wherever the chunks of a part are cut', () => {
    const sst =
      '<?xml version="1.0"?><sst><si><t>甲乙</t></si><!-- a <si> in a comment --><si><r><t>ab</t></r><r><t xml:space="preserve"> &#x1F600;</t></r></si>' +
      '<si><t><![CDATA[not text]]>x&amp;y</t></si></sst>';
    const sheet =
      '<?xml version="1.0"?><worksheet><sheetData><row r="1"><c r="A1" t="s"><v>1</v></c><c r="B1" t="inlineStr" x="a>b"><is><t>中文&lt;</t></is></c>' +
      `<c r='C1' t='str'><f>A1&amp;"x>y"</f><v>😀😀</v></c><c r="D1"><v>12</v></c><?pi <c>?><c r="E1" t="&#115;"><v>2</v></c></row></sheetData></worksheet>`;
    const count = (size: number) => {
      const strings = new SharedStringLengths();
      const text = new SheetText(strings, { maxCellChars: MAX_CELL_CHARS, maxTextChars: 1000 });
      for (const [scanner, xml] of [
        [strings, sst],
        [text, sheet],
      ] as const) {
        const bytes = Buffer.from(xml, 'utf8');
        for (let i = 0; i < bytes.length; i += size) scanner.feed(bytes.subarray(i, i + size));
        scanner.end();
      }
      return { strings: [...strings.lengths.subarray(0, strings.count)], total: text.total };
    };
    // Shared strings 2, 2 + 3, 3 (CDATA is not text to the reader); the sheet shows #1, "中文<", "😀😀" and #2.
    const whole = { strings: [2, 5, 3], total: 5 + 3 + 4 + 3 };
    for (const size of [1, 2, 3, 5, 7, 64, 100_000]) expect(count(size), `chunks of ${size}`).toEqual(whole);
  });

  it('refuses as unreadable a part with a document type declaration', async () => {
    const file = zip([
      part(
        'xl/workbook.xml',
        '<?xml version="1.0"?><workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="a" sheetId="1" r:id="rId1"/></sheets></workbook>',
      ),
      part(
        'xl/_rels/workbook.xml.rels',
        '<?xml version="1.0"?><Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
      ),
      part('xl/worksheets/sheet1.xml', '<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY a "aaaa">]><worksheet><sheetData/></worksheet>'),
    ]);
    await expectRefused('文档类型.xlsx', file, 'IMPORT_NOT_XLSX');
  });

  it('reads Chinese text whole wherever the chunks it is read in are cut', async () => {
    const rows: string[][] = [['名称']];
    for (let i = 0; i < 20_000; i++) rows.push([`危险废物第${i}号仓库😀`]);
    const sheet = await readWorkbook(plainXlsx(rows));
    expect(sheet.rows).toHaveLength(20_000);
    expect(sheet.rows.filter((r, i) => r[0] !== rows[i + 1]?.[0])).toEqual([]);
  });
});

describe('the result workbook', () => {
  it('holds every row of a large import with its verdict, and is streamed', async () => {
    const rows: (string | number)[][] = [['名称', '评分', '备注']];
    for (let i = 0; i < 10_000; i++) rows.push([`库 <${i}> & “甲”😀`, i % 7 === 0 ? 500 : 1 + (i % 99), noiseText(300, i + 1)]);
    const res = await upload('大批量.xlsx', plainXlsx(rows));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const failed = rows.slice(1).filter((r) => r[1] === 500).length;
    expect(res.headers.get('x-import-failed')).toBe(String(failed));
    expect(res.headers.get('x-import-success')).toBe(String(10_000 - failed));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.body as unknown as ExcelJS.Buffer);
    const ws = wb.worksheets[0] as ExcelJS.Worksheet;
    expect(ws.name).toBe('导入结果');
    expect(ws.getRow(1).font?.bold).toBe(true);
    const result = await sheetRows(res.body as Buffer);
    expect(result).toHaveLength(10_001);
    expect(result[0]).toEqual(['名称', '评分', '备注', '导入结果']);
    const expected = rows.slice(1).map((r) => [...r, r[1] === 500 ? '最大值不能大于 100' : '成功']);
    expect(result.slice(1)).toEqual(expected);
  });

  it('stops being written when the client goes away', async () => {
    // 20,000 rows of 900 characters: megabytes of answer, which a client that reads none of it cannot hold.
    const noise = noiseText(20_000 * 900);
    const rows: string[][] = [['名称', '备注']];
    for (let i = 0; i < 20_000; i++) rows.push(['', noise.slice(i * 900, (i + 1) * 900)]);
    const file = plainXlsx(rows);
    const ended = new Promise<{ rows: number; complete: boolean }>((resolve) => {
      const listener = (message: unknown) => {
        unsubscribe(workbookStreamEnded.name, listener);
        resolve(message as { rows: number; complete: boolean });
      };
      subscribe(workbookStreamEnded.name, listener);
    });
    const fd = new FormData();
    fd.append('file', new Blob([new Uint8Array(file)]), '中途离开.xlsx');
    const headers: Record<string, string> = { authorization: admin.token as string };
    if (admin.signSecret) {
      headers.timestamp = String(Date.now());
      headers.sign = signRequest({}, undefined, headers.timestamp, admin.signSecret);
    }
    const abort = new AbortController();
    const res = await fetch(new URL(`/api/general/${viewId}/import`, admin.baseUrl), {
      method: 'POST',
      headers,
      body: fd,
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    abort.abort();
    const end = await ended;
    expect(end.complete).toBe(false);
    expect(end.rows).toBeLessThan(20_000);
    // The server goes on answering.
    expect((await admin.get('/api/health')).status).toBe(200);
  });
});
