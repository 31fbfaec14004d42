import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, ApiResponse, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';

/**
 * Every call of the core platform's call list is served: none answers 404 接口不存在, none fails
 * with a server error. Each call goes out as the list spells it (method, path, the parameters it
 * names), signed in as the administrator, who may make every one of them.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Call {
  method: Method;
  path: string;
  query?: Record<string, unknown>;
  json?: unknown;
  form?: Record<string, string>;
  /** Made without a session (the public calls). */
  anonymous?: boolean;
  /**
   * What the handler answers: ok (2xx, a read or a harmless write), refused (4xx with the handler's
   * own message: the call is sent without the fields it needs) or absent (404 with the handler's
   * message for a record that does not exist).
   */
  answer: 'ok' | 'refused' | 'absent';
}

const get = (path: string, query?: Record<string, unknown>): Call => ({ method: 'GET', path, query, answer: 'ok' });
const post = (path: string, json: unknown = {}): Call => ({ method: 'POST', path, json, answer: 'refused' });
const send4 = (method: Method, path: string, json: unknown): Call => ({ method, path, json, answer: 'refused' });

/** The call list of the core platform, section by section. */
const CALLS: Record<string, Call[]> = {
  session: [
    { ...get('/api/init/check'), anonymous: true },
    { ...get('/api/auth/code'), anonymous: true },
    {
      method: 'POST',
      path: '/api/auth/login',
      form: { username: 'nobody', password: 'x', code: '', uuid: '' },
      anonymous: true,
      answer: 'refused',
    },
    { ...post('/api/auth/login1', {}), anonymous: true },
    get('/api/auth/info'),
    { ...get('/api/dictDetail/getDictNotLogin', { dictName: 'companyType', page: 0, size: 9999 }), anonymous: true },
    { ...post('/api/companyApplication/insert', {}), anonymous: true },
    { ...get('/api/privacyPolicy/preview', { type: 2 }), anonymous: true },
    get('/api/guFeiUrl/enter', { deptCode: '09' }),
    get('/api/guFeiUrl/getTokenByCompayCode', { CompanyCode: '91320500MA1XXXXX0A' }),
  ],
  dashboard: [
    get('/api/produceOrderDashboard', { isRefresh: 0 }),
    get('/api/expiringContracts'),
    get('/api/finAcc/dashboard', { isRefresh: 0 }),
    get('/api/bulletin', { status: 10 }),
    get('/api/sysMessage/page', { page: 1, size: 5, haveRead: 0 }),
    get('/api/unreadLeaveMessage', { page: 1, size: 3 }),
    get('/api/inventoryInfo'),
    get('/api/inventoryRatio'),
    get('/api/companyWarehouse/list'),
    get('/api/logisticsOrder/dashboard'),
    get('/api/logisticsOrderDashboard'),
    get('/api/logisticsOrder/byWarehouseId', { page: 0, size: 10 }),
    get('/api/companyTransportInfo'),
    get('/api/companyApi/info', { deptCode: '02' }),
    post('/api/companyApi/update', {}),
    get('/api/companyApi/homePage/dataSummary', { isRefresh: 0 }),
    get('/api/companyApi/homePage/contractSummary', { isRefresh: 0 }),
    get('/api/companyApi/homePage/serverSummary', { isRefresh: 0 }),
    get('/api/companyApi/homePage/toDoData', { isRefresh: 0 }),
    get('/api/companyWarehouse/Inventorys', { warehouseId: 1 }),
    get('/api/companyWarehouse/warehouse'),
    get('/api/companyLinkman/list'),
    get('/api/getUserProcessPrimary', { page: 1, size: 999 }),
    get('/api/getUserProcess', { page: 1, size: 999, processID: 1 }),
    get('/api/myWasteCategory'),
    get('/api/companyWasteCategory'),
    get('/api/logisticsOrder/getLogisticsLinkman', { id: 1 }),
    get('/api/logisticsOrder/getTransportInfo', { id: 1 }),
    { ...post('/api/visits', {}), answer: 'ok' },
    get('/api/visits'),
    get('/api/visits/chartData'),
    get('/api/region/regionTreeList'),
    { ...post('/api/viewsNum/add', { id: 1 }), answer: 'ok' },
  ],
  messages: [
    get('/api/sysMessage/page', { page: 1, size: 10 }),
    get('/api/sysMessage/readAll'),
    get('/api/sysMessage/readOne', { id: 1 }),
    get('/api/sysMessage/getUnreadNum'),
    { ...get('/api/sysMessage/deleteMsg', { id: 999999 }), answer: 'absent' },
    post('/api/leaveMessage', {}),
  ],
  disposal: [
    get('/api/disposalOrder/addBtnShow'),
    get('/api/companyWarehouse/unloadingPoint'),
    get('/api/disposalOrder/effectiveContract', { partyACompany: '1' }),
    get('/api/dept/find'),
    post('/api/disposalOrder/insertManualDisposalOrder', {}),
    post('/api/companyInventory', {}),
    post('/api/companyInventory/update', {}),
    send4('DELETE', '/api/config/', []),
    post('/api/disposalQuotePirce/quotedPrice', {}),
    post('/api/dispoaslTestingApplication/apply', {}),
  ],
  users: [
    get('/api/users', { page: 0, size: 10 }),
    post('/api/users', {}),
    send4('PUT', '/api/users', {}),
    send4('DELETE', '/api/users', []),
    send4('PUT', '/api/users/center', {}),
    get('/api/users/search', { blurry: 'admin' }),
    get('/api/logs/user', { page: 0, size: 10 }),
    post('/api/pwd/reset', {}),
    { method: 'POST', path: '/api/users/updatePass', form: { oldPass: '', newPass: '' }, answer: 'refused' },
    get('/api/users/updatePass/x'),
    post('/api/users/updateEmail/000000', {}),
    get('/api/pwd/check'),
    post('/api/pwd/save', {}),
    post('/api/code/resetEmail', {}),
    get('/api/dept/list', { deptId: 0 }),
    get('/api/menus/tree'),
    get('/api/menus/build'),
    post('/api/menus', {}),
    send4('PUT', '/api/menus', {}),
    send4('DELETE', '/api/menus', []),
  ],
  files: [
    { ...get('/api/file/preview', { source: 'none.pdf' }), answer: 'absent' },
    { ...get('/api/file/download', { source: 'none.pdf', fileName: 'none.pdf' }), answer: 'absent' },
  ],
};

