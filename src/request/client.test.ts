import { describe, expect, it, vi } from 'vitest';
import { type ClientConfig, createClient, RequestError } from './client';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

const hangingFetch: typeof fetch = (_url, init) =>
  new Promise((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
  });

function clientWith(fetchImpl: typeof fetch, extra: Partial<ClientConfig> = {}) {
  const hooks = { onError: vi.fn(), onUnauthorized: vi.fn(), onForbidden: vi.fn() };
  return { client: createClient({ fetch: fetchImpl, ...hooks, ...extra }), ...hooks };
}

describe('request client error reporting', () => {
  it('reports a failed call once with the server message, then rejects', async () => {
    const { client, onError, onUnauthorized, onForbidden } = clientWith(async () =>
      jsonResponse(400, { status: 400, code: 'MESSAGE_TITLE_REQUIRED', message: '消息标题不能为空' }),
    );
    const err = await client.post('/api/sysMessage', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestError);
    expect(err).toMatchObject({ status: 400, code: 'MESSAGE_TITLE_REQUIRED', message: '消息标题不能为空' });
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]?.[0]).toBe(err);
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(onForbidden).not.toHaveBeenCalled();
  });

  it('carries no code when the answer has none or one not shaped as a code', async () => {
    for (const code of [undefined, 'not a code', 'Lower_case', '_LEADING', 42]) {
      const { client } = clientWith(async () => jsonResponse(400, { status: 400, code, message: '不对' }));
      await expect(client.get('/api/x')).rejects.toMatchObject({ status: 400, code: undefined, message: '不对' });
    }
  });

  it('reports 接口请求失败 for an answer without status or message, and for an unreachable server', async () => {
    const bare = clientWith(async () => new Response('<h1>502</h1>', { status: 502, headers: { 'content-type': 'text/html' } }));
    await expect(bare.client.get('/api/x')).rejects.toMatchObject({ status: 502, message: '接口请求失败' });
    expect(bare.onError.mock.calls[0]?.[0]).toMatchObject({ message: '接口请求失败' });

    const down = clientWith(async () => {
      throw new TypeError('fetch failed');
    });
    await expect(down.client.get('/api/x')).rejects.toMatchObject({ status: 0, message: '接口请求失败' });
    expect(down.onError).toHaveBeenCalledTimes(1);
  });

  it('reports a timeout as 网络请求超时', async () => {
    const { client, onError } = clientWith(hangingFetch, { timeout: 20 });
    await expect(client.get('/api/slow')).rejects.toMatchObject({ status: 0, message: '网络请求超时' });
    expect(onError.mock.calls[0]?.[0]).toMatchObject({ message: '网络请求超时' });
  });

  it('stays silent for callers that show the failure themselves, and for their own aborts', async () => {
    const { client, onError } = clientWith(async () => jsonResponse(400, { status: 400, message: '验证码错误' }));
    await expect(client.postForm('/api/auth/login', { code: '1' }, { silent: true })).rejects.toMatchObject({ message: '验证码错误' });
    expect(onError).not.toHaveBeenCalled();

    const hung = clientWith(hangingFetch);
    const controller = new AbortController();
    const pending = hung.client.get('/api/slow', undefined, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(hung.onError).not.toHaveBeenCalled();
  });

  it('sends a 401 to onUnauthorized and a 403 to onForbidden instead of a toast, even when silent', async () => {
    let status = 401;
    const { client, onError, onUnauthorized, onForbidden } = clientWith(async () => jsonResponse(status, { status, message: 'no' }));
    await expect(client.get('/api/users', undefined, { silent: true })).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    status = 403;
    await expect(client.get('/api/users')).rejects.toMatchObject({ status: 403 });
    expect(onForbidden).toHaveBeenCalledTimes(1);
    expect(onError).not.toHaveBeenCalled();
  });

  it('skips the 401/403 reactions when asked (logging out of an expired session)', async () => {
    const { client, onError, onUnauthorized } = clientWith(async () => jsonResponse(401, { status: 401, message: '未登录' }));
    await expect(client.delete('/api/auth/logout', undefined, { silent: true, skipAuthHandlers: true })).rejects.toMatchObject({
      status: 401,
    });
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(onError).not.toHaveBeenCalled();
  });

  it('still rejects with the original error when a hook throws', async () => {
    const { client } = clientWith(async () => jsonResponse(500, { status: 500, message: '服务器错误' }), {
      onError: () => {
        throw new Error('hook broke');
      },
    });
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(client.get('/api/x')).rejects.toMatchObject({ status: 500, message: '服务器错误' });
    spy.mockRestore();
  });

  it('hands back the unread response for responseType response', async () => {
    const { client } = clientWith(
      async () => new Response('abc', { status: 200, headers: { 'content-disposition': 'attachment; filename="a.txt"' } }),
    );
    const res = await client.get<Response>('/api/file/download', { source: 'x' }, { responseType: 'response' });
    expect(res).toBeInstanceOf(Response);
    expect(res.headers.get('content-disposition')).toContain('a.txt');
    expect(await res.text()).toBe('abc');
  });
});

describe('the session goes only to the app', () => {
  it("sends the token to the app's own paths and never to an address naming another host", () => {
    const client = createClient({ fetch: (async () => jsonResponse(200, {})) as typeof fetch, getToken: () => 'Bearer t' });
    const auth = (url: string) => (client.prepare(url).init.headers as Record<string, string>).Authorization;
    expect(auth('/api/general/list/12')).toBe('Bearer t');
    expect(auth('/api/general/detail?generalId=13')).toBe('Bearer t');
    for (const url of [
      'https://evil.example/api',
      '//evil.example/api',
      '/\\evil.example/api',
      '/\t/evil.example/api',
      '/\n/evil.example',
      '/\r\\evil.example',
      'http://127.0.0.1:1/api',
    ])
      expect(auth(url), url).toBeUndefined();
  });
});
