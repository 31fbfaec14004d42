import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPT, MENU } from '../../server/seed/accounts.js';
import { COMPANY } from '../../server/seed/ids.js';
import { accountMaker } from '../helpers/accounts.js';
import { said } from '../helpers/refusal.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Attack 55: componentNames that are names every object inherits (constructor, toString, __proto__, …)
 * against the tables keyed by componentName, and the carrier against orders and waybills of other
 * parties. Each probe asserts the safe outcome, so it fails when a hole exists.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(async () => server?.close());

/** A small valid template: one text field. */
const TEMPLATE = JSON.stringify({
  basicOption: { add: true, edit: true, del: true },
  tableOption: [{ name: 'title', chName: '标题', dataType: 'string', configure: {} }],
  formOption: [{ name: 'title', chName: '标题', dataType: 'string', configure: {} }],
});

describe('inherited names as componentName', () => {
  for (const cn of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__']) {
    it(`probe 1 (${cn}): a view named after an inherited key neither answers 500 nor blocks other views' deletes`, async () => {
      const s = await startTestServer();
      try {
        const a = await s.login('admin');
        const m = accountMaker(
          () => s,
          () => a,
          '1395556',
        );
        const r = await m.role('攻55-设计b', [MENU.lowcode, MENU.generation, 611, 612, 613, 614, 615], '全部', null, 2);
        const d = (await m.account('atk55_d2', DEPT.sysadmin, null, [r])).api;
        const bad: string[] = [];
        const plain = await d.post('/api/generation/add', {
          name: '攻55普通',
          status: 0,
          disMenu: JSON.stringify({ componentName: 'atk55plain', name: 'p' }),
        });
        expect(plain.status, said(plain)).toBe(200);
        const odd = await d.post('/api/generation/add', {
          name: `攻55-${cn}`,
          status: 0,
          disMenu: JSON.stringify({ componentName: cn, name: 'x' }),
        });
        if (odd.status >= 500) bad.push(`add without template: ${odd.status} ${said(odd)}`);
        const oddT = await d.post('/api/generation/add', {
          name: `攻55-${cn}T`,
          status: 0,
          disMenu: JSON.stringify({ componentName: `${cn}`, name: 'x' }),
          disTemplate: TEMPLATE,
        });
        if (oddT.status >= 500) bad.push(`add with template: ${oddT.status} ${said(oddT)}`);
        if (odd.status === 200) {
          const des = await d.post('/api/generation/design', { id: odd.body.id, disTemplate: TEMPLATE });
          if (des.status >= 500) bad.push(`design: ${des.status} ${said(des)}`);
        }
        // Another designer's ordinary work must go on.
        const del = await d.post('/api/generation/delete', { ids: [plain.body.id] });
        if (del.status !== 200) bad.push(`delete of an unrelated view: ${del.status} ${said(del)}`);
        const plain2 = await d.post('/api/generation/add', {
          name: '攻55普通2',
          status: 0,
          disMenu: JSON.stringify({ componentName: 'atk55plain2', name: 'p' }),
        });
        const ren = await d.post('/api/generation/update', {
          id: plain2.body.id,
          name: '攻55普通2',
          disMenu: JSON.stringify({ componentName: 'atk55plain3' }),
        });
        if (ren.status !== 200) bad.push(`rename of an unrelated view: ${ren.status} ${said(ren)}`);
        if (odd.status === 200) {
          const self = await d.post('/api/generation/delete', { ids: [odd.body.id] });
          if (self.status !== 200) bad.push(`delete of the odd view itself: ${self.status} ${said(self)}`);
        }
        expect(bad).toEqual([]);
      } finally {
        await s.close();
      }
    }, 120_000);
  }
});

describe('carrier', () => {
  it('probe 2: the carrier reads no order or waybill outside its scope (list, queryLink, detail, formData)', async () => {
    const carrier = await server.login('logistics');
    const db = server.ctx.db;
    const outOrders = (
      await sql<{
        id: number;
      }>`select id from lc_view_19 where "carrierId" is distinct from ${COMPANY.logistics} and create_company is distinct from ${COMPANY.logistics}`.execute(
        db,
      )
    ).rows.map((r) => Number(r.id));
    const outBills = (
      await sql<{ id: number }>`select w.id from lc_view_20 w where w.create_company is distinct from ${COMPANY.logistics}
        and not exists (select 1 from lc_view_19 o where o.id = w."disposalOrderId" and (o."carrierId" = ${COMPANY.logistics} or o."producerId" = ${COMPANY.logistics} or o."disposerId" = ${COMPANY.logistics}))`.execute(
        db,
      )
    ).rows.map((r) => Number(r.id));
    const bad: string[] = [];
    for (const [view, out] of [
      [19, outOrders],
      [20, outBills],
    ] as const) {
      const l = await carrier.get(`/api/general/list/${view}`, { page: 0, size: 9999 });
      const seen = ((l.body?.content ?? []) as { id: number }[]).map((r) => Number(r.id));
      const leak = seen.filter((id) => out.includes(id));
      if (leak.length) bad.push(`list ${view} leaks ${leak.join(',')}`);
      const q = await carrier.get(`/api/general/allList/${view}/queryLink`, {});
      const qs = (Array.isArray(q.body) ? q.body : []).map((r: { value: unknown }) => Number(r.value));
      const qleak = qs.filter((id: number) => out.includes(id));
      if (qleak.length) bad.push(`queryLink ${view} leaks ${qleak.join(',')}`);
      for (const id of out.slice(0, 3)) {
        const d = await carrier.get('/api/general/detail', { generalId: view, id });
        if (d.status === 200 && d.body) bad.push(`detail ${view}/${id}: ${said(d)}`);
        const f = await carrier.get('/api/general/formData', { generalId: view, id });
        if (f.status === 200 && f.body?.data) bad.push(`formData ${view}/${id}: ${said(f)}`);
        const u = await carrier.post(`/api/general/update/${view}`, { id, remark: 'atk55' });
        if (u.status < 400 || u.status >= 500) bad.push(`update ${view}/${id}: ${u.status} ${said(u)}`);
      }
    }
    expect(outOrders.length + outBills.length, 'the seed has records outside the carrier').toBeGreaterThan(0);
    expect(bad, `out orders ${outOrders.length}, out bills ${outBills.length}`).toEqual([]);
  }, 60_000);
});
