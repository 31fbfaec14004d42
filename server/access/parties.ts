import { type RawBuilder, sql } from 'kysely';
import { submittedFields } from '../../src/model/index.js';
import type { SessionUser } from '../auth.js';
import { badRequest, type ErrorCode, forbidden } from '../errors.js';
import type { BusinessViewName } from '../lib/business-views.js';
import { namedTable } from '../lib/named-table.js';
import type { Row } from '../lowcode/record-input.js';
import { referenceTarget } from '../lowcode/reference-labels.js';
import type { ViewField, ViewModel } from '../lowcode/view-model.js';
import { seesAll } from './company.js';

/** The option calls a party's and a recipient's pickers draw from. */
const COMPANY_OPTIONS = '/api/company/list';
const DEPT_OPTIONS = '/api/dept/find';

/** A company named on a record by its id, or through the record of another view that the field picks. */
export type Party = { field: string; by: 'id' } | { field: string; via: BusinessViewName };

/**
 * How a business record names the companies party to it, besides the one that created it: the asked
 * disposer of an inquiry, the two parties of a contract, the producer, disposer and carrier of a disposal
 * order, and (through its disposal order) those a logistics order carries for. Every party is a company
 * id; the company's name is only the label answered beside it (`{field}Fmt`), so a rename moves nothing.
 */
export const PARTIES: Partial<Record<string, Party[]>> = namedTable({
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
});

/**
 * Views whose records are addressed to a department (留言管理's 接收部门): only that department's users
 * and the record's author read them, whatever their data scope.
 */
export const RECIPIENT_FIELD: Partial<Record<string, string>> = namedTable({ leaveMessage: 'deptId' });

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
 * The parties a company account (not 全部) that adds or edits a record must stay among: a contract is
 * signed by its 甲方 or 乙方, a disposal order placed by its producer or its disposer (the manual order's
 * 乙方 is the writer's own company; the carrier is named on it, it does not place it). An inquiry's party
 * is the asked disposer, not its writer, so it has no such rule.
 */
export const WRITER_AMONG: Partial<Record<string, string[]>> = namedTable({
  contract: ['partyAId', 'partyBId'],
  disposalOrder: ['producerId', 'disposerId'],
});

/**
 * What only one party of a record writes: an inquiry's quote (its price and time, and the states 已报价
 * and 已驳回) is the asked disposer's, whom `companyId` names. Anyone else's add leaves them at their
 * defaults and anyone else's edit keeps them as stored, whatever either sends. Accounts of 全部 write
 * them all.
 */
export interface PartyOwned {
  /** The field naming the company that owns them. */
  party: string;
  fields: string[];
  /** The states the party sets, and those it sets them from: a record closed or answered otherwise is no longer its to answer. */
  states?: { field: string; values: string[]; from?: string[] };
  /** The states the creating side sets, and those it sets them from (the asker only closes). */
  creatorStates?: { values: string[]; from?: string[] };
  /** The states in which the party may still be changed (its owned fields then start again at their defaults), and the refusal after. */
  movable?: { while: string[]; refusal: ErrorCode };
}

export const PARTY_OWNED: Partial<Record<string, PartyOwned>> = namedTable({
  disposalInquiry: {
    party: 'companyId',
    fields: ['quotedPrice', 'quoteTime'],
    states: { field: 'inquiryStatus', values: ['1', '3'], from: ['0', '1'] },
    creatorStates: { values: ['2'], from: ['0', '1', '3'] },
    movable: { while: ['0'], refusal: 'INQUIRY_PARTY_FIXED' },
  },
});

/**
 * What only the receiving department writes of a record addressed to it (RECIPIENT_FIELD): a 留言's
 * reply and whether it was read. The author writes the rest and it alone deletes; once any of these
 * holds an answer (a reply, 已读) the recipient is fixed.
 */
export const RECIPIENT_OWNED: Partial<Record<string, string[]>> = namedTable({
  leaveMessage: ['replyContent', 'replyTime', 'haveRead'],
});

/** An id as stored or sent, null when empty. */
const idOf = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));

