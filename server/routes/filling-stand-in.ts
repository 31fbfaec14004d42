import { z } from 'zod';
import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import { fillingSystemCompany, STAND_IN_BASE } from './filling-system.js';

/**
 * The reference server's stand-in for the environmental authority's filling system, the base of the
 * dashboard's entries when GUFEI_BASE_URL is unset: /gufei/order/danger and /gufei/plan/query show which
 * company a token of this server was issued for, and refuse a missing, forged or expired token. Public,
 * as the authority's pages are: the token is the access.
 */

const PAGES = { 'order/danger': '危废转移联单填报', 'plan/query': '管理计划查询' } as const;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const page = (title: string, body: string) =>
  `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>${escapeHtml(title)} - 固废管理信息系统（演示）</title></head>` +
  `<body style="font-family:sans-serif;margin:40px"><h1>${escapeHtml(title)}</h1>${body}` +
  '<p style="color:#888">本页为参考服务器自带的固废管理信息系统演示页面；配置 GUFEI_BASE_URL 后将打开生态环境部门的正式系统。</p></body></html>';

export default async function routes(app: App, ctx: AppContext): Promise<void> {
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
            : await ctx.db.selectFrom('company').select(['name', 'bci_id']).where('id', '=', companyId).executeTakeFirst();
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
