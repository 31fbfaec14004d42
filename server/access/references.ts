import { type Kysely, type RawBuilder, sql } from 'kysely';
import { errorMessage } from '../../src/shared/error-catalogue.js';
import type { SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { RecordInvalid, type Row } from '../lowcode/record-input.js';
import { companyTypes, optionLabelField, referenceTarget } from '../lowcode/reference-labels.js';
import type { ViewField, ViewModel } from '../lowcode/view-model.js';
import { designedView } from '../lowcode/view-store.js';
import { scopeCompany } from './company.js';
import { fileProblems, type RowsJudge } from './files.js';
import { viaPartyFields } from './parties.js';
import { rowScope } from './rows.js';
import { addressableDeptCondition } from './tenancy.js';

/**
 * A field that picks a record of another table (a warehouse, a contact, a company, a department, a record
 * of another view) may only store an id its options offer the same user: the option call's own scope,
 * with the fixed parameters the field sends it. A form's write judges them in its own statement
 * (referenceCondition); an import, one query per written reference field.
 */

const ID_TEXT = /^\s*\d{1,18}\s*$/;

/** The picked ids of a stored value (a multiple field stores them joined by commas). */
function idsOf(f: ViewField, v: unknown): (number | null)[] {
  if (v === null || v === undefined || v === '') return [];
  const parts = f.multiple && typeof v === 'string' ? v.split(',').filter((s) => s.trim() !== '') : [v];
  return parts.map((p) => {
    const n = typeof p === 'number' ? p : typeof p === 'string' && ID_TEXT.test(p) ? Number(p) : Number.NaN;
    return Number.isSafeInteger(n) && n > 0 ? n : null;
  });
}

/** The value of a fixed parameter the field sends its option call. */
function fixedParam(params: { key: string; source: string; value: string }[], key: string): string | undefined {
  return params.find((p) => p.key === key && p.source === 'fixed')?.value;
}

/** The records a field's options offer a user: their table, the column that labels them, and the condition on `t`. */
export interface OfferedRecords {
  table: string;
  /** undefined when the other view has no label field: its records are picked by id only. */
  labelColumn: string | undefined;
  condition: RawBuilder<unknown>;
}

/**
 * The table of the records a field picks and the condition on it (`t`) under which its option call offers
 * them to the user, as the call's route scopes them; undefined for options of no known table.
 */
export async function offered(ctx: AppContext, view: ViewModel, f: ViewField, user: SessionUser): Promise<OfferedRecords | undefined> {
  const target = referenceTarget(view, f);
  if (!target) return undefined;
  if (target.viewId !== undefined) {
    // /api/general/allList/:id/queryLink: the records of the other view within the caller's row scope.
    const other = target.viewId === view.id ? view : await designedView(ctx, target.viewId).catch(() => null);
    if (!other) return { table: `lc_view_${target.viewId}`, labelColumn: undefined, condition: sql`false` };
    const scope = await rowScope(ctx, other, user);
    return { table: `lc_view_${other.id}`, labelColumn: optionLabelField(other)?.column, condition: scope?.condition ?? sql`true` };
  }
  switch (target.path) {
    case '/api/companyWarehouse/list':
    case '/api/companyLinkman/list': {
      const asked = Number(fixedParam(target.params, 'companyId'));
      const company = scopeCompany(user, Number.isSafeInteger(asked) && asked > 0 ? asked : undefined);
      const condition: RawBuilder<unknown> =
        company === undefined ? sql`false` : company === null ? sql`true` : sql`t.company_id = ${company}`;
      return { table: target.table, labelColumn: target.labelColumn, condition };
    }
    case '/api/company/list': {
      // Active companies, of the types the field asks for.
      const types = companyTypes(fixedParam(target.params, 'type'));
      const condition = types.length ? sql`t.status = 1 and t.type in (${sql.join(types)})` : sql`t.status = 1`;
      return { table: target.table, labelColumn: target.labelColumn, condition };
    }
    case '/api/getUserProcessPrimary':
      // The top-level disposal processes, the same for everyone.
      return { table: target.table, labelColumn: target.labelColumn, condition: sql`t.pid is null` };
    case '/api/dept/find':
      // The recipient address book: the platform's departments, the user's company's, other companies' top ones.
      return { table: target.table, labelColumn: target.labelColumn, condition: addressableDeptCondition(user) };
    default:
      return undefined;
  }
}

/** A written reference field: where its options come from, and the ids each row picks that are to be judged. */
interface Picked {
  f: ViewField;
  source: OfferedRecords;
  /** Per row; null for a value that is no id. */
  picked: (number | null)[][];
  /** The distinct ids picked. */
  asked: number[];
}

/** The reference fields the rows write, with the ids to judge (an update's stored ids are not judged again). */
async function pickedReferences(ctx: AppContext, view: ViewModel, user: SessionUser, rows: Row[], existing?: Row): Promise<Picked[]> {
  const out: Picked[] = [];
  for (const f of view.formFields) {
    if (!f.remote || f.system) continue;
    const kept = new Set(existing ? idsOf(f, existing[f.name]) : []);
    const picked = rows.map((r) => (Object.hasOwn(r, f.column) ? idsOf(f, r[f.column]).filter((id) => id === null || !kept.has(id)) : []));
    if (!picked.some((ids) => ids.length)) continue;
    const source = await offered(ctx, view, f, user);
    if (!source) continue;
    out.push({ f, source, picked, asked: [...new Set(picked.flat().filter((id): id is number => id !== null))] });
  }
  return out;
}

/** The picked ids the user's options offer, of one field. Ids as bigint: an integer id column compares without rejecting a large one. */
const offeredIds = (table: string, ids: number[], condition: RawBuilder<unknown>) =>
  sql`from ${sql.table(table)} as t where t.id in (${sql.join(ids.map((id) => sql`${id}::bigint`))}) and ${condition}`;

/**
 * True when every id a field picks is offered; `lock` holds those records (shared) until the statement's
 * transaction ends, for a field that reaches their parties.
 */
const allOffered = (x: Picked, lock: boolean) =>
  lock
    ? sql<boolean>`(select count(*) from (select 1 ${offeredIds(x.source.table, x.asked, x.source.condition)} for share of t) as locked) = ${x.asked.length}`
    : sql<boolean>`(select count(*) ${offeredIds(x.source.table, x.asked, x.source.condition)}) = ${x.asked.length}`;

const problemOf = (f: ViewField) => ({ field: f.name, message: errorMessage('REFERENCE_OUT_OF_SCOPE', { label: f.label }) });

/**
 * Refuses records whose reference fields pick a record the user's options do not offer. `rows` are the
 * column values about to be written (all of an import at once); `existing` is the stored record on update,
 * whose values are not judged again. Returns, per row, the first problem found, in form order.
 */
export const referenceProblems: RowsJudge = async (ctx, view, user, rows, existing) => {
  // Files are picked too: only those the writer may read.
  const problems = await fileProblems(ctx, view, user, rows, existing);
  for (const { f, source, picked, asked } of await pickedReferences(ctx, view, user, rows, existing)) {
    const found = asked.length
      ? (await sql<{ id: number }>`select t.id ${offeredIds(source.table, asked, source.condition)}`.execute(ctx.db)).rows
      : [];
    const allowed = new Set(found.map((r) => Number(r.id)));
    picked.forEach((ids, i) => {
      if (!problems[i] && ids.some((id) => id === null || !allowed.has(id))) problems[i] = problemOf(f);
    });
  }
  return problems;
};

/**
 * For a write of many rows in one transaction (an import): what locks (shared, until the transaction
 * ends) the records the rows pick through fields that reach parties (see viaPartyFields), and answers
 * whether each is still offered, as it is now: false when a party of one changed since the rows were
 * judged. Undefined when the rows pick none. Prepared outside the transaction, run inside it.
 */
export async function heldViaPicks(
  ctx: AppContext,
  view: ViewModel,
  user: SessionUser,
  rows: Row[],
): Promise<((db: Kysely<DB>) => Promise<boolean>) | undefined> {
  const via = new Set(viaPartyFields(view));
  if (!via.size || !rows.length) return undefined;
  const held = (await pickedReferences(ctx, view, user, rows)).filter((x) => via.has(x.f.name) && x.asked.length);
  if (!held.length) return undefined;
  return async (db) => {
    const res = await sql<{ ok: boolean }>`select ${sql.join(
      held.map((x) => allOffered(x, true)),
      sql` and `,
    )} as ok`.execute(db);
    return res.rows[0]?.ok === true;
  };
}

/** Refuses (400, naming the field) a record that picks a record outside the user's options. */
export async function checkReferences(ctx: AppContext, view: ViewModel, user: SessionUser, values: Row, existing?: Row): Promise<void> {
  const [problem] = await referenceProblems(ctx, view, user, [values], existing);
  if (problem) throw new RecordInvalid([problem]);
}

/**
 * What checkReferences judges, as a condition for the write statement itself, so that judging costs no
 * statement of its own: true when every picked id is offered. Undefined when nothing is to be judged;
 * refuses at once a value that is no id. A write the condition stops is judged by checkReferences, which
 * names the field.
 */
export async function referenceCondition(
  ctx: AppContext,
  view: ViewModel,
  user: SessionUser,
  values: Row,
  existing?: Row,
): Promise<RawBuilder<boolean> | undefined> {
  const [file] = await fileProblems(ctx, view, user, [values], existing);
  if (file) throw new RecordInvalid([file]);
  const fields = await pickedReferences(ctx, view, user, [values], existing);
  const bad = fields.find((x) => x.picked[0]?.includes(null));
  if (bad) throw new RecordInvalid([problemOf(bad.f)]);
  // A record picked through a field that reaches its parties is locked (shared) by the write: a change of
  // its parties waits for the write and then sees it, and a write after such a change judges the record
  // as changed (see reachedPartiesCheck).
  const via = new Set(viaPartyFields(view));
  const tests = fields.filter((x) => x.asked.length).map((x) => allOffered(x, via.has(x.f.name)));
  return tests.length ? sql<boolean>`(${sql.join(tests, sql` and `)})` : undefined;
}
