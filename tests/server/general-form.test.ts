import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY } from '../../server/seed/ids.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

// A form's data calls (formData, dynamicQuery) with their access and data scope, and the server's
// reading of a showRelation that shows a show 2 field.

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;
let guest: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  [admin, producer, guest] = await Promise.all([server.login('admin'), server.login('producer'), server.login('guest')]);
});
afterAll(async () => {
  await server?.close();
});

/** A stock-in of the producer's company, and one of another company. */
async function stockIns(): Promise<{ own: number; other: number }> {
  const pick = async (own: boolean) => {
    const where = own ? sql`create_company = ${COMPANY.producer}` : sql`create_company is distinct from ${COMPANY.producer}`;
    const res = await sql<{ id: number }>`select id from lc_view_12 where ${where} order by id limit 1`.execute(server.ctx.db);
    const id = res.rows[0]?.id;
    expect(id, own ? 'own stock-in' : 'other stock-in').toBeDefined();
    return Number(id);
  };
  return { own: await pick(true), other: await pick(false) };
}

describe('GET /api/general/formData', () => {
  it('answers the record the form edits, as the detail does', async () => {
    const { own } = await stockIns();
    const res = await producer.get('/api/general/formData', { generalId: 12, id: own });
    expect(res.status).toBe(200);
    const detail = await producer.get('/api/general/detail', { generalId: 12, id: own });
    expect(res.body).toEqual({ status: 200, data: detail.body });
    expect(res.body.data.id).toBe(own);
  });

  it('refuses without the list permission, and answers a record outside the data scope as missing', async () => {
    const { own, other } = await stockIns();
    expect((await guest.get('/api/general/formData', { generalId: 12, id: own })).status).toBe(403);
    expect((await server.api.get('/api/general/formData', { generalId: 12, id: own })).status).toBe(401);
    expect((await producer.get('/api/general/formData', { generalId: 17, id: 1 })).status).toBe(403);
    const outside = await producer.get('/api/general/formData', { generalId: 12, id: other });
    expect(outside.status).toBe(404);
    expect(outside.body).not.toHaveProperty('data');
    // The administrator's scope holds it.
    expect((await admin.get('/api/general/formData', { generalId: 12, id: other })).body.data.id).toBe(other);
    expect((await producer.get('/api/general/formData', { generalId: 12 })).status).toBe(400);
    expect((await producer.get('/api/general/formData', { generalId: 12, id: 'x' })).status).toBe(400);
  });
});

describe('GET /api/general/dynamicQuery', () => {
  it('answers the add form’s defaults with the query’s values of its fields', async () => {
    expect((await producer.get('/api/general/dynamicQuery', { generalId: 12 })).body).toEqual({
      status: 200,
      data: { packageType: '1', status: '0' },
    });
    const res = await producer.get('/api/general/dynamicQuery', {
      generalId: 12,
      packageType: '2',
      quantity: '1.5',
      warehouseId: '7',
      nope: 'x',
      page: '1',
    });
    expect(res.body.data).toEqual({ packageType: '2', status: '0', quantity: 1.5, warehouseId: 7 });
  });

  it('refuses without the add permission', async () => {
    expect((await producer.get('/api/general/dynamicQuery', { generalId: 17 })).status).toBe(403);
    expect((await guest.get('/api/general/dynamicQuery', { generalId: 12 })).status).toBe(403);
    expect((await server.api.get('/api/general/dynamicQuery', { generalId: 12 })).status).toBe(401);
  });
});

describe('a showRelation naming a show 2 field', () => {
  it('validates it like show 1 while the long trigger holds the value, and neither requires nor writes it otherwise', async () => {
    const added = await admin.post('/api/generation/add', {
      name: '车辆许可',
      menuId: null,
      disMenu: JSON.stringify({ componentName: 'vehiclePermit', name: '车辆许可' }),
    });
    const id = added.body.id as number;
    const field = (name: string, chName: string, dataType: string, configure: Record<string, unknown>) => ({
      name,
      chName,
      dataType,
      linked: false,
      configure,
    });
    const template = {
      tableOption: [field('plate', '车牌', 'varchar', {}), field('permitNo', '许可证号', 'varchar', {})],
      formOption: [
        field('plate', '车牌', 'varchar', { sort: 1, required: true }),
        field('carType', '车辆类型', 'long', { sort: 2, dict: 'yesOrNo', showRelation: { item: ['permitNo'], value: 1 } }),
        field('permitNo', '许可证号', 'varchar', { sort: 3, show: 2, required: true, pattern: '^XK' }),
      ],
    };
    expect((await admin.post('/api/generation/design', { id, disTemplate: JSON.stringify(template) })).status).toBe(200);
    const stored = async (plate: string) =>
      (await sql<Record<string, unknown>>`select * from ${sql.table(`lc_view_${id}`)} where plate = ${plate}`.execute(server.ctx.db))
        .rows[0];

    // Visible: required and checked like any show 1 field; the trigger comes as text or as a number.
    const missing = await admin.post(`/api/general/add/${id}`, { plate: '苏A1', carType: '1' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ field: 'permitNo', message: '请输入许可证号' }]);
    expect((await admin.post(`/api/general/add/${id}`, { plate: '苏A1', carType: 1, permitNo: 'AB' })).body.errors).toEqual([
      { field: 'permitNo', message: '许可证号格式不正确，应为XK' },
    ]);
    expect((await admin.post(`/api/general/add/${id}`, { plate: '苏A1', carType: 1, permitNo: 'XK-1' })).status).toBe(200);
    const first = await stored('苏A1');
    expect(first).toMatchObject({ permitNo: 'XK-1' });
    expect(Number(first?.carType)).toBe(1);

    // Hidden: not required, and not taken from the body.
    expect((await admin.post(`/api/general/add/${id}`, { plate: '苏A2', carType: 2, permitNo: 'AB' })).status).toBe(200);
    expect(await stored('苏A2')).toMatchObject({ permitNo: null });
    const row = await stored('苏A2');
    expect(Number(row?.carType)).toBe(2);

    // An update that turns the trigger on needs the field then.
    const update = await admin.post(`/api/general/update/${id}`, { id: row?.id, carType: 1 });
    expect(update.body.errors).toEqual([{ field: 'permitNo', message: '请输入许可证号' }]);
    expect((await admin.post(`/api/general/update/${id}`, { id: row?.id, carType: 1, permitNo: 'XK-2' })).status).toBe(200);
    expect(await stored('苏A2')).toMatchObject({ permitNo: 'XK-2' });
  });
});
