import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from '../helpers/refusal.js';
import { type ApiClient, startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login('admin');
});
afterAll(async () => {
  await server?.close();
});

const template = {
  basicOption: { add: true, edit: true, del: true, operation: true },
  tableOption: [{ name: 'title', chName: '标题', dataType: 'varchar', linked: false, configure: { sort: 1, show: 1 } }],
};

interface Route {
  path: string;
  meta: { title: string };
  children?: Route[];
}
const flat = (routes: Route[]): Route[] => routes.flatMap((r) => [r, ...flat(r.children ?? [])]);

async function menusOf(pid: number) {
  return server.ctx.db.selectFrom('sys_menu').selectAll().where('pid', '=', pid).orderBy('id').execute();
}

describe('publishing a view puts its page in the menu tree', () => {
  it('creates the page menu under the chosen parent with its buttons, then keeps it in line', async () => {
    const parent = await server.ctx.db.selectFrom('sys_menu').select('id').where('path', '=', 'waste').executeTakeFirstOrThrow();
    const disMenu = JSON.stringify({ componentName: 'menuProbe', name: '菜单探针', pid: parent.id });
    const added = await admin.post('/api/generation/add', { name: '菜单探针', menuId: null, disMenu });
    expect(added.status).toBe(200);
    const id = added.body.id as number;
    expect((await admin.post('/api/generation/design', { id, disTemplate: JSON.stringify(template) })).status).toBe(200);
    // A draft is in no menu.
    const before = flat((await admin.get('/api/menus/build')).body as Route[]);
    expect(before.some((r) => r.path === `/dev-tools/temp/page/menuProbe/${id}`)).toBe(false);

    expect((await admin.post('/api/generation/publish', { id })).body).toEqual({ status: 200, message: '发布成功' });
    const after = flat((await admin.get('/api/menus/build')).body as Route[]);
    expect(after.find((r) => r.path === `/dev-tools/temp/page/menuProbe/${id}`)?.meta.title).toBe('菜单探针');
    const detail = (await admin.get('/api/generation/detail', { id })).body;
    const page = (await menusOf(parent.id)).find((m) => m.id === detail.menuId);
    expect(page).toMatchObject({ type: 1, component: 'dev-tools/temp/page', permission: 'menuProbe:list', name: 'menuProbe' });
    const buttons = (await menusOf(detail.menuId)).map((b) => b.permission);
    expect(buttons).toEqual(['menuProbe:add', 'menuProbe:edit', 'menuProbe:del', 'menuProbe:look', 'menuProbe:pre']);

    // Renamed and published again: the same menu follows, with no second copy of it or its buttons.
    await admin.post('/api/generation/update', {
      id,
      name: '菜单探针二',
      disMenu: JSON.stringify({ componentName: 'menuProbe', name: '菜单探针二', pid: parent.id }),
    });
    await admin.post('/api/generation/publish', { id });
    const again = (await admin.get('/api/generation/detail', { id })).body;
    expect(again.menuId).toBe(detail.menuId);
    const pages = (await menusOf(parent.id)).filter((m) => m.path === `/dev-tools/temp/page/menuProbe/${id}`);
    expect(pages.map((m) => m.title)).toEqual(['菜单探针二']);
    expect((await menusOf(detail.menuId)).length).toBe(5);

    // Deleted, the view takes its page menu and buttons with it; the parent stays.
    expect((await admin.post('/api/generation/delete', [id])).status).toBe(200);
    expect(await server.ctx.db.selectFrom('sys_menu').select('id').where('id', '=', detail.menuId).execute()).toEqual([]);
    expect(await menusOf(detail.menuId)).toEqual([]);
    expect(await server.ctx.db.selectFrom('sys_menu').select('id').where('id', '=', parent.id).execute()).toHaveLength(1);
  });

  it('leaves the menus alone for a view defined without a parent (its author adds the menu)', async () => {
    const disMenu = JSON.stringify({ componentName: 'menuLess', name: '无菜单' });
    const id = (await admin.post('/api/generation/add', { name: '无菜单', disMenu, disTemplate: JSON.stringify(template) })).body.id;
    expect((await admin.post('/api/generation/publish', { id })).status).toBe(200);
    expect((await admin.get('/api/generation/detail', { id })).body).toMatchObject({ status: 1, menuId: null });
    const found = await server.ctx.db
      .selectFrom('sys_menu')
      .select('id')
      .where('path', '=', `/dev-tools/temp/page/menuLess/${id}`)
      .execute();
    expect(found).toEqual([]);
  });

  it('refuses a parent menu that does not exist', async () => {
    const disMenu = JSON.stringify({ componentName: 'menuOrphan', name: '孤儿', pid: 987654 });
    const id = (await admin.post('/api/generation/add', { name: '孤儿', disMenu, disTemplate: JSON.stringify(template) })).body.id;
    expect((await admin.post('/api/generation/publish', { id })).body).toEqual(refusal(400, 'PARENT_MENU_NOT_FOUND'));
    expect((await admin.get('/api/generation/detail', { id })).body).toMatchObject({ status: 0, menuId: null });
  });
});
