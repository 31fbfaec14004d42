import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY } from '../../server/seed/ids.js';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { sheetRows, uploadFile, workbook } from '../helpers/sheets.js';
import { field } from '../helpers/wire-field.js';

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;
let supervisor: ApiClient;
let guest: ApiClient;
/** A view made for these tests, with every validation rule. */
let viewId: number;

const inspection = {
  basicOption: { sortName: 'id', sortType: 'desc' },
  tableOption: [
    field('title', '名称', 'varchar', { search: true }),
    field('score', '评分', 'long', { sortable: true }),
    field('level', '状态', 'varchar', { dict: 'stockStatus' }),
    field('checkDate', '检查日期', 'datetime', { timeFmt: 'yyyy-MM-dd' }),
  ],
  formOption: [
    field('title', '名称', 'varchar', { required: true }),
    field('score', '评分', 'long', { min: 1, max: 100 }),
    field('rate', '合格率', 'decimal', { decimals: 2, min: '0', max: '1' }),
    field('code', '编号', 'varchar', { pattern: '^XJ\\d{4}$', editLock: true }),
    field('phone', '手机', 'varchar', { validator: 'mobile' }),
    field('level', '状态', 'varchar', { dict: 'stockStatus', defaultValue: '0' }),
    field('checkDate', '检查日期', 'datetime', { timeFmt: 'yyyy-MM-dd' }),
    field('note', '备注', 'varchar', { textarea: true }),
    field('secret', '内部', 'varchar', { show: 4 }),
  ],
};

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
  producer = await server.login('producer');
  supervisor = await server.login('supervisor');
  guest = await server.login('guest');
  const add = await admin.post('/api/generation/add', {
    name: '巡检记录',
    disMenu: JSON.stringify({ componentName: 'inspection', name: '巡检记录' }),
  });
  viewId = add.body.id;
  const design = await admin.post('/api/generation/design', { id: viewId, disTemplate: JSON.stringify(inspection) });
  expect(design.status).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

type Row = Record<string, unknown> & { id: number };

/** The stock-ins the producer's company created: all of 危废入库 that its data scope (本企业) lists. */
async function ownStockIns(): Promise<number> {
  const r = await sql<{ n: number }>`select count(*)::int as n from lc_view_12 where create_company = ${COMPANY.producer}`.execute(
    server.ctx.db,
  );
  return r.rows[0]?.n ?? 0;
}

