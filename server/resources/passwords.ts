import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import { z } from 'zod';
import { passwords } from '../../src/contract/passwords.js';
import { formatDate } from '../../src/shared/format.js';
import { assertManageableUsers } from '../access/levels.js';
import { assertAccountsAsJudged, assertUsersRolesManageable, assertUsersWithin, judgedAccounts } from '../access/tenancy.js';
import type { App } from '../app.js';
import { currentUser, hashPassword } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import {
  checkPasswordChange,
  DEFAULT_USER_PASSWORD,
  EMAIL_RE,
  findUser,
  PASSWORD_MAX_AGE_DAYS,
  saveOwnPassword,
} from '../lib/accounts-users.js';
import { done } from '../lib/admin-input.js';
import { parseBody } from '../lib/body.js';
import { dbId } from '../lib/sql.js';
import { answeringLock, LoginGuard } from '../login-guard.js';
import { registerResource, writerOf, writingContext } from './register.js';

const userIds = z.array(dbId, { message: '请选择用户' }).min(1, '请选择用户');

/** Users to reset: `[1, 2]`, `{ ids: [1, 2] }` or `{ id: 1 }`. */
function resetIds(body: unknown): number[] {
  const b = body as { ids?: unknown; id?: unknown } | null;
  const raw = Array.isArray(body) ? body : b && typeof b === 'object' ? (b.ids ?? (b.id === undefined ? undefined : [b.id])) : undefined;
  return [...new Set(parseBody(userIds, raw))];
}

/**
 * The password calls of the expired-password flow (check, save) and of administrators (reset), and the
 * code an e-mail change needs. Password rules are the ones updatePass applies.
 */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  registerResource(app, passwords, {
    check: async (req) => {
      const row = await findUser(db, currentUser(req).id);
      const last = row?.pwd_reset_time ?? null;
      const daysLeft = last ? Math.max(0, PASSWORD_MAX_AGE_DAYS - Math.floor((Date.now() - last.getTime()) / 86_400_000)) : null;
      return {
        pwdExpired: row?.pwd_expired ?? true,
        lastPasswordResetDate: last ? formatDate(last, 'YYYY-MM-DD HH:mm:ss') : null,
        maxAgeDays: PASSWORD_MAX_AGE_DAYS,
        daysLeft,
      };
    },
    // The expired-password dialog: old, new and confirmation; the user signs in again afterwards.
    save: async (req, reply) => {
      const me = currentUser(req);
      const { newPlain } = await answeringLock(reply, () => checkPasswordChange(ctx, me.id, req.body ?? {}, req.ip));
      await saveOwnPassword(writingContext(ctx, req), me.id, newPlain);
      return { status: 200, message: '密码修改成功，请重新登录' };
    },
    // An administrator puts users back on the default password; they must change it at their next sign-in.
    reset: async (req) => {
      const ids = resetIds(req.body);
      // Only users the caller's data scope reaches (404 otherwise), at or below its level, holding only
      // roles it could give, and administrators only by administrators.
      const judged = await judgedAccounts(db, ids, { stateFree: currentUser(req) });
      await assertUsersWithin(db, currentUser(req), ids);
      await assertManageableUsers(db, currentUser(req), ids);
      await assertUsersRolesManageable(db, currentUser(req), ids);
      const password = await hashPassword(DEFAULT_USER_PASSWORD);
      // Only while the accounts are as judged: one moved to another company meanwhile is a conflict.
      const users = await writerOf(req)
        .transaction()
        .execute(async (trx) => {
          await assertAccountsAsJudged(trx, judged);
          return trx
            .updateTable('sys_user')
            .set({ password, pwd_reset_time: null, update_time: sql<Date>`now()` })
            .where('id', 'in', ids)
            .where('status', '<>', 2)
            .returning(['id', 'username'])
            .execute();
        });
      if (!users.length) throw badRequest('USER_NOT_FOUND');
      for (const u of users) await ctx.sessions.destroyAllOf(u.id);
      // A reset is how an administrator lets a locked-out user back in.
      await LoginGuard.forget(
        db,
        users.map((u) => u.username),
      );
      return { status: 200, message: '密码已重置为默认密码，用户下次登录需修改密码', count: users.length };
    },
    sendEmailCode: async (req) => {
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
      await writerOf(req)
        .transaction()
        .execute(async (trx) => {
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
  });
}
