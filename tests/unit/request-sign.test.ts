import { createHash } from 'node:crypto';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/request/client';
import { signRequest } from '../../src/shared/sign';

const SECRET = 'unit-sign-secret';
const TS = 1_767_225_600_000;

/** Independent of sign.ts: the canonical form written out again: sorted key=value pairs plus timestamp, joined by &, then the secret. */
function expectedSign(canonical: string, secret = SECRET): string {
  return createHash('sha256')
    .update(canonical + secret)
    .digest('hex')
    .toUpperCase();
}

const client = createClient({ signSecret: SECRET, now: () => TS, getToken: () => 'Bearer abc.def' });

describe('query serialisation and signing', () => {
  it('sends arrays unindexed, drops null/undefined, and signs the canonical pairs', () => {
    const { url, init } = client.prepare('/api/x', {
      params: { sort: 'id,desc', ids: [3, 1], empty: '', gone: null, missing: undefined, flag: true, page: 0, text: '张 三&' },
    });
    expect(url).toBe('/api/x?sort=id%2Cdesc&ids=3&ids=1&empty=&flag=true&page=0&text=%E5%BC%A0+%E4%B8%89%26');
    expect(init.headers.timestamp).toBe(String(TS));
    expect(init.headers.sign).toBe(expectedSign(`flag=true&ids=3,1&page=0&sort=id,desc&text=张 三&&timestamp=${TS}`));
    expect(init.headers.Authorization).toBe('Bearer abc.def');
    expect(init.body).toBeUndefined();
    expect(init.headers['Content-Type']).toBeUndefined();
  });

  it('merges a query already in the URL with params', () => {
    const { url, init } = client.prepare('/api/x?a=1', { params: { b: 2 } });
    expect(url).toBe('/api/x?a=1&b=2');
    expect(init.headers.sign).toBe(expectedSign(`a=1&b=2&timestamp=${TS}`));
  });

  it('signs a JSON object body as its pairs, the way the server parses it', () => {
    const data = { name: '危废', ids: [2, 1], nested: { x: 1 }, blank: '', nil: null, skip: undefined, at: new Date(Date.UTC(2026, 0, 2)) };
    const { init } = client.prepare('/api/y', { method: 'POST', data, params: { page: 1 } });
    expect(init.headers['Content-Type']).toContain('application/json');
    expect(JSON.parse(String(init.body))).toEqual({
      name: '危废',
      ids: [2, 1],
      nested: { x: 1 },
      blank: '',
      nil: null,
      at: '2026-01-02T00:00:00.000Z',
    });
    expect(init.headers.sign).toBe(expectedSign(`at=2026-01-02T00:00:00.000Z&ids=2,1&name=危废&nested={"x":1}&page=1&timestamp=${TS}`));
  });

  it('signs a JSON array body as body=<JSON>', () => {
    const { init } = client.prepare('/api/y', { method: 'DELETE', data: [5, 6] });
    expect(init.headers.sign).toBe(expectedSign(`body=[5,6]&timestamp=${TS}`));
  });

  it('form-encodes and signs a form body', () => {
    const { init } = client.prepare('/api/auth/login', {
      method: 'POST',
      form: { username: 'producer', password: 'a+b/c==', code: '8888', uuid: 'u-1', empty: '' },
    });
    expect(init.headers['Content-Type']).toContain('application/x-www-form-urlencoded');
    expect(init.body).toBe('username=producer&password=a%2Bb%2Fc%3D%3D&code=8888&uuid=u-1&empty=');
    expect(init.headers.sign).toBe(expectedSign(`code=8888&password=a+b/c==&timestamp=${TS}&username=producer&uuid=u-1`));
  });

  it('signs only the query of a multipart body', () => {
    const fd = new FormData();
    fd.append('file', new Blob(['x']), 'a.txt');
    const { init } = client.prepare('/api/file/upload', { method: 'POST', multipart: fd, params: { columnName: 'f' } });
    expect(init.body).toBe(fd);
    expect(init.headers['Content-Type']).toBeUndefined();
    expect(init.headers.sign).toBe(expectedSign(`columnName=f&timestamp=${TS}`));
  });

  it('sends a timestamp but no sign when no secret is configured', () => {
    const { init } = createClient({ now: () => TS }).prepare('/api/x', { params: { a: 1 } });
    expect(init.headers.timestamp).toBe(String(TS));
    expect(init.headers.sign).toBeUndefined();
    expect(init.headers.Authorization).toBeUndefined();
  });
});

describe('the server-side verification agrees', () => {
  let server: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    server = Fastify();
    await server.register(formbody);
    // Same inputs the reference server hashes (server/app.ts): Fastify's parsed query and body.
    server.all('/api/*', async (req, reply) => {
      const ts = String(req.headers.timestamp ?? '');
      const expected = signRequest(
        (req.query ?? {}) as Record<string, unknown>,
        req.body as Record<string, unknown> | unknown[] | undefined,
        ts,
        SECRET,
      );
      return expected === req.headers.sign ? { ok: true } : reply.status(400).send({ status: 400, message: '请求签名无效' });
    });
    base = await server.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => server.close());

  const cases: [string, Parameters<ReturnType<typeof createClient>['request']>[1]][] = [
    ['query with arrays, blanks, CJK and reserved characters', { params: { ids: [1, 2, 3], q: '张 三&x=1', blank: '', n: 0, b: false } }],
    ['JSON object body', { method: 'POST', data: { name: '危废', list: [1, 'a'], obj: { k: [1] }, blank: '', nil: null, at: new Date() } }],
    ['JSON array body', { method: 'DELETE', data: [1, 2] }],
    ['form body', { method: 'POST', form: { username: 'producer', password: 'x+y/z==', code: '8888', uuid: 'u', tags: ['a', 'b'] } }],
    ['query and body together', { method: 'PUT', params: { page: 2, sort: ['id,desc', 'name,asc'] }, data: { id: 7 } }],
  ];

  it.each(cases)('%s', async (_name, options) => {
    const c = createClient({ baseUrl: base, signSecret: SECRET });
    await expect(c.request('/api/echo', options)).resolves.toEqual({ ok: true });
  });

  it('is rejected with another secret (the check can fail)', async () => {
    const c = createClient({ baseUrl: base, signSecret: 'other-secret' });
    await expect(c.request('/api/echo', { params: { a: 1 } })).rejects.toMatchObject({ status: 400, message: '请求签名无效' });
  });
});
