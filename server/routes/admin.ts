import { randomInt } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { isStrongPassword, PASSWORD_RULE_MESSAGE } from '../../src/shared/password-rule.js';
import type { App } from '../app.js';
import { currentUser, decryptPassword, hashPassword, type SessionUser, verifyPassword } from '../auth.js';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { allMenus, buildRoutes, menuIdsOfUser, menuTree, menuTreeSchema, routeNodeSchema, subtreeIds } from '../lib/accounts-menus.js';
import {
  assertPhoneFree,
  checkPhone,
  DEFAULT_USER_PASSWORD,
  EMAIL_RE,
  findUser,
  formatTime,
  pageParams,
  parseSort,
  selectUsers,
  toUserInfo,
  userInfoSchema,
} from '../lib/accounts-users.js';
import { containing, pageOf } from '../lib/sql.js';

/** Form fields arrive as strings, JSON ones may be numbers. */
const field = z.union([z.string(), z.number(), z.boolean()]).transform(String).optional();
// Ids are PostgreSQL integers: anything larger would be a database error, so it is a 400 here.
const int = z.coerce.number().int().min(0).max(2_147_483_647);
const id = int.min(1);
const optId = z.union([int, z.null()]).optional();
const ref = z.object({ id: int });
const idList = z.array(int).min(1, '请选择要删除的数据');
const sortNum = z.coerce.number().int().min(-999_999).max(999_999);
/** Text that goes into a varchar(255) column. */
const text = z.string().max(255, '长度不能超过255个字符');
const pageQuery = {
  page: z.coerce.number().int().min(0).max(1_000_000).optional(),
  size: z.coerce.number().int().min(1).optional(),
  sort: z.union([z.string(), z.array(z.string())]).optional(),
};
const ok = z.object({ status: z.number(), message: z.string() });
const page = pageOf;

const done = (message = '操作成功') => ({ status: 200, message });

const userWithRoles = userInfoSchema.extend({ roles: z.array(z.object({ id: z.number(), name: z.string() })) });

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

const menuBody = z.object({
  id: optId,
  pid: optId,
  type: z.coerce.number().int().optional(),
  title: text.optional(),
  componentName: text.nullable().optional(),
  name: text.nullable().optional(),
  component: text.nullable().optional(),
  path: text.nullable().optional(),
  icon: text.nullable().optional(),
  permission: text.nullable().optional(),
  menuSort: sortNum.optional(),
  sort: sortNum.optional(),
  hidden: z.boolean().optional(),
  cache: z.boolean().optional(),
  iFrame: z.boolean().optional(),
});

const menuItem = z.object({
  id: z.number(),
  pid: z.number().nullable(),
  type: z.number(),
  title: z.string(),
  componentName: z.string().nullable(),
  component: z.string().nullable(),
  path: z.string().nullable(),
  icon: z.string().nullable(),
  permission: z.string().nullable(),
  menuSort: z.number(),
  hidden: z.boolean(),
  cache: z.boolean(),
  iFrame: z.boolean(),
  hasChildren: z.boolean(),
  createTime: z.string().nullable(),
});

const roleBody = z.object({
  id: optId,
  name: text.optional(),
  level: z.coerce.number().int().min(1).max(99).optional(),
  description: text.nullable().optional(),
  dataScope: z.string().max(50).optional(),
  menus: z.array(ref).optional(),
});

const roleItem = z.object({
  id: z.number(),
  name: z.string(),
  level: z.number(),
  description: z.string().nullable(),
  dataScope: z.string(),
  menus: z.array(z.object({ id: z.number() })),
  createTime: z.string().nullable(),
});

const deptBody = z.object({
  id: optId,
  pid: optId,
  name: text.optional(),
  code: z.string().max(50).nullable().optional(),
  deptSort: sortNum.optional(),
  enabled: z.boolean().optional(),
});

const deptItem = z.object({
  id: z.number(),
  pid: z.number().nullable(),
  name: z.string(),
  code: z.string().nullable(),
  deptSort: z.number(),
  enabled: z.boolean(),
  hasChildren: z.boolean(),
  createTime: z.string().nullable(),
});

interface DeptNode {
  id: number;
  name: string;
  code: string | null;
  children?: DeptNode[];
}
const deptNode: z.ZodType<DeptNode> = z.lazy(() =>
  z.object({ id: z.number(), name: z.string(), code: z.string().nullable(), children: z.array(deptNode).optional() }),
);

