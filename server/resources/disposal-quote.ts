import { disposalQuotes, quoteBody } from '../../src/contract/disposal-quote.js';
import { formatDate } from '../../src/shared/format.js';
import { seesAll } from '../access/company.js';
import { accessUnchanged } from '../access/parties.js';
import { rowScope } from '../access/rows.js';
import type { App } from '../app.js';
import { currentUser } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { parseBody } from '../lib/body.js';
import { INQUIRY_QUOTED, noticeQuoted, OK, requireView } from '../lib/core-records.js';
import { recordValues } from '../lowcode/record-input.js';
import { updateRecord } from '../lowcode/record-writes.js';
import { authorOf, findRecord } from '../lowcode/rows.js';
import { registerResource, writingContext } from './register.js';

/** inquiryStatus: 0 awaiting a quote, 1 quoted. */
const QUOTABLE = ['0', '1'];
const QUOTED = INQUIRY_QUOTED;

/** Quotes: a disposer quotes on an inquiry sent to its company. */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const { db } = ctx;

  registerResource(app, disposalQuotes, {
    quote: async (req) => {
      const u = currentUser(req);
      const body = parseBody(quoteBody, req.body);
      const view = await requireView(ctx, 'disposalInquiry');
      // The asked disposer is a party to the inquiry, so it is in its scope; any other inquiry is missing.
      const scope = await rowScope(ctx, view, u);
      const existing = await findRecord(db, view, body.id, scope);
      if (!existing) throw notFound('INQUIRY_NOT_FOUND');
      // The asker sees its own inquiry, but only the asked company quotes.
      if (!seesAll(u) && Number(existing.companyId) !== u.companyId) throw forbidden('INQUIRY_OF_OTHERS');
      if (!QUOTABLE.includes(String(existing.inquiryStatus ?? ''))) throw badRequest('INQUIRY_CLOSED');
      const price = body.quotedPrice;
      if (price === '' || price === null) throw badRequest('QUOTE_PRICE_REQUIRED');
      const values = recordValues(
        view,
        { quotedPrice: price, quoteTime: formatDate(Date.now(), 'YYYY-MM-DD HH:mm:ss'), inquiryStatus: QUOTED },
        existing,
        view.schema,
        { onlyWritten: true },
      );
      // The quote lands only while the inquiry is as judged (still this company's, still awaiting or
      // holding its quote): one closed or handed over meanwhile is a conflict, not overwritten.
      const guard = accessUnchanged(view, existing);
      if (!(await updateRecord(writingContext(ctx, req), view, body.id, values, scope, guard))) {
        if (guard && (await findRecord(db, view, body.id, scope))) throw conflict('CONFLICT');
        throw notFound('INQUIRY_NOT_FOUND');
      }
      const asker = await authorOf(db, view, body.id);
      await noticeQuoted(writingContext(ctx, req), asker.companyId, existing.inquiryNo, price);
      return OK;
    },
  });
}
