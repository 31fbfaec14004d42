import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

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

const labels = (list: { label: string }[]) => list.map((e) => e.label);

describe('reading dictionaries', () => {
  it('answers the entries of one dictionary in their order', async () => {
    const res = await producer.get('/api/dictDetail', { dictName: 'companyType', page: 0, size: 9999 });
    expect(res.status).toBe(200);
    expect(res.body.totalElements).toBe(5);
    expect(res.body.content.map((e: { value: string; label: string }) => [e.value, e.label])).toEqual([
      ['1', '产废企业'],
      ['2', '处置企业'],
      ['3', '物流企业'],
      ['4', '收集点'],
      ['5', '仓储企业'],
    ]);
    expect(res.body.content[0]).toEqual({ id: expect.any(Number), label: '产废企业', value: '1', type: '', dictSort: 1 });
  });

  it('carries tag colours and pages on request', async () => {
    const res = await producer.get('/api/dictDetail', { dictName: 'inquiryStatus', page: 1, size: 2 });
    expect(res.body.totalElements).toBe(4);
    expect(res.body.content.map((e: { label: string; type: string }) => [e.label, e.type])).toEqual([
      ['已关闭', 'info'],
      ['已驳回', 'danger'],
    ]);
  });

  it('answers an empty list for an unknown dictionary', async () => {
    const res = await producer.get('/api/dictDetail', { dictName: 'noSuchDict' });
    expect(res.body).toEqual({ content: [], totalElements: 0 });
  });

  it('answers several dictionaries in one call, comma-separated or repeated', async () => {
    const res = await producer.get('/api/dictDetail/map', { dictName: 'yesOrNo,weightUnit,noSuchDict' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['noSuchDict', 'weightUnit', 'yesOrNo']);
    expect(labels(res.body.yesOrNo)).toEqual(['是', '否']);
    expect(labels(res.body.weightUnit)).toEqual(['吨', '千克']);
    expect(res.body.noSuchDict).toEqual([]);
    const repeated = await producer.get('/api/dictDetail/map', { dictName: ['package_type', 'stockStatus'] });
    expect(labels(repeated.body.package_type)).toEqual(expect.arrayContaining(['吨袋', '桶装', '散装', '托盘']));
    expect(repeated.body.stockStatus.map((e: { value: string; type: string }) => [e.value, e.type])).toEqual([
      ['0', 'warning'],
      ['1', 'success'],
      ['2', 'info'],
    ]);
  });

  it('seeds every dictionary the business and generated pages name', async () => {
    const names = [
      'companyType',
      'onAndOff',
      'logistics_inquiry_type',
      'goods_type',
      'patterns',
      'package_type',
      'weightUnit',
      'motorcycle_type',
      'commonStatus',
      'inquiryStatus',
      'yesOrNo',
      'wasteCategory',
      'stockStatus',
      'contractStatus',
      'vehicleStatus',
      'orderStatus',
    ];
    const res = await producer.get('/api/dictDetail/map', { dictName: names.join(',') });
    for (const n of names) expect(`${n}: ${res.body[n].length > 0}`).toBe(`${n}: true`);
    expect(res.body.wasteCategory.find((e: { value: string }) => e.value === 'HW08').label).toContain('废矿物油');
  });

  it('serves any dictionary by name without a session, and only getDictNotLogin does', async () => {
    const res = await server.api.get('/api/dictDetail/getDictNotLogin', { dictName: 'companyType', page: 0, size: 9999 });
    expect(res.status).toBe(200);
    expect(labels(res.body.content)).toContain('产废企业');
    const other = await server.api.get('/api/dictDetail/getDictNotLogin', { dictName: 'inquiryStatus', page: 0, size: 9999 });
    expect(other.status).toBe(200);
    const signedIn = await admin.get('/api/dictDetail', { dictName: 'inquiryStatus', page: 0, size: 9999 });
    expect(other.body).toEqual({ content: signedIn.body.content, totalElements: signedIn.body.totalElements });
    expect(other.body.totalElements).toBeGreaterThan(0);
    // The yes/no option list is a dictionary definitions can name: 1 是, 2 否.
    const yesOrNo = await server.api.get('/api/dictDetail/getDictNotLogin', { dictName: 'yesOrNo', page: 0, size: 9999 });
    expect(yesOrNo.body.content.map((e: { value: string; label: string }) => [e.value, e.label])).toEqual([
      ['1', '是'],
      ['2', '否'],
    ]);
    const unknown = await server.api.get('/api/dictDetail/getDictNotLogin', { dictName: 'noSuchDict' });
    expect(unknown.body).toEqual({ content: [], totalElements: 0 });
    expect((await server.api.get('/api/dictDetail', { dictName: 'companyType' })).status).toBe(401);
    expect((await server.api.get('/api/dictDetail/map', { dictName: 'companyType' })).status).toBe(401);
  });
});

describe('maintaining dictionaries', () => {
  it('refuses writes without the dictionary permissions', async () => {
    expect((await producer.post('/api/dictDetail', { dictName: 'yesOrNo', label: '未知', value: '3' })).status).toBe(403);
    expect((await producer.put('/api/dictDetail', { id: 1, label: 'x', value: '1' })).status).toBe(403);
    expect((await producer.delete('/api/dictDetail/1')).status).toBe(403);
    expect((await producer.get('/api/dict')).status).toBe(403);
    expect((await producer.post('/api/dict', { name: 'x' })).status).toBe(403);
    expect((await producer.get('/api/dictDetail', { dictName: 'yesOrNo' })).body.totalElements).toBe(2);
  });

  it('adds, edits and deletes entries', async () => {
    const dicts = await admin.get('/api/dict', { blurry: 'package', size: 10 });
    expect(dicts.status).toBe(200);
    expect(dicts.body.content).toEqual([expect.objectContaining({ name: 'package_type', description: '包装方式' })]);
    const dictId = dicts.body.content[0].id;

    const created = await admin.post('/api/dictDetail', { dict: { id: dictId }, label: '周转箱', value: '7', dictSort: 7 });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), label: '周转箱', value: '7', type: '', dictSort: 7 });
    expect((await admin.post('/api/dictDetail', { dictName: 'package_type', label: '重复', value: '7' })).body).toEqual(
      refusal(400, 'DICT_VALUE_TAKEN'),
    );
    expect((await admin.post('/api/dictDetail', { dictName: 'package_type', label: '', value: '8' })).body).toEqual(
      refusal(400, 'DICT_LABEL_REQUIRED'),
    );
    expect((await admin.post('/api/dictDetail', { dictName: 'package_type', label: '袋', value: '' })).body).toEqual(
      refusal(400, 'DICT_VALUE_REQUIRED'),
    );
    expect((await admin.post('/api/dictDetail', { dictName: 'package_type', label: '袋', value: '8', type: 'purple' })).status).toBe(400);
    expect((await admin.post('/api/dictDetail', { dictName: 'noSuchDict', label: '袋', value: '8' })).body).toEqual(
      refusal(400, 'DICT_NOT_FOUND'),
    );

    const edited = await admin.put('/api/dictDetail', {
      id: created.body.id,
      label: '塑料周转箱',
      value: '7',
      type: 'success',
      dictSort: 0,
    });
    expect(edited.status).toBe(200);
    const list = await producer.get('/api/dictDetail', { dictName: 'package_type' });
    expect(list.body.content[0]).toMatchObject({ label: '塑料周转箱', type: 'success' });

    expect((await admin.delete(`/api/dictDetail/${created.body.id}`)).status).toBe(200);
    expect((await admin.delete(`/api/dictDetail/${created.body.id}`)).status).toBe(404);
    expect(labels((await producer.get('/api/dictDetail', { dictName: 'package_type' })).body.content)).not.toContain('塑料周转箱');
  });

  it('creates and deletes whole dictionaries', async () => {
    expect((await admin.post('/api/dict', { name: 'wasteCategory' })).body).toEqual(refusal(400, 'DICT_NAME_TAKEN'));
    expect((await admin.post('/api/dict', { name: '中文名' })).status).toBe(400);
    const created = await admin.post('/api/dict', { name: 'transportMode', description: '运输方式' });
    expect(created.status).toBe(201);
    await admin.post('/api/dictDetail', { dictName: 'transportMode', label: '公路', value: '1' });
    expect(labels((await producer.get('/api/dictDetail', { dictName: 'transportMode' })).body.content)).toEqual(['公路']);
    expect((await admin.put('/api/dict', { id: created.body.id, name: 'transportMode', description: '危废运输方式' })).status).toBe(200);
    expect((await admin.delete('/api/dict', [created.body.id])).status).toBe(200);
    expect((await producer.get('/api/dictDetail', { dictName: 'transportMode' })).body.totalElements).toBe(0);
  });
});
