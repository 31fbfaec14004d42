import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY } from '../../server/seed/ids.js';
import type { ErrorCode } from '../../src/shared/error-catalogue.js';
import { refusal } from '../helpers/refusal.js';
import type { ApiClient, ApiResponse, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';

/**
 * Generic calls check the view's permission, and the lists that feed other pages (roles, departments,
 * companies, linked selects) answer only those whose pages use them: never an account without roles.
 */

let server: TestServer;
const as: Record<string, ApiClient> = {};
const DEMO = ['admin', 'supervisor', 'producer', 'disposer', 'logistics', 'collector', 'guest'] as const;

const NO_PERMISSION: ErrorCode = 'NO_PERMISSION';
const NO_COMPANY = 'NO_COMPANY_DATA';
const NO_DATA_VIEW = 'DATA_VIEW_FORBIDDEN';
const LOOKUP_DENIED = 'LOOKUP_DENIED';
/** The refusals of a company's code or number that another company holds. */
const CODE_TAKEN = { creditCode: 'CREDIT_CODE_TAKEN', bciId: 'BCI_ID_TAKEN' } as const;
/** Views: 12 stock-in, 17 vehicles, 19 disposal orders. */
const queryLink = (viewId: number) => `/api/general/allList/${viewId}/queryLink`;

const answer = (res: ApiResponse) =>
  res.status === 200 ? { status: 200 } : { status: res.status, code: res.body?.code, message: res.body?.message };
/** A refusal by its code, its message the catalogue's. */
const refused = (status: number, code: ErrorCode) => refusal(status, code);

beforeAll(async () => {
  server = await startTestServer({ gufeiBaseUrl: 'https://gufei.example.cn/' });
  for (const name of DEMO) as[name] = await server.login(name);
});
afterAll(async () => {
  await server?.close();
});

describe('an account without roles', () => {
  it('reads no list of roles, users, departments or companies', async () => {
    const guest = as.guest!;
    const calls: [string, Record<string, unknown>, ErrorCode][] = [
      ['/api/roles', { page: 0, size: 999 }, LOOKUP_DENIED],
      ['/api/roles', { page: 1, size: 9999 }, LOOKUP_DENIED],
      ['/api/users/search', { blurry: '' }, NO_PERMISSION],
      ['/api/users', {}, NO_PERMISSION],
      ['/api/menus/tree', {}, NO_PERMISSION],
      ['/api/dept', {}, NO_PERMISSION],
      ['/api/dept/find', {}, LOOKUP_DENIED],
      ['/api/dept/list', { deptId: 2 }, LOOKUP_DENIED],
      ['/api/company/list', {}, LOOKUP_DENIED],
      ['/api/companyWasteCategory', { companyId: COMPANY.producer }, LOOKUP_DENIED],
      ['/api/companyWarehouse/list', {}, NO_COMPANY],
      ['/api/companyWarehouse/unloadingPoint', {}, NO_COMPANY],
      ['/api/companyLinkman/list', {}, NO_COMPANY],
      ['/api/disposalOrder/effectiveContract', { partyACompany: String(COMPANY.producer) }, NO_COMPANY],
      [queryLink(12), {}, NO_PERMISSION],
      [queryLink(19), { queryParam: '{"producerId":"1"}' }, NO_PERMISSION],
      ['/api/general/list/12', {}, NO_PERMISSION],
      ['/api/data/columns', { id: 7 }, NO_PERMISSION],
      ['/api/data/detail', { id: 1 }, NO_DATA_VIEW],
    ];
    for (const [path, query, code] of calls) {
      expect({ path, ...answer(await guest.get(path, query)) }).toEqual({ path, ...refused(403, code) });
    }
    const groovy = await guest.post('/api/general/groovy/12', { groovyQueryParam: 'anything' });
    expect(answer(groovy)).toEqual(refused(403, NO_PERMISSION));
  });

  it('still reads its own menus, dictionaries and reference data', async () => {
    const guest = as.guest!;
    expect((await guest.get('/api/menus/build')).status).toBe(200);
    const dicts = await guest.get('/api/dictDetail/map', { dictName: 'companyType' });
    expect(dicts.status).toBe(200);
    expect(dicts.body.companyType.length).toBeGreaterThan(0);
    expect((await guest.get('/api/getUserProcessPrimary', { page: 1, size: 999 })).body.content.length).toBeGreaterThan(0);
    expect((await guest.get('/api/myWasteCategory')).body).toEqual({ content: [], totalElements: 0 });
    expect((await guest.get('/api/expiringContracts')).body).toEqual({ count: 0 });
  });
});

describe("the lists each demo account's pages read", () => {
  // Who calls what: the user and company-approval pages (admin) pick roles and departments; view forms
  // pick departments (企业仓库, 留言管理), companies and linkmen (处置询价), records of other views (linked
  // selects); the manual disposal order (disposalOrder:add) picks producers, their categories and contracts,
  // and the disposer's unloading points; every dashboard reads the company's warehouses.
  const uses: Record<string, [string, Record<string, unknown>][]> = {
    admin: [
      ['/api/roles', { page: 0, size: 999 }],
      ['/api/dept/find', {}],
      ['/api/dept/list', { deptId: 2 }],
      ['/api/users/search', { blurry: '陈' }],
      ['/api/company/list', {}],
      ['/api/companyLinkman/list', {}],
      ['/api/companyWarehouse/list', {}],
      [queryLink(12), {}],
      [queryLink(17), {}],
      [queryLink(19), { queryParam: '{"producerId":"1"}' }],
      ['/api/data/detail', { id: 1 }],
      ['/api/data/columns', { id: 7 }],
    ],
    supervisor: [
      ['/api/dept/find', {}],
      ['/api/company/list', { type: '1' }],
      ['/api/companyLinkman/list', {}],
      ['/api/companyWarehouse/list', {}],
      [queryLink(12), {}],
      [queryLink(17), {}],
      [queryLink(19), {}],
      ['/api/data/detail', { id: 7 }],
    ],
    producer: [
      ['/api/dept/find', {}],
      ['/api/company/list', { type: '2' }],
      ['/api/companyLinkman/list', {}],
      ['/api/companyWarehouse/list', {}],
      ['/api/myWasteCategory', {}],
      [queryLink(12), {}],
      [queryLink(17), {}],
      [queryLink(19), {}],
    ],
    disposer: [
      ['/api/dept/find', {}],
      ['/api/company/list', { type: '1' }],
      ['/api/companyWasteCategory', { companyId: COMPANY.producer }],
      ['/api/companyWarehouse/unloadingPoint', {}],
      ['/api/disposalOrder/effectiveContract', { partyACompany: String(COMPANY.producer) }],
      ['/api/getUserProcessPrimary', { page: 1, size: 999 }],
      [queryLink(12), {}],
      [queryLink(17), {}],
      [queryLink(19), { queryParam: '{"producerId":"1"}' }],
    ],
    // The carrier reads the disposal orders that name it: their companies and stock-ins are its page's pickers.
    logistics: [
      ['/api/dept/find', {}],
      ['/api/company/list', { type: '3' }],
      ['/api/companyWarehouse/list', {}],
      [queryLink(12), {}],
      [queryLink(17), {}],
      [queryLink(19), {}],
      [queryLink(19), { queryParam: 'CZ' }],
    ],
    collector: [
      ['/api/dept/find', {}],
      ['/api/companyWarehouse/list', {}],
      [queryLink(12), {}],
      [queryLink(17), {}],
      [queryLink(19), {}],
    ],
  };
  for (const [account, calls] of Object.entries(uses)) {
    it(`answers ${account}`, async () => {
      for (const [path, query] of calls) {
        const res = await as[account]!.get(path, query);
        expect({ path, query, ...answer(res) }).toEqual({ path, query, status: 200 });
      }
    });
  }

  it('refuses the lists no page of the account reads', async () => {
    const refusals: [string, string, Record<string, unknown>, ErrorCode][] = [
      ['producer', '/api/roles', { page: 0, size: 999 }, LOOKUP_DENIED],
      ['producer', '/api/users/search', {}, NO_PERMISSION],
      ['producer', '/api/dept/list', { deptId: 2 }, LOOKUP_DENIED],
      ['producer', '/api/data/detail', { id: 1 }, NO_DATA_VIEW],
      ['producer', '/api/data/columns', { id: 7 }, NO_PERMISSION],
      ['supervisor', '/api/roles', { page: 0, size: 999 }, LOOKUP_DENIED],
      ['logistics', '/api/companyWasteCategory', { companyId: COMPANY.producer }, LOOKUP_DENIED],
      ['collector', '/api/company/list', {}, LOOKUP_DENIED],
    ];
    for (const [account, path, query, code] of refusals) {
      expect({ account, path, ...answer(await as[account]!.get(path, query)) }).toEqual({ account, path, ...refused(403, code) });
    }
  });
});

describe('linked selects (queryLink)', () => {
  it("filter by the label only without the view's own list permission", async () => {
    // The collection point picks the disposal order of a logistics order (20) without listing orders (19).
    const collector = as.collector!;
    expect((await collector.get('/api/general/list/19')).status).toBe(403);
    const all = await collector.get(queryLink(19));
    expect(all.status).toBe(200);
    expect(all.body.length).toBeGreaterThan(0);
    expect(Object.keys(all.body[0]).sort()).toEqual(['label', 'value']);
    const some = all.body[0].label as string;
    const byText = await collector.get(queryLink(19), { queryParam: some });
    expect(byText.body.map((o: { label: string }) => o.label)).toContain(some);
    const byLabel = await collector.get(queryLink(19), { queryParam: JSON.stringify({ orderNo: some }) });
    expect(byLabel.status).toBe(200);
    // Guessing another field's values through the filter is refused.
    for (const filter of [{ producerId: '1' }, { orderNo: some, price: '100' }, { createBy: 'disposer' }]) {
      expect(answer(await collector.get(queryLink(19), { queryParam: JSON.stringify(filter) }))).toEqual(
        refused(403, 'QUERY_LINK_FILTER_DENIED'),
      );
    }
    // The disposer lists the disposal orders itself: any field filters.
    const disposer = await as.disposer!.get(queryLink(19), { queryParam: JSON.stringify({ producerId: '1' }) });
    expect(disposer.status).toBe(200);
  });

  it('follows the designs: a view that stops picking from another stops opening it', async () => {
    const db = server.ctx.db;
    const row = await db.selectFrom('lc_generation').select('dis_template').where('id', '=', 20).executeTakeFirstOrThrow();
    const template = row.dis_template as string;
    expect(template).toContain(queryLink(17));
    // The logistics order view (20) is what lets producers pick vehicles (17).
    expect((await as.producer!.get(queryLink(17))).status).toBe(200);
    await db
      .updateTable('lc_generation')
      .set({ dis_template: template.replaceAll(queryLink(17), '/api/getUserProcessPrimary') })
      .where('id', '=', 20)
      .execute();
    await server.ctx.bus.publish({ t: 'view-changed', viewId: 20 });
    try {
      expect(answer(await as.producer!.get(queryLink(17)))).toEqual(refused(403, NO_PERMISSION));
      // The logistics company lists vehicles itself.
      expect((await as.logistics!.get(queryLink(17))).status).toBe(200);
    } finally {
      await db.updateTable('lc_generation').set({ dis_template: template }).where('id', '=', 20).execute();
      await server.ctx.bus.publish({ t: 'view-changed', viewId: 20 });
    }
    expect((await as.producer!.get(queryLink(17))).status).toBe(200);
  });
});

describe('data views', () => {
  it('answer those whose menus lead to an enabled big screen charting them, and builders', async () => {
    const db = server.ctx.db;
    // Data view 7 is charted by the big screen 50: the supervisor's 数据大屏 menu leads to it, the guest has no menu.
    expect((await as.supervisor!.get('/api/data/detail', { id: 7 })).status).toBe(200);
    expect(answer(await as.guest!.get('/api/data/detail', { id: 7 }))).toEqual(refused(403, NO_DATA_VIEW));
    expect(answer(await as.producer!.get('/api/data/detail', { id: 7 }))).toEqual(refused(403, NO_DATA_VIEW));
    await db.updateTable('lc_screen').set({ status: 0, update_time: sql<Date>`now()` }).where('type', '=', 2).execute();
    try {
      expect(answer(await as.supervisor!.get('/api/data/detail', { id: 7 }))).toEqual(refused(403, NO_DATA_VIEW));
      expect((await as.admin!.get('/api/data/detail', { id: 7 })).status).toBe(200);
    } finally {
      await db.updateTable('lc_screen').set({ status: 1, update_time: sql<Date>`now()` }).where('id', '=', 50).execute();
    }
    expect((await as.supervisor!.get('/api/data/detail', { id: 7 })).status).toBe(200);
  });
});

describe('company codes', () => {
  const codesOf = (id: number) =>
    server.ctx.db.selectFrom('company').select(['credit_code', 'bci_id', 'dept_code']).where('id', '=', id).executeTakeFirstOrThrow();
  const update = (who: string, body: Record<string, unknown>) => as[who]!.post('/api/companyApi/update', body);

  it("refuses another company's credit code or company id, in either field", async () => {
    const theirs = await codesOf(COMPANY.disposer);
    const mine = await codesOf(COMPANY.producer);
    expect(theirs.bci_id && theirs.credit_code).toBeTruthy();
    const refusals: [Record<string, unknown>, ErrorCode][] = [
      [{ creditCode: theirs.credit_code }, CODE_TAKEN.creditCode],
      [{ bciId: theirs.bci_id }, CODE_TAKEN.bciId],
      [{ bciId: ` ${theirs.bci_id} ` }, CODE_TAKEN.bciId],
      [{ bciId: theirs.credit_code }, CODE_TAKEN.bciId],
      [{ bciId: theirs.dept_code }, CODE_TAKEN.bciId],
    ];
    for (const [body, code] of refusals) {
      expect({ body, ...answer(await update('producer', body)) }).toEqual({ body, ...refused(400, code) });
    }
    expect(await codesOf(COMPANY.producer)).toEqual(mine);
    // So the filling-system token of the other company stays out of reach.
    const token = await as.producer!.get('/api/guFeiUrl/getTokenByCompayCode', { CompanyCode: theirs.bci_id });
    expect(token.body.code).toBe('A0404');
    // Its own codes save as before; an empty id is no code and may repeat.
    expect((await update('producer', { creditCode: mine.credit_code, bciId: mine.bci_id })).status).toBe(200);
    expect((await update('producer', { bciId: '' })).status).toBe(200);
    expect((await update('logistics', { bciId: '' })).status).toBe(200);
    expect((await update('producer', { bciId: mine.bci_id })).status).toBe(200);
    expect(await codesOf(COMPANY.producer)).toEqual(mine);
  });

  it('are unique in the database too, empty values aside', async () => {
    const db = server.ctx.db;
    const theirs = await codesOf(COMPANY.disposer);
    for (const set of [{ credit_code: theirs.credit_code }, { bci_id: theirs.bci_id }]) {
      const err = await db
        .updateTable('company')
        .set(set)
        .where('id', '=', COMPANY.collector)
        .execute()
        .then(
          () => null,
          (e: { code?: string }) => e,
        );
      expect(err?.code).toBe('23505');
    }
    await db.updateTable('company').set({ bci_id: '' }).where('id', 'in', [COMPANY.logistics, COMPANY.collector]).execute();
    await db.updateTable('company').set({ bci_id: null }).where('id', 'in', [COMPANY.logistics, COMPANY.collector]).execute();
  });

  it('answers 400 when another company takes the code at the same moment', async () => {
    const code = 'BCIRACE0001';
    if (server.ctx.dbKind === 'postgres') {
      // Another company's write holds the code, not yet committed: the check cannot see it, the index waits for it.
      const url = server.config.databaseUrl as string;
      const pg = (await import('pg')).default;
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      try {
        await other.query('begin');
        await other.query('update company set bci_id = $1 where id = $2', [code, COMPANY.disposer]);
        const pending = update('producer', { bciId: code });
        // The request is waiting on the other transaction's row in the unique index.
        await expect
          .poll(
            async () =>
              (
                await other.query(
                  "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
                )
              ).rows[0].n,
            { timeout: 10_000 },
          )
          .toBeGreaterThan(0);
        await other.query('commit');
        expect(answer(await pending)).toEqual(refused(400, CODE_TAKEN.bciId));
      } finally {
        await other.end();
      }
    } else {
      // One connection: the two saves interleave between their checks and their writes, or do not; either
      // way exactly one company gets the code and the other is told why.
      const answers = await Promise.all([update('producer', { bciId: code }), update('disposer', { bciId: code })]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
      expect(answers.find((a) => a.status === 400)?.body.code).toBe(CODE_TAKEN.bciId);
    }
    const holders = await server.ctx.db.selectFrom('company').select('id').where('bci_id', '=', code).execute();
    expect(holders).toHaveLength(1);
  });
});
