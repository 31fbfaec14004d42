import { describe, expect, it, vi } from 'vitest';
import { createClient } from './client';
import { createDownload, errorMessageOf, filenameFromDisposition } from './download';

function setup(answer: () => Response) {
  const fetchImpl = vi.fn(async () => answer());
  const onError = vi.fn();
  const client = createClient({ fetch: fetchImpl, getToken: () => 'Bearer tok', onError });
  const notifier = { error: vi.fn(), warning: vi.fn() };
  const save = vi.fn();
  const download = createDownload({ client, notifier, save, errorSeconds: 5 });
  return { download, fetchImpl, onError, notifier, save };
}

const file = (body: BodyInit, headers: Record<string, string>) => () => new Response(body, { status: 200, headers });

/** A file answer that arrives in `parts`, the next one only when `release` is called (or at once). */
function streamed(parts: Uint8Array[], headers: Record<string, string>) {
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const part = parts[index++];
      if (part) controller.enqueue(part);
      else controller.close();
    },
  });
  return () => new Response(body, { status: 200, headers });
}

describe('download progress', () => {
  it('tells how many bytes of how many arrived, then that the download is over', async () => {
    const fetchImpl = vi.fn(async () =>
      streamed([new Uint8Array(3000), new Uint8Array(2000)], {
        'content-type': 'application/octet-stream',
        'content-length': '5000',
        'content-disposition': "attachment; filename*=UTF-8''%E5%8F%B0%E8%B4%A6.xlsx",
      })(),
    );
    const client = createClient({ fetch: fetchImpl, getToken: () => null, onError: vi.fn() });
    const seen: ({ fileName: string; loaded: number; total: number | null } | null)[] = [];
    const save = vi.fn();
    const download = createDownload({
      client,
      notifier: { error: vi.fn(), warning: vi.fn() },
      save,
      onProgress: (p) => seen.push(p && { fileName: p.fileName, loaded: p.loaded, total: p.total }),
    });
    await expect(download('/api/file/download')).resolves.toBe(true);
    expect(seen).toEqual([
      { fileName: '台账.xlsx', loaded: 0, total: 5000 },
      { fileName: '台账.xlsx', loaded: 3000, total: 5000 },
      { fileName: '台账.xlsx', loaded: 5000, total: 5000 },
      null,
    ]);
    const [saved] = save.mock.calls[0] as [Blob, string];
    expect(saved.size).toBe(5000);
  });

  it('saves nothing and says nothing when the user cancels', async () => {
    const client = createClient({
      fetch: async () => streamed([new Uint8Array(6000), new Uint8Array(6000)], { 'content-type': 'text/csv' })(),
      getToken: () => null,
      onError: vi.fn(),
    });
    const notifier = { error: vi.fn(), warning: vi.fn() };
    const save = vi.fn();
    const states: (number | null)[] = [];
    const download = createDownload({
      client,
      notifier,
      save,
      onProgress: (p) => {
        states.push(p ? p.loaded : null);
        if (p && p.loaded > 0) p.cancel();
      },
    });
    await expect(download('/api/export', undefined, '导出.csv')).resolves.toBe(false);
    expect(save).not.toHaveBeenCalled();
    expect(notifier.error).not.toHaveBeenCalled();
    expect(notifier.warning).not.toHaveBeenCalled();
    expect(states).toEqual([0, 6000, null]);
  });
});

