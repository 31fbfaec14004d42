import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shareSignature } from '../../server/lowcode/screen-share.js';
import { COMPANY } from '../../server/seed/ids.js';
import { formatDate } from '../../src/shared/format.js';
import { type ApiClient, type ApiResponse, startTestServer, type TestServer } from '../helpers/server.js';
import { sheetRows, uploadFile, workbook } from '../helpers/sheets.js';

/**
 * Attack 36: an outsider with the ordinary demo accounts (producer, disposer, logistics, collector,
 * supervisor) against big screens and data views, record filters of relation actions, import by name,
 * the audit trail and generated document numbers. Every probe asserts the SAFE behaviour: a failing
 * probe is a hole. Failing when written (2026-11-29):
 * - generated document numbers: one day series shared by every company (volume leak), a typed number
 *   may repeat another company's, and a typed …9999 pushes every company's next number off its pattern;
 * - /api/open/getGeneralScreen answers the template of a big screen switched off after it was shared.
 */

let server: TestServer;
const ACCOUNTS = ['producer', 'disposer', 'logistics', 'collector', 'supervisor'] as const;
const as = {} as Record<'admin' | (typeof ACCOUNTS)[number], ApiClient>;
const said = (r: ApiResponse) => JSON.stringify(Buffer.isBuffer(r.body) ? `<${r.body.length} bytes>` : r.body).slice(0, 300);
type Row = Record<string, any>;

