import { extname } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { general } from '../../src/contract/general.js';
import { buttonPermissions, isAbsent, isRecord, NUMBER_TEXT, submittedFields } from '../../src/model/index.js';
import { errorMessage } from '../../src/shared/error-catalogue.js';
import { type CellWriter, cellReaders, cellWriters, fieldChoices } from '../access/import-labels.js';
import { listsViewDrawingFrom } from '../access/lookups.js';
import {
  accessUnchanged,
  keepOwnedOnAdd,
  keepPartyOwned,
  keepRecipientOwned,
  namedAsParty,
  ownPartyMissing,
  partyInput,
  RECIPIENT_FIELD,
  recipientInput,
  writableFields,
  writesAsParty,
  writesAsRecipient,
} from '../access/parties.js';
import { checkReferences, heldViaPicks, referenceCondition, referenceProblems } from '../access/references.js';
import { othersMessagesAmong, partyRecordsAmong, type RowScope, reachedPartiesCheck, rowScope } from '../access/rows.js';
import type { App } from '../app.js';
import { hasPermission, requirePermission, type SessionUser } from '../auth.js';
import type { AppContext } from '../context.js';
import type { DB } from '../db/schema.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import { INQUIRY_QUOTED, noticeQuoted } from '../lib/core-records.js';
import { noticeAddressed } from '../lib/dept-messages.js';
import { dropOldest, used } from '../lib/recent.js';
import { ACTIONS, WRITING_ACTIONS } from '../lowcode/actions.js';
import { viewTable } from '../lowcode/ddl.js';
import { dictionaries } from '../lowcode/dictionaries.js';
import { fillNumbers, holdTypedNumbers, typedNumberProblems, typedNumbers } from '../lowcode/doc-numbers.js';
import { templateWorkbook } from '../lowcode/import-template.js';
import { parseListQuery } from '../lowcode/list-query.js';
import type { ListQuery } from '../lowcode/list-types.js';
import { bodyId, idSchema, idsFrom } from '../lowcode/params.js';
import { RecordInvalid, recordValues } from '../lowcode/record-input.js';
import { addRecord, deleteRecords, updateRecord } from '../lowcode/record-writes.js';
import { optionLabelField } from '../lowcode/reference-labels.js';
import { allWithin, authorOf, findRecord, insertRows, type Row } from '../lowcode/rows.js';
import type { ViewField, ViewModel } from '../lowcode/view-model.js';
import { changeView, designedView, listReader } from '../lowcode/view-store.js';
import { megabytes, readWorkbook, type Sheet, sendXlsx, workbookStream, writeWorkbook } from '../lowcode/xlsx.js';
import { type CallRequest, registerResource, writerOf, writingContext } from './register.js';

/** Longest a slice of an import's row checks holds the server's thread. */
const IMPORT_SLICE_MS = 20;

/**
 * Generic CRUD over view tables (/api/general/*, viewId = generation id). Permissions follow the
 * view's disMenu.componentName: `{c}:list` reads, `{c}:add`, `{c}:edit`, `{c}:del` write.
 *
 * A form's data has two calls of its own, with the same access: the view's `{c}:list` reads a record,
 * `{c}:add` the values an add form starts with.
 * - formData `?generalId={viewId}&{key}={id}`: the record a form edits or looks at (the form detail
 *   when the view names no detailUrl), as `{ status, data }`, with `writable` (the fields the caller
 *   may change) when it writes the record as a party that did not create it or as its recipient.
 * - dynamicQuery `?generalId={viewId}&{field}={value}…`: the values an add form starts with
 *   (dialogOption.initGroovy): the fields' defaultValue, then the query's values of the fields the
 *   form submits, numbers for number fields; other query keys are ignored.
 */

const OK = { status: 200, message: '操作成功' };
const EXPORT_MAX_ROWS = 50_000;
const ANALYZE_AFTER_ROWS = 1000;

type Query = Record<string, string | string[] | undefined>;

export const QUERY_LINK_FILTER_DENIED = errorMessage('QUERY_LINK_FILTER_DENIED');

const permission = (view: ViewModel, action: 'list' | 'add' | 'edit' | 'del') => view.page.permissions[action];

function recordBody(body: unknown): Record<string, unknown> {
  if (!isRecord(body)) throw badRequest('BODY_NOT_OBJECT');
  return body;
}

