import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigScreenOf, dataViewsOf } from '../../server/lowcode/screen-share.js';
import type { ApiClient, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';

/**
 * No menu leads to a refusal: for every demo account, each page its menus (/api/menus/build) lead to
 * makes its calls and every one answers 200 — a view page reads its definition and list, a screen page
 * its screen and what the screen draws (the views of its tabs, the data views of its charts), and the
 * hand-written pages at low-code addresses and menu components read their own calls.
 */

const ACCOUNTS = ['admin', 'supervisor', 'producer', 'disposer', 'logistics', 'collector'] as const;

interface RouteNode {
  path: string;
  component: string;
  children?: RouteNode[];
}

interface Call {
  path: string;
  query?: Record<string, unknown>;
}

let server: TestServer;
const as: Record<string, ApiClient> = {};

beforeAll(async () => {
  server = await startTestServer();
  for (const name of ACCOUNTS) as[name] = await server.login(name);
});
afterAll(() => server?.close());

const VIEW_PAGE = /\/dev-tools\/temp\/page\/[^/]+\/(\d+)$/;
const SCREEN_PAGE = /\/vBuild\/temp\/(\d+)$/;

/** Every page of a route tree (directories are not pages). */
function pages(nodes: RouteNode[]): RouteNode[] {
  return nodes.flatMap((n) => [...(n.component === 'Layout' ? [] : [n]), ...pages(n.children ?? [])]);
}

const viewCalls = (id: number): Call[] => [{ path: '/api/generation/detail', query: { id } }, { path: `/api/general/list/${id}` }];

/** Hand-written pages and the calls they make when opened. */
const OWN_PAGES: Record<string, (c: ApiClient) => Promise<Call[]>> = {
  // Opened from an order list with ?id=: every order the user's list shows opens.
  '/logistics/vBuild/temp/25': async (c) => {
    const list = await c.get('/api/general/list/20', { page: 0, size: 100 });
    expect(list.status).toBe(200);
    return (list.body.content as { id: number }[]).flatMap(({ id }) => [
      { path: '/api/logisticsOrder/getLogisticsLinkman', query: { id } },
      { path: '/api/logisticsOrder/getTransportInfo', query: { id } },
    ]);
  },
  '/message/vBuild/temp/97': async () => [{ path: '/api/unreadLeaveMessage', query: { page: 1, size: 10 } }],
  'message/systemMessage': async () => [{ path: '/api/sysMessage/page', query: { page: 1, size: 10 } }],
  'supervision/company/index': async () => [{ path: '/api/companyApi/homePage/companies', query: { page: 0, size: 10 } }],
};

/** The calls a screen page makes: the screen, then what it draws as answered to this user. */
async function screenCalls(c: ApiClient, id: number): Promise<{ calls: Call[]; status: number }> {
  const detail = await c.get('/api/screen/detail', { id });
  if (detail.status !== 200) return { calls: [], status: detail.status };
  const { type, status, name, disTemplate } = detail.body as { type: number; status: number; name: string; disTemplate: string | null };
  const template = disTemplate ? JSON.parse(disTemplate) : {};
  if (type === 2) {
    const charts = [...dataViewsOf(bigScreenOf({ id, type, status, name, dis_template: disTemplate }))];
    return { calls: charts.map((dv) => ({ path: '/api/data/detail', query: { id: dv } })), status: 200 };
  }
  if (type === 3) return { calls: [{ path: '/api/generation/detail', query: { id: template.formView } }], status: 200 };
  const views: number[] = Array.isArray(template.baseView)
    ? template.baseView
    : String(template.baseView ?? '')
        .split(',')
        .filter(Boolean)
        .map(Number);
  return { calls: views.flatMap(viewCalls), status: 200 };
}

/** Each page of the account's menus with the answers of the calls it makes that are not 200. */
async function refusals(account: string): Promise<string[]> {
  const c = as[account]!;
  const build = await c.get('/api/menus/build');
  expect(build.status).toBe(200);
  const out: string[] = [];
  for (const page of pages(build.body as RouteNode[])) {
    let calls: Call[] = [];
    const own = OWN_PAGES[page.path] ?? OWN_PAGES[page.component];
    const view = VIEW_PAGE.exec(page.path);
    const screen = SCREEN_PAGE.exec(page.path);
    if (own) calls = await own(c);
    else if (view) calls = viewCalls(Number(view[1]));
    else if (screen) {
      const s = await screenCalls(c, Number(screen[1]));
      if (s.status !== 200) out.push(`${page.path}: /api/screen/detail ${s.status}`);
      calls = s.calls;
    }
    for (const call of calls) {
      const r = await c.get(call.path, call.query);
      if (r.status !== 200) out.push(`${page.path}: ${call.path} ${JSON.stringify(call.query ?? {})} ${r.status} ${r.body?.message ?? ''}`);
    }
  }
  return out;
}

describe('every page a menu leads to answers its calls', () => {
  for (const account of ACCOUNTS) {
    it(`${account}`, async () => {
      expect(await refusals(account)).toEqual([]);
    });
  }
});

describe('a screen a menu grants', () => {
  it('opens with the tabs the user may list, and stays closed to users whose menus do not lead to it', async () => {
    // 库存管理 (screen 40) draws 危废入库, 危废出库 and 企业仓库; the disposer lists only the first two.
    const disposer = await as.disposer!.get('/api/screen/detail', { id: 40 });
    expect(disposer.status, JSON.stringify(disposer.body)).toBe(200);
    expect(JSON.parse(disposer.body.disTemplate).baseView).toEqual([12, 13]);
    expect((await as.disposer!.get('/api/generation/detail', { id: 14 })).status).toBe(403);
    // Those who list every tab get the screen as it is stored.
    const producer = await as.producer!.get('/api/screen/detail', { id: 40 });
    expect(JSON.parse(producer.body.disTemplate).baseView).toEqual([12, 13, 14]);
    // The logistics account has no menu to it and lists none of its views.
    expect((await as.logistics!.get('/api/screen/detail', { id: 40 })).status).toBe(403);
    const guest = await server.login('guest');
    expect((await guest.get('/api/screen/detail', { id: 40 })).status).toBe(403);
  });
});
