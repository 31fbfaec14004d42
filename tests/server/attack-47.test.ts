import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPT, MENU, ROLE } from '../../server/seed/accounts.js';
import { COMPANY, viewMenuId } from '../../server/seed/ids.js';
import { accountMaker } from '../helpers/accounts.js';
import { inquiryBody } from '../helpers/inquiry.js';
import { buttons } from '../helpers/probes.js';
import { said } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';
import { uploadFile, workbook } from '../helpers/sheets.js';
import { Client } from '../helpers/ws-client.js';

/**
 * Attack 47: records that name several companies, a party's quote carried or forged by the asker,
 * department messages edited or forwarded by their recipient, and department names that pass for the
 * platform's. Ordinary accounts only; each probe asserts the SAFE behaviour.
 */

let server: TestServer;
let admin: ApiClient;
let producer: ApiClient;
let disposer: ApiClient;
const db = () => server.ctx.db;

const { account, role } = accountMaker(
  () => server,
  () => admin,
  '1374747',
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
const quoteOf = async (id: number) => {
  const [company, status, price] = await Promise.all([
    cellOf(15, id, 'companyId'),
    cellOf(15, id, 'inquiryStatus'),
    cellOf(15, id, 'quotedPrice'),
  ]);
  return { company: Number(company), status, price: price === null || price === undefined ? null : Number(price) };
};

describe("an inquiry's quote is the asked disposer's, also when the inquiry changes hands", () => {
  it('a disposer asking itself cannot hand its self-written quote to another disposer (added quoted, then re-addressed)', async () => {
    const added = await disposer.post(
      '/api/general/add/15',
      inquiryBody({ companyId: COMPANY.disposer, inquiryStatus: '1', quotedPrice: 1, quoteTime: '2026-01-01 00:00:00' }),
    );
    expect(added.status, said(added)).toBe(200);
    const id = added.body.id as number;
    const moved = await disposer.post('/api/general/update/15', {
      ...inquiryBody({ companyId: COMPANY.disposer2 }),
      id,
      inquiryStatus: '1',
      quotedPrice: 1,
      quoteTime: '2026-01-01 00:00:00',
    });
    const after = await quoteOf(id);
    // Safe: either the move is refused, or disposer2 does not end up holding a quote it never gave.
    expect(
      after.company === COMPANY.disposer2 && after.status === '1' && after.price === 1,
      `${said(moved)} → ${JSON.stringify(after)}`,
    ).toBe(false);
  });

  it('a disposer asking itself cannot set a quote for another disposer in the one edit that re-addresses the inquiry', async () => {
    const added = await disposer.post('/api/general/add/15', inquiryBody({ companyId: COMPANY.disposer }));
    expect(added.status, said(added)).toBe(200);
    const id = added.body.id as number;
    const moved = await disposer.post('/api/general/update/15', {
      ...inquiryBody({ companyId: COMPANY.disposer2 }),
      id,
      inquiryStatus: '1',
      quotedPrice: 2,
      quoteTime: '2026-01-01 00:00:00',
    });
    const after = await quoteOf(id);
    expect(
      after.company === COMPANY.disposer2 && after.status === '1' && after.price === 2,
      `${said(moved)} → ${JSON.stringify(after)}`,
    ).toBe(false);
  });

  it("the asker who hands a quoted inquiry to another disposer does not hand it the first disposer's quote", async () => {
    const added = await producer.post('/api/general/add/15', inquiryBody());
    expect(added.status, said(added)).toBe(200);
    const id = added.body.id as number;
    const quoted = await disposer.post('/api/disposalQuotePirce/quotedPrice', { id, quotedPrice: 5000 });
    expect(quoted.status, said(quoted)).toBe(200);
    const moved = await producer.post('/api/general/update/15', {
      ...inquiryBody({ companyId: COMPANY.disposer2 }),
      id,
      inquiryStatus: '1',
    });
    const after = await quoteOf(id);
    expect(
      after.company === COMPANY.disposer2 && after.price === 5000 && after.status === '1',
      `${said(moved)} → ${JSON.stringify(after)}`,
    ).toBe(false);
  });

  it('the asker does not reopen an inquiry the disposer rejected (已驳回 → 待报价)', async () => {
    const added = await producer.post('/api/general/add/15', inquiryBody());
    const id = added.body.id as number;
    const rejected = await disposer.post('/api/general/update/15', { ...inquiryBody(), id, inquiryStatus: '3' });
    expect(rejected.status, said(rejected)).toBe(200);
    expect((await quoteOf(id)).status).toBe('3');
    const reopened = await producer.post('/api/general/update/15', { ...inquiryBody(), id, inquiryStatus: '0' });
    expect((await quoteOf(id)).status, said(reopened)).toBe('3');
  });

  it('the asker does not reopen its closed inquiry by an import naming it (imports only add)', async () => {
    const added = await producer.post('/api/general/add/15', inquiryBody());
    const id = added.body.id as number;
    expect((await producer.post('/api/general/update/15', { ...inquiryBody(), id, inquiryStatus: '2' })).status).toBe(200);
    const file = await workbook([
      ['id', '处置企业', '危废类别', '预计数量', '询价状态', '报价单价'],
      [id, String(COMPANY.disposer), 'HW08', 1, '已报价', 9],
    ]);
    await uploadFile(producer, 15, 'inq.xlsx', file);
    expect((await quoteOf(id)).status).toBe('2');
  });

  it("the asked disposer neither re-addresses the producer's inquiry nor answers it after it is closed", async () => {
    const added = await producer.post('/api/general/add/15', inquiryBody());
    const id = added.body.id as number;
    const moved = await disposer.post('/api/general/update/15', {
      ...inquiryBody({ companyId: COMPANY.disposer2 }),
      id,
      inquiryStatus: '1',
      quotedPrice: 7,
    });
    expect((await quoteOf(id)).company, said(moved)).toBe(COMPANY.disposer);
    expect((await producer.post('/api/general/update/15', { ...inquiryBody(), id, inquiryStatus: '2' })).status).toBe(200);
    const late = await disposer.post('/api/general/add/15', { ...inquiryBody(), id, inquiryStatus: '1', quotedPrice: 8 });
    expect(late.status, said(late)).toBe(403);
    expect((await quoteOf(id)).status).toBe('2');
  });
});

describe('a message addressed to a department stays its writer’s', () => {
  const message = (more: Record<string, unknown> = {}) => ({
    title: '攻47 投诉',
    content: '贵司的处置价格过高',
    contactName: '王五',
    deptId: DEPT.disposers,
    haveRead: '2',
    ...more,
  });

  it("the receiving department neither rewrites another company's message nor forwards it to a third company", async () => {
    const added = await producer.post('/api/general/add/18', message());
    expect(added.status, said(added)).toBe(200);
    const id = added.body.id as number;
    // The disposer reads it (it is addressed to its department).
    const seen = await disposer.get('/api/general/formData', { generalId: 18, id });
    expect(seen.status, said(seen)).toBe(200);
    const rewritten = await disposer.post('/api/general/update/18', {
      ...message({ content: '请把所有合同发到 evil@example.com', deptId: DEPT.disposer2 }),
      id,
    });
    const [content, dept] = await Promise.all([cellOf(18, id, 'content'), cellOf(18, id, 'deptId')]);
    expect({ content, dept: Number(dept) }, said(rewritten)).toEqual({ content: '贵司的处置价格过高', dept: DEPT.disposers });
  });

  it("a third company's department is not handed, as the producer's, a message the recipient rewrote", async () => {
    const reader = (
      await account('atk47_d2', DEPT.disposer2, COMPANY.disposer2, [
        await role('攻47-处置2', [viewMenuId(18), 3181, 3182, 3183, 3184, 3185, viewMenuId(15), 3154], '本企业', COMPANY.disposer2),
      ])
    ).api;
    const added = await producer.post('/api/general/add/18', message({ title: '攻47 转发', content: '原文' }));
    const id = added.body.id as number;
    const forwarded = await disposer.post('/api/general/update/18', {
      ...message({ title: '攻47 转发', content: '产废企业：本司同意将报价降至 1 元/吨', deptId: DEPT.disposer2 }),
      id,
    });
    const inbox = (await reader.get('/api/unreadLeaveMessage', { page: 1, size: 50 })).body.content as Record<string, unknown>[];
    const got = inbox.find((m) => m.title === '攻47 转发');
    expect(got, `${said(forwarded)} → ${JSON.stringify(got)}`).toBeUndefined();
  });

  it('a third disposer lists no quote in its name that it never gave (forged by the asker in the earlier probes)', async () => {
    const reader = await server.login('atk47_d2');
    const list = await reader.get('/api/general/list/15', { page: 0, size: 50 });
    const forged = (list.body.content as Record<string, unknown>[]).filter(
      (r) => Number(r.companyId) === COMPANY.disposer2 && (Number(r.quotedPrice) === 1 || Number(r.quotedPrice) === 2),
    );
    expect(forged.map((r) => [r.inquiryNo, r.inquiryStatus, r.quotedPrice, r.createCompanyFmt ?? r.create_company])).toEqual([]);
  });

  it("the receiving department does not delete another company's message", async () => {
    const added = await producer.post('/api/general/add/18', message({ title: '攻47 删' }));
    const id = added.body.id as number;
    const del = await disposer.post('/api/general/delete/18', { ids: [id] });
    expect(await cellOf(18, id, 'id'), said(del)).toBe(id);
  });

  it('a third company reads nothing of a message not addressed to it, by list, count, form or read-one', async () => {
    const added = await producer.post('/api/general/add/18', message({ title: '攻47 私信' }));
    const id = added.body.id as number;
    const collector = await server.login('collector');
    const list = await collector.get('/api/general/list/18', { title: '攻47 私信', page: 0, size: 10 });
    expect(JSON.stringify(list.body)).not.toContain('攻47 私信');
    expect((await collector.get('/api/general/formData', { generalId: 18, id })).status).toBe(404);
    expect((await collector.get('/api/leaveMessage/readOne', { id, viewId: 18 })).status).toBe(404);
    const inbox = await collector.get('/api/unreadLeaveMessage', { page: 1, size: 50 });
    expect(JSON.stringify(inbox.body)).not.toContain('攻47 私信');
  });
});

describe('department names that pass for the platform’s', () => {
  it("a company's department manager does not name a department 监管部门, which the address book shows every company", async () => {
    const managerRole = await role('攻47-部门管理', [MENU.system, MENU.dept, ...buttons(MENU.dept)]);
    const manager = (await account('atk47_deptmgr', DEPT.disposers, COMPANY.disposer, [managerRole])).api;
    const platform = await db().selectFrom('sys_dept').select('name').where('id', '=', DEPT.supervision).executeTakeFirstOrThrow();
    const top = await db()
      .selectFrom('sys_dept')
      .select(['name', 'sort', 'code'])
      .where('id', '=', DEPT.disposers)
      .executeTakeFirstOrThrow();
    const renamed = await manager.put('/api/dept', {
      id: DEPT.disposers,
      name: platform.name,
      code: top.code ?? undefined,
      deptSort: top.sort,
      enabled: true,
    });
    const now = await db().selectFrom('sys_dept').select('name').where('id', '=', DEPT.disposers).executeTakeFirstOrThrow();
    // Put the name back for the other probes.
    if (now.name !== top.name)
      await admin.put('/api/dept', { id: DEPT.disposers, name: top.name, code: top.code ?? undefined, deptSort: top.sort, enabled: true });
    expect(now.name, said(renamed)).not.toBe(platform.name);
  });

  it("nor a new top department, nor a sub-department, named as the platform's 监管部门", async () => {
    const manager = await server.login('atk47_deptmgr');
    const platform = await db().selectFrom('sys_dept').select('name').where('id', '=', DEPT.supervision).executeTakeFirstOrThrow();
    const top = await manager.post('/api/dept', { name: platform.name, deptSort: 1, enabled: true });
    const sub = await manager.post('/api/dept', { name: platform.name, pid: DEPT.disposers, deptSort: 1, enabled: true });
    const made = await db()
      .selectFrom('sys_dept')
      .select(['id', 'pid'])
      .where('name', '=', platform.name)
      .where('company_id', '=', COMPANY.disposer)
      .execute();
    const book = await producer.get('/api/dept/find');
    const flat: Record<string, unknown>[] = [];
    const walk = (nodes: Record<string, unknown>[]) => {
      for (const n of nodes) {
        flat.push(n);
        walk((n.children as Record<string, unknown>[]) ?? []);
      }
    };
    walk(book.body.data);
    const named = flat.filter((n) => n.name === platform.name).map((n) => ({ id: n.id, companyId: n.companyId, code: n.code }));
    expect({ made, named }, `${said(top)} ${said(sub)}`).toEqual({
      made: [],
      named: [{ id: DEPT.supervision, companyId: null, code: '01' }],
    });
  });
});

describe('a sheet of messages to 监管部门, once a company has a department of that name', () => {
  it('still reaches the platform supervision department (not refused, not routed to the look-alike)', async () => {
    const file = await workbook([
      ['留言标题', '留言内容', '留言人', '接收部门'],
      ['攻47 导入给监管', '举报', '张三', '监管部门'],
    ]);
    const res = await uploadFile(producer, 18, 'm.xlsx', file);
    const depts = await column(18, 'deptId', sql`title = '攻47 导入给监管'`);
    expect(depts.map(Number), `imported ${res.headers.get('x-import-success')}, failed ${res.headers.get('x-import-failed')}`).toEqual([
      DEPT.supervision,
    ]);
  });
});

describe('top department names that pass for another company or the platform', () => {
  it("a company's department manager names no new top department as another company's, or as the platform", async () => {
    const manager = await server.login('atk47_deptmgr');
    const names = (await db().selectFrom('sys_dept').select('name').where('id', 'in', [DEPT.disposer2, DEPT.platform]).execute()).map(
      (d) => d.name,
    );
    const made: string[] = [];
    for (const name of names) {
      const r = await manager.post('/api/dept', { name, deptSort: 1, enabled: true });
      if (r.status === 201) made.push(`${name} (id ${r.body.id})`);
    }
    expect(made).toEqual([]);
  });
});

describe("a disposal order's carrier changed by its creator", () => {
  it("does not open the former carrier's waybills (vehicles, drivers, freight) to the new carrier", async () => {
    const rows = await sql<{ lo: number; dorder: number }>`select l.id as lo, d.id as dorder from lc_view_20 l
      join lc_view_19 d on d.id = l."disposalOrderId"
      where d."carrierId" = ${COMPANY.logistics} and d.create_company = ${COMPANY.disposer} and l.create_company = ${COMPANY.logistics}
      order by l.id limit 1`.execute(db());
    const pair = rows.rows[0];
    expect(pair, 'a seeded waybill of the carrier on a disposer order').toBeDefined();
    const { id: carrier2 } = await db()
      .insertInto('company')
      .values({ name: '攻47第二承运物流有限公司', type: '3', status: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id: dept2 } = await db()
      .insertInto('sys_dept')
      .values({ name: '攻47第二承运部', pid: null, sort: 99, enabled: true, company_id: carrier2 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const other = (await account('atk47_carrier2', dept2, carrier2, [ROLE.logistics])).api;
    const before = await other.get('/api/general/formData', { generalId: 20, id: pair!.lo });
    expect(before.status).toBe(404);
    const order = await disposer.get('/api/general/formData', { generalId: 19, id: pair!.dorder });
    expect(order.status, said(order)).toBe(200);
    const moved = await disposer.post('/api/general/update/19', { ...order.body.data, id: pair!.dorder, carrierId: carrier2 });
    const after = await other.get('/api/general/formData', { generalId: 20, id: pair!.lo });
    // Safe: the move is refused, or the other carrier's waybill stays out of its reach.
    expect([moved.status, after.status], `${said(moved)} ${said(after)}`).not.toEqual([200, 200]);
  });
});

describe('a company account given view-design permissions', () => {
  it('designs, adds, updates, publishes and deletes no view definition', async () => {
    const menus = (await db().selectFrom('sys_menu').select('id').where('permission', 'like', 'generation:%').execute()).map((m) => m.id);
    const designer = (
      await account('atk47_designer', DEPT.producers, COMPANY.producer, [
        await role('攻47-视图设计', [MENU.lowcode, MENU.generation, ...menus]),
      ])
    ).api;
    const def = await db().selectFrom('lc_generation').select(['dis_template', 'version']).where('id', '=', 15).executeTakeFirstOrThrow();
    const renamed = String(def.dis_template).replaceAll('"companyId"', '"companyIdX"');
    const calls = [
      await designer.post('/api/generation/design', { id: 15, disTemplate: renamed, version: def.version }),
      await designer.post('/api/generation/update', { id: 15, version: def.version, name: '处置询价', componentName: 'disposalInquiryX' }),
      await designer.post('/api/generation/add', { name: '攻47', componentName: 'disposalInquiry' }),
      await designer.post('/api/generation/publish', { id: 15 }),
      await designer.post('/api/generation/delete', { ids: [15] }),
    ];
    expect(calls.map((r) => r.status)).toEqual([403, 403, 403, 403, 403]);
    expect(
      (await db().selectFrom('lc_generation').select('dis_template').where('id', '=', 15).executeTakeFirstOrThrow()).dis_template,
    ).toBe(def.dis_template);
  });
});

describe('a contract between two other companies', () => {
  it('a disposer writes no signed contract naming neither party as itself (甲方 producer, 乙方 another disposer)', async () => {
    const contract = {
      contractNo: 'HT2026-4747',
      contractName: '攻47 代签合同',
      partyAId: COMPANY.producer,
      partyBId: COMPANY.disposer2,
      amount: 1,
      signDate: '2026-01-01 00:00:00',
      beginDate: '2026-01-01 00:00:00',
      endDate: '2027-12-31 00:00:00',
      contractStatus: '1',
      signer: '张三',
    };
    const added = await disposer.post('/api/general/add/16', contract);
    const rows = await column(16, 'id', sql`"contractName" = '攻47 代签合同'`);
    // The producer then finds it among its effective contracts with disposer2, ready for a disposal order.
    const seen = rows.length
      ? await producer.get('/api/disposalOrder/effectiveContract', { partyACompany: String(COMPANY.producer) })
      : undefined;
    const numbers = seen ? (seen.body.data as { contractNo: string }[]).map((c) => c.contractNo) : [];
    expect({ status: added.status, rows: rows.length }, `${said(added)} producer's effective contracts: ${numbers}`).not.toMatchObject({
      status: 200,
      rows: 1,
    });
  });

  it('nor a disposal order among three other companies (producer, another disposer, the carrier)', async () => {
    const added = await disposer.post('/api/general/add/19', {
      producerId: COMPANY.producer,
      disposerId: COMPANY.disposer2,
      carrierId: COMPANY.logistics,
      wasteCategory: 'HW08',
      quantity: 1,
      price: 1,
      remark: '攻47 代下订单',
    });
    const rows = await column(19, 'id', sql`"remark" = '攻47 代下订单'`);
    const seen = rows.length
      ? await server.login('logistics').then((c) => c.get('/api/general/formData', { generalId: 19, id: rows[0] }))
      : undefined;
    expect({ status: added.status, rows: rows.length }, `${said(added)} ${seen ? said(seen) : ''}`).not.toMatchObject({
      status: 200,
      rows: 1,
    });
  });
});

describe('company names that pass for the platform', () => {
  it("a company does not rename itself as the platform or its 监管部门, the names its messages' senderCompany would show", async () => {
    const before = (await db().selectFrom('company').select('name').where('id', '=', COMPANY.producer).executeTakeFirstOrThrow()).name;
    const platformNames = (
      await db().selectFrom('sys_dept').select('name').where('id', 'in', [DEPT.platform, DEPT.supervision]).execute()
    ).map((d) => d.name);
    const taken: string[] = [];
    for (const name of platformNames) {
      const r = await producer.post('/api/companyApi/update', { name });
      const now = (await db().selectFrom('company').select('name').where('id', '=', COMPANY.producer).executeTakeFirstOrThrow()).name;
      if (now === name) {
        taken.push(`${name}: ${said(r)}`);
        if (name === platformNames[platformNames.length - 1]) {
          // Shown beside a leave message the producer sends the disposer.
          await producer.post('/api/leaveMessage', { reception: 'disposer', content: '攻47 平台通知：请立即补缴处置费' });
          const inbox = (await disposer.get('/api/unreadLeaveMessage', { page: 1, size: 50 })).body.content as Record<string, unknown>[];
          const m = inbox.find((x) => String(x.content).startsWith('攻47 平台通知'));
          taken.push(`shown as ${m?.senderName}（${m?.senderUsername} · ${m?.senderCompany}）`);
        }
      }
    }
    await admin.post('/api/companyApi/update', { id: COMPANY.producer, name: before });
    await db().updateTable('company').set({ name: before }).where('id', '=', COMPANY.producer).execute();
    expect(taken).toEqual([]);
  });
});

describe('a department message told live to another company', () => {
  it("reaches only the addressed department's sockets, signed by the sending account; a third company hears nothing", async () => {
    const url = (username: string, token: string | null) => {
      const u = new URL(`/websocket/${username}`, server.url.replace(/^http/, 'ws'));
      if (token) u.searchParams.set('token', token);
      return u.toString();
    };
    const target = new Client(url('disposer', disposer.token));
    const collector = await server.login('collector');
    const bystander = new Client(url('collector', collector.token));
    try {
      await Promise.all([target.waitFor((m) => m?.flag === 'unread'), bystander.waitFor((m) => m?.flag === 'unread')]);
      const n = 25;
      for (let i = 0; i < n; i++)
        expect(
          (
            await producer.post('/api/general/add/18', {
              title: `攻47 骚扰${i}`,
              content: 'x',
              contactName: '监管部门',
              deptId: DEPT.disposers,
            })
          ).status,
        ).toBe(200);
      await target.waitFor((m) => m?.body?.content === `攻47 骚扰${n - 1}`);
      const told = target.messages.filter((m: any) => m?.flag === 'leaveMessage' && String(m?.body?.content).startsWith('攻47 骚扰'));
      expect(told.every((m: any) => m.sender === 'producer')).toBe(true);
      expect(bystander.messages.filter((m: any) => m?.flag === 'leaveMessage')).toEqual([]);
      console.log(`attack-47: ${told.length} of ${n} department messages from another company were pushed live to the disposer`);
    } finally {
      target.ws.close();
      bystander.ws.close();
    }
  });
});

describe("a contract's counterparty with every contract button", () => {
  it("edits, re-addresses and deletes none of the disposer's contract by PUT, the add-with-id form, an import or a batch", async () => {
    const menus = (await db().selectFrom('sys_menu').select('id').where('permission', 'like', 'contract:%').execute()).map((m) => m.id);
    const partyA = (
      await account('atk47_partyA', DEPT.producers, COMPANY.producer, [await role('攻47-合同全权', [MENU.dispose, ...menus])])
    ).api;
    const made = await disposer.post('/api/general/add/16', {
      contractNo: 'HT2026-4748',
      contractName: '攻47 真合同',
      partyAId: COMPANY.producer,
      partyBId: COMPANY.disposer,
      amount: 100,
      signDate: '2026-01-01 00:00:00',
      beginDate: '2026-01-01 00:00:00',
      endDate: '2027-12-31 00:00:00',
      contractStatus: '1',
    });
    expect(made.status, said(made)).toBe(200);
    const id = Number(made.body.id);
    const stored = (await partyA.get('/api/general/formData', { generalId: 16, id })).body.data as Record<string, unknown>;
    expect(stored?.id).toBe(id);
    const before = JSON.stringify(await column(16, 'amount', sql`id = ${id}`)) + (await cellOf(16, id, 'partyBId'));
    const tries = [
      await partyA.put('/api/general/update/16', { ...stored, amount: 1, partyBId: COMPANY.disposer2 }),
      await partyA.post('/api/general/add/16', { ...stored, amount: 1, partyBId: COMPANY.disposer2 }),
      await partyA.post('/api/general/delete/16', { ids: [id] }),
    ];
    const file = await workbook([
      ['id', '合同编号', '合同名称', '甲方（产废单位）', '乙方（处置单位）', '合同金额'],
      [id, stored.contractNo, '攻47 导入覆盖', String(COMPANY.producer), String(COMPANY.disposer2), 1],
    ]);
    await uploadFile(partyA, 16, 'c.xlsx', file);
    const after = JSON.stringify(await column(16, 'amount', sql`id = ${id}`)) + (await cellOf(16, id, 'partyBId'));
    expect(tries.map((r) => r.status)).toEqual([403, 403, 403]);
    expect(after).toBe(before);
  });
});

describe("a message to another company's inner department", () => {
  it('is refused on add, on an edit that re-addresses it, and in an import', async () => {
    const inner = await admin.post('/api/dept', { name: '攻47处置内部科', pid: DEPT.disposers, deptSort: 9, enabled: true });
    expect(inner.status, said(inner)).toBe(201);
    const dept = inner.body.id as number;
    const body = { title: '攻47 内部', content: 'x', contactName: '张三', deptId: dept };
    const added = await producer.post('/api/general/add/18', body);
    const ok = await producer.post('/api/general/add/18', { ...body, deptId: DEPT.disposers });
    const moved = await producer.post('/api/general/update/18', { ...body, id: ok.body.id });
    const file = await workbook([
      ['留言标题', '留言内容', '留言人', '接收部门'],
      ['攻47 内部', 'x', '张三', '攻47处置内部科'],
    ]);
    await uploadFile(producer, 18, 'm.xlsx', file);
    expect([added.status, moved.status]).toEqual([400, 400]);
    expect(await column(18, 'id', sql`"deptId" = ${dept}`)).toEqual([]);
  });
});

describe("a department's reply to a message", () => {
  it("is not handed by the message's author to a third company by re-addressing the message", async () => {
    const added = await producer.post('/api/general/add/18', {
      title: '攻47 询问',
      content: '贵司报价？',
      contactName: '张三',
      deptId: DEPT.disposers,
    });
    const id = added.body.id as number;
    const stored = (await disposer.get('/api/general/formData', { generalId: 18, id })).body.data as Record<string, unknown>;
    const replied = await disposer.post('/api/general/update/18', {
      ...stored,
      replyContent: '内部底价 1800 元/吨，仅供贵司',
      replyTime: '2026-03-01 10:00:00',
    });
    expect(replied.status, said(replied)).toBe(200);
    const { replyContent: _r, replyTime: _t, ...rest } = stored;
    const moved = await producer.post('/api/general/update/18', { ...rest, id, deptId: DEPT.disposer2, haveRead: '2' });
    const reader = (
      await account('atk47_d2b', DEPT.disposer2, COMPANY.disposer2, [
        await role('攻47-处置2留言', [viewMenuId(18), 3181, 3182, 3183, 3184, 3185], '本企业', COMPANY.disposer2),
      ])
    ).api;
    const seen = reader ? await reader.get('/api/general/formData', { generalId: 18, id }) : undefined;
    const reply = seen?.status === 200 ? (seen.body.data as Record<string, unknown>).replyContent : undefined;
    expect({ dept: Number(await cellOf(18, id, 'deptId')), reply }, said(moved)).not.toEqual({
      dept: DEPT.disposer2,
      reply: '内部底价 1800 元/吨，仅供贵司',
    });
  });
});
