import { z } from 'zod';
import { parseSiteRules, SITE_KINDS, siteOfHost } from '../../src/shared/site.js';
import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import { answers } from '../lib/route.js';

/** /api/site: which entry site a host name is, public because the login page reads it. */

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  const siteRules = parseSiteRules(ctx.config.siteHosts);
  for (const p of siteRules.problems) app.log.warn(`SITE_HOSTS: ${p}`);

  app.get(
    '/api/site',
    answers(
      { public: true },
      z.object({
        kind: z.enum(SITE_KINDS),
        label: z.string(),
        color: z.string(),
        host: z.string(),
        systemName: z.string().nullable(),
      }),
    ),
    async (req) => {
      const site = siteOfHost(req.hostname, siteRules.rules);
      const name = await db.selectFrom('sys_setting').select('value').where('name', '=', 'system_name').executeTakeFirst();
      return { ...site, host: req.hostname, systemName: name?.value ?? null };
    },
  );
}
