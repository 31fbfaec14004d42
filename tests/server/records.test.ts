import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * What the server does with a record beyond the form's own schema: the table's limits, locked and
 * read-only fields, updates judged on the record as it will be, and the system columns declared as
 * fields.
 */
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
});
afterAll(async () => server?.close());

const field = (name: string, chName: string, dataType: string, configure: Record<string, unknown> = {}) => ({
  name,
  chName,
  dataType,
  configure,
});

async function designedView(componentName: string, template: Record<string, unknown>): Promise<number> {
  const add = await admin.post('/api/generation/add', { name: componentName, disMenu: { componentName, name: componentName } });
  const design = await admin.post('/api/generation/design', { id: add.body.id, disTemplate: template });
  expect(design.body).toEqual({ status: 200, message: '保存成功', version: 1 });
  return add.body.id;
}

async function columnsOf(viewId: number): Promise<string[]> {
  const res = await sql<{ name: string }>`
    select attname as name from pg_attribute
    where attrelid = to_regclass(${`lc_view_${viewId}`}) and attnum > 0 and not attisdropped order by attnum`.execute(server.ctx.db);
  return res.rows.map((r) => r.name);
}

describe('records are judged by the form, then by the table', () => {
  let id: number;
  const detail = async (recordId: number) => (await admin.get('/api/general/detail', { generalId: id, id: recordId })).body;

  beforeAll(async () => {
    id = await designedView('recordRules', {
      tableOption: [field('title', '名称', 'varchar')],
      formOption: [
        field('title', '名称', 'varchar', { required: true }),
        field('weight', '重量', 'decimal'),
        field('rate', '比率', 'decimal', { decimals: 2 }),
        field('site', '站点', 'long', { sportData: true, sportData_url: '/api/sites' }),
        field('kind', '类别', 'varchar', { dict: 'stockStatus' }),
        field('code', '编号', 'varchar', { editLock: true, pattern: '^[A-Z]+$' }),
        field('checked', '复核', 'varchar', { show: 3 }),
        field('secret', '内部', 'varchar', { show: 4 }),
        field('flag', '标记', 'varchar', { requiredRelation: { item: ['note'], value: '1' } }),
        field('note', '说明', 'varchar'),
      ],
    });
  });

  it('reads numbers as the form does (+5, .5, 5.) and counts the decimals of 1e-7', async () => {
    const add = await admin.post(`/api/general/add/${id}`, { title: 'a', weight: '+5', rate: '.5' });
    expect(add.body.status).toBe(200);
    expect(await detail(add.body.id)).toMatchObject({ weight: 5, rate: 0.5 });
    expect((await admin.post(`/api/general/add/${id}`, { title: 'b', weight: '5.' })).body.status).toBe(200);
    expect((await admin.post(`/api/general/add/${id}`, { title: 'c', rate: 1e-7 })).body).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      message: '比率最多保留2位小数',
    });
    // Without decimals of its own a decimal field holds what numeric(20,6) holds.
    expect((await admin.post(`/api/general/add/${id}`, { title: 'd', weight: 1e-7 })).body).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      message: '重量最多保留6位小数',
    });
  });

  it('refuses with every field’s first problem in form order, the table’s limits among them', async () => {
    const res = await admin.post(`/api/general/add/${id}`, {
      weight: 1e15,
      rate: 'abc',
      site: 'abc',
      kind: 'x'.repeat(256),
      code: 'abc',
      flag: '1',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      message: '请输入名称',
      errors: [
        { field: 'title', message: '请输入名称' },
        { field: 'weight', message: '重量超出范围' },
        { field: 'rate', message: '比率必须为数字' },
        { field: 'site', message: '站点必须为整数' },
        { field: 'kind', message: '类别长度不能超过255个字符' },
        { field: 'code', message: '编号格式不正确，应为大写字母' },
        { field: 'note', message: '请输入说明' },
      ],
    });
  });

  it('never writes read-only (show 3) or unsubmitted (show 4) fields from a request', async () => {
    const add = await admin.post(`/api/general/add/${id}`, { title: 'e', checked: '是', secret: '不存' });
    expect(add.body.status).toBe(200);
    expect(await detail(add.body.id)).toMatchObject({ title: 'e', checked: null, secret: null });
  });

  it('judges an update on the record as it will be: locked fields keep their value, stored values are not judged again', async () => {
    const add = await admin.post(`/api/general/add/${id}`, { title: 'f', code: 'ABC', kind: '1' });
    const recordId = add.body.id as number;
    await sql`update ${sql.table(`lc_view_${id}`)} set code = 'legacy-1' where id = ${recordId}`.execute(server.ctx.db);
    const update = await admin.post(`/api/general/update/${id}`, { id: recordId, title: 'f2', code: 'XYZ' });
    expect(update.body).toEqual({ status: 200, message: '操作成功' });
    expect(await detail(recordId)).toMatchObject({ title: 'f2', code: 'legacy-1', kind: '1' });
    // A trigger sent now makes a stored empty field required.
    expect((await admin.post(`/api/general/update/${id}`, { id: recordId, flag: '1' })).body).toMatchObject({
      status: 400,
      errors: [{ field: 'note', message: '请输入说明' }],
    });
    expect((await admin.post(`/api/general/update/${id}`, { id: recordId, title: null })).body).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      message: '请输入名称',
    });
    expect((await admin.post(`/api/general/update/${id}`, { id: recordId, kind: null })).body.status).toBe(200);
    expect(await detail(recordId)).toMatchObject({ title: 'f2', kind: null });
  });
});

