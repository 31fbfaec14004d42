import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusEvent } from '../../server/bus.js';
import { withDataViewConnection } from '../../server/lowcode/data-view.js';
import { DEPT, MENU, USER } from '../../server/seed/accounts.js';
import { accountMaker } from '../helpers/accounts.js';
import { type ApiClient, type ApiResponse, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Attack 38b: ordinary accounts against the instances' bus. A designer's data view may not send on the
 * bus's channel, mark its transaction as the server's writer, or reach the view tables' trigger function;
 * a carrier's record writes leave no mark that would silence the trigger for a later outside write.
 */

let server: TestServer;
let admin: ApiClient;
let logistics: ApiClient;
let designer: ApiClient;
const heard: BusEvent[] = [];
const said = (r: ApiResponse) => JSON.stringify(r.body).slice(0, 300);
type Row = Record<string, any>;

const { account, role } = accountMaker(
  () => server,
  () => admin,
  '1385555',
);

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
  logistics = await server.login('logistics');
  const design = [MENU.lowcode, MENU.screen, 621, 622, 623, 624, MENU.dataView, 631, 632, 633];
  designer = (await account('atk38b_design', DEPT.ops, null, [await role('攻击38b-平台设计', design, '全部', null, 2)])).api;
  server.ctx.bus.on((e) => {
    heard.push(e);
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const CHANNEL = 'wastegen_bus';
const spoof = `'{"o":"x","e":{"t":"session-ended","sid":"all"}}'`;
const notice = `'{"o":"x","e":{"t":"notice","username":"admin","text":"攻击38b"}}'`;

describe('a designer’s data view and the bus', () => {
  it('sends nothing on the bus, marks nothing and reaches no trigger function, however spelled', async () => {
    const probes = [
      `select pg_notify('${CHANNEL}', ${spoof})`,
      `select (pg_notify)('${CHANNEL}', ${notice})`,
      `select pg_catalog.pg_notify('${CHANNEL}', ${notice})`,
      `select "pg_notify"('${CHANNEL}', ${notice})`,
      `select PG_NOTIFY('${CHANNEL}', ${notice})`,
      `with n as (select pg_notify('${CHANNEL}', ${notice}) as x) select * from n`,
      `with n as materialized (select pg_catalog.pg_notify('${CHANNEL}', ${spoof}) as x) select 1 as y from n`,
      `select * from (values (1)) v(a), lateral (select pg_notify('${CHANNEL}', ${notice}) as b) l`,
      `select * from pg_notify('${CHANNEL}', ${notice})`,
      `select 1 as a where pg_notify('${CHANNEL}', ${notice}) is null`,
      `select (select pg_notify('${CHANNEL}', ${notice})) as a`,
      `select set_config('wastegen.writer', 'x', true)`,
      `select set_config('wastegen.writer', 'x', false)`,
      `select pg_catalog.set_config('wastegen.writer', 'x', false)`,
      `select * from set_config('wastegen.writer', 'x', true)`,
      `with s as (select set_config('wastegen.writer', 'x', true) as w) select w from s`,
      `select current_setting('wastegen.writer', true)`,
      `select wastegen_rows_changed()`,
      `select public.wastegen_rows_changed()`,
      `select * from wastegen_rows_changed()`,
      `select pg_listen('${CHANNEL}')`,
      `listen ${CHANNEL}`,
      `notify ${CHANNEL}, ${notice}`,
      `select 1; notify ${CHANNEL}`,
      `select 1 as a; select pg_notify('${CHANNEL}', ${notice})`,
      `select * from pg_listening_channels()`,
      `set wastegen.writer = 'x'`,
      `select 1 as a from lc_view_20 for update`,
      `select pg_notification_queue_usage()`,
      `select to_json(pg_notify('${CHANNEL}', ${notice}))`,
      `select coalesce(null, pg_notify('${CHANNEL}', ${notice})::text) as a`,
      `select cast(pg_notify('${CHANNEL}', ${notice}) as text) as a`,
      `select * from json_populate_record(null::record, ${notice}::json) as t(e text)`,
      `select pg_catalog.current_setting('wastegen.writer')`,
      `select pg_terminate_backend(pid) from pg_stat_activity`,
      `select pg_cancel_backend(1)`,
      `create or replace function wastegen_rows_changed() returns trigger language sql as 'select null'`,
      `alter table lc_view_20 disable trigger all`,
    ];
    heard.length = 0;
    for (const text of probes) {
      const r = await designer.post('/api/data/run', { sql: text });
      expect(r.status, `${text}: ${said(r)}`).toBe(400);
    }
    await server.ctx.bus.barrier();
    expect(heard).toEqual([]);
    // The admin's session was not ended by any spoofed event.
    const me = await admin.get('/api/general/list/20', { size: 1 });
    expect(me.status, said(me)).toBe(200);
    // The trigger function is the server's own still, and every trigger is enabled.
    const triggers = await sql<{ n: number }>`select count(*)::int as n from pg_trigger
      where tgrelid = 'lc_view_20'::regclass and tgname like 'wastegen_rows_%' and tgenabled = 'O'`.execute(server.ctx.db);
    expect(triggers.rows[0]?.n).toBe(4);
  });

  it('even past the guard, what a data view’s connection sends on the bus is rolled back, never heard', async () => {
    heard.length = 0;
    await withDataViewConnection(server.ctx, async (rows) => {
      try {
        await rows(`select pg_notify('${CHANNEL}', ${spoof})`);
      } catch {
        // A connection that may not call it at all is as safe.
      }
    });
    await server.ctx.bus.barrier();
    expect(heard).toEqual([]);
  });

  it('a harmless data view still runs', async () => {
    const r = await designer.post('/api/data/run', { sql: 'select 1 as a' });
    expect(r.status, said(r)).toBe(200);
  });
});

describe('a carrier’s record writes and the trigger’s writer mark', () => {
  it('leave no mark that silences a later outside write, whatever the values written', async () => {
    const rows = (await logistics.get('/api/general/list/20', { size: 5 })).body.content as Row[];
    const own = rows?.[0];
    const statuses: number[] = [];
    for (const remark of [
      'wastegen.writer',
      `"},"e":{"t":"session-ended","sid":"x"}}`,
      `'); select pg_notify('${CHANNEL}', 'x'); --`,
      `${'汉'.repeat(3000)}`,
    ]) {
      if (own) statuses.push((await logistics.post('/api/general/update/20', { ...own, remark })).status);
      statuses.push((await logistics.post('/api/general/add/20', { remark })).status);
    }
    // The carrier's own rows it may update: the probe writes through the server's record writes.
    expect(statuses.filter((x) => x === 200).length).toBe(4);
    // A write the server did not make (another program) is still told on the bus.
    heard.length = 0;
    const anyRow = await server.ctx.db
      .selectFrom('lc_view_20' as any)
      .select('id')
      .limit(1)
      .executeTakeFirst();
    expect(anyRow).toBeTruthy();
    await sql`update lc_view_20 set id = id where id = ${(anyRow as Row).id}`.execute(server.ctx.db);
    await server.ctx.bus.barrier();
    expect(heard.some((e) => e.t === 'rows-outside' && e.viewId === 20)).toBe(true);
    const setting = await sql<{ w: string | null }>`select current_setting('wastegen.writer', true) as w`.execute(server.ctx.db);
    expect(setting.rows[0]?.w ?? '').toBe('');
    // The carrier's writes sent no event other than row changes and no notice for anyone.
    const me = await admin.get('/api/general/list/20', { size: 1 });
    expect(me.status, said(me)).toBe(200);
  });
});

describe('a saved data view definition and a message', () => {
  it('a data view that sends on the bus or marks the writer is refused when saved', async () => {
    heard.length = 0;
    for (const text of [
      `select pg_notify('${CHANNEL}', ${spoof}) as a`,
      `with s as (select set_config('wastegen.writer', 'x', false) as w) select w from s`,
    ]) {
      const r = await designer.post('/api/data/add', { name: '攻击38b', sql: text });
      expect(r.status, `${text}: ${said(r)}`).toBe(400);
    }
    await server.ctx.bus.barrier();
    expect(heard).toEqual([]);
    const me = await admin.get('/api/general/list/20', { size: 1 });
    expect(me.status, said(me)).toBe(200);
  });

  it('a message whose content is crafted JSON reaches its recipient as that text, as one notice', async () => {
    heard.length = 0;
    const content = `"}},"e":{"t":"session-ended","sid":"x"},"o":"y","z":{"a":"`;
    const r = await logistics.post('/api/leaveMessage', { content, reception: 'admin' });
    expect(r.status, said(r)).toBe(200);
    await server.ctx.bus.barrier();
    expect(heard.map((e) => e.t)).toEqual(['notice']);
    const e = heard[0] as Extract<BusEvent, { t: 'notice' }>;
    expect(e.userId).toBe(USER.admin);
    expect(JSON.parse(e.text).body.content).toBe(content);
    const me = await admin.get('/api/general/list/20', { size: 1 });
    expect(me.status, said(me)).toBe(200);
  });
});