let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
});
afterAll(() => server?.close());

const send = (call: Call): Promise<ApiResponse> => {
  const client = call.anonymous ? admin.withToken(null) : admin;
  return client.request(call.method, call.path, { query: call.query, json: call.json, form: call.form });
};

const messageOf = (r: ApiResponse): string | undefined => {
  const m = typeof r.body === 'object' && r.body !== null ? (r.body as { message?: unknown }).message : undefined;
  return typeof m === 'string' && m !== '' ? m : undefined;
};
const label = (c: Call) => `${c.method} ${c.path}`;
const unknownRoute = (r: ApiResponse) =>
  r.status === 404 && typeof r.body === 'object' && r.body !== null && (r.body as { message?: unknown }).message === '接口不存在';

describe('the core call list', () => {
  for (const [section, calls] of Object.entries(CALLS)) {
    it(`serves every ${section} call`, async () => {
      const failures: string[] = [];
      for (const call of calls) {
        const r = await send(call);
        const seen = `${label(call)}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;
        if (unknownRoute(r)) failures.push(`${label(call)}: 404 接口不存在`);
        else if (call.answer === 'ok' && (r.status < 200 || r.status >= 300)) failures.push(seen);
        else if (call.answer === 'refused' && !(r.status >= 400 && r.status < 500 && r.status !== 404 && messageOf(r))) failures.push(seen);
        else if (call.answer === 'absent' && !(r.status === 404 && messageOf(r))) failures.push(seen);
      }
      expect(failures).toEqual([]);
    });
  }

  it('reads data from the database', async () => {
    const orders = (await admin.get('/api/produceOrderDashboard', { isRefresh: 1 })).body;
    const stored = await server.ctx.db.selectFrom('company_warehouse').select('id').execute();
    const warehouses = (await admin.get('/api/companyWarehouse/list')).body.content as { id: number }[];
    expect(warehouses.map((w) => w.id).sort()).toEqual(stored.map((w) => w.id).sort());
    expect(orders.ongoingDisposalOrder).toBeGreaterThan(0);
  });

  it('tells an unknown call apart (the check can fail)', async () => {
    expect(unknownRoute(await send(get('/api/noSuchCall')))).toBe(true);
  });
});
