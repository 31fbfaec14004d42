import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseListQuery } from '../../server/lowcode/list-query.js';
import { countQuery, rowsJsonQuery } from '../../server/lowcode/list-sql.js';
import { rowSource } from '../../server/lowcode/memory-list-reader.js';
import type { RowIndexes } from '../../server/lowcode/row-index.js';
import { textSortsByBytes } from '../../server/lowcode/row-position.js';
import { designedView, lowcodeState } from '../../server/lowcode/view-store.js';
import { type ApiClient, freshPostgres, startTestServer, type TestServer } from '../helpers/server.js';
import { Client, type Pushed } from '../helpers/ws-client.js';

/**
 * Two instances of the server on one PostgreSQL database, as behind a load balancer: what one
 * instance changes, the other knows at once. Runs when TEST_DATABASE_URL points at a PostgreSQL
 * server (CI starts one); embedded PGlite serves a single instance only.
 */
const pgOnly = process.env.TEST_DATABASE_URL ? describe : describe.skip;

pgOnly('two instances on one PostgreSQL', () => {
  let database: { url: string; drop: () => Promise<void> };
  let a: TestServer;
  let b: TestServer;
  const sockets: Client[] = [];

  beforeAll(async () => {
    database = (await freshPostgres()) as { url: string; drop: () => Promise<void> };
    // Both start at once on an empty database: one migrates and seeds, the other waits and finds it done.
    [a, b] = await Promise.all([startTestServer({ databaseUrl: database.url }), startTestServer({ databaseUrl: database.url })]);
  }, 120_000);

  afterAll(async () => {
    for (const s of sockets) s.ws.close();
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  /** The same session, used through A and through B. */
  async function onBoth(username: string): Promise<[ApiClient, ApiClient]> {
    const viaA = await a.login(username);
    return [viaA, b.api.withToken(viaA.token)];
  }

  it("keeps B's rows in memory in step with A's record writes, without reading them again", async () => {
    const [viaA] = await onBoth('admin');
    const view = await designedView(b.ctx, 12);
    const indexes = lowcodeState(b.ctx).indexes as RowIndexes;
    const ask = () => indexes.ready(view, rowSource(b.ctx, view), textSortsByBytes(b.ctx));
    ask();
    const index = await vi.waitFor(
      () => {
        const i = ask();
        if (!i) throw new Error('not read yet');
        return i;
      },
      { timeout: 20_000, interval: 20 },
    );
    const seed = (await viaA.get('/api/general/list/12', { page: 0, size: 1 })).body.content[0];
    const { id: _id, createTime: _c, updateTime: _u, createBy: _b, warehouseIdFmt: _w, ...model } = seed;
    const mine: number[] = [];
    for (let n = 0; n < 12; n++) {
      const added = await viaA.post('/api/general/add/12', { ...model, stockNo: `RK2098${String(n).padStart(8, '0')}` });
      expect(added.status).toBe(200);
      mine.push(added.body.id);
    }
    await Promise.all([
      ...mine.slice(0, 4).map((id, n) => viaA.post('/api/general/update/12', { id, quantity: n + 0.25 })),
      viaA.post('/api/general/delete/12', mine.slice(8)),
    ]);
    // Whatever A committed before this call has been told to B.
    await b.ctx.bus.barrier();
    for (const params of [{}, { sort: 'quantity,desc' }, { sort: 'id,desc' }, { status: seed.status }]) {
      const q = parseListQuery(view, params, undefined);
      const json = (await rowsJsonQuery(view, q, 30, 0).execute(b.ctx.db)).rows[0]?.rows;
      const rows = typeof json === 'string' ? JSON.parse(json) : json;
      expect(index.page(q, 0, 30)?.rows, JSON.stringify(params)).toEqual(rows);
      expect(index.count(q)).toBe(Number((await countQuery(view, q).execute(b.ctx.db)).rows[0]?.n));
    }
    expect(ask()).toBe(index);
    expect(indexes.stats.broken).toBe(0);
  });

  it('migrated and seeded exactly once although both started together', async () => {
    const migrations = await sql<{ name: string; n: number }>`select name, count(*)::int as n from kysely_migration group by name`.execute(
      a.ctx.db,
    );
    expect(migrations.rows.length).toBeGreaterThan(0);
    expect(migrations.rows.every((r) => r.n === 1)).toBe(true);
    const admins = await sql<{ n: number }>`select count(*)::int as n from sys_user where username = 'admin'`.execute(a.ctx.db);
    expect(admins.rows[0]?.n).toBe(1);
    for (const s of [a, b]) {
      const health = await s.api.get('/api/health');
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({ database: 'up', bus: 'connected' });
    }
    expect((await a.api.get('/api/health')).body.instance).not.toBe((await b.api.get('/api/health')).body.instance);
  });

  it('refuses a session on B at once after it logged out on A', async () => {
    const [viaA, viaB] = await onBoth('producer');
    expect((await viaB.get('/api/auth/info')).status).toBe(200); // B now holds the session in its cache
    expect((await viaA.delete('/api/auth/logout')).status).toBe(200);
    expect((await viaB.get('/api/auth/info')).status).toBe(401);
  });

  it("shows a role change made on A in B's roles and menus", async () => {
    const admin = await a.login('admin');
    const [, producerOnB] = await onBoth('producer');
    const before = await producerOnB.get('/api/auth/info');
    const menusBefore = await producerOnB.get('/api/menus/build');
    const roles = await admin.get('/api/roles', { size: 100 });
    const role = roles.body.content.find((r: { name: string }) => r.name === '产废企业');
    expect(before.body.roles).toContain('stockIn:list');
    expect((await admin.put('/api/roles/menu', { id: role.id, menus: [] })).status).toBe(200);
    expect((await producerOnB.get('/api/auth/info')).body.roles).toEqual(['ROLE_SYSTEM_DEFAULT']);
    expect((await producerOnB.get('/api/menus/build')).body).toEqual([]);
    expect(menusBefore.body.length).toBeGreaterThan(0);
    expect((await admin.put('/api/roles/menu', { id: role.id, menus: role.menus })).status).toBe(200);
    expect((await producerOnB.get('/api/auth/info')).body.roles).toEqual(before.body.roles);
  });

  it("lists a record added through A in B's list call at once, with the list cache on", async () => {
    expect(a.config.listCache && b.config.listCache).toBe(true);
    const [viaA, viaB] = await onBoth('admin');
    const query = { page: 0, size: 10, sort: 'id,desc' };
    const first = await viaB.get('/api/general/list/17', query);
    expect(first.status).toBe(200);
    expect((await viaB.get('/api/general/list/17', query)).body).toEqual(first.body); // cached on B
    // A copy of a listed vehicle under a new plate number is a valid record.
    const { id: _id, createTime: _c, updateTime: _u, createBy: _b, ...model } = first.body.content[0];
    for (let i = 0; i < 5; i++) {
      const added = await viaA.post('/api/general/add/17', { ...model, plateNo: `沪A${70000 + i}` });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      const listed = await viaB.get('/api/general/list/17', query);
      expect(listed.body.totalElements).toBe(first.body.totalElements + i + 1);
      expect(listed.body.content[0].id).toBe(added.body.id);
    }
  });

  it("moves B's cached lists on by A's record writes, rather than forgetting them, and serves nothing stale", async () => {
    const [viaA, viaB] = await onBoth('admin');
    const cache = lowcodeState(b.ctx).cache;
    const seed = (await viaA.get('/api/general/list/12', { page: 0, size: 1 })).body.content[0];
    const { id: _id, createTime: _c, updateTime: _u, createBy: _b, warehouseIdFmt: _w, ...model } = seed;
    const statuses = (
      (await viaA.get('/api/dictDetail', { dictName: 'stockStatus', page: 0, size: 99 })).body.content as { value: string }[]
    ).map((d) => d.value);
    const queries = [
      { page: 0, size: 10 },
      { page: 1, size: 10, sort: 'quantity,desc' },
      { page: 0, size: 20, sort: 'stockNo,asc' },
      { page: 0, size: 10, status: statuses[0] },
      { page: 0, size: 10, status: statuses[1], sort: 'id,asc' },
    ];
    const listAll = async () =>
      Promise.all(
        queries.map(async (q) => {
          const r = await viaB.get('/api/general/list/12', q);
          expect(r.status).toBe(200);
          return r.body;
        }),
      );
    await listAll();
    const mine: number[] = [];
    let n = 0;
    const write = async () => {
      const r = Math.random();
      if (r < 0.5 || mine.length < 2) {
        const added = await viaA.post('/api/general/add/12', {
          ...model,
          stockNo: `RK2099${String(++n).padStart(8, '0')}`,
          status: statuses[n % 2],
        });
        expect(added.status, JSON.stringify(added.body)).toBe(200);
        mine.push(added.body.id);
      } else if (r < 0.8) {
        const id = mine[n % mine.length] as number;
        const res = await viaA.post('/api/general/update/12', { id, quantity: (n % 7) + 0.5, status: statuses[(n + 1) % 2] });
        // A delete racing in the same round may have taken the record first: then, and only then, 404.
        expect(res.status === 200 || (res.status === 404 && !mine.includes(id)), String(res.status)).toBe(true);
      } else {
        const id = mine.splice(n % mine.length, 1)[0] as number;
        expect((await viaA.post('/api/general/delete/12', [id])).status).toBe(200);
      }
    };
    // B asks how text sorts here at A's first write; from then on it moves its lists on.
    await write();
    await listAll();
    await listAll(); // the second time from blocks of pages
    const before = { ...cache.stats };
    for (let round = 0; round < 6; round++) {
      // B's lists race A's writes, so that answers computed across them are offered to B's cache.
      await Promise.all([write(), write(), listAll(), write()]);
      const cached = await listAll();
      expect(cache.stats.bumped).toBe(before.bumped);
      cache.bumpAll();
      const bumped = cache.stats.bumped;
      expect(await listAll()).toEqual(cached);
      before.bumped = bumped;
      await listAll();
    }
    // A's writes moved B's counts and blocks on.
    expect(cache.stats.counted + cache.stats.revised).toBeGreaterThan(before.counted + before.revised);
  });

  it('serves nothing stale after its listening connection was lost: it flushes as it reconnects', async () => {
    const [viaA, viaB] = await onBoth('admin');
    const query = { page: 0, size: 5, sort: 'id,desc' };
    const cached = await viaB.get('/api/general/list/17', query);
    const { id: _id, createTime: _c, updateTime: _u, createBy: _b, ...model } = cached.body.content[0];
    // Cut B's listening connection from the database side, as a restart or a network cut would.
    const cut = await sql<{ ok: boolean }>`select pg_terminate_backend(pid) as ok from pg_stat_activity
      where application_name = ${`wastegen-bus-${b.ctx.bus.instanceId}`}`.execute(a.ctx.db);
    expect(cut.rows.map((r) => r.ok)).toEqual([true]);
    await expect.poll(async () => (await b.api.get('/api/health')).body.bus, { timeout: 5000, interval: 20 }).not.toBe('connected');
    // Written while B cannot hear it.
    const added = await viaA.post('/api/general/add/17', { ...model, plateNo: '沪A79999' });
    expect(added.status).toBe(200);
    await expect.poll(async () => (await b.api.get('/api/health')).status, { timeout: 10_000, interval: 50 }).toBe(200);
    const listed = await viaB.get('/api/general/list/17', query);
    expect(listed.body.content[0].id).toBe(added.body.id);
    expect(listed.body.totalElements).toBe(cached.body.totalElements + 1);
  });

  it('tells B of a notice too long for NOTIFY in bytes, without its text (B reads it from the database)', async () => {
    // 3,000 Chinese characters: within the limit counted in characters, three times over it in bytes.
    const heard = new Promise((resolve) =>
      b.ctx.bus.on((e) => {
        if (e.t === 'notice' && e.userId === 987654) resolve(e);
      }),
    );
    await a.ctx.bus.publish({ t: 'notice', userId: 987654, text: '长'.repeat(3000) });
    expect(await heard).toEqual({ t: 'notice', userId: 987654, text: '' });
  });

  it('delivers a leave message posted through A as a websocket notice on B', async () => {
    const adminOnB = await b.login('admin');
    const url = new URL('/websocket/admin', b.url.replace(/^http/, 'ws'));
    url.searchParams.set('token', adminOnB.token as string);
    const socket = new Client(url.toString());
    sockets.push(socket);
    await socket.opened;
    await socket.waitFor((m) => m.flag === 'unread');
    const producer = await a.login('producer');
    const sent = await producer.post('/api/leaveMessage', { content: '跨实例留言' });
    expect(sent.status).toBe(200);
    const notice = await socket.waitFor<Pushed>((m) => m.flag === 'leaveMessage');
    expect(notice.body).toMatchObject({ noticeInfo: '您有一条新留言', content: '跨实例留言' });
  });
});
