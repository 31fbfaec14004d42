import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ROLE, USER } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { type LogRow, WRITERS } from '../helpers/audit-log.js';
import { type ApiClient, type ApiResponse, startTestServer, TEST_CAPTCHA, type TestServer } from '../helpers/server.js';
import { uploadFile, workbook } from '../helpers/sheets.js';
import { field } from '../helpers/wire-field.js';

// Attack round 40 on the audit trail, now that a call's writes carry their writer statement by statement
// (writerOf / writingAs) and the route modules' own handle refuses to write an audited table. Ordinary
// accounts try to get a change recorded as someone else's, or as no one's, or to make a call fail with
// "written without the writer of its call". Each test asserts the safe behaviour: a failing test is a
// finding. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;
let disposer: ApiClient;
let logistics: ApiClient;
let collector: ApiClient;
let viewId: number;
let table: string;

const who = WRITERS;
type Who = keyof typeof who;
const client = (w: Who): ApiClient => ({ admin, producer, disposer, logistics, collector })[w];
const ACCOUNTS: Who[] = ['producer', 'disposer', 'logistics', 'collector'];

/** Calls that may write an audited record with nobody signed in (so with no writer). */
const PUBLIC_WRITES = ['POST /api/companyApplication/insert', 'POST /api/init'];

type Log = LogRow;

const db = () => server.ctx.db;

/** The entry id every entry of the running test comes after. */
let mark = 0;
const lastEntry = async () => (await sql<{ n: number }>`select coalesce(max(id), 0)::int as n from sys_log`.execute(db())).rows[0]?.n ?? 0;

/** The running test's entries of records of `tbl` (all, or of those ids), oldest first. */
async function logs(tbl: string, ids?: (number | string)[]): Promise<Log[]> {
  if (ids && !ids.length) return [];
  const r = await sql<Log>`select id::int as id, user_id, username, company_id::int as company_id, record_table, record_id, action,
      request_id, method, changes
    from sys_log where id > ${mark} and record_table = ${tbl}
    ${ids ? sql`and record_id in (${sql.join(ids.map(String))})` : sql``} order by id`.execute(db());
  return r.rows;
}

/** Ids of the test view's records whose title starts with `prefix`. */
async function idsOf(prefix: string, tbl = table): Promise<number[]> {
  const r = await sql<{ id: number }>`select id::int as id from ${sql.table(tbl)} where title like ${`${prefix}%`} order by id`.execute(
    db(),
  );
  return r.rows.map((x) => x.id);
}

/** Every entry is the writer's, with its user, username, company and a request id. */
function expectWriter(entries: Log[], w: Who, label = '') {
  for (const e of entries)
    expect({ u: e.user_id, n: e.username, c: e.company_id, r: typeof e.request_id }, `${label} ${e.record_table}#${e.record_id}`).toEqual({
      u: who[w].u,
      n: w,
      c: who[w].c,
      r: 'string',
    });
}

const ok = (responses: ApiResponse[]) =>
  expect(
    responses.filter((r) => r.status >= 300).map((r) => [r.status, JSON.stringify(r.body).slice(0, 200)]),
    'every call answers',
  ).toEqual([]);

const add = (c: ApiClient, title: string, extra: Record<string, unknown> = {}) =>
  c.post(`/api/general/add/${viewId}`, { title, score: 1, ...extra });
const update = (c: ApiClient, id: number, title: string, extra: Record<string, unknown> = {}) =>
  c.post(`/api/general/update/${viewId}`, { id, title, score: 2, ...extra });

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const pngForm = (fieldName: string, name: string) => {
  const fd = new FormData();
  fd.append(fieldName, new Blob([new Uint8Array(PNG)], { type: 'image/png' }), name);
  return fd;
};