describe('download', () => {
  it('fetches with the Authorization header and saves under the server file name (RFC 5987)', async () => {
    const name = '危废 台账(2026).xlsx';
    const encoded = encodeURIComponent(name).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    const { download, fetchImpl, save, notifier } = setup(
      file(new Uint8Array([80, 75, 3, 4, 1, 2]), {
        'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'content-disposition': `attachment; filename="___ __(2026).xlsx"; filename*=UTF-8''${encoded}`,
      }),
    );
    await expect(download('/api/file/download', { source: 'a/b.xlsx' }, 'fallback.xlsx')).resolves.toBe(true);
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/file/download?source=a%2Fb.xlsx');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok');
    expect(save).toHaveBeenCalledTimes(1);
    const [blob, savedName] = save.mock.calls[0] as [Blob, string];
    expect(savedName).toBe(name);
    expect(blob.size).toBe(6);
    expect(notifier.error).not.toHaveBeenCalled();
    expect(notifier.warning).not.toHaveBeenCalled();
  });

  it('uses the given name when the server sends none, then the last path segment', async () => {
    const a = setup(file('data', { 'content-type': 'text/csv' }));
    await a.download('/api/export', undefined, '导出.csv');
    expect(a.save.mock.calls[0]?.[1]).toBe('导出.csv');
    const b = setup(file('data', { 'content-type': 'text/csv' }));
    await b.download('/files/report%201.csv?x=1');
    expect(b.save.mock.calls[0]?.[1]).toBe('report 1.csv');
  });

  it('shows the message of a JSON error body instead of saving it', async () => {
    const { download, save, notifier } = setup(
      file(JSON.stringify({ status: 400, message: '文件不存在' }), { 'content-type': 'application/json' }),
    );
    await expect(download('/api/file/download', { source: 'x' })).resolves.toBe(false);
    expect(save).not.toHaveBeenCalled();
    expect(notifier.error).toHaveBeenCalledWith('文件不存在', 5);
  });

  it('detects a small {status,message} blob sent with a file content type', async () => {
    const { download, save, notifier } = setup(
      file(JSON.stringify({ status: 500, message: '导出失败' }), { 'content-type': 'application/octet-stream' }),
    );
    await expect(download('/api/general/1/download')).resolves.toBe(false);
    expect(save).not.toHaveBeenCalled();
    expect(notifier.error).toHaveBeenCalledWith('导出失败', 5);
  });

  it('saves a small JSON file that is not an error answer', async () => {
    const { download, save, notifier } = setup(
      file(JSON.stringify({ name: 'config', status: 200 }), {
        'content-type': 'application/json',
        'content-disposition': 'attachment; filename="config.json"',
      }),
    );
    await expect(download('/api/file/download')).resolves.toBe(true);
    expect(save.mock.calls[0]?.[1]).toBe('config.json');
    expect(notifier.error).not.toHaveBeenCalled();
  });

  it('warns 文件下载失败 on an empty file', async () => {
    const { download, save, notifier } = setup(
      file('', { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename=a.pdf' }),
    );
    await expect(download('/api/file/download')).resolves.toBe(false);
    expect(notifier.warning).toHaveBeenCalledWith('文件下载失败');
    expect(save).not.toHaveBeenCalled();
  });

  it('leaves a failed status to the request layer (one toast) and resolves false', async () => {
    const { download, onError, notifier, save } = setup(
      () =>
        new Response(JSON.stringify({ status: 404, message: '文件不存在' }), {
          status: 404,
          headers: { 'content-type': 'application/json' },
        }),
    );
    await expect(download('/api/file/download')).resolves.toBe(false);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]?.[0]).toMatchObject({ message: '文件不存在' });
    expect(notifier.error).not.toHaveBeenCalled();
    expect(save).not.toHaveBeenCalled();
  });
});

describe('filenameFromDisposition', () => {
  it.each([
    [`attachment; filename="plain.txt"`, 'plain.txt'],
    [`attachment; filename=bare.txt`, 'bare.txt'],
    [`attachment; filename="a.txt"; filename*=UTF-8''%E5%8D%B1%E5%BA%9F.txt`, '危废.txt'],
    [`attachment; filename*=utf-8'zh'%E5%8F%B0%E8%B4%A6.xlsx; filename="x.xlsx"`, '台账.xlsx'],
    [`inline; filename*=ISO-8859-1''caf%E9.txt`, 'café.txt'],
    [`attachment; filename="quo\\"te.txt"`, 'quo"te.txt'],
    [`attachment; filename="../../etc/passwd"`, 'passwd'],
    [`attachment; filename*=UTF-8''%E5%ZZ.txt; filename="fallback.txt"`, 'fallback.txt'],
    [`attachment`, undefined],
    [null, undefined],
  ])('%s → %s', (header, expected) => {
    expect(filenameFromDisposition(header)).toBe(expected);
  });
});

describe('errorMessageOf', () => {
  it('reads error answers only', () => {
    expect(errorMessageOf('{"status":400,"message":"不对"}')).toBe('不对');
    expect(errorMessageOf('{"code":500}')).toBe('接口请求失败');
    expect(errorMessageOf('{"status":200,"message":"ok"}')).toBeUndefined();
    expect(errorMessageOf('[1,2]')).toBeUndefined();
    expect(errorMessageOf('a,b,c')).toBeUndefined();
  });
});
