import { companies } from '../../src/contract/companies.js';
import { requireLookup } from '../access/lookups.js';
import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import { containing } from '../lib/sql.js';
import { companyTypes } from '../lowcode/reference-labels.js';
import { registerResource } from './register.js';

/** Companies: the company picker of forms. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;
  registerResource(app, companies, {
    list: async (req) => {
      await requireLookup(ctx, req, companies.calls.list.path, ['disposalOrder:add']);
      let q = db.selectFrom('company').select(['id', 'name', 'type']).where('status', '=', 1);
      const types = companyTypes(req.query.type);
      if (types.length) q = q.where('type', 'in', types);
      const b = req.query.blurry?.trim();
      if (b) q = q.where('name', 'ilike', containing(b));
      const content = await q.orderBy('id').execute();
      return { content, totalElements: content.length };
    },
  });
}