/** A view of its own: a title, a whole number, an amount and a long note, every button granted to the company roles. */
async function makeView(componentName: string, name: string): Promise<number> {
  const created = await admin.post('/api/generation/add', {
    name,
    disMenu: JSON.stringify({ componentName, name, pid: null }),
  });
  expect(created.status).toBe(200);
  const id = created.body.id as number;
  const tpl = {
    basicOption: { sortName: 'id', sortType: 'desc' },
    tableOption: [
      field('title', '名称', 'varchar', { search: true }),
      field('score', '评分', 'long'),
      field('amount', '金额', 'decimal'),
      field('note', '备注', 'varchar', { textarea: true }),
    ],
    formOption: [
      field('title', '名称', 'varchar', { required: true }),
      field('score', '评分', 'long', { min: 0, max: 1000 }),
      field('amount', '金额', 'decimal', { decimals: 2 }),
      field('note', '备注', 'varchar', { textarea: true }),
    ],
  };
  expect((await admin.post('/api/generation/design', { id, disTemplate: JSON.stringify(tpl) })).status).toBe(200);
  expect((await admin.post('/api/generation/publish', { id })).status).toBe(200);
  await sql`insert into sys_roles_menus (role_id, menu_id) select r, m.id from sys_menu m,
      unnest(${[ROLE.producer, ROLE.disposer, ROLE.logistics, ROLE.collector]}::int[]) r
    where m.permission like ${`${componentName}:%`} on conflict do nothing`.execute(db());
  return id;
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
  viewId = await makeView('atk40', '审计四十');
  table = `lc_view_${viewId}`;
  server.ctx.sessions.invalidate();
  [producer, disposer, logistics, collector] = await Promise.all([
    server.login('producer'),
    server.login('disposer'),
    server.login('logistics'),
    server.login('collector'),
  ]);
});
afterAll(async () => {
  await server?.close();
});

beforeEach(async () => {
  mark = await lastEntry();
});

// Whatever a test did: no call's entries name two writers; no record entry lacks its call; a named writer
// is the account it says (its username and company); nobody is the writer only of a public call.
afterEach(async () => {
  const mixed = await sql<{ request_id: string }>`select request_id from sys_log where request_id is not null group by request_id
    having count(distinct coalesce(user_id::text, '-') || '/' || coalesce(username, '-') || '/' || coalesce(company_id::text, '-')) > 1`.execute(
    db(),
  );
  expect(mixed.rows, 'a call whose entries name two writers').toEqual([]);
  const orphans =
    await sql<Log>`select id, record_table, record_id, method from sys_log where record_table is not null and request_id is null`.execute(
      db(),
    );
  expect(orphans.rows, 'record entries without a call').toEqual([]);
  const misnamed =
    await sql<Log>`select l.id, l.user_id, l.username, l.company_id::int as company_id, l.record_table, l.method from sys_log l
    join sys_user u on u.id = l.user_id
    where l.record_table is not null and (l.username is distinct from u.username or l.company_id is distinct from u.company_id)`.execute(
      db(),
    );
  expect(misnamed.rows, 'entries naming another account than their user').toEqual([]);
  const nobody = await sql<Log>`select id, record_table, record_id, method from sys_log
    where record_table is not null and user_id is null and method <> all(${PUBLIC_WRITES}::text[])`.execute(db());
  expect(nobody.rows, 'entries of signed-in calls without a writer').toEqual([]);
});

describe('many accounts writing records at once', () => {
  it("records each of many parallel adds, edits, deletes and imports of five accounts on one view as its caller's", async () => {
    const N = 6;
    const all: Who[] = ['admin', ...ACCOUNTS];
    const adds = await Promise.all(all.flatMap((w) => Array.from({ length: N }, (_, i) => add(client(w), `${w}-a-${i}`))));
    ok(adds);
    const mine = Object.fromEntries(await Promise.all(all.map(async (w) => [w, await idsOf(`${w}-a-`)] as const))) as Record<Who, number[]>;
    for (const w of all) expect(mine[w], w).toHaveLength(N);
    const sheet = await workbook([['名称', '评分'], ...Array.from({ length: 12 }, (_, i) => (i % 4 ? [`imp-${i}`, 5] : ['', 5000]))]);
    // Each edits its own, the administrator some of everyone's; each deletes two of its own; three import.
    const writes = await Promise.all([
      ...all.flatMap((w) => mine[w].slice(0, 3).map((id) => update(client(w), id, `${w}-u-${id}`))),
      ...ACCOUNTS.map((w) => update(admin, mine[w][3] as number, `admin-u-${mine[w][3]}`)),
      ...all.map((w) => client(w).post(`/api/general/delete/${viewId}`, mine[w].slice(4))),
      ...(['producer', 'disposer', 'logistics'] as const).map((w) => uploadFile(client(w), viewId, `${w}.xlsx`, sheet)),
    ]);
    ok(writes);
    const entries = await logs(table);
    for (const w of all) {
      const own = entries.filter((e) => Number.isInteger(Number(e.record_id)) && mine[w].includes(Number(e.record_id)));
      expectWriter(
        own.filter((e) => e.action === 'insert'),
        w,
        'add',
      );
      expect(
        own.filter((e) => e.action === 'insert'),
        `${w} adds`,
      ).toHaveLength(N);
      const edits = own.filter((e) => e.action === 'update');
      expect(edits, `${w} edits`).toHaveLength(w === 'admin' ? 3 : 4);
      for (const e of edits) expectWriter([e], String(e.changes?.title?.[1]).startsWith('admin-u-') ? 'admin' : w, 'edit');
      const gone = own.filter((e) => e.action === 'delete');
      expect(gone.map((e) => Number(e.record_id)).sort(), `${w} deletes`).toEqual(mine[w].slice(4).sort());
      expectWriter(gone, w, 'delete');
    }
    // Imports: nine good rows each, every one recorded as the importer's.
    const owners = await sql<{
      id: number;
      by: string;
    }>`select id::int as id, create_by as by from ${sql.table(table)} where title like 'imp-%'`.execute(db());
    expect(owners.rows).toHaveLength(27);
    for (const row of owners.rows) {
      const es = entries.filter((e) => Number(e.record_id) === row.id);
      expect(es).toHaveLength(1);
      expectWriter(es, row.by as Who, 'import');
    }
  });
});