/** Parsed list queries by view, then by scope and query text, least recently used first. */
const parsedLists = new WeakMap<ViewModel, Map<string, ListQuery>>();
/** Parsed list queries kept per view: most calls repeat one of a few hundred addresses. */
const PARSED_KEPT = 1024;
/** Longer query texts are parsed each time, so that what is kept stays small (at most 2 MB a view). */
const PARSED_MAX_TEXT = 2048;

/**
 * The list query of a call, parsed once for the same scope and query text: a query names its scope by
 * key, and is never changed once parsed. Queries that do not parse are not kept.
 */
function listQueryOf(view: ViewModel, url: string, query: Query, scope: RowScope | undefined): ListQuery {
  const at = url.indexOf('?');
  if (at >= 0 && url.length - at > PARSED_MAX_TEXT) return parseListQuery(view, query, scope);
  let kept = parsedLists.get(view);
  if (!kept) {
    kept = new Map();
    parsedLists.set(view, kept);
  }
  const key = `${scope?.key ?? ''}\u0000${at < 0 ? '' : url.slice(at + 1)}`;
  let q = used(kept, key);
  if (!q) {
    q = parseListQuery(view, query, scope);
    kept.set(key, q);
    dropOldest(kept, PARSED_KEPT);
  }
  return q;
}

/**
 * Export cell text as the screen shows it: dictionary labels, the label of a picked record (answered
 * beside its id as `{name}Fmt`), file names instead of the JSON list. An import reads each back.
 */
function exportCell(f: ViewField | undefined, row: Row, dicts: Map<string, Map<string, string>>, write?: CellWriter): unknown {
  const v = f ? row[f.name] : undefined;
  if (v === null || v === undefined || v === '' || !f) return v ?? null;
  if (write) return write(v, row);
  const label = f.remote ? row[`${f.name}Fmt`] : undefined;
  if (typeof label === 'string' && label !== '') return label;
  if (f.dict) {
    const labels = dicts.get(f.dict);
    return String(v)
      .split(',')
      .map((x) => labels?.get(x) ?? x)
      .join(',');
  }
  if (f.file && typeof v === 'string' && v.startsWith('[')) {
    try {
      const files = JSON.parse(v) as unknown[];
      return files.map((x) => (isRecord(x) ? String(x.fileName ?? x.name ?? x.filePath ?? '') : String(x))).join(', ');
    } catch {
      return v;
    }
  }
  return v;
}

/** The form's default values, as the add form starts with them (numbers for number fields). */
function defaultsOf(view: ViewModel): Row {
  const data: Row = {};
  for (const f of view.page.form.fields) {
    if (f.defaultValue === undefined || f.show === 4 || f.system) continue;
    const n = Number(f.defaultValue);
    data[f.name] = (f.dataType === 'long' || f.dataType === 'decimal') && Number.isFinite(n) ? n : f.defaultValue;
  }
  return data;
}

const listOf = (v: string | string[] | undefined) =>
  (Array.isArray(v) ? v : v === undefined ? [] : v.split(',')).map((s) => s.trim()).filter(Boolean);

/** The view's record `id` as `user` may read it: a record outside their data scope is answered as missing (404), so that ids cannot be probed. */
export async function readableRecord(ctx: AppContext, view: ViewModel, user: SessionUser, id: number): Promise<Row> {
  const row = await findRecord(ctx.db, view, id, await rowScope(ctx, view, user));
  if (!row) throw notFound();
  return row;
}

/** A value of the query (a repeated key's values joined by commas) as its field stores it. */
function fieldValue(dataType: string, raw: string | string[]): unknown {
  const text = Array.isArray(raw) ? raw.join(',') : raw;
  if ((dataType === 'long' || dataType === 'decimal') && NUMBER_TEXT.test(text)) return Number(text);
  return text;
}

/**
 * The add form's starting values: the defaults of the fields it shows (read-only ones included, which the
 * new record holds), then the query's values of the fields it submits.
 */
export function initialValues(view: ViewModel, query: Record<string, unknown>): Row {
  const data = defaultsOf(view);
  for (const f of submittedFields(view.page.form)) {
    const raw = query[f.name];
    if (typeof raw === 'string' || (Array.isArray(raw) && raw.every((v) => typeof v === 'string'))) {
      data[f.name] = fieldValue(f.dataType, raw);
    }
  }
  return data;
}

/**
 * The price an edit quotes an inquiry at: when it leaves the inquiry 已报价 and either moved it there
 * or changed the price. Undefined for any other edit, and for records of any other view.
 */
