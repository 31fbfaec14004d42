import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPT, MENU } from '../../server/seed/accounts.js';
import { COMPANY, viewMenuId } from '../../server/seed/ids.js';
import { accountMaker } from '../helpers/accounts.js';
import { inquiryBody } from '../helpers/inquiry.js';
import { offset, overlap, settled } from '../helpers/races.js';
import { said } from '../helpers/refusal.js';
import { type ApiClient, type ApiResponse, startTestServer, type TestServer } from '../helpers/server.js';
import { type Cell, sheetRows, uploadFile, workbook } from '../helpers/sheets.js';

/**
 * Attack 51: formData's `writable` against what the edit then does, formData reads with odd spellings,
 * and races on the new row and advisory locks (typed document numbers against imports, imports picking
 * orders during their hand-over, account edit/delete/reset at once, a role deleted while it is given).
 * Every request is raced against a 15 s limit, so a hang shows as a failure. Every probe asserts the
 * SAFE outcome.
 */

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;
let disposer: ApiClient;
let carrier: ApiClient;
let carrier2 = 0;
const db = () => server.ctx.db;
type Row = Record<string, unknown>;
const rows = async (q: RawBuilder<Row>) => (await q.execute(db())).rows;
const one = async (viewId: number, id: number) =>
  (await rows(sql<Row>`select * from ${sql.table(`lc_view_${viewId}`)} where id = ${id}`))[0] as Row | undefined;
const { account, role } = accountMaker(
  () => server,
  () => admin,
  '1395151',
);
const buttons = (page: number) => [page * 10 + 1, page * 10 + 2, page * 10 + 3];

