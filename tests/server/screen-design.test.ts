import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Saving a design, of a big screen or a view: the integer version the designer read keeps two
 * administrators from overwriting each other's saves, however close together they come; a client
 * that sends none saves as before.
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
const titleOf = (disTemplate: string) => JSON.parse(disTemplate).canvasConfigure.mainTitle.content as string;

async function newScreen(): Promise<{ id: number; version: number }> {
  const add = await admin.post('/api/screen/add', { name: '并发保存', type: 2, status: 1 });
  expect(add.status, JSON.stringify(add.body)).toBe(200);
  const detail = await admin.get('/api/screen/detail', { id: add.body.id });
  return { id: add.body.id as number, version: detail.body.version as number };
}

describe('POST /api/screen/design with version', () => {
  it('saves from the current version and answers the next one', async () => {
    const { id, version } = await newScreen();
    expect(version).toBe(0);
    const res = await admin.post('/api/screen/design', { id, disTemplate: template('一'), version });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ status: 200, message: '保存成功', version: 1 });
    const detail = await admin.get('/api/screen/detail', { id });
    expect(detail.body.version).toBe(1);
    expect(titleOf(detail.body.disTemplate)).toBe('一');
  });

  it('refuses with 409 the second of two saves from one version at once, and keeps the first', async () => {
    const { id, version } = await newScreen();
    const before = (await admin.get('/api/screen/detail', { id })).body;
    // Both sent together, so they land within the same second: the version, not the time, tells them apart.
    const [a, b] = await Promise.all([
      admin.post('/api/screen/design', { id, disTemplate: template('甲'), version }),
      admin.post('/api/screen/design', { id, disTemplate: template('乙'), version }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const [won, lost] = a.status === 200 ? [a, b] : [b, a];
    expect(lost.body).toEqual(refusal(409, 'SCREEN_CONFLICT'));
    const detail = (await admin.get('/api/screen/detail', { id })).body;
    expect(detail.version).toBe(won.body.version);
    expect(detail.version).toBe(version + 1);
    expect(titleOf(detail.disTemplate)).toBe(won === a ? '甲' : '乙');
    expect(detail.updateTime >= before.updateTime).toBe(true);
  });

  it('refuses a save from a version saved over, in the same second, and keeps that save', async () => {
    const { id, version } = await newScreen();
    const first = await admin.post('/api/screen/design', { id, disTemplate: template('管理员'), version });
    expect(first.body.version).toBe(version + 1);
    const late = await admin.post('/api/screen/design', { id, disTemplate: template('迟到的'), version });
    expect(late.status).toBe(409);
    const detail = await admin.get('/api/screen/detail', { id });
    expect(titleOf(detail.body.disTemplate)).toBe('管理员');
    expect(detail.body.version).toBe(version + 1);
    // Saving again from the version just read goes through.
    const again = await admin.post('/api/screen/design', { id, disTemplate: template('迟到的'), version: detail.body.version });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.version).toBe(version + 2);
  });

  it('counts a change from 大屏管理 as a save: the designer opened before it is refused', async () => {
    const { id, version } = await newScreen();
    const renamed = await admin.post('/api/screen/update', { id, name: '改名', version });
    expect(renamed.body).toEqual({ status: 200, message: '操作成功', version: version + 1 });
    expect((await admin.post('/api/screen/update', { id, name: '再改', version })).status).toBe(409);
    expect((await admin.get('/api/screen/detail', { id })).body.name).toBe('改名');
    expect((await admin.post('/api/screen/design', { id, disTemplate: template('x'), version })).status).toBe(409);
  });

  it('overwrites without a version, as an older client does', async () => {
    const { id, version } = await newScreen();
    expect((await admin.post('/api/screen/design', { id, disTemplate: template('一'), version })).status).toBe(200);
    const old = await admin.post('/api/screen/design', { id, disTemplate: template('旧客户端') });
    expect(old.status, JSON.stringify(old.body)).toBe(200);
    expect(old.body.version).toBe(version + 2);
    const detail = await admin.get('/api/screen/detail', { id });
    expect(titleOf(detail.body.disTemplate)).toBe('旧客户端');
  });

  it('still checks permission and the template before the version', async () => {
    const { id, version } = await newScreen();
    expect((await supervisor.post('/api/screen/design', { id, disTemplate: template('x'), version })).status).toBe(403);
    const bad = JSON.stringify({
      layout: [{ i: 'a', chart: [{ fileName: 'pie', configure: { private: { radiusInside: 90, radiusOutSide: 10 } } }] }],
    });
    expect((await admin.post('/api/screen/design', { id, disTemplate: bad, version })).status).toBe(400);
    expect((await admin.post('/api/screen/design', { id, disTemplate: template('x'), version: -1 })).status).toBe(400);
    expect((await admin.get('/api/screen/detail', { id })).body.version).toBe(version);
  });
});

