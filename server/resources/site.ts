import { site } from '../../src/contract/site.js';
import { parseSiteRules, siteOfHost } from '../../src/shared/site.js';
import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import { registerResource } from './register.js';

/** /api/site: which entry site a host name is, public because the login page reads it. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  const siteRules = parseSiteRules(ctx.config.siteHosts);
  for (const p of siteRules.problems) app.log.warn(`SITE_HOSTS: ${p}`);

  registerResource(app, site, {
    get: async (req) => {
      const found = siteOfHost(req.hostname, siteRules.rules);
      const name = await db.selectFrom('sys_setting').select('value').where('name', '=', 'system_name').executeTakeFirst();
      return { ...found, host: req.hostname, systemName: name?.value ?? null };
    },
  });
}
