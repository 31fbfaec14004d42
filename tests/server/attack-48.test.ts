import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPT, MENU } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { accountMaker } from '../helpers/accounts.js';
import { inquiryBody } from '../helpers/inquiry.js';
import { buttons } from '../helpers/probes.js';
import { said } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, TEST_CAPTCHA, type TestServer } from '../helpers/server.js';

/**
 * Attack 48: look-alike names past nameKey, and races between a party's answer and the creator's
 * re-addressing. Ordinary accounts only; each probe asserts the SAFE behaviour.
 */

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;
let disposer: ApiClient;
const db = () => server.ctx.db;

const { account, role } = accountMaker(
  () => server,
  () => admin,
  '1374848',
);

beforeAll(async () => {
  server = await startTestServer();
  [admin, producer, disposer] = await Promise.all([server.login('admin'), server.login('producer'), server.login('disposer')]);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const column = async (viewId: number, name: string, where: RawBuilder<boolean>) =>
  (
    await sql<Record<string, unknown>>`select ${sql.ref(name)} as v from ${sql.table(`lc_view_${viewId}`)} where ${where}`.execute(db())
  ).rows.map((r) => r.v);
const cellOf = async (viewId: number, id: number, name: string) => (await column(viewId, name, sql`id = ${id}`))[0];

// 监管部门 look-alikes: CJK radical supplement 门 (U+2ED4), Kangxi 門 (U+2F68 → 門), traditional.
const SUPERVISION_LOOKALIKES = ['监管部\u2ed4', '监管部\u2f68', '監管部門', '監管部门'];

describe('company names that look like the platform or another company past NFKC', () => {
  it('a company renames itself as no look-alike of 监管部门, the platform, or another company', async () => {
    const before = (await db().selectFrom('company').select('name').where('id', '=', COMPANY.producer).executeTakeFirstOrThrow()).name;
    const disposerName = (await db().selectFrom('company').select('name').where('id', '=', COMPANY.disposer).executeTakeFirstOrThrow())
      .name;
    // 江苏绿源环保科技有限公司 → traditional 江蘇綠源環保科技有限公司.
    const traditional = disposerName.replace('苏', '蘇').replace('绿', '綠').replace('环', '環');
    const names = [...SUPERVISION_LOOKALIKES, traditional, '危废智慧监管服务平\u53f0'.replace('监', '監')];
    const taken: string[] = [];
    for (const name of names) {
      const r = await producer.post('/api/companyApi/update', { name });
      const now = (await db().selectFrom('company').select('name').where('id', '=', COMPANY.producer).executeTakeFirstOrThrow()).name;
      if (now === name) taken.push(`${name}: ${said(r)}`);
    }
    await db().updateTable('company').set({ name: before }).where('id', '=', COMPANY.producer).execute();
    expect(taken).toEqual([]);
  });
});

describe('department names that look like the platform 监管部门 past NFKC', () => {
  it("a company's department manager names no department as a look-alike of 监管部门", async () => {
    const managerRole = await role('攻48-部门管理', [MENU.system, MENU.dept, ...buttons(MENU.dept)]);
    const manager = (await account('atk48_deptmgr', DEPT.disposers, COMPANY.disposer, [managerRole])).api;
    const made: string[] = [];
    for (const name of SUPERVISION_LOOKALIKES) {
      const top = await manager.post('/api/dept', { name, deptSort: 1, enabled: true });
      if (top.status === 201) made.push(`top ${name} (id ${top.body.id})`);
      const sub = await manager.post('/api/dept', { name, pid: DEPT.disposers, deptSort: 1, enabled: true });
      if (sub.status === 201) made.push(`sub ${name} (id ${sub.body.id})`);
    }
    // What another company's address book (the 留言 recipient picker) then shows.
    const book = await producer.get('/api/dept/find');
    const shown: string[] = [];
    const walk = (nodes: Record<string, unknown>[]) => {
      for (const n of nodes) {
        if (SUPERVISION_LOOKALIKES.includes(String(n.name))) shown.push(`${n.name} (id ${n.id}, company ${n.companyId})`);
        walk((n.children as Record<string, unknown>[]) ?? []);
      }
    };
    walk(book.body.data ?? []);
    expect({ made, shown }).toEqual({ made: [], shown: [] });
  });
});

describe("races between the asked disposer's quote and the asker's re-addressing", () => {
  it('no inquiry ends addressed to disposer2 as 已报价 (a state disposer2 never set) when the quote and the move cross', async () => {
    const bad: string[] = [];
    for (let i = 0; i < 16; i++) {
      const added = await producer.post('/api/general/add/15', inquiryBody());
      expect(added.status, said(added)).toBe(200);
      const id = added.body.id as number;
      // The move omits the state: it keeps whatever the quote left.
      const { inquiryStatus: _s, ...rest } = inquiryBody({ companyId: COMPANY.disposer2 });
      const move = producer.post('/api/general/update/15', { ...rest, id });
      await new Promise((r) => setTimeout(r, i % 4));
      const quote =
        i % 2 === 0
          ? disposer.post('/api/general/update/15', {
              ...inquiryBody(),
              id,
              inquiryStatus: '1',
              quotedPrice: 4800,
              quoteTime: '2026-01-01 00:00:00',
            })
          : disposer.post('/api/disposalQuotePirce/quotedPrice', { id, quotedPrice: 4800 });
      const [q, m] = await Promise.all([quote, move]);
      const [company, status, price] = await Promise.all([
        cellOf(15, id, 'companyId'),
        cellOf(15, id, 'inquiryStatus'),
        cellOf(15, id, 'quotedPrice'),
      ]);
      console.log('attack-48 race inquiry', i, q.status, m.status, company, status, price);
      if (Number(company) === COMPANY.disposer2 && (status === '1' || (price !== null && Number(price) === 4800)))
        bad.push(
          `#${id} (${i % 2 ? 'quote call' : 'update'}): company ${company} status ${status} price ${price}; quote ${q.status} ${said(q)}; move ${m.status} ${said(m)}`,
        );
    }
    expect(bad).toEqual([]);
  });
});

describe("races between a department's reply and the author's re-addressing", () => {
  it("no message ends addressed to a third company's department holding the first department's reply", async () => {
    const bad: string[] = [];
    for (let i = 0; i < 16; i++) {
      const body = { title: `攻48 询问${i}`, content: '贵司报价？', contactName: '张三', deptId: DEPT.disposers };
      const added = await producer.post('/api/general/add/18', body);
      expect(added.status, said(added)).toBe(200);
      const id = added.body.id as number;
      const move = producer.post('/api/general/update/18', { ...body, id, deptId: DEPT.disposer2 });
      await new Promise((r) => setTimeout(r, i % 4));
      const reply = disposer.post('/api/general/update/18', {
        id,
        replyContent: `内部底价 ${i}`,
        replyTime: '2026-03-01 10:00:00',
        haveRead: '1',
      });
      const [r, m] = await Promise.all([reply, move]);
      const [dept, content] = await Promise.all([cellOf(18, id, 'deptId'), cellOf(18, id, 'replyContent')]);
      console.log('attack-48 race message', i, r.status, m.status, dept, content);
      if (Number(dept) === DEPT.disposer2 && content === `内部底价 ${i}`)
        bad.push(`#${id}: reply ${r.status} ${said(r)}; move ${m.status} ${said(m)}`);
    }
    expect(bad).toEqual([]);
  });
});

describe('party ids in other notations', () => {
  it('a disposer writes no contract or order whose stored parties leave it out, by an id the writer check reads as its own', async () => {
    const tricks: unknown[] = ['2e0', '0x2', [2], ' 2 ', '2.0', '02', '0b10', [[2]], { valueOf: 2 }, '+2'];
    const bad: string[] = [];
    for (const [i, v] of tricks.entries()) {
      const name = `攻48 记法${i}`;
      const c = await disposer.post('/api/general/add/16', {
        contractNo: `HT2026-48${i}`,
        contractName: name,
        partyAId: COMPANY.producer,
        partyBId: v,
        amount: 1,
        signDate: '2026-01-01 00:00:00',
        beginDate: '2026-01-01 00:00:00',
        endDate: '2027-12-31 00:00:00',
        contractStatus: '1',
      });
      const rows = (
        await sql<Record<string, unknown>>`select "partyAId" as a, "partyBId" as b from lc_view_16 where "contractName" = ${name}`.execute(
          db(),
        )
      ).rows;
      for (const r of rows)
        if (Number(r.a) !== COMPANY.disposer && Number(r.b) !== COMPANY.disposer)
          bad.push(`contract ${JSON.stringify(v)} → A ${r.a} B ${r.b}: ${c.status} ${said(c)}`);
      const remark = `攻48 订单记法${i}`;
      const o = await disposer.post('/api/general/add/19', {
        producerId: COMPANY.producer,
        disposerId: v,
        carrierId: COMPANY.logistics,
        wasteCategory: 'HW08',
        quantity: 1,
        price: 1,
        remark,
      });
      const orows = (
        await sql<Record<string, unknown>>`select "producerId" as p, "disposerId" as d from lc_view_19 where "remark" = ${remark}`.execute(
          db(),
        )
      ).rows;
      for (const r of orows)
        if (Number(r.p) !== COMPANY.disposer && Number(r.d) !== COMPANY.disposer)
          bad.push(`order ${JSON.stringify(v)} → P ${r.p} D ${r.d}: ${o.status} ${said(o)}`);
    }
    expect(bad).toEqual([]);
  });

  it("the asked disposer's quote fields are not written by the asker through another notation of its own company as the party", async () => {
    // The producer asks disposer; then, as creator, edits sending companyId in another notation plus a quote.
    const bad: string[] = [];
    for (const v of ['2e0', [2], ' 2', '0x2']) {
      const added = await producer.post('/api/general/add/15', inquiryBody());
      const id = added.body.id as number;
      const r = await producer.post('/api/general/update/15', {
        ...inquiryBody({ companyId: v }),
        id,
        inquiryStatus: '1',
        quotedPrice: 7,
        quoteTime: '2026-01-01 00:00:00',
      });
      const [status, price] = await Promise.all([cellOf(15, id, 'inquiryStatus'), cellOf(15, id, 'quotedPrice')]);
      if (status === '1' || (price !== null && Number(price) === 7)) bad.push(`${JSON.stringify(v)}: ${status} ${price} ${said(r)}`);
    }
    expect(bad).toEqual([]);
  });
});

describe('look-alike names by other doors', () => {
  it("a company's department manager names no top department as a traditional-script look-alike of another company", async () => {
    const manager = await server.login('atk48_deptmgr');
    const producerName = (await db().selectFrom('company').select('name').where('id', '=', COMPANY.producer).executeTakeFirstOrThrow())
      .name;
    // 苏州华瑞精细化工有限公司 → 蘇州華瑞精細化工有限公司; and 工 → katakana エ.
    const names = [producerName.replace('苏', '蘇').replace('华', '華').replace('细', '細'), producerName.replace('工', '\u30a8')];
    const made: string[] = [];
    for (const name of names) {
      const r = await manager.post('/api/dept', { name, deptSort: 1, enabled: true });
      if (r.status === 201) made.push(`${name} (id ${r.body.id})`);
    }
    expect(made).toEqual([]);
  });

  it('an anonymous applicant applies under no look-alike of another company or of 监管部门', async () => {
    const disposerName = (await db().selectFrom('company').select('name').where('id', '=', COMPANY.disposer).executeTakeFirstOrThrow())
      .name;
    const names = [disposerName.replace('苏', '蘇').replace('绿', '綠').replace('环', '環'), '监管部\u2ed4'];
    const accepted: string[] = [];
    for (const [i, name] of names.entries()) {
      const uuid = String((await server.api.get('/api/auth/code')).body.uuid);
      const r = await server.api.post('/api/companyApplication/insert', {
        name,
        type: '1',
        region: '320000,320100,320113',
        applicant: `申请人${i}`,
        phone: `1374848990${i}`,
        code: TEST_CAPTCHA,
        uuid,
      });
      if (r.status === 200) accepted.push(`${name}: ${said(r)}`);
    }
    expect(accepted).toEqual([]);
  });
});