describe('POST /api/generation/design with version', () => {
  const field = (name: string, chName: string) => ({ name, chName, dataType: 'varchar', configure: {} });
  const viewTemplate = (chName: string) => JSON.stringify({ tableOption: [field('title', chName)] });
  const chNameOf = (disTemplate: string) => JSON.parse(disTemplate).tableOption[0].chName as string;

  async function newView(componentName: string): Promise<{ id: number; version: number }> {
    const add = await admin.post('/api/generation/add', { name: componentName, disMenu: { componentName, name: componentName } });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    const detail = await admin.get('/api/generation/detail', { id: add.body.id });
    return { id: add.body.id as number, version: detail.body.version as number };
  }

  it('refuses with 409 the second of two saves from one version at once, and keeps the first', async () => {
    const { id, version } = await newView('versionRace');
    expect(version).toBe(0);
    const [a, b] = await Promise.all([
      admin.post('/api/generation/design', { id, disTemplate: viewTemplate('甲'), version }),
      admin.post('/api/generation/design', { id, disTemplate: viewTemplate('乙'), version }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const [won, lost] = a.status === 200 ? [a, b] : [b, a];
    expect(won.body).toEqual({ status: 200, message: '保存成功', version: 1 });
    expect(lost.body).toEqual(refusal(409, 'VIEW_CONFLICT'));
    const detail = (await admin.get('/api/generation/detail', { id })).body;
    expect(detail.version).toBe(1);
    expect(chNameOf(detail.disTemplate)).toBe(won === a ? '甲' : '乙');
  });

  it('refuses a save from a version saved over, changing neither the definition nor its table', async () => {
    const { id, version } = await newView('versionLate');
    expect((await admin.post('/api/generation/design', { id, disTemplate: viewTemplate('标题'), version })).status).toBe(200);
    const late = await admin.post('/api/generation/design', {
      id,
      version,
      disTemplate: JSON.stringify({ tableOption: [field('title', '迟到的'), field('extra', '多出的列')] }),
    });
    expect(late.status).toBe(409);
    const detail = (await admin.get('/api/generation/detail', { id })).body;
    expect(detail.version).toBe(version + 1);
    expect(JSON.parse(detail.disTemplate).tableOption.map((f: { name: string }) => f.name)).toEqual(['title']);
    const columns = await sql<{ name: string }>`
      select attname as name from pg_attribute
      where attrelid = to_regclass(${`lc_view_${id}`}) and attnum > 0 and not attisdropped`.execute(server.ctx.db);
    expect(columns.rows.map((c) => c.name)).toContain('title');
    expect(columns.rows.map((c) => c.name)).not.toContain('extra');
  });

  it('counts a rename and a push of the template as saves, and publishing as none', async () => {
    const { id, version } = await newView('versionRename');
    const designed = await admin.post('/api/generation/design', { id, disTemplate: viewTemplate('标题'), version });
    const renamed = await admin.post('/api/generation/update', { id, name: '改名', version: designed.body.version });
    expect(renamed.body).toEqual({ status: 200, message: '操作成功', version: version + 2 });
    expect((await admin.post('/api/generation/update', { id, name: '再改', version: designed.body.version })).status).toBe(409);
    const pushed = await admin.post('/api/generation/update', {
      id,
      name: '改名',
      disTemplate: viewTemplate('推送'),
      version: version + 2,
    });
    expect(pushed.body.version).toBe(version + 3);
    expect((await admin.post('/api/generation/publish', { id })).status).toBe(200);
    const detail = (await admin.get('/api/generation/detail', { id })).body;
    expect(detail).toMatchObject({ name: '改名', status: 1, version: version + 3 });
    expect(chNameOf(detail.disTemplate)).toBe('推送');
  });
});
