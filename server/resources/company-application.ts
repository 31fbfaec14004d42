import { sql } from 'kysely';
import { companyApplications } from '../../src/contract/company-application.js';
import { HIDDEN_IN_NAMES } from '../../src/shared/person-rule.js';
import { APPLICATION_STATUS as APPLICATION, statusName } from '../../src/shared/statuses.js';
import { assertAssignableRoles } from '../access/levels.js';
import { assertRolesFitCompany, companyDepartment } from '../access/tenancy.js';
import type { App } from '../app.js';
import { currentUser, hashPassword } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { assertPhoneFree, DEFAULT_USER_PASSWORD, formatTime } from '../lib/accounts-users.js';
import { done, exists } from '../lib/admin-input.js';
import { consumeCaptcha } from '../lib/captcha.js';
import { companyNameTaken, nameLettersAllowed } from '../lib/company-names.js';
import { messageHtml } from '../lib/message-html.js';
import { paginate } from '../lib/paging.js';
import { regionPath } from '../lib/region-path.js';
import { containing } from '../lib/sql.js';
import { registerResource, writerOf } from './register.js';

const MOBILE = /^1[3-9]\d{9}$/;

/** 0 pending, 1 approved, 2 rejected (stored as numbers). */
export const APPLICATION_STATUS = {
  pending: Number(APPLICATION.codes.pending),
  approved: Number(APPLICATION.codes.approved),
  rejected: Number(APPLICATION.codes.rejected),
} as const;

/** The system message an approved applicant finds after signing in with the new account (the names as text). */
export const approvedMessage = (company: string, username: string) => ({
  title: messageHtml`企业入驻申请已通过`,
  content: messageHtml`您的企业“${company}”入驻申请已审核通过，登录账号为 ${username}，初始密码为平台默认密码，首次登录请修改密码。`,
});

