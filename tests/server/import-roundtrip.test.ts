import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY } from '../../server/seed/ids.js';
import { errorMessage } from '../../src/shared/error-catalogue.js';
import { formatDate } from '../../src/shared/format.js';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { type Cell, sheetRows, uploadFile, workbook } from '../helpers/sheets.js';

/**
 * Files speak names: an export writes what the screen shows, and an import of that file adds the same
 * rows again, reading each name back among what the importing account may pick.
 */

let server: TestServer;
const clients = new Map<string, ApiClient>();

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function as(account: string): Promise<ApiClient> {
  let c = clients.get(account);
  if (!c) {
    c = await server.login(account);
    clients.set(account, c);
  }
  return c;
}

async function exported(client: ApiClient, viewId: number): Promise<Cell[][]> {
  const res = await client.get(`/api/general/export/${viewId}/download`, { startTime: '2000-01-01 00:00:00' });
  expect(res.status).toBe(200);
  return sheetRows(res.body as Buffer);
}

/** The last column of an import's result sheet, per row. */
async function verdicts(body: Buffer): Promise<Cell[]> {
  return (await sheetRows(body)).slice(1).map((r) => r.at(-1) ?? null);
}

/**
 * Each importable seeded view, the account that adds its records, and the columns that are not the
 * record's own content (stored files, exported by their names; read-only fields, show 3, which no form
 * writes and the seed or an action sets directly: 询价单号, 订单金额, the stock-ins' 状态 and 出库状态). `unpickable`: columns whose seeded
 * records the account's own form cannot pick either (the seed names them directly): the producer's
 * inquiries name the disposer's contacts, which only the disposer lists, and the disposer's orders name
 * the producers' stock-ins, outside its data scope; the disposer's contracts name party A's warehouse
 * (贮存仓库), a producer's. Those columns are left out of the re-imported file.
 * `numbered`: generated document numbers, unique within a company: the re-imported rows carry new ones.
 */
const IMPORTABLE: { viewId: number; account: string; skip: string[]; unpickable?: string[]; numbered?: string[] }[] = [
  // Views that pick records of another view first, while the records they pick still have names of their own.
  // An inquiry's quote (its state, price and time) is the asked disposer's: the asker's rows do not carry it.
  { viewId: 15, account: 'producer', skip: ['询价单号', '询价状态', '报价单价', '报价时间'], unpickable: ['对接联系人'] },
  { viewId: 13, account: 'producer', skip: ['出库状态'], numbered: ['出库单号'] },
  { viewId: 20, account: 'logistics', skip: [], numbered: ['运单号'] },
  { viewId: 19, account: 'disposer', skip: ['订单金额'], unpickable: ['来源入库单'], numbered: ['订单编号'] },
  { viewId: 12, account: 'producer', skip: ['现场照片', '状态'], numbered: ['入库单号'] },
  { viewId: 16, account: 'disposer', skip: [], unpickable: ['贮存仓库'] },
  { viewId: 17, account: 'logistics', skip: [] },
  // The reply and 是否已读 are the addressed department's: the author's import leaves them unset.
  { viewId: 18, account: 'producer', skip: ['是否已读', '回复内容', '回复时间'] },
];
const SYSTEM_COLUMNS = ['创建时间', '更新时间', '创建人', '创建者', '修改时间', '序号', 'ID', 'id'];

/** Rows as comparable keys over the columns that are the record's own content. */
function keyed(header: Cell[], rows: Cell[][], skip: string[]): string[] {
  const keep = header.map((h, i) => [String(h), i] as const).filter(([h]) => !skip.includes(h) && !SYSTEM_COLUMNS.includes(h));
  return rows.map((r) => JSON.stringify(keep.map(([h, i]) => [h, r[i] ?? null]))).sort();
}