describe("the core calls' writes at once", () => {
  it("records company banks, profiles, leave messages, labels, uploads, dictionaries and messages of six accounts as their callers'", async () => {
    const phones = Object.fromEntries(
      (await sql<{ username: string; phone: string }>`select username, phone from sys_user`.execute(db())).rows.map((r) => [
        r.username,
        r.phone,
      ]),
    ) as Record<string, string>;
    const calls = await Promise.all([
      ...ACCOUNTS.flatMap((w, k) =>
        [0, 1].map((i) =>
          client(w).put('/api/companyBank', { bankName: `${w}银行${i}`, accountName: w, accountNo: `6222000011${k}${i}223344` }),
        ),
      ),
      ...ACCOUNTS.flatMap((w) => [0, 1].map((i) => client(w).put('/api/users/center', { nickName: `${w}${i}`, phone: phones[w] }))),
      producer.post('/api/leaveMessage', { content: '留言-producer', reception: 'disposer' }),
      disposer.post('/api/leaveMessage', { content: '留言-disposer', reception: 'producer' }),
      logistics.post('/api/leaveMessage', { content: '留言-logistics' }),
      producer.get('/api/materialsCode/saveBatch', { createNum: 3 }),
      disposer.get('/api/materialsCode/saveBatch', { createNum: 2 }),
      producer.request('POST', '/api/file/upload', { body: pngForm('file', 'p.png') }),
      collector.request('POST', '/api/file/upload', { body: pngForm('file', 'c.png') }),
      collector.request('POST', '/api/users/updateAvatar', { body: pngForm('avatar', '头像.png') }),
      admin.post('/api/dict', { name: 'atk40Dict', description: '攻击' }),
      admin.post('/api/sysMessage', { title: '攻击40', content: '攻击40', usernames: ['producer', 'disposer', 'logistics'] }),
      ...ACCOUNTS.map((w) => add(client(w), `${w}-core`)),
    ]);
    ok(calls);
    // Company banks: each entry is of its writer's own company.
    const banks = await logs('company_bank');
    expect(banks.length).toBeGreaterThanOrEqual(4);
    for (const e of banks) expectWriter([e], (ACCOUNTS.find((w) => String(who[w].c) === e.record_id) ?? 'admin') as Who, 'bank');
    // Profiles: each account's own row, by itself.
    const users = (await logs('sys_user')).filter((e) => e.changes?.nick_name || e.changes?.avatar);
    expect(users.length).toBeGreaterThanOrEqual(4);
    for (const e of users) expectWriter([e], (ACCOUNTS.find((w) => String(who[w].u) === e.record_id) ?? 'admin') as Who, 'profile');
    // Leave messages: by their senders.
    const leave = (await logs('leave_message')).filter((e) => e.action === 'insert');
    expect(leave).toHaveLength(3);
    for (const e of leave) expectWriter([e], String(e.changes?.content?.[1]).replace('留言-', '') as Who, 'leave');
    // Labels and files: by those they belong to.
    const labels = await logs('materials_code');
    expect(labels).toHaveLength(5);
    for (const e of labels) expectWriter([e], e.changes?.user_id?.[1] === USER.producer ? 'producer' : 'disposer', 'label');
    const files = await logs('file_record');
    expect(files).toHaveLength(3);
    for (const e of files) expectWriter([e], e.changes?.user_id?.[1] === USER.producer ? 'producer' : 'collector', 'file');
    expectWriter(await logs('sys_dict'), 'admin', 'dict');
    const sent = await logs('sys_message');
    expect(sent.filter((e) => e.action === 'insert').length).toBeGreaterThanOrEqual(3);
    expectWriter(sent, 'admin', 'message');
    for (const w of ACCOUNTS) expectWriter(await logs(table, await idsOf(`${w}-core`)), w, 'record');

    // The recipients delete their messages through GET calls, at once, beside the administrator's dictionary edits.
    const msgs = await sql<{ id: number; user_id: number }>`select id::int as id, user_id from sys_message where title = '攻击40'`.execute(
      db(),
    );
    const dict = (await sql<{ id: number }>`select id from sys_dict where name = 'atk40Dict'`.execute(db())).rows[0]?.id as number;
    const second = await Promise.all([
      ...(['producer', 'disposer', 'logistics'] as const).map((w) =>
        client(w).get('/api/sysMessage/deleteMsg', {
          ids: msgs.rows
            .filter((m) => m.user_id === who[w].u)
            .map((m) => m.id)
            .join(','),
        }),
      ),
      admin.post('/api/dictDetail', { dictId: dict, label: '甲', value: 'a' }),
      admin.put('/api/dict', { id: dict, name: 'atk40Dict', description: '改过' }),
      producer.get('/api/sysMessage/readAll'),
    ]);
    ok(second);
    const deleted = (await logs('sys_message')).filter((e) => e.action === 'delete');
    expect(deleted).toHaveLength(msgs.rows.length);
    for (const e of deleted) {
      const owner = msgs.rows.find((m) => String(m.id) === e.record_id)?.user_id;
      expectWriter([e], (['producer', 'disposer', 'logistics'] as const).find((w) => who[w].u === owner) as Who, 'deleteMsg');
    }
    expectWriter([...(await logs('sys_dict')), ...(await logs('sys_dict_detail'))], 'admin', 'dict 2');
  });
});