describe('list', () => {
  it('pages the seeded rows with the total, in the requested order', async () => {
    const own = await ownStockIns();
    expect(own).toBeGreaterThan(10);
    const first = await producer.get('/api/general/list/12', { page: 0, size: 5, sort: 'quantity,asc' });
    expect(first.status).toBe(200);
    expect(first.body.totalElements).toBe(own);
    expect(first.body.content).toHaveLength(5);
    const q = first.body.content.map((r: Row) => r.quantity as number);
    expect(q).toEqual([...q].sort((a, b) => a - b));
    expect(first.body.content[0]).toEqual(
      expect.objectContaining({
        id: expect.any(Number),
        createTime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        stockNo: expect.any(String),
      }),
    );
    const second = await producer.get('/api/general/list/12', { page: 1, size: 5, sort: 'quantity,asc' });
    expect((second.body.content[0] as Row).quantity as number).toBeGreaterThanOrEqual(q[4] as number);
    const beyond = await producer.get('/api/general/list/12', { page: 100, size: 5 });
    expect(beyond.body).toEqual({ content: [], totalElements: own });
    const byDefault = await producer.get('/api/general/list/12', { size: 60 });
    const times = byDefault.body.content.map((r: Row) => r.inTime as string);
    expect(times).toEqual([...times].sort().reverse()); // basicOption.sortName inTime desc
  });

  it('gives the same order page by page as in one page, whatever the page size', async () => {
    const all = (await admin.get('/api/general/list/12', { size: 1000, sort: 'quantity,desc' })).body.content.map((r: Row) => r.id);
    for (const size of [7, 25, 60]) {
      const ids: number[] = [];
      for (let page = 0; page * size < all.length; page++) {
        const res = await admin.get('/api/general/list/12', { page, size, sort: 'quantity,desc' });
        expect(res.body.totalElements).toBe(all.length);
        ids.push(...res.body.content.map((r: Row) => r.id));
      }
      expect(ids).toEqual(all);
    }
  });

  it('filters by dictionary value, by text (escaped), by several values and by the createTime range', async () => {
    const all = (await admin.get('/api/general/list/12', { size: 1000 })).body.content as Row[];
    const stocked = await admin.get('/api/general/list/12', { status: '1', size: 1000 });
    expect(stocked.body.totalElements).toBe(all.filter((r) => r.status === '1').length);
    expect(stocked.body.content.every((r: Row) => r.status === '1')).toBe(true);

    const text = await admin.get('/api/general/list/12', { wasteName: '废油', size: 1000 });
    expect(text.body.totalElements).toBe(all.filter((r) => String(r.wasteName).includes('废油')).length);
    expect(text.body.totalElements).toBeGreaterThan(0);
    expect((await admin.get('/api/general/list/12', { wasteName: '%' })).body.totalElements).toBe(0);

    const two = await admin.get('/api/general/list/12', { status: ['0', '2'], size: 1000 });
    expect(two.body.totalElements).toBe(all.filter((r) => r.status === '0' || r.status === '2').length);

    const days = [...new Set(all.map((r) => String(r.createTime).slice(0, 10)))].sort();
    const from = days[Math.floor(days.length / 3)] as string;
    const to = days[Math.floor((2 * days.length) / 3)] as string;
    const ranged = await admin.get('/api/general/list/12', { startTime: from, endTime: to, size: 1000 });
    const expected = all.filter((r) => String(r.createTime).slice(0, 10) >= from && String(r.createTime).slice(0, 10) <= to);
    expect(ranged.body.totalElements).toBe(expected.length);
    const exact = await admin.get('/api/general/list/12', { startTime: `${from} 00:00:00`, endTime: `${to} 23:59:59`, size: 1000 });
    expect(exact.body.totalElements).toBe(expected.length);
    expect((await admin.get('/api/general/list/12', { startTime: '昨天' })).body).toEqual(
      refusal(400, 'LIST_TIME_INVALID', { name: 'startTime' }),
    );
  });

  it('refuses query and sort fields outside the definition', async () => {
    expect((await admin.get('/api/general/list/12', { nope: '1' })).body).toEqual(
      refusal(400, 'LIST_FILTER_FIELD_NOT_FOUND', { field: 'nope' }),
    );
    expect((await admin.get('/api/general/list/12', { sort: 'password,asc' })).body).toEqual(
      refusal(400, 'LIST_SORT_FIELD_NOT_FOUND', { field: 'password' }),
    );
    expect((await admin.get('/api/general/list/12', { sort: 'quantity;drop table x' })).status).toBe(400);
    expect((await admin.get('/api/general/list/12', { sort: 'quantity,sideways' })).body).toEqual(
      refusal(400, 'LIST_SORT_DIRECTION_INVALID', { dir: 'sideways' }),
    );
    expect((await admin.get('/api/general/list/12', { sort: 'createTime,desc' })).status).toBe(200);
    expect((await admin.get('/api/general/list/12', { page: -1 })).status).toBe(400);
    expect((await admin.get('/api/general/list/4242')).status).toBe(404);
    expect((await admin.get('/api/general/list/21')).body).toEqual(refusal(400, 'VIEW_NOT_DESIGNED'));
  });

  it('follows the page permissions of the view', async () => {
    expect((await server.api.get('/api/general/list/12')).status).toBe(401);
    expect((await guest.get('/api/general/list/12')).status).toBe(403);
    expect((await producer.get('/api/general/list/17')).status).toBe(403); // vehicles: not a producer page
    expect((await supervisor.get('/api/general/list/16')).status).toBe(200); // contracts: read-only for the supervisor
    expect((await supervisor.post('/api/general/add/16', { contractNo: 'HT2026-9999' })).status).toBe(403);
    expect((await producer.post('/api/general/delete/16', [1])).status).toBe(403);
    expect((await producer.post(`/api/general/add/${viewId}`, { title: 'x' })).status).toBe(403);
  });
});