/** The form's default of a field, as an add starts it. */
const defaultOf = (view: ViewModel, name: string) => view.page.form.fields.find((x) => x.name === name)?.defaultValue ?? null;

/** A field's value once `values` (column → value) is written over `existing` (by field name). */
function after(view: ViewModel, name: string, values: Row, existing?: Row): unknown {
  const f = view.byName.get(name);
  if (f && Object.hasOwn(values, f.column)) return values[f.column];
  return existing?.[name];
}

/** Whether an update changes the field `name` (always false on an add). */
function changes(view: ViewModel, name: string, values: Row, existing?: Row): boolean {
  const f = view.byName.get(name);
  if (!existing || !f || !Object.hasOwn(values, f.column)) return false;
  return idOf(values[f.column]) !== idOf(existing[name]);
}

/** Leaves out (update) or resets to its default (add) what `values` holds of the field `name`. */
function takeBack(view: ViewModel, name: string, values: Row, existing?: Row): void {
  const f = view.byName.get(name);
  if (!f) return;
  if (existing) delete values[f.column];
  else values[f.column] = defaultOf(view, name);
}

/**
 * Takes out of `values` (column → value, see recordValues) what `user` may not write of PARTY_OWNED: on
 * an update (`existing`, the stored record by field name) the column is left out, so it keeps its value;
 * on an add it takes the field's default. The party's fields and states are written only by the company
 * the party names both as stored and as written; a state moves only as its side may move it (`creator`:
 * the user writes on the creating company's side). Changing the party refuses once the record left the
 * `movable` states, and otherwise starts the owned fields again at their defaults.
 */
export function keepPartyOwned(view: ViewModel, user: SessionUser, values: Row, existing?: Row, creator = true): void {
  const rule = PARTY_OWNED[view.componentName];
  if (!rule || seesAll(user)) return;
  const stateField = rule.states ? view.byName.get(rule.states.field) : undefined;
  const storedState = existing && rule.states ? String(existing[rule.states.field] ?? '') : undefined;
  // A definition that no longer names the party (a renamed field) has no owner: nobody but 全部 writes them.
  const named = view.byName.has(rule.party);
  const moved = named && changes(view, rule.party, values, existing);
  if (moved && rule.movable && storedState !== undefined && !rule.movable.while.includes(storedState))
    throw badRequest(rule.movable.refusal);
  const owner =
    named &&
    !moved &&
    user.companyId !== null &&
    idOf(after(view, rule.party, values, existing)) === user.companyId &&
    (!existing || idOf(existing[rule.party]) === user.companyId);
  // A quote stays with the company that gave it: a record handed to another starts its quote again.
  if (moved) for (const name of rule.fields) values[view.byName.get(name)?.column ?? name] = defaultOf(view, name);
  else if (!owner) for (const name of rule.fields) takeBack(view, name, values, existing);
  const states = rule.states;
  if (!states || !stateField || !Object.hasOwn(values, stateField.column)) return;
  const next = String(values[stateField.column] ?? '');
  if (!existing) {
    if (!owner && states.values.includes(next)) takeBack(view, states.field, values);
    return;
  }
  if (next === storedState) return;
  const may = (side: { values: string[]; from?: string[] } | undefined) =>
    side?.values.includes(next) === true && (!side.from || side.from.includes(storedState ?? ''));
  if (!((owner && may(states)) || (creator && may(rule.creatorStates)))) takeBack(view, states.field, values, existing);
}

/**
 * The labels of the WRITER_AMONG parties when a company account's add or edit leaves its company among
 * none of them; null when it does (or the view has no such rule, or the user is of 全部). An edit that
 * changes none of them is not judged again.
 */
export function ownPartyMissing(view: ViewModel, user: SessionUser, values: Row, existing?: Row): string | null {
  const names = (WRITER_AMONG[view.componentName] ?? []).filter((n) => view.byName.has(n));
  if (!names.length || seesAll(user) || user.companyId === null) return null;
  if (existing && !names.some((n) => changes(view, n, values, existing))) return null;
  if (names.some((n) => idOf(after(view, n, values, existing)) === user.companyId)) return null;
  return names.map((n) => view.byName.get(n)?.label ?? n).join('、');
}

