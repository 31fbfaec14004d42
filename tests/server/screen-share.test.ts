import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../src/shared/error-catalogue.js';
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

/** The share link's query as the open calls take it. */
const paramsOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

async function share(id = 50, expiresIn: unknown = 3600): Promise<Record<string, string>> {
  const res = await admin.post('/api/screen/share', { id, expiresIn });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.url).toMatch(/^\/lsPreview\?lsId=\d+&accessKey=[\w-]+&timestamp=\d+&signature=[0-9a-f]{64}$/);
  expect(res.body.expiresAt).toBeGreaterThan(Date.now());
  return paramsOf(res.body.url);
}

describe('big-screen share links', () => {
  it('opens a screen, its city rows and its data views without a session, never cached', async () => {
    const p = await share();
    const screen = await server.api.get('/api/open/getGeneralScreen', p);
    expect(screen.status).toBe(200);
    expect(screen.headers.get('cache-control')).toBe('no-store');
    expect(screen.body).toMatchObject({ id: 50, type: 2, status: 1 });
    expect(JSON.parse(screen.body.disTemplate).layout.length).toBeGreaterThan(0);

    const cities = await server.api.get('/api/open/getCityInfo', p);
    expect(cities.status).toBe(200);
    expect(cities.body.length).toBeGreaterThan(0);
    expect(Object.keys(cities.body[0])).toEqual(['city', 'transactionAmount', 'paidAmount']);

    // The demo screen's charts: monthly disposal, latest orders, site figures, categories.
    for (const dataViewId of [7, 8, 9, 2, 5]) {
      const rows = await server.api.get('/api/open/data', { ...p, dataViewId });
      expect(rows.status, JSON.stringify(rows.body)).toBe(200);
      expect(rows.headers.get('cache-control')).toBe('no-store');
      expect(rows.body).toMatchObject({ id: dataViewId, truncated: false });
      expect(rows.body.list.length).toBeGreaterThan(0);
    }
    // A data view the screen no longer uses is refused.
    expect((await server.api.get('/api/open/data', { ...p, dataViewId: 3 })).status).toBe(403);
    // The open call also takes the screen id as `id`.
    const { lsId, ...rest } = p;
    expect((await server.api.get('/api/open/getGeneralScreen', { ...rest, id: lsId })).status).toBe(200);
  });

  it('answers only for the data views the screen uses', async () => {
    const p = await share();
    const other = await admin.post('/api/data/add', { name: '企业数', sql: 'select count(*) as n from company' });
    const res = await server.api.get('/api/open/data', { ...p, dataViewId: other.body.id });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(refusal(403, 'SHARE_DATA_VIEW_NOT_USED'));
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await server.api.get('/api/open/data', p)).status).toBe(400);
  });

  it('refuses a tampered link, another screen, an expired link and a missing parameter', async () => {
    const p = await share();
    const refused = async (q: Record<string, unknown>, status: number, code: ErrorCode) => {
      const res = await server.api.get('/api/open/getGeneralScreen', q);
      expect(res.status, JSON.stringify(q)).toBe(status);
      expect(res.body).toEqual(refusal(status, code));
      expect(res.headers.get('cache-control')).toBe('no-store');
    };
    const flipped = `${p.signature?.slice(0, -1)}${p.signature?.endsWith('0') ? '1' : '0'}`;
    await refused({ ...p, signature: flipped }, 401, 'SHARE_INVALID');
    await refused({ ...p, lsId: '51' }, 401, 'SHARE_INVALID');
    await refused({ ...p, timestamp: String(Number(p.timestamp) + 1000) }, 401, 'SHARE_INVALID');
    await refused({ ...p, signature: undefined }, 401, 'SHARE_INVALID');
    await refused({ ...p, accessKey: 'x' }, 401, 'SHARE_INVALID');

    // A link whose expiry has passed: the shortest allowed link, checked with a clock past its end.
    const { verifyShare } = await import('../../server/lowcode/screen-share.js');
    await expect(verifyShare(server.ctx, p, Number(p.timestamp) + 1)).rejects.toMatchObject({ statusCode: 401, code: 'SHARE_EXPIRED' });
  });

  it('revokes every earlier link when the access key is renewed', async () => {
    const before = await share();
    const alsoBefore = await share(50, 120);
    expect(before.accessKey).toBe(alsoBefore.accessKey);
    expect((await producer.post('/api/screen/renewKey', { id: 50 })).status).toBe(403);
    expect((await admin.post('/api/screen/renewKey', { id: 50 })).status).toBe(200);
    for (const p of [before, alsoBefore]) {
      const res = await server.api.get('/api/open/getGeneralScreen', p);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(refusal(403, 'SHARE_REVOKED'));
    }
    const after = await share();
    expect(after.accessKey).not.toBe(before.accessKey);
    // At least 128 random bits.
    expect(Buffer.from(after.accessKey as string, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    expect((await server.api.get('/api/open/getGeneralScreen', after)).status).toBe(200);
  });

  it('needs the edit permission, a big screen and a sensible lifetime', async () => {
    expect((await producer.post('/api/screen/share', { id: 50, expiresIn: 3600 })).status).toBe(403);
    expect((await server.api.post('/api/screen/share', { id: 50, expiresIn: 3600 })).status).toBe(401);
    expect((await admin.post('/api/screen/share', { id: 97, expiresIn: 3600 })).body).toEqual(refusal(400, 'SHARE_NOT_BIG_SCREEN'));
    expect((await admin.post('/api/screen/share', { id: 4242, expiresIn: 3600 })).status).toBe(404);
    for (const expiresIn of [0, 59, 'soon', 1.5, 400 * 86400]) {
      expect((await admin.post('/api/screen/share', { id: 50, expiresIn })).status, String(expiresIn)).toBe(400);
    }
  });

  it('keeps a disabled screen dark: its template and its data are refused with the reason', async () => {
    const p = await share(51);
    const screen = await server.api.get('/api/open/getGeneralScreen', p);
    for (const res of [
      screen,
      await server.api.get('/api/open/getCityInfo', p),
      await server.api.get('/api/open/data', { ...p, dataViewId: 8 }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(refusal(403, 'SCREEN_NOT_ENABLED'));
    }
  });
});
