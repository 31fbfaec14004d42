import { z } from 'zod';
import { FILLING_OK, fillingSystem } from '../../src/contract/filling-system.js';
import { isSupervisor, seesAll } from '../access/company.js';
import type { App } from '../app.js';
import { currentUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { companyCodeIs } from '../lib/company-codes.js';
import { FILLING_TOKEN_MINUTES, fillingSystemCompany, fillingSystemToken } from '../lib/filling-system.js';
import { registerResource } from './register.js';

/**
 * The environmental authority's filling system: a short-lived token for the caller's company and its
 * entry addresses; and, when GUFEI_BASE_URL is unset, this server's own stand-in of the authority's
 * pages those addresses open.
 */

/** Where this server's stand-in of the authority's pages answers. */
export const STAND_IN_BASE = '/gufei/';

/** The stand-in's pages: the entries' paths under the base, each with its title. */
const PAGES = { 'order/danger': '危废转移联单填报', 'plan/query': '管理计划查询' } as const;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const page = (title: string, body: string) =>
  `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${escapeHtml(title)} - 固废管理信息系统（演示）</title></head>` +
  `<body style="font-family:sans-serif;margin:40px"><h1>${escapeHtml(title)}</h1>${body}` +
  '<p style="color:#888">本页为参考服务器自带的固废管理信息系统演示页面；配置 GUFEI_BASE_URL 后将打开生态环境部门的正式系统。</p></body></html>';

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  registerResource(app, fillingSystem, {
    token: async (req) => {
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
      const expiresAt = Date.now() + FILLING_TOKEN_MINUTES * 60_000;
      const token = await fillingSystemToken(ctx, {
        companyId: company.id,
        username: u.username,
        subject: company.bci_id ?? company.credit_code ?? code,
        expiresAt,
      });
      const root = base.endsWith('/') ? base : `${base}/`;
      const withToken = (path: string) => `${root}${path}?token=${encodeURIComponent(token)}`;
      return {
        code: FILLING_OK,
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
  });

  // The stand-in's pages show which company a token of this server was issued for, and refuse a missing,
  // forged or expired token. Public, as the authority's pages are: the token is the access. They are
  // pages a browser opens, not calls of the API.
  for (const [path, title] of Object.entries(PAGES)) {
    app.get(
      `${STAND_IN_BASE}${path}`,
      { config: { public: true }, schema: { querystring: z.object({ token: z.string().max(4096).optional() }) } },
      async (req, reply) => {
        const token = req.query.token ?? '';
        const companyId = token ? await fillingSystemCompany(ctx, token) : null;
        const company =
          companyId === null
            ? undefined
            : await db.selectFrom('company').select(['name', 'bci_id']).where('id', '=', companyId).executeTakeFirst();
        reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
        if (!company)
          return reply.status(401).send(page(title, '<p data-testid="gufei-refused">凭证无效或已过期，请从系统首页重新进入。</p>'));
        return reply.send(
          page(
            title,
            `<p data-testid="gufei-company">企业：${escapeHtml(company.name)}</p>` +
              `<p>企业编号：${escapeHtml(company.bci_id ?? '-')}</p>`,
          ),
        );
      },
    );
  }
}