beforeAll(async () => {
  server = await startTestServer();
  [admin, producer, disposer, carrier] = await Promise.all([
    server.login('admin'),
    server.login('producer'),
    server.login('disposer'),
    server.login('logistics'),
  ]);
  ({ id: carrier2 } = await db()
    .insertInto('company')
    .values({ name: '攻51第二承运物流有限公司', type: '3', status: 1 })
    .returning('id')
    .executeTakeFirstOrThrow());
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const GAPS = [0, -1, -3, -8, -21, 1, 3, 8, 15, 30];
const ROUNDS = GAPS.length * 2;
const clean = (r: ApiResponse) => r.status === 200 || r.status === 201 || (r.status >= 400 && r.status < 500);

describe('formData writable against the edit', () => {
  const SAMPLE: Row = {
    quotedPrice: 321,
    quoteTime: '2026-03-01 10:00:00',
    inquiryStatus: '1',
    replyContent: '攻51 回复',
    replyTime: '2026-03-01 10:00:00',
    haveRead: '1',
  };

  it('an account of the asked disposer that may list inquiries but not edit them is told no field it cannot write', async () => {
    const r = await role('攻51-询价只读', [MENU.dispose, viewMenuId(15)], '本企业', COMPANY.disposer);
    const reader = await account('atk51_inq_ro', DEPT.disposers, COMPANY.disposer, [r]);
    const added = await producer.post('/api/general/add/15', inquiryBody({ remark: '攻51 只读' }));
    expect(added.status, said(added)).toBe(200);
    const id = added.body.id as number;
    const form = await reader.api.get('/api/general/formData', { generalId: 15, id });
    expect(form.status, said(form)).toBe(200);
    const bad: string[] = [];
    for (const f of (form.body.writable as string[] | undefined) ?? []) {
      const up = await reader.api.post('/api/general/update/15', { id, [f]: SAMPLE[f] });
      if (up.status !== 200) bad.push(`writable lists ${f} but its edit answers ${up.status} ${said(up)}`);
    }
    expect(bad, JSON.stringify(form.body.writable)).toEqual([]);
  });

  it('a department account that may list 留言 but not edit them is told no field it cannot write', async () => {
    const r = await role('攻51-留言只读', [MENU.messages, viewMenuId(18)], '本企业', COMPANY.disposer);
    const reader = await account('atk51_msg_ro', DEPT.disposers, COMPANY.disposer, [r]);
    const added = await producer.post('/api/general/add/18', {
      title: '攻51 只读',
      content: 'x',
      contactName: '攻51',
      deptId: DEPT.disposers,
      haveRead: '2',
    });
    expect(added.status, said(added)).toBe(200);
    const id = added.body.id as number;
    const form = await reader.api.get('/api/general/formData', { generalId: 18, id });
    expect(form.status, said(form)).toBe(200);
    const bad: string[] = [];
    for (const f of (form.body.writable as string[] | undefined) ?? []) {
      const up = await reader.api.post('/api/general/update/18', { id, [f]: SAMPLE[f] });
      if (up.status !== 200) bad.push(`writable lists ${f} but its edit answers ${up.status} ${said(up)}`);
    }
    expect(bad, JSON.stringify(form.body.writable)).toEqual([]);
  });

  it('the asked disposer: its form submitting the listed fields (a quote) lands; fields not listed are kept', async () => {
    const bad: string[] = [];
    for (const status of ['0', '1', '2', '3']) {
      for (const next of ['1', '3']) {
        const added = await producer.post('/api/general/add/15', inquiryBody({ remark: `攻51 状态 ${status}` }));
        const id = added.body.id as number;
        await sql`update lc_view_15 set "inquiryStatus" = ${status} where id = ${id}`.execute(db());
        const form = await disposer.get('/api/general/formData', { generalId: 15, id });
        expect(form.status, said(form)).toBe(200);
        const writable = (form.body.writable as string[] | undefined) ?? [];
        // The form sends what it lists, filled in, and leaves the rest out.
        const filled: Row = { quotedPrice: 321, quoteTime: '2026-03-01 10:00:00', inquiryStatus: next };
        const body: Row = { id };
        for (const f of writable) body[f] = filled[f] ?? (form.body.data as Row)[f];
        const up = await disposer.post('/api/general/update/15', body);
        const r = await one(15, id);
        if (writable.length) {
          if (up.status !== 200) bad.push(`status ${status}→${next}: lists ${writable}, edit ${up.status} ${said(up)}`);
          // A rejection (3) hides the price (the form's relation): it is not written, by design.
          else
            for (const f of writable)
              if (f !== 'quoteTime' && !(f === 'quotedPrice' && next === '3') && String(r?.[f]) !== String(body[f]))
                bad.push(`status ${status}→${next}: ${f} listed, 200, stored ${String(r?.[f])}`);
        } else if (up.status === 200 && String(r?.inquiryStatus) !== status)
          bad.push(`status ${status}: nothing listed, yet the edit moved it to ${r?.inquiryStatus}`);
        for (const f of ['quantity', 'remark', 'wasteCategory', 'companyId']) {
          if (writable.includes(f)) continue;
          const before = await one(15, id);
          const value = f === 'quantity' ? 99 : f === 'companyId' ? COMPANY.disposer2 : f === 'wasteCategory' ? 'HW09' : '攻51 改';
          const up2 = await disposer.post('/api/general/update/15', { id, quotedPrice: 5, [f]: value });
          const after = await one(15, id);
          if (String(after?.[f]) !== String(before?.[f])) bad.push(`status ${status}: ${f} not listed, edit ${up2.status} changed it`);
        }
      }
    }
    expect(bad).toEqual([]);
  });
});

describe('formData reads nothing the list does not', () => {
  it("odd spellings of another company's inquiry id and of the view id answer no record", async () => {
    const mine = (await producer.post('/api/general/add/15', inquiryBody({ remark: '攻51 自有' }))).body.id as number;
    const other = (await producer.post('/api/general/add/15', inquiryBody({ remark: '攻51 他人', companyId: COMPANY.disposer2 }))).body
      .id as number;
    const own = (await disposer.post('/api/general/add/15', inquiryBody({ remark: '攻51 处置自有', companyId: COMPANY.disposer2 }))).body
      .id as number;
    const msg = (
      await producer.post('/api/general/add/18', {
        title: '攻51 他部门',
        content: 'x',
        contactName: '攻51',
        deptId: DEPT.disposer2,
        haveRead: '2',
      })
    ).body.id as number;
    const bad: string[] = [];
    const spell = (n: number) => [
      String(n),
      ` ${n}`,
      `${n} `,
      `0${n}`,
      `00${n}`,
      `${n}.0`,
      `+${n}`,
      `${n}e0`,
      `0x${n.toString(16)}`,
      `${n}abc`,
      `${n},${own}`,
    ];
    const probes: [string, Record<string, unknown>, number][] = [];
    for (const s of spell(other)) probes.push([`id=${s}`, { generalId: 15, id: s }, other]);
    probes.push(['id twice, own first', { generalId: 15, id: [own, other] }, other]);
    probes.push(['id twice, other first', { generalId: 15, id: [other, own] }, other]);
    probes.push(['id empty, key', { generalId: 15, id: '', key: other }, other]);
    for (const g of ['15', ' 15', '015', '15.0', '0xf']) probes.push([`generalId=${g}`, { generalId: g, id: other }, other]);
    for (const g of [16, 18, 19, 20, 12]) probes.push([`another view ${g}`, { generalId: g, id: other }, other]);
    for (const s of spell(msg)) probes.push([`留言 id=${s}`, { generalId: 18, id: s }, msg]);
    for (const [name, q, target] of probes) {
      const r = await disposer.get('/api/general/formData', q);
      if (r.status >= 500) bad.push(`${name}: ${r.status}`);
      const data = (r.body?.data ?? {}) as Row;
      if (r.status === 200 && Number(data.id) === target) {
        const table = q.generalId === 18 ? 18 : 15;
        const row = await one(table, target);
        // Only a record the list also shows (same view, same id) may be answered.
        if (Number(q.generalId) === table || String(q.generalId).trim() === String(table)) {
          if (table === 15 || table === 18) bad.push(`${name}: 200 with record ${target} (${String(row?.remark ?? row?.title)})`);
        }
      }
    }
    // Control: the disposer reads its own and the one addressed to it.
    expect((await disposer.get('/api/general/formData', { generalId: 15, id: mine })).status).toBe(200);
    expect(bad).toEqual([]);
  });
});

/** A new disposal order of the disposer's, carried by the seeded carrier. */
async function newOrder(remark: string): Promise<number> {
  const o = await disposer.post('/api/general/add/19', {
    producerId: COMPANY.producer,
    disposerId: COMPANY.disposer,
    carrierId: COMPANY.logistics,
    wasteCategory: 'HW08',
    quantity: 1,
    price: 1,
    remark,
  });
  expect(o.status, said(o)).toBe(200);
  return o.body.id as number;
}

let seq = 0;
const nextNo = () => `WL${String(595100000000 + ++seq)}`;
async function billBody(orderId: number, waybillNo: string): Promise<Row> {
  const [mine] = await rows(sql<Row>`select id from lc_view_20 where create_company = ${COMPANY.logistics} order by id limit 1`);
  const f = await carrier.get('/api/general/formData', { generalId: 20, id: Number(mine?.id) });
  const { id: _id, createTime: _c, ...rest } = f.body.data as Row;
  return { ...rest, disposalOrderId: orderId, waybillNo };
}

let sheet: { header: Cell[]; sample: Cell[] } | undefined;
async function importFile(orders: { id: number; no: string }[]): Promise<Buffer> {
  if (!sheet) {
    const exported = await carrier.get('/api/general/export/20/download', { startTime: '2000-01-01 00:00:00' });
    expect(exported.status).toBe(200);
    const [header = [], sample = []] = await sheetRows(exported.body as Buffer);
    sheet = { header, sample };
  }
  const { header, sample } = sheet;
  const options = (await carrier.get('/api/general/allList/19/queryLink', { queryParam: '' })).body as { label: string; value: number }[];
  const body = orders.map(({ id, no }) => {
    const label = options.find((o) => Number(o.value) === id)?.label ?? null;
    return header.map((h, k) => (h === '处置订单' ? label : h === '运单号' ? no : (sample[k] ?? null)));
  });
  return workbook([header, ...body]);
}

const numberCount = async (no: string) =>
  Number(
    (await rows(sql<Row>`select count(*) as n from lc_view_20 where "waybillNo" = ${no} and create_company = ${COMPANY.logistics}`))[0]?.n,
  );

describe('typed waybill numbers racing', () => {
  it('an add typing a number and an import typing the same: never both written', async () => {
    const order = await newOrder('攻51 编号');
    const bad: string[] = [];
    const outcomes = new Set<string>();
    for (let i = 0; i < ROUNDS; i++) {
      const no = nextNo();
      const file = await importFile([{ id: order, no }]);
      const body = await billBody(order, no);
      const [add, imp] = await overlap(
        i,
        GAPS,
        () => settled(carrier.post('/api/general/add/20', body), 'add'),
        () => settled(uploadFile(carrier, 20, '攻51.xlsx', file), 'import'),
      );
      outcomes.add(`${add.status}/${imp.status}:${imp.headers.get('x-import-success')}`);
      if (!clean(add) || !clean(imp)) bad.push(`#${i} ${add.status} ${said(add)} / ${imp.status} ${said(imp)}`);
      const n = await numberCount(no);
      if (n > 1) bad.push(`#${i} ${no} written ${n} times`);
    }
    expect(bad, [...outcomes].join(' ')).toEqual([]);
  });

  it('two imports typing the same two numbers in opposite orders: no deadlock, no double', async () => {
    const [o1, o2] = [await newOrder('攻51 双导 1'), await newOrder('攻51 双导 2')];
    const bad: string[] = [];
    const outcomes = new Set<string>();
    for (let i = 0; i < ROUNDS; i++) {
      const [a, b] = [nextNo(), nextNo()];
      const f1 = await importFile([
        { id: o1, no: a },
        { id: o2, no: b },
      ]);
      const f2 = await importFile([
        { id: o2, no: b },
        { id: o1, no: a },
      ]);
      const [x, y] = await overlap(
        i,
        GAPS,
        () => settled(uploadFile(carrier, 20, '攻51a.xlsx', f1), 'import 1'),
        () => settled(uploadFile(carrier, 20, '攻51b.xlsx', f2), 'import 2'),
      );
      outcomes.add(`${x.status}:${x.headers.get('x-import-success')}/${y.status}:${y.headers.get('x-import-success')}`);
      if (!clean(x) || !clean(y)) bad.push(`#${i} ${x.status} ${said(x)} / ${y.status} ${said(y)}`);
      for (const no of [a, b]) if ((await numberCount(no)) > 1) bad.push(`#${i} ${no} doubled`);
    }
    expect(bad, [...outcomes].join(' ')).toEqual([]);
  });

  it('an import picking orders, an add typing its number and the hand-over of one order, all at once', async () => {
    const bad: string[] = [];
    const outcomes = new Set<string>();
    const orders: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const [o1, o2] = [await newOrder(`攻51 三方 ${i} a`), await newOrder(`攻51 三方 ${i} b`)];
      orders.push(o1, o2);
      const [n1, n2] = [nextNo(), nextNo()];
      const file = await importFile([
        { id: o1, no: n1 },
        { id: o2, no: n2 },
      ]);
      const body = await billBody(o2, n1);
      const form = await disposer.get('/api/general/formData', { generalId: 19, id: o2 });
      const hand = () =>
        settled(disposer.post('/api/general/update/19', { ...(form.body.data as Row), id: o2, carrierId: carrier2 }), 'hand-over');
      const g = GAPS[Math.floor(i / 2) % GAPS.length] ?? 0;
      const starts =
        i % 2
          ? [hand, () => settled(carrier.post('/api/general/add/20', body), 'add')]
          : [() => settled(carrier.post('/api/general/add/20', body), 'add'), hand];
      const pi = settled(uploadFile(carrier, 20, '攻51c.xlsx', file), 'import');
      await offset(g);
      const p0 = (starts[0] as () => Promise<ApiResponse>)();
      await offset(g);
      const p1 = (starts[1] as () => Promise<ApiResponse>)();
      const all = await Promise.all([pi, p0, p1]);
      outcomes.add(all.map((r) => r.status).join('/'));
      for (const r of all) if (!clean(r)) bad.push(`#${i} ${r.status} ${said(r)}`);
      if ((await numberCount(n1)) > 1) bad.push(`#${i} ${n1} doubled`);
    }
    const leaks = await rows(sql<Row>`select o.id, w.id as w from lc_view_19 o join lc_view_20 w on w."disposalOrderId" = o.id
      where o.id in (${sql.join(orders)}) and o."carrierId" = ${carrier2} and w.create_company = ${COMPANY.logistics}`);
    if (leaks.length) bad.push(`waybills of the carrier on orders handed over: ${JSON.stringify(leaks)}`);
    expect(bad, [...outcomes].join(' ')).toEqual([]);
  }, 300_000);
});

describe('accounts edited, deleted and reset at once by a company manager', () => {
  let hr: ApiClient;
  let roles: ApiClient;
  let staffRole = 0;
  beforeAll(async () => {
    const hrRole = await role('攻51-人事', [MENU.dashboard, MENU.system, MENU.user, ...buttons(MENU.user)], '本企业', COMPANY.producer, 2);
    hr = (await account('atk51_hr', DEPT.producers, COMPANY.producer, [hrRole])).api;
    const roleRole = await role(
      '攻51-角色',
      [MENU.dashboard, MENU.system, MENU.role, ...buttons(MENU.role)],
      '本企业',
      COMPANY.producer,
      2,
    );
    roles = (await account('atk51_roles', DEPT.producers, COMPANY.producer, [roleRole])).api;
    staffRole = await role('攻51-员工', [MENU.dashboard], '本企业', COMPANY.producer, 3);
  }, 60_000);

  it('edit, delete and reset of one account together: clean answers, a deleted account stays deleted', async () => {
    const bad: string[] = [];
    const outcomes = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const victim = await account(`atk51_v${i}`, DEPT.producers, COMPANY.producer, [staffRole]);
      const phone = (await rows(sql<Row>`select phone from sys_user where id = ${victim.id}`))[0]?.phone;
      const edit = () =>
        settled(
          hr.put('/api/users', {
            id: victim.id,
            username: `atk51_v${i}`,
            nickName: `改${i}`,
            phone,
            deptId: DEPT.producers,
            companyId: COMPANY.producer,
            roles: [{ id: staffRole }],
            enabled: true,
          }),
          'edit',
        );
      const del = () => settled(hr.delete('/api/users', [victim.id]), 'delete');
      const reset = () => settled(hr.post('/api/pwd/reset', { ids: [victim.id] }), 'reset');
      const order = [edit, del, reset];
      const rot = order.slice(i % 3).concat(order.slice(0, i % 3));
      const g = GAPS[i % GAPS.length] ?? 0;
      const ps: Promise<ApiResponse>[] = [];
      for (const f of rot) {
        ps.push(f());
        await offset(g);
      }
      const res = await Promise.all(ps);
      outcomes.add(res.map((r) => r.status).join('/'));
      for (const r of res) if (!clean(r)) bad.push(`#${i} ${r.status} ${said(r)}`);
      const u = (await rows(sql<Row>`select status from sys_user where id = ${victim.id}`))[0];
      const delIdx = rot.indexOf(del);
      if (res[delIdx]?.status === 200 && Number(u?.status) !== 2) bad.push(`#${i} deleted (200) but status ${u?.status}`);
    }
    expect(bad, [...outcomes].join(' ')).toEqual([]);
  }, 300_000);

  it('a role deleted while a new account is made holding it: clean answers, no 500', async () => {
    const bad: string[] = [];
    const outcomes = new Set<string>();
    for (let i = 0; i < ROUNDS; i++) {
      const made = await roles.post('/api/roles', {
        name: `攻51-新号${i}`,
        level: 3,
        dataScope: '本企业',
        companyId: COMPANY.producer,
        menus: [{ id: MENU.dashboard }],
      });
      expect(made.status, said(made)).toBe(201);
      const r = made.body.id as number;
      const [give, drop] = await overlap(
        i,
        GAPS,
        () =>
          settled(
            hr.post('/api/users', {
              username: `atk51_n${i}`,
              nickName: `n${i}`,
              phone: `1395152${String(i).padStart(4, '0')}`,
              deptId: DEPT.producers,
              companyId: COMPANY.producer,
              roles: [{ id: r }],
            }),
            'add',
          ),
        () => settled(roles.delete('/api/roles', [r]), 'drop'),
      );
      outcomes.add(`${give.status}/${drop.status}`);
      if (!clean(give) || !clean(drop)) bad.push(`#${i} add ${give.status} ${said(give)} / drop ${drop.status} ${said(drop)}`);
    }
    expect(bad, [...outcomes].join(' ')).toEqual([]);
  }, 300_000);

  it('a role deleted while it is given to an account: clean answers, no 500', async () => {
    const bad: string[] = [];
    const outcomes = new Set<string>();
    const victim = await account('atk51_rv', DEPT.producers, COMPANY.producer, [staffRole]);
    const phone = (await rows(sql<Row>`select phone from sys_user where id = ${victim.id}`))[0]?.phone;
    for (let i = 0; i < ROUNDS; i++) {
      const made = await roles.post('/api/roles', {
        name: `攻51-临时${i}`,
        level: 3,
        dataScope: '本企业',
        companyId: COMPANY.producer,
        menus: [{ id: MENU.dashboard }],
      });
      expect(made.status, said(made)).toBe(201);
      const r = made.body.id as number;
      const [give, drop] = await overlap(
        i,
        GAPS,
        () =>
          settled(
            hr.put('/api/users', {
              id: victim.id,
              username: 'atk51_rv',
              nickName: 'rv',
              phone,
              deptId: DEPT.producers,
              companyId: COMPANY.producer,
              roles: [{ id: staffRole }, { id: r }],
            }),
            'give',
          ),
        () => settled(roles.delete('/api/roles', [r]), 'drop'),
      );
      outcomes.add(`${give.status}/${drop.status}`);
      if (!clean(give) || !clean(drop)) bad.push(`#${i} give ${give.status} ${said(give)} / drop ${drop.status} ${said(drop)}`);
      // Both answered as done: the account was told it holds a role that no longer exists.
      if (give.status === 200 && drop.status === 200) {
        const said2 = (give.body.roles as { id: number }[] | undefined)?.some((x) => x.id === r);
        if (said2) bad.push(`#${i} give answered the role ${r}, the drop deleted it`);
      }
    }
    expect(bad, [...outcomes].join(' ')).toEqual([]);
  }, 300_000);
});
