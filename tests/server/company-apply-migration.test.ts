import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrations } from '../../server/db/migrations/index.js';
import { ROLE } from '../../server/seed/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// A database seeded before the review migration gets the 企业入驻审核 menu from the migration itself.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

it('adds the review menu and its buttons to a database seeded without them, granted where 用户管理 is', async () => {
  const db = server.ctx.db;
  const migration = migrations['0007_company_review'];
  if (!migration) throw new Error('migration 0007_company_review is not registered');
  // As the database was before: no review columns, no review menu.
  await migration.down?.(db as unknown as Kysely<unknown>);
  expect(await db.selectFrom('sys_menu').select('id').where('permission', 'like', 'companyApply:%').execute()).toEqual([]);

  await migration.up(db as unknown as Kysely<unknown>);
  const menus = await db
    .selectFrom('sys_menu as m')
    .innerJoin('sys_menu as p', 'p.id', 'm.pid')
    .select(['m.id', 'm.title', 'm.permission', 'm.component', 'p.title as parent'])
    .where('m.permission', 'like', 'companyApply:%')
    .orderBy('m.id')
    .execute();
  expect(menus.map(({ id: _, ...m }) => m)).toEqual([
    { title: '企业入驻审核', permission: 'companyApply:list', component: 'system/companyApply/index', parent: '系统管理' },
    { title: '入驻申请通过', permission: 'companyApply:approve', component: null, parent: '企业入驻审核' },
    { title: '入驻申请驳回', permission: 'companyApply:reject', component: null, parent: '企业入驻审核' },
  ]);
  const granted = await db
    .selectFrom('sys_roles_menus')
    .select('role_id')
    .distinct()
    .where(
      'menu_id',
      'in',
      menus.map((m) => m.id),
    )
    .execute();
  expect(granted.map((g) => g.role_id)).toEqual([ROLE.superAdmin]);

  // Down and up again: one review menu, and the review columns are back.
  await migration.down?.(db as unknown as Kysely<unknown>);
  await migration.up(db as unknown as Kysely<unknown>);
  expect((await db.selectFrom('sys_menu').select('id').where('component', '=', 'system/companyApply/index').execute()).length).toBe(1);
  expect(await db.selectFrom('company_application').select(['reviewer_name', 'reason']).limit(1).execute()).toHaveLength(1);
});
