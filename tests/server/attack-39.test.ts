import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_INPUT_CODES } from '../../server/input-guard.js';
import { DEPT, MENU, ROLE, USER } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { accountMaker } from '../helpers/accounts.js';
import { advisoryLocks } from '../helpers/locks.js';
import { dataViewsRun, said } from '../helpers/refusal.js';
import { type ApiClient, type ApiResponse, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Attack 39: ordinary accounts against the operation log's filters, the manual disposal order and the
 * values that must be refused before they reach the database (year 0000, amounts beyond any column).
 * Every probe asserts the safe answer: a 4xx of the server's own checks, never a DB_* code nor a 5xx.
 */

let server: TestServer;
const as = {} as Record<string, ApiClient>;
const { account, role } = accountMaker(
  () => server,
  () => as.admin as ApiClient,
  '1393939',
);

/** Refused by the server's own checks: 4xx, and not a database refusal. */
function refusedBeforeDb(r: ApiResponse, what: string) {
  expect(r.status, `${what}: ${said(r)}`).toBeGreaterThanOrEqual(400);
  expect(r.status, `${what}: ${said(r)}`).toBeLessThan(500);
  expect(DATABASE_INPUT_CODES.has(r.body?.code), `${what}: ${said(r)}`).toBe(false);
}

beforeAll(async () => {
  server = await startTestServer();
  for (const u of ['admin', 'producer', 'disposer', 'logistics', 'collector', 'supervisor']) as[u] = await server.login(u);
  // A company user manager of the producer: user list rights, 本企业.
  const editor = await role('攻击39-企业用户管理', [MENU.system, MENU.user], '本企业', COMPANY.producer, 3);
  as.editor = (await account('atk39_editor', DEPT.producers, COMPANY.producer, [editor])).api;
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const BAD_TIMES = [
  '2026-02-30',
  '9999-99-99 99:99:99',
  '2026-13-01',
  '2026-01-01 24:00:00',
  '2026-01-01T00:00:00Z',
  '2026-01-01 00:00:00+08',
  '2026-01-01 00:00:00 UTC',
  '+12026-01-01',
  '20260-01-01',
  '２０２６-01-01',
  'epoch',
  'infinity',
  'now',
  "2026-01-01' or '1'='1",
];
/** Year 0 does not exist in PostgreSQL; JavaScript's Date.UTC reads years 0..99 as 1900..1999, so the check passes it. */
const YEAR_ZERO = ['0000-01-01', '0000-12-31 23:59:59', '0000-06-15 12:00'];

describe('operation log time bounds', () => {
  it('GET /api/logs/user refuses every time bound that is not a real day before the database', async () => {
    for (const t of BAD_TIMES)
      for (const k of ['from', 'to']) refusedBeforeDb(await as.producer!.get('/api/logs/user', { [k]: t }), `${k}=${t}`);
  });
  it('GET /api/logs refuses the same bounds for a company user manager', async () => {
    for (const t of BAD_TIMES) for (const k of ['from', 'to']) refusedBeforeDb(await as.editor!.get('/api/logs', { [k]: t }), `${k}=${t}`);
  });
  // Was a hole: year 0000 passes normalizeDateTime (src/model/dates.ts) and reaches PostgreSQL,
  // which answers 22008 → 400 DB_TIME_RANGE: the bad value was not refused by the server's own check.
  it('GET /api/logs/user and /api/logs refuse year 0000 before the database', async () => {
    for (const t of YEAR_ZERO)
      for (const k of ['from', 'to']) {
        refusedBeforeDb(await as.producer!.get('/api/logs/user', { [k]: t }), `logs/user ${k}=${t}`);
        refusedBeforeDb(await as.editor!.get('/api/logs', { [k]: t }), `logs ${k}=${t}`);
      }
  });
  it('still answers real bounds, including the earliest and latest years', async () => {
    for (const t of ['0001-01-01', '9999-12-31 23:59:59', '2026-02-28', '2024-02-29 12:00'])
      expect((await as.producer!.get('/api/logs/user', { from: t })).status, t).toBe(200);
  });
});

describe('operation log scope', () => {
  it('an account without user:list reads no one else’s log', async () => {
    for (const u of ['producer', 'disposer', 'logistics', 'collector']) expect((await as[u]!.get('/api/logs', {})).status, u).toBe(403);
  });
  it('a company user manager reads neither another company, nor users outside it, by any filter', async () => {
    const e = as.editor!;
    for (const q of [
      { companyId: COMPANY.disposer },
      { companyId: COMPANY.logistics, userId: USER.producer },
      { userId: USER.disposer },
      { userId: USER.admin },
      { username: 'disposer' },
      { username: ' disposer ' },
      { username: 'admin' },
    ]) {
      const r = await e.get('/api/logs', q);
      expect(r.status, `${JSON.stringify(q)} ${said(r)}`).toBe(403);
    }
    // Two filters naming no single user: nothing, whatever the answer's status.
    const mixed = await e.get('/api/logs', { userId: USER.producer, username: 'disposer' });
    expect([200, 403]).toContain(mixed.status);
    if (mixed.status === 200) expect(mixed.body.content).toEqual([]);
    // Make some entries of another company, then look for them through the record filters.
    await as.disposer!.get('/api/logs/user', {});
    const all = await e.get('/api/logs', { page: 0, size: 500 });
    expect(all.status, said(all)).toBe(200);
    for (const entry of all.body.content) {
      expect([COMPANY.producer, null], JSON.stringify(entry).slice(0, 300)).toContain(entry.companyId);
      if (entry.companyId === null) expect(entry.username).toBe('atk39_editor');
    }
    for (const q of [{ table: 'sys_user' }, { table: 'company' }, { recordId: String(USER.disposer) }, { table: 'lc_view_16' }]) {
      const r = await e.get('/api/logs', { ...q, size: 500 });
      expect(r.status, said(r)).toBe(200);
      for (const entry of r.body.content) expect([COMPANY.producer, null]).toContain(entry.companyId);
    }
  });
  it('GET /api/logs/user ignores companyId / userId / username: only one’s own entries', async () => {
    const r = await as.producer!.get('/api/logs/user', { userId: USER.admin, username: 'admin', companyId: COMPANY.disposer, size: 500 });
    expect(r.status, said(r)).toBeLessThan(500);
    if (r.status === 200) for (const entry of r.body.content) expect(entry.username).toBe('producer');
  });
});

describe('view lists and records with year 0000', () => {
  it('GET /api/general/list/12 refuses startTime/endTime of year 0000 before the database', async () => {
    for (const t of YEAR_ZERO)
      for (const k of ['startTime', 'endTime'])
        refusedBeforeDb(await as.producer!.get('/api/general/list/12', { [k]: t }), `list ${k}=${t}`);
  });
  it('POST /api/general/update refuses a date field of year 0000 before the database', async () => {
    const own = (await as.producer!.get('/api/general/list/12', { size: 1 })).body.content[0];
    const form = (await as.producer!.get('/api/general/formData', { generalId: 12, id: own.id })).body.data as Record<string, unknown>;
    const dated = Object.keys(form).filter(
      (k) => typeof form[k] === 'string' && /^\d{4}-\d\d-\d\d/.test(form[k] as string) && !/^(create|update)Time$/.test(k),
    );
    expect(dated.length, JSON.stringify(form).slice(0, 400)).toBeGreaterThan(0);
    for (const k of dated) {
      const r = await as.producer!.post('/api/general/update/12', { ...form, [k]: '0000-01-01 00:00:00' });
      refusedBeforeDb(r, `update ${k}`);
    }
  });
});

describe('manual disposal order', () => {
  const MANUAL = '/api/disposalOrder/insertManualDisposalOrder';
  const valid = async () => {
    const unloading = (await as.disposer!.get('/api/companyWarehouse/unloadingPoint')).body.data[0];
    return {
      types: '1',
      needPrepay: 0,
      partyACompany: String(COMPANY.producer),
      partyBWarehouseId: unloading.id,
      wasteCategoryCode: '900-249-08',
      wasteCategoryName: '废矿物油',
      quantity: '12.345',
      unit: '吨',
      price: '2800.125',
      estDisposalTime: '2026-12-01',
    };
  };
  it('a valid order goes in (the probes below differ by one field)', async () => {
    const r = await as.disposer!.post(MANUAL, await valid());
    expect(r.status, said(r)).toBe(200);
  });
  it('refuses out-of-range numbers and ids before the database', async () => {
    const base = await valid();
    for (const change of [
      { quantity: '1e21' },
      { quantity: 1e21, price: 1 },
      { quantity: '99999999999999999999', price: '1' },
      { quantity: '1e200', price: '1e200' },
      { price: '1e25' },
      { needPrepay: 1, prepayPrice: '1e30' },
      { needPrepay: 1, prepayPrice: 1e300 },
      { contractId: 99_999_999_999 },
      { partyBWarehouseId: 99_999_999_999 },
      { partyBUserId: '9007199254740993' },
      { partyACompany: '99999999999' },
      { estDisposalTime: '0000-01-01' },
      { estDisposalTime: '0000-02-29' },
      { estDisposalTime: '10000-01-01' },
      { types: 'x'.repeat(41) },
      { remark: '\u0000' },
      { partyAName: 'a\u0000b' },
    ]) {
      const r = await as.disposer!.post(MANUAL, { ...base, ...change });
      refusedBeforeDb(r, JSON.stringify(change));
    }
  });
  // Was a hole: amount = roundTo(price × quantity, 5) is NaN once the product reaches 1e21 (roundTo
  // builds `${n}e5` and 1.5e+22e5 is no number), though each factor is within its own range: the call
  // answers 500 INTERNAL_ERROR, yet the order is committed with amount NaN: it shows to party A (the
  // producer) as an open order, sorts first by amount, and every sum over the orders' amount (the big
  // screens' 交易额: round(sum(amount), 2) from lc_view_19) becomes NaN/null for everyone.
  it('a price × quantity of 1e21 or more is refused, not answered 500 nor stored as NaN', async () => {
    const base = await valid();
    const last = async () =>
      server.ctx.db.selectFrom('disposal_order_manual').select(['record_id', 'view_id']).orderBy('record_id', 'desc').executeTakeFirst();
    const before = await last();
    const r = await as.disposer!.post(MANUAL, { ...base, quantity: '123456789012.345', price: '123456789012.345' });
    const after = await last();
    let stored: unknown = null;
    if (after && after.record_id !== before?.record_id) {
      const { sql } = await import('kysely');
      const row = await sql<{
        amount: unknown;
      }>`select amount::text as amount from ${sql.table(`lc_view_${after.view_id}`)} where id = ${after.record_id}`.execute(server.ctx.db);
      stored = row.rows[0]?.amount;
    }
    const total = await as.admin!.post('/api/data/run', { sql: 'select round(sum(amount), 2) as s from lc_view_19' });
    expect(total.body.list?.[0]?.s, `platform order total: ${said(total)}`).not.toBeNull();
    expect(stored, 'an order was written, amount').toBeNull();
    refusedBeforeDb(r, 'price × quantity ≥ 1e21');
  });
  // Was a hole: processId is an optionalId without an int4 bound: 3000000000 reaches the
  // disposal_process lookup and PostgreSQL answers 22003 → DB_NUMBER_RANGE.
  it('a processId beyond int4 is refused before the database', async () => {
    const base = await valid();
    for (const processId of [99_999_999_999, '3000000000', 2_147_483_648])
      refusedBeforeDb(await as.disposer!.post(MANUAL, { ...base, processId }), `processId ${processId}`);
  });
  it('does not let party A or B be another company the disposer does not reach', async () => {
    const base = await valid();
    // Another company's unloading point.
    const theirs = await server.ctx.db
      .selectFrom('company_warehouse' as any)
      .select(['id', 'company_id'] as any)
      .where('company_id' as any, '<>', COMPANY.disposer)
      .execute()
      .catch(() => [] as any[]);
    for (const w of theirs as { id: number }[]) {
      const r = await as.disposer!.post(MANUAL, { ...base, partyBWarehouseId: w.id });
      expect(r.status, `warehouse ${w.id}: ${said(r)}`).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    // Party A the disposer itself (by id): refused.
    const self = await as.disposer!.post(MANUAL, { ...base, partyACompany: String(COMPANY.disposer) });
    expect(self.status, said(self)).toBe(400);
    // Another disposer's contract.
    const contracts = await server.ctx.db
      .selectFrom('lc_view_16' as any)
      .select(['id'] as any)
      .execute()
      .catch(() => [] as any[]);
    const mine = new Set(
      ((await as.disposer!.get('/api/general/list/16', { size: 500 })).body.content ?? []).map((r: any) => Number(r.id)),
    );
    for (const c of (contracts as { id: number }[]).filter((c) => !mine.has(Number(c.id))).slice(0, 10)) {
      const r = await as.disposer!.post(MANUAL, { ...base, contractId: c.id });
      expect(r.status, `contract ${c.id}: ${said(r)}`).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    // Other accounts may not add at all.
    for (const u of ['producer', 'logistics', 'collector', 'supervisor']) expect((await as[u]!.post(MANUAL, base)).status, u).toBe(403);
  });
});

describe('a designer’s data view: functions that run SQL text or hold locks', () => {
  let designer: ApiClient;
  beforeAll(async () => {
    const design = [MENU.lowcode, MENU.screen, 621, 622, 623, 624, MENU.dataView, 631, 632, 633];
    designer = (await account('atk39_design', DEPT.ops, null, [await role('攻击39-平台设计', design, '全部', null, 2)])).api;
  });
  it('refuses every call that runs query text, reads refused tables by name, or holds a lock past the view', async () => {
    const probes = [
      `select query_to_xml('select password from sys_user', true, true, '') as x`,
      `select pg_catalog.query_to_xml('select 1', true, true, '') as x`,
      `select query_to_xml_and_xmlschema('select password from sys_user', true, true, '') as x`,
      `select table_to_xml('sys_user', true, true, '') as x`,
      `select table_to_xml('public.sys_setting'::regclass, true, true, '') as x`,
      `select schema_to_xml('public', true, true, '') as x`,
      `select database_to_xml(true, true, '') as x`,
      `select * from ts_stat('select to_tsvector(password) from sys_user')`,
      `select ts_rewrite('a'::tsquery, 'select ''a''::tsquery, ''b''::tsquery')`,
      `select cursor_to_xml('c'::refcursor, 1, true, true, '') as x`,
      `select (('sys_user', true, true, '')::record).x`,
      `select pg_advisory_lock(1) as x`,
      `select pg_try_advisory_lock(42) as x`,
      `select pg_advisory_lock_shared(7) as x`,
      `select pg_sleep(30) as x`,
      `select pg_read_file('postgresql.conf') as x`,
      `select * from pg_ls_dir('.') as x`,
      `select lo_import('/etc/passwd') as x`,
      `select current_setting('data_directory') as x`,
      `select * from pg_settings`,
      `select * from pg_shadow`,
      `select * from pg_authid`,
      `select * from pg_stat_activity`,
      `select nextval('sys_log_id_seq') as x`,
      `select setval('sys_log_id_seq', 1) as x`,
      `select txid_current() as x`,
      `select * from dblink('dbname=postgres', 'select 1') as t(a int)`,
      `select xmlparse(document '<!DOCTYPE a [<!ENTITY e SYSTEM "/etc/passwd">]><a>&e;</a>') as x`,
      `select to_regclass('sys_user')::oid as x`,
      `select (select count(*) from sys_user) as x`,
      `select * from sys_user`,
      `select password from "sys_user"`,
      `select * from public.sys_setting`,
      `select 1 as x from pg_catalog.pg_class c where c.relname = 'sys_user' and (select password from sys_user limit 1) is not null`,
      `table sys_user`,
      `select row_to_json(u) as x from sys_user u`,
      `select * from lc_view_20, lateral (select password from sys_user) s`,
      `select * from pg_trigger`,
      `select pg_get_triggerdef(oid) as x from pg_trigger`,
      `select pg_get_functiondef('wastegen_rows_changed'::regproc) as x`,
    ];
    expect(await dataViewsRun(designer, probes)).toEqual([]);
    // Still no advisory lock held by any session on this database (other files' servers take theirs as they start).
    expect(await advisoryLocks(server.ctx.db)).toBe(0);
  }, 60_000);
});

describe('a designer’s data view: work the planner does not count', () => {
  let designer: ApiClient;
  beforeAll(async () => {
    const design = [MENU.lowcode, MENU.screen, 621, 622, 623, 624, MENU.dataView, 631, 632, 633];
    designer = (await account('atk39_design2', DEPT.ops, null, [await role('攻击39-平台设计2', design, '全部', null, 2)])).api;
  });
  it('a regular expression with back references over padded text ends quickly or is refused', async () => {
    const probes = [
      `select 1 as a where lpad('', 26, 'a') ~ '^(a*)*\\1\\1\\1b'`,
      `select 1 as a where lpad('', 30, 'a') ~ '^((a+)+)\\2\\1b$'`,
      `select 1 as a where lpad('', 400, 'a') ~ '(a|aa|aaa)*(\\1)*(\\1)*b'`,
      `select regexp_replace(lpad('', 2000, 'ab'), '((a|b)*)*\\1c', 'x') as a`,
      `select count(*) as a from lc_view_20 x, lc_view_20 y where lpad('', 200, 'a') ~ '^(a?){25}(a){25}$'`,
    ];
    for (const text of probes) {
      const t0 = Date.now();
      const r = await designer.post('/api/data/run', { sql: text });
      const ms = Date.now() - t0;
      expect(r.status, `${text}: ${said(r)}`).toBeLessThan(500);
      expect(ms, `${text} took ${ms} ms: ${said(r)}`).toBeLessThan(5_000);
    }
  }, 120_000);
});

describe('a company’s user and role managers against other companies', () => {
  const btn = (page: number) => [page * 10 + 1, page * 10 + 2, page * 10 + 3];
  let users: ApiClient;
  let roles: ApiClient;
  let mate: number;
  let ownRole: number;
  beforeAll(async () => {
    const um = await role('攻击39-企业账号管理', [MENU.system, MENU.user, ...btn(MENU.user)], '本企业', COMPANY.producer, 3);
    const rm = await role('攻击39-企业角色管理', [MENU.system, MENU.role, ...btn(MENU.role), MENU.waste], '本企业', COMPANY.producer, 3);
    ownRole = rm;
    users = (await account('atk39_um', DEPT.producers, COMPANY.producer, [um])).api;
    roles = (await account('atk39_rm', DEPT.producers, COMPANY.producer, [rm])).api;
    mate = (await account('atk39_mate', DEPT.producers, COMPANY.producer, [ROLE.producer])).id;
  });
  const get = async (id: number) => (await as.admin!.get('/api/users', { size: 500 })).body.content.find((u: any) => u.id === id);

  it('a company user manager edits, moves or deletes no account of another company, nor moves its own out', async () => {
    const disposer = await get(USER.disposer);
    const m = await get(mate);
    const probes: [string, () => Promise<ApiResponse>][] = [
      ['edit the disposer', () => users.put('/api/users', { ...disposer, nickName: '攻击39' })],
      ['disable the disposer', () => users.put('/api/users', { ...disposer, enabled: false })],
      ['move a mate to the disposer company', () => users.put('/api/users', { ...m, companyId: COMPANY.disposer })],
      [
        'move a mate to another company’s department',
        () => users.put('/api/users', { ...m, deptId: DEPT.disposers, dept: { id: DEPT.disposers } }),
      ],
      ['move a mate out of any company', () => users.put('/api/users', { ...m, companyId: null })],
      ['give a mate the supervisor role', () => users.put('/api/users', { ...m, roles: [{ id: ROLE.supervisor }] })],
      ['give a mate the super admin role', () => users.put('/api/users', { ...m, roles: [{ id: ROLE.superAdmin }] })],
      ['make a mate admin', () => users.put('/api/users', { ...m, isAdmin: true })],
      [
        'add a user to the disposer company',
        () =>
          users.post('/api/users', {
            username: 'atk39_x1',
            nickName: 'x',
            phone: '13939390001',
            deptId: DEPT.disposers,
            companyId: COMPANY.disposer,
            roles: [{ id: ROLE.disposer }],
          }),
      ],
      [
        'add a user of no company',
        () =>
          users.post('/api/users', {
            username: 'atk39_x2',
            nickName: 'x',
            phone: '13939390002',
            deptId: DEPT.platform,
            companyId: null,
            roles: [{ id: ROLE.producer }],
          }),
      ],
      [
        'add a user in the own company with another company’s department',
        () =>
          users.post('/api/users', {
            username: 'atk39_x3',
            nickName: 'x',
            phone: '13939390003',
            deptId: DEPT.disposers,
            companyId: COMPANY.producer,
            roles: [{ id: ROLE.producer }],
          }),
      ],
      ['delete the disposer', () => users.delete('/api/users', [USER.disposer])],
      ['delete the admin', () => users.delete('/api/users', [USER.admin])],
    ];
    for (const [what, send] of probes) {
      const r = await send();
      expect(r.status, `${what}: ${said(r)}`).toBeGreaterThanOrEqual(400);
      expect(r.status, `${what}: ${said(r)}`).toBeLessThan(500);
    }
    const after = await get(USER.disposer);
    expect(after.nickName).toBe(disposer.nickName);
    expect(after.enabled).toBe(disposer.enabled);
    const m2 = await get(mate);
    expect(m2.company).toBe(COMPANY.producer);
    expect(m2.deptId).toBe(DEPT.producers);
    expect(m2.roles.map((x: any) => x.id)).toEqual([ROLE.producer]);
    expect(m2.isAdmin).toBe(false);
    // The list reads only its own company.
    const listed = await users.get('/api/users', { size: 500, companyId: COMPANY.disposer });
    if (listed.status === 200) expect(listed.body.content.every((u: any) => u.company === COMPANY.producer)).toBe(true);
  });

  it('a company role manager makes, edits or grants no role beyond its company and its own menus', async () => {
    const probes: [string, () => Promise<ApiResponse>][] = [
      [
        'a role of another company',
        () => roles.post('/api/roles', { name: '攻击39-x1', level: 3, dataScope: '本企业', companyId: COMPANY.disposer, menus: [] }),
      ],
      ['a platform role', () => roles.post('/api/roles', { name: '攻击39-x2', level: 3, dataScope: '本企业', companyId: null, menus: [] })],
      [
        'a role of scope 全部',
        () => roles.post('/api/roles', { name: '攻击39-x3', level: 3, dataScope: '全部', companyId: COMPANY.producer, menus: [] }),
      ],
      [
        'a level-1 role',
        () => roles.post('/api/roles', { name: '攻击39-x4', level: 1, dataScope: '本企业', companyId: COMPANY.producer, menus: [] }),
      ],
      [
        'a role with the user menus',
        () =>
          roles.post('/api/roles', {
            name: '攻击39-x5',
            level: 3,
            dataScope: '本企业',
            companyId: COMPANY.producer,
            menus: [MENU.user, ...btn(MENU.user)].map((id) => ({ id })),
          }),
      ],
      [
        'edit the disposer role',
        () => roles.put('/api/roles', { id: ROLE.disposer, name: '处置企业', level: 3, dataScope: '全部', menus: [] }),
      ],
      ['edit the supervisor role', () => roles.put('/api/roles', { id: ROLE.supervisor, name: 'x', level: 3, dataScope: '本企业' })],
      [
        'grant the menu page to the own role',
        () =>
          roles.put('/api/roles/menu', {
            id: ownRole,
            menus: [MENU.system, MENU.role, ...btn(MENU.role), MENU.waste, MENU.menu, MENU.user].map((id) => ({ id })),
          }),
      ],
      ['grant the producer role the user menu', () => roles.put('/api/roles/menu', { id: ROLE.producer, menus: [{ id: MENU.user }] })],
      [
        'scope of own role to 全部',
        () =>
          roles.put('/api/roles', { id: ownRole, name: '攻击39-企业角色管理', level: 3, dataScope: '全部', companyId: COMPANY.producer }),
      ],
      [
        'own role to another company',
        () =>
          roles.put('/api/roles', { id: ownRole, name: '攻击39-企业角色管理', level: 3, dataScope: '本企业', companyId: COMPANY.disposer }),
      ],
      ['delete the disposer role', () => roles.delete('/api/roles', [ROLE.disposer])],
    ];
    for (const [what, send] of probes) {
      const r = await send();
      // A company's role is always its own company's: a companyId sent is replaced, not obeyed.
      if (r.status < 300 && ['a role of another company', 'a platform role', 'own role to another company'].includes(what)) {
        const made = await as.admin!.get(`/api/roles/${r.body?.id ?? ownRole}`);
        expect(made.body.companyId, `${what}: ${said(made)}`).toBe(COMPANY.producer);
        continue;
      }
      expect(r.status, `${what}: ${said(r)}`).toBeGreaterThanOrEqual(400);
      expect(r.status, `${what}: ${said(r)}`).toBeLessThan(500);
    }
    const check = await as.admin!.get(`/api/roles/${ROLE.disposer}`);
    expect(check.body.dataScope, said(check)).not.toBe('全部');
  });
});

describe('view lists: paging, sort and filter values', () => {
  it('refuses or answers, never passing a bad value to the database', async () => {
    const probes: Record<string, unknown>[] = [
      { page: 2_147_483_648 },
      { page: 1e15 },
      { page: '9007199254740993' },
      { page: -1 },
      { size: 1e9 },
      { size: -5 },
      { size: 0 },
      { sort: 'id,desc,asc' },
      { sort: 'id;select 1,desc' },
      { sort: ['id,desc', 'createTime,asc', 'id,asc'] },
      { sort: 'createTime,DESC NULLS FIRST' },
      { id: '99999999999' },
      { id: '1e3' },
      { id: ['1', '99999999999'] },
      { startTime: '9999-12-31 23:59:59', endTime: '9999-12-31 23:59:59' },
      { updateTime: '2026-02-30' },
    ];
    for (const viewId of [12, 16, 20])
      for (const q of probes) {
        const r = await as.producer!.get(`/api/general/list/${viewId}`, q);
        if (r.status === 200) continue;
        refusedBeforeDb(r, `${viewId} ${JSON.stringify(q)}`);
      }
    for (const id of [99_999_999_999, '2147483648', -1, 0, '1e3', '0x10'])
      for (const viewId of [12, 16, 20]) {
        const r = await as.producer!.get('/api/general/detail', { generalId: viewId, id });
        if (r.status === 200) {
          // Lax ids ('0x10' reads as 16) may answer a record, but only one the producer's own list holds.
          const mine = (await as.producer!.get(`/api/general/list/${viewId}`, { size: 500 })).body.content.map((x: any) => Number(x.id));
          expect(mine, `${viewId} ${id}: ${said(r)}`).toContain(Number(r.body.id));
          continue;
        }
        refusedBeforeDb(r, `detail ${viewId} ${id}`);
      }
  });
});

describe('view lists: time bounds of the first centuries', () => {
  // Was a hole: years 0001..0099 are read by JavaScript's Date.UTC as 1901..1999, so a list's time
  // bound of those years passes the check and then reaches PostgreSQL as a text it refuses
  // (endTime=0001-01-01 → 400 DB_TIME_FORMAT; startTime=0099-12-31 on view 12 → 400 DB_TIME_RANGE).
  it('startTime/endTime of years 0001..0099 are refused or answered, never passed on to fail in the database', async () => {
    for (const q of [
      { endTime: '0001-01-01' },
      { startTime: '0099-12-31' },
      { startTime: '2026-01-01', endTime: '0001-01-01' },
      { endTime: '0050-06-30' },
    ])
      for (const viewId of [12, 16]) {
        const r = await as.producer!.get(`/api/general/list/${viewId}`, q);
        if (r.status !== 200) refusedBeforeDb(r, `${viewId} ${JSON.stringify(q)}`);
      }
  });
  // Was wrong: the same bounds give different rows by view (memory or SQL reader):
  // on view 16 endTime=0999-05-05 answers rows created in 2026, and startTime=0099-12-31 answers none.
  it('an endTime before year 1000 lists no row of 2026, a startTime before year 1000 lists them all', async () => {
    for (const viewId of [12, 16]) {
      const all = (await as.producer!.get(`/api/general/list/${viewId}`, { size: 500 })).body.totalElements as number;
      for (const endTime of ['0999-05-05', '0100-01-01', '0999-12-31 23:59:59']) {
        const r = await as.producer!.get(`/api/general/list/${viewId}`, { endTime, size: 500 });
        if (r.status === 200) expect(r.body.totalElements, `${viewId} endTime=${endTime}`).toBe(0);
      }
      for (const startTime of ['0099-12-31', '0500-01-01', '0001-01-01']) {
        const r = await as.producer!.get(`/api/general/list/${viewId}`, { startTime, size: 500 });
        if (r.status === 200) expect(r.body.totalElements, `${viewId} startTime=${startTime}`).toBe(all);
      }
    }
  });
});

describe('view lists: a createTime filter of year 0000', () => {
  // Was a hole: GET /api/general/list/12?createTime=0000-01-01 answers 500 INTERNAL_ERROR.
  it('createTime=0000-01-01 (or a range with it) is refused with a 4xx, not a 5xx', async () => {
    for (const createTime of ['0000-01-01', ['2026-01-01', '0000-01-01'], '0000-06-15 00:00:00', '0050-01-01'])
      for (const viewId of [12, 16, 20]) {
        const r = await as.producer!.get(`/api/general/list/${viewId}`, { createTime });
        if (r.status !== 200) refusedBeforeDb(r, `${viewId} createTime=${JSON.stringify(createTime)}`);
      }
  });
});
