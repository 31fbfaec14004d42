import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode, ErrorParams } from '../../src/shared/error-catalogue.js';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, type ApiResponse, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Values that once reached the database and answered 500 are refused as 400 with a clear message:
 * prototype names as sort fields, page numbers and ids beyond what PostgreSQL holds, NUL characters and
 * lone surrogates in any text.
 */

let server: TestServer;
let admin: ApiClient;
/** A seeded view with records (the stock-in list). */
const VIEW = 12;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
});
afterAll(async () => {
  await server?.close();
});

/** A 400 refusal by its code. */
function refused(res: Pick<ApiResponse, 'status' | 'body'>, code: ErrorCode, params?: ErrorParams) {
  expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: refusal(400, code, params) });
}

/** A 400 INVALID_INPUT whose message names the field and its problem. */
function invalid(res: Pick<ApiResponse, 'status' | 'body'>, message: string | RegExp) {
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 400, body: { status: 400, code: 'INVALID_INPUT' } });
  if (typeof message === 'string') expect(res.body.message).toBe(message);
  else expect(res.body.message).toMatch(message);
}

/** A JSON body sent as the exact text given (JSON.stringify would not let a test choose the escapes). */
function rawJson(method: string, path: string, text: string): Promise<{ status: number; body: any }> {
  const u = new URL(path, server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: u.hostname,
        port: u.port,
        method,
        path: u.pathname + u.search,
        headers: { authorization: String(admin.token), 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

describe('times off the calendar are refused before the database', () => {
  it('a time bound of the operation log of the shape but no such day or time is 400 with the format', async () => {
    const message = /时间格式应为 YYYY-MM-DD 或 YYYY-MM-DD HH:mm:ss/;
    for (const path of ['/api/logs/user', '/api/logs'])
      for (const bound of ['9999-99-99 99:99:99', '2026-02-30', '2026-01-01 24:00:00', '2026-01-01 23:60', '0000-01-01'])
        for (const key of ['from', 'to']) invalid(await admin.get(path, { [key]: bound }), message);
    // The edges of the calendar and the day still pass.
    const ok = await admin.get('/api/logs/user', { from: '2028-02-29', to: '2028-02-29 23:59:59' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});

describe('prototype names are not fields', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])('sort=%s on a view list is 400', async (name) => {
    refused(await admin.get(`/api/general/list/${VIEW}`, { sort: `${name},desc` }), 'LIST_SORT_FIELD_NOT_FOUND', { field: name });
    refused(await admin.get(`/api/general/list/${VIEW}`, { sort: name }), 'LIST_SORT_FIELD_NOT_FOUND', { field: name });
  });

  it('sort=constructor on the administration lists is 400', async () => {
    for (const path of ['/api/users', '/api/roles', '/api/dict']) {
      refused(await admin.get(path, { sort: 'constructor,desc' }), 'SORT_FIELD_UNSUPPORTED', { field: 'constructor' });
    }
  });

  it('a prototype name as a filter or an export field is not a field', async () => {
    refused(await admin.get(`/api/general/list/${VIEW}`, { constructor: 'x' }), 'LIST_FILTER_FIELD_NOT_FOUND', { field: 'constructor' });
    refused(await admin.get(`/api/general/list/${VIEW}`, { toString: 'x' }), 'LIST_FILTER_FIELD_NOT_FOUND', { field: 'toString' });
  });

  it('a JSON body with a __proto__ or constructor.prototype key is refused by the parser', async () => {
    refused(await rawJson('POST', `/api/general/add/${VIEW}`, '{"__proto__":{"isAdmin":true}}'), 'BODY_NOT_JSON');
    refused(await rawJson('POST', '/api/roles', '{"constructor":{"prototype":{"x":1}}}'), 'BODY_NOT_JSON');
  });

  it('a real sort field still sorts', async () => {
    const res = await admin.get(`/api/general/list/${VIEW}`, { sort: 'createTime,desc', size: 3 });
    expect(res.status).toBe(200);
    expect(res.body.content).toHaveLength(3);
  });
});

describe('numbers are bounded', () => {
  const twenty = '12345678901234567890';

  it('a 20-digit page is 400 on a view list, an administration list and a designer list', async () => {
    refused(await admin.get(`/api/general/list/${VIEW}`, { page: twenty }), 'LIST_PARAM_TOO_LARGE', { name: 'page', max: 1000000 });
    refused(await admin.get(`/api/general/list/${VIEW}`, { size: twenty }), 'LIST_PARAM_TOO_LARGE', { name: 'size', max: 1000000 });
    invalid(await admin.get('/api/users', { page: twenty }), '参数校验失败：查询参数 page 不能大于 1000000');
    invalid(await admin.get('/api/generation/list', { page: twenty }), '参数校验失败：查询参数 page 不能大于 1000000');
  });

  it('the largest page is an empty page, not an error', async () => {
    const res = await admin.get(`/api/general/list/${VIEW}`, { page: 1_000_000, size: 1000 });
    expect(res.status).toBe(200);
    expect(res.body.content).toEqual([]);
    expect((await admin.get('/api/users', { page: 1_000_000, size: 10_000 })).status).toBe(200);
  });

  it('an 11-digit view id is 400, the largest integer id is 404', async () => {
    invalid(await admin.get('/api/general/list/12345678901'), '参数校验失败：路径参数 viewId 不能大于 2147483647');
    invalid(
      await admin.get('/api/general/detail', { generalId: '12345678901', id: 1 }),
      /^参数校验失败：查询参数 generalId 不能大于 2147483647/,
    );
    const largest = await admin.get('/api/general/list/2147483647');
    expect(largest.status).toBe(404);
  });

  it('ids beyond PostgreSQL integers are 400 in bodies and query lists too', async () => {
    refused(await admin.post('/api/generation/delete', [2147483648]), 'ID_TOO_LARGE', { max: 2147483647 });
    refused(await admin.post('/api/screen/delete', { ids: '5,99999999999' }), 'ID_TOO_LARGE', { max: 2147483647 });
    invalid(await admin.get('/api/companyWarehouse/warehouse', { companyId: '99999999999' }), /编号不正确/);
    invalid(await admin.get('/api/general/list/abc'), '参数校验失败：路径参数 viewId 必须是数字');
  });

  it('a time that has the right shape but is not on the calendar is 400', async () => {
    invalid(await admin.get('/api/materialsCode/download', { createTime: '9999-99-99 99:99:99' }), /createTime 应为 YYYY-MM-DD HH:mm:ss$/);
    invalid(await admin.get('/api/materialsCode/download', { createTime: '2026-02-30 10:00:00' }), /createTime 应为 YYYY-MM-DD HH:mm:ss$/);
    expect((await admin.get('/api/materialsCode/download', { createTime: '2026-02-28 10:00:00' })).status).toBe(404);
  });

  it('a whole-number filter that is not a whole number is 400', async () => {
    const view = (await admin.get('/api/generation/detail', { id: VIEW })).body;
    const long = JSON.parse(view.disTemplate).tableOption.find((f: { dataType: string }) => f.dataType === 'long');
    if (!long) return;
    refused(await admin.get(`/api/general/list/${VIEW}`, { [long.name]: '1.5' }), 'LIST_FILTER_INVALID', { field: long.name });
    refused(await admin.get(`/api/general/list/${VIEW}`, { [long.name]: '99999999999999999999' }), 'LIST_FILTER_INVALID', {
      field: long.name,
    });
  });
});

describe('text the database cannot hold', () => {
  it('a NUL character in the query is 400', async () => {
    refused(await admin.get(`/api/general/list/${VIEW}`, { wasteName: 'a\u0000b' }), 'INPUT_NUL');
    refused(await admin.get('/api/users', { blurry: '\u0000' }), 'INPUT_NUL');
  });

  it('a NUL character in a JSON body, a form body and a key is 400', async () => {
    refused(await admin.post(`/api/general/add/${VIEW}`, { wasteName: 'a\u0000b' }), 'INPUT_NUL');
    refused(await admin.post('/api/roles', { name: 'r\u0000', level: 3 }), 'INPUT_NUL');
    refused(await admin.post(`/api/general/add/${VIEW}`, { 'a\u0000': 'x' }), 'INPUT_NUL');
    refused(await admin.post('/api/roles', { nested: [{ deeper: ['x\u0000'] }] }), 'INPUT_NUL');
    refused(
      await admin.request('POST', '/api/auth/login', { form: { username: 'admin\u0000', password: 'x', code: '8888', uuid: 'u' } }),
      'INPUT_NUL',
    );
  });

  it('a NUL character in a path parameter is 400', async () => {
    refused(await admin.get('/api/general/list/1%00'), 'INPUT_NUL');
  });

  it('a lone surrogate in a JSON body is 400, a pair is kept', async () => {
    refused(await rawJson('POST', `/api/general/add/${VIEW}`, '{"wasteName":"a\\ud800b"}'), 'INPUT_SURROGATE');
    refused(await rawJson('POST', '/api/roles', '{"name":"\\udc00"}'), 'INPUT_SURROGATE');
    refused(await rawJson('POST', '/api/roles', '{"\\ud800":"x"}'), 'INPUT_SURROGATE');
    const pair = await rawJson('GET', `/api/general/list/${VIEW}?wasteName=${encodeURIComponent('𠮷')}`, '');
    expect(pair.status).toBe(200);
  });

  it('a lone surrogate escaped in the query is read as the text sent; in an update body it is 400', async () => {
    // UTF-8 has no encoding of a lone surrogate: its would-be escape is not decoded and stays plain text.
    const res = await rawJson('GET', `/api/general/list/${VIEW}?wasteName=%ED%A0%80`, '');
    expect(res.status).toBe(200);
    expect(res.body.totalElements).toBe(0);
    refused(await rawJson('PUT', '/api/users', '{"id":1,"nickName":"\\ud83d"}'), 'INPUT_SURROGATE');
  });

  it('a NUL character in a multipart field value or file name is 400, a clean upload passes', async () => {
    const upload = (path: string, field: string, fileName: string) => {
      const form = new FormData();
      form.append('columnName', field);
      form.append('file', new Blob([Buffer.from('%PDF-1.4 hello')]), fileName);
      return admin.request('POST', path, { body: form });
    };
    refused(await upload('/api/file/upload', 'a\u0000b', 'x.pdf'), 'INPUT_NUL');
    refused(await upload('/api/file/upload', 'a', 'x\u0000.pdf'), 'INPUT_NUL');
    // The import reads the first file only, with the fields sent before it.
    refused(await upload(`/api/general/${VIEW}/import`, 'a\u0000b', 'x.xlsx'), 'INPUT_NUL');
    refused(await upload(`/api/general/${VIEW}/import`, 'a', 'x\u0000.xlsx'), 'INPUT_NUL');
    const clean = await upload('/api/file/upload', 'attachment', '说明.pdf');
    expect(clean.status, JSON.stringify(clean.body)).toBe(200);
    expect(clean.body).toMatchObject({ status: 200, columnName: 'attachment' });
  });

  it('a caller without a session is told 401 before anything about its input', async () => {
    const res = await server.api.get(`/api/general/list/${VIEW}`, { wasteName: 'a\u0000b', sort: 'constructor' });
    expect(res.status).toBe(401);
  });

  it('an address that matches no route is 404 whatever it carries', async () => {
    const res = await admin.get('/api/no-such-route', { q: '\u0000' });
    expect(res.status).toBe(404);
  });

  it('a body nested deeper than any form is 400', async () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100; i++) deep = [deep];
    refused(await admin.post('/api/roles', { name: deep }), 'INPUT_TOO_DEEP');
  });
});
