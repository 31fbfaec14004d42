import type { BusinessViewName } from '../lib/business-views.js';

export type Party = { field: string; by: 'id' | 'name' } | { field: string; via: BusinessViewName };

/**
 * How a business record names the companies party to it, besides the one that created it: the asked
 * disposer of an inquiry, the two parties of a contract or a disposal order, and (through its disposal
 * order) the producer and disposer a logistics order carries for.
 */
export const PARTIES: Partial<Record<string, Party[]>> = {
  disposalInquiry: [{ field: 'companyId', by: 'id' }],
  contract: [
    { field: 'partyA', by: 'name' },
    { field: 'partyB', by: 'name' },
  ],
  disposalOrder: [
    { field: 'producerName', by: 'name' },
    { field: 'disposerName', by: 'name' },
  ],
  logisticsOrder: [{ field: 'disposalOrderId', via: 'disposalOrder' }],
};

/**
 * Views whose records are addressed to a department (留言管理's 接收部门): only that department's users
 * and the record's author read them, whatever their data scope.
 */
export const RECIPIENT_FIELD: Partial<Record<string, string>> = { leaveMessage: 'deptId' };