describe('system columns declared as fields', () => {
  let id: number;

  beforeAll(async () => {
    id = await designedView('systemColumns', {
      basicOption: { sortName: 'createTime', sortType: 'desc' },
      tableOption: [
        field('id', '序号', 'long', { sortable: true, search: true }),
        field('title', '名称', 'varchar', { search: true }),
        field('createBy', '创建人', 'varchar', { sortable: true, search: true }),
        field('createTime', '创建时间', 'datetime', { sortable: true, search: true }),
        field('updateTime', '更新时间', 'datetime', { sortable: true }),
        field('createCompany', '所属企业', 'long', { search: true }),
      ],
      formOption: [field('title', '名称', 'varchar', { required: true }), field('createBy', '创建人', 'varchar')],
    });
  });

  it('adds no column for them and never writes them from a request', async () => {
    expect(await columnsOf(id)).toEqual([
      'id',
      'create_time',
      'update_time',
      'create_by',
      'create_user',
      'create_company',
      'create_dept',
      'title',
    ]);
    const add = await admin.post(`/api/general/add/${id}`, {
      title: '甲',
      createBy: 'intruder',
      createCompany: 3,
      create_company: 3,
      createTime: '2000-01-01 00:00:00',
      updateTime: '2000-01-01 00:00:00',
    });
    expect(add.body.status).toBe(200);
    expect(add.body.id).not.toBe(999_999);
    const row = (await admin.get('/api/general/detail', { generalId: id, id: add.body.id })).body;
    expect(row).toMatchObject({ id: add.body.id, title: '甲', createBy: 'admin', createCompany: null });
    expect(row.createTime.slice(0, 4)).not.toBe('2000');
    const upd = await admin.post(`/api/general/update/${id}`, { id: add.body.id, title: '甲2', createBy: 'intruder', createCompany: 3 });
    expect(upd.body.status).toBe(200);
    expect((await admin.get('/api/general/detail', { generalId: id, id: add.body.id })).body).toMatchObject({
      title: '甲2',
      createBy: 'admin',
      createCompany: null,
    });
  });

  it('lists, sorts and searches by them: equality for id and createBy, a range for the times', async () => {
    const ids: number[] = [];
    for (const title of ['乙', '丙', '丁']) ids.push((await admin.post(`/api/general/add/${id}`, { title })).body.id);
    const t = sql.table(`lc_view_${id}`);
    await sql`update ${t} set create_by = 'zed', create_time = '2026-01-10 08:00:00' where id = ${ids[0]}`.execute(server.ctx.db);
    await sql`update ${t} set create_time = '2026-01-12 09:00:00' where id = ${ids[1]}`.execute(server.ctx.db);
    await sql`update ${t} set create_time = '2026-01-15 10:00:00' where id = ${ids[2]}`.execute(server.ctx.db);
    const list = (query: Record<string, unknown>) => admin.get(`/api/general/list/${id}`, { size: 100, ...query });

    const all = (await list({})).body.content as { id: number; createTime: string }[];
    expect(all.map((r) => r.createTime)).toEqual(
      all
        .map((r) => r.createTime)
        .sort()
        .reverse(),
    ); // default sort createTime desc
    expect((await list({ sort: 'createBy,desc' })).body.content[0].createBy).toBe('zed');
    expect((await list({ sort: 'updateTime,asc' })).status).toBe(200);
    expect((await list({ createBy: 'zed' })).body.content.map((r: { id: number }) => r.id)).toEqual([ids[0]]);
    expect((await list({ createBy: 'ze' })).body.totalElements).toBe(0);
    const range = await list({ createTime: ['2026-01-11', '2026-01-15'], sort: 'id,asc' });
    expect(range.body.content.map((r: { id: number }) => r.id)).toEqual([ids[1], ids[2]]);
    const day = await list({ createTime: '2026-01-12' });
    expect(day.body.content.map((r: { id: number }) => r.id)).toEqual([ids[1]]);
    const window = await list({ startTime: '2026-01-10', endTime: '2026-01-12', sort: 'id,asc' });
    expect(window.body.content.map((r: { id: number }) => r.id)).toEqual([ids[0], ids[1]]);
    expect((await list({ id: ids[2] })).body.content.map((r: { id: number }) => r.id)).toEqual([ids[2]]);
  });
});
