import { COMPANY } from '../../server/seed/ids.js';

/** A disposal inquiry (view 15) the producer may add, addressed to the demo disposer; `fields` override. */
export const inquiryBody = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  companyId: COMPANY.disposer,
  wasteCategory: 'HW08',
  quantity: 1,
  inquiryStatus: '0',
  needTransport: '2',
  ...fields,
});
