import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataProvider, createRestProvider } from '../../src/app/data-provider.js';
import { HttpError, type ViewResource } from '../../src/engine/services.js';
import { type ListPageModel, normalizeDefinition } from '../../src/model/index.js';
import { createClient } from '../../src/request/client.js';
import { createDownload } from '../../src/request/download.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

// The app's data provider for the engine, against the real reference server (signed calls): which
// of a view's URLs each call uses, how the answers read, and a refused record's field messages.

const SIGN_SECRET = 'engine-data-provider-secret';
const json = JSON.parse(readFileSync(new URL('../../definitions/views/12-stock-in.json', import.meta.url), 'utf8'));
const model = normalizeDefinition({ kind: 'view', file: '12-stock-in.json', json }).page as ListPageModel;
const stockIn: ViewResource = { viewId: model.viewId, api: model.api };

let server: TestServer;
let admin: ApiClient;
const notices: string[] = [];
const saved: { name: string; size: number }[] = [];

function provider() {
  const client = createClient({
    baseUrl: server.url,
    getToken: () => admin.token,
    signSecret: SIGN_SECRET,
    onError: (e) => void notices.push(e.message),
  });
  const download = createDownload({
    client,
    notifier: { error: (t) => void notices.push(t), warning: (t) => void notices.push(t) },
    save: (blob, name) => void saved.push({ name, size: blob.size }),
  });
  return createDataProvider(client, download);
}

const record = (stockNo: string) => ({
  stockNo,
  wasteCategory: 'HW08',
  wasteCode: '900-249-08',
  wasteName: '数据接口测试废矿物油',
  quantity: 1.25,
  packageType: '2',
  warehouseId: 1,
  inTime: '2026-11-01 10:00:00',
  handler: '测试员',
  status: '0',
});

beforeAll(async () => {
  server = await startTestServer({ signSecret: SIGN_SECRET });
  admin = await server.login('admin');
});

afterAll(async () => {
  await server?.close();
});

describe('the engine data provider over the reference server', () => {
  it('lists a page, adds, reads, updates and deletes a record of a view', async () => {
    const data = provider();
    const first = await data.getList({ resource: stockIn, query: { page: 1, size: 5, sort: 'id,desc' } });
    expect(first.rows.length).toBeLessThanOrEqual(5);
    expect(first.total).toBeGreaterThanOrEqual(first.rows.length);
    // Page 2 of the pager is the server's page 1: its first row is the sixth of the list.
    const firstTen = await data.getList({ resource: stockIn, query: { page: 1, size: 10, sort: 'id,desc' } });
    const second = await data.getList({ resource: stockIn, query: { page: 2, size: 5, sort: 'id,desc' } });
    expect(second.rows[0]?.id).toBe(firstTen.rows[5]?.id);

    const stockNo = 'RK209912319001';
    await data.create({ resource: stockIn, values: record(stockNo) });
    const found = await data.getList({ resource: stockIn, query: { page: 1, size: 10, stockNo } });
    expect(found.total).toBe(1);
    const id = found.rows[0]?.id;
    expect((await data.getOne({ resource: stockIn, key: 'id', id }))?.values).toMatchObject({ id, stockNo, handler: '测试员' });

    await data.update({ resource: stockIn, values: { id, handler: '复核员' } });
    expect((await data.getOne({ resource: stockIn, key: 'id', id }))?.values).toMatchObject({ handler: '复核员' });

    await data.groovy({ resource: stockIn, name: 'confirmStock', action: 'markStocked', ids: [id] });
    expect((await data.getOne({ resource: stockIn, key: 'id', id }))?.values).toMatchObject({ status: '1' });

    await data.deleteMany({ resource: stockIn, ids: [id] });
    expect((await data.getList({ resource: stockIn, query: { page: 1, size: 10, stockNo } })).total).toBe(0);
  });

  it('rejects a refused record with an HttpError naming each field, the notice saying the first', async () => {
    const data = provider();
    notices.length = 0;
    const refused = await data.create({ resource: stockIn, values: { ...record('RK1'), quantity: 1e14 } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpError);
    const e = refused as HttpError;
    expect(e.status).toBe(400);
    expect(Object.keys(e.errors ?? {}).sort()).toEqual(['quantity', 'stockNo']);
    expect(Object.values(e.errors ?? {})).toContain(e.message);
    expect(notices).toEqual([e.message]);
    // A silent call leaves the notice to its caller.
    await data.create({ resource: stockIn, values: { ...record('RK1') }, silent: true }).catch(() => {});
    expect(notices).toHaveLength(1);
  });

  it('answers the server initial values, other calls, downloads, and an unknown id as a 404', async () => {
    const data = provider();
    const initial = await data.preAdd({ resource: stockIn });
    expect(initial === undefined || typeof initial === 'object').toBe(true);

    const dicts = await data.custom<Record<string, unknown>>({ url: '/api/dictDetail/map', query: { dictName: 'stockStatus' } });
    expect(Array.isArray(dicts.stockStatus)).toBe(true);

    const missing = await data.custom({ url: '/api/generation/detail', query: { id: 987654 }, silent: true }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(HttpError);
    expect((missing as HttpError).status).toBe(404);

    saved.length = 0;
    expect(await data.export({ resource: stockIn, query: { fields: ['stockNo'], headers: ['入库单号'] }, fileName: '危废入库.xlsx' })).toBe(
      true,
    );
    expect(saved).toEqual([{ name: expect.stringMatching(/\.xlsx$/), size: expect.any(Number) }]);
    expect(saved[0]?.size).toBeGreaterThan(1000);
  });

  it("lists and deletes an administration resource, the pager's page 1 being the server's page 0", async () => {
    const client = createClient({ baseUrl: server.url, getToken: () => admin.token, signSecret: SIGN_SECRET });
    const rest = createRestProvider(client, 0);
    const dict = { list: '/api/dict', del: { url: '/api/dict', method: 'delete' as const } };
    const four = await rest.getList({ resource: dict, query: { page: 1, size: 4 } });
    expect(four.rows.length).toBe(4);
    const second = await rest.getList({ resource: dict, query: { page: 2, size: 2 } });
    expect(second.rows.map((r) => r.id)).toEqual(four.rows.slice(2).map((r) => r.id));

    await client.post('/api/dict', { name: 'restProviderProbe', description: null });
    const found = await rest.getList({ resource: dict, query: { page: 1, size: 10, blurry: 'restProviderProbe' } });
    expect(found.total).toBe(1);
    await rest.deleteMany({ resource: dict, ids: [found.rows[0]?.id] });
    expect((await rest.getList({ resource: dict, query: { page: 1, size: 10, blurry: 'restProviderProbe' } })).total).toBe(0);
  });
});
