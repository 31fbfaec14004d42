import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWorkbook } from '../../server/lowcode/xlsx.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let producer: ApiClient;
let disposer: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  producer = await server.login('producer');
  disposer = await server.login('disposer');
});
afterAll(async () => {
  await server?.close();
});

interface Code {
  codeNum: string;
  operateDept: string | null;
  createTime: string;
}

describe('QR label batches', () => {
  it('stores each code once, with the user and the createTime it answers', async () => {
    const { data } = (await producer.get('/api/materialsCode/saveBatch', { createNum: 7 })).body as { data: Code[] };
    expect(data).toHaveLength(7);
    const stored = await server.ctx.db
      .selectFrom('materials_code as m')
      .innerJoin('sys_user as u', 'u.id', 'm.user_id')
      .select(['m.code_num', 'm.operate_dept', 'u.username'])
      .where(
        'm.code_num',
        'in',
        data.map((c) => c.codeNum),
      )
      .execute();
    expect(stored).toHaveLength(7);
    expect(new Set(stored.map((r) => r.username))).toEqual(new Set(['producer']));
    expect(stored.every((r) => r.operate_dept === data[0]?.operateDept)).toBe(true);
    expect(new Set(data.map((c) => c.createTime)).size).toBe(1);
  });

  it('downloads one batch as a spreadsheet, for the user who made it only', async () => {
    await producer.get('/api/materialsCode/saveBatch', { createNum: 2 });
    const { data } = (await producer.get('/api/materialsCode/saveBatch', { createNum: 4 })).body as { data: Code[] };
    const createTime = data[0]?.createTime ?? '';
    const res = await producer.get('/api/materialsCode/download', { createTime });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(encodeURIComponent('二维码清单'));
    const sheet = await readWorkbook(res.body as Buffer);
    expect(sheet.header).toEqual(['编码', '操作部门', '生成时间', '二维码内容']);
    // Batches made within the same second by the same user are one list; this one holds at least its 4.
    const codes = sheet.rows.map((r) => r[0]);
    for (const c of data) {
      expect(codes).toContain(c.codeNum);
      const row = sheet.rows.find((r) => r[0] === c.codeNum);
      expect(row).toEqual([c.codeNum, c.operateDept ?? '', c.createTime, `${c.codeNum}_${c.operateDept ?? ''}_${c.createTime}`]);
    }
    expect((await disposer.get('/api/materialsCode/download', { createTime })).status).toBe(404);
    expect((await server.api.get('/api/materialsCode/download', { createTime })).status).toBe(401);
    expect((await producer.get('/api/materialsCode/download', { createTime: 'yesterday' })).status).toBe(400);
  });
});