const trimmed = (v: string | null | undefined) => {
  const t = (v ?? '').trim();
  return t === '' ? null : t;
};

function checkNickName(v: string | undefined): string {
  const n = (v ?? '').trim();
  if (!n) throw badRequest('请输入用户昵称');
  if (n.length < 2 || n.length > 20) throw badRequest('长度在 2 到 20 个字符');
  return n;
}

function checkSex(v: string | null | undefined): string | null {
  const s = trimmed(v);
  if (s !== null && s !== '男' && s !== '女') throw badRequest('性别只能是男或女');
  return s;
}

function checkEmail(v: string | null | undefined): string | null {
  const e = trimmed(v);
  if (e !== null && !EMAIL_RE.test(e)) throw badRequest('邮箱格式错误');
  return e;
}

const asEnabled = (v: boolean | string | undefined) => (v === undefined ? undefined : v === true || v === 'true' || v === '1');

async function exists(db: Kysely<DB>, table: 'sys_dept' | 'sys_role' | 'company' | 'sys_menu', ids: number[]): Promise<boolean> {
  if (!ids.length) return true;
  const rows = await db.selectFrom(table).select('id').where('id', 'in', ids).execute();
  return rows.length === new Set(ids).size;
}

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  const rolesOfUsers = async (userIds: number[]) => {
    const map = new Map<number, { id: number; name: string }[]>();
    if (!userIds.length) return map;
    const rows = await db
      .selectFrom('sys_users_roles as ur')
      .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
      .select(['ur.user_id', 'r.id', 'r.name'])
      .where('ur.user_id', 'in', userIds)
      .orderBy('r.level')
      .orderBy('r.id')
      .execute();
    for (const r of rows) map.set(r.user_id, [...(map.get(r.user_id) ?? []), { id: r.id, name: r.name }]);
    return map;
  };

  const userWithRolesById = async (userId: number) => {
    const row = await findUser(db, userId);
    if (!row) throw notFound('用户不存在');
    return { ...toUserInfo(row), roles: (await rolesOfUsers([userId])).get(userId) ?? [] };
  };

  // ─── Users ────────────────────────────────────────────────────────────────────────────────

  app.get(
    '/api/users',
    {
      config: { permission: 'user:list' },
      schema: {
        querystring: z.object({ ...pageQuery, deptId: optId, blurry: z.string().optional(), enabled: z.string().optional() }),
        response: { 200: page(userWithRoles) },
      },
    },
    async (req) => {
      const { deptId, blurry, enabled } = req.query;
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
      const { limit, offset } = pageParams(req.query.page, req.query.size);
      let q = selectUsers(db).where('u.status', '<>', 2);
      if (deptId) {
        const depts = await db.selectFrom('sys_dept').select(['id', 'pid']).execute();
        q = q.where('u.dept_id', 'in', [...subtreeIds(depts, [deptId])]);
      }
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
      const total = await q
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      let listQ = q;
      for (const [col, dir] of sort) listQ = listQ.orderBy(sql.ref(col), dir);
      const rows = await listQ.limit(limit).offset(offset).execute();
      const roles = await rolesOfUsers(rows.map((r) => r.id));
      return {
        content: rows.map((r) => ({ ...toUserInfo(r), roles: roles.get(r.id) ?? [] })),
        totalElements: Number(total.n),
      };
    },
  );

  /** Validates a user body; `current` is the stored user on edit. Returns the columns to write. */
  const userValues = async (me: SessionUser, body: z.infer<typeof userBody>, current: { id: number; is_admin: boolean } | null) => {
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
      if (!u) throw badRequest('用户名不能为空');
      if (!/^[A-Za-z0-9_.@-]{2,50}$/.test(u)) throw badRequest('用户名由 2 到 50 位字母、数字、下划线组成');
      let dup = db.selectFrom('sys_user').select('id').where('username', '=', u);
      if (current) dup = dup.where('id', '<>', current.id);
      if (await dup.executeTakeFirst()) throw badRequest('用户名已存在');
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
    const deptId = body.deptId !== undefined ? body.deptId : body.dept !== undefined ? (body.dept?.id ?? null) : undefined;
    if (deptId !== undefined) {
      if (deptId !== null && !(await exists(db, 'sys_dept', [deptId]))) throw badRequest('部门不存在');
      values.dept_id = deptId;
    }
    if (body.companyId !== undefined) {
      if (body.companyId !== null && !(await exists(db, 'company', [body.companyId]))) throw badRequest('企业不存在');
      values.company_id = body.companyId;
    }
    if (body.permission !== undefined) values.permission = trimmed(body.permission);
    // Only an administrator may hand out (or take away) administrator rights.
    if (body.isAdmin !== undefined && body.isAdmin !== (current?.is_admin ?? false)) {
      if (!me.isAdmin) throw forbidden('只有管理员可以设置管理员账号');
      if (current?.id === me.id) throw badRequest('不能取消自己的管理员权限');
      values.is_admin = body.isAdmin;
    }
    const en = asEnabled(body.enabled);
    if (en !== undefined) {
      if (!en && current?.id === me.id) throw badRequest('不能禁用自己');
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
      throw badRequest('角色不存在');
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

  app.put(
    '/api/users',
    { config: { permission: 'user:edit', log: '修改用户' }, schema: { body: userBody, response: { 200: userWithRoles } } },
    async (req) => {
      const me = currentUser(req);
      if (!req.body.id) throw badRequest('用户ID不能为空');
      const current = await findUser(db, req.body.id);
      if (!current) throw notFound('用户不存在');
      if (current.is_admin && !me.isAdmin) throw forbidden('不能修改管理员账号');
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
    },
  );

  app.delete(
    '/api/users',
    { config: { permission: 'user:del', log: '删除用户' }, schema: { body: idList, response: { 200: ok } } },
    async (req) => {
      const me = currentUser(req);
      const ids = [...new Set(req.body)];
      if (ids.includes(me.id)) throw badRequest('不能删除自己');
      const rows = await db.selectFrom('sys_user').select(['id', 'is_admin']).where('id', 'in', ids).where('status', '<>', 2).execute();
      if (rows.length !== ids.length) throw notFound('用户不存在');
      if (!me.isAdmin && rows.some((r) => r.is_admin)) throw forbidden('不能删除管理员账号');
      // Soft delete: the operation log and business records keep pointing at the account.
      await db.updateTable('sys_user').set({ status: 2, update_time: sql<Date>`now()` }).where('id', 'in', ids).execute();
      for (const uid of ids) await ctx.sessions.destroyAllOf(uid);
      ctx.sessions.invalidate();
      return done('删除成功');
    },
  );

  app.get(
    '/api/users/search',
    {
      schema: {
        querystring: z.object({ blurry: z.string().optional() }),
        response: { 200: z.array(z.object({ id: z.number(), username: z.string(), nickName: z.string() })) },
      },
    },
    async (req) => {
      let q = db.selectFrom('sys_user').select(['id', 'username', 'nick_name']).where('status', '=', 0);
      const b = req.query.blurry?.trim();
      if (b) {
        const like = containing(b);
        q = q.where((eb) => eb.or([eb('username', 'ilike', like), eb('nick_name', 'ilike', like)]));
      }
      const rows = await q.orderBy('id').limit(20).execute();
      return rows.map((r) => ({ id: r.id, username: r.username, nickName: r.nick_name }));
    },
  );

  app.put(
    '/api/users/center',
    {
      config: { log: '修改个人信息' },
      schema: {
        body: z.object({ id: optId, nickName: text.optional(), phone: text.nullable().optional(), sex: text.nullable().optional() }),
        response: { 200: ok },
      },
    },
    async (req) => {
      const me = currentUser(req);
      if (req.body.id != null && req.body.id !== me.id) throw forbidden('不能修改他人的资料');
      const nick_name = checkNickName(req.body.nickName);
      const phone = checkPhone(req.body.phone);
      await assertPhoneFree(db, phone, me.id);
      const sex = req.body.sex === undefined ? undefined : checkSex(req.body.sex);
      await db
        .updateTable('sys_user')
        .set({ nick_name, phone, ...(sex === undefined ? {} : { sex }), update_time: sql<Date>`now()` })
        .where('id', '=', me.id)
        .execute();
      ctx.sessions.invalidate();
      return done('修改成功');
    },
  );

  app.post(
    '/api/users/updatePass',
    {
      config: { log: '修改密码' },
      schema: { body: z.object({ oldPass: field, newPass: field, phone: field }).nullish(), response: { 200: ok } },
    },
    async (req) => {
      const me = currentUser(req);
      const { oldPass = '', newPass = '', phone } = req.body ?? {};
      if (!oldPass) throw badRequest('请输入旧密码');
      if (!newPass) throw badRequest('请输入新密码');
      const oldPlain = decryptPassword(ctx.secrets, oldPass);
      const newPlain = decryptPassword(ctx.secrets, newPass);
      const row = await findUser(db, me.id);
      if (!row || !(await verifyPassword(oldPlain, row.password))) throw badRequest('修改失败，旧密码错误');
      if (!isStrongPassword(newPlain)) throw badRequest(PASSWORD_RULE_MESSAGE);
      if (newPlain === oldPlain) throw badRequest('新密码不能与旧密码相同');
      // The phone field of the form exists for administrators only (core-platform.md §6).
      let newPhone: string | undefined;
      if (row.is_admin) {
        newPhone = checkPhone(phone);
        await assertPhoneFree(db, newPhone, me.id);
      }
      await db
        .updateTable('sys_user')
        .set({
          password: await hashPassword(newPlain),
          pwd_reset_time: sql<Date>`now()`,
          update_time: sql<Date>`now()`,
          ...(newPhone ? { phone: newPhone } : {}),
        })
        .where('id', '=', me.id)
        .execute();
      await ctx.sessions.destroyAllOf(me.id);
      return done('密码修改成功，请重新登录');
    },
  );

  app.get(
    '/api/users/updatePass/:x',
    { schema: { params: z.object({ x: z.string() }), response: { 200: z.object({ pwdExpired: z.boolean() }) } } },
    async (req) => {
      const row = await findUser(db, currentUser(req).id);
      return { pwdExpired: row?.pwd_expired ?? false };
    },
  );

  app.post(
    '/api/code/resetEmail',
    {
      schema: {
        querystring: z.object({ email: text.optional() }),
        body: z.object({ type: z.string().optional(), value: text.optional(), email: text.optional() }).nullish(),
        response: { 200: ok },
      },
    },
    async (req) => {
      const me = currentUser(req);
      const email = (req.query.email ?? req.body?.value ?? req.body?.email ?? '').trim();
      if (!email) throw badRequest('请输入邮箱');
      if (!EMAIL_RE.test(email)) throw badRequest('邮箱格式错误');
      const recent = await db
        .selectFrom('sys_email_code')
        .select('id')
        .where('user_id', '=', me.id)
        .where('create_time', '>', sql<Date>`now() - interval '60 seconds'`)
        .executeTakeFirst();
      if (recent) throw badRequest('请勿频繁发送，60秒后再试');
      // CAPTCHA_FIXED also fixes this code so that tests and demos can finish the flow.
      const code = ctx.config.captchaFixed ?? String(randomInt(0, 1_000_000)).padStart(6, '0');
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('sys_email_code').where('user_id', '=', me.id).execute();
        await trx
          .insertInto('sys_email_code')
          .values({ user_id: me.id, email, code, expires_at: sql<Date>`now() + interval '5 minutes'` })
          .execute();
      });
      // No mail server in the reference server: the message goes to the log.
      req.log.info({ email, code }, 'email verification code');
      return done('发送成功，验证码有效期5分钟');
    },
  );

  app.post(
    '/api/users/updateEmail/:code',
    {
      config: { log: '修改邮箱' },
      schema: {
        params: z.object({ code: z.string() }),
        body: z.object({ pass: field, password: field, email: field }),
        response: { 200: ok },
      },
    },
    async (req) => {
      const me = currentUser(req);
      const email = (req.body.email ?? '').trim();
      if (!email) throw badRequest('请输入新邮箱');
      if (!EMAIL_RE.test(email)) throw badRequest('邮箱格式错误');
      const row = await findUser(db, me.id);
      if (!row) throw notFound('用户不存在');
      if (row.email && row.email.toLowerCase() === email.toLowerCase()) throw badRequest('新邮箱不能与旧邮箱相同');
      const pass = req.body.pass ?? req.body.password ?? '';
      if (!pass) throw badRequest('请输入当前密码');
      if (!(await verifyPassword(decryptPassword(ctx.secrets, pass), row.password))) throw badRequest('密码错误');
      // The code is used up by this attempt whether or not it matches: no guessing against one code.
      const stored = await db
        .updateTable('sys_email_code')
        .set({ used: true })
        .where('user_id', '=', me.id)
        .where('email', '=', email)
        .where('used', '=', false)
        .returning(['code', sql<boolean>`expires_at > now()`.as('valid')])
        .executeTakeFirst();
      if (!stored?.valid || stored.code !== req.params.code.trim()) throw badRequest('验证码错误或已过期');
      await db.updateTable('sys_user').set({ email, update_time: sql<Date>`now()` }).where('id', '=', me.id).execute();
      return done('邮箱修改成功');
    },
  );

  app.get(
    '/api/logs/user',
    {
      schema: {
        querystring: z.object(pageQuery),
        response: {
          200: page(
            z.object({
              id: z.number(),
              description: z.string(),
              requestIp: z.string().nullable(),
              address: z.string().nullable(),
              browser: z.string().nullable(),
              time: z.number(),
              createTime: z.string().nullable(),
            }),
          ),
        },
      },
    },
    async (req) => {
      const me = currentUser(req);
      const { limit, offset } = pageParams(req.query.page, req.query.size);
      const base = db.selectFrom('sys_log').where('user_id', '=', me.id);
      const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = await base
        .select(['id', 'description', 'request_ip', 'address', 'browser', 'time', 'create_time'])
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      return {
        content: rows.map((r) => ({
          id: Number(r.id),
          description: r.description,
          requestIp: r.request_ip,
          address: r.address,
          browser: r.browser,
          time: r.time,
          createTime: formatTime(r.create_time),
        })),
        totalElements: Number(total.n),
      };
    },
  );

  // ─── Menus ────────────────────────────────────────────────────────────────────────────────

  app.get('/api/menus/build', { schema: { response: { 200: z.array(routeNodeSchema) } } }, async (req) => {
    const me = currentUser(req);
    const menus = await allMenus(db);
    if (me.isAdmin) return buildRoutes(menus, () => true);
    const ids = await menuIdsOfUser(db, me.id, menus);
    return buildRoutes(menus, (m) => ids.has(m.id));
  });

  app.get(
    '/api/menus/tree',
    { config: { permission: ['menu:list', 'role:list'] }, schema: { response: { 200: z.array(menuTreeSchema) } } },
    async () => menuTree(await allMenus(db)),
  );

  app.get(
    '/api/menus',
    {
      config: { permission: 'menu:list' },
      schema: { querystring: z.object({ pid: optId, blurry: z.string().optional() }), response: { 200: page(menuItem) } },
    },
    async (req) => {
      const pid = req.query.pid || null;
      let q = db.selectFrom('sys_menu as m').selectAll('m');
      const b = req.query.blurry?.trim();
      if (b) q = q.where('m.title', 'ilike', containing(b));
      else q = pid === null ? q.where('m.pid', 'is', null) : q.where('m.pid', '=', pid);
      const rows = await q
        .select((eb) => eb.exists(eb.selectFrom('sys_menu as c').select('c.id').whereRef('c.pid', '=', 'm.id')).as('has_children'))
        .orderBy('m.sort')
        .orderBy('m.id')
        .execute();
      return {
        content: rows.map((m) => ({
          id: m.id,
          pid: m.pid,
          type: m.type,
          title: m.title,
          componentName: m.name,
          component: m.component,
          path: m.path,
          icon: m.icon,
          permission: m.permission,
          menuSort: m.sort,
          hidden: m.hidden,
          cache: m.cache,
          iFrame: m.i_frame,
          hasChildren: !!m.has_children,
          createTime: formatTime(m.create_time),
        })),
        totalElements: rows.length,
      };
    },
  );

  const menuValues = async (body: z.infer<typeof menuBody>, currentId: number | null) => {
    const title = (body.title ?? '').trim();
    if (!title) throw badRequest('菜单标题不能为空');
    const type = body.type ?? 1;
    if (![0, 1, 2].includes(type)) throw badRequest('菜单类型只能是目录、菜单或按钮');
    const path = trimmed(body.path);
    const permission = trimmed(body.permission);
    if (type !== 2 && !path) throw badRequest('路由地址不能为空');
    if (type === 2 && !permission) throw badRequest('权限标识不能为空');
    const pid = body.pid || null;
    if (pid !== null) {
      if (!(await exists(db, 'sys_menu', [pid]))) throw badRequest('上级菜单不存在');
      if (currentId !== null) {
        const rows = await db.selectFrom('sys_menu').select(['id', 'pid']).execute();
        if (subtreeIds(rows, [currentId]).has(pid)) throw badRequest('上级菜单不能为自己或下级菜单');
      }
    }
    return {
      pid,
      type,
      title,
      name: trimmed(body.componentName ?? body.name),
      component: trimmed(body.component),
      path,
      icon: trimmed(body.icon),
      permission,
      sort: body.menuSort ?? body.sort ?? 999,
      hidden: body.hidden ?? false,
      cache: body.cache ?? false,
      i_frame: body.iFrame ?? false,
    };
  };

  app.post(
    '/api/menus',
    { config: { permission: 'menu:add', log: '新增菜单' }, schema: { body: menuBody, response: { 201: z.object({ id: z.number() }) } } },
    async (req, reply) => {
      const values = await menuValues(req.body, null);
      const row = await db.insertInto('sys_menu').values(values).returning('id').executeTakeFirstOrThrow();
      ctx.sessions.invalidate();
      return reply.status(201).send({ id: row.id });
    },
  );

  app.put(
    '/api/menus',
    { config: { permission: 'menu:edit', log: '修改菜单' }, schema: { body: menuBody, response: { 200: ok } } },
    async (req) => {
      if (!req.body.id) throw badRequest('菜单ID不能为空');
      if (!(await exists(db, 'sys_menu', [req.body.id]))) throw notFound('菜单不存在');
      const values = await menuValues(req.body, req.body.id);
      await db.updateTable('sys_menu').set(values).where('id', '=', req.body.id).execute();
      ctx.sessions.invalidate();
      return done();
    },
  );

  app.delete(
    '/api/menus',
    { config: { permission: 'menu:del', log: '删除菜单' }, schema: { body: idList, response: { 200: ok } } },
    async (req) => {
      // Children go with their parent (sys_menu.pid cascades), and with them their role links.
      await db.deleteFrom('sys_menu').where('id', 'in', req.body).execute();
      ctx.sessions.invalidate();
      return done('删除成功');
    },
  );

  // ─── Departments ──────────────────────────────────────────────────────────────────────────

  app.get(
    '/api/dept/list',
    {
      schema: {
        querystring: z.object({ deptId: int.optional() }),
        response: {
          200: z.object({
            depts: z.array(z.object({ id: z.number(), name: z.string(), hasChildren: z.boolean() })),
            users: z.array(z.object({ id: z.number(), username: z.string(), nickName: z.string() })),
          }),
        },
      },
    },
    async (req) => {
      const deptId = req.query.deptId ?? 0;
      let q = db
        .selectFrom('sys_dept as d')
        .select((eb) => [
          'd.id',
          'd.name',
          eb.exists(eb.selectFrom('sys_dept as c').select('c.id').whereRef('c.pid', '=', 'd.id')).as('has_children'),
        ])
        .where('d.enabled', '=', true);
      q = deptId === 0 ? q.where('d.pid', 'is', null) : q.where('d.pid', '=', deptId);
      const depts = await q.orderBy('d.sort').orderBy('d.id').execute();
      const users =
        deptId === 0
          ? []
          : await db
              .selectFrom('sys_user')
              .select(['id', 'username', 'nick_name'])
              .where('dept_id', '=', deptId)
              .where('status', '=', 0)
              .orderBy('id')
              .execute();
      return {
        depts: depts.map((d) => ({ id: d.id, name: d.name, hasChildren: !!d.has_children })),
        users: users.map((u) => ({ id: u.id, username: u.username, nickName: u.nick_name })),
      };
    },
  );

  app.get('/api/dept/find', { schema: { response: { 200: z.object({ status: z.number(), data: z.array(deptNode) }) } } }, async () => {
    const rows = await db
      .selectFrom('sys_dept')
      .select(['id', 'pid', 'name', 'code'])
      .where('enabled', '=', true)
      .orderBy('sort')
      .orderBy('id')
      .execute();
    const byPid = new Map<number | null, typeof rows>();
    for (const r of rows) byPid.set(r.pid, [...(byPid.get(r.pid) ?? []), r]);
    const build = (pid: number | null): DeptNode[] =>
      (byPid.get(pid) ?? []).map((d) => {
        const children = build(d.id);
        return children.length ? { id: d.id, name: d.name, code: d.code, children } : { id: d.id, name: d.name, code: d.code };
      });
    return { status: 200, data: build(null) };
  });

  app.get(
    '/api/dept',
    {
      config: { permission: 'dept:list' },
      schema: { querystring: z.object({ pid: optId, name: z.string().optional() }), response: { 200: page(deptItem) } },
    },
    async (req) => {
      let q = db
        .selectFrom('sys_dept as d')
        .selectAll('d')
        .select((eb) => eb.exists(eb.selectFrom('sys_dept as c').select('c.id').whereRef('c.pid', '=', 'd.id')).as('has_children'));
      const name = req.query.name?.trim();
      if (name) q = q.where('d.name', 'ilike', containing(name));
      else q = req.query.pid ? q.where('d.pid', '=', req.query.pid) : q.where('d.pid', 'is', null);
      const rows = await q.orderBy('d.sort').orderBy('d.id').execute();
      return {
        content: rows.map((d) => ({
          id: d.id,
          pid: d.pid,
          name: d.name,
          code: d.code,
          deptSort: d.sort,
          enabled: d.enabled,
          hasChildren: !!d.has_children,
          createTime: formatTime(d.create_time),
        })),
        totalElements: rows.length,
      };
    },
  );

  const deptValues = async (body: z.infer<typeof deptBody>, currentId: number | null) => {
    const name = (body.name ?? '').trim();
    if (!name) throw badRequest('部门名称不能为空');
    const pid = body.pid || null;
    if (pid !== null) {
      if (!(await exists(db, 'sys_dept', [pid]))) throw badRequest('上级部门不存在');
      if (currentId !== null) {
        const rows = await db.selectFrom('sys_dept').select(['id', 'pid']).execute();
        if (subtreeIds(rows, [currentId]).has(pid)) throw badRequest('上级部门不能为自己或下级部门');
      }
    }
    const code = trimmed(body.code);
    if (code) {
      let dup = db.selectFrom('sys_dept').select('id').where('code', '=', code);
      if (currentId !== null) dup = dup.where('id', '<>', currentId);
      if (await dup.executeTakeFirst()) throw badRequest('部门编码已存在');
    }
    return { pid, name, code, sort: body.deptSort ?? 999, enabled: body.enabled ?? true };
  };

  app.post(
    '/api/dept',
    { config: { permission: 'dept:add', log: '新增部门' }, schema: { body: deptBody, response: { 201: z.object({ id: z.number() }) } } },
    async (req, reply) => {
      const row = await db
        .insertInto('sys_dept')
        .values(await deptValues(req.body, null))
        .returning('id')
        .executeTakeFirstOrThrow();
      return reply.status(201).send({ id: row.id });
    },
  );

  app.put(
    '/api/dept',
    { config: { permission: 'dept:edit', log: '修改部门' }, schema: { body: deptBody, response: { 200: ok } } },
    async (req) => {
      if (!req.body.id) throw badRequest('部门ID不能为空');
      if (!(await exists(db, 'sys_dept', [req.body.id]))) throw notFound('部门不存在');
      await db
        .updateTable('sys_dept')
        .set(await deptValues(req.body, req.body.id))
        .where('id', '=', req.body.id)
        .execute();
      // A changed department code changes who counts as supervisor (deptCode 01).
      ctx.sessions.invalidate();
      return done();
    },
  );

  app.delete(
    '/api/dept',
    { config: { permission: 'dept:del', log: '删除部门' }, schema: { body: idList, response: { 200: ok } } },
    async (req) => {
      const rows = await db.selectFrom('sys_dept').select(['id', 'pid']).execute();
      const ids = [...subtreeIds(rows, req.body)];
      const used = await db.selectFrom('sys_user').select('id').where('dept_id', 'in', ids).where('status', '<>', 2).executeTakeFirst();
      if (used) throw badRequest('所选部门或其下级部门存在用户，请解除关联再试');
      await db.transaction().execute(async (trx) => {
        // Deleted accounts keep their rows; they lose the department they no longer belong to.
        await trx.updateTable('sys_user').set({ dept_id: null }).where('dept_id', 'in', ids).execute();
        // Leaves first: sys_dept.pid does not cascade.
        const depth = (id: number): number => {
          const p = rows.find((r) => r.id === id)?.pid;
          return p == null ? 0 : 1 + depth(p);
        };
        for (const d of ids.sort((a, b) => depth(b) - depth(a))) await trx.deleteFrom('sys_dept').where('id', '=', d).execute();
      });
      return done('删除成功');
    },
  );

  // ─── Roles ────────────────────────────────────────────────────────────────────────────────

  app.get(
    '/api/roles',
    { schema: { querystring: z.object({ ...pageQuery, blurry: z.string().optional() }), response: { 200: page(roleItem) } } },
    async (req) => {
      const sort = parseSort(req.query.sort, { id: 'id', name: 'name', level: 'level', createTime: 'create_time' }, [
        ['level', 'asc'],
        ['id', 'asc'],
      ]);
      // The low-code engine asks for "all roles" as page=1&size=9999 (lowcode-engine.md §7) while pages
      // are 0-based elsewhere: a full-list size (≥ 999, core-platform.md §9) returns every role.
      const full = (req.query.size ?? 0) >= 999;
      const { limit, offset } = full ? { limit: req.query.size ?? 9999, offset: 0 } : pageParams(req.query.page, req.query.size);
      let q = db.selectFrom('sys_role');
      const b = req.query.blurry?.trim();
      if (b) q = q.where('name', 'ilike', containing(b));
      const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      let listQ = q.selectAll();
      for (const [col, dir] of sort) listQ = listQ.orderBy(sql.ref(col), dir);
      const rows = await listQ.limit(limit).offset(offset).execute();
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
        totalElements: Number(total.n),
      };
    },
  );

  const setRoleMenus = async (trx: Kysely<DB>, roleId: number, menus: { id: number }[] | undefined) => {
    if (!menus) return;
    const ids = [...new Set(menus.map((m) => m.id))];
    if (!(await exists(trx, 'sys_menu', ids))) throw badRequest('菜单不存在');
    await trx.deleteFrom('sys_roles_menus').where('role_id', '=', roleId).execute();
    if (ids.length)
      await trx
        .insertInto('sys_roles_menus')
        .values(ids.map((menu_id) => ({ role_id: roleId, menu_id })))
        .execute();
  };

  const roleValues = async (body: z.infer<typeof roleBody>, currentId: number | null) => {
    const name = (body.name ?? '').trim();
    if (!name) throw badRequest('角色名称不能为空');
    let dup = db.selectFrom('sys_role').select('id').where('name', '=', name);
    if (currentId !== null) dup = dup.where('id', '<>', currentId);
    if (await dup.executeTakeFirst()) throw badRequest('角色名称已存在');
    return {
      name,
      level: body.level ?? 3,
      description: trimmed(body.description),
      data_scope: body.dataScope?.trim() || '本级',
    };
  };

  app.post(
    '/api/roles',
    { config: { permission: 'role:add', log: '新增角色' }, schema: { body: roleBody, response: { 201: z.object({ id: z.number() }) } } },
    async (req, reply) => {
      const values = await roleValues(req.body, null);
      const roleId = await db.transaction().execute(async (trx) => {
        const row = await trx.insertInto('sys_role').values(values).returning('id').executeTakeFirstOrThrow();
        await setRoleMenus(trx, row.id, req.body.menus);
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
      const roleId = req.body.id;
      if (!roleId) throw badRequest('角色ID不能为空');
      if (!(await exists(db, 'sys_role', [roleId]))) throw notFound('角色不存在');
      const values = await roleValues(req.body, roleId);
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('sys_role').set(values).where('id', '=', roleId).execute();
        await setRoleMenus(trx, roleId, req.body.menus);
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
      if (!(await exists(db, 'sys_role', [req.body.id]))) throw notFound('角色不存在');
      await db.transaction().execute((trx) => setRoleMenus(trx, req.body.id, req.body.menus));
      ctx.sessions.invalidate();
      return done();
    },
  );

  app.delete(
    '/api/roles',
    { config: { permission: 'role:del', log: '删除角色' }, schema: { body: idList, response: { 200: ok } } },
    async (req) => {
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