function quotedBy(view: ViewModel, values: Row, existing: Row): { price: unknown } | undefined {
  if (view.componentName !== 'disposalInquiry') return undefined;
  const status = view.byName.get('inquiryStatus');
  const price = view.byName.get('quotedPrice');
  if (!status || !price) return undefined;
  const now = (f: typeof status) => (Object.hasOwn(values, f.column) ? values[f.column] : existing[f.name]);
  if (String(now(status) ?? '') !== INQUIRY_QUOTED) return undefined;
  const moved = String(existing.inquiryStatus ?? '') !== INQUIRY_QUOTED;
  const repriced = String(now(price) ?? '') !== String(existing.quotedPrice ?? '');
  return moved || repriced ? { price: now(price) } : undefined;
}

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const db = ctx.db;

  /** Writes a new record of `view` from the submitted body, as the request's writer. */
  const insert = async (req: FastifyRequest, view: ViewModel, user: SessionUser, body: Row) => {
    const w = writingContext(ctx, req);
    const values = recordValues(view, body);
    const missing = keepOwnedOnAdd(view, user, values);
    if (missing !== null) {
      // A picked company outside the picker's options is told first, as the form would.
      await checkReferences(ctx, view, user, values);
      throw badRequest('RECORD_PARTY_SELF_REQUIRED', { parties: missing });
    }
    // A typed number is held by the insert's transaction and judged again there.
    const typed = typedNumbers(view, [values]);
    await fillNumbers(w, view, [values], user.companyId);
    const hold = typed ? (db: Kysely<DB>) => holdTypedNumbers(db, view, typed, user.companyId) : undefined;
    // The references are judged by the insert itself; one it refuses is judged again to name the field.
    let id = await addRecord(w, view, values, user, await referenceCondition(ctx, view, user, values), hold);
    if (id === null) {
      await checkReferences(ctx, view, user, values);
      // Without a condition the insert always writes its row.
      id = (await addRecord(w, view, values, user, undefined, hold)) as number;
    }
    return id;
  };

  /**
   * Who created a record, read only for a view whose records name parties or a recipient (an edit of them
   * asks it); other reads and edits pay no read.
   */
  const authorIfNamed = async (view: ViewModel, user: SessionUser, id: number) =>
    namedAsParty(view, user) || RECIPIENT_FIELD[view.componentName] !== undefined
      ? await authorOf(db, view, id)
      : { userId: null, companyId: null };

  /** Changes the record the submitted body names by its id, within the user's rows, as the request's writer. */
  const change = async (req: FastifyRequest, view: ViewModel, user: SessionUser, body: Row) => {
    const w = writingContext(ctx, req);
    const id = bodyId(body.id);
    if (id === null) throw badRequest('ID_REQUIRED');
    const scope = await rowScope(ctx, view, user);
    const existing = await listReader(ctx).record(view, id, scope);
    if (!existing) throw notFound();
    // A party that did not create the record, or a department a message is addressed to, writes only what
    // it owns of it; nothing else is its to edit.
    // Only a view whose records name parties or a recipient asks who wrote the record: other edits pay no read.
    const author = await authorIfNamed(view, user, id);
    const asParty = writesAsParty(view, user, author.companyId);
    const asRecipient = writesAsRecipient(view, user, author.userId);
    const input = asParty ? partyInput(view, user, body, existing) : asRecipient ? recipientInput(view, body) : body;
    const values = recordValues(view, input, existing, view.schema, { onlyWritten: asParty || asRecipient });
    if (asParty && !Object.keys(values).length) throw forbidden('RECORD_PARTY_EDIT_DENIED');
    if (asRecipient && !Object.keys(values).length) throw forbidden('RECORD_RECIPIENT_EDIT_DENIED');
    keepPartyOwned(view, user, values, existing, !asParty);
    keepRecipientOwned(view, user, values, existing);
    const missing = ownPartyMissing(view, user, values, existing);
    if (missing !== null) {
      await checkReferences(ctx, view, user, values, existing);
      throw badRequest('RECORD_PARTY_SELF_REQUIRED', { parties: missing });
    }
    // A party moved while records of another view reach it through this one is refused, judged with the
    // record locked, in the update's own transaction.
    const reached = await reachedPartiesCheck(ctx, view, user, id, values, existing);
    // As on add: a refused write is judged again, and a record gone meanwhile is not found. The write holds
    // only while what decided the caller's rights is as read; changed meanwhile, it is a conflict.
    const guard = accessUnchanged(view, existing);
    const condition = await referenceCondition(ctx, view, user, values, existing);
    const both = guard && condition ? sql<boolean>`${guard} and ${condition}` : (guard ?? condition);
    // An inquiry quoted through its form is told to the asker as a quote through the quote call is.
    const quote = quotedBy(view, values, existing);
    // A message re-addressed to another department is told to that department as a new one is.
    const recipient = view.byName.get(RECIPIENT_FIELD[view.componentName] ?? '');
    const readdressed =
      recipient !== undefined &&
      Object.hasOwn(values, recipient.column) &&
      String(values[recipient.column] ?? '') !== String(existing[recipient.name] ?? '');
    const written = async () => {
      // The author was read above when the caller is a party; an account of 全部 reads it here.
      if (quote)
        await noticeQuoted(
          w,
          (author.companyId !== null ? author : await authorOf(db, view, id)).companyId,
          existing.inquiryNo,
          quote.price,
        );
      if (readdressed)
        await noticeAddressed(ctx, view, user, [id]).catch((err: unknown) => req.log.warn({ err }, 'department message notice failed'));
      return id;
    };
    if (await updateRecord(w, view, id, values, scope, both, reached)) return written();
    if (!both) throw notFound();
    if (condition) await checkReferences(ctx, view, user, values, existing);
    if (await updateRecord(w, view, id, values, scope, guard, reached)) return written();
    if (guard && (await listReader(ctx).record(view, id, scope))) throw conflict('CONFLICT');
    throw notFound();
  };

  // A form's one submit URL may be the add call: a body with an id changes that record.
  const add = async (req: CallRequest<(typeof general.calls)['add']>) => {
    const view = await designedView(ctx, req.params.viewId);
    const body = recordBody(req.body);
    if (!isAbsent(body.id) && body.id !== '') {
      const user = requirePermission(req, permission(view, 'edit'));
      return { ...OK, id: await change(req, view, user, body) };
    }
    const user = requirePermission(req, permission(view, 'add'));
    const id = await insert(req, view, user, body);
    // A 留言 addressed to a department is told to that department's users, as a leave message is.
    await noticeAddressed(ctx, view, user, [id]).catch((err: unknown) => req.log.warn({ err }, 'department message notice failed'));
    return { ...OK, id };
  };

  const update = async (req: CallRequest<(typeof general.calls)['update']>) => {
    const view = await designedView(ctx, req.params.viewId);
    const user = requirePermission(req, permission(view, 'edit'));
    await change(req, view, user, recordBody(req.body));
    return OK;
  };

  const download = async (req: CallRequest<(typeof general.calls)['download']>, reply: FastifyReply) => {
    const view = await designedView(ctx, req.params.viewId);
    const user = requirePermission(req, permission(view, 'list'));
    const query = req.query as Query;
    const q = parseListQuery(view, query, await rowScope(ctx, view, user), ['headers', 'fields', 'token']);
    const names = listOf(query.fields);
    const titles = listOf(query.headers);
    let fields = names.map((n) => {
      const f = view.byName.get(n);
      if (!f) throw badRequest('EXPORT_FIELD_NOT_FOUND', { field: n });
      return f;
    });
    if (!fields.length) fields = (view.tableFields.length ? view.tableFields : view.formFields).filter((f) => f.show !== 4);
    const header = fields.map((f, i) => titles[i] ?? f.label);
    const rows = await listReader(ctx).rows(view, q, EXPORT_MAX_ROWS);
    const [dicts, writers] = await Promise.all([dictionaries(ctx, fields), cellWriters(ctx, view, fields, rows)]);
    const data = rows.map((r) => fields.map((f, i) => exportCell(f, r, dicts, writers[i])));
    return sendXlsx(reply, `${view.title}.xlsx`, await writeWorkbook(view.title, header, data));
  };

  registerResource(app, general, {
    list: async (req, reply) => {
      const view = await designedView(ctx, req.params.viewId);
      const user = requirePermission(req, permission(view, 'list'));
      const scope = await rowScope(ctx, view, user);
      const page = await listReader(ctx).page(view, listQueryOf(view, req.url, req.query as Query, scope));
      return reply.type('application/json; charset=utf-8').send(page);
    },

    detail: async (req) => {
      const view = await designedView(ctx, req.query.generalId);
      const user = requirePermission(req, permission(view, 'list'));
      return readableRecord(ctx, view, user, req.query.id);
    },

    add,
    addPut: add,
    update,
    updatePut: update,

    remove: async (req) => {
      const view = await designedView(ctx, req.params.viewId);
      const user = requirePermission(req, permission(view, 'del'));
      const ids = idsFrom(req.body, req.query);
      const scope = await rowScope(ctx, view, user);
      // One id outside the scope refuses the whole delete, answered as missing.
      if (!(await allWithin(db, view, ids, scope))) throw notFound();
      // A record naming the caller's company as a party is deleted only by the company that created it.
      if (await partyRecordsAmong(ctx, view, user, ids)) throw forbidden('RECORD_PARTY_DELETE_DENIED');
      // A message addressed to a department is deleted by its author only.
      if (await othersMessagesAmong(ctx, view, user, ids)) throw forbidden('RECORD_RECIPIENT_DELETE_DENIED');
      await deleteRecords(writingContext(ctx, req), view, ids, scope);
      return OK;
    },

    // Options for linked selects: label from the first text field, value = id. queryParam is either
    // JSON (field filters, as in the list call) or plain text matched against the label. It needs the view's
    // list permission, or the list permission of a view whose field picks from it: the latter may filter by
    // the label only, so that no other field's values can be guessed.
    queryLink: async (req) => {
      const view = await designedView(ctx, req.params.viewId);
      const user = requirePermission(req);
      const lists = hasPermission(user.roles, permission(view, 'list'));
      if (!lists && !(await listsViewDrawingFrom(ctx, user, `/api/general/allList/${view.id}/queryLink`))) throw forbidden();
      const labelField = optionLabelField(view);
      if (!labelField) return [];
      const raw = (req.query.queryParam ?? '').trim();
      let filters: Query = {};
      let parsed: unknown;
      try {
        parsed = raw ? JSON.parse(raw) : undefined;
      } catch {
        parsed = undefined;
      }
      if (isRecord(parsed)) {
        for (const [k, v] of Object.entries(parsed)) if (!isAbsent(v)) filters[k] = Array.isArray(v) ? v.map(String) : String(v);
      } else if (raw) filters = { [labelField.name]: raw };
      if (!lists && Object.keys(filters).some((k) => k !== labelField.name)) throw forbidden('QUERY_LINK_FILTER_DENIED');
      // Options are the records of the caller's row scope in that view, whether it lists the view or only
      // draws from it (a carrier picks among the disposal orders that name it as their carrier).
      const scope = await rowScope(ctx, view, user);
      const q = parseListQuery(view, { ...filters, sort: `${labelField.name},asc`, size: '1000' }, scope);
      const options = await listReader(ctx).options(view, q, labelField.name);
      return options.map((r) => ({ label: r.label ?? '', value: r.value }));
    },

    groovy: async (req) => {
      const view = await designedView(ctx, req.params.viewId);
      // Which script actions a view has is told only to those who may list it.
      const user = requirePermission(req, permission(view, 'list'));
      const p = req.body?.groovyQueryParam;
      const key = isRecord(p) ? String(p.groovyAction ?? p.name ?? '') : isAbsent(p) ? '' : String(p);
      const button = view.buttons.find((b) => b.action === 'groovy' && key !== '' && (b.name === key || b.groovyAction === key));
      const action = button?.groovyAction ? ACTIONS[button.groovyAction] : undefined;
      if (!button?.groovyAction || !action) throw badRequest('SCRIPT_ACTION_UNKNOWN');
      requirePermission(req, ...buttonPermissions(button.roles));
      const ids = isAbsent(req.body?.ids) || (Array.isArray(req.body?.ids) && !req.body.ids.length) ? [] : idsFrom(req.body?.ids, {});
      // A script acts only on records of the caller's scope; one other id refuses it, as missing.
      if (!(await allWithin(db, view, ids, await rowScope(ctx, view, user)))) throw notFound();
      // A writing action edits: not of records another company created naming the caller's as a party.
      if (WRITING_ACTIONS.has(button.groovyAction) && (await partyRecordsAmong(ctx, view, user, ids)))
        throw forbidden('RECORD_PARTY_EDIT_DENIED');
      if (WRITING_ACTIONS.has(button.groovyAction) && (await othersMessagesAmong(ctx, view, user, ids)))
        throw forbidden('RECORD_RECIPIENT_EDIT_DENIED');
      const answer = await action(writingContext(ctx, req), view, ids);
      if (WRITING_ACTIONS.has(button.groovyAction)) changeView(ctx, view.id);
      return answer;
    },

    // Initial values of the add form (dialogOption.initGroovy): the fields' defaultValue.
    preAdd: async (req) => {
      const view = await designedView(ctx, req.params.viewId);
      requirePermission(req, permission(view, 'add'));
      return { status: 200, data: defaultsOf(view) };
    },

    import: async (req, reply) => {
      const view = await designedView(ctx, req.params.viewId);
      const user = requirePermission(req, permission(view, 'add'));
      if (!req.isMultipart()) throw badRequest('MULTIPART_REQUIRED');
      const { config } = ctx;
      const maxBytes = Math.min(config.importMaxBytes, config.maxUploadBytes);
      const file = await req.file({ limits: { fileSize: maxBytes } });
      if (!file) throw badRequest('FILE_REQUIRED');
      if (!['.xls', '.xlsx'].includes(extname(file.filename).toLowerCase())) throw badRequest('IMPORT_TYPE_NOT_ALLOWED');
      const data = await file.toBuffer().catch((e: { code?: string }) => {
        throw e.code === 'FST_REQ_FILE_TOO_LARGE' ? badRequest('IMPORT_FILE_TOO_LARGE', { size: megabytes(maxBytes) }) : e;
      });
      // Every limit is checked while reading, before anything is written.
      const sheet = await readWorkbook(data, {
        maxUnpackedBytes: config.importMaxUnpackedBytes,
        maxRatio: config.importMaxRatio,
        maxRows: config.importMaxRows,
        maxColumns: config.importMaxColumns,
        maxTextChars: config.importMaxTextChars,
      });
      if (!sheet.rows.length) throw badRequest('IMPORT_EMPTY');

      const byHeader = new Map<string, ViewField>();
      for (const f of view.fields) if (f.show !== 4) byHeader.set(f.name, f);
      for (const f of view.fields) if (f.show !== 4) byHeader.set(f.label, f);
      // Stored files do not travel in a sheet (an export writes their names only): file columns are not read.
      const columns = sheet.header.map((h) => {
        const f = byHeader.get(h);
        return f?.file ? undefined : f;
      });
      if (!columns.some(Boolean)) throw badRequest('IMPORT_HEADER_MISMATCH');
      // Cells hold what the screen shows (dictionary labels, the names of picked records); each is read back.
      const readers = await cellReaders(ctx, view, user, columns, sheet.rows);

      const checked: Row[] = [];
      const verdict = (cells: Sheet['rows'][number]) => {
        // A row is an add form filled from the sheet: what it leaves empty starts at the field's default.
        const record: Row = defaultsOf(view);
        const unread = new Map<string, string>();
        columns.forEach((f, i) => {
          const v = cells[i];
          if (!f || v === null || v === undefined || v === '') return;
          const read = readers[i];
          const out = read ? read(v) : { value: v };
          if ('problem' in out) {
            unread.set(f.name, out.problem);
            delete record[f.name];
          } else Object.assign(record, { [f.name]: out.value }, out.also);
        });
        try {
          const values = recordValues(view, record);
          const missing = keepOwnedOnAdd(view, user, values);
          if (unread.size) return [...unread.values()].join('；');
          if (missing !== null) return errorMessage('RECORD_PARTY_SELF_REQUIRED', { parties: missing });
          checked.push(values);
          return '成功';
        } catch (e) {
          if (!(e instanceof RecordInvalid)) throw e;
          // A cell that named nothing is told as such, not as the field being empty.
          const others = e.errors.filter((x) => !unread.has(x.field)).map((x) => x.message);
          return [...unread.values(), ...others].join('；');
        }
      };
      const verdicts: string[] = [];
      // Long sheets are checked in slices of at most 500 rows or 20 ms, so other calls are served in
      // between (and a slice stays inside the time a turn may spend on field patterns).
      let slice = performance.now();
      for (const cells of sheet.rows) {
        verdicts.push(verdict(cells));
        if (verdicts.length % 500 === 0 || performance.now() - slice > IMPORT_SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          slice = performance.now();
        }
      }
      // A row picking a record outside the user's options fails like a row the form refuses.
      const problems = await referenceProblems(ctx, view, user, checked);
      // A typed number the company has (or an earlier row), or one of today's series, fails its row too.
      const numbers = await typedNumberProblems(db, view, checked, user.companyId);
      const valid = checked.filter((_, i) => !problems[i] && !numbers[i]);
      let at = 0;
      verdicts.forEach((v, i) => {
        if (v !== '成功') return;
        const problem = problems[at] ?? numbers[at];
        at++;
        if (problem) verdicts[i] = problem.message;
      });
      // The numbers the rows type, before the empty ones are filled: those are held by the insert.
      const typed = typedNumbers(view, valid);
      await fillNumbers(writingContext(ctx, req), view, valid, user.companyId);
      // Rows picking a record through a field that reaches its parties (a waybill's disposal order) are
      // written with those records locked and judged again: one whose parties changed meanwhile makes the
      // whole import a conflict, and nothing is written.
      const held = await heldViaPicks(ctx, view, user, valid);
      const added =
        held || typed
          ? await writerOf(req)
              .transaction()
              .execute(async (trx) => {
                if (held && !(await held(trx))) throw conflict('CONFLICT');
                // A number typed by a row and taken meanwhile by another write refuses the import.
                if (typed) await holdTypedNumbers(trx, view, typed, user.companyId);
                return insertRows(trx, view, valid, user);
              })
          : await insertRows(writerOf(req), view, valid, user);
      // Imported 留言 are told to the departments they are addressed to, once per department.
      await noticeAddressed(ctx, view, user, added).catch((err: unknown) => req.log.warn({ err }, 'department message notice failed'));
      // PGlite has no autovacuum: after a bulk load the planner needs fresh statistics to pick the indexes,
      // and counts need the visibility map to read only an index. PostgreSQL's autovacuum sets the map.
      if (valid.length >= ANALYZE_AFTER_ROWS) {
        const table = sql.table(viewTable(view.id));
        await (ctx.dbKind === 'pglite' ? sql`vacuum (analyze) ${table}` : sql`analyze ${table}`).execute(db);
      }
      if (valid.length) changeView(ctx, view.id);
      // The result is written as the client reads it; a client that goes away stops the writing.
      const results = function* () {
        for (let i = 0; i < sheet.rows.length; i++) yield [...(sheet.rows[i] as Sheet['rows'][number]), verdicts[i]];
      };
      reply.header('x-import-success', String(valid.length)).header('x-import-failed', String(sheet.rows.length - valid.length));
      return sendXlsx(reply, `${view.title}导入结果.xlsx`, workbookStream('导入结果', [...sheet.header, '导入结果'], results()));
    },

    template: async (req, reply) => {
      const view = await designedView(ctx, req.params.viewId);
      const user = requirePermission(req, permission(view, 'list'));
      // The columns an import writes: the form's editable fields but files, those of choices with their drop-downs.
      const fields = view.formFields.filter((f) => f.show === 1 && !f.system && !f.file);
      const choices = await fieldChoices(ctx, view, user, fields);
      const columns = fields.map((field, i) => ({ field, choices: choices[i] }));
      // The example's waste code is one of the catalogue's of the example's waste class.
      const codes = await db.selectFrom('waste_category').select(['code', 'category']).orderBy('code').execute();
      return sendXlsx(reply, `${view.title}导入模板.xlsx`, await templateWorkbook(view.title, columns, new Date(), codes));
    },

    download,
    exportDownload: download,

    formData: async (req) => {
      const view = await designedView(ctx, req.query.generalId);
      const user = requirePermission(req, view.page.permissions.list);
      const key = view.page.form.dialog.key;
      const raw = req.query.id ?? req.query[key];
      const id = idSchema.safeParse(Array.isArray(raw) ? raw[0] : raw);
      if (!id.success) throw key === 'id' ? badRequest('ID_REQUIRED') : badRequest('RECORD_KEY_REQUIRED', { key });
      const data = await readableRecord(ctx, view, user, id.data);
      // A party that did not create the record, or the department it is addressed to, is told what it may change.
      // Without the view's edit permission it may change none of them.
      const writable = writableFields(view, user, await authorIfNamed(view, user, id.data), data);
      if (!writable) return { status: 200, data };
      return { status: 200, data, writable: hasPermission(user.roles, permission(view, 'edit')) ? writable : [] };
    },

    dynamicQuery: async (req) => {
      const view = await designedView(ctx, req.query.generalId);
      requirePermission(req, view.page.permissions.add);
      return { status: 200, data: initialValues(view, req.query) };
    },
  });
}
