import type { SessionUser } from '../auth.js';
import type { BusinessViewName } from '../lib/business-views.js';
import type { Row } from '../lowcode/record-input.js';
import type { ViewModel } from '../lowcode/view-model.js';
import { seesAll } from './company.js';

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

/**
 * What only one party of a record writes: an inquiry's quote (its price and time, and the states 已报价
 * and 已驳回) is the asked disposer's, whom `companyId` names. Anyone else's add leaves them at their
 * defaults and anyone else's edit keeps them as stored, whatever either sends; the asker still closes its
 * own inquiry. Accounts of 全部 write them all.
 */
export interface PartyOwned {
  /** The field naming the company that owns them. */
  party: string;
  fields: string[];
  states?: { field: string; values: string[] };
}

export const PARTY_OWNED: Partial<Record<string, PartyOwned>> = {
  disposalInquiry: { party: 'companyId', fields: ['quotedPrice', 'quoteTime'], states: { field: 'inquiryStatus', values: ['1', '3'] } },
};

/**
 * Takes out of `values` (column → value, see recordValues) what `user` may not write of PARTY_OWNED: on
 * an update (`existing`, the stored record by field name) the column is left out, so it keeps its value;
 * on an add it takes the field's default.
 */
export function keepPartyOwned(view: ViewModel, user: SessionUser, values: Row, existing?: Row): void {
  const rule = PARTY_OWNED[view.componentName];
  if (!rule || seesAll(user)) return;
  // A definition that no longer names the party (a renamed field) has no owner: nobody but 全部 writes them.
  const partyField = view.byName.get(rule.party);
  const owner = partyField ? Number(existing ? existing[rule.party] : values[partyField.column]) : Number.NaN;
  if (user.companyId !== null && owner === user.companyId) return;
  const takeBack = (name: string) => {
    const f = view.byName.get(name);
    if (!f) return;
    if (existing) delete values[f.column];
    else values[f.column] = view.page.form.fields.find((x) => x.name === name)?.defaultValue ?? null;
  };
  for (const name of rule.fields) takeBack(name);
  const states = rule.states;
  const state = states && view.byName.get(states.field);
  if (states && state && values[state.column] !== undefined && states.values.includes(String(values[state.column]))) takeBack(states.field);
}
