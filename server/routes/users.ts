import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { assertAssignableRoles, assertManageableUsers, rolesOfUsers } from '../access/levels.js';
import {
  assertGrantableRoles,
  assertRolesFitCompany,
  assertUsersWithin,
  companiesOfDepts,
  placeUser,
  subtree,
  usersWithin,
} from '../access/tenancy.js';
import type { App } from '../app.js';
import { currentUser, hashPassword, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import {
  assertPhoneFree,
  checkPhone,
  DEFAULT_USER_PASSWORD,
  findUser,
  parseSort,
  selectUsers,
  toUserInfo,
  type UserRow,
  userInfoSchema,
} from '../lib/accounts-users.js';
import { asEnabled, checkEmail, checkNickName, checkSex, done, exists, idList, optId, ref, text, trimmed } from '../lib/admin-input.js';
import { pageQuery, paginate } from '../lib/paging.js';
import { answers, ok } from '../lib/route.js';
import { containing, pageOf } from '../lib/sql.js';

const userWithRoles = userInfoSchema.extend({
  roles: z.array(z.object({ id: z.number(), name: z.string() })),
  /** The name of the user's company (所属企业); null when it has none. */
  companyName: z.string().nullable(),
});

const userBody = z.object({
  id: optId,
  username: text.optional(),
  nickName: text.optional(),
  phone: text.nullable().optional(),
  email: text.nullable().optional(),
  sex: text.nullable().optional(),
  deptId: optId,
  dept: ref.nullable().optional(),
  job: text.nullable().optional(),
  roles: z.array(ref).optional(),
  isAdmin: z.boolean().optional(),
  enabled: z.union([z.boolean(), z.string()]).optional(),
  permission: z.string().max(50).nullable().optional(),
  companyId: optId,
});

/** User accounts managed by administrators: list, add, edit, delete, search. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  /** Each user's roles as answered: id and name, the highest first. */
  const rolesByUser = async (userIds: number[]) => {
    const map = new Map<number, { id: number; name: string }[]>();
    for (const r of await rolesOfUsers(db, userIds)) map.set(r.user_id, [...(map.get(r.user_id) ?? []), { id: r.id, name: r.name }]);
    return map;
  };

  /** Company names by id, of the companies given. */
  const companyNames = async (ids: (number | null)[]) => {
    const wanted = [...new Set(ids.filter((i): i is number => i !== null))];
    if (!wanted.length) return new Map<number, string>();
    const rows = await db.selectFrom('company').select(['id', 'name']).where('id', 'in', wanted).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  };

  /** Users as the user page lists them: with their roles and their company's name. */
  const withRoles = async (rows: UserRow[]) => {
    const roles = await rolesByUser(rows.map((r) => r.id));
    const companies = await companyNames(rows.map((r) => r.company_id));
    return rows.map((r) => ({
      ...toUserInfo(r),
      roles: roles.get(r.id) ?? [],
      companyName: r.company_id === null ? null : (companies.get(r.company_id) ?? null),
    }));
  };

  const userWithRolesById = async (userId: number) => {
    const row = await findUser(db, userId);
    if (!row) throw notFound('USER_NOT_FOUND');
    return (await withRoles([row]))[0] as z.infer<typeof userWithRoles>;
  };

  app.get(
    '/api/users',
    answers({ permission: 'user:list' }, pageOf(userWithRoles), {
      querystring: z.object({
        ...pageQuery,
        deptId: optId,
        companyId: optId,
        blurry: z.string().optional(),
        enabled: z.string().optional(),
      }),
    }),
    async (req) => {
      const me = currentUser(req);
      const { deptId, companyId, blurry, enabled } = req.query;
      const sort = parseSort(
        req.query.sort,
        {
          id: 'u.id',
          username: 'u.username',
          nickName: 'u.nick_name',
          createTime: 'u.create_time',
          enabled: 'u.status',
          deptId: 'u.dept_id',
        },
        [['u.id', 'desc']],
      );
      // Only the accounts the manager's data scope reaches, exactly as records.
      let q = selectUsers(db).where('u.status', '<>', 2).where(usersWithin(me));
      if (deptId) {
        const depts = await db.selectFrom('sys_dept').select(['id', 'pid']).execute();
        q = q.where('u.dept_id', 'in', [...subtree(depts, [deptId])]);
      }
      if (companyId) q = q.where('u.company_id', '=', companyId);
      const b = blurry?.trim();
      if (b) {
        const like = containing(b);
        q = q.where((eb) =>
          eb.or([
            eb('u.username', 'ilike', like),
            eb('u.nick_name', 'ilike', like),
            eb('u.email', 'ilike', like),
            eb('u.phone', 'ilike', like),
          ]),
        );
      }
      const en = asEnabled(enabled === '' ? undefined : enabled);
      if (en !== undefined) q = q.where('u.status', '=', en ? 0 : 1);
      const { content, totalElements } = await paginate(
        q,
        (x) => sort.reduce((o, [col, dir]) => o.orderBy(sql.ref(col), dir), x),
        req.query,
      );
      return { content: await withRoles(content), totalElements };
    },
  );

  /** Validates a user body; `current` is the stored user on edit. Returns the columns to write. */
  const userValues = async (
    me: SessionUser,
    body: z.infer<typeof userBody>,
    current: { id: number; is_admin: boolean; company_id: number | null; dept_id: number | null } | null,
  ) => {
    const creating = current === null;
    const values: Partial<{
      username: string;
      nick_name: string;
      phone: string;
      email: string | null;
      sex: string | null;
      dept_id: number | null;
      job: string | null;
      is_admin: boolean;
      status: number;
      permission: string | null;
      company_id: number | null;
    }> = {};
    if (creating || body.username !== undefined) {
      const u = (body.username ?? '').trim();
      if (!u) throw badRequest('USERNAME_REQUIRED');
      if (!/^[A-Za-z0-9_.@-]{2,50}$/.test(u)) throw badRequest('USERNAME_INVALID');
      let dup = db.selectFrom('sys_user').select('id').where('username', '=', u);
      if (current) dup = dup.where('id', '<>', current.id);
      if (await dup.executeTakeFirst()) throw badRequest('USERNAME_TAKEN');
      values.username = u;
    }
    if (creating || body.nickName !== undefined) values.nick_name = checkNickName(body.nickName);
    if (creating || body.phone !== undefined) {
      values.phone = checkPhone(body.phone);
      await assertPhoneFree(db, values.phone, current?.id ?? null);
    }
    if (body.email !== undefined) values.email = checkEmail(body.email);
    if (body.sex !== undefined) values.sex = checkSex(body.sex);
    if (body.job !== undefined) values.job = trimmed(body.job);
    // Where the account sits: a company and one of its departments, within the manager's scope. A company
    // left out follows the department; a new account of a company manager joins the manager's company.
    const askedDept = body.deptId !== undefined ? body.deptId : body.dept !== undefined ? (body.dept?.id ?? null) : undefined;
    if (body.companyId !== undefined && body.companyId !== null && !(await exists(db, 'company', [body.companyId])))
      throw badRequest('COMPANY_NOT_FOUND');
    const deptId = askedDept !== undefined ? askedDept : (current?.dept_id ?? null);
    const deptCompany = deptId === null ? undefined : (await companiesOfDepts(db, [deptId])).get(deptId);
    if (deptId !== null && deptCompany === undefined) throw badRequest('DEPT_NOT_FOUND');
    const companyId =
      body.companyId !== undefined
        ? body.companyId
        : askedDept !== undefined && askedDept !== null
          ? (deptCompany ?? null)
          : current
            ? current.company_id
            : me.dataScope.all
              ? (deptCompany ?? null)
              : me.companyId;
    const place = await placeUser(db, me, { companyId, deptId, id: current?.id ?? null });
    if (creating || askedDept !== undefined) values.dept_id = place.deptId;
    if (creating || place.companyId !== current?.company_id) values.company_id = place.companyId;
    if (body.permission !== undefined) values.permission = trimmed(body.permission);
    // Only an administrator may hand out (or take away) administrator rights.
    if (body.isAdmin !== undefined && body.isAdmin !== (current?.is_admin ?? false)) {
      if (!me.isAdmin) throw forbidden('ADMIN_ONLY_SETS_ADMIN');
      if (current?.id === me.id) throw badRequest('CANNOT_DEMOTE_SELF');
      values.is_admin = body.isAdmin;
    }
    const en = asEnabled(body.enabled);
    if (en !== undefined) {
      if (!en && current?.id === me.id) throw badRequest('CANNOT_DISABLE_SELF');
      values.status = en ? 0 : 1;
    }
    if (
      body.roles &&
      !(await exists(
        db,
        'sys_role',
        body.roles.map((r) => r.id),
      ))
    )
      throw badRequest('ROLE_NOT_FOUND');
    if (body.roles) {
      const ids = body.roles.map((r) => r.id);
      await assertGrantableRoles(db, me, ids, place.companyId);
      await assertAssignableRoles(db, me, ids);
    } else if (current && place.companyId !== current.company_id) {
      // Moving an account to another company leaves no role of its old company with it.
      const kept = await db.selectFrom('sys_users_roles').select('role_id').where('user_id', '=', current.id).execute();
      await assertRolesFitCompany(
        db,
        kept.map((r) => r.role_id),
        place.companyId,
      );
    }
    return values;
  };

  const setRoles = async (trx: Kysely<DB>, userId: number, roles: { id: number }[] | undefined) => {
    if (!roles) return;
    await trx.deleteFrom('sys_users_roles').where('user_id', '=', userId).execute();
    const ids = [...new Set(roles.map((r) => r.id))];
    if (ids.length)
      await trx
        .insertInto('sys_users_roles')
        .values(ids.map((role_id) => ({ user_id: userId, role_id })))
        .execute();
  };

  app.post(
    '/api/users',
    { config: { permission: 'user:add', log: '新增用户' }, schema: { body: userBody, response: { 201: userWithRoles } } },
    async (req, reply) => {
      const me = currentUser(req);
      const values = await userValues(me, req.body, null);
      // New accounts start with the default password and no reset time, so the first login asks for a change.
      const password = await hashPassword(DEFAULT_USER_PASSWORD);
      const newId = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('sys_user')
          .values({ ...(values as { username: string; nick_name: string }), password, pwd_reset_time: null })
          .returning('id')
          .executeTakeFirstOrThrow();
        await setRoles(trx, row.id, req.body.roles);
        return row.id;
      });
      ctx.sessions.invalidate();
      return reply.status(201).send(await userWithRolesById(newId));
    },
  );

  app.put('/api/users', answers({ permission: 'user:edit', log: '修改用户' }, userWithRoles, { body: userBody }), async (req) => {
    const me = currentUser(req);
    if (!req.body.id) throw badRequest('USER_ID_REQUIRED');
    const current = await findUser(db, req.body.id);
    if (!current) throw notFound('USER_NOT_FOUND');
    await assertUsersWithin(db, me, [current.id]);
    if (current.is_admin && !me.isAdmin) throw forbidden('ADMIN_NOT_EDITABLE');
    await assertManageableUsers(db, me, [current.id]);
    const values = await userValues(me, req.body, current);
    await db.transaction().execute(async (trx) => {
      if (Object.keys(values).length) {
        await trx
          .updateTable('sys_user')
          .set({ ...values, update_time: sql<Date>`now()` })
          .where('id', '=', current.id)
          .execute();
      }
      await setRoles(trx, current.id, req.body.roles);
    });
    if (values.status === 1) await ctx.sessions.destroyAllOf(current.id);
    ctx.sessions.invalidate();
    return userWithRolesById(current.id);
  });

  app.delete('/api/users', answers({ permission: 'user:del', log: '删除用户' }, ok, { body: idList }), async (req) => {
    const me = currentUser(req);
    const ids = [...new Set(req.body)];
    if (ids.includes(me.id)) throw badRequest('CANNOT_DELETE_SELF');
    const rows = await db.selectFrom('sys_user').select(['id', 'is_admin']).where('id', 'in', ids).where('status', '<>', 2).execute();
    if (rows.length !== ids.length) throw notFound('USER_NOT_FOUND');
    await assertUsersWithin(db, me, ids);
    if (!me.isAdmin && rows.some((r) => r.is_admin)) throw forbidden('ADMIN_NOT_DELETABLE');
    await assertManageableUsers(db, me, ids);
    // Soft delete: the operation log and business records keep pointing at the account.
    await db.updateTable('sys_user').set({ status: 2, update_time: sql<Date>`now()` }).where('id', 'in', ids).execute();
    for (const uid of ids) await ctx.sessions.destroyAllOf(uid);
    ctx.sessions.invalidate();
    return done('删除成功');
  });

  app.get(
    '/api/users/search',
    answers(
      { permission: ['user:list', 'user:add', 'user:edit'] },
      z.array(z.object({ id: z.number(), username: z.string(), nickName: z.string() })),
      { querystring: z.object({ blurry: z.string().optional() }) },
    ),
    async (req) => {
      let q = db
        .selectFrom('sys_user as u')
        .select(['u.id', 'u.username', 'u.nick_name'])
        .where('u.status', '=', 0)
        .where(usersWithin(currentUser(req)));
      const b = req.query.blurry?.trim();
      if (b) {
        const like = containing(b);
        q = q.where((eb) => eb.or([eb('u.username', 'ilike', like), eb('u.nick_name', 'ilike', like)]));
      }
      const rows = await q.orderBy('u.id').limit(20).execute();
      return rows.map((r) => ({ id: r.id, username: r.username, nickName: r.nick_name }));
    },
  );

  app.get(
    '/api/users/companies',
    answers({ permission: ['user:add', 'user:edit'] }, z.array(z.object({ id: z.number(), name: z.string() })), {
      querystring: z.object({ blurry: z.string().max(100).optional() }),
    }),
    async (req) => {
      const me = currentUser(req);
      let q = db.selectFrom('company').select(['id', 'name']);
      // A manager without 全部 places accounts in its own company only, whatever part of it its scope reaches.
      if (!me.dataScope.all) q = q.where('id', '=', me.companyId ?? -1);
      const b = req.query.blurry?.trim();
      if (b) q = q.where('name', 'ilike', containing(b));
      return q.orderBy('name').orderBy('id').limit(50).execute();
    },
  );
}
