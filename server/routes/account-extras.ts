import { sql } from 'kysely';
import { z } from 'zod';
import { formatDate } from '../../src/shared/format.js';
import { assertManageableUsers } from '../access/levels.js';
import { assertUsersWithin } from '../access/tenancy.js';
import type { App } from '../app.js';
import { currentUser, hashPassword } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import { checkPasswordChange, DEFAULT_USER_PASSWORD, findUser, PASSWORD_MAX_AGE_DAYS, saveOwnPassword } from '../lib/accounts-users.js';
import { field } from '../lib/admin-input.js';
import { parseBody } from '../lib/body.js';
import { filesRoot } from '../lib/files.js';
import { answers, ok } from '../lib/route.js';
import { dbId } from '../lib/sql.js';
import { answeringLock, LoginGuard } from '../login-guard.js';

/**
 * The rest of an account's own calls: the avatar, and the password calls of the expired-password flow
 * (check, save) and of administrators (reset). Password rules are the ones updatePass applies.
 */

const userIds = z.array(dbId, { message: '请选择用户' }).min(1, '请选择用户');

/** Users to reset: `[1, 2]`, `{ ids: [1, 2] }` or `{ id: 1 }`. */
function resetIds(body: unknown): number[] {
  const b = body as { ids?: unknown; id?: unknown } | null;
  const raw = Array.isArray(body) ? body : b && typeof b === 'object' ? (b.ids ?? (b.id === undefined ? undefined : [b.id])) : undefined;
  return [...new Set(parseBody(userIds, raw))];
}

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;
  const _root = filesRoot(ctx);

  app.get(
    '/api/pwd/check',
    answers(
      { session: true, pending: true },
      z.object({
        pwdExpired: z.boolean(),
        lastPasswordResetDate: z.string().nullable(),
        maxAgeDays: z.number(),
        daysLeft: z.number().nullable(),
      }),
    ),
    async (req) => {
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
  );

  // The expired-password dialog: old, new and confirmation; the user signs in again afterwards.
  app.post(
    '/api/pwd/save',
    answers({ session: true, pending: true, log: '修改密码' }, ok, {
      body: z.object({ oldPass: field, newPass: field, confirmPass: field }).nullish(),
    }),
    async (req, reply) => {
      const me = currentUser(req);
      const { newPlain } = await answeringLock(reply, () => checkPasswordChange(ctx, me.id, req.body ?? {}, req.ip));
      await saveOwnPassword(ctx, me.id, newPlain);
      return { status: 200, message: '密码修改成功，请重新登录' };
    },
  );

  // An administrator puts users back on the default password; they must change it at their next sign-in.
  app.post('/api/pwd/reset', answers({ permission: 'user:edit', log: '重置密码' }, ok.extend({ count: z.number() })), async (req) => {
    const ids = resetIds(req.body);
    // Only users the caller's data scope reaches (404 otherwise), at or below its level, and
    // administrators only by administrators.
    await assertUsersWithin(db, currentUser(req), ids);
    await assertManageableUsers(db, currentUser(req), ids);
    const password = await hashPassword(DEFAULT_USER_PASSWORD);
    const users = await db
      .updateTable('sys_user')
      .set({ password, pwd_reset_time: null, update_time: sql<Date>`now()` })
      .where('id', 'in', ids)
      .where('status', '<>', 2)
      .returning(['id', 'username'])
      .execute();
    if (!users.length) throw badRequest('USER_NOT_FOUND');
    for (const u of users) await ctx.sessions.destroyAllOf(u.id);
    // A reset is how an administrator lets a locked-out user back in.
    await LoginGuard.forget(
      db,
      users.map((u) => u.username),
    );
    return { status: 200, message: '密码已重置为默认密码，用户下次登录需修改密码', count: users.length };
  });
}
