import { wasteCategories } from '../../src/contract/waste-categories.js';
import { requireLookup } from '../access/lookups.js';
import type { App } from '../app.js';
import { currentUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { registerResource } from './register.js';

/** Waste categories a company handles: one's own, and another's for those who fill its orders. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  const categoriesOf = async (companyId: number | null | undefined) => {
    if (!companyId) return [];
    return db
      .selectFrom('company_waste_category as cw')
      .innerJoin('waste_category as w', 'w.code', 'cw.code')
      .select(['w.code', 'w.name', 'w.category'])
      .where('cw.company_id', '=', companyId)
      .orderBy('w.category')
      .orderBy('w.code')
      .execute();
  };

  registerResource(app, wasteCategories, {
    mine: async (req) => {
      const content = await categoriesOf(currentUser(req).companyId);
      return { content, totalElements: content.length };
    },
    ofCompany: async (req) => {
      const me = currentUser(req);
      const asked = req.query.companyId;
      // Another company's: for the manual disposal order's author and editor, and the views that draw on it.
      if (asked !== undefined && asked !== me.companyId) {
        await requireLookup(ctx, req, wasteCategories.calls.ofCompany.path, ['disposalOrder:add', 'disposalOrder:edit']);
      }
      const content = await categoriesOf(asked ?? me.companyId);
      return { content, totalElements: content.length };
    },
  });
}
