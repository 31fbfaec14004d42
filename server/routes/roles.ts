import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { App } from '../app.js';
import { currentUser, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { badRequest, notFound } from '../errors.js';
import { formatTime, parseSort } from '../lib/accounts-users.js';
import { done, exists, id, idList, ok, optId, pageQuery, ref, text, trimmed } from '../lib/admin-input.js';
import { requireLookup } from '../lib/lookup-access.js';
import { paginate } from '../lib/paging.js';
import { assertGrantableMenus, assertManageableRoleLevels } from '../lib/role-levels.js';
import { containing, pageOf } from '../lib/sql.js';

const roleBody = z.object({
  id: optId,
  name: text.optional(),
  level: z.coerce.number().int().min(1).max(99).optional(),
  description: text.nullable().optional(),
  dataScope: z.string().max(50).optional(),
  menus: z.array(ref).optional(),
});

/** Who reads the role list: the role page and the pages that give accounts their roles. */
export const ROLE_READERS = ['role:list', 'user:list', 'user:add', 'user:edit', 'companyApply:list', 'companyApply:approve'];

const roleItem = z.object({
  id: z.number(),
  name: z.string(),
  level: z.number(),
  description: z.string().nullable(),
  dataScope: z.string(),
  menus: z.array(z.object({ id: z.number() })),
  createTime: z.string().nullable(),
});

/** Roles and the menus they grant. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  app.get(
    '/api/roles',
    {
      config: { session: true },
      schema: { querystring: z.object({ ...pageQuery, blurry: z.string().optional() }), response: { 200: pageOf(roleItem) } },
    },
    async (req) => {
      // The role page, the pages that pick roles for an account (users, company approval), and views whose
      // fields pick from the roles.
      await requireLookup(ctx, req, '/api/roles', ROLE_READERS);
      const sort = parseSort(req.query.sort, { id: 'id', name: 'name', level: 'level', createTime: 'create_time' }, [
        ['level', 'asc'],
        ['id', 'asc'],
      ]);
      // The low-code engine asks for "all roles" as page=1&size=9999 while pages are 0-based elsewhere:
      // a full-list size (999 or more) returns every role, whatever the page.
      const full = (req.query.size ?? 0) >= 999;
      let q = db.selectFrom('sys_role');
      const b = req.query.blurry?.trim();
      if (b) q = q.where('name', 'ilike', containing(b));
      const { content: rows, totalElements } = await paginate(
        q,
        (x) => sort.reduce((o, [col, dir]) => o.orderBy(sql.ref(col), dir), x.selectAll()),
        { page: full ? 0 : req.query.page, size: req.query.size },
      );
      const links = rows.length
        ? await db
            .selectFrom('sys_roles_menus')
            .select(['role_id', 'menu_id'])
            .where(
              'role_id',
              'in',
              rows.map((r) => r.id),
            )
            .orderBy('menu_id')
            .execute()
        : [];
      return {
        content: rows.map((r) => ({
          id: r.id,
          name: r.name,
          level: r.level,
          description: r.description,
          dataScope: r.data_scope,
          menus: links.filter((l) => l.role_id === r.id).map((l) => ({ id: l.menu_id })),
          createTime: formatTime(r.create_time),
        })),
        totalElements,
      };
    },
  );

  const setRoleMenus = async (trx: Kysely<DB>, me: SessionUser, roleId: number, menus: { id: number }[] | undefined) => {
    if (!menus) return;
    const ids = [...new Set(menus.map((m) => m.id))];
    if (!(await exists(trx, 'sys_menu', ids))) throw badRequest('菜单不存在');
    const current = await trx.selectFrom('sys_roles_menus').select('menu_id').where('role_id', '=', roleId).execute();
    await assertGrantableMenus(
      trx,
      me,
      ids,
      current.map((m) => m.menu_id),
    );
    await trx.deleteFrom('sys_roles_menus').where('role_id', '=', roleId).execute();
    if (ids.length)
      await trx
        .insertInto('sys_roles_menus')
        .values(ids.map((menu_id) => ({ role_id: roleId, menu_id })))
        .execute();
  };

  /** A role's current level, or 404. */
  const levelOfRole = async (roleId: number) => {
    const row = await db.selectFrom('sys_role').select('level').where('id', '=', roleId).executeTakeFirst();
    if (!row) throw notFound('角色不存在');
    return row.level;
  };

  const roleValues = async (me: SessionUser, body: z.infer<typeof roleBody>, current: { id: number; level: number } | null) => {
    const name = (body.name ?? '').trim();
    if (!name) throw badRequest('角色名称不能为空');
    let dup = db.selectFrom('sys_role').select('id').where('name', '=', name);
    if (current !== null) dup = dup.where('id', '<>', current.id);
    if (await dup.executeTakeFirst()) throw badRequest('角色名称已存在');
    const level = body.level ?? current?.level ?? 3;
    // Neither the role as it is nor as it will be may stand above the editor.
    await assertManageableRoleLevels(db, me, current ? [current.level, level] : [level]);
    return {
      name,
      level,
      description: trimmed(body.description),
      data_scope: body.dataScope?.trim() || '本级',
    };
  };

  app.post(
    '/api/roles',
    { config: { permission: 'role:add', log: '新增角色' }, schema: { body: roleBody, response: { 201: z.object({ id: z.number() }) } } },
    async (req, reply) => {
      const me = currentUser(req);
      const values = await roleValues(me, req.body, null);
      const roleId = await db.transaction().execute(async (trx) => {
        const row = await trx.insertInto('sys_role').values(values).returning('id').executeTakeFirstOrThrow();
        await setRoleMenus(trx, me, row.id, req.body.menus);
        return row.id;
      });
      ctx.sessions.invalidate();
      return reply.status(201).send({ id: roleId });
    },
  );

  app.put(
    '/api/roles',
    { config: { permission: 'role:edit', log: '修改角色' }, schema: { body: roleBody, response: { 200: ok } } },
    async (req) => {
      const me = currentUser(req);
      const roleId = req.body.id;
      if (!roleId) throw badRequest('角色ID不能为空');
      const values = await roleValues(me, req.body, { id: roleId, level: await levelOfRole(roleId) });
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('sys_role').set(values).where('id', '=', roleId).execute();
        await setRoleMenus(trx, me, roleId, req.body.menus);
      });
      ctx.sessions.invalidate();
      return done();
    },
  );

  app.put(
    '/api/roles/menu',
    {
      config: { permission: 'role:edit', log: '修改角色菜单' },
      schema: { body: z.object({ id, menus: z.array(ref) }), response: { 200: ok } },
    },
    async (req) => {
      const me = currentUser(req);
      await assertManageableRoleLevels(db, me, [await levelOfRole(req.body.id)]);
      await db.transaction().execute((trx) => setRoleMenus(trx, me, req.body.id, req.body.menus));
      ctx.sessions.invalidate();
      return done();
    },
  );

  app.delete(
    '/api/roles',
    { config: { permission: 'role:del', log: '删除角色' }, schema: { body: idList, response: { 200: ok } } },
    async (req) => {
      const roles = await db.selectFrom('sys_role').select('level').where('id', 'in', req.body).execute();
      await assertManageableRoleLevels(
        db,
        currentUser(req),
        roles.map((r) => r.level),
      );
      const used = await db
        .selectFrom('sys_users_roles as ur')
        .innerJoin('sys_user as u', 'u.id', 'ur.user_id')
        .select('ur.role_id')
        .where('ur.role_id', 'in', req.body)
        .where('u.status', '<>', 2)
        .executeTakeFirst();
      if (used) throw badRequest('所选角色存在用户关联，请解除关联再试');
      await db.deleteFrom('sys_role').where('id', 'in', req.body).execute();
      ctx.sessions.invalidate();
      return done('删除成功');
    },
  );
}