beforeAll(async () => {
  server = await startTestServer();
  for (const u of ['admin', ...ACCOUNTS] as const) as[u] = await server.login(u);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** A stock-in the account may add, modelled on one of its own. */
async function stockInModel(client: ApiClient): Promise<Row> {
  const own = (await client.get('/api/general/list/12', { size: 1 })).body.content[0];
  const { id: _i, createTime: _c, updateTime: _u, createBy: _b, warehouseIdFmt: _w, stockNo: _s, ...model } = own;
  return model;
}
async function stockNoOf(client: ApiClient, id: number): Promise<string> {
  return (await client.get('/api/general/list/12', { id })).body.content[0].stockNo;
}
const serial = (no: string) => Number(no.slice(10));

describe('big screens and data views', () => {
  it('no ordinary account reads a big screen outside its menus, a disabled one, or an unknown id', async () => {
    for (const u of ACCOUNTS) {
      for (const id of [51, 52, 1, 999, 2147483647]) {
        const r = await as[u].get('/api/screen/detail', { id });
        expect([r.status, r.body.code], `${u} screen ${id}: ${said(r)}`).toEqual([403, 'SCREEN_FORBIDDEN']);
      }
      if (u !== 'supervisor') {
        const r = await as[u].get('/api/screen/detail', { id: 50 });
        expect(r.status, `${u} screen 50: ${said(r)}`).toBe(403);
      }
    }
  });

  it('no ordinary account runs a data view no big screen of its menus charts', async () => {
    for (const u of ACCOUNTS) {
      const open = u === 'supervisor' ? [2, 4, 5, 7, 8, 9] : [];
      for (const id of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 999]) {
        const r = await as[u].get('/api/data/detail', { id });
        if (open.includes(id)) expect(r.status, `${u} data ${id}`).toBe(200);
        else expect([r.status, r.body.code], `${u} data ${id}: ${said(r)}`).toEqual([403, 'DATA_VIEW_FORBIDDEN']);
      }
    }
  });

  it('forged, expired and revoked share links open nothing', async () => {
    const secret = server.ctx.secrets.shareSecret;
    const anon = server.api;
    const forged = { lsId: 50, accessKey: 'x'.repeat(32), timestamp: Date.now() + 3_600_000, signature: '0'.repeat(64) };
    for (const path of ['/api/open/getGeneralScreen', '/api/open/data', '/api/open/getCityInfo']) {
      const r = await anon.get(path, { ...forged, dataViewId: 9 });
      expect([r.status, r.body.code], `${path}: ${said(r)}`).toEqual([401, 'SHARE_INVALID']);
    }
    // Signed with the right secret but a key the screen does not hold: revoked.
    const wrongKey = { lsId: 50, accessKey: 'y'.repeat(32), timestamp: Date.now() + 3_600_000 };
    const r1 = await anon.get('/api/open/data', { ...wrongKey, signature: shareSignature(secret, wrongKey), dataViewId: 9 });
    expect(r1.status, said(r1)).toBe(403);
    // A real link, then expired and re-targeted.
    const made = await as.admin.post('/api/screen/share', { id: 50, expiresIn: 60 });
    expect(made.status, said(made)).toBe(200);
    const q = Object.fromEntries(new URL(made.body.url, 'http://x').searchParams);
    const expired = { lsId: 50, accessKey: q.accessKey as string, timestamp: Date.now() - 1000 };
    const r2 = await anon.get('/api/open/data', { ...expired, signature: shareSignature(secret, expired), dataViewId: 9 });
    expect([r2.status, r2.body.code], said(r2)).toEqual([401, 'SHARE_EXPIRED']);
    const r3 = await anon.get('/api/open/data', { ...q, lsId: 51, dataViewId: 9 });
    expect(r3.status, said(r3)).toBe(401);
    // A valid link answers only the data views its screen charts (3 and 6 are not charted by screen 50).
    for (const dataViewId of [3, 6, 1]) {
      const r = await anon.get('/api/open/data', { ...q, dataViewId });
      expect(r.status, `${dataViewId}: ${said(r)}`).toBe(403);
    }
  });
});

describe('share links of a screen that is switched off', () => {
  it('a share link of a disabled big screen no longer answers its template, as its data calls do not', async () => {
    const made = await as.admin.post('/api/screen/share', { id: 50, expiresIn: 3600 });
    expect(made.status, said(made)).toBe(200);
    const q = Object.fromEntries(new URL(made.body.url, 'http://x').searchParams);
    const detail = (await as.admin.get('/api/screen/detail', { id: 50 })).body;
    const off = await as.admin.post('/api/screen/update', { id: 50, name: detail.name, status: 0 });
    expect(off.status, said(off)).toBe(200);
    try {
      const data = await server.api.get('/api/open/data', { ...q, dataViewId: 9 });
      expect([data.status, data.body.code], said(data)).toEqual([403, 'SCREEN_NOT_ENABLED']);
      const screen = await server.api.get('/api/open/getGeneralScreen', q);
      expect(screen.status, `template of a disabled screen: ${said(screen)}`).toBe(403);
    } finally {
      await as.admin.post('/api/screen/update', { id: 50, name: detail.name, status: 1 });
    }
  });
});

describe('relation actions: lists opened for a record, and linked record calls', () => {
  it("another company's record ids filter to nothing, in any spelling", async () => {
    const all: Row[] = (await as.admin.get('/api/general/list/12', { size: 500 })).body.content;
    const mine = new Set<number>((await as.producer.get('/api/general/list/12', { size: 500 })).body.content.map((r: Row) => r.id));
    const others = all.filter((r) => !mine.has(r.id)).map((r) => r.id);
    const own = [...mine][0];
    for (const id of [others.join(','), [String(own), ...others.map(String)], `${others[0]},${own}`]) {
      const r = await as.producer.get('/api/general/list/12', { id });
      expect(r.status).toBe(200);
      expect(
        r.body.content.every((x: Row) => mine.has(x.id)),
        said(r),
      ).toBe(true);
    }
    for (const id of [`${others[0]} or 1=1`, `${others[0]}) or (1=1`, '-1', '1e3']) {
      const r = await as.producer.get('/api/general/list/12', { id });
      expect(r.status, said(r)).toBe(400);
    }
    for (const call of ['/api/general/formData', '/api/general/detail']) {
      const r = await as.producer.get(call, { generalId: 12, id: others[0] });
      expect(r.status, said(r)).toBe(404);
    }
  });
});

describe('import by name', () => {
  it("a producer cannot put a stock-in in another company's warehouse by name or by id", async () => {
    const before = (await as.admin.get('/api/general/list/12', { warehouseId: 3, size: 500 })).body.totalElements;
    const header = [
      '入库单号',
      '危废类别',
      '废物代码',
      '危废名称',
      '入库数量',
      '包装方式',
      '入库仓库',
      '入库时间',
      '经办人',
      '经办人电话',
      '备注',
    ];
    const row = (wh: string | number) => [
      '',
      'HW06 废有机溶剂与含有机溶剂废物',
      '900-402-06',
      '越权导入',
      1,
      '吨袋',
      wh,
      '2026-11-20 08:00:00',
      '攻击',
      '13800138000',
      '',
    ];
    const res = await uploadFile(as.producer, 12, 'import.xlsx', await workbook([header, row('甲类危废贮存库'), row(3), row('3')]));
    expect(res.status, said(res)).toBe(200);
    const verdicts = (await sheetRows(res.body as Buffer)).slice(1).map((r) => String(r.at(-1)));
    expect(verdicts.length).toBe(3);
    expect(res.headers.get('x-import-success')).toBe('0');
    const after = (await as.admin.get('/api/general/list/12', { warehouseId: 3, size: 500 })).body.totalElements;
    expect(after).toBe(before);
  });

  it("a disposer cannot name party A's warehouse of another company in an imported contract, by name or by id", async () => {
    const count = async () => (await as.admin.get('/api/general/list/16', { warehouseId: 9, size: 500 })).body.totalElements;
    const before = await count();
    const tpl = await sheetRows((await as.disposer.get('/api/general/16/template')).body as Buffer, 1);
    const [header, example] = tpl as [unknown[], unknown[]];
    const disposerName = (
      await server.ctx.db.selectFrom('company').select('name').where('id', '=', COMPANY.disposer).executeTakeFirstOrThrow()
    ).name;
    const partyB = header.findIndex((h) => String(h).includes('乙方'));
    const row = (no: string, wh: string | number) => {
      const r = [...example];
      r[0] = no;
      r[2] = '苏州华瑞精细化工有限公司';
      // A company imports a contract only as one of its parties: the disposer is its 乙方.
      r[partyB] = disposerName;
      r[4] = wh;
      r[11] = null;
      return r;
    };
    const res = await uploadFile(
      as.disposer,
      16,
      'import.xlsx',
      await workbook([header, row('HT2026-9901', 9), row('HT2026-9902', '二号危废暂存库（液态）'), row('HT2026-9903', '焚烧车间卸料区')]),
    );
    expect(res.status, said(res)).toBe(200);
    // The control row (the disposer's own warehouse) is written; the other two are refused.
    expect(res.headers.get('x-import-success'), JSON.stringify((await sheetRows(res.body as Buffer)).map((r) => r.at(-1)))).toBe('1');
    expect(await count()).toBe(before);
  });

  it('an exported cell the user typed as a formula is text, not a formula', async () => {
    const model = await stockInModel(as.producer);
    const added = await as.producer.post('/api/general/add/12', { ...model, wasteName: '=HYPERLINK("http://evil.example","点击")' });
    expect(added.status, said(added)).toBe(200);
    const res = await as.producer.get('/api/general/export/12/download', { id: added.body.id });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.body as unknown as ExcelJS.Buffer);
    const formulas: string[] = [];
    wb.worksheets[0]?.eachRow((r) => r.eachCell((c) => c.type === ExcelJS.ValueType.Formula && formulas.push(String(c.formula))));
    expect(formulas).toEqual([]);
  });
});

