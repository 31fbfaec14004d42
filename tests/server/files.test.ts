import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from '../helpers/refusal.js';
import type { ApiClient, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';

const TYPE_MESSAGE = '允许上传 doc、docx、 xls、xlsx、pdf、jpg、jpeg、png';
// The whole file runs with a 1 KiB limit, so the ordinary uploads below are small real files.
const LIMIT = 1024;

// A real 1x1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

function storedFiles(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(root, join(d.parentPath, d.name)))
    .sort();
}

function upload(client: ApiClient, files: { name: string; bytes: Buffer; type?: string }[], columnName?: string, open = false) {
  const form = new FormData();
  if (columnName !== undefined) form.append('columnName', columnName);
  if (open) form.append('open', '1');
  for (const f of files) form.append('file', new Blob([new Uint8Array(f.bytes)], { type: f.type ?? 'application/octet-stream' }), f.name);
  return client.request('POST', '/api/file/upload', { body: form });
}

describe('file upload, preview and download', () => {
  let server: TestServer;
  let producer: ApiClient;
  let filesDir: string;

  beforeAll(async () => {
    server = await startTestServer({ maxUploadBytes: LIMIT });
    filesDir = server.config.filesDir;
    producer = await server.login('producer');
  });
  afterAll(() => server?.close());

  it('stores an image under an opaque dated path and previews the same bytes inline', async () => {
    const r = await upload(producer, [{ name: '危废标签照片.png', bytes: PNG, type: 'image/png' }], 'labelPhoto');
    expect(r.status).toBe(200);
    expect(r.body.status).toBe(200);
    expect(r.body.fileName).toBe('危废标签照片.png');
    expect(r.body.columnName).toBe('labelPhoto');
    expect(r.body.filePath).toMatch(/^\d{4}\/\d{2}\/[0-9a-f]{24}\.png$/);
    expect(readFileSync(join(filesDir, r.body.filePath))).toEqual(PNG);

    const preview = await producer.get('/api/file/preview', { source: r.body.filePath });
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('image/png');
    expect(preview.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(Buffer.compare(preview.body as Buffer, PNG)).toBe(0);
  });

  it('downloads as an attachment carrying the Chinese file name (RFC 5987)', async () => {
    const up = await upload(producer, [{ name: 'contract.pdf', bytes: PDF }], 'filePath');
    expect(up.status).toBe(200);
    const r = await producer.get('/api/file/download', { source: up.body.filePath, fileName: '危险废物委托处置合同.pdf' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/pdf');
    const disposition = r.headers.get('content-disposition') ?? '';
    expect(disposition).toMatch(/^attachment;/);
    const star = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
    expect(star && decodeURIComponent(star)).toBe('危险废物委托处置合同.pdf');
    expect(Buffer.compare(r.body as Buffer, PDF)).toBe(0);

    // Without a fileName the uploaded name is used.
    const plain = await producer.get('/api/file/download', { source: up.body.filePath });
    expect(plain.headers.get('content-disposition')).toContain('filename="contract.pdf"');
  });

  it('saves a download under the extension of the stored bytes, whatever name the link asks for', async () => {
    // A picture whose bytes go on past the PNG header: saved as .hta or .html, it would run outside the browser.
    const up = await upload(producer, [
      { name: 'x.png', bytes: Buffer.concat([PNG, Buffer.from('<html><script>alert(1)</script></html>')]) },
    ]);
    expect(up.status).toBe(200);
    const names = async (fileName: string) => {
      const r = await producer.get('/api/file/download', { source: up.body.filePath, fileName });
      expect(r.status).toBe(200);
      const disposition = r.headers.get('content-disposition') ?? '';
      return [/filename="([^"]*)"/.exec(disposition)?.[1], decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1] ?? '')];
    };
    expect(await names('整改通知.hta')).toEqual(['____.hta.png', '整改通知.hta.png']);
    expect(await names('evil.html')).toEqual(['evil.html.png', 'evil.html.png']);
    expect(await names('run.bat ')).toEqual(['run.bat.png', 'run.bat.png']);
    // The right extension, in any case, is kept as asked.
    expect(await names('现场照片.PNG')).toEqual(['____.PNG', '现场照片.PNG']);
  });
  it('accepts the token in the query for preview links, and answers 401 without one', async () => {
    const up = await upload(producer, [{ name: 'a.png', bytes: PNG }]);
    const anonymous = await server.api.get('/api/file/preview', { source: up.body.filePath });
    expect(anonymous.status).toBe(401);
    const viaQuery = await server.api.get('/api/file/preview', { source: up.body.filePath, token: producer.token });
    expect(viaQuery.status).toBe(200);
    expect(Buffer.compare(viaQuery.body as Buffer, PNG)).toBe(0);
    const bareJwt = await server.api.get('/api/file/download', {
      source: up.body.filePath,
      token: producer.token!.replace(/^Bearer /, ''),
    });
    expect(bareJwt.status).toBe(200);
  });

  it('refuses uploads without a session', async () => {
    const r = await upload(server.api, [{ name: 'a.png', bytes: PNG }]);
    expect(r.status).toBe(401);
  });

  it('refuses types outside the whitelist with the exact message', async () => {
    for (const name of ['setup.exe', 'notes.txt', 'page.html', 'noextension']) {
      const r = await upload(producer, [{ name, bytes: PDF }]);
      expect(r.status, name).toBe(400);
      expect(r.body).toEqual({ status: 400, code: 'UPLOAD_TYPE_NOT_ALLOWED', message: TYPE_MESSAGE });
    }
  });

  it('refuses a file whose bytes do not match its extension, and keeps nothing', async () => {
    const before = storedFiles(filesDir);
    for (const [name, bytes] of [
      ['photo.png', PDF],
      ['scan.pdf', PNG],
      ['report.docx', PDF],
      ['sheet.xls', PNG],
      ['empty.jpg', Buffer.alloc(0)],
    ] as const) {
      const r = await upload(producer, [{ name, bytes }]);
      expect(r.status, name).toBe(400);
      expect(r.body).toEqual({ status: 400, code: 'UPLOAD_TYPE_NOT_ALLOWED', message: TYPE_MESSAGE });
    }
    expect(storedFiles(filesDir)).toEqual(before);
  });

  it('refuses a file over the size limit and leaves no file on disk', async () => {
    const before = storedFiles(filesDir);
    const big = Buffer.concat([PNG, Buffer.alloc(LIMIT * 4, 7)]);
    const r = await upload(producer, [{ name: 'big.png', bytes: big }]);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(refusal(400, 'FILE_TOO_LARGE'));
    expect(storedFiles(filesDir)).toEqual(before);
    const rows = await server.ctx.db.selectFrom('file_record').select('file_name').where('file_name', '=', 'big.png').execute();
    expect(rows).toEqual([]);
  });

  it('asks for a file when none is sent, and takes only one per call', async () => {
    const none = await upload(producer, [], 'filePath');
    expect(none.status).toBe(400);
    expect(none.body).toEqual(refusal(400, 'UPLOAD_FILE_REQUIRED'));

    const before = storedFiles(filesDir);
    const two = await upload(producer, [
      { name: 'a.png', bytes: PNG },
      { name: 'b.png', bytes: PNG },
    ]);
    expect(two.status).toBe(400);
    expect(two.body).toEqual({ status: 400, code: 'TOO_MANY_FILES', message: '文件数量超过限定个数' });
    expect(storedFiles(filesDir)).toEqual(before);

    const notMultipart = await producer.post('/api/file/upload', { file: 'x' });
    expect(notMultipart.status).toBe(400);
  });

  it('serves only recorded files: traversal, absolute and unknown paths are 404', async () => {
    for (const source of [
      '../../../../etc/passwd',
      '/etc/passwd',
      '2026/01/../../../etc/passwd',
      '..%2F..%2Fetc%2Fpasswd',
      '2026/01/0123456789abcdef01234567.png',
      '',
    ]) {
      for (const path of ['/api/file/preview', '/api/file/download']) {
        const r = await producer.get(path, { source });
        expect(r.status, `${path} ${source}`).toBe(404);
        expect(r.body).toEqual(refusal(404, 'FILE_NOT_FOUND'));
      }
    }
    const missing = await producer.get('/api/file/preview');
    expect(missing.status).toBe(404);
  });
});

describe('big-screen images without a session', () => {
  let server: TestServer;
  let admin: ApiClient;
  // A real 1x1 lossless WebP.
  const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

  beforeAll(async () => {
    server = await startTestServer({ signSecret: 'files-sign-secret' });
    admin = await server.login('admin');
  });
  afterAll(() => server?.close());

  it('serves uploaded png and webp images at /api/open/image to a browser with no token and no signature', async () => {
    for (const [name, bytes, type] of [
      ['header.webp', WEBP, 'image/webp'],
      ['bg.png', PNG, 'image/png'],
    ] as const) {
      const up = await upload(admin, [{ name, bytes, type }], 'bgImg', true);
      expect(up.body.status, name).toBe(200);
      const res = await fetch(`${server.url}/api/open/image?source=${encodeURIComponent(up.body.filePath)}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('cache-control')).toMatch(/public/);
      expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), bytes)).toBe(0);
    }
  });

  it('serves no documents, no image uploaded without open, no unknown paths and no traversal there', async () => {
    const pdf = await upload(admin, [{ name: 'contract.pdf', bytes: PDF }], undefined, true);
    expect(pdf.body.status).toBe(200);
    // A record's picture (a licence photo, say) is read with a session only.
    const licence = await upload(admin, [{ name: 'licence.png', bytes: PNG, type: 'image/png' }], 'licence');
    expect(licence.body.status).toBe(200);
    const withSession = await admin.request('GET', '/api/file/preview', { query: { source: licence.body.filePath } });
    expect(withSession.status).toBe(200);
    for (const source of [pdf.body.filePath, licence.body.filePath, '2026/01/0123456789abcdef01234567.png', '../../etc/passwd', '']) {
      const res = await fetch(`${server.url}/api/open/image?source=${encodeURIComponent(source)}`);
      expect(res.status, source).toBe(404);
    }
    // The session-bound preview still needs a session.
    const sessionOnly = await fetch(`${server.url}/api/file/preview?source=${encodeURIComponent(pdf.body.filePath)}`);
    expect(sessionOnly.status).toBe(401);
  });

  it('refuses a file named .webp whose bytes are not WebP', async () => {
    const r = await upload(admin, [{ name: 'fake.webp', bytes: PNG }]);
    expect(r.body).toEqual({ status: 400, code: 'UPLOAD_TYPE_NOT_ALLOWED', message: TYPE_MESSAGE });
  });
});
