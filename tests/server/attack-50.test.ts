import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPT, MENU, ROLE } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { accountMaker } from '../helpers/accounts.js';
import { inquiryBody } from '../helpers/inquiry.js';
import { buttons } from '../helpers/probes.js';
import { overlap } from '../helpers/races.js';
import { said } from '../helpers/refusal.js';
import { type ApiClient, type ApiResponse, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Attack 50: check-then-write races between the parties of a record (and a 留言's author and its
 * recipient), the requests overlapping with small gaps swept in both orders of start. Each probe asserts
 * that the record ends in a state some sequential order of the two requests gives, and that every
 * refusal is a clean 4xx.
 */

let server: TestServer;
let producer: ApiClient;
let disposer: ApiClient;
let carrier: ApiClient;
let admin: ApiClient;
const db = () => server.ctx.db;
type Row = Record<string, unknown>;
const rows = async (q: RawBuilder<Row>) => (await q.execute(db())).rows;
const one = async (viewId: number, id: number) =>
  (await rows(sql<Row>`select * from ${sql.table(`lc_view_${viewId}`)} where id = ${id}`))[0] as Row | undefined;

beforeAll(async () => {
  server = await startTestServer();
  [admin, producer, disposer, carrier] = await Promise.all([
    server.login('admin'),
    server.login('producer'),
    server.login('disposer'),
    server.login('logistics'),
  ]);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** A gap: g ms, or (g < 0) -g turns of the event loop (on PGlite the requests interleave at that grain). */

const GAPS = [0, -1, -2, -3, -5, -8, -13, -21, -34, 1, 2, 3, 5, 8];
const ROUNDS = GAPS.length * 2;
const clean = (r: ApiResponse) => r.status === 200 || (r.status >= 400 && r.status < 500);
const empty = (v: unknown) => v === null || v === undefined || v === '';

describe("an inquiry's quote through the quote call and the asker's close or re-addressing", () => {
  it('the asker closes while the disposer quotes: the close is never undone by the quote', async () => {
    const bad: string[] = [];
    const outcomes = new Set<string>();
    for (let i = 0; i < ROUNDS; i++) {
      const added = await producer.post('/api/general/add/15', inquiryBody({ remark: `攻50 关闭 ${i}` }));
      expect(added.status, said(added)).toBe(200);
      const id = added.body.id as number;
      const [quote, close] = await overlap(
        i,
        GAPS,
        () => disposer.post('/api/disposalQuotePirce/quotedPrice', { id, quotedPrice: 777 }),
        () => producer.post('/api/general/update/15', { ...inquiryBody(), id, inquiryStatus: '2' }),
      );
      const r = await one(15, id);
      outcomes.add(`${quote.status}/${close.status}:${r?.inquiryStatus}`);
      if (!clean(quote) || !clean(close)) bad.push(`#${i} 5xx ${said(quote)} ${said(close)}`);
      // Sequentially: close then quote (refused, status 2), quote then close (status 2, priced), or the
      // close refused as a conflict after the quote (status 1). Both succeeding leave it closed.
      if (close.status === 200 && String(r?.inquiryStatus) !== '2')
        bad.push(`#${i} closed (200) but ends ${r?.inquiryStatus} priced ${r?.quotedPrice} (quote ${quote.status})`);
    }
    expect(bad, [...outcomes].join(' ')).toEqual([]);
  });

  it('the asker re-addresses to another disposer while the old one quotes: no quote of the old lands on the new', async () => {
    const bad: string[] = [];
    const outcomes = new Set<string>();
    for (let i = 0; i < ROUNDS; i++) {
      const added = await producer.post('/api/general/add/15', inquiryBody({ remark: `攻50 改址 ${i}` }));
      const id = added.body.id as number;
      const [quote, move] = await overlap(
        i,
        GAPS,
        () => disposer.post('/api/disposalQuotePirce/quotedPrice', { id, quotedPrice: 778 }),
        () => producer.post('/api/general/update/15', { ...inquiryBody(), id, companyId: COMPANY.disposer2 }),
      );
      const r = await one(15, id);
      outcomes.add(`${quote.status}/${move.status}`);
      if (!clean(quote) || !clean(move)) bad.push(`#${i} 5xx ${said(quote)} ${said(move)}`);
      if (Number(r?.companyId) === COMPANY.disposer2 && (!empty(r?.quotedPrice) || String(r?.inquiryStatus) !== '0'))
        bad.push(`#${i} addressed to disposer2 with ${r?.quotedPrice}/${r?.inquiryStatus} (quote ${quote.status}, move ${move.status})`);
    }
    expect(bad, [...outcomes].join(' ')).toEqual([]);
  });

  it('the asker re-addresses while the old disposer quotes through 编辑 (quote time alone, or with the state)', async () => {
    const bad: string[] = [];
    const outcomes = new Set<string>();
    for (let i = 0; i < ROUNDS; i++) {
      const added = await producer.post('/api/general/add/15', inquiryBody({ remark: `攻50 编辑报价 ${i}` }));
      const id = added.body.id as number;
      const quoteBody =
        i % 4 < 2
          ? { id, quoteTime: '2026-03-01 10:00:00', quotedPrice: 555 }
          : { id, quoteTime: '2026-03-01 10:00:00', quotedPrice: 556, inquiryStatus: '1' };
      const [quote, move] = await overlap(
        i,
        GAPS,
        () => disposer.post('/api/general/update/15', quoteBody),
        () => producer.post('/api/general/update/15', { id, companyId: COMPANY.disposer2 }),
      );
      const r = await one(15, id);
      outcomes.add(`${quote.status}/${move.status}`);
      if (!clean(quote) || !clean(move)) bad.push(`#${i} 5xx ${said(quote)} ${said(move)}`);
      if (
        Number(r?.companyId) === COMPANY.disposer2 &&
        (!empty(r?.quotedPrice) || !empty(r?.quoteTime) || String(r?.inquiryStatus) !== '0')
      )
        bad.push(`#${i} on disposer2 with ${r?.quotedPrice}/${String(r?.quoteTime)}/${r?.inquiryStatus}`);
    }
    expect(bad, [...outcomes].join(' ')).toEqual([]);
  });
});

describe("a 留言's author re-addressing it while the old department answers", () => {
  const message = (more: Row = {}) => ({
    title: '攻50 留言',
    content: '竞态',
    contactName: '攻50',
    deptId: DEPT.disposers,
    haveRead: '2',
    ...more,
  });

  const edit = (answer: Row) => (id: number) => disposer.post('/api/general/update/18', { id, ...answer });
  for (const [name, answer] of [
    ['a reply time alone', edit({ replyTime: '2026-03-01 10:00:00' })],
    ['a reply', edit({ replyContent: '已收到', replyTime: '2026-03-01 10:00:00' })],
    ['已读', edit({ haveRead: '1' })],
    ['已读 through 未读留言', (id: number) => disposer.get('/api/leaveMessage/readOne', { viewId: 18, id })],
  ] as const) {
    it(`${name}: never both, so no answer of the old department rides on a message now another's`, async () => {
      const bad: string[] = [];
      const outcomes = new Set<string>();
      for (let i = 0; i < ROUNDS; i++) {
        const added = await producer.post('/api/general/add/18', message({ title: `攻50 ${name} ${i}` }));
        expect(added.status, said(added)).toBe(200);
        const id = added.body.id as number;
        const [reply, move] = await overlap(
          i,
          GAPS,
          () => answer(id),
          () => producer.post('/api/general/update/18', { id, deptId: DEPT.disposer2 }),
        );
        const r = await one(18, id);
        outcomes.add(`${reply.status}/${move.status}`);
        if (!clean(reply) || !clean(move)) bad.push(`#${i} 5xx ${said(reply)} ${said(move)}`);
        const answered = !empty(r?.replyContent) || !empty(r?.replyTime) || String(r?.haveRead ?? '2') !== '2';
        if (Number(r?.deptId) === DEPT.disposer2 && answered)
          bad.push(
            `#${i} to disposer2 holding ${JSON.stringify([r?.replyContent, r?.replyTime, r?.haveRead])} (reply ${reply.status}, move ${move.status})`,
          );
      }
      expect(bad, [...outcomes].join(' ')).toEqual([]);
    });
  }

  it('the author deletes while the department replies: clean answers, nothing left half-written', async () => {
    const bad: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const added = await producer.post('/api/general/add/18', message({ title: `攻50 删除 ${i}` }));
      const id = added.body.id as number;
      const [reply, del] = await overlap(
        i,
        GAPS,
        () => disposer.post('/api/general/update/18', { id, replyContent: '回复', replyTime: '2026-03-01 10:00:00' }),
        () => producer.post('/api/general/delete/18', { ids: [id] }),
      );
      if (!clean(reply) || !clean(del)) bad.push(`#${i} ${said(reply)} ${said(del)}`);
      if (del.status === 200 && (await one(18, id))) bad.push(`#${i} deleted (200) but still there`);
    }
    expect(bad).toEqual([]);
  });
});

describe("a contract's creator changing both parties at once", () => {
  it('two edits each keeping the creator a party: never both, so the creator never ends off its contract', async () => {
    const bad: string[] = [];
    const outcomes = new Set<string>();
    for (let i = 0; i < ROUNDS; i++) {
      const added = await disposer.post('/api/general/add/16', {
        contractNo: `HT2050-${String(1000 + i)}`,
        contractName: `攻50 合同 ${i}`,
        partyAId: COMPANY.disposer,
        partyBId: COMPANY.disposer,
        amount: 100,
        signDate: '2026-01-01 00:00:00',
        beginDate: '2026-01-01 00:00:00',
        endDate: '2027-12-31 00:00:00',
        contractStatus: '1',
      });
      expect(added.status, said(added)).toBe(200);
      const id = added.body.id as number;
      const [a, b] = await overlap(
        i,
        GAPS,
        () => disposer.post('/api/general/update/16', { id, partyAId: COMPANY.producer }),
        () => disposer.post('/api/general/update/16', { id, partyBId: COMPANY.disposer2 }),
      );
      const r = await one(16, id);
      outcomes.add(`${a.status}/${b.status}`);
      if (!clean(a) || !clean(b)) bad.push(`#${i} 5xx ${said(a)} ${said(b)}`);
      if (Number(r?.partyAId) !== COMPANY.disposer && Number(r?.partyBId) !== COMPANY.disposer)
        bad.push(`#${i} ends ${r?.partyAId}/${r?.partyBId} (${a.status}, ${b.status})`);
    }
    expect(bad, [...outcomes].join(' ')).toEqual([]);
  });
});

describe('an order, its hand-over, its waybills and its delete, all at once', () => {
  it('no 5xx and no hang, and no waybill of the carrier on an order of another carrier', async () => {
    const [mine] = await rows(sql<Row>`select id from lc_view_20 where create_company = ${COMPANY.logistics} order by id limit 1`);
    const f = await carrier.get('/api/general/formData', { generalId: 20, id: Number(mine?.id) });
    expect(f.status, said(f)).toBe(200);
    const { id: _id, createTime: _c, ...bill } = f.body.data as Row;
    const bad: string[] = [];
    const orders: number[] = [];
    for (let i = 0; i < 12; i++) {
      const o = await disposer.post('/api/general/add/19', {
        producerId: COMPANY.producer,
        disposerId: COMPANY.disposer,
        carrierId: COMPANY.logistics,
        wasteCategory: 'HW08',
        quantity: 1,
        price: 1,
        remark: `攻50 订单 ${i}`,
      });
      expect(o.status, said(o)).toBe(200);
      const order = o.body.id as number;
      orders.push(order);
      const w = await carrier.post('/api/general/add/20', { ...bill, disposalOrderId: order, waybillNo: `WL${595000000000 + i * 10}` });
      expect(w.status, said(w)).toBe(200);
      const waybill = w.body.id as number;
      const all = await Promise.all([
        disposer.post('/api/general/update/19', { id: order, carrierId: COMPANY.disposer2 }),
        carrier.post('/api/general/add/20', { ...bill, disposalOrderId: order, waybillNo: `WL${595000000000 + i * 10 + 1}` }),
        carrier.post('/api/general/update/20', { ...bill, id: waybill, remark: `攻50 ${i}` }),
        i % 2 ? carrier.post('/api/general/delete/20', { ids: [waybill] }) : disposer.post('/api/general/delete/19', { ids: [order] }),
        disposer.post('/api/general/update/19', { id: order, producerId: COMPANY.producer2 }),
        producer.post('/api/general/update/19', { id: order, remark: '产废方改' }),
      ]);
      for (const r of all) if (!clean(r)) bad.push(`#${i} ${r.status} ${said(r)}`);
      // The waybill made before the race reached the order throughout, unless deleted: the order's
      // producer is then never moved (a waybill added after a move is another matter, and allowed).
      const o2 = await one(19, order);
      const old = await one(20, waybill);
      if (o2 && old && Number(old.disposalOrderId) === order && Number(o2.producerId) !== COMPANY.producer)
        bad.push(
          `#${i} order ${order} moved to producer ${o2.producerId} under waybill ${waybill} (${all.map((r) => r.status).join(',')})`,
        );
    }
    const leaks =
      await rows(sql<Row>`select o.id, o."carrierId", o."producerId" from lc_view_19 o join lc_view_20 w on w."disposalOrderId" = o.id
      where o.id in (${sql.join(orders)}) and o."carrierId" is distinct from ${COMPANY.logistics}
      and w.create_company = ${COMPANY.logistics}`);
    expect([...bad, ...leaks.map((l) => JSON.stringify(l))]).toEqual([]);
  });
});

describe('a typed document number, unique within its company', () => {
  it('two adds typing the same waybill number at once: one of them is refused', async () => {
    const [mine] = await rows(sql<Row>`select id from lc_view_20 where create_company = ${COMPANY.logistics} order by id limit 1`);
    const f = await carrier.get('/api/general/formData', { generalId: 20, id: Number(mine?.id) });
    const { id: _id, createTime: _c, ...bill } = f.body.data as Row;
    const bad: string[] = [];
    const outcomes = new Set<string>();
    for (let i = 0; i < ROUNDS; i++) {
      const no = `WL${595100000000 + i}`;
      const [a, b] = await overlap(
        i,
        GAPS,
        () => carrier.post('/api/general/add/20', { ...bill, waybillNo: no }),
        () => carrier.post('/api/general/add/20', { ...bill, waybillNo: no }),
      );
      outcomes.add(`${a.status}/${b.status}`);
      if (!clean(a) || !clean(b)) bad.push(`#${i} 5xx ${said(a)} ${said(b)}`);
      const n = await rows(sql<Row>`select id from lc_view_20 where create_company = ${COMPANY.logistics} and "waybillNo" = ${no}`);
      if (n.length > 1) bad.push(`#${i} ${no} held by ${n.length} waybills (${a.status}, ${b.status})`);
    }
    expect(bad, [...outcomes].join(' ')).toEqual([]);
  });
});

describe("a company's user manager editing an account while the platform moves it to another company", () => {
  const { account, role } = accountMaker(
    () => server,
    () => admin,
    '1375050',
  );

  let hrRole = 0;
  let hr: ApiClient;
  beforeAll(async () => {
    hrRole = await role('攻50-企业人事', [MENU.dashboard, MENU.system, MENU.user, ...buttons(MENU.user)], '本企业', COMPANY.producer);
    hr = (await account('atk50_hr', DEPT.producers, COMPANY.producer, [hrRole, ROLE.producer])).api;
  });

  it("the account never ends in one company holding another company's role", async () => {
    const bad: string[] = [];
    const outcomes = new Set<string>();
    for (let i = 0; i < ROUNDS; i++) {
      const u = await account(`atk50_r${i}`, DEPT.producers, COMPANY.producer, [ROLE.producer]);
      const [grant, move] = await overlap(
        i,
        GAPS,
        () => hr.put('/api/users', { id: u.id, roles: [{ id: ROLE.producer }, { id: hrRole }] }),
        () => admin.put('/api/users', { id: u.id, deptId: DEPT.producer2, companyId: COMPANY.producer2 }),
      );
      outcomes.add(`${grant.status}/${move.status}`);
      if (!clean(grant) || !clean(move)) bad.push(`#${i} 5xx ${said(grant)} ${said(move)}`);
      const held = await rows(sql<Row>`select u.company_id, r.id as role, r.company_id as role_company from sys_user u
        join sys_users_roles ur on ur.user_id = u.id join sys_role r on r.id = ur.role_id
        where u.id = ${u.id} and r.company_id is not null and r.company_id is distinct from u.company_id`);
      if (held.length) bad.push(`#${i} ${JSON.stringify(held)} (${grant.status}, ${move.status})`);
      if (held.length && bad.length === 1) {
        // What the role gives it in its new company: the accounts of that company to manage.
        const manager = await server.login(`atk50_r${i}`);
        const list = await manager.get('/api/users', { page: 0, size: 100 });
        const theirs = ((list.body?.content ?? []) as Row[]).filter((r) => Number(r.companyId ?? r.company) === COMPANY.producer2);
        if (theirs.length)
          bad.push(`#${i} (${list.status}) it lists ${theirs.length} accounts of company ${COMPANY.producer2} as their manager`);
      }
    }
    expect(bad, [...outcomes].join(' ')).toEqual([]);
  });

  it("the account never ends in one company holding another company's department", async () => {
    const { id: sub } = await db()
      .insertInto('sys_dept')
      .values({ pid: DEPT.producers, name: '攻50 产废子部', code: null, sort: 95, enabled: true, company_id: COMPANY.producer })
      .returning('id')
      .executeTakeFirstOrThrow();
    const bad: string[] = [];
    const outcomes = new Set<string>();
    for (let i = 0; i < ROUNDS; i++) {
      const u = await account(`atk50_u${i}`, DEPT.producers, COMPANY.producer, [ROLE.producer]);
      const [edit, move] = await overlap(
        i,
        GAPS,
        () => hr.put('/api/users', { id: u.id, deptId: sub }),
        // The platform's own move (set-up side, not the attacker).
        () => admin.put('/api/users', { id: u.id, deptId: DEPT.producer2, companyId: COMPANY.producer2 }),
      );
      outcomes.add(`${edit.status}/${move.status}`);
      if (!clean(edit) || !clean(move)) bad.push(`#${i} 5xx ${said(edit)} ${said(move)}`);
      const [row] = await rows(sql<Row>`select u.company_id, u.dept_id, d.company_id as dept_company
        from sys_user u left join sys_dept d on d.id = u.dept_id where u.id = ${u.id}`);
      if (Number(row?.company_id) !== Number(row?.dept_company))
        bad.push(
          `#${i} account in company ${row?.company_id} with dept ${row?.dept_id} of company ${row?.dept_company} (${edit.status}, ${move.status})`,
        );
      if (i === ROUNDS - 1 || bad.length === 1) {
        // What such an account reads: the 留言 addressed to the other company's department.
        const note = await producer.post('/api/general/add/18', {
          title: `攻50 子部留言 ${i}`,
          content: '内部',
          contactName: '攻50',
          deptId: sub,
        });
        expect(note.status, said(note)).toBe(200);
        const reader = await server.login(`atk50_u${i}`);
        const list = await reader.get('/api/general/list/18', { size: 100 });
        const seen = ((list.body?.content ?? []) as Row[]).filter((r) => Number(r.id) === note.body.id);
        const [me] = await rows(sql<Row>`select company_id from sys_user where id = ${u.id}`);
        if (seen.length && Number(me?.company_id) !== COMPANY.producer)
          bad.push(`#${i} the account, now of company ${me?.company_id}, lists the producer's 留言 #${note.body.id} for dept ${sub}`);
      }
    }
    expect(bad, [...outcomes].join(' ')).toEqual([]);
  });
});

describe('deletes of the same records in opposite orders, beside edits of them', () => {
  it('no 5xx (deadlock) and no hang', async () => {
    const [mine] = await rows(sql<Row>`select id from lc_view_20 where create_company = ${COMPANY.logistics} order by id limit 1`);
    const f = await carrier.get('/api/general/formData', { generalId: 20, id: Number(mine?.id) });
    const { id: _id, createTime: _c, ...bill } = f.body.data as Row;
    const bad: string[] = [];
    for (let i = 0; i < 10; i++) {
      const ids: number[] = [];
      for (let k = 0; k < 4; k++) {
        const w = await carrier.post('/api/general/add/20', { ...bill, waybillNo: `WL${595200000000 + i * 10 + k}` });
        expect(w.status, said(w)).toBe(200);
        ids.push(w.body.id as number);
      }
      const all = await Promise.all([
        carrier.post('/api/general/delete/20', { ids }),
        carrier.post('/api/general/delete/20', { ids: [...ids].reverse() }),
        ...ids.map((id) => carrier.post('/api/general/update/20', { ...bill, id, remark: `攻50 删 ${i}` })),
        carrier.post('/api/general/delete/20', { ids: [ids[2], ids[0]] }),
      ]);
      for (const r of all) if (!clean(r)) bad.push(`#${i} ${r.status} ${said(r)}`);
      const left = await rows(sql<Row>`select id from lc_view_20 where id in (${sql.join(ids)})`);
      if (all[0]?.status === 200 && left.length) bad.push(`#${i} delete answered 200 but ${left.length} left`);
    }
    expect(bad).toEqual([]);
  });
});
