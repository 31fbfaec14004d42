import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { badRequest } from '../errors.js';
import { type BusinessViewName, businessView } from '../lib/business-views.js';
import { viewTable } from '../lowcode/ddl.js';
import type { Row } from '../lowcode/record-input.js';
import type { ViewModel } from '../lowcode/view-model.js';
import { namedAsParty, PARTIES, partiesMoved, RECIPIENT_FIELD } from './parties.js';
import { type DataScope, dataScopeKey } from './scope.js';

/**
 * The records of a view a user may see and change, as a condition on the view's table `t` and the same
 * test in JavaScript (for the list cache). A record is in scope when it was created within the user's
 * data scope (company, departments, self), or when it names the user's company as a party. A record out
 * of scope is answered as missing.
 */

/** A row's test in JavaScript, on its columns as row_to_json gives them: undefined when this row cannot be told here. */
export type RowTest = (row: Record<string, unknown>) => boolean | undefined;

export interface RowScope {
  /** Names the scope exactly: part of every cache key of the lists read under it. */
  key: string;
  condition: RawBuilder<unknown>;
  /** undefined when some record cannot be told in JavaScript. */
  test: RowTest | undefined;
}

const col = (name: string) => sql.ref(`t.${name}`);
const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null);

/** Ors of parts, each a condition and its test (undefined: cannot be told in JavaScript). */
function combine(key: string, parts: { sql: RawBuilder<unknown>; test: RowTest | undefined }[]): RowScope {
  if (!parts.length) return { key, condition: sql`false`, test: () => false };
  const condition = sql`(${sql.join(
    parts.map((p) => p.sql),
    sql` or `,
  )})`;
  const tests = parts.map((p) => p.test);
  const test: RowTest | undefined = tests.every((t) => t !== undefined)
    ? (row) => {
        let unknown = false;
        for (const t of tests as RowTest[]) {
          const r = t(row);
          if (r === true) return true;
          if (r === undefined) unknown = true;
        }
        return unknown ? undefined : false;
      }
    : undefined;
  return { key, condition, test };
}

const hasColumn = (view: ViewModel, name: string) => view.columns.some((c) => c.name === name);

/**
 * How a party named on another view's record is tested. `set` (the default): PostgreSQL may read every
 * record of the other view that names the company once, hashed, then test each row against the hash;
 * cheap when the company is party to few records, and what a count or a sparse page needs. `row`: each
 * row's own record is looked up by its key (`offset 0` keeps PostgreSQL from hashing); cheap for a page
 * when most rows walked are in scope, whatever the company is party to.
 */
export type PartyLookup = 'set' | 'row';

/** The company-party conditions of a view's records for `companyId`: the records that name it by id. */
async function partyParts(ctx: AppContext, view: ViewModel, companyId: number, lookup: PartyLookup) {
  const out: { sql: RawBuilder<unknown>; test: RowTest | undefined }[] = [];
  for (const p of PARTIES[view.componentName] ?? []) {
    if (!hasColumn(view, p.field)) continue;
    if ('via' in p) {
      // The other view's party fields that its table holds (a redesign may have dropped one).
      const other = await businessView(ctx, p.via).catch(() => null);
      if (!other) continue;
      const parties = (PARTIES[p.via] ?? []).filter((x) => 'by' in x && hasColumn(other, x.field));
      if (!parties.length) continue;
      const inner = parties.map((x) => sql`o.${sql.ref(x.field)} = ${companyId}`);
      // A correlated test, not `in (select …)`: beside the other parts of the scope (an or), PostgreSQL
      // cannot turn the latter into a join and reads every record of the other view to hash them, for a
      // page of ten rows too. This one it hashes only when it expects that to cost less (see PartyLookup).
      const once = lookup === 'row' ? sql` offset 0` : sql``;
      out.push({
        sql: sql`exists (select 1 from ${sql.table(viewTable(other.id))} as o where o.id = ${col(p.field)} and (${sql.join(inner, sql` or `)})${once})`,
        test: undefined,
      });
    } else {
      out.push({ sql: sql`${col(p.field)} = ${companyId}`, test: (row) => num(row[p.field]) === companyId });
    }
  }
  return out;
}

/** The user's scope over a view's records; undefined when every record is in it. */
export async function rowScope(
  ctx: AppContext,
  view: ViewModel,
  user: SessionUser,
  lookup: PartyLookup = 'set',
): Promise<RowScope | undefined> {
  const recipient = RECIPIENT_FIELD[view.componentName];
  if (recipient && hasColumn(view, recipient)) {
    const dept = user.deptId;
    return combine(`r${dept ?? ''}|${user.id}`, [
      ...(dept === null
        ? []
        : [{ sql: sql`${col(recipient)} = ${dept}`, test: (row: Record<string, unknown>) => num(row[recipient]) === dept }]),
      { sql: sql`t.create_user = ${user.id}`, test: (row) => num(row.create_user) === user.id },
    ]);
  }
  return scopeOver(ctx, view, user.dataScope, lookup);
}