describe('administration beside record writes', () => {
  it("records roles, menus, departments, users and password resets made at once with others' record writes as the administrator's", async () => {
    const made = await Promise.all([
      admin.post('/api/roles', { name: '攻击角色甲', dataScope: '全部', menus: [{ id: 71 }] }),
      admin.post('/api/roles', { name: '攻击角色乙', dataScope: '本企业', menus: [{ id: 72 }] }),
      admin.post('/api/menus', { title: '攻击菜单', type: 0, path: 'atk40menu', menuSort: 99 }),
      admin.post('/api/dept', { pid: 3, name: '攻击部门', code: '4040' }),
      admin.post('/api/users', { username: 'atk40user', nickName: '攻击用户', phone: '13740404040', roles: [{ id: ROLE.logistics }] }),
      ...ACCOUNTS.map((w) => add(client(w), `${w}-adm1`)),
    ]);
    ok(made);
    const [roleA, roleB, menu, dept, user] = made.map((r) => r.body);
    const changed = await Promise.all([
      admin.put('/api/roles/menu', { id: roleA.id, menus: [{ id: 71 }, { id: 72 }] }),
      admin.request('DELETE', '/api/roles', { json: [roleB.id] }),
      admin.put('/api/menus', { id: menu.id, title: '攻击菜单改', type: 0, path: 'atk40menu' }),
      admin.put('/api/dept', { id: dept.id, pid: 3, name: '攻击部门改', code: '4040' }),
      admin.put('/api/users', { ...user, nickName: '攻击用户改', roles: [{ id: ROLE.collector }] }),
      admin.post('/api/pwd/reset', [user.id]),
      ...ACCOUNTS.map((w) => add(client(w), `${w}-adm2`)),
      ...ACCOUNTS.map((w) => client(w).put('/api/companyBank', { bankName: `${w}行`, accountName: w, accountNo: '6222000099998888' })),
    ]);
    ok(changed);
    const removed = await Promise.all([
      admin.request('DELETE', '/api/menus', { json: [menu.id] }),
      admin.request('DELETE', '/api/dept', { json: [dept.id] }),
      admin.request('DELETE', '/api/users', { json: [user.id] }),
      ...ACCOUNTS.map((w) => add(client(w), `${w}-adm3`)),
    ]);
    ok(removed);
    for (const t of ['sys_role', 'sys_menu', 'sys_dept', 'sys_roles_menus', 'sys_users_roles']) {
      const es = await logs(t);
      expect(es.length, t).toBeGreaterThan(0);
      expectWriter(es, 'admin', t);
    }
    const userEntries = await logs('sys_user', [user.id]);
    expect(userEntries.map((e) => e.action)).toEqual(['insert', 'update', 'update', 'update']);
    expectWriter(userEntries, 'admin', 'user');
    for (const w of ACCOUNTS) {
      const es = await logs(table, [...(await idsOf(`${w}-adm`))]);
      expect(es, w).toHaveLength(3);
      expectWriter(es, w, 'record');
      expectWriter(await logs('company_bank', [String(who[w].c)]), w, 'bank');
    }
  });
});