describe('add, update, delete', () => {
  it('validates against the definition and reports every problem', async () => {
    const res = await admin.post(`/api/general/add/${viewId}`, {
      score: 0,
      rate: 1.5,
      code: 'AB12',
      phone: '12345',
      checkDate: '2026-02-30',
      note: 'x'.repeat(1025),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', message: '请输入名称' });
    expect(res.body.errors).toEqual([
      { field: 'title', message: '请输入名称' },
      { field: 'score', message: '最小值不能小于 1' },
      { field: 'rate', message: '最大值不能大于 1' },
      { field: 'code', message: '编号格式不正确，应为XJ（4位数字）' },
      { field: 'phone', message: '手机号格式错误' },
      { field: 'checkDate', message: '检查日期格式应为 YYYY-MM-DD' },
      { field: 'note', message: '备注长度不能超过1024个字符' },
    ]);
    expect((await admin.post(`/api/general/add/${viewId}`, { title: 't', score: 101 })).body).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      message: '最大值不能大于 100',
    });
    expect((await admin.post(`/api/general/add/${viewId}`, { title: 't', score: 1.5 })).body).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      message: '评分必须为整数',
    });
    expect((await admin.post(`/api/general/add/${viewId}`, { title: 't', rate: 0.123 })).body).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      message: '合格率最多保留2位小数',
    });
    expect((await admin.post(`/api/general/add/${viewId}`, { title: 'y'.repeat(256) })).body).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      message: '名称长度不能超过255个字符',
    });
    expect((await admin.post(`/api/general/add/${viewId}`, [1, 2])).status).toBe(400);
    expect((await admin.get(`/api/general/list/${viewId}`)).body.totalElements).toBe(0);
  });

  it('adds a record (unknown and show-4 keys ignored), reads, updates and deletes it', async () => {
    const add = await admin.post(`/api/general/add/${viewId}`, {
      title: '一号库巡检',
      score: '95',
      rate: '0.98',
      code: 'XJ0001',
      checkDate: '2026-03-01',
      secret: '不存',
      hacker: 1,
    });
    expect(add.body).toEqual({ status: 200, message: '操作成功', id: expect.any(Number) });
    const id = add.body.id as number;
    const detail = await admin.get('/api/general/detail', { generalId: viewId, id });
    expect(detail.body).toMatchObject({
      id,
      title: '一号库巡检',
      score: 95,
      rate: 0.98,
      code: 'XJ0001',
      level: null, // defaults are the add form's (preAdd answers them); the server fills none
      checkDate: '2026-03-01',
      secret: null,
      createBy: 'admin',
    });
    expect(detail.body).not.toHaveProperty('hacker');

    const upd = await admin.post(`/api/general/update/${viewId}`, { id, title: '一号库复检', code: 'XJ9999', score: 80 });
    expect(upd.body).toEqual({ status: 200, message: '操作成功' });
    const after = (await admin.get('/api/general/detail', { generalId: viewId, id })).body;
    expect(after).toMatchObject({ title: '一号库复检', score: 80, code: 'XJ0001', rate: 0.98 }); // code is editLock
    expect((await admin.post(`/api/general/update/${viewId}`, { id, title: '' })).body).toMatchObject({
      status: 400,
      message: '请输入名称',
    });
    expect((await admin.post(`/api/general/update/${viewId}`, { id: 999999, title: 'x' })).status).toBe(404);
    expect((await admin.post(`/api/general/update/${viewId}`, { title: 'x' })).body).toEqual(refusal(400, 'ID_REQUIRED'));

    expect((await admin.post(`/api/general/delete/${viewId}`, [id])).body).toEqual({ status: 200, message: '操作成功' });
    expect((await admin.get('/api/general/detail', { generalId: viewId, id })).status).toBe(404);
  });

  it("the add call, a form's one submit URL, changes the record its body's id names: no copy, the same rules", async () => {
    const sample = (await admin.get('/api/general/list/20', { page: 0, size: 1 })).body.content[0];
    const { id: _i, createTime: _c, updateTime: _u, createBy: _b, ...rest } = sample;
    const total = async () => (await admin.get('/api/general/list/20', { size: 1 })).body.totalElements as number;
    const first = (await admin.post('/api/general/add/20', { ...rest, waybillNo: 'WL209901010001', permitNo: 'XK-1' })).body.id;
    await admin.post('/api/general/add/20', { ...rest, waybillNo: 'WL209901010002' });
    const before = await total();
    // Its own number kept: the record changes, and no second record appears.
    const same = await admin.post('/api/general/add/20', { ...rest, id: first, waybillNo: 'WL209901010001', toAddress: '改过的地址' });
    expect(same.body).toEqual({ status: 200, message: '操作成功', id: first });
    expect(await total()).toBe(before);
    expect((await admin.get('/api/general/detail', { generalId: 20, id: first })).body).toMatchObject({ toAddress: '改过的地址' });
    // No record by that id: nothing changed, nothing added.
    expect((await admin.post('/api/general/add/20', { ...rest, id: 999_999 })).status).toBe(404);
    expect(await total()).toBe(before);
    // A generated number is locked once given: a change keeps it, whatever the body says.
    for (const path of ['/api/general/add/20', '/api/general/update/20']) {
      expect((await admin.post(path, { ...rest, id: first, waybillNo: 'WL209901010002' })).body.status, path).toBe(200);
      expect((await admin.get('/api/general/detail', { generalId: 20, id: first })).body.waybillNo, path).toBe('WL209901010001');
    }
    // Another company's record by id is not the producer's to change, nor copied into a new one.
    const mine = (await producer.get('/api/general/list/12', { size: 500 })).body;
    const own = new Set(mine.content.map((r: { id: number }) => r.id));
    const foreign = (await admin.get('/api/general/list/12', { size: 500 })).body.content.find((r: { id: number }) => !own.has(r.id));
    expect(foreign).toBeDefined();
    const res = await producer.post('/api/general/add/12', { ...foreign, id: foreign.id, remark: '他人的' });
    expect(res.status).toBe(404);
    expect((await producer.get('/api/general/list/12', { size: 1 })).body.totalElements).toBe(mine.totalElements);
    expect((await admin.get('/api/general/detail', { generalId: 12, id: foreign.id })).body.remark).not.toBe('他人的');
    // Without the edit permission, a body with an id changes nothing.
    expect((await supervisor.post('/api/general/add/16', { id: 1, contractNo: 'HT2026-9999' })).status).toBe(403);
  });

  it('deletes by id list in any of the accepted shapes', async () => {
    const ids: number[] = [];
    for (const t of ['甲', '乙', '丙', '丁']) ids.push((await admin.post(`/api/general/add/${viewId}`, { title: t })).body.id);
    await admin.post(`/api/general/delete/${viewId}`, { ids: [ids[0]] });
    await admin.post(`/api/general/delete/${viewId}`, `${ids[1]},${ids[2]}`);
    await admin.post(`/api/general/delete/${viewId}`, undefined, { id: ids[3] });
    expect((await admin.get(`/api/general/list/${viewId}`)).body.totalElements).toBe(0);
    expect((await admin.post(`/api/general/delete/${viewId}`, { ids: ['x'] })).status).toBe(400);
  });

  it('never serves a stale list after a write (list cache)', async () => {
    const before = await producer.get('/api/general/list/12', { status: '0', size: 100 });
    await producer.get('/api/general/list/12', { status: '0', size: 100 }); // now cached
    const add = await producer.post('/api/general/add/12', {
      stockNo: 'RK209912310001',
      wasteCategory: 'HW08',
      wasteCode: '900-249-08',
      wasteName: '缓存测试废矿物油',
      quantity: '1.250',
      packageType: '2',
      warehouseId: 1,
      inTime: '2026-11-01 10:00:00',
      handler: '测试员',
      status: '0',
    });
    expect(add.status).toBe(200);
    const afterAdd = await producer.get('/api/general/list/12', { status: '0', size: 100 });
    expect(afterAdd.body.totalElements).toBe(before.body.totalElements + 1);
    expect(afterAdd.body.content.some((r: Row) => r.id === add.body.id)).toBe(true);

    await producer.post('/api/general/update/12', { id: add.body.id, quantity: 2 });
    const afterUpdate = await producer.get('/api/general/list/12', { status: '0', size: 100 });
    expect(afterUpdate.body.content.find((r: Row) => r.id === add.body.id).quantity).toBe(2);

    await producer.post('/api/general/delete/12', [add.body.id]);
    expect((await producer.get('/api/general/list/12', { status: '0', size: 100 })).body.totalElements).toBe(before.body.totalElements);
  });
});

