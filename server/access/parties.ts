import type { BusinessViewName } from '../lib/business-views.js';

/** A company named on a record by its id, or through the record of another view that the field picks. */
export type Party = { field: string; by: 'id' } | { field: string; via: BusinessViewName };

/**
 * How a business record names the companies party to it, besides the one that created it: the asked
 * disposer of an inquiry, the two parties of a contract, the producer, disposer and carrier of a disposal
 * order, and (through its disposal order) those a logistics order carries for. Every party is a company
 * id; the company's name is only the label answered beside it (`{field}Fmt`), so a rename moves nothing.
 */
export const PARTIES: Partial<Record<string, Party[]>> = {
  disposalInquiry: [{ field: 'companyId', by: 'id' }],
  contract: [
    { field: 'partyAId', by: 'id' },
    { field: 'partyBId', by: 'id' },
  ],
  disposalOrder: [
    { field: 'producerId', by: 'id' },
    { field: 'disposerId', by: 'id' },
    { field: 'carrierId', by: 'id' },
  ],
  logisticsOrder: [{ field: 'disposalOrderId', via: 'disposalOrder' }],
};

/**
 * Views whose records are addressed to a department (留言管理's 接收部门): only that department's users
 * and the record's author read them, whatever their data scope.
 */
export const RECIPIENT_FIELD: Partial<Record<string, string>> = { leaveMessage: 'deptId' };

/**
 * Every column a scope's row test reads (see rowScope): the owner columns and the party and recipient
 * fields of every view. A row's values of these alone tell which scopes it is in.
 */
export const SCOPE_COLUMNS: readonly string[] = [
  ...new Set([
    'create_company',
    'create_dept',
    'create_user',
    ...Object.values(PARTIES).flatMap((parties) => (parties ?? []).map((p) => p.field)),
    ...Object.values(RECIPIENT_FIELD).filter((f): f is string => f !== undefined),
  ]),
];