describe('an import of the exported file adds the same rows again, by name', () => {
  for (const { viewId, account, skip: content, unpickable = [], numbered = [] } of IMPORTABLE) {
    it(`view ${viewId} as ${account}`, async () => {
      const client = await as(account);
      const res0 = await client.get(`/api/general/export/${viewId}/download`, { startTime: '2000-01-01 00:00:00' });
      if (res0.status === 403) throw new Error(`${account} may not export view ${viewId}`);
      const before = await exported(client, viewId);
      const [header = [], ...old] = before;
      expect(old.length).toBeGreaterThan(0);
      const skip = [...content, ...unpickable, ...numbered];
      const kept = header.map((h, i) => [h, i] as const).filter(([h]) => !unpickable.includes(String(h)));
      // Each numbered cell gets a number of a long past day, once.
      const renumber = new Set(header.flatMap((h, i) => (numbered.includes(String(h)) ? [i] : [])));
      const fresh = (v: Cell, at: number) => `${String(v ?? '').replace(/\d+$/, '')}20010101${String(at).padStart(4, '0')}`;
      const file = await workbook(
        before.map((r, at) => kept.map(([, i]) => (at > 0 && renumber.has(i) ? fresh(r[i] ?? null, at) : (r[i] ?? null)))),
      );
      const res = await uploadFile(client, viewId, `${viewId}.xlsx`, file);
      expect(res.status).toBe(200);
      const told = await verdicts(res.body as Buffer);
      expect(told.filter((v) => v !== '成功')).toEqual([]);
      expect(res.headers.get('x-import-success')).toBe(String(old.length));
      expect(res.headers.get('x-import-failed')).toBe('0');
      const after = await exported(client, viewId);
      const [header2 = [], ...all] = after;
      expect(header2).toEqual(header);
      const oldKeys = keyed(header, old, skip);
      expect(keyed(header, all, skip)).toEqual([...oldKeys, ...oldKeys].sort());
    });
  }
});