describe('design beside record writes', () => {
  it("records views, screens, share keys and data views designed at once with others' writes as the designer's", async () => {
    const tpl = JSON.stringify({ tableOption: [field('title', '名称', 'varchar')], formOption: [field('title', '名称', 'varchar')] });
    const first = await Promise.all([
      admin.post('/api/generation/add', {
        name: '攻击视图',
        disMenu: JSON.stringify({ componentName: 'atk40b', name: '攻击视图', pid: null }),
      }),
      admin.post('/api/screen/add', { name: '攻击大屏', type: 2, status: 1 }),
      admin.post('/api/screen/add', { name: '攻击列表', type: 1 }),
      admin.post('/api/data/add', { name: '攻击数据', sql: 'select count(*) as n from company' }),
      ...ACCOUNTS.map((w) => add(client(w), `${w}-des1`)),
    ]);
    ok(first);
    const [view, bigScreen, listScreen, dataView] = first.map((r) => r.body.id as number);
    const second = await Promise.all([
      admin.post('/api/generation/design', { id: view, disTemplate: tpl }),
      admin.post('/api/screen/share', { id: bigScreen, expiresIn: 3600 }),
      admin.post('/api/screen/update', { id: listScreen, name: '攻击列表改' }),
      admin.post('/api/data/update', { id: dataView, name: '攻击数据改', sql: 'select count(*) as m from company' }),
      ...ACCOUNTS.map((w) => add(client(w), `${w}-des2`)),
    ]);
    ok(second);
    const third = await Promise.all([
      admin.post('/api/generation/publish', { id: view }),
      admin.post('/api/screen/renewKey', { id: bigScreen }),
      admin.post('/api/screen/delete', [listScreen]),
      admin.post('/api/data/delete', [dataView]),
      ...ACCOUNTS.map((w) => add(client(w), `${w}-des3`)),
    ]);
    ok(third);
    const fourth = await Promise.all([
      admin.post(`/api/general/add/${view}`, { title: '新视图的记录' }),
      admin.post('/api/generation/delete', [view]),
      ...ACCOUNTS.map((w) => add(client(w), `${w}-des4`)),
    ]);
    ok(fourth);
    for (const t of ['lc_generation', 'lc_screen', 'lc_data_view', 'sys_menu']) {
      const es = await logs(t);
      expect(es.length, t).toBeGreaterThan(0);
      expectWriter(es, 'admin', t);
    }
    // The share key never shows; a first share and a renewal are each recorded.
    const keys = (await logs('lc_screen', [bigScreen as number])).filter((e) => e.changes?.access_key);
    expect(keys.map((e) => e.changes?.access_key)).toEqual([
      [null, '******'],
      ['******', '******'],
    ]);
    for (const w of ACCOUNTS) {
      const es = await logs(table, await idsOf(`${w}-des`));
      expect(es, w).toHaveLength(4);
      expectWriter(es, w, 'record');
    }
  });
});

