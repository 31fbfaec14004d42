import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { field } from '../helpers/wire-field.js';

// A view over contracts declares the specification's beginTime and endTime: the list call's endTime
// then filters that field, and startTime (not declared) stays the createTime range's start.

let server: TestServer;
let admin: ApiClient;
let viewId: number;

type Row = Record<string, unknown>;

const contracts = {
  basicOption: { sortName: 'endTime', sortType: 'asc' },
  tableOption: [
    field('contractNo', '合同编号', 'varchar', { search: true, show: true }),
    field('beginTime', '开始时间', 'datetime', { timeFmt: 'yyyy-MM-dd', show: true, sortable: true }),
    field('endTime', '结束时间', 'datetime', { timeFmt: 'yyyy-MM-dd', show: true, sortable: true, search: true }),
  ],
  formOption: [
    field('contractNo', '合同编号', 'varchar', { required: true }),
    field('beginTime', '开始时间', 'datetime', { timeFmt: 'yyyy-MM-dd', required: true }),
    field('endTime', '结束时间', 'datetime', { timeFmt: 'yyyy-MM-dd', required: true }),
  ],
};

const rows = [
  { contractNo: 'HT-A', beginTime: '2026-01-01', endTime: '2026-06-30' },
  { contractNo: 'HT-B', beginTime: '2026-02-01', endTime: '2026-12-31' },
  { contractNo: 'HT-C', beginTime: '2026-03-01', endTime: '2026-09-30' },
];

const list = async (query: Record<string, unknown>) => {
  const res = await admin.get(`/api/general/list/${viewId}`, { size: 100, ...query });
  expect(res.status).toBe(200);
  return (res.body.content as Row[]).map((r) => r.contractNo);
};

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
  const add = await admin.post('/api/generation/add', {
    name: '有效合同',
    disMenu: JSON.stringify({ componentName: 'effectiveContract', name: '有效合同' }),
  });
  viewId = add.body.id as number;
  const design = await admin.post('/api/generation/design', { id: viewId, disTemplate: JSON.stringify(contracts) });
  expect(design.body).toMatchObject({ status: 200 });
  for (const r of rows) expect((await admin.post(`/api/general/add/${viewId}`, r)).body).toMatchObject({ status: 200 });
});
afterAll(async () => server?.close());

describe('a contract view with endTime', () => {
  it('lists the records sorted by its default sort, endTime ascending, and by endTime on request', async () => {
    expect(await list({})).toEqual(['HT-A', 'HT-C', 'HT-B']);
    expect(await list({ sort: 'endTime,desc' })).toEqual(['HT-B', 'HT-C', 'HT-A']);
    expect(await list({ sort: 'beginTime,desc' })).toEqual(['HT-C', 'HT-B', 'HT-A']);
  });

  it('reads endTime as a filter of the field: one date is that day, two dates a range', async () => {
    expect(await list({ endTime: '2026-09-30' })).toEqual(['HT-C']);
    expect(await list({ endTime: ['2026-06-01', '2026-10-01'] })).toEqual(['HT-A', 'HT-C']);
    expect(await list({ endTime: '2026-09-30', contractNo: 'HT-C' })).toEqual(['HT-C']);
    expect(await list({ endTime: '2026-01-01' })).toEqual([]);
    expect((await admin.get(`/api/general/list/${viewId}`, { endTime: '不是日期' })).body).toEqual(
      refusal(400, 'LIST_FILTER_INVALID', { field: 'endTime' }),
    );
  });

  it('keeps startTime, which the view does not declare, as the createTime range start', async () => {
    expect(await list({ startTime: '2000-01-01' })).toHaveLength(3);
    expect(await list({ startTime: '2999-01-01' })).toEqual([]);
  });

  it('reads and edits the record with its endTime', async () => {
    const [a] = (await admin.get(`/api/general/list/${viewId}`, { contractNo: 'HT-A' })).body.content as Row[];
    const id = a?.id as number;
    expect(a).toMatchObject({ beginTime: '2026-01-01', endTime: '2026-06-30' });
    const form = await admin.get('/api/general/formData', { generalId: viewId, id });
    expect(form.body.data).toMatchObject({ contractNo: 'HT-A', endTime: '2026-06-30' });
    const upd = await admin.post(`/api/general/update/${viewId}`, { id, endTime: '2027-01-31' });
    expect(upd.body).toMatchObject({ status: 200 });
    expect((await admin.get('/api/general/detail', { generalId: viewId, id })).body).toMatchObject({ endTime: '2027-01-31' });
    expect(await list({ endTime: '2027-01-31' })).toEqual(['HT-A']);
    expect((await admin.post(`/api/general/update/${viewId}`, { id, endTime: '' })).body).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      message: '请选择结束时间',
    });
  });

  it('exports the rows its endTime filter selects', async () => {
    const res = await admin.get(`/api/general/${viewId}/download`, { endTime: '2026-12-31', fields: 'contractNo,endTime' });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.body as unknown as ExcelJS.Buffer);
    const cells: unknown[][] = [];
    wb.worksheets[0]?.eachRow((row) => {
      cells.push((row.values as unknown[]).slice(1));
    });
    expect(cells).toEqual([
      ['合同编号', '结束时间'],
      ['HT-B', '2026-12-31'],
    ]);
  });

  it('still refuses a field that differs from endTime only in case', async () => {
    const bad = { ...contracts, tableOption: [...contracts.tableOption, field('EndTime', '结束', 'datetime')] };
    const res = await admin.post('/api/generation/design', { id: viewId, disTemplate: JSON.stringify(bad) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('DEFINITION_INVALID');
    expect(res.body.message).toContain('/disTemplate/tableOption/3/name');
  });
});
