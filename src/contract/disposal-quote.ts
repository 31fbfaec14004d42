/**
 * Quotes (处置报价): the disposer an inquiry was sent to quotes a unit price on it, while it awaits a
 * quote or was quoted already; the asking company is told.
 */
import { z } from 'zod';
import { call, resource } from './define.js';
import { INT4_MAX, judgedByHandler, ok } from './fields.js';
import { BUSINESS_VIEW_ERRORS } from './lowcode-fields.js';

/** The quote, judged by the handler so that each field's message is answered as it is. */
export const quoteBody = z.object({
  id: z.coerce
    .number({ message: '请选择询价单' })
    .int({ message: '请选择询价单' })
    .positive({ message: '请选择询价单' })
    .max(INT4_MAX, { message: '请选择询价单' }),
  quotedPrice: z.union([z.number(), z.string()], { message: 'QUOTE_PRICE_REQUIRED' }),
});

export const disposalQuotes = resource('disposal-quote', '处置报价', {
  // An inquiry outside the caller's data scope is missing; one the caller's company was not asked in is refused.
  quote: call('POST', '/api/disposalQuotePirce/quotedPrice', '对询价单报价', 'disposalInquiry:edit', {
    log: '处置报价',
    body: judgedByHandler(quoteBody),
    answer: ok,
    errors: [...BUSINESS_VIEW_ERRORS, 'QUOTE_PRICE_REQUIRED', 'INQUIRY_NOT_FOUND', 'INQUIRY_OF_OTHERS', 'INQUIRY_CLOSED', 'CONFLICT'],
    example: { as: 'disposer', body: { id: 2147483000, quotedPrice: 1 }, refuses: 'INQUIRY_NOT_FOUND' },
  }),
});
