import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { sheetRows, uploadFile } from '../helpers/sheets.js';
import { field } from '../helpers/wire-field.js';
import { plainXlsx } from '../helpers/xlsx-files.js';

// A field's pattern is written by a page's designer and tested by the server against what anyone
// submits. A pattern that backtracks must not hold the server: it is stopped at its time limit, the
// value is refused with a message naming the field, and the pattern is not run again.

let server: TestServer;
let admin: ApiClient;
let viewId: number;

const SLOW = '^(a+)+$';
// 2^30 steps: seconds without a limit, so that a server without one fails here rather than hanging.
const HOSTILE = `${'a'.repeat(30)}!`;
const TOO_COMPLEX = '编号的格式规则过于复杂，无法校验，请联系管理员';
const BUSY = '编号暂时无法按格式规则校验，请稍后重试';

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
  const add = await admin.post('/api/generation/add', {
    name: '格式规则',
    disMenu: JSON.stringify({ componentName: 'fieldPatterns', name: '格式规则' }),
  });
  viewId = add.body.id;
  const design = await admin.post('/api/generation/design', {
    id: viewId,
    disTemplate: JSON.stringify({
      basicOption: { sortName: 'id', sortType: 'asc' },
      tableOption: [
        field('plate', '车牌', 'varchar'),
        field('code', '编号', 'varchar'),
        field('mail', '邮箱', 'varchar'),
        field('serial', '序号', 'varchar'),
      ],
      formOption: [
        field('plate', '车牌', 'varchar', { required: true, pattern: '^[A-Z]{2}\\d{4}$' }),
        field('code', '编号', 'varchar', { pattern: SLOW }),
        field('mail', '邮箱', 'varchar', { pattern: '^[\\w.-]+@[\\w-]+\\.[a-z]{2,}$' }),
        // Run by the import only, so that its first crafted value meets a pattern not yet stopped.
        field('serial', '序号', 'varchar', { pattern: '^(c+)+$' }),
      ],
    }),
  });
  expect(design.status).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

describe('field patterns on the server', () => {
  it('check values as the form does, linear shapes and others alike', async () => {
    const ok = await admin.post(`/api/general/add/${viewId}`, { plate: 'AB1234', code: 'aaa', mail: 'a.b@c-d.cn' });
    expect(ok.status).toBe(200);
    const bad = await admin.post(`/api/general/add/${viewId}`, { plate: 'ab1234', code: 'b', mail: 'a.b@c' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['plate', 'code', 'mail']);
  });

  it('stop a pattern that backtracks on a crafted value, refuse the value, and keep serving', async () => {
    const [slow, list] = await Promise.all([
      admin.post(`/api/general/add/${viewId}`, { plate: 'AB1235', code: HOSTILE }),
      admin.get(`/api/general/list/${viewId}`, { size: 10 }),
    ]);
    // The server's thread waited 50 ms for the worker, refused the value, and answered the list.
    expect(slow.status).toBe(400);
    expect(slow.body.errors).toEqual([{ field: 'code', message: BUSY }]);
    expect(list.status).toBe(200);
    // Once the worker is judged the pattern is not run again: a value it would pass is refused too,
    // until the designer changes it.
    await vi.waitFor(
      async () => {
        const after = await admin.post(`/api/general/add/${viewId}`, { plate: 'AB1236', code: 'aaa' });
        expect(after.body.errors).toEqual([{ field: 'code', message: TOO_COMPLEX }]);
      },
      { timeout: 30_000, interval: 100 },
    );
    // Other fields and views are checked as before.
    const other = await admin.post(`/api/general/add/${viewId}`, { plate: 'AB1237', mail: 'x@y.cn' });
    expect(other.status).toBe(200);
  });

  it('refuse every row of an import holding crafted values, at the cost of one wait, not one per row', async () => {
    const crafted = `${'c'.repeat(27)}!`;
    const rows = [['车牌', '序号'], ...Array.from({ length: 400 }, (_, i) => [`CD${String(i).padStart(4, '0')}`, crafted])];
    const res = await uploadFile(admin, viewId, '格式.xlsx', plainXlsx(rows));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-import-success')).toBe('0');
    expect(res.headers.get('x-import-failed')).toBe('400');
    const verdicts = (await sheetRows(res.body as Buffer)).slice(1).map((r) => r.at(-1));
    // The first row's test outlived the wait; every row after it waits for the judgement with it.
    expect(new Set(verdicts)).toEqual(new Set(['序号暂时无法按格式规则校验，请稍后重试']));
  });

  it('check a sound import of a thousand rows against a pattern on the worker, every row', async () => {
    const rows = [
      ['车牌', '邮箱'],
      ...Array.from({ length: 1000 }, (_, i) => [`EF${String(i).padStart(4, '0')}`, `user.${i}@example-${i % 7}.cn`]),
    ];
    const res = await uploadFile(admin, viewId, '邮箱.xlsx', plainXlsx(rows));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-import-failed')).toBe('0');
    expect(res.headers.get('x-import-success')).toBe('1000');
  }, 60_000);

  it('answer a changed pattern at once: the refusal belongs to the pattern, not to the field', async () => {
    const design = await admin.post('/api/generation/design', {
      id: viewId,
      disTemplate: JSON.stringify({
        basicOption: { sortName: 'id', sortType: 'asc' },
        tableOption: [field('plate', '车牌', 'varchar'), field('code', '编号', 'varchar'), field('mail', '邮箱', 'varchar')],
        formOption: [
          field('plate', '车牌', 'varchar', { required: true, pattern: '^[A-Z]{2}\\d{4}$' }),
          field('code', '编号', 'varchar', { pattern: '^a+$' }),
          field('mail', '邮箱', 'varchar'),
        ],
      }),
    });
    expect(design.status).toBe(200);
    expect((await admin.post(`/api/general/add/${viewId}`, { plate: 'AB1238', code: 'aaa' })).status).toBe(200);
    const hostile = await admin.post(`/api/general/add/${viewId}`, { plate: 'AB1239', code: HOSTILE });
    expect(hostile.body.errors).toEqual([{ field: 'code', message: '编号格式不正确' }]);
  });
});