describe('linked options, scripted actions and initial values', () => {
  it('answers options from a view for linked selects', async () => {
    const all = await producer.get('/api/general/allList/12/queryLink', {});
    expect(all.status).toBe(200);
    expect(all.body.length).toBe(await ownStockIns());
    expect(all.body[0]).toEqual({ label: expect.stringMatching(/^RK\d{12}$/), value: expect.any(Number) });
    const text = await producer.get('/api/general/allList/12/queryLink', { queryParam: 'RK2099' });
    expect(text.body).toEqual([]);
    const json = await producer.get('/api/general/allList/12/queryLink', { queryParam: JSON.stringify({ status: '1' }) });
    const stocked = await producer.get('/api/general/list/12', { status: '1', size: 1 });
    expect(json.body).toHaveLength(stocked.body.totalElements);
    expect((await producer.get('/api/general/allList/12/queryLink', { queryParam: '{"nope":1}' })).status).toBe(400);
    expect((await server.api.get('/api/general/allList/12/queryLink')).status).toBe(401);
  });

  it('runs the named actions of groovy buttons, with their roles', async () => {
    const pending = (await producer.get('/api/general/list/12', { status: '0', size: 2 })).body.content as Row[];
    const ids = pending.map((r) => r.id);
    expect(ids.length).toBe(2);
    expect((await supervisor.post('/api/general/groovy/12', { groovyQueryParam: 'confirmStock', ids })).status).toBe(403);
    const pendingBefore = (await producer.get('/api/general/list/12', { status: '0' })).body.totalElements;
    const res = await producer.post('/api/general/groovy/12', { groovyQueryParam: 'confirmStock', ids });
    expect(res.body).toEqual({ status: 200, message: '操作成功', count: 2 });
    expect((await producer.get('/api/general/list/12', { status: '0' })).body.totalElements).toBe(pendingBefore - 2);
    for (const id of ids) expect((await admin.get('/api/general/detail', { generalId: 12, id })).body.status).toBe('1');

    const order = await producer.post('/api/general/groovy/12', { groovyQueryParam: { name: 'genOrder' }, ids: String(ids[0]) });
    expect(order.body.location).toBe(`/dev-tools/temp/page/disposalOrder/19?stockId=${ids[0]}`);
    expect((await admin.post('/api/general/groovy/12', { groovyQueryParam: 'rm -rf', ids })).body).toEqual(
      refusal(400, 'SCRIPT_ACTION_UNKNOWN'),
    );
    expect((await admin.post('/api/general/groovy/12', { groovyQueryParam: 'confirmStock', ids: [] })).body).toEqual(
      refusal(400, 'NOTHING_SELECTED'),
    );
  });

  it('lets only the administrator run a scripted button that names no role', async () => {
    const detail = await admin.get('/api/generation/detail', { id: 12 });
    const template = JSON.parse(detail.body.disTemplate);
    const original = JSON.stringify(template);
    const confirm = template.btnDIYOption.find((b: { name: string }) => b.name === 'confirmStock');
    confirm.configure = { ...confirm.configure, root: [], rootDIY: [] };
    expect((await admin.post('/api/generation/design', { id: 12, disTemplate: JSON.stringify(template) })).status).toBe(200);
    try {
      const ids = ((await producer.get('/api/general/list/12', { status: '0', size: 1 })).body.content as Row[]).map((r) => r.id);
      expect(ids).toHaveLength(1);
      // The producer may list and edit the view, which no longer lets it run the button.
      const refused = await producer.post('/api/general/groovy/12', { groovyQueryParam: 'confirmStock', ids });
      expect(refused.status).toBe(403);
      expect((await admin.get('/api/general/detail', { generalId: 12, id: ids[0] })).body.status).toBe('0');
      expect((await admin.post('/api/general/groovy/12', { groovyQueryParam: 'confirmStock', ids })).body).toMatchObject({ status: 200 });
    } finally {
      expect((await admin.post('/api/generation/design', { id: 12, disTemplate: original })).status).toBe(200);
    }
  });

  it('answers the initial values of the add form', async () => {
    expect((await producer.post('/api/general/preAdd/12', {})).body).toEqual({ status: 200, data: { packageType: '1', status: '0' } });
    expect((await producer.post('/api/general/preAdd/17', {})).status).toBe(403);
  });
});