/**
 * The fields of `view` through which its records reach parties named on another record (a waybill's
 * disposal order): a write picking one judges the other record as it is when the write commits.
 */
export function viaPartyFields(view: ViewModel): string[] {
  return (PARTIES[view.componentName] ?? []).filter((p) => 'via' in p && view.byName.has(p.field)).map((p) => p.field);
}

/** The by-id party fields an update changes. */
export function partiesMoved(view: ViewModel, values: Row, existing: Row): string[] {
  return (PARTIES[view.componentName] ?? [])
    .filter((p) => 'by' in p && changes(view, p.field, values, existing))
    .map((p) => view.byName.get(p.field)?.label ?? p.field);
}

/** Whether `user` writes a record addressed to a department as its recipient, not as its author. */
export function writesAsRecipient(view: ViewModel, user: SessionUser, authorId: number | null): boolean {
  return (
    RECIPIENT_FIELD[view.componentName] !== undefined && view.byName.has(RECIPIENT_FIELD[view.componentName] ?? '') && authorId !== user.id
  );
}

/** What a recipient that is not the author may submit: the fields it owns; 403 when the body holds none. */
export function recipientInput(view: ViewModel, body: Row): Row {
  const out: Row = {};
  for (const name of RECIPIENT_OWNED[view.componentName] ?? []) if (Object.hasOwn(body, name)) out[name] = body[name];
  if (!Object.keys(out).length) throw forbidden('RECORD_RECIPIENT_EDIT_DENIED');
  return out;
}

/**
 * Takes out of `values` what only the receiving department writes (RECIPIENT_OWNED) when `user` is not of
 * it, both as stored and as written; and refuses (400) re-addressing a record whose owned fields already
 * hold an answer, so a reply never reaches another department.
 */
export function keepRecipientOwned(view: ViewModel, user: SessionUser, values: Row, existing?: Row): void {
  const recipient = RECIPIENT_FIELD[view.componentName];
  const owned = (RECIPIENT_OWNED[view.componentName] ?? []).filter((n) => view.byName.has(n));
  if (!recipient || !view.byName.has(recipient)) return;
  const answered = (name: string) => {
    const v = existing?.[name];
    return v !== null && v !== undefined && v !== '' && String(v) !== String(defaultOf(view, name) ?? '');
  };
  if (changes(view, recipient, values, existing) && owned.some(answered)) throw badRequest('MESSAGE_RECIPIENT_FIXED');
  if (!receives(view, user, values, existing)) for (const name of owned) takeBack(view, name, values, existing);
}

/** Whether `user`'s department is the record's recipient both as stored and as written. */
function receives(view: ViewModel, user: SessionUser, values: Row, existing?: Row): boolean {
  const recipient = RECIPIENT_FIELD[view.componentName] ?? '';
  const dept = user.deptId;
  return dept !== null && idOf(after(view, recipient, values, existing)) === dept && (!existing || idOf(existing[recipient]) === dept);
}

/** What a view must keep of a field that access reads, and how the refusal describes it. */
interface AccessField {
  field: string;
  kind: string;
  /** Whether the view's field of that name is of that kind. */
  fits: (f: ViewField) => Promise<boolean>;
}

const submitted = (view: ViewModel, name: string) => submittedFields(view.page.form).some((f) => f.name === name);

/** One id, stored as a whole number in a column of the view's table, that the form writes. */
const pickedId = (view: ViewModel, f: ViewField) =>
  f.dataType === 'long' && !f.multiple && !f.system && view.columns.some((c) => c.name === f.name) && submitted(view, f.name);

/**
 * The fields a view of an access-deciding componentName must keep, each with the kind access reads it
 * as: a party a company id picked among companies (or a record of the party's view), a recipient a
 * department picked from the department tree, and every field and state PARTY_OWNED names.
 * `componentOf` answers another view's componentName by its id.
 */