describe('other write calls of ordinary accounts', () => {
  it('answer no 500 for valid input, and each change is recorded as its caller', async () => {
    const bulletin = await admin.post('/api/bulletin', { title: '攻击公告', content: '<p>正文</p>' });
    expect(bulletin.status).toBe(200);
    const app = async () => ({
      name: '攻击四十科技有限公司',
      type: '1',
      region: '320000,320100,320113',
      regionFmt: '江苏省/南京市/栖霞区',
      applicant: '申请人',
      phone: '13840404041',
      source: 2,
      code: TEST_CAPTCHA,
      uuid: String((await server.api.get('/api/auth/code')).body.uuid),
    });
    const apply = await server.api.post('/api/companyApplication/insert', await app());
    expect(apply.status).toBe(200);
    const applId = (await sql<{ id: number }>`select id from company_application where phone = '13840404041'`.execute(db())).rows[0]?.id;
    const calls: [Who, Promise<ApiResponse>][] = [
      [
        'producer',
        producer.post('/api/dispoaslTestingApplication/apply', {
          disposerCompanyId: COMPANY.disposer,
          wasteCategoryCode: '900-041-49',
          wasteName: '废活性炭',
          linkman: '张三',
          phone: '13800000000',
        }),
      ],
      ['producer', producer.post('/api/companyApi/update', { contactName: '攻击联系人' })],
      ['disposer', disposer.post('/api/code/resetEmail', undefined, { email: 'atk40@lvyuan.cn' })],
      ['logistics', logistics.post('/api/viewsNum/add', { id: bulletin.body.id })],
      ['admin', admin.post('/api/companyApplication/approve', { id: applId, username: 'atk40co', roles: [{ id: ROLE.producer }] })],
      ['admin', admin.put('/api/companyApi/homePage/target', { name: 'allCompany', value: 40 })],
    ];
    const answers = await Promise.all(calls.map(([, p]) => p));
    expect(answers.filter((r) => r.status >= 500).map((r) => r.body)).toEqual([]);
    ok(answers);
    const email = await disposer.post(`/api/users/updateEmail/${TEST_CAPTCHA}`, {
      pass: await disposer.encrypt('Waste@2026'),
      email: 'atk40@lvyuan.cn',
    });
    expect(email.status).toBe(200);
    expectWriter(await logs('disposal_testing_application'), 'producer', 'testing');
    // The disposer's company is told of the application (the producer's write); the new account of its approval (the administrator's).
    const newUser = (await sql<{ id: number }>`select id from sys_user where username = 'atk40co'`.execute(db())).rows[0]?.id;
    const told = await logs('sys_message');
    expect(told.length).toBeGreaterThanOrEqual(2);
    for (const e of told) expectWriter([e], e.changes?.user_id?.[1] === newUser ? 'admin' : 'producer', 'message');
    expectWriter(await logs('company', [String(COMPANY.producer)]), 'producer', 'company');
    expectWriter(await logs('sys_user', [String(USER.disposer)]), 'disposer', 'email');
    // A read counted is no change to record.
    expect((await logs('bulletin', [bulletin.body.id])).filter((e) => e.method?.includes('viewsNum'))).toEqual([]);
    const approved = [
      ...(await logs('company_application')).filter((e) => e.action === 'update'),
      ...(await logs('company')).filter((e) => e.action === 'insert'),
    ];
    expectWriter(approved, 'admin', 'approval');
    expectWriter(await logs('dash_target'), 'admin', 'target');

    // Accounts still held back (an agreement to accept, a password to change) write as themselves.
    const first = await server.api.loginRaw('newcomer', 'Waste@2026');
    expect(first.body.status).toBe(10001);
    const newcomer = server.api.withToken(first.body.token);
    const expired = await server.login('expired');
    const held = await Promise.all([
      newcomer.get('/api/guFeiUrl/enter', { deptCode: first.body.user.deptCode }),
      expired.changePassword('Waste@2026', 'Atk40@2026pw'),
      add(producer, 'beside-held'),
    ]);
    ok(held);
    const heldBy = async (username: string) =>
      (
        await sql<{ id: number; c: number | null }>`select id, company_id::int as c from sys_user where username = ${username}`.execute(
          db(),
        )
      ).rows[0] as { id: number; c: number | null };
    for (const [username, column] of [
      ['newcomer', 'agreement_accepted'],
      ['expired', 'password'],
    ] as const) {
      const u = await heldBy(username);
      const es = (await logs('sys_user', [u.id])).filter((e) => e.changes?.[column]);
      expect(es, username).toHaveLength(1);
      expect(es.map((e) => [e.user_id, e.username, e.company_id])).toEqual([[u.id, username, u.c]]);
    }
    expectWriter(await logs(table, await idsOf('beside-held')), 'producer');
  });
});

