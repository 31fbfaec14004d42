import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RowIndexes } from '../../server/lowcode/row-index.js';
import { lowcodeState } from '../../server/lowcode/view-store.js';
import { DEPT, MENU } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { accountMaker } from '../helpers/accounts.js';
import { type ApiClient, type ApiResponse, freshPostgres, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Attack 38: ordinary accounts (company users of a producer, a disposer, a collector, a carrier, a
 * department user, a user of 本人 and of 自定义 scope) against the rows held in memory as units of one
 * company's scope, the caches dropped by rows changed in SQL outside the server, estimated counts and
 * keyset paging, and the notices the instances tell each other. Every probe asserts the safe answer:
 * a record shows to those whose scope holds it, at once, and to nobody else.
 */

type Row = Record<string, any>;
type Outside = (text: string, params?: unknown[]) => Promise<{ rows: Row[] }>;
const said = (r: ApiResponse) => JSON.stringify(Buffer.isBuffer(r.body) ? `<${r.body.length} bytes>` : r.body).slice(0, 400);

async function list(api: ApiClient, viewId: number, query: Record<string, unknown> = {}) {
  const r = await api.get(`/api/general/list/${viewId}`, { page: 0, size: 500, ...query });
  expect(r.status, said(r)).toBe(200);
  return r.body as { content: Row[]; totalElements: number; totalEstimated?: boolean };
}
const ids = async (api: ApiClient, viewId: number, query: Record<string, unknown> = {}) =>
  (await list(api, viewId, query)).content.map((r) => Number(r.id));
const detail = async (api: ApiClient, viewId: number, id: number) => {
  const r = await api.get('/api/general/detail', { generalId: viewId, id });
  return r.status === 200 && r.body?.id ? (r.body as Row) : null;
};

/**
 * Lists the view often enough that its scope's unit is read into memory, and waits for it: true once a
 * list miss of the scope was answered from memory (a unit may find no room for a while: then false).
 */
async function hold(s: TestServer, api: ApiClient, viewId: number, timeout = 15_000): Promise<boolean> {
  const indexes = lowcodeState(s.ctx).indexes as RowIndexes | undefined;
  if (!indexes) return false;
  const field = viewId === 16 ? 'contractNo' : 'stockNo';
  const held = await vi
    .waitFor(
      async () => {
        const before = indexes.stats.pages;
        // A filter never asked before: a miss of the list cache, answered from memory once the unit is held.
        await api.get(`/api/general/list/${viewId}`, { page: 0, size: 3, [field]: String(Math.random()).slice(2, 9) });
        if (indexes.stats.pages === before) throw new Error('not answered from memory yet');
      },
      { timeout, interval: 50 },
    )
    .then(
      () => true,
      () => false,
    );
  return held;
}

function suite(name: string, start: () => Promise<{ server: TestServer; outside: Outside; close: () => Promise<void> }>) {
  describe(name, () => {
    let server: TestServer;
    let outside: Outside;
    let close: () => Promise<void>;
    const as = {} as Record<string, ApiClient>;
    const { account, role } = accountMaker(
      () => server,
      () => as.admin as ApiClient,
      name.includes('no rows') ? '1373801' : '1373802',
    );

    beforeAll(async () => {
      ({ server, outside, close } = await start());
      for (const u of ['admin', 'producer', 'disposer', 'logistics', 'collector']) as[u] = await server.login(u);
    }, 120_000);
    afterAll(async () => {
      await close?.();
    });

    it('a stock-in moved to another company in SQL leaves the first company’s lists and memory at once', async () => {
      for (const u of ['producer', 'collector']) await hold(server, as[u] as ApiClient, 12);
      const mine = await ids(as.producer as ApiClient, 12);
      const theirs = await ids(as.collector as ApiClient, 12);
      const id = mine[0] as number;
      expect(theirs).not.toContain(id);
      await outside('update lc_view_12 set create_company = $1, create_dept = $2 where id = $3', [COMPANY.collector, DEPT.collectors, id]);
      expect(await ids(as.producer as ApiClient, 12)).not.toContain(id);
      expect(await detail(as.producer as ApiClient, 12, id)).toBeNull();
      expect(await ids(as.collector as ApiClient, 12)).toContain(id);
      expect((await detail(as.collector as ApiClient, 12, id))?.id).toBe(id);
      // The options of a linked pick and the export follow too.
      const stockNo = (await outside('select "stockNo" from lc_view_12 where id = $1', [id])).rows[0]?.stockNo as string;
      const link = async (api: ApiClient) => {
        const r = await api.get('/api/general/allList/12/queryLink');
        expect(r.status, said(r)).toBe(200);
        return (r.body as { value: number }[]).map((o) => o.value);
      };
      expect(await link(as.producer as ApiClient)).not.toContain(id);
      expect(await link(as.collector as ApiClient)).toContain(id);
      const exported = await (as.producer as ApiClient).get('/api/general/export/12/download', {});
      expect(exported.status).toBe(200);
      const sheet = await new ExcelJS.Workbook().xlsx.load(exported.body as unknown as ArrayBuffer);
      const text: string[] = [];
      sheet.worksheets[0]?.eachRow((row) => {
        text.push(JSON.stringify(row.values));
      });
      expect(text.join('\n')).not.toContain(stockNo);
      const kept = (await outside('select "stockNo" from lc_view_12 where id = $1', [mine[1]])).rows[0]?.stockNo as string;
      expect(text.join('\n')).toContain(kept);
      // Back, and counts too.
      await outside('update lc_view_12 set create_company = $1, create_dept = $2 where id = $3', [COMPANY.producer, DEPT.producers, id]);
      expect(await ids(as.collector as ApiClient, 12)).not.toContain(id);
      expect((await list(as.producer as ApiClient, 12)).totalElements).toBe(mine.length);
      expect((await list(as.collector as ApiClient, 12)).totalElements).toBe(theirs.length);
    });

    it('a contract names its party B: shown to B, never to C, and follows a change of party by the owner or in SQL', async () => {
      const reader = await role(`攻击38-合同只读-${name}`, [MENU.dispose, 1016, 3164, 3165], '本企业');
      as.collectorC = (await account(`atk38_cc_${name.length}`, DEPT.collectors, COMPANY.collector, [reader])).api;
      as.carrierC = (await account(`atk38_lc_${name.length}`, DEPT.logistics, COMPANY.logistics, [reader])).api;
      as.disposer2C = (await account(`atk38_d2_${name.length}`, DEPT.disposer2, COMPANY.disposer2, [reader])).api;
      const contracts = (await list(as.admin as ApiClient, 16)).content;
      const c = contracts.find((r) => Number(r.partyAId) === COMPANY.producer && Number(r.partyBId) === COMPANY.disposer) as Row;
      expect(c, JSON.stringify(contracts.map((r) => [r.id, r.partyAId, r.partyBId, r.createBy]))).toBeDefined();
      const stranger = ['collectorC', 'carrierC', 'disposer2C'];
      for (const u of ['producer', 'disposer', ...stranger]) await hold(server, as[u] as ApiClient, 16);
      expect(await ids(as.disposer as ApiClient, 16)).toContain(c.id);
      for (const u of stranger) {
        expect(await ids(as[u] as ApiClient, 16), u).not.toContain(c.id);
        expect(await detail(as[u] as ApiClient, 16, c.id), u).toBeNull();
      }
      // Party B changed in SQL to the second disposer: the first disposer loses it at once, the second gains it.
      await outside('update lc_view_16 set "partyBId" = $1 where id = $2', [COMPANY.disposer2, c.id]);
      expect(await ids(as.disposer as ApiClient, 16)).not.toContain(c.id);
      expect(await detail(as.disposer as ApiClient, 16, c.id)).toBeNull();
      expect(await ids(as.disposer2C as ApiClient, 16)).toContain(c.id);
      expect((await detail(as.disposer2C as ApiClient, 16, c.id))?.id).toBe(c.id);
      expect(await ids(as.producer as ApiClient, 16)).toContain(c.id);
      // And to the collector's company: the collector gains it, nobody else.
      await outside('update lc_view_16 set "partyBId" = $1 where id = $2', [COMPANY.collector, c.id]);
      expect(await ids(as.collectorC as ApiClient, 16)).toContain(c.id);
      for (const u of ['disposer', 'disposer2C', 'carrierC']) expect(await ids(as[u] as ApiClient, 16), u).not.toContain(c.id);
      // Party B changed back through the update call.
      const w = await (as.admin as ApiClient).post('/api/general/update/16', { id: c.id, partyBId: COMPANY.disposer });
      expect(w.status, said(w)).toBe(200);
      expect(await ids(as.collectorC as ApiClient, 16)).not.toContain(c.id);
      expect(await detail(as.collectorC as ApiClient, 16, c.id)).toBeNull();
      expect(await ids(as.disposer as ApiClient, 16)).toContain(c.id);
      // The owner (party A) names party B by its own edit: the disposer gets it, the second disposer never.
      const own = await (as.producer as ApiClient).post('/api/general/update/16', { id: c.id, partyBId: COMPANY.disposer2 });
      if (own.status === 200) {
        expect(await ids(as.disposer as ApiClient, 16)).not.toContain(c.id);
        expect(await ids(as.disposer2C as ApiClient, 16)).toContain(c.id);
        await (as.admin as ApiClient).post('/api/general/update/16', { id: c.id, partyBId: COMPANY.disposer });
      }
      expect(await ids(as.disposer2C as ApiClient, 16)).not.toContain(c.id);
    });

    it('a carrier’s logistics orders follow its disposal orders’ carrier, changed in SQL or by the update call', async () => {
      const carrier = as.logistics as ApiClient;
      const orders = (await list(as.admin as ApiClient, 19)).content;
      const mine = orders.filter((r) => Number(r.carrierId) === COMPANY.logistics);
      const logistics = (await list(as.admin as ApiClient, 20)).content;
      const order = mine.find((o) => logistics.some((l) => Number(l.disposalOrderId) === Number(o.id))) as Row;
      expect(order, JSON.stringify(orders.map((o) => [o.id, o.carrierId]))).toBeDefined();
      const truth = async () =>
        (
          await outside(
            `select l.id from lc_view_20 l left join lc_view_19 o on o.id = l."disposalOrderId"
             where l.create_company = $1 or o."producerId" = $1 or o."disposerId" = $1 or o."carrierId" = $1 order by l.id`,
            [COMPANY.logistics],
          )
        ).rows.map((x) => Number(x.id));
      // One of its logistics orders handed to the producer as its writer: the carrier sees it as a party only.
      const handed = (await outside('select id from lc_view_20 where "disposalOrderId" = $1 order by id limit 1', [order.id])).rows.map(
        (x) => Number(x.id),
      );
      await outside('update lc_view_20 set create_company = $1, create_dept = $2, create_by = $3 where id = any($4::bigint[])', [
        COMPANY.producer,
        DEPT.producers,
        'producer',
        handed,
      ]);
      const byOthers = (
        await outside('select id from lc_view_20 where "disposalOrderId" = $1 and create_company is distinct from $2', [
          order.id,
          COMPANY.logistics,
        ])
      ).rows.map((x) => Number(x.id));
      const theirs = logistics.filter((l) => byOthers.includes(Number(l.id))).map((l) => Number(l.id));
      expect(theirs.length, 'a logistics order of the carrier’s disposal order written by another company').toBeGreaterThan(0);
      for (let i = 0; i < 2; i++) {
        await hold(server, carrier, 20, 3000);
        await hold(server, carrier, 19, 3000);
      }
      const sorted = async () => (await ids(carrier, 20)).sort((x, y) => x - y);
      const seen = await ids(carrier, 20);
      for (const id of theirs) expect(seen).toContain(id);
      expect(await sorted()).toEqual(await truth());
      // The disposal order's carrier changed in SQL: the carrier's logistics orders of it go at once.
      await outside('update lc_view_19 set "carrierId" = $1 where id = $2', [COMPANY.collector, order.id]);
      expect(await ids(carrier, 19)).not.toContain(order.id);
      const after = await ids(carrier, 20);
      expect(await sorted()).toEqual(await truth());
      for (const id of theirs) {
        expect(after, `logistics order ${id}`).not.toContain(id);
        expect(await detail(carrier, 20, id)).toBeNull();
      }
      await outside('update lc_view_19 set "carrierId" = $1 where id = $2', [COMPANY.logistics, order.id]);
      for (const id of theirs) expect(await ids(carrier, 20)).toContain(id);
      // And by the administrator's update call.
      const otherCarrier = Number(
        (await outside(`select id from company where type = '3' and id <> $1 order by id limit 1`, [COMPANY.logistics])).rows[0]?.id,
      );
      const w = await (as.admin as ApiClient).post('/api/general/update/19', { id: order.id, carrierId: otherCarrier });
      expect(w.status, said(w)).toBe(200);
      const later = await ids(carrier, 20);
      for (const id of theirs) expect(later, `logistics order ${id} after the update call`).not.toContain(id);
      await outside('update lc_view_19 set "carrierId" = $1 where id = $2', [COMPANY.logistics, order.id]);
      // A logistics order moved in SQL to another disposal order leaves the carrier.
      const other = orders.find((o) => Number(o.carrierId) !== COMPANY.logistics) as Row;
      if (other) {
        await ids(carrier, 20);
        await outside('update lc_view_20 set "disposalOrderId" = $1 where id = $2', [other.id, theirs[0]]);
        expect(await ids(carrier, 20)).not.toContain(theirs[0]);
        await outside('update lc_view_20 set "disposalOrderId" = $1 where id = $2', [order.id, theirs[0]]);
      }
    });

    it('a user moved to another company, department or role reads the new scope at once, not the held one', async () => {
      const r = await role(`攻击38-本企业-${name}`, [MENU.dashboard, MENU.waste, 1012], '本企业');
      const mover = await account(`atk38_mv_${name.length}`, DEPT.producers, COMPANY.producer, [r]);
      await hold(server, mover.api, 12);
      const producerIds = await ids(as.producer as ApiClient, 12);
      expect(await ids(mover.api, 12)).toEqual(producerIds);
      const moved = await (as.admin as ApiClient).put('/api/users', {
        id: mover.id,
        username: `atk38_mv_${name.length}`,
        nickName: 'mover',
        phone: `1373999${String(name.length).padStart(4, '0')}`,
        deptId: DEPT.collectors,
        companyId: COMPANY.collector,
        roles: [{ id: r }],
      });
      expect([200, 204], said(moved)).toContain(moved.status);
      const again = await server.login(`atk38_mv_${name.length}`).catch(() => mover.api);
      let checked = 0;
      for (const api of [mover.api, again]) {
        const r2 = await api.get('/api/general/list/12', { page: 0, size: 500 });
        if (r2.status !== 200) continue;
        checked++;
        const seen = (r2.body.content as Row[]).map((x) => Number(x.id));
        for (const id of seen) expect(producerIds, `moved user still sees producer row ${id}`).not.toContain(id);
        expect(seen.sort()).toEqual((await ids(as.collector as ApiClient, 12)).sort());
      }
      expect(checked).toBeGreaterThan(0);
      // A role changed to 本人 while its unit is held.
      const self = await account(`atk38_self_${name.length}`, DEPT.producers, COMPANY.producer, [r]);
      await hold(server, self.api, 12);
      const changed = await (as.admin as ApiClient).put('/api/roles', {
        id: r,
        name: `攻击38-本企业-${name}`,
        level: 3,
        dataScope: '本人',
        menus: [MENU.dashboard, MENU.waste, 1012].map((id) => ({ id })),
      });
      expect([200, 204], said(changed)).toContain(changed.status);
      expect(await ids(self.api, 12)).toEqual([]);
    });

    it('本部门 and 自定义 scopes: a department sees its own rows only, before and after a row moves department in SQL', async () => {
      const custom = await role(`攻击38-自定义-${name}`, [MENU.dashboard, MENU.waste, 1012], '本企业', COMPANY.producer);
      const setDepts = await (as.admin as ApiClient).put('/api/roles', {
        id: custom,
        name: `攻击38-自定义-${name}`,
        level: 3,
        dataScope: '自定义',
        companyId: COMPANY.producer,
        depts: [{ id: DEPT.producers }],
        menus: [MENU.dashboard, MENU.waste, 1012].map((id) => ({ id })),
      });
      expect([200, 204], said(setDepts)).toContain(setDepts.status);
      const user = await account(`atk38_cu_${name.length}`, DEPT.producers, COMPANY.producer, [custom]);
      await hold(server, user.api, 12);
      const seen = await ids(user.api, 12);
      const stored = async () =>
        (await outside('select id from lc_view_12 where create_dept = $1 order by id desc', [DEPT.producers])).rows.map((x) =>
          Number(x.id),
        );
      expect([...seen].sort((a, b) => b - a)).toEqual(await stored());
      const id = seen[0] as number;
      await outside('update lc_view_12 set create_dept = $1 where id = $2', [DEPT.suzhou, id]);
      expect(await ids(user.api, 12)).not.toContain(id);
      expect(await detail(user.api, 12, id)).toBeNull();
      await outside('update lc_view_12 set create_dept = $1 where id = $2', [DEPT.producers, id]);
      expect(await ids(user.api, 12)).toContain(id);
    });

    it('rows moved between companies in SQL and added through the API while a company unit is read: every list is the table’s', async () => {
      const truth = async (company: number) =>
        (await outside('select id from lc_view_12 where create_company = $1 order by id desc', [company])).rows.map((x) => Number(x.id));
      const own = (await list(as.producer as ApiClient, 12, { size: 1, sort: 'id,desc' })).content[0] as Row;
      const { id: _i, createTime: _c, updateTime: _u, createBy: _b, stockNo: _s, ...rest } = own;
      for (let round = 0; round < 6; round++) {
        const pick = (await truth(COMPANY.producer))[round] as number;
        await Promise.all([
          hold(server, as.producer as ApiClient, 12),
          hold(server, as.collector as ApiClient, 12),
          outside('update lc_view_12 set create_company = $1 where id = $2', [COMPANY.collector, pick]),
          (as.producer as ApiClient).post('/api/general/add/12', { ...rest, handler: `并发${round}` }),
          outside('update lc_view_12 set create_company = $1 where id = $2', [COMPANY.producer, pick]),
          outside('update lc_view_12 set create_company = $1 where id = $2', [COMPANY.collector, pick]),
        ]);
        for (const [api, company] of [
          [as.producer, COMPANY.producer],
          [as.collector, COMPANY.collector],
        ] as const) {
          expect(await ids(api as ApiClient, 12, { sort: 'id,desc' })).toEqual(await truth(company));
          expect((await list(api as ApiClient, 12, { size: 3, sort: 'id,desc', stockNo: 'RK' })).totalElements).toBe(
            (await truth(company)).length,
          );
        }
        await outside('update lc_view_12 set create_company = $1 where id = $2', [COMPANY.producer, pick]);
      }
    });

    it('a statement of more than 1000 rows in SQL: every held company unit and cached list follows', async () => {
      for (const u of ['producer', 'collector', 'admin']) await hold(server, as[u] as ApiClient, 12);
      const before = {
        producer: (await list(as.producer as ApiClient, 12, { size: 10 })).totalElements,
        collector: (await list(as.collector as ApiClient, 12, { size: 10 })).totalElements,
      };
      const cols = (
        await outside(
          `select string_agg(quote_ident(column_name), ', ') as cols from information_schema.columns
           where table_schema = current_schema() and table_name = 'lc_view_12' and column_name not in ('id', 'stockNo', 'create_company')`,
        )
      ).rows[0]?.cols as string;
      const src = (await ids(as.producer as ApiClient, 12))[0];
      const made = (
        await outside(
          `insert into lc_view_12 (${cols}, "stockNo", create_company)
           select ${cols}, 'RK3899' || lpad(g::text, 8, '0'), $2 from lc_view_12, generate_series(1, 1200) g where id = $1 returning id`,
          [src, COMPANY.collector],
        )
      ).rows.map((x) => Number(x.id));
      expect((await list(as.producer as ApiClient, 12, { size: 10 })).totalElements).toBe(before.producer);
      expect((await list(as.collector as ApiClient, 12, { size: 10 })).totalElements).toBe(before.collector + 1200);
      const newest = await ids(as.producer as ApiClient, 12, { sort: 'id,desc', size: 10 });
      for (const id of made) expect(newest).not.toContain(id);
      // Moved to the producer in one statement of 1,200 rows.
      await outside('update lc_view_12 set create_company = $1 where id = any($2::bigint[])', [COMPANY.producer, made]);
      expect((await list(as.collector as ApiClient, 12, { size: 10 })).totalElements).toBe(before.collector);
      expect((await list(as.producer as ApiClient, 12, { size: 10 })).totalElements).toBe(before.producer + 1200);
      expect(await ids(as.collector as ApiClient, 12, { sort: 'id,desc', size: 10 })).not.toContain(made.at(-1));
      await outside('delete from lc_view_12 where id = any($1::bigint[])', [made]);
      expect((await list(as.producer as ApiClient, 12, { size: 10 })).totalElements).toBe(before.producer);
    });

    it('a write whose values are crafted for the notice (quotes, braces, long text) reaches every list', async () => {
      await hold(server, as.producer as ApiClient, 12);
      const own = (await list(as.producer as ApiClient, 12, { size: 1, sort: 'id,desc' })).content[0] as Row;
      for (const handler of ['"},"e":{"t":"access-changed"}}', '废'.repeat(3000), '\\u0000\'"$wastegen$']) {
        const w = await (as.producer as ApiClient).post('/api/general/update/12', { id: own.id, handler });
        if (w.status !== 200) continue;
        const now = await detail(as.producer as ApiClient, 12, own.id);
        const listed = (await list(as.producer as ApiClient, 12, { size: 5, sort: 'id,desc' })).content.find((r) => r.id === own.id);
        expect(listed?.handler).toBe(now?.handler);
        expect((await ids(as.collector as ApiClient, 12)).includes(own.id)).toBe(false);
      }
    });

    it('paging a company’s list with keys cached by another scope shows only its own rows', async () => {
      const all = (await list(as.admin as ApiClient, 12, { size: 500 })).content;
      const mine = new Set(await ids(as.producer as ApiClient, 12));
      for (const sort of ['inTime,desc', 'quantity,asc', 'stockNo,desc', 'id,asc']) {
        for (let page = 0; page < 4; page++) await list(as.admin as ApiClient, 12, { size: 5, page, sort });
        for (let page = 0; page < 4; page++) await list(as.collector as ApiClient, 12, { size: 5, page, sort });
        const seen: number[] = [];
        for (let page = 0; page < 8; page++) {
          const p = await list(as.producer as ApiClient, 12, { size: 5, page, sort });
          for (const r of p.content) {
            expect(mine.has(Number(r.id)), `row ${r.id} of ${sort} page ${page}`).toBe(true);
            seen.push(Number(r.id));
          }
        }
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen.length).toBe(Math.min(40, mine.size));
      }
      expect(all.length).toBeGreaterThan(mine.size);
    });

    it('counts above the threshold: another company’s count stays exact and its own', async () => {
      const cols = (
        await outside(
          `select string_agg(quote_ident(column_name), ', ') as cols from information_schema.columns
           where table_schema = current_schema() and table_name = 'lc_view_12' and column_name not in ('id', 'stockNo', 'create_company')`,
        )
      ).rows[0]?.cols as string;
      const src = (await ids(as.producer as ApiClient, 12))[0];
      await outside(
        `insert into lc_view_12 (${cols}, "stockNo", create_company)
         select ${cols}, 'RK3999' || lpad(g::text, 8, '0'), $2 from lc_view_12, generate_series(1, 12000) g where id = $1`,
        [src, COMPANY.producer2],
      );
      await outside('analyze lc_view_12');
      const p = await list(as.producer as ApiClient, 12, { size: 5 });
      const exact = Number(
        (await outside('select count(*) as n from lc_view_12 where create_company = $1', [COMPANY.producer])).rows[0]?.n,
      );
      expect(p.totalElements).toBe(exact);
      expect(p.totalEstimated).toBeFalsy();
      const c = await list(as.collector as ApiClient, 12, { size: 5, page: 2 });
      for (const r of c.content) expect(Number(r.createCompany ?? COMPANY.collector)).not.toBe(COMPANY.producer2);
      const a = await list(as.admin as ApiClient, 12, { size: 5 });
      expect(a.totalElements).toBeGreaterThan(12000);
      // Paging far into the big list, as the admin, then the producer's far pages stay its own.
      for (const page of [0, 1, 2, 3, 100, 101]) await list(as.admin as ApiClient, 12, { size: 20, page, sort: 'inTime,desc' });
      const mine = new Set(await ids(as.producer as ApiClient, 12));
      for (const page of [0, 1, 2, 3])
        for (const r of (await list(as.producer as ApiClient, 12, { size: 20, page, sort: 'inTime,desc' })).content)
          expect(mine.has(Number(r.id))).toBe(true);
      await outside('delete from lc_view_12 where create_company = $1', [COMPANY.producer2]);
    });
  });
}

