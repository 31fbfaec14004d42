import { privacyPolicy } from '../../src/contract/privacy-policy.js';
import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import { notFound } from '../errors.js';
import { registerResource } from './register.js';

/** /api/privacyPolicy: the agreements the login page shows, public. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  registerResource(app, privacyPolicy, {
    preview: async (req) => {
      const type = req.query.type?.trim() ?? '';
      const row = /^[1-9]$/.test(type)
        ? await db.selectFrom('privacy_policy').select(['type', 'title', 'content']).where('type', '=', Number(type)).executeTakeFirst()
        : undefined;
      if (!row) throw notFound('AGREEMENT_NOT_FOUND');
      return { status: 200 as const, data: row };
    },
  });
}