describe('import, template and export', () => {
  it('imports the valid rows in one go and returns a verdict per row', async () => {
    const data = await workbook([
      ['名称', '评分', '编号', '状态', '检查日期', '不认识的列'],
      ['二号库巡检', 88, 'XJ0002', '已入库', new Date(Date.UTC(2026, 2, 5)), 'x'],
      ['', 120, 'bad', '', '', ''],
      ['三号库巡检', '70', 'XJ0003', '0', '2026-03-06', ''],
    ]);
    const res = await uploadFile(admin, `/api/general/${viewId}/import`, '巡检.xlsx', data);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(res.headers.get('x-import-success')).toBe('2');
    const rows = await sheetRows(res.body as Buffer);
    expect(rows[0]?.at(-1)).toBe('导入结果');
    expect(rows.map((r) => r.at(-1))).toEqual([
      '导入结果',
      '成功',
      '请输入名称；最大值不能大于 100；编号格式不正确，应为XJ（4位数字）',
      '成功',
    ]);
    const list = await admin.get(`/api/general/list/${viewId}`, { sort: 'code,asc' });
    expect(list.body.content.map((r: Row) => [r.title, r.level, r.checkDate])).toEqual([
      ['二号库巡检', '1', '2026-03-05'],
      ['三号库巡检', '0', '2026-03-06'],
    ]);
  });

  it('refuses files that are not spreadsheets, and empty sheets', async () => {
    const path = `/api/general/${viewId}/import`;
    expect((await uploadFile(admin, path, 'notes.txt', Buffer.from('hello'))).body).toEqual({
      status: 400,
      code: 'IMPORT_TYPE_NOT_ALLOWED',
      message: '允许上传 xls、xlsx',
    });
    expect((await uploadFile(admin, path, 'fake.xlsx', Buffer.from('not a zip at all'))).body).toEqual(refusal(400, 'IMPORT_NOT_XLSX'));
    expect((await uploadFile(admin, path, 'old.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))).body).toEqual(
      refusal(400, 'IMPORT_XLS_UNREADABLE'),
    );
    expect((await uploadFile(admin, path, 'empty.xlsx', await workbook([['名称', '评分']]))).body).toEqual(refusal(400, 'IMPORT_EMPTY'));
    expect((await uploadFile(producer, path, 'a.xlsx', await workbook([['名称'], ['x']]))).status).toBe(403);
  });

  it('downloads an import template with the form headers', async () => {
    const res = await admin.get(`/api/general/${viewId}/template`);
    expect(res.status).toBe(200);
    expect(decodeURIComponent(res.headers.get('content-disposition') ?? '')).toContain('巡检记录导入模板.xlsx');
    expect(await sheetRows(res.body as Buffer)).toEqual([['名称', '评分', '合格率', '编号', '手机', '状态', '检查日期', '备注']]);
    const viaQuery = await server.api.get(`/api/general/${viewId}/template`, { token: admin.token });
    expect(viaQuery.status).toBe(200);
  });

  it('exports the filtered rows with dictionary labels, also under dialogOption.export', async () => {
    const res = await producer.get('/api/general/export/12/download', { status: '1' });
    expect(res.status).toBe(200);
    const rows = await sheetRows(res.body as Buffer);
    const header = rows[0] as string[];
    expect(header.slice(0, 4)).toEqual(['入库单号', '危废类别', '废物代码', '危废名称']);
    const total = (await producer.get('/api/general/list/12', { status: '1', size: 1 })).body.totalElements;
    expect(rows).toHaveLength(total + 1);
    const status = header.indexOf('状态');
    expect(rows.slice(1).every((r) => r[status] === '已入库')).toBe(true);
    const category = header.indexOf('危废类别');
    expect(String(rows[1]?.[category])).toMatch(/^HW\d\d /);

    const picked = await admin.get('/api/general/12/download', { id: '1,2', fields: 'stockNo,quantity', headers: '单号,吨数' });
    expect(await sheetRows(picked.body as Buffer)).toEqual([['单号', '吨数'], expect.any(Array), expect.any(Array)]);
    expect((await admin.get('/api/general/12/download', { fields: 'password' })).body).toEqual(
      refusal(400, 'EXPORT_FIELD_NOT_FOUND', { field: 'password' }),
    );
    expect((await producer.get('/api/general/17/download')).status).toBe(403);
  });
});