describe('names in imports', () => {
  /** A warehouse of the producer's company, and one of another company. */
  async function warehouses() {
    const own = await server.ctx.db
      .selectFrom('company_warehouse')
      .select(['id', 'name', 'company_id'])
      .where('company_id', '=', COMPANY.producer)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const other = await server.ctx.db
      .selectFrom('company_warehouse')
      .select(['id', 'name', 'company_id'])
      .where('company_id', '<>', COMPANY.producer)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    return { own, other };
  }

  const HEADER = ['入库单号', '危废类别', '废物代码', '危废名称', '入库数量', '包装方式', '入库仓库', '入库时间', '经办人'];
  const row = (warehouse: string | number, more: Partial<Record<string, Cell>> = {}) => {
    const values: Record<string, Cell> = {
      入库单号: null,
      危废类别: 'HW08',
      废物代码: '900-249-08',
      危废名称: '名称导入测试',
      入库数量: 1.5,
      包装方式: '吨袋',
      入库仓库: warehouse,
      入库时间: '2026-03-05 10:00:00',
      经办人: '张三',
      ...more,
    };
    return HEADER.map((h) => values[h] ?? null);
  };

  async function dictLabel(dict: string, value: string): Promise<string> {
    const r = await server.ctx.db
      .selectFrom('sys_dict as d')
      .innerJoin('sys_dict_detail as dd', 'dd.dict_id', 'd.id')
      .select('dd.label')
      .where('d.name', '=', dict)
      .where('dd.value', '=', value)
      .executeTakeFirstOrThrow();
    return r.label;
  }

  async function stockRow(name: string) {
    const r = await sql<{ warehouseId: number; wasteCategory: string; packageType: string; stockNo: string }>`
      select "warehouseId", "wasteCategory", "packageType", "stockNo" from lc_view_12 where "wasteName" = ${name} order by id desc limit 1`.execute(
      server.ctx.db,
    );
    return r.rows[0];
  }

  it('reads a warehouse by its name or its id, and dictionaries by their labels', async () => {
    const producer = await as('producer');
    const { own } = await warehouses();
    const category = await dictLabel('wasteCategory', 'HW08');
    const pack = await dictLabel('package_type', '2');
    const file = await workbook([
      HEADER,
      row(own.name, { 危废名称: '按名称', 危废类别: category, 包装方式: pack }),
      row(own.id, { 危废名称: '按编号', 危废类别: 'HW08', 包装方式: '2' }),
    ]);
    const res = await uploadFile(producer, 12, '入库.xlsx', file);
    expect(res.status).toBe(200);
    expect(await verdicts(res.body as Buffer)).toEqual(['成功', '成功']);
    for (const name of ['按名称', '按编号']) {
      expect(await stockRow(name)).toMatchObject({ warehouseId: own.id, wasteCategory: 'HW08', packageType: '2' });
    }
  });

  it("refuses another company's warehouse by name, an unknown name and an unknown label, naming the column and the value", async () => {
    const producer = await as('producer');
    const { other } = await warehouses();
    const file = await workbook([
      HEADER,
      row(other.name, { 危废名称: '别家仓库' }),
      row('没有这个仓库', { 危废名称: '未知仓库' }),
      row((await warehouses()).own.name, { 危废名称: '未知包装', 包装方式: '纸箱子' }),
    ]);
    const res = await uploadFile(producer, 12, '入库.xlsx', file);
    expect(res.headers.get('x-import-success')).toBe('0');
    expect(res.headers.get('x-import-failed')).toBe('3');
    expect(await verdicts(res.body as Buffer)).toEqual([
      errorMessage('IMPORT_LABEL_UNKNOWN', { label: '入库仓库', value: other.name }),
      errorMessage('IMPORT_LABEL_UNKNOWN', { label: '入库仓库', value: '没有这个仓库' }),
      errorMessage('IMPORT_LABEL_UNKNOWN', { label: '包装方式', value: '纸箱子' }),
    ]);
    expect(errorMessage('IMPORT_LABEL_UNKNOWN', { label: '入库仓库', value: 'X' })).toBe('入库仓库：找不到“X”，请从下拉列表中选择');
    // Another company's warehouse by its id is refused as before.
    const byId = await uploadFile(producer, 12, '入库.xlsx', await workbook([HEADER, row(other.id, { 危废名称: '别家编号' })]));
    expect(await verdicts(byId.body as Buffer)).toEqual([errorMessage('REFERENCE_OUT_OF_SCOPE', { label: '入库仓库' })]);
    expect(await stockRow('别家仓库')).toBeUndefined();
    expect(await stockRow('别家编号')).toBeUndefined();
  });

  it('refuses a name two of the offered records share, and asks for the id', async () => {
    const producer = await as('producer');
    const { own } = await warehouses();
    // A second warehouse of the company under the same name (warehouses are the records of view 14).
    const columns = (
      await sql<{ name: string }>`select column_name as name from information_schema.columns
        where table_name = 'lc_view_14' and table_schema = current_schema() and column_name <> 'id'`.execute(server.ctx.db)
    ).rows.map((r) => sql.id(r.name));
    const twin = (
      await sql<{
        id: number;
      }>`insert into lc_view_14 (${sql.join(columns)}) select ${sql.join(columns)} from lc_view_14 where id = ${own.id}
        returning id`.execute(server.ctx.db)
    ).rows[0] as { id: number };
    try {
      const res = await uploadFile(
        producer,
        12,
        '入库.xlsx',
        await workbook([HEADER, row(own.name, { 危废名称: '同名仓库' }), row(own.id, { 危废名称: '同名按编号' })]),
      );
      expect(await verdicts(res.body as Buffer)).toEqual([
        errorMessage('IMPORT_LABEL_AMBIGUOUS', { label: '入库仓库', value: own.name }),
        '成功',
      ]);
      expect(errorMessage('IMPORT_LABEL_AMBIGUOUS', { label: '入库仓库', value: 'X' })).toBe('入库仓库：“X”对应多条记录，请改填其编号');
    } finally {
      await sql`delete from lc_view_14 where id = ${twin.id}`.execute(server.ctx.db);
    }
  });

  it("numbers a stock-in from the company's own day series, unique under concurrent writes; a typed number of another day stays", async () => {
    const producer = await as('producer');
    const { own } = await warehouses();
    const day = formatDate(new Date(), 'YYYYMMDD');
    const rows = Array.from({ length: 5 }, (_, i) => row(own.name, { 危废名称: `编号${i}` }));
    const typed = 'RK202601019000';
    rows.push(row(own.name, { 危废名称: '手填编号', 入库单号: typed }));
    // Refused rows: today's series is the server's to give, and a number the sheet has already given.
    rows.push(row(own.name, { 危废名称: '手填今日', 入库单号: `RK${day}9000` }));
    rows.push(row(own.name, { 危废名称: '手填重复', 入库单号: typed }));
    const record = (name: string) => ({
      wasteCategory: 'HW08',
      wasteCode: '900-249-08',
      wasteName: name,
      quantity: 1,
      packageType: '1',
      warehouseId: own.id,
      inTime: '2026-03-05 10:00:00',
      handler: '李四',
    });
    const [imported, ...added] = await Promise.all([
      uploadFile(producer, 12, '入库.xlsx', await workbook([HEADER, ...rows])),
      ...Array.from({ length: 4 }, (_, i) => producer.post('/api/general/add/12', record(`表单${i}`))),
    ]);
    expect(imported?.headers.get('x-import-success')).toBe('6');
    expect((await verdicts(imported?.body as Buffer)).slice(5)).toEqual([
      '成功',
      errorMessage('DOC_NUMBER_RESERVED', { label: '入库单号' }),
      errorMessage('DOC_NUMBER_TAKEN', { label: '入库单号' }),
    ]);
    expect(errorMessage('DOC_NUMBER_TAKEN', { label: '入库单号' })).toBe('入库单号：该编号已被使用');
    for (const a of added) expect(a.status).toBe(200);
    const numbers = (
      await sql<{
        stockNo: string;
        wasteName: string;
      }>`select "stockNo", "wasteName" from lc_view_12 where "wasteName" ~ '^(编号|表单)\\d$'`.execute(server.ctx.db)
    ).rows.map((r) => r.stockNo);
    expect(numbers).toHaveLength(9);
    for (const n of numbers) expect(n).toMatch(new RegExp(`^RK${day}\\d{4}$`));
    expect(new Set(numbers).size).toBe(9);
    // The company's own series: the nine numbers run one after another.
    const serials = numbers.map((n) => Number(n.slice(-4))).sort((a, b) => a - b);
    expect(serials.at(-1)! - serials[0]!).toBe(8);
    expect((await stockRow('手填编号'))?.stockNo).toBe(typed);
    expect(await stockRow('手填今日')).toBeUndefined();
    // The form refuses the same: a number the company has, and one of today's series.
    for (const [stockNo, code] of [
      [typed, 'DOC_NUMBER_TAKEN'],
      [numbers[0], 'DOC_NUMBER_RESERVED'],
    ] as const) {
      const r = await producer.post('/api/general/add/12', { ...record('手填被拒'), stockNo });
      expect(r.body).toEqual(refusal(400, code, { label: '入库单号' }));
    }
    // Another company may hold the same number: it is another company's document.
    const collector = await as('collector');
    const collectorWarehouse = (await collector.get('/api/companyWarehouse/list')).body.content[0].id;
    const theirs = await collector.post('/api/general/add/12', { ...record('别家同号'), warehouseId: collectorWarehouse, stockNo: typed });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
  });

  it("refuses a number past a day's 9999th, and numbers no other company's record after it", async () => {
    const collector = await as('collector');
    const producer = await as('producer');
    const day = formatDate(new Date(), 'YYYYMMDD');
    const stockIn = async (client: ApiClient, name: string) => {
      const warehouseId = (await client.get('/api/companyWarehouse/list')).body.content[0].id;
      return client.post('/api/general/add/12', {
        wasteCategory: 'HW08',
        wasteCode: '900-249-08',
        wasteName: name,
        quantity: 1,
        packageType: '1',
        warehouseId,
        inTime: '2026-03-05 10:00:00',
        handler: '李四',
      });
    };
    const key = `12:stockNo:${COMPANY.collector}:RK${day}`;
    await sql`insert into doc_number (name, last) values (${key}, 9999) on conflict (name) do update set last = 9999`.execute(
      server.ctx.db,
    );
    try {
      const r = await stockIn(collector, '编号用完');
      expect(r.body).toEqual(refusal(400, 'DOC_NUMBER_EXHAUSTED', { label: '入库单号' }));
      expect(await stockRow('编号用完')).toBeUndefined();
      const other = await stockIn(producer, '别家照常');
      expect(other.status).toBe(200);
      expect((await stockRow('别家照常'))?.stockNo).toMatch(new RegExp(`^RK${day}\\d{4}$`));
    } finally {
      // Without its counter the series goes on from the company's highest number of the day.
      await sql`delete from doc_number where name = ${key}`.execute(server.ctx.db);
    }
    expect((await stockIn(collector, '编号接续')).status).toBe(200);
  });

  it('reads a real .xls (BIFF8) as an xlsx', async () => {
    const producer = await as('producer');
    const { own } = await warehouses();
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([HEADER, row(own.name, { 危废名称: '旧格式导入' })]), '危废入库');
    const xls = XLSX.write(book, { type: 'buffer', bookType: 'biff8' }) as Buffer;
    expect(xls.subarray(0, 4).toString('hex')).toBe('d0cf11e0');
    const res = await uploadFile(producer, 12, '入库.xls', xls);
    expect(res.status).toBe(200);
    expect(await verdicts(res.body as Buffer)).toEqual(['成功']);
    expect(await stockRow('旧格式导入')).toMatchObject({ warehouseId: own.id });
  });

  it('refuses a broken .xls and a file that is no workbook, saying so', async () => {
    const producer = await as('producer');
    const cfb = Buffer.alloc(1024);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(cfb);
    expect((await uploadFile(producer, 12, '坏.xls', cfb)).body).toEqual(refusal(400, 'IMPORT_XLS_UNREADABLE'));
    expect((await uploadFile(producer, 12, '坏.xls', Buffer.from('just text'))).body).toEqual(refusal(400, 'IMPORT_NOT_XLSX'));
    expect((await uploadFile(producer, 12, '坏.csv', Buffer.from('a,b'))).body).toEqual(refusal(400, 'IMPORT_TYPE_NOT_ALLOWED'));
  });

  it('offers a template with drop-downs of the allowed names and one example row', async () => {
    const producer = await as('producer');
    const res = await producer.get('/api/general/12/template');
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.body as unknown as ExcelJS.Buffer);
    const [data, example, choices] = wb.worksheets;
    if (!data || !example || !choices) throw new Error('the template has three sheets');
    const header = (data.getRow(1).values as unknown[]).slice(1);
    expect(header).toContain('入库仓库');
    expect(data?.rowCount).toBe(1);
    const column = header.indexOf('入库仓库') + 1;
    const validation = data?.getRow(2).getCell(column).dataValidation;
    expect(validation?.type).toBe('list');
    const [, range = ''] = /!\$([A-Z]+)\$2:/.exec(String(validation?.formulae?.[0])) ?? [];
    const offered: string[] = [];
    for (let r = 2; choices.getCell(`${range}${r}`).value !== null; r++) offered.push(String(choices.getCell(`${range}${r}`).value));
    const own = await server.ctx.db.selectFrom('company_warehouse').select('name').where('company_id', '=', COMPANY.producer).execute();
    expect(offered.sort()).toEqual([...new Set(own.map((w) => w.name))].sort());
    expect(choices.state).toBe('hidden');
    // The example row fills every column the form requires, and imports as it is.
    const exampleRows = await sheetRows(res.body as Buffer, 1);
    expect(example?.name).toBe('填写示例');
    expect(exampleRows[0]).toEqual(header);
    const sample = await uploadFile(producer, 12, '示例.xlsx', await workbook(exampleRows.slice(0, 2)));
    expect(await verdicts(sample.body as Buffer)).toEqual(['成功']);
  });

  it('pairs the example’s waste class with a code of that class, one of the catalogue’s', async () => {
    const res = await (await as('producer')).get('/api/general/12/template');
    const [header = [], example = []] = await sheetRows(res.body as Buffer, 1);
    const wasteClass = String(example[header.indexOf('危废类别')]);
    const code = String(example[header.indexOf('废物代码')]);
    expect(wasteClass).toMatch(/^HW\d{2} /);
    expect(code).toMatch(/^\d{3}-\d{3}-\d{2}$/);
    // A code's last two digits are its class.
    expect(`HW${code.slice(-2)}`).toBe(wasteClass.slice(0, 4));
    const listed = await server.ctx.db.selectFrom('waste_category').select('category').where('code', '=', code).executeTakeFirst();
    expect(listed?.category).toBe(wasteClass.slice(0, 4));
  });
});