function accessFields(view: ViewModel, componentOf: (viewId: number) => Promise<string | undefined>): AccessField[] {
  const name = view.componentName;
  const out: AccessField[] = [];
  for (const p of PARTIES[name] ?? []) {
    if ('by' in p)
      out.push({
        field: p.field,
        kind: '表单可填写的整数字段，选项为企业列表',
        fits: async (f) => pickedId(view, f) && referenceTarget(view, f)?.path === COMPANY_OPTIONS,
      });
    else
      out.push({
        field: p.field,
        kind: `表单可填写的整数字段，选项为组件名称 ${p.via} 的视图的记录`,
        fits: async (f) => {
          const target = pickedId(view, f) ? referenceTarget(view, f) : undefined;
          if (target?.viewId === undefined) return false;
          // The view picked from must be there and carry the name: a view added later at a missing id
          // could be another's, and its records would stand for orders whose parties they do not name.
          const other = target.viewId === view.id ? view.componentName : await componentOf(target.viewId);
          return other === p.via;
        },
      });
  }
  const recipient = RECIPIENT_FIELD[name];
  if (recipient)
    out.push({
      field: recipient,
      kind: '表单可填写的整数字段，选项为部门树',
      fits: async (f) => pickedId(view, f) && referenceTarget(view, f)?.path === DEPT_OPTIONS,
    });
  const owned = PARTY_OWNED[name];
  for (const field of [...(owned?.fields ?? []), ...(owned?.states ? [owned.states.field] : [])])
    out.push({ field, kind: '视图表中的字段', fits: async (f) => !f.system && view.columns.some((c) => c.name === f.name) });
  return out;
}

/** The views a view's via fields (a waybill's order) pick records from, by id. */
export function viaPicks(view: ViewModel): { field: string; viewId: number }[] {
  const out: { field: string; viewId: number }[] = [];
  for (const p of PARTIES[view.componentName] ?? []) {
    if (!('via' in p)) continue;
    const f = view.byName.get(p.field);
    const viewId = f ? referenceTarget(view, f)?.viewId : undefined;
    if (viewId !== undefined) out.push({ field: p.field, viewId });
  }
  return out;
}

/**
 * Refuses (400) a definition of an access-deciding componentName that lacks a field access reads, or
 * holds it as another kind: a redesign that renamed a party's field would silently change who sees a
 * record and who writes its quote.
 */
export async function keepsAccessFields(view: ViewModel, componentOf: (viewId: number) => Promise<string | undefined>): Promise<void> {
  for (const a of accessFields(view, componentOf)) {
    const f = view.byName.get(a.field);
    if (!f || !(await a.fits(f)))
      throw badRequest('VIEW_ACCESS_FIELD_REQUIRED', { name: view.componentName, field: a.field, kind: a.kind });
  }
}

/**
 * Whether `user` writes a record of a PARTIES view as a party that did not create it: a company account,
 * not of 全部, whose company is not the record's create_company. Such a party deletes none of it and
 * writes only what it owns (PARTY_OWNED); a contract or order it is named on is its counterparty's.
 */
export function writesAsParty(view: ViewModel, user: SessionUser, createCompany: number | null): boolean {
  return namedAsParty(view, user) && createCompany !== user.companyId;
}

/** Whether `user` may be named as a party on records of `view`: a company account, not of 全部, on a PARTIES view. */
export const namedAsParty = (view: ViewModel, user: SessionUser): boolean =>
  PARTIES[view.componentName] !== undefined && !seesAll(user) && user.companyId !== null;

/**
 * What a party that did not create a record may submit of it: the fields it owns (PARTY_OWNED, when the
 * owning field names its company) while the record is open to it, and of the state field only the states
 * it owns; the rest is kept as stored. 403 when the body holds nothing it owns: it may not edit the record.
 */