/** A data scope over a view's records; undefined for 全部. */
export async function scopeOver(
  ctx: AppContext,
  view: ViewModel,
  s: DataScope,
  lookup: PartyLookup = 'set',
): Promise<RowScope | undefined> {
  if (s.all) return undefined;
  const parts: { sql: RawBuilder<unknown>; test: RowTest | undefined }[] = [];
  const company = s.companyId;
  if (company !== null) {
    parts.push({ sql: sql`t.create_company = ${company}`, test: (row) => num(row.create_company) === company });
    parts.push(...(await partyParts(ctx, view, company, lookup)));
  }
  if (s.depts.length) {
    const depts = s.depts;
    parts.push({ sql: sql`t.create_dept in (${sql.join(depts)})`, test: (row) => depts.includes(num(row.create_dept) ?? -1) });
  }
  if (s.self !== null) {
    const self = s.self;
    parts.push({ sql: sql`t.create_user = ${self}`, test: (row) => num(row.create_user) === self });
  }
  return combine(dataScopeKey(s), parts);
}

/**
 * Whether some of `ids` (records `user` reaches) were created by another company, naming the user's as a
 * party (see writesAsParty): such records are not the user's to delete or to act on.
 */
export async function partyRecordsAmong(ctx: AppContext, view: ViewModel, user: SessionUser, ids: number[]): Promise<boolean> {
  return namedAsParty(view, user) && writtenByOthers(ctx, view, ids, 'create_company', user.companyId);
}

/** Whether some of `ids` hold in owner column `column` (create_company, create_user) other than `owner`. */
async function writtenByOthers(ctx: AppContext, view: ViewModel, ids: number[], column: string, owner: number | null): Promise<boolean> {
  if (!ids.length) return false;
  const res = await sql`select 1 from ${sql.table(viewTable(view.id))} where id in (${sql.join([...new Set(ids)])})
    and ${sql.ref(column)} is distinct from ${owner} limit 1`.execute(ctx.db);
  return res.rows.length > 0;
}

/**
 * Whether some of `ids` of a view addressed to departments (RECIPIENT_FIELD) were written by another
 * account: their recipient reads them and answers them, but only the author deletes or acts on them.
 */
export async function othersMessagesAmong(ctx: AppContext, view: ViewModel, user: SessionUser, ids: number[]): Promise<boolean> {
  const recipient = RECIPIENT_FIELD[view.componentName];
  return !!recipient && hasColumn(view, recipient) && writtenByOthers(ctx, view, ids, 'create_user', user.id);
}

/**
 * What refuses (400) a company account's change of a party of record `id` while records of another view
 * reach the parties through it (a waybill through its disposal order): the move would open them to the
 * new party. Undefined when the change moves no such party, or the user is of 全部 (it writes every record).
 * It runs in the update's transaction, with the record locked (see updateRecord's `before`): a write
 * picking the record holds it shared until it commits, so the test sees every such write that came
 * first, and every one that comes after judges the record as moved.
 */
export async function reachedPartiesCheck(
  ctx: AppContext,
  view: ViewModel,
  user: SessionUser,
  id: number,
  values: Row,
  existing: Row,
): Promise<((db: Kysely<DB>) => Promise<void>) | undefined> {
  if (user.dataScope.all) return undefined;
  const moved = partiesMoved(view, values, existing);
  if (!moved.length) return undefined;
  // The views are looked up here, before the transaction: inside it, only its own handle is used.
  const through: { other: ViewModel; field: string }[] = [];
  for (const [name, parties] of Object.entries(PARTIES)) {
    for (const p of parties ?? []) {
      if (!('via' in p) || p.via !== view.componentName) continue;
      const other = await businessView(ctx, name as BusinessViewName).catch(() => null);
      if (other && hasColumn(other, p.field)) through.push({ other, field: p.field });
    }
  }
  if (!through.length) return undefined;
  return async (db) => {
    for (const { other, field } of through) {
      const res = await sql`select 1 from ${sql.table(viewTable(other.id))} where ${sql.ref(field)} = ${id} limit 1`.execute(db);
      if (res.rows.length) throw badRequest('RECORD_PARTY_REFERENCED', { view: other.title, parties: moved.join('、') });
    }
  };
}
