import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

// Forms send null for an empty picker (no parent, no department). Under request signing the
// server checks the signature against the parsed body, so null must stay null, not become 0.
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = await startTestServer({ signSecret: 'null-ids-secret' });
  admin = await server.login('admin');
});
afterAll(() => server?.close());

it('a top-level department (pid null) is created under signing', async () => {
  const r = await admin.post('/api/dept', { pid: null, name: '空上级部门', code: null, deptSort: 5, enabled: true });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const row = await server.ctx.db.selectFrom('sys_dept').select(['pid', 'sort']).where('id', '=', r.body.id).executeTakeFirstOrThrow();
  expect(row).toEqual({ pid: null, sort: 5 });
});

it('a user without a department (deptId null) is created and edited under signing', async () => {
  const r = await admin.post('/api/users', {
    username: 'nodept01',
    nickName: '无部门',
    phone: '13800005555',
    deptId: null,
    roles: [{ id: 3 }],
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect(r.body.deptId).toBeNull();
  const e = await admin.put('/api/users', { id: r.body.id, deptId: null, nickName: '仍无部门' });
  expect(e.status, JSON.stringify(e.body)).toBe(200);
  expect(e.body).toMatchObject({ deptId: null, nickName: '仍无部门' });
});