export function partyInput(view: ViewModel, user: SessionUser, body: Row, existing: Row): Row {
  const states = PARTY_OWNED[view.componentName]?.states;
  const out: Row = {};
  for (const name of partyOwnedOpen(view, user, existing)) {
    if (!Object.hasOwn(body, name)) continue;
    // Of the state field only the states the party sets.
    if (name === states?.field && !states.values.includes(String(body[name]))) continue;
    out[name] = body[name];
  }
  if (!Object.keys(out).length) throw forbidden('RECORD_PARTY_EDIT_DENIED');
  return out;
}

/** The PARTY_OWNED fields (and state field) of a stored record open to `user`'s company as its owning party; none else. */
function partyOwnedOpen(view: ViewModel, user: SessionUser, existing: Row): string[] {
  const rule = PARTY_OWNED[view.componentName];
  if (!rule) return [];
  const open = !rule.states?.from || rule.states.from.includes(String(existing[rule.states.field] ?? ''));
  if (!open || !view.byName.has(rule.party) || idOf(existing[rule.party]) !== user.companyId) return [];
  return [...rule.fields, ...(rule.states ? [rule.states.field] : [])];
}

/**
 * The fields `user` may change of a stored record (`existing`, by field name) that it writes as a party
 * that did not create it or as a department it is addressed to that did not write it (`author`: who
 * created it), by the rules the edit applies (partyInput, keepPartyOwned, recipientInput,
 * keepRecipientOwned); undefined when it writes the record as its creator does.
 */
export function writableFields(
  view: ViewModel,
  user: SessionUser,
  author: { userId: number | null; companyId: number | null },
  existing: Row,
): string[] | undefined {
  let names: string[];
  if (writesAsParty(view, user, author.companyId)) names = partyOwnedOpen(view, user, existing);
  else if (writesAsRecipient(view, user, author.userId))
    names = receives(view, user, {}, existing) ? (RECIPIENT_OWNED[view.componentName] ?? []) : [];
  else return undefined;
  // Only what the form submits and no edit lock holds is written (recordValues).
  return names.filter((n) => Object.hasOwn(view.schema.shape, n) && view.byName.get(n)?.editLock !== true);
}

/**
 * The stored values that decided what a writer may write of a record (its parties, its recipient, the
 * owned state and the recipient's answer) as a condition on the row being updated: an edit judged on
 * them applies only while they still hold, so a reply and a re-addressing, or a quote and a hand-over,
 * made at once cannot both pass. A date counts by whether it is set; undefined when none.
 */
export function accessUnchanged(view: ViewModel, existing: Row): RawBuilder<boolean> | undefined {
  const name = view.componentName;
  const recipient = RECIPIENT_FIELD[name];
  const state = PARTY_OWNED[name]?.states?.field;
  const names = new Set<string>([
    ...(PARTIES[name] ?? []).map((p) => p.field),
    ...(recipient ? [recipient] : []),
    ...(state ? [state] : []),
    ...(RECIPIENT_OWNED[name] ?? []),
  ]);
  const parts: RawBuilder<boolean>[] = [];
  for (const n of names) {
    const f = view.byName.get(n);
    if (!f || !view.columns.some((c) => c.name === f.column)) continue;
    const v = existing[n];
    const col = sql.ref(`t.${f.column}`);
    const empty = v === null || v === undefined || v === '';
    // A date is compared by whether it is set (its value is read formatted): a reply time is an answer.
    if (f.dataType === 'datetime') parts.push(empty ? sql<boolean>`${col} is null` : sql<boolean>`${col} is not null`);
    else parts.push(empty ? sql<boolean>`coalesce(${col}::text, '') = ''` : sql<boolean>`${col}::text = ${String(v)}`);
  }
  return parts.length ? sql<boolean>`(${sql.join(parts, sql` and `)})` : undefined;
}

/**
 * A new record as its writer may add it: what others own taken back to its defaults (keepPartyOwned,
 * keepRecipientOwned); answers the labels of the parties the writer must be among but is not, else null.
 */
export function keepOwnedOnAdd(view: ViewModel, user: SessionUser, values: Row): string | null {
  keepPartyOwned(view, user, values);
  keepRecipientOwned(view, user, values);
  return ownPartyMissing(view, user, values);
}