describe('audit trail', () => {
  it('an ordinary account reads only its own entries, whatever filter it sends', async () => {
    for (const u of ACCOUNTS) {
      const me = (await as[u].get('/api/auth/info')).body.user?.username ?? u;
      for (const q of [{}, { companyId: 2 }, { userId: 1 }, { username: 'admin' }, { table: 'sys_user' }, { recordId: '1' }]) {
        const r = await as[u].get('/api/logs/user', { size: 100, ...q });
        expect(r.status).toBe(200);
        expect(
          r.body.content.every((e: Row) => e.username === me),
          `${u} ${JSON.stringify(q)}: ${said(r)}`,
        ).toBe(true);
      }
      expect((await as[u].get('/api/logs', { companyId: 2 })).status).toBe(403);
    }
  });
});

describe('generated document numbers', () => {
  const today = formatDate(new Date(), 'YYYYMMDD');

  it("a company's own numbers do not count other companies' records", async () => {
    const pm = await stockInModel(as.producer);
    const cm = await stockInModel(as.collector);
    const p1 = await as.producer.post('/api/general/add/12', pm);
    const c1 = await as.collector.post('/api/general/add/12', cm);
    const c2 = await as.collector.post('/api/general/add/12', cm);
    const p2 = await as.producer.post('/api/general/add/12', pm);
    for (const r of [p1, c1, c2, p2]) expect(r.status, said(r)).toBe(200);
    const first = await stockNoOf(as.producer, p1.body.id);
    const second = await stockNoOf(as.producer, p2.body.id);
    // Safe: the producer's two numbers in a row are one apart; the collector's two adds between them do not show.
    expect(serial(second) - serial(first), `${first} then ${second}`).toBe(1);
  });

  it("a typed number cannot take another company's number", async () => {
    const cm = await stockInModel(as.collector);
    const c = await as.collector.post('/api/general/add/12', cm);
    const theirs = await stockNoOf(as.collector, c.body.id);
    const dup = await as.producer.post('/api/general/add/12', { ...(await stockInModel(as.producer)), stockNo: theirs });
    expect(dup.status, `${theirs}: ${said(dup)}`).not.toBe(200);
  });

  it("a typed number cannot push every company's next number off its pattern", async () => {
    const typed = await as.producer.post('/api/general/add/12', { ...(await stockInModel(as.producer)), stockNo: `RK${today}9999` });
    const c = await as.collector.post('/api/general/add/12', await stockInModel(as.collector));
    expect(c.status, said(c)).toBe(200);
    const no = await stockNoOf(as.collector, c.body.id);
    expect(no, `after the producer typed RK${today}9999 (${typed.status})`).toMatch(/^RK\d{12}$/);
  });
});