describe('regions and several picked records, by name', () => {
  const REGION_COLUMNS = ['起运地区', '产废单位地区', '所在地区'];
  const NAMES = /^[^\d,]+(\/[^\d,]+)*$/;

  it('an export writes a region by its names and the disposal processes by theirs, never codes or ids', async () => {
    const seen = new Set<string>();
    for (const [account, viewId] of [
      ['disposer', 19],
      ['logistics', 20],
      ['producer', 14],
      ['producer', 15],
    ] as const) {
      const [header = [], ...rows] = await exported(await as(account), viewId);
      header.forEach((h, i) => {
        if (!REGION_COLUMNS.includes(String(h)) && h !== '处置方式') return;
        for (const r of rows) {
          const v = r[i];
          if (v === null || v === undefined || v === '') continue;
          seen.add(String(h));
          expect(String(v), `${viewId} ${h}`).toMatch(h === '处置方式' ? /^[^\d]+$/ : NAMES);
        }
      });
    }
    expect([...seen].sort()).toEqual([...REGION_COLUMNS, '处置方式'].sort());
  });

  it('an import reads a region by its path of names, one name found once, or its codes, and says which cell named nothing', async () => {
    const producer = await as('producer');
    const [header = [], first = []] = await exported(producer, 14);
    const withRegion = (region: string, n: number) =>
      header.map((h, i) => (h === '所在地区' ? region : h === '仓库名称' ? `地区导入库${n}` : (first[i] ?? null)));
    // One more 虎丘区, under another city: the name alone no longer tells which.
    await server.ctx.db.insertInto('region').values({ code: '320699', name: '虎丘区', level: 3, parent_code: '320600' }).execute();
    const file = await workbook([
      header,
      withRegion('江苏省/苏州市/虎丘区', 1),
      withRegion('江苏省 / 常州市 / 武进区', 2),
      withRegion('320000,320100,320115', 3),
      withRegion('虎丘区', 4),
      withRegion('火星省/某市', 5),
    ]);
    const res = await uploadFile(producer, 14, '仓库.xlsx', file);
    expect(res.status).toBe(200);
    expect(await verdicts(res.body as Buffer)).toEqual([
      '成功',
      '成功',
      '成功',
      errorMessage('IMPORT_LABEL_AMBIGUOUS', { label: '所在地区', value: '虎丘区' }),
      errorMessage('IMPORT_LABEL_UNKNOWN', { label: '所在地区', value: '火星省/某市' }),
    ]);
    const stored = await sql<{ region: string; regionFmt: string }>`
      select region, "regionFmt" from lc_view_14 where name like '地区导入库%' order by name`.execute(server.ctx.db);
    expect(stored.rows.map((r) => [r.region, r.regionFmt])).toEqual([
      ['320000,320500,320505', '江苏省/苏州市/虎丘区'],
      ['320000,320400,320412', '江苏省/常州市/武进区'],
      ['320000,320100,320115', '江苏省/南京市/江宁区'],
    ]);
  });

  it('an import reads disposal processes by their names, and refuses one that is no top-level process', async () => {
    const disposer = await as('disposer');
    const [header = [], first = []] = await exported(disposer, 19);
    const top = await server.ctx.db
      .selectFrom('disposal_process')
      .select(['id', 'name'])
      .where('pid', 'is', null)
      .orderBy('id')
      .limit(2)
      .execute();
    const sub = await server.ctx.db
      .selectFrom('disposal_process')
      .select(['id', 'name'])
      .where('pid', 'is not', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const row = (processes: Cell, n: number) =>
      header.map((h, i) =>
        h === '处置方式'
          ? processes
          : h === '订单编号'
            ? `CZ20010303${String(n).padStart(4, '0')}`
            : h === '来源入库单'
              ? null
              : (first[i] ?? null),
      );
    const names = top.map((p) => p.name).join(',');
    const res = await uploadFile(
      disposer,
      19,
      '订单.xlsx',
      await workbook([header, row(names, 1), row('没有这种方式', 2), row(String(sub.id), 3)]),
    );
    expect(res.status).toBe(200);
    const told = await verdicts(res.body as Buffer);
    expect(told.slice(0, 2)).toEqual(['成功', errorMessage('IMPORT_LABEL_UNKNOWN', { label: '处置方式', value: '没有这种方式' })]);
    expect(told[2]).not.toBe('成功');
    const stored = await sql<{ processMethods: string }>`
      select "processMethods" from lc_view_19 where "orderNo" = 'CZ200103030001'`.execute(server.ctx.db);
    expect(stored.rows[0]?.processMethods).toBe(top.map((p) => p.id).join(','));
  });
});
