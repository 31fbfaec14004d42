import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowSource } from '../../server/lowcode/memory-list-reader.js';
import type { RowIndexes } from '../../server/lowcode/row-index.js';
import { installRowNotifyAll, ROW_TRIGGERS } from '../../server/lowcode/row-notify.js';
import { textSortsByBytes } from '../../server/lowcode/row-position.js';
import { designedView, lowcodeState } from '../../server/lowcode/view-store.js';
import { type ApiClient, freshPostgres, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Rows changed in SQL outside the server (as in psql) show in the next list call of every instance: its
 * pages, counts and the record itself, whether they were cached before, read from the rows in memory
 * (LIST_INDEX on) or from the database (LIST_INDEX=0). One instance on the suite's database (PGlite: the
 * change through the process's own database handle; PostgreSQL: through a separate connection), and on
 * PostgreSQL two instances on one database. A company's cached lists that the change did not touch stay
 * cached, the rows in memory are read again by id rather than whole, and the server's own record writes
 * are not told twice.
 */
const VIEW = 12;
const TABLE = `lc_view_${VIEW}`;

type Outside = (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

interface Seen {
  /** The producer's newest rows (data scope 本企业), and its counts of two statuses. */
  mine: { id: number; handler: string; status: string }[];
  mineTotal: number;
  mineOld: number;
  mineNew: number;
  /** The administrator's list of the record's number, its newest rows and counts of the two statuses. */
  byNumber: { id: number; handler: string }[];
  all: { id: number }[];
  allTotal: number;
  allOld: number;
  allNew: number;
  /** The record as the producer opens it. */
  record: { id: number; handler: string; status: string } | null;
}

async function listed(as: ApiClient, query: Record<string, unknown>) {
  const r = await as.get(`/api/general/list/${VIEW}`, query);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { content: { id: number; handler: string; status: string }[]; totalElements: number };
}

/** Everything the test checks, as one instance answers it through the sessions given. */
async function seen(
  producer: ApiClient,
  admin: ApiClient,
  row: { id: number; stockNo: string },
  statuses: [string, string],
): Promise<Seen> {
  const [mine, mineOld, mineNew, byNumber, all, allOld, allNew] = await Promise.all([
    listed(producer, { page: 0, size: 10, sort: 'id,desc' }),
    listed(producer, { page: 0, size: 10, status: statuses[0] }),
    listed(producer, { page: 0, size: 10, status: statuses[1] }),
    listed(admin, { page: 0, size: 10, stockNo: row.stockNo }),
    listed(admin, { page: 0, size: 10, sort: 'id,desc' }),
    listed(admin, { page: 0, size: 10, status: statuses[0] }),
    listed(admin, { page: 0, size: 10, status: statuses[1] }),
  ]);
  const detail = await producer.get('/api/general/detail', { generalId: VIEW, id: row.id });
  const pick = (r: { id: number; handler: string; status: string }) => ({ id: r.id, handler: r.handler, status: r.status });
  return {
    mine: mine.content.map(pick),
    mineTotal: mine.totalElements,
    mineOld: mineOld.totalElements,
    mineNew: mineNew.totalElements,
    byNumber: byNumber.content.map((r) => ({ id: r.id, handler: r.handler })),
    all: all.content.map((r) => ({ id: r.id })),
    allTotal: all.totalElements,
    allOld: allOld.totalElements,
    allNew: allNew.totalElements,
    record: detail.status === 200 && detail.body?.id ? pick(detail.body) : null,
  };
}

/**
 * Waits until the instance has judged every answer it may keep and, with `rows`, holds the view's rows in
 * memory (LIST_INDEX on).
 */
async function steady(s: TestServer, rows = true): Promise<void> {
  const state = lowcodeState(s.ctx);
  const indexes = state.indexes as RowIndexes | undefined;
  if (indexes && rows) {
    const view = await designedView(s.ctx, VIEW);
    await vi.waitFor(
      () => {
        if (!indexes.ready(view, rowSource(s.ctx, view), textSortsByBytes(s.ctx))) throw new Error('rows not in memory yet');
      },
      { timeout: 30_000, interval: 20 },
    );
  }
  // On PostgreSQL a miss's answer is kept once judged, which may be after the call was answered.
  await vi.waitFor(() => expect(state.cache.settling).toBe(0), { timeout: 10_000, interval: 10 });
}

/**
 * The scenario on the instances given (sharing one database), the changes made by `outside`: cached lists,
 * then an update, an insert and a delete in SQL, each seen at once; many rows at once; a record write of
 * the server itself.
 */
async function scenario(servers: TestServer[], outside: Outside): Promise<void> {
  const first = servers[0] as TestServer;
  const [admin0, producer0, collector0] = await Promise.all([first.login('admin'), first.login('producer'), first.login('collector')]);
  const sessions = servers.map((s) => ({
    s,
    admin: s.api.withToken(admin0.token),
    producer: s.api.withToken(producer0.token),
    collector: s.api.withToken(collector0.token),
  }));
  const dict = (await admin0.get('/api/dictDetail', { dictName: 'stockStatus', page: 0, size: 99 })).body.content as { value: string }[];
  const mineNow = await listed(producer0, { page: 0, size: 1, sort: 'id,desc' });
  const row = mineNow.content[0] as { id: number; stockNo: string; handler: string; status: string };
  expect(row).toBeDefined();
  const other = dict.map((d) => d.value).find((v) => v !== row.status) as string;
  const statuses: [string, string] = [row.status, other];

  // Listed on every instance, twice, so that the answers are cached (and the rows held in memory).
  for (const { s, admin, producer, collector } of sessions) {
    await steady(s);
    await seen(producer, admin, row, statuses);
    await listed(collector, { page: 0, size: 10 });
    await steady(s);
  }
  const before = await Promise.all(sessions.map(({ producer, admin }) => seen(producer, admin, row, statuses)));
  const collectorBefore = await Promise.all(sessions.map(({ collector }) => listed(collector, { page: 0, size: 10 })));
  for (const { s } of sessions) await steady(s);
  const built = servers.map((s) => lowcodeState(s.ctx).indexes?.stats.built);
  const base = before[0] as Seen;
  expect(base.record).toEqual({ id: row.id, handler: row.handler, status: row.status });
  expect(base.mine[0]?.id).toBe(row.id);

  // An update: the row's handler and status change.
  const handler = `外部修改${Date.now()}`;
  await outside(`update ${TABLE} set handler = $1, status = $2 where id = $3`, [handler, other, row.id]);
  for (const { s, producer, admin, collector } of sessions) {
    const misses = lowcodeState(s.ctx).cache.stats.misses;
    // Another company's cached list, which the change did not touch, is still answered from the cache.
    expect(await listed(collector, { page: 0, size: 10 })).toEqual(collectorBefore[sessions.findIndex((x) => x.s === s)]);
    expect(lowcodeState(s.ctx).cache.stats.misses).toBe(misses);
    const after = await seen(producer, admin, row, statuses);
    expect(after.record).toEqual({ id: row.id, handler, status: other });
    expect(after.mine[0]).toEqual({ id: row.id, handler, status: other });
    expect(after.byNumber).toContainEqual({ id: row.id, handler });
    expect([after.mineOld, after.mineNew, after.allOld, after.allNew]).toEqual([
      base.mineOld - 1,
      base.mineNew + 1,
      base.allOld - 1,
      base.allNew + 1,
    ]);
    expect([after.mineTotal, after.allTotal]).toEqual([base.mineTotal, base.allTotal]);
  }

  // An insert: a copy of the row with a number of its own, the newest row of the company and of all.
  const columns = (
    await outside(
      `select string_agg(quote_ident(column_name), ', ') as cols from information_schema.columns
       where table_schema = current_schema() and table_name = $1 and column_name not in ('id', 'stockNo')`,
      [TABLE],
    )
  ).rows[0]?.cols as string;
  const copy = async (n: number) =>
    (
      await outside(
        `insert into ${TABLE} (${columns}, "stockNo")
         select ${columns}, 'RK2099' || lpad(g::text, 8, '0') from ${TABLE}, generate_series(1, $2::int) g where id = $1
         returning id`,
        [row.id, n],
      )
    ).rows.map((r) => Number(r.id));
  const [added] = await copy(1);
  for (const { producer, admin } of sessions) {
    const after = await seen(producer, admin, row, statuses);
    expect(after.mine[0]).toEqual({ id: added, handler, status: other });
    expect(after.all[0]).toEqual({ id: added });
    expect([after.mineTotal, after.allTotal, after.mineNew, after.allNew]).toEqual([
      base.mineTotal + 1,
      base.allTotal + 1,
      base.mineNew + 2,
      base.allNew + 2,
    ]);
  }

  // A delete: the copy goes.
  await outside(`delete from ${TABLE} where id = $1`, [added]);
  for (const { producer, admin } of sessions) {
    const after = await seen(producer, admin, row, statuses);
    expect(after.mine[0]?.id).toBe(row.id);
    expect(after.all.map((r) => r.id)).not.toContain(added);
    expect([after.mineTotal, after.allTotal, after.mineNew, after.allNew]).toEqual([
      base.mineTotal,
      base.allTotal,
      base.mineNew + 1,
      base.allNew + 1,
    ]);
  }

  // The rows in memory were read again by id, not whole.
  for (const [i, s] of servers.entries()) {
    const indexes = lowcodeState(s.ctx).indexes;
    if (!indexes) continue;
    await steady(s);
    expect(indexes.stats.built).toBe(built[i]);
    expect(indexes.stats.reread).toBeGreaterThan(0);
  }

  // More rows than one notice names: the whole view is told, and the lists follow all the same.
  const many = await copy(1200);
  for (const { producer, admin } of sessions) {
    const after = await seen(producer, admin, row, statuses);
    expect([after.mineTotal, after.allTotal]).toEqual([base.mineTotal + 1200, base.allTotal + 1200]);
  }
  await outside(`delete from ${TABLE} where id = any($1::bigint[])`, [many]);
  const settled: Seen[] = [];
  for (const { producer, admin } of sessions) {
    const after = await seen(producer, admin, row, statuses);
    expect([after.mineTotal, after.allTotal]).toEqual([base.mineTotal, base.allTotal]);
    settled.push(after);
  }

  // What every instance answers now is what it answers computed afresh.
  for (const [i, { s, producer, admin }] of sessions.entries()) {
    lowcodeState(s.ctx).cache.bumpAll();
    expect(await seen(producer, admin, row, statuses)).toEqual(settled[i]);
  }

  // A record write of the server is told by the server alone: the trigger leaves it out.
  for (const s of servers) await steady(s, false);
  const told = servers.map((s) => [lowcodeState(s.ctx).cache.stats.outside, lowcodeState(s.ctx).indexes?.stats.reread]);
  const written = await producer0.post(`/api/general/update/${VIEW}`, { id: row.id, handler: '服务器修改' });
  expect(written.status, JSON.stringify(written.body)).toBe(200);
  for (const { s, producer, admin } of sessions) {
    // Every notice committed before this has been heard.
    await s.ctx.bus.barrier();
    expect((await seen(producer, admin, row, statuses)).record?.handler).toBe('服务器修改');
  }
  expect(servers.map((s) => [lowcodeState(s.ctx).cache.stats.outside, lowcodeState(s.ctx).indexes?.stats.reread])).toEqual(told);
}

/** Changes made with a connection of their own, as psql makes them. */
async function psql(url: string): Promise<{ outside: Outside; close: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return { outside: (text, params) => client.query(text, params), close: () => client.end() };
}

for (const listIndex of [true, false]) {
  describe(`rows changed outside the server, one instance, LIST_INDEX ${listIndex ? 'on' : 'off'}`, () => {
    let server: TestServer;
    let outside: Outside;
    let close = async () => {};

    beforeAll(async () => {
      server = await startTestServer({ listIndex });
      const pglite = server.database.pglite;
      if (pglite) outside = async (text, params) => ({ rows: (await pglite.query<Record<string, unknown>>(text, params)).rows });
      else ({ outside, close } = await psql(server.config.databaseUrl as string));
    }, 120_000);

    afterAll(async () => {
      await close();
      await server?.close();
    });

    it('shows every change at once in lists, counts and the record', async () => {
      await scenario([server], outside);
    }, 120_000);

    it('gives a view table made before there were triggers its triggers at start-up, and reads only the catalogue after', async () => {
      const triggers = async () =>
        (
          await outside(`select tgname, oid::text from pg_trigger where tgrelid = $1::regclass and tgname like 'wastegen%' order by 1`, [
            TABLE,
          ])
        ).rows.map((r) => `${r.tgname}:${r.oid}`);
      for (const t of ROW_TRIGGERS) await outside(`drop trigger ${t.name} on ${TABLE}`);
      expect(await triggers()).toEqual([]);
      await installRowNotifyAll(server.ctx.db);
      const installed = await triggers();
      expect(installed.map((t) => t.split(':')[0])).toEqual(ROW_TRIGGERS.map((t) => t.name).sort());
      const fn = async () => (await outside(`select oid::text from pg_proc where proname = 'wastegen_rows_changed'`)).rows;
      const before = await fn();
      await installRowNotifyAll(server.ctx.db);
      expect(await triggers()).toEqual(installed);
      expect(await fn()).toEqual(before);
    });
  });
}

const pgOnly = process.env.TEST_DATABASE_URL ? describe : describe.skip;

for (const listIndex of [true, false]) {
  pgOnly(`rows changed outside the server, two instances on PostgreSQL, LIST_INDEX ${listIndex ? 'on' : 'off'}`, () => {
    let database: { url: string; drop: () => Promise<void> };
    let servers: TestServer[];
    let connection: Awaited<ReturnType<typeof psql>>;

    beforeAll(async () => {
      database = (await freshPostgres({ seeded: true })) as { url: string; drop: () => Promise<void> };
      servers = await Promise.all([0, 1].map(() => startTestServer({ databaseUrl: database.url, listIndex })));
      connection = await psql(database.url);
    }, 120_000);

    afterAll(async () => {
      await connection?.close();
      for (const s of servers ?? []) await s.close();
      await database?.drop();
    });

    it('shows every change at once on both instances, neither of which made it', async () => {
      await scenario(servers, connection.outside);
    }, 120_000);
  });
}