// A bound small enough that no whole view fits and company scopes are held one by one.
const SMALL = { listIndexRows: 70 };

suite('one instance, company units', async () => {
  const server = await startTestServer(SMALL);
  const pglite = server.database.pglite;
  if (pglite)
    return {
      server,
      outside: async (text, params) => ({ rows: (await pglite.query<Row>(text, params)).rows }),
      close: () => server.close(),
    };
  const client = new pg.Client({ connectionString: server.config.databaseUrl as string });
  await client.connect();
  return {
    server,
    outside: (text, params) => client.query(text, params),
    close: async () => {
      await client.end();
      await server.close();
    },
  };
});

suite('one instance, no rows in memory', async () => {
  const server = await startTestServer({ listIndex: false });
  const pglite = server.database.pglite;
  if (pglite)
    return {
      server,
      outside: async (text, params) => ({ rows: (await pglite.query<Row>(text, params)).rows }),
      close: () => server.close(),
    };
  const client = new pg.Client({ connectionString: server.config.databaseUrl as string });
  await client.connect();
  return {
    server,
    outside: (text, params) => client.query(text, params),
    close: async () => {
      await client.end();
      await server.close();
    },
  };
});

const pgOnly = process.env.TEST_DATABASE_URL ? describe : describe.skip;

pgOnly('two instances on PostgreSQL, company units', () => {
  let database: { url: string; drop: () => Promise<void> };
  let a: TestServer;
  let b: TestServer;
  let client: pg.Client;
  const outside: Outside = (text, params) => client.query(text, params);

  beforeAll(async () => {
    database = (await freshPostgres({ seeded: true })) as { url: string; drop: () => Promise<void> };
    [a, b] = await Promise.all([
      startTestServer({ databaseUrl: database.url, ...SMALL }),
      startTestServer({ databaseUrl: database.url, ...SMALL }),
    ]);
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  }, 120_000);
  afterAll(async () => {
    await client?.end();
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('a row moved between companies in SQL, or by a party change on one instance, shows on the other at once', async () => {
    const tokens = Object.fromEntries(
      await Promise.all(['admin', 'producer', 'disposer', 'collector'].map(async (u) => [u, (await a.login(u)).token] as const)),
    );
    const on = (s: TestServer, u: string) => s.api.withToken(tokens[u] as string);
    for (const s of [a, b]) for (const u of ['producer', 'collector']) await hold(s, on(s, u), 12);
    const id = (await ids(on(a, 'producer'), 12))[0] as number;
    await outside('update lc_view_12 set create_company = $1 where id = $2', [COMPANY.collector, id]);
    for (const s of [a, b]) {
      expect(await ids(on(s, 'producer'), 12)).not.toContain(id);
      expect(await detail(on(s, 'producer'), 12, id)).toBeNull();
      expect(await ids(on(s, 'collector'), 12)).toContain(id);
    }
    await outside('update lc_view_12 set create_company = $1 where id = $2', [COMPANY.producer, id]);
    for (const s of [a, b]) expect(await ids(on(s, 'collector'), 12)).not.toContain(id);

    // A contract's party B changed on instance A by the update call: instance B's held units follow.
    const c = (await list(on(a, 'admin'), 16)).content.find(
      (r) => Number(r.partyAId) === COMPANY.producer && Number(r.partyBId) === COMPANY.disposer,
    ) as Row;
    for (const s of [a, b]) for (const u of ['producer', 'disposer']) await hold(s, on(s, u), 16);
    expect(await ids(on(b, 'disposer'), 16)).toContain(c.id);
    const w = await on(a, 'admin').post('/api/general/update/16', { id: c.id, partyBId: COMPANY.disposer2 });
    expect(w.status, said(w)).toBe(200);
    for (const s of [a, b]) {
      expect(await ids(on(s, 'disposer'), 16)).not.toContain(c.id);
      expect(await detail(on(s, 'disposer'), 16, c.id)).toBeNull();
    }
    await on(b, 'admin').post('/api/general/update/16', { id: c.id, partyBId: COMPANY.disposer });
    for (const s of [a, b]) expect(await ids(on(s, 'disposer'), 16)).toContain(c.id);
  });

  it('a write of text too long for a notice, on one instance, shows on the other', async () => {
    const producerA = await a.login('producer');
    const producerB = b.api.withToken(producerA.token);
    await hold(b, producerB, 12);
    const own = (await list(producerA, 12, { size: 1, sort: 'id,desc' })).content[0] as Row;
    for (const handler of ['废'.repeat(2700), `${'x'.repeat(7890)}`, '"},"o":"","e":{"t":"access-changed"}}']) {
      const w = await producerA.post('/api/general/update/12', { id: own.id, handler });
      if (w.status !== 200) continue;
      const stored = (await outside('select handler from lc_view_12 where id = $1', [own.id])).rows[0]?.handler;
      expect((await list(producerB, 12, { size: 5, sort: 'id,desc' })).content.find((r) => r.id === own.id)?.handler).toBe(stored);
      expect((await detail(producerB, 12, own.id))?.handler).toBe(stored);
    }
  });
});
