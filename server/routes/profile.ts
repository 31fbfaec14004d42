import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import { z } from 'zod';
import type { App } from '../app.js';
import { currentUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import { EMAIL_RE } from '../lib/accounts-users.js';
import { done, text } from '../lib/admin-input.js';
import { answers, ok } from '../lib/route.js';

/** The signed-in user's own account: profile, password and e-mail. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

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
}
