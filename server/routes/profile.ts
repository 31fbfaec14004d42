import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import { z } from 'zod';
import type { App } from '../app.js';
import { currentUser, decryptPassword } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { assertPhoneFree, checkPasswordChange, checkPhone, EMAIL_RE, findUser, saveOwnPassword } from '../lib/accounts-users.js';
import { checkNickName, checkSex, done, field, optId, text } from '../lib/admin-input.js';
import { answers, ok } from '../lib/route.js';
import { answeringLock, attemptOf, loginGuard } from '../login-guard.js';

/** The signed-in user's own account: profile, password and e-mail. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  app.put(
    '/api/users/center',
    answers(
      {
        session: true,
        log: '修改个人信息',
      },
      ok,
      { body: z.object({ id: optId, nickName: text.optional(), phone: text.nullable().optional(), sex: text.nullable().optional() }) },
    ),
    async (req) => {
      const me = currentUser(req);
      if (req.body.id != null && req.body.id !== me.id) throw forbidden('PROFILE_OF_OTHERS');
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
      // A profile save says 保存成功, as the specification's catalogue has it.
      return done('保存成功');
    },
  );

  app.post(
    '/api/users/updatePass',
    answers({ session: true, pending: true, log: '修改密码' }, ok, {
      body: z.object({ oldPass: field, newPass: field, phone: field }).nullish(),
    }),
    async (req, reply) => {
      const me = currentUser(req);
      const { row, newPlain } = await answeringLock(reply, () => checkPasswordChange(ctx, me.id, req.body ?? {}, req.ip));
      // Only an administrator's password form has a phone field.
      let newPhone: string | undefined;
      if (row.is_admin) {
        newPhone = checkPhone(req.body?.phone);
        await assertPhoneFree(db, newPhone, me.id);
      }
      await saveOwnPassword(ctx, me.id, newPlain, newPhone ? { phone: newPhone } : {});
      return done('密码修改成功，请重新登录');
    },
  );

  app.get(
    '/api/users/updatePass/:x',
    answers({ session: true, pending: true }, z.object({ pwdExpired: z.boolean() }), { params: z.object({ x: z.string() }) }),
    async (req) => {
      const row = await findUser(db, currentUser(req).id);
      return { pwdExpired: row?.pwd_expired ?? false };
    },
  );

  app.post(
    '/api/code/resetEmail',
    answers({ session: true }, ok, {
      querystring: z.object({ email: text.optional() }),
      body: z.object({ type: z.string().optional(), value: text.optional(), email: text.optional() }).nullish(),
    }),
    async (req) => {
      const me = currentUser(req);
      const email = (req.query.email ?? req.body?.value ?? req.body?.email ?? '').trim();
      if (!email) throw badRequest('EMAIL_REQUIRED');
      if (!EMAIL_RE.test(email)) throw badRequest('EMAIL_INVALID');
      const recent = await db
        .selectFrom('sys_email_code')
        .select('id')
        .where('user_id', '=', me.id)
        .where('create_time', '>', sql<Date>`now() - interval '60 seconds'`)
        .executeTakeFirst();
      if (recent) throw badRequest('CODE_SENT_RECENTLY');
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
    answers(
      {
        session: true,
        log: '修改邮箱',
      },
      ok,
      { params: z.object({ code: z.string() }), body: z.object({ pass: field, password: field, email: field }) },
    ),
    async (req, reply) => {
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
      const stored = await db
        .updateTable('sys_email_code')
        .set({ used: true })
        .where('user_id', '=', me.id)
        .where('email', '=', email)
        .where('used', '=', false)
        .returning(['code', sql<boolean>`expires_at > now()`.as('valid')])
        .executeTakeFirst();
      if (!stored?.valid || stored.code !== req.params.code.trim()) throw badRequest('CODE_WRONG_OR_EXPIRED');
      await db.updateTable('sys_user').set({ email, update_time: sql<Date>`now()` }).where('id', '=', me.id).execute();
      return done('邮箱修改成功');
    },
  );
}
