import { jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { isSupervisor, seesAll } from '../access/company.js';
import type { App } from '../app.js';
import { currentUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { companyCodeIs } from '../lib/company-codes.js';
import { answers } from '../lib/route.js';

/** /api/guFeiUrl: a short-lived token for the environmental authority's filling system, and its entry addresses. */

/** The filling-system token lives this long. */
const GUFEI_TOKEN_MINUTES = 30;
export const GUFEI_OK = '00000';
/** Where this server's stand-in of the authority's pages answers (filling-stand-in.ts). */
export const STAND_IN_BASE = '/gufei/';
/** The company a filling-system token of this server was issued for, or null when it is none or has expired. */
export async function fillingSystemCompany(ctx: AppContext, token: string): Promise<number | null> {
  try {
    const { payload } = await jwtVerify(token, ctx.secrets.jwtSecret, { algorithms: ['HS256'], audience: 'gufei' });
    return typeof payload.companyId === 'number' ? payload.companyId : null;
  } catch {
    return null;
  }
}

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  app.get(
    '/api/guFeiUrl/getTokenByCompayCode',
    answers(
      { session: true },
      z.object({
        code: z.string(),
        message: z.string(),
        data: z
          .object({
            token: z.string(),
            companyCode: z.string(),
            baseUrl: z.string(),
            dangerUrl: z.string(),
            planUrl: z.string(),
            expiresAt: z.number(),
          })
          .nullable(),
      }),
      { querystring: z.object({ CompanyCode: z.string().max(64).optional(), companyCode: z.string().max(64).optional() }) },
    ),
    async (req) => {
      const u = currentUser(req);
      const code = (req.query.CompanyCode ?? req.query.companyCode ?? '').trim();
      // Unconfigured, the entries open this server's own stand-in of the authority's pages.
      const base = ctx.config.gufeiBaseUrl ?? STAND_IN_BASE;
      if (isSupervisor(u)) return { code: 'A0403', message: '监管部门无需填报', data: null };
      if (!code) return { code: 'A0400', message: '企业编号不能为空', data: null };
      let q = db.selectFrom('company').select(['id', 'bci_id', 'credit_code', 'dept_code']).where(companyCodeIs(code));
      if (!seesAll(u)) q = q.where('id', '=', u.companyId ?? -1);
      const company = await q.orderBy('id').executeTakeFirst();
      if (!company) return { code: 'A0404', message: '企业不存在或不属于当前账号', data: null };
      const expiresAt = Date.now() + GUFEI_TOKEN_MINUTES * 60_000;
      const token = await new SignJWT({ companyId: company.id, username: u.username })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(company.bci_id ?? company.credit_code ?? code)
        .setAudience('gufei')
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt / 1000))
        .sign(ctx.secrets.jwtSecret);
      const root = base.endsWith('/') ? base : `${base}/`;
      const withToken = (path: string) => `${root}${path}?token=${encodeURIComponent(token)}`;
      return {
        code: GUFEI_OK,
        message: '成功',
        data: {
          token,
          companyCode: code,
          baseUrl: root,
          dangerUrl: withToken('order/danger'),
          planUrl: withToken('plan/query'),
          expiresAt,
        },
      };
    },
  );
}
