import { describe, expect, it, vi } from 'vitest';
import { createClient, RequestError } from '../../src/request/client';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

/** A fetch that never answers but honours abort, like a hung server. */
const hangingFetch: typeof fetch = (_url, init) =>
  new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
  });

describe('request client', () => {
  it('resolves with the parsed JSON of a 2xx answer', async () => {
    const fetch = vi.fn(async () => jsonResponse(200, { status: 200, data: { inited: true } }));
    const c = createClient({ fetch, getToken: () => 'Bearer t' });
    await expect(c.get('/api/init/check', { a: 1 })).resolves.toEqual({ status: 200, data: { inited: true } });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/init/check?a=1');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer t');
  });

  it('rejects with 网络请求超时 when the answer takes longer than the timeout', async () => {
    const c = createClient({ fetch: hangingFetch, timeout: 30 });
    const started = Date.now();
    await expect(c.get('/api/slow')).rejects.toMatchObject({ message: '网络请求超时', status: 0 });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('lets a per-call timeout override the default', async () => {
    const c = createClient({ fetch: hangingFetch });
    await expect(c.get('/api/slow', undefined, { timeout: 20 })).rejects.toThrow('网络请求超时');
  });

  it('rejects a non-2xx answer with its status and the server message', async () => {
    const c = createClient({ fetch: async () => jsonResponse(400, { status: 400, message: '验证码错误' }) });
    const err = await c.postForm('/api/auth/login', { code: '1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestError);
    expect(err).toMatchObject({ status: 400, message: '验证码错误', body: { status: 400, message: '验证码错误' } });
  });

  it('falls back to 接口请求失败 when the body has no status or message', async () => {
    const html = createClient({
      fetch: async () => new Response('<h1>Bad gateway</h1>', { status: 502, headers: { 'content-type': 'text/html' } }),
    });
    await expect(html.get('/api/x')).rejects.toMatchObject({ status: 502, message: '接口请求失败' });
    const bare = createClient({ fetch: async () => jsonResponse(500, { error: 'boom' }) });
    await expect(bare.get('/api/x')).rejects.toMatchObject({ status: 500, message: '接口请求失败' });
  });

  it('calls the 401 and 403 hooks, and still rejects', async () => {
    const onUnauthorized = vi.fn();
    const onForbidden = vi.fn();
    let status = 401;
    const c = createClient({ fetch: async () => jsonResponse(status, { status, message: 'no' }), onUnauthorized, onForbidden });
    await expect(c.get('/api/auth/info')).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(onForbidden).not.toHaveBeenCalled();
    status = 403;
    await expect(c.get('/api/users')).rejects.toMatchObject({ status: 403 });
    expect(onForbidden).toHaveBeenCalledTimes(1);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('reports an unreachable server as a network error, not a crash', async () => {
    const c = createClient({
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    await expect(c.get('/api/x')).rejects.toMatchObject({ status: 0, message: '接口请求失败' });
  });

  it('omits the JSON content type when there is no body (Fastify refuses an empty JSON body)', async () => {
    const fetch = vi.fn(async () => jsonResponse(200, {}));
    await createClient({ fetch }).delete('/api/auth/logout');
    const init = (fetch.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(init.method).toBe('DELETE');
    expect(init.body).toBeUndefined();
    expect((init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });
});
