import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM_MESSAGES } from '../../src/shared/error-catalogue.js';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { field } from '../helpers/wire-field.js';

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
  producer = await server.login('producer');
});
afterAll(async () => {
  await server?.close();
});

/** Live columns of a view's table: name → format_type. */
async function columnsOf(viewId: number): Promise<Record<string, string>> {
  const res = await sql<{ name: string; type: string }>`
    select attname as name, format_type(atttypid, atttypmod) as type from pg_attribute
    where attrelid = to_regclass(${`lc_view_${viewId}`}) and attnum > 0 and not attisdropped`.execute(server.ctx.db);
  return Object.fromEntries(res.rows.map((r) => [r.name, r.type]));
}

async function newView(name: string, componentName = 'testView'): Promise<number> {
  const res = await admin.post('/api/generation/add', { name, menuId: null, disMenu: JSON.stringify({ componentName, name }) });
  expect(res.status).toBe(200);
  return res.body.id;
}

describe('view definitions (/api/generation)', () => {
  it('needs a session and the generation permissions', async () => {
    expect((await server.api.get('/api/generation/list')).status).toBe(401);
    expect((await producer.get('/api/generation/list')).status).toBe(403);
    const add = await producer.post('/api/generation/add', { name: '越权新增' });
    expect(add.status).toBe(403);
    expect(add.body).toEqual({ status: 403, code: 'NO_PERMISSION', message: expect.any(String) });
    expect((await producer.post('/api/generation/design', { id: 12, disTemplate: '{}' })).status).toBe(403);
  });

  it('lists the seeded views with their JSON text, filtered and paged', async () => {
    const res = await admin.get('/api/generation/list', { page: 0, size: 9999 });
    expect(res.status).toBe(200);
    expect(res.body.totalElements).toBe(10);
    const stockIn = res.body.content.find((v: { id: number }) => v.id === 12);
    expect(stockIn).toMatchObject({ name: '危废入库', menuId: 1012, status: 1 });
    expect(JSON.parse(stockIn.disMenu)).toEqual({ componentName: 'stockIn', name: '危废入库' });
    expect(typeof stockIn.disTemplate).toBe('string');
    expect(JSON.parse(stockIn.disTemplate).tableOption.length).toBeGreaterThan(5);
    expect(stockIn.createTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const pending = res.body.content.find((v: { id: number }) => v.id === 21);
    expect(pending).toMatchObject({ name: '待设计视图', disTemplate: null, status: 0 });
    expect(res.body.content.filter((v: { status: number }) => v.status === 0).map((v: { id: number }) => v.id)).toEqual([21, 20]);

    const named = await admin.get('/api/generation/list', { name: '入库', page: 0, size: 10 });
    expect(named.body.content.map((v: { name: string }) => v.name)).toEqual(['危废入库']);
    const paged = await admin.get('/api/generation/list', { page: 1, size: 3 });
    expect(paged.body.content).toHaveLength(3);
    expect(paged.body.totalElements).toBe(10);
  });

  it('seeds definitions that together use every field kind, show value, relation and button action', async () => {
    const res = await admin.get('/api/generation/list', { page: 0, size: 9999 });
    type Item = { name: string; dataType: string; configure: Record<string, unknown> };
    const templates = res.body.content
      .filter((v: { disTemplate: string | null }) => v.disTemplate)
      .map((v: { disTemplate: string }) => JSON.parse(v.disTemplate));
    expect(templates).toHaveLength(9);
    const items = (o: unknown): Item[] => (Array.isArray(o) ? o : ((o as { items?: Item[] } | undefined)?.items ?? []));
    const forms: Item[] = templates.flatMap((t: Record<string, unknown>) => items(t.formOption ?? t.tableOption));
    const fields: Item[] = [...templates.flatMap((t: Record<string, unknown>) => items(t.tableOption)), ...forms];
    const buttons: Item[] = templates.flatMap((t: Record<string, unknown>) => items(t.btnDIYOption));
    const values = (list: Item[], key: string) => [
      ...new Set(
        list
          .map((f) => f.configure[key])
          .filter((v) => v !== undefined)
          .map(String),
      ),
    ];
    const some = (list: Item[], test: (c: Record<string, unknown>) => unknown) => list.some((f) => test(f.configure));

    expect([...new Set(fields.map((f) => f.dataType))].sort()).toEqual(['datetime', 'decimal', 'long', 'varchar']);
    expect(values(forms, 'show')).toEqual(expect.arrayContaining(['1', '2', '3', '4']));
    expect(values(fields, 'timeFmt')).toEqual(expect.arrayContaining(['yyyy-MM-dd', 'yyyy-MM-dd hh:mm:ss']));
    expect(values(fields, 'file')).toEqual(expect.arrayContaining(['image', 'file']));
    expect(values(fields, 'sportData_type')).toEqual(expect.arrayContaining(['list', 'tree']));
    expect(values(forms, 'validator')).toEqual(expect.arrayContaining(['mobile', 'phone', 'email', 'idCard', 'landline']));
    for (const key of ['dict', 'pattern', 'min', 'max', 'decimals', 'defaultValue', 'tips', 'disabled', 'editLock', 'inputWidth', 'rows']) {
      expect(
        some(forms, (c) => c[key] !== undefined),
        key,
      ).toBe(true);
    }
    for (const key of ['search', 'tags', 'money', 'unit', 'overflow', 'sortable', 'align', 'width']) {
      expect(
        some(fields, (c) => c[key] !== undefined),
        key,
      ).toBe(true);
    }
    expect(
      some(fields, (c) => c.city === true) &&
        some(fields, (c) => c.editor === true) &&
        some(fields, (c) => c.sportData_list_multiple === true),
    ).toBe(true);
    expect(some(fields, (c) => c.fileType && c.fileSize)).toBe(true);
    const params = fields.flatMap((f) => (f.configure.sportData_params as { type: number }[] | undefined) ?? []);
    expect([...new Set(params.map((p) => p.type))].sort()).toEqual([1, 2]);
    for (const rel of ['showRelation', 'requiredRelation']) {
      const targets = forms.map((f) => (f.configure[rel] as { item: unknown } | undefined)?.item).filter(Boolean);
      expect(targets.some(Array.isArray) && targets.some((i) => typeof i === 'string'), rel).toBe(true);
    }
    const dividers = templates.flatMap((t: { formDividerOption?: { position: unknown }[] }) => t.formDividerOption ?? []);
    expect(new Set(dividers.map((d: { position: unknown }) => typeof d.position))).toEqual(new Set(['string', 'number']));
    expect(values(buttons, 'action').sort()).toEqual(['dialog', 'groovy', 'submit', 'system', 'view', 'website']);
    expect(values(buttons, 'submitType').sort()).toEqual(['download', 'get', 'post']);
    expect(some(buttons, (c) => c.action === 'view' && c.foreignKey)).toBe(true);
    expect(some(buttons, (c) => c.root) && some(buttons, (c) => c.rootDIY) && some(buttons, (c) => c.showRelation_item)).toBe(true);
    expect(some(buttons, (c) => c.confirm) && some(buttons, (c) => c.multiple)).toBe(true);
    // The lenient wire forms a real server sends appear too.
    expect(some(fields, (c) => c.required === '1' || c.search === 'true')).toBe(true);
    expect(templates.some((t: { tableOption: unknown }) => !Array.isArray(t.tableOption))).toBe(true);
  });

  it('lets a page read its own definition with the page permission only', async () => {
    expect((await producer.get('/api/generation/detail', { id: 12 })).status).toBe(200);
    expect((await producer.get('/api/generation/detail', { id: 17 })).status).toBe(403); // 车辆信息 is not theirs
    expect((await (await server.login('guest')).get('/api/generation/detail', { id: 12 })).status).toBe(403);
    expect((await server.api.get('/api/generation/detail', { id: 12 })).status).toBe(401);
    expect((await admin.get('/api/generation/detail', { id: 9999 })).body).toEqual(refusal(404, 'VIEW_NOT_FOUND'));
  });

  it('adds, designs (creating a real table) and re-designs without losing rows', async () => {
    const id = await newView('测试设备台账', 'equipment');
    const detail = await admin.get('/api/generation/detail', { id });
    expect(detail.body).toMatchObject({ id, name: '测试设备台账', status: 0, disTemplate: null });
    expect((await admin.get(`/api/general/list/${id}`)).body).toEqual(refusal(400, 'VIEW_NOT_DESIGNED'));

    const v1 = {
      tableOption: [
        field('code', '设备编号', 'varchar', { search: true }),
        field('weight', '重量', 'decimal', { sortable: true }),
        field('bought', '购置日期', 'datetime'),
        field('count', '数量', 'long'),
      ],
      formOption: [
        field('code', '设备编号', 'varchar', { required: true }),
        field('weight', '重量', 'decimal'),
        field('count', '数量', 'long'),
        field('manual', '说明书', 'varchar', { file: 'file' }),
      ],
    };
    const design = await admin.post('/api/generation/design', { id, disTemplate: JSON.stringify(v1) });
    expect(design.body).toEqual({ status: 200, message: '保存成功', version: 1 });
    expect(await columnsOf(id)).toEqual({
      id: 'bigint',
      create_time: 'timestamp without time zone',
      update_time: 'timestamp without time zone',
      create_by: 'character varying(100)',
      create_user: 'bigint',
      create_company: 'bigint',
      create_dept: 'bigint',
      code: 'character varying(255)',
      weight: 'numeric(20,6)',
      bought: 'timestamp without time zone',
      count: 'bigint',
      manual: 'text',
    });
    const saved = await admin.get('/api/generation/detail', { id });
    expect(saved.body.disTemplate).toBe(JSON.stringify(v1));

    const add = await admin.post(`/api/general/add/${id}`, { code: 'EQ-001', weight: 1.5, count: 2 });
    expect(add.status).toBe(200);

    const v2 = { ...v1, formOption: [...v1.formOption, field('owner', '责任人', 'varchar', { textarea: true })] };
    expect((await admin.post('/api/generation/design', { id, disTemplate: v2 })).status).toBe(200);
    const cols = await columnsOf(id);
    expect(cols.owner).toBe('text');
    const list = await admin.get(`/api/general/list/${id}`);
    expect(list.body.totalElements).toBe(1);
    expect(list.body.content[0]).toMatchObject({ code: 'EQ-001', weight: 1.5, count: 2, owner: null });
  });

  it('retypes a column with a cast, and refuses a cast that fails without changing anything', async () => {
    const id = await newView('类型变更', 'retype');
    const v1 = { tableOption: [field('amount', '金额', 'varchar'), field('note', '备注', 'varchar')] };
    await admin.post('/api/generation/design', { id, disTemplate: JSON.stringify(v1) });
    await admin.post(`/api/general/add/${id}`, { amount: '12', note: '十二' });

    const toLong = { tableOption: [field('amount', '金额', 'long'), field('note', '备注', 'varchar')] };
    expect((await admin.post('/api/generation/design', { id, disTemplate: JSON.stringify(toLong) })).status).toBe(200);
    expect((await columnsOf(id)).amount).toBe('bigint');
    expect((await admin.get(`/api/general/list/${id}`)).body.content[0].amount).toBe(12);

    const bad = { tableOption: [field('amount', '金额', 'long'), field('note', '备注', 'datetime')] };
    const res = await admin.post('/api/generation/design', { id, disTemplate: JSON.stringify(bad) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refusal(400, 'FIELD_TYPE_CHANGE_FAILED', { field: 'note' }));
    expect((await columnsOf(id)).note).toBe('character varying(255)');
    expect((await admin.get('/api/generation/detail', { id })).body.disTemplate).toBe(JSON.stringify(toLong));
    expect((await admin.get(`/api/general/list/${id}`)).body.content[0].note).toBe('十二');
  });

  it('refuses bad JSON and unsafe or reserved field names with the Chinese problem text and JSON pointer', async () => {
    const id = await newView('非法字段', 'badFields');
    const design = (disTemplate: unknown) => admin.post('/api/generation/design', { id, disTemplate });
    expect((await design('{"tableOption": [')).body).toEqual(refusal(400, 'JSON_TEXT_INVALID', { what: 'disTemplate' }));
    const hostile = await design(
      JSON.stringify({ tableOption: [field('ok', '好', 'varchar'), field('x"; drop table sys_user; --', '坏', 'varchar')] }),
    );
    expect(hostile.status).toBe(400);
    expect(hostile.body).toMatchObject({ status: 400, code: 'DEFINITION_INVALID' });
    expect(hostile.body.message).toMatch(/^定义不合法：\/disTemplate\/tableOption\/1\/name：字段名不可用/);
    expect(hostile.body.message).not.toMatch(/[A-Za-z]{3,} [A-Za-z]{3,}/);
    // The same problem kind the CLI reports in English, answered in Chinese.
    for (const name of ['create_time', 'page', 'token', 'CreateTime']) {
      const reserved = await design(
        JSON.stringify({ tableOption: [field('ok', '好', 'varchar')], formOption: [field(name, '保留', 'datetime')] }),
      );
      expect(reserved.body).toEqual(
        refusal(400, 'DEFINITION_INVALID', { problems: `/disTemplate/formOption/0/name：${PROBLEM_MESSAGES.E_NAME}` }),
      );
    }
    const items = await design(JSON.stringify({ tableOption: { items: [field('1abc', '数字开头', 'varchar')] } }));
    expect(items.body.code).toBe('DEFINITION_INVALID');
    expect(items.body.message).toMatch(/^定义不合法：\/disTemplate\/tableOption\/items\/0\/name：/);
    const badNumber = await design(JSON.stringify({ tableOption: [field('qty', '数量', 'long', { min: 'abc' })] }));
    expect(badNumber.status).toBe(400);
    expect(badNumber.body.code).toBe('DEFINITION_INVALID');
    expect(badNumber.body.message).toContain('/disTemplate/tableOption/0/configure/min');
    const badValidator = await design(JSON.stringify({ tableOption: [field('tel', '电话', 'varchar', { validator: 'fax' })] }));
    expect(badValidator.body.code).toBe('DEFINITION_INVALID');
    expect(badValidator.body.message).toContain('/disTemplate/tableOption/0/configure/validator');
    expect(await columnsOf(id)).toEqual({});
    expect((await admin.get('/api/generation/detail', { id })).body.disTemplate).toBeNull();
  });

  it('reads the lenient wire forms: {items}, booleans as "1", numbers as strings, comma lists', async () => {
    const id = await newView('宽松格式', 'lenient');
    const template = {
      tableOption: { items: [field('plate', '车牌', 'varchar', { search: '1', width: '120px', sortable: 'true' })] },
      formOption: {
        items: [
          field('plate', '车牌', 'varchar', { required: '1', inputWidth: '250px' }),
          field('kind', '类型', 'varchar', { showRelation: { item: 'length,load', value: 2 } }),
          field('length', '长度', 'long', { min: '1', show: '1' }),
          field('load', '载重', 'decimal', { decimals: '2' }),
        ],
      },
    };
    expect((await admin.post('/api/generation/design', { id, disTemplate: JSON.stringify(template) })).status).toBe(200);
    const cols = await columnsOf(id);
    expect(cols).toMatchObject({
      plate: 'character varying(255)',
      kind: 'character varying(255)',
      length: 'bigint',
      load: 'numeric(20,6)',
    });
    const missing = await admin.post(`/api/general/add/${id}`, {});
    expect(missing.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', message: '请输入车牌' });
    // length and load only count while kind is 2
    expect((await admin.post(`/api/general/add/${id}`, { plate: '苏A1', kind: '1', length: 0 })).status).toBe(200);
    expect((await admin.post(`/api/general/add/${id}`, { plate: '苏A2', kind: '2', length: 0 })).body).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      message: '最小值不能小于 1',
    });
  });

  it('publishes (status 1, table in line) and refuses to publish an undesigned view', async () => {
    const id = await newView('待发布', 'toPublish');
    expect((await admin.post('/api/generation/publish', { id })).body).toEqual(refusal(400, 'VIEW_NOT_DESIGNED_PUBLISH'));
    await admin.post('/api/generation/design', { id, disTemplate: JSON.stringify({ tableOption: [field('title', '标题', 'varchar')] }) });
    await server.ctx.db.executeQuery(sql`drop table ${sql.table(`lc_view_${id}`)}`.compile(server.ctx.db));
    const res = await admin.post('/api/generation/publish', { id });
    expect(res.body).toEqual({ status: 200, message: '发布成功' });
    expect((await admin.get('/api/generation/detail', { id })).body.status).toBe(1);
    expect(Object.keys(await columnsOf(id))).toContain('title');
    expect((await producer.post('/api/generation/publish', { id })).status).toBe(403);
  });

  it('updates name, menu, status and menu JSON; validates them', async () => {
    const id = await newView('改名前', 'renameMe');
    const res = await admin.post('/api/generation/update', {
      id,
      name: '改名后',
      menuId: 1012,
      status: 0,
      disMenu: JSON.stringify({ componentName: 'renamed', name: '改名后' }),
    });
    expect(res.body).toEqual({ status: 200, message: '操作成功', version: 1 });
    const detail = (await admin.get('/api/generation/detail', { id })).body;
    expect(detail).toMatchObject({ name: '改名后', menuId: 1012, status: 0, version: 1 });
    expect((await admin.post('/api/generation/update', { id, name: '改名后', status: 1 })).body).toEqual(
      refusal(400, 'VIEW_NOT_DESIGNED_PUBLISH'),
    );
    expect(JSON.parse(detail.disMenu).componentName).toBe('renamed');
    expect((await admin.post('/api/generation/update', { id, name: 'x', status: 2 })).status).toBe(400);
    expect((await admin.post('/api/generation/update', { id, name: 'x', disMenu: '{bad' })).body).toEqual(
      refusal(400, 'JSON_TEXT_INVALID', { what: 'disMenu' }),
    );
    expect((await admin.post('/api/generation/update', { id: 99999, name: 'x' })).status).toBe(404);
    expect((await producer.post('/api/generation/update', { id, name: 'x' })).status).toBe(403);
  });

  it('deletes views with their tables, by body id, id list or query', async () => {
    const a = await newView('删除甲', 'delA');
    const b = await newView('删除乙', 'delB');
    const c = await newView('删除丙', 'delC');
    await admin.post('/api/generation/design', { id: a, disTemplate: JSON.stringify({ tableOption: [field('t', '标题', 'varchar')] }) });
    expect((await admin.get(`/api/general/list/${a}`)).status).toBe(200);
    expect((await producer.post('/api/generation/delete', { id: a })).status).toBe(403);
    expect((await admin.post('/api/generation/delete', { id: a })).body).toEqual({ status: 200, message: '操作成功' });
    expect(await columnsOf(a)).toEqual({});
    expect((await admin.get(`/api/general/list/${a}`)).status).toBe(404);
    await admin.post('/api/generation/delete', [b]);
    await admin.post('/api/generation/delete', undefined, { id: c });
    for (const id of [a, b, c]) expect((await admin.get('/api/generation/detail', { id })).status).toBe(404);
  });
});

describe('screens (/api/screen)', () => {
  it('lists screens by name and type for screen:list holders only', async () => {
    expect((await producer.get('/api/screen/list')).status).toBe(403);
    const all = await admin.get('/api/screen/list', { page: 0, size: 9999 });
    expect(all.body.totalElements).toBe(7);
    expect(all.body.content.map((s: { id: number }) => s.id).sort((x: number, y: number) => x - y)).toEqual([25, 30, 40, 50, 51, 52, 97]);
    const big = await admin.get('/api/screen/list', { type: 2, page: 0, size: 10 });
    expect(big.body.content.map((s: { type: number }) => s.type)).toEqual([2, 2, 2]);
    const s50 = JSON.parse(big.body.content.find((s: { id: number }) => s.id === 50).disTemplate);
    expect(s50.canvasConfigure.basic).toMatchObject({ width: 1920, height: 1080, defaultCol: 24, timer: 60 });
    expect(s50.layout.map((c: { chart: { fileName: string }[] }) => c.chart[0]?.fileName)).toEqual(
      expect.arrayContaining(['lineBar', 'pie', 'scrollList', 'cityTransaction', 'radar']),
    );
  });

  it('serves screens to staff only: without a session a big screen is reached through a share link', async () => {
    const anon = server.api;
    for (const id of [50, 51, 97]) expect((await anon.get('/api/screen/detail', { id })).status).toBe(401);
    expect((await anon.withToken('Bearer nonsense').get('/api/screen/detail', { id: 50 })).status).toBe(401);
    // The big screen 50 is reached through the 数据大屏 menu, which the producer does not have.
    expect((await producer.get('/api/screen/detail', { id: 50 })).body).toEqual(refusal(403, 'SCREEN_FORBIDDEN'));
    const page = await producer.get('/api/screen/detail', { id: 97 });
    expect(page.status).toBe(200);
    expect(JSON.parse(page.body.disTemplate)).toEqual({ baseView: [18] });
    expect((await producer.get('/api/screen/detail', { id: 51 })).status).toBe(403);
    expect((await admin.get('/api/screen/detail', { id: 52 })).body.disTemplate).toBeNull();
    expect((await admin.get('/api/screen/detail', { id: 4242 })).status).toBe(404);
  });

  it('lets staff read an enabled list, form or tab screen only when they may list every view it draws', async () => {
    const guest = await server.login('guest');
    const screen = async (type: number, status: number, disTemplate: unknown) => {
      const add = await admin.post('/api/screen/add', { name: `访问${type}`, type, status, disMenu: { name: '访问' } });
      if (disTemplate) expect((await admin.post('/api/screen/design', { id: add.body.id, disTemplate })).status).toBe(200);
      return add.body.id as number;
    };
    const read = (client: ApiClient, id: number) => client.get('/api/screen/detail', { id }).then((r) => r.status);
    const stockIn = await screen(1, 1, { baseView: 12 });
    const vehicles = await screen(1, 1, { baseView: 17 });
    const tabs = await screen(4, 1, { baseView: [12, 17] });
    const form = await screen(3, 1, { formView: 17 });
    const draft = await screen(1, 0, { baseView: 12 });
    const big = await screen(2, 1, null);
    expect(await read(producer, stockIn)).toBe(200); // stockIn:list
    expect(await read(producer, vehicles)).toBe(403); // no vehicle:list
    expect(await read(producer, tabs)).toBe(403); // one of its tabs is not theirs
    expect(await read(producer, form)).toBe(403);
    expect(await read(producer, draft)).toBe(403);
    expect(await read(guest, stockIn)).toBe(403);
    expect(await read(guest, big)).toBe(403); // a big screen only through a menu that leads to it
    for (const id of [stockIn, vehicles, tabs, form, draft, big]) expect(await read(admin, id)).toBe(200);
    expect((await server.api.get('/api/screen/detail', { id: stockIn })).status).toBe(401);
  });

  it('adds, designs, updates and deletes a screen with checked references', async () => {
    expect((await producer.post('/api/screen/add', { name: '越权', type: 1 })).status).toBe(403);
    expect((await admin.post('/api/screen/add', { name: '错类型', type: 5 })).status).toBe(400);
    const add = await admin.post('/api/screen/add', {
      name: '测试容器',
      type: 4,
      disMenu: { name: '测试容器', componentName: 'vBuildTest' },
    });
    expect(add.status).toBe(200);
    const id = add.body.id as number;
    const design = (disTemplate: unknown) => admin.post('/api/screen/design', { id, disTemplate });
    expect((await design(JSON.stringify({ baseView: [12, 999] }))).body).toEqual(refusal(400, 'VIEW_MISSING', { id: 999 }));
    expect((await design('not json')).body).toEqual(refusal(400, 'JSON_TEXT_INVALID', { what: 'disTemplate' }));
    // The answer carries the saved version, which the next save may send back to detect a concurrent save.
    expect((await design(JSON.stringify({ baseView: '12,13' }))).body).toEqual({ status: 200, message: '保存成功', version: 1 });
    expect((await admin.get('/api/screen/detail', { id })).body.disTemplate).toBe(JSON.stringify({ baseView: '12,13' }));

    // Switching to a form screen needs a template that names a form view.
    expect((await admin.post('/api/screen/update', { id, name: '测试表单', type: 3 })).status).toBe(400);
    const update = await admin.post('/api/screen/update', { id, name: '测试容器（改）', status: 1 });
    expect(update.body).toEqual({ status: 200, message: '操作成功', version: 2 });
    expect((await admin.get('/api/screen/detail', { id })).body).toMatchObject({ name: '测试容器（改）', status: 1, type: 4 });

    const big = await admin.post('/api/screen/add', { name: '测试大屏', type: 2, status: 1 });
    const bigDesign = await admin.post('/api/screen/design', {
      id: big.body.id,
      disTemplate: JSON.stringify({
        canvasConfigure: {},
        layout: [{ i: 'a', chart: [{ fileName: 'pie', configure: { private: { dataViewId: 777 } } }] }],
      }),
    });
    expect(bigDesign.body).toEqual(refusal(400, 'DATA_VIEW_MISSING', { id: 777 }));

    expect((await admin.post('/api/screen/delete', [id, big.body.id])).body).toEqual({ status: 200, message: '操作成功' });
    expect((await admin.get('/api/screen/detail', { id })).status).toBe(404);
  });
});
