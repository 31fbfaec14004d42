import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';

interface City {
  code: string;
  name: string;
  companies: number;
}

describe('personal centre and leave-message reads', () => {
  let server: TestServer;
  let admin: ApiClient;
  let producer: ApiClient;
  let disposer: ApiClient;

  beforeAll(async () => {
    server = await startTestServer();
    [admin, producer, disposer] = await Promise.all([server.login('admin'), server.login('producer'), server.login('disposer')]);
  });
  afterAll(() => server?.close());

  it('needs a session', async () => {
    expect((await server.api.get('/api/users/center/cities')).status).toBe(401);
    expect((await server.api.get('/api/leaveMessage/readOne', { id: 1 })).status).toBe(401);
  });

  it("lists the cities of the user's province with the live companies in each, busiest first", async () => {
    const r = await producer.get('/api/users/center/cities');
    expect(r.status).toBe(200);
    const { province, cities } = r.body as { province: { code: string; name: string }; cities: City[] };
    const { db } = server.ctx;
    const own = await db
      .selectFrom('sys_user as u')
      .innerJoin('company as c', 'c.id', 'u.company_id')
      .select('c.region')
      .where('u.username', '=', 'producer')
      .executeTakeFirstOrThrow();
    expect(province.code).toBe(own.region!.split(',')[0]);
    const regionCities = await db.selectFrom('region').select('code').where('parent_code', '=', province.code).execute();
    expect(cities.map((c) => c.code).sort()).toEqual(regionCities.map((c) => c.code).sort());
    const counts = cities.map((c) => c.companies);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);

    // Counted from the company table: one more live company in the last city moves its figure.
    const last = cities.at(-1)!;
    await db
      .insertInto('company')
      .values({
        name: '测试城市计数企业',
        type: '1',
        region: `${province.code},${last.code}`,
        region_fmt: `${province.name}/${last.name}`,
        status: 1,
      })
      .execute();
    const after = (await producer.get('/api/users/center/cities')).body.cities as City[];
    expect(after.find((c) => c.code === last.code)!.companies).toBe(last.companies + 1);
    // A disabled company is not counted.
    await db
      .insertInto('company')
      .values({
        name: '测试停用企业',
        type: '1',
        region: `${province.code},${last.code}`,
        region_fmt: `${province.name}/${last.name}`,
        status: 0,
      })
      .execute();
    const again = (await producer.get('/api/users/center/cities')).body.cities as City[];
    expect(again.find((c) => c.code === last.code)!.companies).toBe(last.companies + 1);

    // A user without a company sees the province where most companies are.
    const adminCities = await admin.get('/api/users/center/cities');
    expect(adminCities.status).toBe(200);
    expect(adminCities.body.province).not.toBeNull();
  });

  it('reads one leave message of its recipient, marking it read', async () => {
    const sent = await producer.post('/api/leaveMessage', { content: '下周一安排收运，请回复。', reception: 'disposer' });
    expect(sent.status).toBe(200);
    const unread = await disposer.get('/api/unreadLeaveMessage', { page: 1, size: 1 });
    expect(unread.body.content[0].content).toBe('下周一安排收运，请回复。');
    const id = unread.body.content[0].id as number;
    const before = (await disposer.get('/api/sysMessage/getUnreadNum')).body.data.leaveNum as number;

    // Not the sender's, nor anyone else's.
    expect((await producer.get('/api/leaveMessage/readOne', { id })).status).toBe(404);
    expect((await disposer.get('/api/leaveMessage/readOne', { id: 'x' })).status).toBe(400);

    const r = await disposer.get('/api/leaveMessage/readOne', { id });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      id,
      content: '下周一安排收运，请回复。',
      senderName: expect.any(String),
      senderUsername: 'producer',
      senderCompany: expect.any(String),
      createTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    expect((await disposer.get('/api/sysMessage/getUnreadNum')).body.data.leaveNum).toBe(before - 1);
    const list = await disposer.get('/api/unreadLeaveMessage', { page: 1, size: 100 });
    expect(list.body.content.map((m: { id: number }) => m.id)).not.toContain(id);
  });
});
