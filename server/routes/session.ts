import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import type { App } from '../app.js';
import { currentUser, decryptPassword } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, forbidden, unauthorized } from '../errors.js';
import { findUser, selectUsers, toUserInfo, type UserRow, userInfoSchema } from '../lib/accounts-users.js';
import { consumeCaptcha, issueCaptcha } from '../lib/captcha.js';
import { answers, ok } from '../lib/route.js';
import { nullableText } from '../lib/sql.js';
import { answeringLock, attemptOf, loginGuard } from '../login-guard.js';
import { fillingSystemCompany } from './filling-system.js';

/** Form fields arrive as strings, JSON ones may be numbers. */
const field = z.union([z.string(), z.number(), z.boolean()]).transform(String).optional();

const loginBody = z.object({ username: field, password: field, code: field, uuid: field, rememberMe: field }).nullish();

const companySchema = z
  .object({
    id: z.number(),
    name: z.string(),
    type: z.string(),
    ...nullableText('regionFmt', 'address', 'deptCode'),
  })
  .nullable();

/** The cookie a proxy may route by (see routeCookie). */
const ROUTE_COOKIE = 'wastegen_route';

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db, config } = ctx;
  const guard = loginGuard(ctx);
  // Per IP, on this instance: login and login1 share one allowance; the captcha has its own.
  const loginLimit = app.rateLimit({ max: config.loginRateMax, timeWindow: config.loginRateWindowMs });
  const loginRate = (req: FastifyRequest, reply: FastifyReply) => loginLimit.call(app, req, reply);

  const isInited = async () =>
    !!(await db.selectFrom('sys_setting').select('value').where('name', '=', 'inited').where('value', '=', '1').executeTakeFirst());

  app.get(
    '/api/init/check',
    answers({ public: true }, z.object({ status: z.number(), data: z.object({ inited: z.boolean() }) })),
    async () => ({ status: 200, data: { inited: await isInited() } }),
  );

  app.post(
    '/api/init',
    answers({ public: true }, ok, { body: z.object({ systemName: z.string().trim().min(1, '请输入系统名称').max(100, '系统名称过长') }) }),
    async (req) => {
      // Once initialised, the settings are the administrators' business, not an anonymous caller's.
      if (await isInited()) throw forbidden('SYSTEM_INITIALISED');
      await db.transaction().execute(async (trx) => {
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
  );

  app.get(
    '/api/auth/code',
    answers(
      { public: true, rateLimit: { max: config.captchaRateMax, timeWindow: config.loginRateWindowMs } },
      z.object({ img: z.string(), uuid: z.string() }),
    ),
    async () => issueCaptcha(db, ctx.config.captchaFixed),
  );

  app.get('/api/auth/publicKey', { config: { public: true } }, async (_req, reply) =>
    reply.type('text/plain; charset=utf-8').send(ctx.secrets.rsaPublicPem),
  );

  /**
   * A hint for a proxy in front of several instances, never read by the server: the signed-in account's
   * company, so that one company's calls go to one instance, whose list cache and rows in memory then
   * serve that company's scope (see docs/deploy.md, the proxy). Empty: signed out.
   */
  const routeCookie = (req: FastifyRequest, value: string) =>
    `${ROUTE_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax${req.protocol === 'https' ? '; Secure' : ''}${value ? '' : '; Max-Age=0'}`;

  const loginResponse = z.object({
    status: z.number(),
    message: z.string().optional(),
    token: z.string(),
    user: userInfoSchema,
    roles: z.array(z.string()).optional(),
  });

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

  for (const url of ['/api/auth/login', '/api/auth/login1']) {
    app.post(
      url,
      { config: { public: true, log: '用户登录' }, onRequest: loginRate, schema: { body: loginBody, response: { 200: loginResponse } } },
      async (req, reply) => login(req.body, req, reply),
    );
  }

  app.get(
    '/api/auth/info',
    answers({ session: true, pending: true }, z.object({ user: userInfoSchema, roles: z.array(z.string()), company: companySchema })),
    async (req) => {
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
  );

  app.delete('/api/auth/logout', answers({ session: true, pending: true }, ok), async (req, reply) => {
    await ctx.sessions.destroy(currentUser(req).sessionId);
    reply.header('set-cookie', routeCookie(req, ''));
    return { status: 200, message: '退出成功' };
  });

  app.get(
    '/api/guFeiUrl/enter',
    answers({ session: true, pending: true }, ok, {
      querystring: z.object({ code: z.string().max(2048).optional(), deptCode: z.string().max(64).optional() }),
    }),
    async (req) => {
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
      const changed = await db
        .updateTable('sys_user')
        .set({ agreement_accepted: true, update_time: sql<Date>`now()` })
        .where('id', '=', me.id)
        .where('agreement_accepted', '=', false)
        .executeTakeFirst();
      // Every instance reads the account again, so the calls the agreement held back open at once.
      if (Number(changed.numUpdatedRows) > 0) ctx.sessions.invalidate();
      return { status: 200, message: Number(changed.numUpdatedRows) > 0 ? '入驻成功' : '已入驻' };
    },
  );
}
