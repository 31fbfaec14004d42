import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { z } from 'zod';
import { type loginBody, session } from '../../src/contract/session.js';
import type { App } from '../app.js';
import { currentUser, decryptPassword } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, forbidden, unauthorized } from '../errors.js';
import { findUser, selectUsers, toUserInfo, type UserRow } from '../lib/accounts-users.js';
import { consumeCaptcha, issueCaptcha } from '../lib/captcha.js';
import { fillingSystemCompany } from '../lib/filling-system.js';
import { answeringLock, attemptOf, loginGuard } from '../login-guard.js';
import { registerResource, writerOf } from './register.js';

/** The cookie a proxy may route by (see routeCookie). */
const ROUTE_COOKIE = 'wastegen_route';

/** The session: initialisation, captcha, public key, login, the account's information, logout and the entry agreement. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db, config } = ctx;
  const guard = loginGuard(ctx);
  // Per IP, on this instance: login and login1 share one allowance; the captcha has its own.
  const loginLimit = app.rateLimit({ max: config.loginRateMax, timeWindow: config.loginRateWindowMs });
  const loginRate = async (req: FastifyRequest, reply: FastifyReply) => loginLimit.call(app, req, reply);

  const isInited = async () =>
    !!(await db.selectFrom('sys_setting').select('value').where('name', '=', 'inited').where('value', '=', '1').executeTakeFirst());

  /**
   * A hint for a proxy in front of several instances, never read by the server: the signed-in account's
   * company, so that one company's calls go to one instance, whose list cache and rows in memory then
   * serve that company's scope (see docs/deploy.md, the proxy). Empty: signed out.
   */
  const routeCookie = (req: FastifyRequest, value: string) =>
    `${ROUTE_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax${req.protocol === 'https' ? '; Secure' : ''}${value ? '' : '; Max-Age=0'}`;

  const signIn = async (req: FastifyRequest, row: UserRow, remember: boolean) => {
    const token = await ctx.sessions.create(row.id, req, remember);
    // The operation-log hook records whoever req.user is; the session just created is that user.
    req.user = await ctx.sessions.authenticate(token);
    const user = toUserInfo(row);
    if (!row.agreement_accepted) {
      return { status: 10001, message: '请先阅读并同意入驻协议', token, user };
    }
    return { status: 200, token, user, roles: req.user.roles };
  };

  const login = async (body: z.infer<typeof loginBody>, req: FastifyRequest, reply: FastifyReply) => {
    const { username = '', password = '', code = '', uuid = '', rememberMe = '' } = body ?? {};
    if (!username.trim()) throw badRequest('USERNAME_REQUIRED');
    if (!password) throw badRequest('PASSWORD_REQUIRED');
    if (!code.trim()) throw badRequest('CAPTCHA_REQUIRED');
    await consumeCaptcha(db, uuid, code);
    const plain = decryptPassword(ctx.secrets, password);
    const attempt = attemptOf(req, username);
    return answeringLock(reply, async () => {
      // A locked name refuses even the right password from that address; known and unknown names lock alike.
      await guard.assertOpen(attempt);
      const row = await selectUsers(db).where('u.username', '=', username.trim()).where('u.status', '<>', 2).executeTakeFirst();
      // Unknown user and wrong password answer alike, in about the same time, so the form cannot be used to probe for accounts.
      const valid = await guard.verify(plain, row?.password);
      if (!row || !valid) {
        await guard.failed(attempt);
        throw badRequest('LOGIN_FAILED');
      }
      if (row.status === 1) throw badRequest('ACCOUNT_INACTIVE');
      await guard.succeeded(attempt);
      const signed = await signIn(req, row, ['true', '1', 'on'].includes(rememberMe.trim().toLowerCase()));
      reply.header('set-cookie', routeCookie(req, `c${row.company_id ?? 0}`));
      return signed;
    });
  };

  registerResource(
    app,
    session,
    {
      initCheck: async () => ({ status: 200, data: { inited: await isInited() } }),

      init: async (req) => {
        // Once initialised, the settings are the administrators' business, not an anonymous caller's.
        if (await isInited()) throw forbidden('SYSTEM_INITIALISED');
        await writerOf(req)
          .transaction()
          .execute(async (trx) => {
            for (const [name, value] of [
              ['system_name', req.body.systemName],
              ['inited', '1'],
            ] as const) {
              await trx
                .insertInto('sys_setting')
                .values({ name, value })
                .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
                .execute();
            }
          });
        return { status: 200, message: '初始化成功' };
      },

      captcha: async () => issueCaptcha(db, ctx.config.captchaFixed),

      publicKey: async (_req, reply) => reply.type('text/plain; charset=utf-8').send(ctx.secrets.rsaPublicPem),

      login: async (req, reply) => login(req.body, req, reply),
      login1: async (req, reply) => login(req.body, req, reply),

      info: async (req) => {
        const me = currentUser(req);
        const row = await findUser(db, me.id);
        if (!row) throw unauthorized();
        const company = row.company_id
          ? await db
              .selectFrom('company')
              .select(['id', 'name', 'type', 'region_fmt', 'address', 'dept_code'])
              .where('id', '=', row.company_id)
              .executeTakeFirst()
          : undefined;
        return {
          user: toUserInfo(row),
          roles: me.roles,
          company: company
            ? {
                id: company.id,
                name: company.name,
                type: company.type,
                regionFmt: company.region_fmt,
                address: company.address,
                deptCode: company.dept_code,
              }
            : null,
        };
      },

      logout: async (req, reply) => {
        await ctx.sessions.destroy(currentUser(req).sessionId);
        reply.header('set-cookie', routeCookie(req, ''));
        return { status: 200, message: '退出成功' };
      },

      enter: async (req) => {
        const me = currentUser(req);
        // The agreement is accepted for the account it names: its department's code, or an authorisation
        // code this server issued to the filling system for the account's company.
        const code = req.query.code?.trim();
        const deptCode = req.query.deptCode?.trim();
        if (code) {
          const companyId = await fillingSystemCompany(ctx, code);
          if (companyId === null || companyId !== me.companyId) throw badRequest('ENTRY_CODE_INVALID');
        } else if (deptCode) {
          if (deptCode !== me.deptCode) throw badRequest('ENTRY_DEPT_MISMATCH');
        } else throw badRequest('ENTRY_CODE_REQUIRED');
        const changed = await writerOf(req)
          .updateTable('sys_user')
          .set({ agreement_accepted: true, update_time: sql<Date>`now()` })
          .where('id', '=', me.id)
          .where('agreement_accepted', '=', false)
          .executeTakeFirst();
        // Every instance reads the account again, so the calls the agreement held back open at once.
        if (Number(changed.numUpdatedRows) > 0) ctx.sessions.invalidate();
        return { status: 200, message: Number(changed.numUpdatedRows) > 0 ? '入驻成功' : '已入驻' };
      },
    },
    {
      login: { onRequest: loginRate },
      login1: { onRequest: loginRate },
      captcha: { config: { rateLimit: { max: config.captchaRateMax, timeWindow: config.loginRateWindowMs } } },
    },
  );
}
