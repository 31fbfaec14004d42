import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

/** The server refuses a design that `wastegen generate` would refuse, so CI can never break on one. */
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
});
afterAll(async () => server?.close());

const field = (name: string, configure: Record<string, unknown> = {}) => ({ name, chName: name, dataType: 'varchar', configure });

describe('design validation shared with the CLI', () => {
  it('refuses a view design the generator would refuse, naming the JSON pointer, and keeps the old design', async () => {
    const add = await admin.post('/api/generation/add', {
      name: '校验视图',
      disMenu: JSON.stringify({ componentName: 'checked', name: '校验视图' }),
    });
    const id = add.body.id as number;
    const good = { tableOption: [field('title')], formOption: [field('title', { required: true })] };
    expect((await admin.post('/api/generation/design', { id, disTemplate: JSON.stringify(good) })).status).toBe(200);

    const bad = {
      ...good,
      formOption: [field('title', { required: true, showRelation: { item: ['ghost'], value: '1' } })],
      btnDIYOption: [{ name: 'go', chName: '去', configure: { position: 'opt', action: 'submit' } }],
    };
    const res = await admin.post('/api/generation/design', { id, disTemplate: JSON.stringify(bad) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('DEFINITION_INVALID');
    expect(res.body.message).toContain('/disTemplate/formOption/0/configure/showRelation/item');
    expect(res.body.message).toContain('/disTemplate/btnDIYOption/0/configure/submitUrl');

    const detail = await admin.get('/api/generation/detail', { id });
    expect(JSON.parse(detail.body.disTemplate)).toEqual(good);
  });

  it('refuses a big-screen design with an inner pie radius above the outer one', async () => {
    const add = await admin.post('/api/screen/add', { name: '校验大屏', type: 2, disMenu: { name: '校验大屏' } });
    const chart = { fileName: 'pie', chartIndex: 0, configure: { private: { radiusInside: 80, radiusOutSide: 40 } } };
    const res = await admin.post('/api/screen/design', {
      id: add.body.id,
      disTemplate: { layout: [{ i: 'a', x: 0, y: 0, w: 6, h: 6, chart: [chart] }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('DEFINITION_INVALID');
    expect(res.body.message).toContain('/disTemplate/layout/0/chart/0/configure/private/radiusInside');
  });
});
