import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { z } from 'zod';
import { type userBody, users, type userWithRoles } from '../../src/contract/users.js';
import { assertAssignableRoles, assertManageableUsers, rolesOfUsers } from '../access/levels.js';
import {
  assertAccountsAsJudged,
  assertGrantableRoles,
  assertRolesFitCompany,
  assertUsersRolesManageable,
  assertUsersWithin,
  companiesOfDepts,
  holdDepts,
  judgedAccounts,
  placeUser,
  subtree,
  usersWithin,
} from '../access/tenancy.js';
import type { App } from '../app.js';
import { currentUser, decryptPassword, hashPassword, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import {
  assertPhoneFree,
  checkPasswordChange,
  checkPhone,
  DEFAULT_USER_PASSWORD,
  EMAIL_RE,
  findUser,
  parseSort,
  saveOwnPassword,
  selectUsers,
  toUserInfo,
  type UserRow,
} from '../lib/accounts-users.js';
import { asEnabled, checkEmail, checkNickName, checkSex, done, exists, trimmed } from '../lib/admin-input.js';
import { filesRoot } from '../lib/files.js';
import { namedTable } from '../lib/named-table.js';
import { paginate } from '../lib/paging.js';
import { containing } from '../lib/sql.js';
import { answeringLock, attemptOf, loginGuard } from '../login-guard.js';
import { registerResource, writerOf, writingContext } from './register.js';

const AVATAR_TYPES: Record<string, { type: string; magic: number[] }> = namedTable({
  png: { type: 'image/png', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  jpg: { type: 'image/jpeg', magic: [0xff, 0xd8, 0xff] },
});

/**
 * User accounts: the administrators' list and form (add, edit, delete, search, companies) and each
 * account's own profile, password, e-mail, avatar and the personal centre's cities.
 */
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
    if (!ids.length) return;
    // The roles are held (shared) until the account is written: one deleted meanwhile is not found.
    const held = await sql<{ id: number }>`select id from sys_role where id in (${sql.join(ids)}) order by id for share`.execute(trx);
    if (held.rows.length !== ids.length) throw badRequest('ROLE_NOT_FOUND');
    await trx
      .insertInto('sys_users_roles')
      .values(ids.map((role_id) => ({ user_id: userId, role_id })))
      .execute();
  };

  const root = filesRoot(ctx);

  registerResource(app, users, {
    list: async (req) => {
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
    add: async (req, reply) => {
      const me = currentUser(req);
      const values = await userValues(me, req.body, null);
      // New accounts start with the default password and no reset time, so the first login asks for a change.
      const password = await hashPassword(DEFAULT_USER_PASSWORD);
      const newId = await writerOf(req)
        .transaction()
        .execute(async (trx) => {
          // The account's department is held until it is written: one deleted meanwhile is not found.
          if (values.dept_id != null) await holdDepts(trx, [values.dept_id], 'DEPT_NOT_FOUND');
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
    edit: async (req) => {
      const me = currentUser(req);
      if (!req.body.id) throw badRequest('USER_ID_REQUIRED');
      const current = await findUser(db, req.body.id);
      if (!current) throw notFound('USER_NOT_FOUND');
      // What the checks below judge; the write holds only while it is so.
      const judged = await judgedAccounts(db, [current.id]);
      await assertUsersWithin(db, me, [current.id]);
      if (current.is_admin && !me.isAdmin) throw forbidden('ADMIN_NOT_EDITABLE');
      await assertManageableUsers(db, me, [current.id]);
      await assertUsersRolesManageable(db, me, [current.id]);
      const values = await userValues(me, req.body, current);
      await writerOf(req)
        .transaction()
        .execute(async (trx) => {
          await assertAccountsAsJudged(trx, judged);
          if (values.dept_id != null) await holdDepts(trx, [values.dept_id], 'DEPT_NOT_FOUND');
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
    remove: async (req) => {
      const me = currentUser(req);
      const ids = [...new Set(req.body)];
      if (ids.includes(me.id)) throw badRequest('CANNOT_DELETE_SELF');
      const rows = await db.selectFrom('sys_user').select(['id', 'is_admin']).where('id', 'in', ids).where('status', '<>', 2).execute();
      if (rows.length !== ids.length) throw notFound('USER_NOT_FOUND');
      const judged = await judgedAccounts(db, ids, { stateFree: me });
      await assertUsersWithin(db, me, ids);
      if (!me.isAdmin && rows.some((r) => r.is_admin)) throw forbidden('ADMIN_NOT_DELETABLE');
      await assertManageableUsers(db, me, ids);
      await assertUsersRolesManageable(db, me, ids);
      // Soft delete: the operation log and business records keep pointing at the account.
      await writerOf(req)
        .transaction()
        .execute(async (trx) => {
          await assertAccountsAsJudged(trx, judged);
          await trx.updateTable('sys_user').set({ status: 2, update_time: sql<Date>`now()` }).where('id', 'in', ids).execute();
        });
      for (const uid of ids) await ctx.sessions.destroyAllOf(uid);
      ctx.sessions.invalidate();
      return done('删除成功');
    },
    search: async (req) => {
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
    companies: async (req) => {
      const me = currentUser(req);
      let q = db.selectFrom('company').select(['id', 'name']);
      // A manager without 全部 places accounts in its own company only, whatever part of it its scope reaches.
      if (!me.dataScope.all) q = q.where('id', '=', me.companyId ?? -1);
      const b = req.query.blurry?.trim();
      if (b) q = q.where('name', 'ilike', containing(b));
      return q.orderBy('name').orderBy('id').limit(50).execute();
    },
    saveProfile: async (req) => {
      const me = currentUser(req);
      if (req.body.id != null && req.body.id !== me.id) throw forbidden('PROFILE_OF_OTHERS');
      const nick_name = checkNickName(req.body.nickName);
      const phone = checkPhone(req.body.phone);
      await assertPhoneFree(db, phone, me.id);
      const sex = req.body.sex === undefined ? undefined : checkSex(req.body.sex);
      await writerOf(req)
        .updateTable('sys_user')
        .set({ nick_name, phone, ...(sex === undefined ? {} : { sex }), update_time: sql<Date>`now()` })
        .where('id', '=', me.id)
        .execute();
      ctx.sessions.invalidate();
      // A profile save says 保存成功, as the specification's catalogue has it.
      return done('保存成功');
    },
    changePassword: async (req, reply) => {
      const me = currentUser(req);
      const { row, newPlain } = await answeringLock(reply, () => checkPasswordChange(ctx, me.id, req.body ?? {}, req.ip));
      // Only an administrator's password form has a phone field.
      let newPhone: string | undefined;
      if (row.is_admin) {
        newPhone = checkPhone(req.body?.phone);
        await assertPhoneFree(db, newPhone, me.id);
      }
      await saveOwnPassword(writingContext(ctx, req), me.id, newPlain, newPhone ? { phone: newPhone } : {});
      return done('密码修改成功，请重新登录');
    },
    passwordExpired: async (req) => {
      const row = await findUser(db, currentUser(req).id);
      return { pwdExpired: row?.pwd_expired ?? false };
    },
    changeEmail: async (req, reply) => {
      const me = currentUser(req);
      const email = (req.body.email ?? '').trim();
      if (!email) throw badRequest('NEW_EMAIL_REQUIRED');
      if (!EMAIL_RE.test(email)) throw badRequest('EMAIL_INVALID');
      const row = await findUser(db, me.id);
      if (!row) throw notFound('USER_NOT_FOUND');
      if (row.email && row.email.toLowerCase() === email.toLowerCase()) throw badRequest('EMAIL_UNCHANGED');
      const pass = req.body.pass ?? req.body.password ?? '';
      if (!pass) throw badRequest('CURRENT_PASSWORD_REQUIRED');
      const plain = decryptPassword(ctx.secrets, pass);
      // The account's password, checked under its login lock: a wrong one counts as a failed login from this address.
      if (!(await answeringLock(reply, () => loginGuard(ctx).check(attemptOf(req, row.username), plain, row.password))))
        throw badRequest('PASSWORD_WRONG');
      // The code is used up by this attempt whether or not it matches: no guessing against one code.
      const stored = await writerOf(req)
        .updateTable('sys_email_code')
        .set({ used: true })
        .where('user_id', '=', me.id)
        .where('email', '=', email)
        .where('used', '=', false)
        .returning(['code', sql<boolean>`expires_at > now()`.as('valid')])
        .executeTakeFirst();
      if (!stored?.valid || stored.code !== req.params.code.trim()) throw badRequest('CODE_WRONG_OR_EXPIRED');
      await writerOf(req).updateTable('sys_user').set({ email, update_time: sql<Date>`now()` }).where('id', '=', me.id).execute();
      return done('邮箱修改成功');
    },
    changeAvatar: async (req) => {
      const me = currentUser(req);
      if (!req.isMultipart()) throw badRequest('MULTIPART_REQUIRED');
      let image: { data: Buffer; ext: string; name: string } | null = null;
      for await (const part of req.parts()) {
        if (part.type !== 'file') continue;
        if (image || !part.filename) {
          part.file.resume();
          continue;
        }
        const data = await part.toBuffer();
        if (part.file.truncated) throw badRequest('FILE_TOO_LARGE');
        const ext = part.filename.split('.').pop()?.toLowerCase() ?? '';
        const kind = ext === 'jpeg' ? 'jpg' : ext;
        // Own keys only: a file named `x.constructor` must not find Object's members.
        const spec = Object.hasOwn(AVATAR_TYPES, kind) ? AVATAR_TYPES[kind] : undefined;
        if (!spec?.magic.every((b, i) => data[i] === b)) throw badRequest('AVATAR_TYPE_NOT_ALLOWED');
        image = { data, ext: kind, name: part.filename.split(/[\\/]/).pop()!.slice(-200) };
      }
      if (!image) throw badRequest('AVATAR_REQUIRED');
      const now = new Date();
      const dir = `${now.getFullYear()}/${String(now.getMonth() + 1).padStart(2, '0')}`;
      const filePath = `${dir}/${randomBytes(12).toString('hex')}.${image.ext}`;
      await mkdir(join(root, dir), { recursive: true });
      await writeFile(join(root, filePath), image.data, { flag: 'wx' });
      await writerOf(req)
        .transaction()
        .execute(async (trx) => {
          await trx
            .insertInto('file_record')
            .values({
              file_path: filePath,
              file_name: image.name,
              column_name: 'avatar',
              content_type: AVATAR_TYPES[image.ext]!.type,
              size: image.data.length,
              user_id: me.id,
              company_id: me.companyId,
            })
            .execute();
          await trx.updateTable('sys_user').set({ avatar: filePath, update_time: sql<Date>`now()` }).where('id', '=', me.id).execute();
        });
      return { status: 200, message: '头像修改成功', avatar: filePath };
    },
    centerCities: async (req) => {
      const me = currentUser(req);
      const own = await db
        .selectFrom('sys_user as u')
        .innerJoin('company as c', 'c.id', 'u.company_id')
        .select(sql<string>`split_part(c.region, ',', 1)`.as('code'))
        .where('u.id', '=', me.id)
        .where('c.region', 'is not', null)
        .executeTakeFirst();
      let provinceCode = own?.code || null;
      if (!provinceCode) {
        const busiest = await db
          .selectFrom('company')
          .select(sql<string>`split_part(region, ',', 1)`.as('code'))
          .where('status', '=', 1)
          .where('region', 'is not', null)
          .groupBy(sql`split_part(region, ',', 1)`)
          .orderBy(sql`count(*)`, 'desc')
          .orderBy(sql`split_part(region, ',', 1)`)
          .executeTakeFirst();
        provinceCode = busiest?.code || null;
      }
      const province = provinceCode
        ? await db.selectFrom('region').select(['code', 'name']).where('code', '=', provinceCode).where('level', '=', 1).executeTakeFirst()
        : undefined;
      if (!province) return { province: null, cities: [] };
      const rows = await db
        .selectFrom('region as r')
        .leftJoin('company as c', (j) =>
          j.on('c.status', '=', 1).on(sql<boolean>`split_part(c.region, ',', 2) = r.code and split_part(c.region, ',', 1) = r.parent_code`),
        )
        .select(['r.code', 'r.name', sql<number>`count(c.id)::int`.as('companies')])
        .where('r.parent_code', '=', province.code)
        .groupBy(['r.code', 'r.name'])
        .orderBy(sql`count(c.id)`, 'desc')
        .orderBy('r.code')
        .execute();
      return { province, cities: rows.map((r) => ({ code: r.code, name: r.name, companies: Number(r.companies) })) };
    },
  });
}
