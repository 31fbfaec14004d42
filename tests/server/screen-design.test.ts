import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Saving a big screen's design: the optional updateTime the designer read keeps two administrators
 * from overwriting each other's saves; a client that sends none saves as before.
 */

let server: TestServer;
let admin: ApiClient;
let supervisor: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
  supervisor = await server.login('supervisor');
});
afterAll(async () => {
  await server?.close();
});

const template = (title: string) =>
  JSON.stringify({
    canvasConfigure: { basic: { width: 1920, height: 1080 }, mainTitle: { content: title } },
    layout: [
      {
        i: 'c1',
        x: 0,
        y: 0,
        w: 6,
        h: 18,
        container: {},
        chart: [{ fileName: 'radar', chartIndex: 0, flexSize: 1, configure: { common: {}, private: {} } }],
      },
    ],
  });

async function newScreen(): Promise<{ id: number; updateTime: string }> {
  const add = await admin.post('/api/screen/add', { name: '并发保存', type: 2, status: 1 });
  expect(add.status, JSON.stringify(add.body)).toBe(200);
  const detail = await admin.get('/api/screen/detail', { id: add.body.id });
  return { id: add.body.id as number, updateTime: detail.body.updateTime as string };
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('POST /api/screen/design with updateTime', () => {
  it('saves from the current version and answers the new updateTime', async () => {
    const { id, updateTime } = await newScreen();
    await wait(1100);
    const res = await admin.post('/api/screen/design', { id, disTemplate: template('一'), updateTime });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe('保存成功');
    expect(res.body.updateTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(res.body.updateTime).not.toBe(updateTime);
    const detail = await admin.get('/api/screen/detail', { id });
    expect(detail.body.updateTime).toBe(res.body.updateTime);
    expect(JSON.parse(detail.body.disTemplate).canvasConfigure.mainTitle.content).toBe('一');
  });

  it('refuses with 409 a save from a version someone else has saved over, and keeps their save', async () => {
    const { id, updateTime } = await newScreen();
    await wait(1100);
    const first = await admin.post('/api/screen/design', { id, disTemplate: template('管理员'), updateTime });
    expect(first.status).toBe(200);
    const late = await admin.post('/api/screen/design', { id, disTemplate: template('迟到的'), updateTime });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('该大屏已被他人修改并保存，请重新加载或确认覆盖');
    const detail = await admin.get('/api/screen/detail', { id });
    expect(JSON.parse(detail.body.disTemplate).canvasConfigure.mainTitle.content).toBe('管理员');
    // Saving again from the version just read goes through.
    const again = await admin.post('/api/screen/design', { id, disTemplate: template('迟到的'), updateTime: detail.body.updateTime });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });

  it('overwrites without updateTime, as an older client does', async () => {
    const { id, updateTime } = await newScreen();
    await wait(1100);
    expect((await admin.post('/api/screen/design', { id, disTemplate: template('一'), updateTime })).status).toBe(200);
    const old = await admin.post('/api/screen/design', { id, disTemplate: template('旧客户端') });
    expect(old.status, JSON.stringify(old.body)).toBe(200);
    const detail = await admin.get('/api/screen/detail', { id });
    expect(JSON.parse(detail.body.disTemplate).canvasConfigure.mainTitle.content).toBe('旧客户端');
  });

  it('still checks permission and the template before the version', async () => {
    const { id, updateTime } = await newScreen();
    expect((await supervisor.post('/api/screen/design', { id, disTemplate: template('x'), updateTime })).status).toBe(403);
    const bad = JSON.stringify({
      layout: [{ i: 'a', chart: [{ fileName: 'pie', configure: { private: { radiusInside: 90, radiusOutSide: 10 } } }] }],
    });
    expect((await admin.post('/api/screen/design', { id, disTemplate: bad, updateTime })).status).toBe(400);
  });
});
