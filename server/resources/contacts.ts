import { type SqlBool, sql } from 'kysely';
import { contacts } from '../../src/contract/contacts.js';
import { requireCompanyScope, scopeCompany } from '../access/company.js';
import type { App } from '../app.js';
import { currentUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { registerResource } from './register.js';

/** Contacts: a company's linkmen (every company's for those who see all). */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;
  registerResource(app, contacts, {
    list: async (req) => {
      const company = scopeCompany(requireCompanyScope(currentUser(req)), req.query.companyId);
      let q = db.selectFrom('company_linkman').select(['id', 'name', 'phone', 'position']);
      if (company === undefined) q = q.where(sql<SqlBool>`false`);
      else if (company !== null) q = q.where('company_id', '=', company);
      const content = await q.orderBy('id').execute();
      return { content, totalElements: content.length };
    },
  });
}
