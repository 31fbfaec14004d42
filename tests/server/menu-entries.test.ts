import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../server/db/migrations/index.js';
import { MENU } from '../../server/seed/accounts.js';
import { screenMenuId } from '../../server/seed/ids.js';
import type { ApiClient, TestServer } from '../helpers/server.js';
import { startTestServer } from '../helpers/server.js';

// One sidebar entry per page, named as the page: no second 处置订单, 打印二维码 where the roles that
// print labels find it, and the home's entry named as the home the account gets.

interface RouteNode {
  path: string;
  hidden: boolean;
  component: string;
  meta: { title: string };
  children?: RouteNode[];
}

const flatten = (nodes: RouteNode[], parent = ''): (RouteNode & { trail: string })[] =>
  nodes.flatMap((n) => {
    const trail = parent ? `${parent}/${n.meta.title}` : n.meta.title;
    return [{ ...n, trail }, ...flatten(n.children ?? [], trail)];
  });

/** The entries the sidebar shows: the shown pages under shown directories. */
const shown = (nodes: RouteNode[], parent = ''): string[] =>
  nodes
    .filter((n) => !n.hidden)
    .flatMap((n) => {
      const trail = parent ? `${parent}/${n.meta.title}` : n.meta.title;
      return n.children?.length ? shown(n.children, trail) : [trail];
    });

let server: TestServer;
const as: Record<string, ApiClient> = {};

beforeAll(async () => {
  server = await startTestServer();
  for (const name of ['admin', 'supervisor', 'producer', 'disposer', 'logistics', 'collector']) as[name] = await server.login(name);
});
afterAll(() => server?.close());

const build = async (name: string) => {
  const res = await (as[name] as ApiClient).get('/api/menus/build');
  expect(res.status).toBe(200);
  return res.body as RouteNode[];
};

describe('the sidebar entries', () => {
  it('shows 处置订单 once for every account', async () => {
    for (const name of ['admin', 'supervisor', 'producer', 'disposer', 'logistics']) {
      const entries = shown(await build(name));
      expect(
        entries.filter((e) => /处置订单|处置单$/.test(e.split('/').pop() ?? '')),
        name,
      ).toEqual(['处置管理/处置订单']);
      // The screen's route stays: the list buttons that open it still lead somewhere.
      if (name !== 'logistics')
        expect(
          flatten(await build(name)).some((n) => n.path === '/dispose/vBuild/temp/30'),
          name,
        ).toBe(true);
    }
  });

  it('shows 打印二维码 under 危废管理 to the accounts that print labels, and to no one else', async () => {
    for (const name of ['admin', 'producer', 'disposer', 'collector']) {
      expect(shown(await build(name)), name).toContain('危废管理/打印二维码');
      expect(
        shown(await build(name)).some((e) => e.startsWith('低代码')),
        name,
      ).toBe(name === 'admin');
    }
    for (const name of ['supervisor', 'logistics']) expect(shown(await build(name)).join(), name).not.toContain('打印二维码');
  });

  it("names the home's entry as the home the account gets", async () => {
    const titles: Record<string, string> = {
      admin: '企业看板',
      supervisor: '监管看板',
      producer: '企业看板',
      logistics: '物流看板',
      collector: '收集点看板',
    };
    for (const [name, title] of Object.entries(titles)) {
      const home = flatten(await build(name)).find((n) => n.component === 'dashboard/index');
      expect(home?.meta.title, name).toBe(title);
    }
  });
});

describe('a database seeded before', () => {
  it('gets one 处置订单 entry and a shown 打印二维码 from the migration', async () => {
    const db = server.ctx.db;
    const migration = migrations['0032_menu_entries'];
    if (!migration) throw new Error('migration 0032_menu_entries is not registered');
    // As the seed left them before: the screen shown, the print page hidden under 低代码.
    await db.updateTable('sys_menu').set({ hidden: false }).where('id', '=', screenMenuId(30)).execute();
    await db.updateTable('sys_menu').set({ hidden: true, pid: MENU.lowcode, sort: 6 }).where('id', '=', MENU.qrcodePrint).execute();
    expect(shown(await build('producer'))).toContain('处置管理/处置单');

    await migration.up(db as unknown as Kysely<unknown>);
    const producer = shown(await build('producer'));
    expect(producer).not.toContain('处置管理/处置单');
    expect(producer).toContain('危废管理/打印二维码');
    // Run again, it changes nothing.
    await migration.up(db as unknown as Kysely<unknown>);
    expect(shown(await build('producer'))).toEqual(producer);
  });
});