describe('business calls beside each other', () => {
  it("records manual orders, quotes and their notices, limits and script actions made at once as their callers'", async () => {
    const unloading = (await disposer.get('/api/companyWarehouse/unloadingPoint')).body.data[0];
    const inquiry = (
      await sql<{ id: number }>`select id::int as id from lc_view_15 where "companyId"::int = ${COMPANY.disposer}
        and coalesce("inquiryStatus", '0') in ('0', '1') order by id limit 1`.execute(db())
    ).rows[0]?.id;
    expect(inquiry).toBeDefined();
    const warehouse = (
      await sql<{
        id: number;
      }>`select id::int as id from company_warehouse where company_id = ${COMPANY.producer} order by id limit 1`.execute(db())
    ).rows[0]?.id;
    const stock = (await admin.get('/api/general/list/12', { status: '0', size: 3 })).body.content.map((r: { id: number }) => r.id);
    const calls = await Promise.all([
      disposer.post('/api/disposalOrder/insertManualDisposalOrder', {
        types: '1',
        needPrepay: 0,
        partyACompany: String(COMPANY.producer),
        partyBWarehouseId: unloading.id,
        wasteCategoryCode: '900-249-08',
        wasteCategoryName: '废矿物油',
        quantity: '2',
        unit: '吨',
        price: '100',
        estDisposalTime: '2026-12-01',
      }),
      disposer.post('/api/disposalQuotePirce/quotedPrice', { id: inquiry, quotedPrice: 1234 }),
      producer.post('/api/config', { warehouseId: warehouse, maxQuantity: 40 }),
      admin.post('/api/general/groovy/12', { groovyQueryParam: 'confirmStock', ids: stock }),
      ...ACCOUNTS.map((w) => add(client(w), `${w}-biz`)),
    ]);
    ok(calls);
    const orders = [...(await logs('lc_view_19')), ...(await logs('disposal_order_manual'))];
    expect(orders.length).toBeGreaterThanOrEqual(2);
    expectWriter(orders, 'disposer', 'order');
    const quoted = await logs('lc_view_15', [inquiry as number]);
    expect(quoted).toHaveLength(1);
    expectWriter(quoted, 'disposer', 'quote');
    // The asker's company is told of the quote: the disposer's write.
    expectWriter(await logs('sys_message'), 'disposer', 'notice');
    const limits = await logs('inventory_config');
    expect(limits).toHaveLength(1);
    expectWriter(limits, 'producer', 'limit');
    const confirmed = (await logs('lc_view_12', stock)).filter((e) => e.action === 'update');
    expect(confirmed.length).toBeGreaterThan(0);
    expectWriter(confirmed, 'admin', 'script');
    for (const w of ACCOUNTS) expectWriter(await logs(table, await idsOf(`${w}-biz`)), w, 'record');
  });

  it("records a record fought over by two writers, every edit as its own writer's", async () => {
    const id = (await add(producer, 'contested')).body.id as number;
    const edits = await Promise.all(
      Array.from({ length: 10 }, (_, i) => [
        update(producer, id, `producer-c-${i}`, { score: 100 + i }),
        update(admin, id, `admin-c-${i}`, { score: 200 + i }),
      ]).flat(),
    );
    ok(edits);
    const es = (await logs(table, [id])).filter((e) => e.action === 'update');
    expect(es).toHaveLength(20);
    for (const e of es) expectWriter([e], String(e.changes?.title?.[1]).split('-')[0] as Who, 'contested');
    // Each entry's before is the state the previous entry left.
    for (let i = 1; i < es.length; i++) expect(es[i]?.changes?.title?.[0]).toBe(es[i - 1]?.changes?.title?.[1]);
  });
});

describe('calls that must not write as anyone', () => {
  it('sign-ins, sign-outs, captchas, visits, share links and data views record no change, and leave no writer behind', async () => {
    const share = await admin.post('/api/screen/share', { id: 50, expiresIn: 3600 });
    expect(share.status).toBe(200);
    const link = new URL(share.body.url as string, server.url);
    const q = Object.fromEntries(link.searchParams);
    const before = await lastEntry();
    const churn = await Promise.all([
      ...Array.from({ length: 3 }, () => server.login('producer').then(() => ({ status: 200 }) as ApiResponse)),
      server.api.get('/api/auth/code'),
      server.api.post('/api/visits', {}),
      server.api.get('/api/open/getGeneralScreen', q),
      server.api.get('/api/open/getCityInfo', q),
      admin.post('/api/data/run', { sql: 'select count(*) as n from company' }),
      admin.post('/api/data/run', { sql: `select set_config('wastegen.audit', '{"u":3,"n":"producer","c":1,"r":"forged"}', false)` }),
      producer.get('/api/sysMessage/page'),
      producer.get(`/api/general/list/${viewId}`),
    ]);
    expect(churn.filter((r) => r.status >= 500).map((r) => r.body)).toEqual([]);
    const changed = await sql<Log>`select id, record_table, method from sys_log where id > ${before} and record_table is not null`.execute(
      db(),
    );
    expect(changed.rows).toEqual([]);
    // After all that, the system's own write is nobody's, and an account's write is its own.
    await db().updateTable('sys_user').set({ nick_name: '系统改的' }).where('id', '=', USER.guest).execute();
    expect((await add(disposer, 'after-churn')).status).toBe(200);
    expect(await logs('sys_user', [USER.guest])).toEqual([]);
    expectWriter(await logs(table, await idsOf('after-churn')), 'disposer');
    expect(await sql`select 1 from sys_log where request_id = 'forged'`.execute(db()).then((r) => r.rows)).toEqual([]);
  });
});

