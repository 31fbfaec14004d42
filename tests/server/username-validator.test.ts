import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { field } from '../helpers/wire-field.js';

/**
 * The specification's `username` validator (admin or editor): a view field that names it is refused by
 * the server with the form's message, exactly as the form refuses it; a name it accepts is stored.
 */

let server: TestServer;
let admin: ApiClient;
let viewId: number;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
  const add = await admin.post('/api/generation/add', {
    name: '账号登记',
    disMenu: JSON.stringify({ componentName: 'accountBook', name: '账号登记' }),
  });
  viewId = add.body.id;
  const template = {
    tableOption: [field('title', '名称', 'varchar'), field('account', '账号', 'varchar')],
    formOption: [field('title', '名称', 'varchar', { required: true }), field('account', '账号', 'varchar', { validator: 'username' })],
  };
  expect((await admin.post('/api/generation/design', { id: viewId, disTemplate: JSON.stringify(template) })).status).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

describe('the username validator', () => {
  it('refuses a name other than admin or editor with its message', async () => {
    const res = await admin.post(`/api/general/add/${viewId}`, { title: '一', account: 'bob' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      message: '用户名应为 admin 或 editor',
      errors: [{ field: 'account', message: '用户名应为 admin 或 editor' }],
    });
    const update = await admin.post(`/api/general/add/${viewId}`, { title: '二', account: 'Admin' });
    expect(update.status).toBe(400);
  });

  it('stores admin and editor, and an empty value', async () => {
    for (const account of ['admin', 'editor', '']) {
      const res = await admin.post(`/api/general/add/${viewId}`, { title: `账号${account}`, account });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const list = await admin.get(`/api/general/list/${viewId}`, { size: 10, sort: 'id,asc' });
    expect(list.body.content.map((r: { account: string | null }) => r.account)).toEqual(['admin', 'editor', null]);
  });

  it('is told from a misspelt name, which the designer refuses', async () => {
    const bad = await admin.post('/api/generation/design', {
      id: viewId,
      disTemplate: JSON.stringify({ tableOption: [field('account', '账号', 'varchar', { validator: 'userName' })] }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('/disTemplate/tableOption/0/configure/validator');
  });
});
