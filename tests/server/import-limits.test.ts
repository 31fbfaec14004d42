import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config.js';
import { DEFAULT_IMPORT_LIMITS, ENCRYPTED_XLSX, LYING_ZIP, NOT_XLSX, readWorkbook, XLS_UNSUPPORTED } from '../../server/lowcode/xlsx.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { field } from '../helpers/wire-field.js';
import { bombXlsx, dataRows, part, plainXlsx, repeatedXlsx, zip } from '../helpers/xlsx-files.js';

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

function upload(name: string, data: Buffer) {
  const fd = new FormData();
  fd.append('file', new Blob([new Uint8Array(data)]), name);
  return admin.request('POST', `/api/general/${viewId}/import`, { body: fd });
}

async function stored(): Promise<Record<string, unknown>[]> {
  const res = await admin.get(`/api/general/list/${viewId}`, { size: 1000 });
  expect(res.status).toBe(200);
  return res.body.content;
}

/**
 * Sends a file that must be refused with `message`, with another user's calls running alongside,
 * and checks that those calls were answered and that nothing was written.
 */
async function expectRefused(name: string, data: Buffer, message: string) {
  const before = (await stored()).length;
  const [res, ...others] = await Promise.all([
    upload(name, data),
    admin.get(`/api/general/list/${viewId}`),
    admin.get('/api/general/list/12', { size: 5 }),
  ]);
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ status: 400, code: expect.any(String), message });
  for (const o of others) expect(o.status).toBe(200);
  expect((await stored()).length).toBe(before);
}

async function sheetOf(data: Buffer): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data as unknown as ExcelJS.Buffer);
  const rows: unknown[][] = [];
  wb.worksheets[0]?.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return rows;
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
    expect((await sheetOf(res.body as Buffer)).map((r) => r.at(-1))).toEqual([
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
    await expectRefused('炸弹.xlsx', bomb, '导入文件解压后超过 100 MB，已拒绝');
  });

  it('refuses a bomb that declares its size within the limit by its compression ratio', async () => {
    await expectRefused('炸弹.xlsx', bombXlsx(60), '导入文件的压缩比超过 100 倍，疑似压缩炸弹，已拒绝');
  });

  it('refuses a bomb whose directory declares small sizes, while inflating it', async () => {
    await expectRefused('炸弹.xlsx', bombXlsx(300, 2000), LYING_ZIP);
    // Declared within the limit and at a plausible ratio: refused by the ratio it actually inflates at.
    const plausible = bombXlsx(300, 50 * MB);
    expect(plausible.length * 100).toBeGreaterThan(50 * MB);
    await expectRefused('炸弹.xlsx', plausible, '导入文件的压缩比超过 100 倍，疑似压缩炸弹，已拒绝');
  });

  it('refuses a file over the upload limit', async () => {
    const big = Buffer.alloc(10 * MB + 1, 1);
    big.writeUInt32LE(0x04034b50, 0);
    await expectRefused('大文件.xlsx', big, '文件大小超过限制，导入文件不能超过 10 MB');
  });

  it('refuses more rows than the row limit while reading them, writing none', async () => {
    const rows = repeatedXlsx(['名称', '评分'], dataRows(50_001, ['第 n 行', 5]), 1);
    expect(rows.length).toBeLessThan(MB);
    await expectRefused('五万行.xlsx', rows, '导入行数超过上限 50000 行，请分批导入');
  });

  it('refuses more header columns than the column limit', async () => {
    const header = Array.from({ length: 201 }, (_, i) => `列${i + 1}`);
    await expectRefused('宽表.xlsx', plainXlsx([header, ['x']]), '导入文件的列数超过上限 200 列');
  });

  it('refuses a legacy .xls and a password-protected workbook with what to do instead', async () => {
    // A Compound File Binary header: how every BIFF .xls begins.
    const cfb = Buffer.alloc(1024);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(cfb);
    cfb.writeUInt16LE(0x3e, 24);
    cfb.writeUInt16LE(0xfffe, 28);
    cfb.write('Workbook', 512 + 0, 'utf16le');
    await expectRefused('旧格式.xls', cfb, XLS_UNSUPPORTED);
    expect(XLS_UNSUPPORTED).toBe('暂不支持 .xls 格式，请在 Excel 中另存为 .xlsx 后再导入');
    const encrypted = Buffer.from(cfb);
    encrypted.write('EncryptionInfo', 512 + 128, 'utf16le');
    await expectRefused('加密.xlsx', encrypted, ENCRYPTED_XLSX);
  });

  it('refuses files that are not workbooks with a clear message', async () => {
    await expectRefused('乱码.xlsx', Buffer.from('not a zip at all'), NOT_XLSX);
    await expectRefused('压缩包.xlsx', zip([part('readme.txt', 'hello')]), NOT_XLSX);
    const whole = plainXlsx([['名称'], ['x']]);
    await expectRefused('截断.xlsx', whole.subarray(0, Math.floor(whole.length / 2)), NOT_XLSX);
    await expectRefused('损坏.xlsx', zip([part('xl/workbook.xml', '<workbook'), part('xl/worksheets/sheet1.xml', '<<<')]), NOT_XLSX);
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
    await expect(readWorkbook(repeatedXlsx(['名称'], dataRows(50_001, ['x']), 1))).rejects.toThrow('导入行数超过上限 50000 行，请分批导入');
  });

  it('applies the limits it is given', async () => {
    const limits = { maxUnpackedBytes: 64 * 1024, maxRatio: 100, maxRows: 3, maxColumns: 2 };
    await expect(readWorkbook(plainXlsx([['a'], ['1'], ['2'], ['3'], ['4']]), limits)).rejects.toThrow('导入行数超过上限 3 行，请分批导入');
    await expect(readWorkbook(plainXlsx([['a', 'b', 'c'], ['1']]), limits)).rejects.toThrow('导入文件的列数超过上限 2 列');
    await expect(readWorkbook(bombXlsx(1), limits)).rejects.toThrow('导入文件解压后超过 0.1 MB，已拒绝');
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
    await expect(readWorkbook(bombXlsx(300, 2000), lenient)).rejects.toThrow(LYING_ZIP);
    await expect(readWorkbook(bombXlsx(300), { ...lenient, maxRatio: 50 })).rejects.toThrow('导入文件的压缩比超过 50 倍');
  });

  it('takes its limits from the environment', () => {
    expect(configFromEnv({})).toMatchObject({
      importMaxBytes: 10 * MB,
      importMaxUnpackedBytes: DEFAULT_IMPORT_LIMITS.maxUnpackedBytes,
      importMaxRows: DEFAULT_IMPORT_LIMITS.maxRows,
      importMaxColumns: DEFAULT_IMPORT_LIMITS.maxColumns,
      importMaxRatio: DEFAULT_IMPORT_LIMITS.maxRatio,
    });
    const env = {
      IMPORT_MAX_BYTES: '1000',
      IMPORT_MAX_UNPACKED_BYTES: '2000',
      IMPORT_MAX_ROWS: '30',
      IMPORT_MAX_COLUMNS: '4',
      IMPORT_MAX_RATIO: '7',
    };
    expect(configFromEnv(env)).toMatchObject({
      importMaxBytes: 1000,
      importMaxUnpackedBytes: 2000,
      importMaxRows: 30,
      importMaxColumns: 4,
      importMaxRatio: 7,
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