describe('record changes made by a design', () => {
  it("records every record a field's new type changes (an amount rounded, a note cut short)", async () => {
    const id = await makeView('atk40c', '类型变更');
    const tbl = `lc_view_${id}`;
    const long = 'x'.repeat(300);
    const rec = await producer.post(`/api/general/add/${id}`, { title: '变更前', score: 1, amount: 12.34, note: long });
    expect(rec.status).toBe(200);
    // Read with a text of its own each time: a statement prepared before the retype would be refused after it.
    const read = async (tag: string) =>
      (
        await sql<{
          amount: string;
          note: string;
        }>`select amount::text as amount, note::text as note, ${sql.lit(tag)}::text as tag from ${sql.table(tbl)} where id = ${rec.body.id}`.execute(
          db(),
        )
      ).rows[0];
    const was = await read('before');
    mark = await lastEntry();
    // The amount becomes a whole number and the note a one-line text (varchar(255)).
    const tpl = {
      tableOption: [field('title', '名称', 'varchar'), field('amount', '金额', 'long'), field('note', '备注', 'varchar')],
      formOption: [field('title', '名称', 'varchar'), field('amount', '金额', 'long'), field('note', '备注', 'varchar')],
    };
    const design = await admin.post('/api/generation/design', { id, disTemplate: JSON.stringify(tpl) });
    expect(design.status).toBeLessThan(500);
    // The change is made: the amount loses its fraction and the note is cut to 255 characters.
    expect(design.status).toBe(200);
    const now = await read('after');
    expect([Number(now?.amount), now?.note.length]).toEqual([12, 255]);
    expect([Number(was?.amount), was?.note.length]).toEqual([12.34, 300]);
    // The records changed: each change is recorded, as the designer's.
    // One entry per retyped field: each is its own statement.
    const entries = await logs(tbl, [rec.body.id]);
    expect(
      entries.flatMap((e) => Object.keys(e.changes ?? {})).sort(),
      `record changed: amount ${was?.amount} -> ${now?.amount}, note of ${was?.note.length} -> ${now?.note.length} characters`,
    ).toEqual(['amount', 'note']);
    expectWriter(entries, 'admin');
  });

  it('records the deletion of every record a deleted view takes with it', async () => {
    const id = await makeView('atk40d', '删除视图');
    const tbl = `lc_view_${id}`;
    const recs = await Promise.all(ACCOUNTS.map((w) => client(w).post(`/api/general/add/${id}`, { title: `${w}-doomed`, score: 1 })));
    ok(recs);
    mark = await lastEntry();
    expect((await admin.post('/api/generation/delete', [id])).status).toBe(200);
    const gone = (await logs(tbl)).filter((e) => e.action === 'delete');
    expect(gone.map((e) => Number(e.record_id)).sort(), 'a delete entry per record the view took with it').toEqual(
      recs.map((r) => Number(r.body.id)).sort(),
    );
  });
});

describe('public calls made while signed in', () => {
  // A public call is anonymous by design, whatever token comes with it: its entry names no account, only
  // the address, browser and call.
  it('records a company application, a public call, without an account even when a session is sent', async () => {
    const body = {
      name: '攻击四十二有限公司',
      type: '1',
      region: '320000,320100,320113',
      regionFmt: '江苏省/南京市/栖霞区',
      applicant: '物流',
      phone: '13840404042',
      source: 2,
      code: TEST_CAPTCHA,
      uuid: String((await server.api.get('/api/auth/code')).body.uuid),
    };
    const r = await logistics.post('/api/companyApplication/insert', body);
    expect(r.status).toBe(200);
    const entries = await logs('company_application');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ user_id: null, username: null, company_id: null });
    expect(entries[0]?.request_id).toBeTruthy();
  });
});
