import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bigScreenOf, dataViewsOf, shareUrl } from '../../server/lowcode/screen-share.js';
import { DEPT, MENU, ROLE } from '../../server/seed/accounts.js';
import { COMPANY, screenMenuId } from '../../server/seed/ids.js';
import type { ErrorCode } from '../../src/shared/error-catalogue.js';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, type ApiResponse, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Who may see a screen, and the data views behind it: a screen designer of 全部, or an account whose
 * menus lead to it (a page menu at its address, or the screen's own menu). A big screen shows every
 * company's figures, so an account without its menu reads neither the screen nor its data views, by
 * any id; a share link opens it without a session. Each refusal is sent as the forbidden request.
 */

const BIG = 50;
/** Data view 1 is on no screen. */
const OFF_SCREEN = 1;

let server: TestServer;
let phoneSeq = 0;
const as: Record<string, ApiClient> = {};
/** Every data view the big screen's charts read. */
let charted: number[] = [];

const answer = (res: ApiResponse) => ({ status: res.status, code: res.body?.code, message: res.body?.message });
const refused = (res: ApiResponse, status: number, code: ErrorCode, what = '') =>
  expect(answer(res), `${what} ${JSON.stringify(res.body).slice(0, 300)}`).toEqual(refusal(status, code));

async function role(name: string, menus: number[], dataScope = '本企业', companyId: number | null = COMPANY.producer) {
  const made = await as.admin!.post('/api/roles', { name, level: 3, dataScope, companyId, menus: menus.map((id) => ({ id })) });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.id as number;
}
async function account(username: string, deptId: number, companyId: number | null, roleIds: number[]): Promise<ApiClient> {
  const made = await as.admin!.post('/api/users', {
    username,
    nickName: username,
    phone: `1373333${String(++phoneSeq).padStart(4, '0')}`,
    deptId,
    companyId,
    roles: roleIds.map((id) => ({ id })),
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  await server.ctx.db.updateTable('sys_user').set({ pwd_reset_time: new Date() }).where('id', '=', made.body.id).execute();
  return server.login(username);
}

/** Ordinary accounts whose menus lead to no big screen. */
const WITHOUT_MENU = ['producer', 'disposer', 'logistics', 'collector', 'guest', 'companyDesigner'] as const;

beforeAll(async () => {
  server = await startTestServer();
  for (const name of ['admin', 'supervisor', 'producer', 'disposer', 'logistics', 'collector', 'guest'])
    as[name] = await server.login(name);
  // A company's designer (本企业): designs nothing of the platform, and has no menu to the big screen.
  const design = [MENU.lowcode, MENU.screen, 621, 622, 623, 624, MENU.dataView, 631, 632, 633];
  as.companyDesigner = await account('scr_design', DEPT.producers, COMPANY.producer, [await role('大屏-企业设计', design)]);
  as.platformDesigner = await account('scr_design_pf', DEPT.ops, null, [await role('大屏-平台设计', design, '全部', null)]);
  // A producer's account given the 数据大屏 menu and nothing else of the platform.
  as.screenViewer = await account('scr_viewer', DEPT.producers, COMPANY.producer, [
    await role('大屏-查看', [MENU.dashboard, MENU.screens, screenMenuId(BIG)]),
  ]);
  const row = await server.ctx.db
    .selectFrom('lc_screen')
    .select(['id', 'name', 'status', 'type', 'dis_template'])
    .where('id', '=', BIG)
    .executeTakeFirstOrThrow();
  charted = [...dataViewsOf(bigScreenOf(row))].sort((a, b) => a - b);
  expect(charted.length).toBeGreaterThan(0);
  expect(charted).not.toContain(OFF_SCREEN);
});
afterAll(async () => {
  await server?.close();
});

describe('a big screen follows its menu', () => {
  it('is refused, with its data views, to every ordinary account without the menu', async () => {
    for (const who of WITHOUT_MENU) {
      const c = as[who]!;
      refused(await c.get('/api/screen/detail', { id: BIG }), 403, 'SCREEN_FORBIDDEN', `${who} screen`);
      for (const id of [...charted, OFF_SCREEN])
        refused(await c.get('/api/data/detail', { id }), 403, 'DATA_VIEW_FORBIDDEN', `${who} ${id}`);
    }
  });

  it('answers guessed ids alike whether or not they exist: a refusal, never a not-found', async () => {
    for (const who of ['producer', 'logistics'] as const) {
      const c = as[who]!;
      for (const id of [49, 51, 99, 4242, 99_999]) {
        refused(await c.get('/api/screen/detail', { id }), 403, 'SCREEN_FORBIDDEN', `${who} screen ${id}`);
        refused(await c.get('/api/data/detail', { id }), 403, 'DATA_VIEW_FORBIDDEN', `${who} data ${id}`);
      }
    }
    // Those who could read a screen of that id learn it is not there.
    expect((await as.admin!.get('/api/screen/detail', { id: 4242 })).status).toBe(404);
    expect((await as.platformDesigner!.get('/api/data/detail', { id: 4242 })).status).toBe(404);
  });

  it('opens to the accounts whose menus lead to it, and to designers of 全部', async () => {
    for (const who of ['admin', 'supervisor', 'screenViewer', 'platformDesigner'] as const) {
      const c = as[who]!;
      const screen = await c.get('/api/screen/detail', { id: BIG });
      expect(screen.status, `${who} ${JSON.stringify(screen.body)}`).toBe(200);
      expect(screen.body).toMatchObject({ id: BIG, type: 2 });
      for (const id of charted) expect((await c.get('/api/data/detail', { id })).status, `${who} ${id}`).toBe(200);
    }
    // A data view on no screen is for builders only, whatever menus lead to screens.
    refused(await as.supervisor!.get('/api/data/detail', { id: OFF_SCREEN }), 403, 'DATA_VIEW_FORBIDDEN');
    refused(await as.screenViewer!.get('/api/data/detail', { id: OFF_SCREEN }), 403, 'DATA_VIEW_FORBIDDEN');
    expect((await as.platformDesigner!.get('/api/data/detail', { id: OFF_SCREEN })).status).toBe(200);
  });

  it('opens through any menu whose path leads to it, or through the screen own menu, and closes when the menu goes', async () => {
    const db = server.ctx.db;
    const producer = as.producer!;
    // A page menu of the producer's pointed at the big screen's address, under another section.
    const menu = await db
      .insertInto('sys_menu')
      .values({
        pid: MENU.dispose,
        type: 1,
        title: '处置大屏',
        name: 'disposeScreen',
        component: 'vBuild/temp',
        path: `vBuild/temp/${BIG}`,
        sort: 99,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('sys_roles_menus').values({ role_id: ROLE.producer, menu_id: menu.id }).execute();
    try {
      expect((await producer.get('/api/screen/detail', { id: BIG })).status).toBe(200);
      for (const id of charted) expect((await producer.get('/api/data/detail', { id })).status).toBe(200);
    } finally {
      await db.deleteFrom('sys_roles_menus').where('menu_id', '=', menu.id).execute();
      await db.deleteFrom('sys_menu').where('id', '=', menu.id).execute();
    }
    refused(await producer.get('/api/screen/detail', { id: BIG }), 403, 'SCREEN_FORBIDDEN');
    refused(await producer.get('/api/data/detail', { id: charted[0] }), 403, 'DATA_VIEW_FORBIDDEN');

    // The screen's own menu (its menuId): here the producer's 企业看板.
    const before = await db.selectFrom('lc_screen').select('menu_id').where('id', '=', BIG).executeTakeFirstOrThrow();
    await db.updateTable('lc_screen').set({ menu_id: MENU.dashboard }).where('id', '=', BIG).execute();
    try {
      expect((await producer.get('/api/screen/detail', { id: BIG })).status).toBe(200);
      expect((await producer.get('/api/data/detail', { id: charted[0] })).status).toBe(200);
      // A directory is no page: 处置管理 holds the producer's pages but leads to no screen of its own.
      await db.updateTable('lc_screen').set({ menu_id: MENU.dispose }).where('id', '=', BIG).execute();
      refused(await producer.get('/api/screen/detail', { id: BIG }), 403, 'SCREEN_FORBIDDEN');
      refused(await producer.get('/api/data/detail', { id: charted[0] }), 403, 'DATA_VIEW_FORBIDDEN');
    } finally {
      await db.updateTable('lc_screen').set({ menu_id: before.menu_id }).where('id', '=', BIG).execute();
    }
    refused(await producer.get('/api/screen/detail', { id: BIG }), 403, 'SCREEN_FORBIDDEN');
  });

  it('runs the data views of an enabled big screen only: disabled, its charts are for builders', async () => {
    const db = server.ctx.db;
    await db.updateTable('lc_screen').set({ status: 0, update_time: sql<Date>`now()` }).where('id', '=', BIG).execute();
    try {
      // The menu still opens the screen (its page says it is not enabled), but no chart runs.
      expect((await as.supervisor!.get('/api/screen/detail', { id: BIG })).status).toBe(200);
      refused(await as.supervisor!.get('/api/data/detail', { id: charted[0] }), 403, 'DATA_VIEW_FORBIDDEN');
      refused(await as.producer!.get('/api/screen/detail', { id: BIG }), 403, 'SCREEN_FORBIDDEN');
      expect((await as.admin!.get('/api/data/detail', { id: charted[0] })).status).toBe(200);
    } finally {
      await db.updateTable('lc_screen').set({ status: 1, update_time: sql<Date>`now()` }).where('id', '=', BIG).execute();
    }
    expect((await as.supervisor!.get('/api/data/detail', { id: charted[0] })).status).toBe(200);
  });

  it('leaves every list, form and tab screen to its own menu or to those who list its views', async () => {
    // 库存管理 (40) draws 危废入库, 危废出库 and 企业仓库; the carrier has no menu to it and lists none.
    refused(await as.logistics!.get('/api/screen/detail', { id: 40 }), 403, 'SCREEN_FORBIDDEN');
    refused(await as.guest!.get('/api/screen/detail', { id: 30 }), 403, 'SCREEN_FORBIDDEN');
    for (const who of ['producer', 'disposer', 'collector', 'supervisor'] as const) {
      for (const id of [97, 30, 25, 40]) {
        const res = await as[who]!.get('/api/screen/detail', { id });
        expect([who, id, res.status]).toEqual([who, id, id === 30 && who === 'collector' ? 403 : 200]);
      }
    }
  });
});

describe('a share link', () => {
  const paramsOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);
  const keyOf = async (id: number) =>
    (await server.ctx.db.selectFrom('lc_screen').select('access_key').where('id', '=', id).executeTakeFirstOrThrow()).access_key;

  it('opens the screen and its charts without a session, and refuses forged, expired and borrowed links', async () => {
    const made = await as.admin!.post('/api/screen/share', { id: BIG, expiresIn: 3600 });
    expect(made.status).toBe(200);
    const link = paramsOf(made.body.url);
    const anon = server.api;
    expect((await anon.get('/api/open/getGeneralScreen', link)).status).toBe(200);
    for (const dataViewId of charted) expect((await anon.get('/api/open/data', { ...link, dataViewId })).status).toBe(200);
    // The link opens only its screen's charts.
    refused(await anon.get('/api/open/data', { ...link, dataViewId: OFF_SCREEN }), 403, 'SHARE_DATA_VIEW_NOT_USED');
    // A link does not open the session calls: a producer holding one is still refused there.
    refused(await as.producer!.get('/api/data/detail', { id: charted[0], ...link }), 403, 'DATA_VIEW_FORBIDDEN');
    refused(await as.producer!.get('/api/screen/detail', { id: BIG, ...link }), 403, 'SCREEN_FORBIDDEN');

    // Forged: another signature, another screen under the same signature, a later expiry under the same signature.
    const forged = [
      { ...link, signature: '0'.repeat(64) },
      { ...link, lsId: '40' },
      { ...link, timestamp: String(Number(link.timestamp) + 86_400_000) },
      { ...link, accessKey: 'guessed' },
      { lsId: String(BIG) },
    ];
    for (const f of forged) {
      refused(await anon.get('/api/open/getGeneralScreen', f), 401, 'SHARE_INVALID', JSON.stringify(f));
      refused(await anon.get('/api/open/data', { ...f, dataViewId: charted[0] }), 401, 'SHARE_INVALID', JSON.stringify(f));
    }
    // Expired: signed with the server's secret and the screen's key, but its time has passed.
    const accessKey = (await keyOf(BIG)) as string;
    const expired = paramsOf(shareUrl(server.ctx.secrets.shareSecret, { lsId: BIG, accessKey, timestamp: Date.now() - 1000 }));
    refused(await anon.get('/api/open/getGeneralScreen', expired), 401, 'SHARE_EXPIRED');
    refused(await anon.get('/api/open/data', { ...expired, dataViewId: charted[0] }), 401, 'SHARE_EXPIRED');
    // Revoked: the screen's key renewed.
    expect((await as.admin!.post('/api/screen/renewKey', { id: BIG })).status).toBe(200);
    refused(await anon.get('/api/open/getGeneralScreen', link), 403, 'SHARE_REVOKED');
    refused(await anon.get('/api/open/data', { ...link, dataViewId: charted[0] }), 403, 'SHARE_REVOKED');
  });

  it('is made only by those who edit screens', async () => {
    for (const who of ['producer', 'supervisor', 'screenViewer', 'companyDesigner'] as const) {
      const res = await as[who]!.post('/api/screen/share', { id: BIG, expiresIn: 3600 });
      expect([who, res.status]).toEqual([who, 403]);
    }
  });
});