/** Company applications: a company applies to join, and an administrator approves or rejects it. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  const pendingApplication = async (applicationId: number) => {
    const row = await db.selectFrom('company_application').selectAll().where('id', '=', applicationId).executeTakeFirst();
    if (!row) throw notFound('APPLICATION_NOT_FOUND');
    if (row.status !== APPLICATION_STATUS.pending) throw badRequest('APPLICATION_DECIDED');
    return row;
  };

  registerResource(app, companyApplications, {
    apply: async (req) => {
      const b = req.body;
      if (!b.name) throw badRequest('COMPANY_NAME_REQUIRED');
      if (b.name.length > 255) throw badRequest('COMPANY_NAME_TOO_LONG');
      if (HIDDEN_IN_NAMES.test(b.name)) throw badRequest('COMPANY_NAME_HIDDEN_CHARS');
      if (!nameLettersAllowed(b.name)) throw badRequest('COMPANY_NAME_LETTERS');
      if (!b.type) throw badRequest('COMPANY_TYPE_REQUIRED');
      if (!b.region) throw badRequest('COMPANY_REGION_REQUIRED');
      if (!b.applicant) throw badRequest('APPLICANT_REQUIRED');
      if (b.applicant.length > 100) throw badRequest('APPLICANT_TOO_LONG');
      // The applicant becomes the company's contact and its first account's nick name: the rule of names holds.
      if (HIDDEN_IN_NAMES.test(b.applicant)) throw badRequest('APPLICANT_HIDDEN_CHARS');
      if (!b.phone) throw badRequest('MOBILE_REQUIRED');
      if (!MOBILE.test(b.phone)) throw badRequest('MOBILE_INVALID');
      if (!b.code) throw badRequest('CAPTCHA_ENTRY_REQUIRED');
      await consumeCaptcha(db, b.uuid, b.code);
      // Asked again at approval: a name another company, the platform or a department of either goes by.
      if (await companyNameTaken(db, b.name)) throw badRequest('COMPANY_NAME_TAKEN');

      const type = await db
        .selectFrom('sys_dict_detail as d')
        .innerJoin('sys_dict as t', 't.id', 'd.dict_id')
        .select(['d.value', 'd.label'])
        .where('t.name', '=', 'companyType')
        .where('d.value', '=', b.type)
        .executeTakeFirst();
      if (!type) throw badRequest('COMPANY_TYPE_INVALID');

      // The region must be a real path down the tree to a district; its labels are the table's.
      const region = await regionPath(db, b.region);
      if (!region) throw badRequest('COMPANY_REGION_INVALID');
      if (!region.complete) throw badRequest('COMPANY_REGION_NOT_COUNTY');
      const codes = region.codes;
      const regionFmt = region.fmt;

      const pending = await db
        .selectFrom('company_application')
        .select('id')
        .where('name', '=', b.name)
        .where('status', '=', 0)
        .executeTakeFirst();
      if (pending) throw badRequest('APPLICATION_PENDING');
      try {
        await writerOf(req)
          .insertInto('company_application')
          .values({
            name: b.name,
            type: type.value,
            comtype: type.label,
            region: codes.join(','),
            region_fmt: regionFmt,
            applicant: b.applicant,
            phone: b.phone,
            source: 2,
          })
          .execute();
      } catch (e) {
        // A concurrent application for the same name lost the race on the partial unique index.
        if ((e as { code?: string }).code === '23505') throw badRequest('APPLICATION_PENDING');
        throw e;
      }
      return { status: 200 as const, message: '申请已经提交，请耐心等待' };
    },

    list: async (req) => {
      let q = db.selectFrom('company_application as a').leftJoin('sys_user as u', 'u.id', 'a.user_id');
      const b = req.query.blurry?.trim();
      if (b) {
        const like = containing(b);
        q = q.where((eb) => eb.or([eb('a.name', 'ilike', like), eb('a.applicant', 'ilike', like), eb('a.phone', 'ilike', like)]));
      }
      const status = req.query.status?.trim();
      if (status) {
        if (!/^[012]$/.test(status)) throw badRequest('APPLICATION_STATUS_INVALID');
        q = q.where('a.status', '=', Number(status));
      }
      const { content, totalElements } = await paginate(
        q,
        // Pending first (oldest waiting longest on top), then decided ones, latest first.
        (x) =>
          x
            .selectAll('a')
            .select('u.username')
            .orderBy(sql`a.status = 0`, 'desc')
            .orderBy(sql`case when a.status = 0 then a.create_time end`, 'asc')
            .orderBy('a.id', 'desc'),
        req.query,
      );
      return {
        content: content.map((r) => ({
          id: r.id,
          name: r.name,
          type: r.type,
          comtype: r.comtype,
          region: r.region,
          regionFmt: r.region_fmt,
          applicant: r.applicant,
          phone: r.phone,
          source: r.source,
          status: r.status,
          createTime: formatTime(r.create_time),
          reviewerName: r.reviewer_name,
          reviewTime: formatTime(r.review_time),
          reason: r.reason,
          companyId: r.company_id,
          userId: r.user_id,
          username: r.username ?? null,
        })),
        totalElements,
      };
    },

    // Approval creates the company and its first account (default password, to be changed at the first
    // sign-in), tells the account by a system message, and records the decision, in one transaction.
    approve: async (req) => {
      const me = currentUser(req);
      const appl = await pendingApplication(req.body.id);
      const username = (req.body.username ?? '').trim() || appl.phone;
      if (!/^[A-Za-z0-9_.@-]{2,50}$/.test(username)) throw badRequest('USERNAME_INVALID');
      if (await db.selectFrom('sys_user').select('id').where('username', '=', username).executeTakeFirst())
        throw badRequest('USERNAME_TAKEN');
      await assertPhoneFree(db, appl.phone, null);
      if (await companyNameTaken(db, appl.name)) throw badRequest('COMPANY_EXISTS');
      // Approval makes a company: only a manager of 全部 approves, and the account sits in the new
      // company's own department, never in one of the platform's or another company's.
      if (!me.dataScope.all) throw forbidden('SCOPE_ALL_ONLY');
      if ((req.body.deptId ?? null) !== null) throw badRequest('DEPT_OTHER_COMPANY');
      const roleIds = [...new Set((req.body.roles ?? []).map((r) => r.id))];
      if (!roleIds.length) throw badRequest('ROLE_REQUIRED');
      if (!(await exists(db, 'sys_role', roleIds))) throw badRequest('ROLE_NOT_FOUND');
      await assertAssignableRoles(db, me, roleIds);
      // A company that does not exist yet owns no role: only the platform's roles are given.
      await assertRolesFitCompany(db, roleIds, null);
      const permission = req.body.permission?.trim() || null;
      const password = await hashPassword(DEFAULT_USER_PASSWORD);
      const message = approvedMessage(appl.name, username);
      const result = await writerOf(req)
        .transaction()
        .execute(async (trx) => {
          const decided = await trx
            .updateTable('company_application')
            .set({ status: APPLICATION_STATUS.approved, reviewer_id: me.id, reviewer_name: me.nickName, review_time: sql<Date>`now()` })
            .where('id', '=', appl.id)
            .where('status', '=', APPLICATION_STATUS.pending)
            .returning('id')
            .executeTakeFirst();
          // Another reviewer decided it between the read and this write.
          if (!decided) throw badRequest('APPLICATION_DECIDED');
          const company = await trx
            .insertInto('company')
            .values({
              name: appl.name,
              type: appl.type,
              region: appl.region,
              region_fmt: appl.region_fmt,
              contact_name: appl.applicant,
              contact_phone: appl.phone,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          const deptId = await companyDepartment(trx, company.id);
          const user = await trx
            .insertInto('sys_user')
            .values({
              username,
              nick_name: appl.applicant.slice(0, 20),
              phone: appl.phone,
              dept_id: deptId,
              company_id: company.id,
              permission,
              password,
              pwd_reset_time: null,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await trx
            .insertInto('sys_users_roles')
            .values(roleIds.map((role_id) => ({ user_id: user.id, role_id })))
            .execute();
          await trx
            .insertInto('sys_message')
            .values({ user_id: user.id, ...message })
            .execute();
          await trx
            .updateTable('company_application')
            .set({ company_id: company.id, user_id: user.id })
            .where('id', '=', appl.id)
            .execute();
          return { companyId: company.id, userId: user.id };
        });
      ctx.sessions.invalidate();
      ctx.realtime.push(result.userId, { sender: 'system', reception: username, body: { noticeInfo: message.title }, flag: 'sysMessage' });
      return { ...done('审核通过，已创建企业和账号'), ...result, username };
    },

    reject: async (req) => {
      const me = currentUser(req);
      const reason = (req.body.reason ?? '').trim();
      if (!reason) throw badRequest('REJECT_REASON_REQUIRED');
      if (reason.length > 500) throw badRequest('REJECT_REASON_TOO_LONG');
      await pendingApplication(req.body.id);
      const decided = await writerOf(req)
        .updateTable('company_application')
        .set({ status: APPLICATION_STATUS.rejected, reviewer_id: me.id, reviewer_name: me.nickName, review_time: sql<Date>`now()`, reason })
        .where('id', '=', req.body.id)
        .where('status', '=', APPLICATION_STATUS.pending)
        .returning('id')
        .executeTakeFirst();
      if (!decided) throw badRequest('APPLICATION_DECIDED');
      return done(statusName(APPLICATION, 'rejected'));
    },
  });
}
