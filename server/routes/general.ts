import { extname } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import { buttonPermissions, isAbsent, isRecord } from '../../src/model/index.js';
import { listsViewDrawingFrom } from '../access/lookups.js';
import { checkReferences, referenceCondition, referenceProblems } from '../access/references.js';
import { type RowScope, rowScope } from '../access/rows.js';
import type { App } from '../app.js';
import { hasPermission, requirePermission } from '../auth.js';
import type { AppContext } from '../context.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { LoopShare } from '../lib/loop-share.js';
import { dropOldest, used } from '../lib/recent.js';
import { reads } from '../lib/route.js';
import { ACTIONS, WRITING_ACTIONS } from '../lowcode/actions.js';
import { viewTable } from '../lowcode/ddl.js';
import { countQuery, type ListQuery, needsFence, parseListQuery, rowsJsonQuery, rowsQuery, selectList } from '../lowcode/list-query.js';
import { idSchema, idsFrom } from '../lowcode/params.js';
import { RecordInvalid, recordValues } from '../lowcode/record-input.js';
import {
  addRecord,
  BLOCK_MARGIN,
  type CachedBlock,
  deleteRecords,
  indexLoader,
  textSortsByBytes,
  updateRecord,
} from '../lowcode/record-writes.js';
import { optionLabelField } from '../lowcode/reference-labels.js';
import { SORT_KEY, type SortKey, sortKeyColumn } from '../lowcode/row-position.js';
import { allWithin, findRecord, insertRows, type Row } from '../lowcode/rows.js';
import type { ViewField, ViewModel } from '../lowcode/view-model.js';
import { changeView, designedView, lowcodeState } from '../lowcode/view-store.js';
import { megabytes, ONLY_EXCEL, readWorkbook, type Sheet, sendXlsx, workbookStream, writeWorkbook } from '../lowcode/xlsx.js';
import { readableRecord } from './general-form.js';

/**
 * Generic CRUD over view tables (/api/general/*, viewId = generation id). Permissions follow the
 * view's disMenu.componentName: `{c}:list` reads, `{c}:add`, `{c}:edit`, `{c}:del` write.
 */

const OK = { status: 200, message: '操作成功' };
const EXPORT_MAX_ROWS = 50_000;
const ANALYZE_AFTER_ROWS = 1000;
const BLOCK_ROWS = 100;
/** Most rows a filter may select for a block of its rows to be read by sorting them (see needsFence). */
const FENCE_ROWS = 10_000;
/** Most rows a filter read by sorting them may select for its pages to be read one by one. */
const FEW_ROWS = 1000;

type Query = Record<string, string | string[] | undefined>;

const viewParams = z.object({ viewId: idSchema });

export const QUERY_LINK_FILTER_DENIED = '没有该视图的查看权限，只能按名称筛选选项';

const permission = (view: ViewModel, action: 'list' | 'add' | 'edit' | 'del') => view.page.permissions[action];

function recordBody(body: unknown): Record<string, unknown> {
  if (!isRecord(body)) throw badRequest('请求体应为 JSON 对象');
  return body;
}

/** dict name → (value → label) for the dictionaries the fields use. */
async function dictionaries(ctx: AppContext, fields: ViewField[]): Promise<Map<string, Map<string, string>>> {
  const names = [...new Set(fields.map((f) => f.dict).filter((d): d is string => !!d))];
  const out = new Map<string, Map<string, string>>();
  if (!names.length) return out;
  const rows = await ctx.db
    .selectFrom('sys_dict as d')
    .innerJoin('sys_dict_detail as dd', 'dd.dict_id', 'd.id')
    .select(['d.name', 'dd.value', 'dd.label'])
    .where('d.name', 'in', names)
    .execute();
  for (const r of rows) {
    const labels = out.get(r.name) ?? new Map<string, string>();
    labels.set(r.value, r.label);
    out.set(r.name, labels);
  }
  return out;
}

/**
 * List calls served per turn of the event loop on PostgreSQL (see LoopShare): between turns the instance
 * reads the database's answers, so a write is not held up behind every list call that arrived with it.
 * Measured with the mixed bench: 8 brings a write's p95 near a list call's; 16 and more leave it half as
 * long again.
 */
const LISTS = new LoopShare(8);

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

/** The JSON text of pages of a cached block, by first row and page size. */
const pageJson = new WeakMap<CachedBlock, Map<string, string>>();

/**
 * One page of the list, as the JSON text of `{ content, totalElements }`. With the cache on, rows are read
 * a block of pages at a time (BLOCK_ROWS rows): on PGlite a page query's cost is mostly its fixed part, so
 * ten pages cost little more than one, and the next pages of a filter are then served without a query.
 * Pages of cached blocks are serialised once.
 */
async function listPage(ctx: AppContext, view: ViewModel, q: ListQuery): Promise<string> {
  // PGlite answers on this thread: there is no answer from outside to let in between.
  if (ctx.dbKind === 'postgres') await LISTS.take();
  const { cache, indexes } = lowcodeState(ctx);
  const filter = { key: q.countKey, filter: q };
  // The rows in memory answer a miss when they can (see RowIndexes); asked again when the miss is
  // computed, as a write may have made the index forget them meanwhile.
  const load = indexLoader(ctx, view);
  const bytes = textSortsByBytes(ctx);
  const index = () => (cache.enabled ? indexes.ready(view, load, bytes) : undefined);
  const wholeSize = Math.max(1, Math.floor(BLOCK_ROWS / q.size)) * q.size;
  const wholeStart = Math.floor((q.page * q.size) / wholeSize) * wholeSize;
  // A block of pages cached for the call is served as it is (most calls): the index is asked only on a miss.
  const indexed = cache.has(view.id, `b${q.orderKey}|${wholeSize}|${wholeStart}`) || index()?.answers(q) === true;
  const count = (known?: number) =>
    cache.through(view.id, `c${q.countKey}`, { filter, count: true }, async () => {
      if (known !== undefined) return known;
      const n = index()?.count(q);
      if (n !== undefined) return n;
      return Number((await countQuery(view, q).execute(ctx.db)).rows[0]?.n ?? 0);
    });
  // A filter no index serves in order is counted first: when it selects few rows, they are sorted.
  const counted = !indexed && needsFence(q) ? await count() : undefined;
  const fence = counted !== undefined && counted <= FENCE_ROWS;
  // Few rows are found at once and sorted cheaply; formatting them is what costs: one page is read.
  let whole = cache.enabled && !(fence && counted <= FEW_ROWS);
  // A filter in an order asked for the first time reads its page alone: most such lists (a search, a
  // rare filter, one company's deep page) are never asked for again, and a page costs less than half a
  // block. The next page asked of it reads a block, unless it is that same page. Rows in memory read a
  // block for about what a page costs.
  if (whole && !indexed && (!cache.sighted(view.id, q.orderKey) || cache.has(view.id, `b${q.orderKey}|${q.size}|${q.page * q.size}`)))
    whole = false;
  const blockSize = whole ? wholeSize : q.size;
  // Page sizes that divide BLOCK_ROWS read the same blocks.
  const blockStart = Math.floor((q.page * q.size) / blockSize) * blockSize;
  const weight = (b: unknown) => (b as CachedBlock).rows.length;
  const group = `${q.orderKey}|${blockSize}`;
  const block = await cache.through(view.id, `b${group}|${blockStart}`, { filter, weight }, async (): Promise<CachedBlock> => {
    // With the cache, a margin of rows on either side (see BLOCK_MARGIN).
    const margin = whole ? BLOCK_MARGIN : 0;
    const offset = Math.max(0, blockStart - margin);
    const limit = blockStart - offset + blockSize + margin;
    const shape = { order: q.sort, group, start: blockStart, size: blockSize, lead: blockStart - offset };
    const inMemory = index()?.page(q, offset, limit);
    if (inMemory) return { rows: inMemory.rows, keys: inMemory.keys, toEnd: inMemory.toEnd, ...shape };
    // Each row also carries its sort key: a later write tells by them where its row goes in the block.
    const columns = sql`${selectList(view)}, ${sortKeyColumn(view, q)}`;
    const json = (await rowsJsonQuery(view, q, limit, offset, columns, fence).execute(ctx.db)).rows[0]?.rows ?? [];
    const keyed = (typeof json === 'string' ? JSON.parse(json) : json) as Row[];
    const keys = keyed.map((r) => r[SORT_KEY] as SortKey);
    // A copy without the key, not `delete`: that leaves objects slow to read and to serialise.
    const rows = keyed.map(({ [SORT_KEY]: _, ...row }) => row);
    return { rows, keys, toEnd: keyed.length < limit, ...shape };
  });
  const from = block.lead + q.page * q.size - blockStart;
  // A block that reaches the end of the list, and starts in it, tells the count without counting.
  const first = block.start - block.lead;
  const known = block.toEnd && (block.rows.length > 0 || first === 0) ? first + block.rows.length : undefined;
  const totalElements = counted ?? (await count(known));
  // A block is never changed, only replaced: the JSON of its pages is kept with it.
  let pages = pageJson.get(block);
  if (!pages) {
    pages = new Map();
    pageJson.set(block, pages);
  }
  const at = `${from},${q.size}`;
  let content = pages.get(at);
  if (content === undefined) {
    content = JSON.stringify(block.rows.slice(from, from + q.size));
    pages.set(at, content);
  }
  return `{"content":${content},"totalElements":${JSON.stringify(totalElements)}}`;
}

/** Export cell text: dictionary labels, file names instead of the JSON list. */
function exportCell(f: ViewField | undefined, v: unknown, dicts: Map<string, Map<string, string>>): unknown {
  if (v === null || v === undefined || !f) return v ?? null;
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

export default async function routes(app: App, ctx: AppContext): Promise<void> {
  const db = ctx.db;

  app.get('/api/general/list/:viewId', reads({ session: true }, { params: viewParams }), async (req, reply) => {
    const view = await designedView(ctx, req.params.viewId);
    const user = requirePermission(req, permission(view, 'list'));
    const scope = await rowScope(ctx, view, user);
    const page = await listPage(ctx, view, listQueryOf(view, req.url, req.query as Query, scope));
    return reply.type('application/json; charset=utf-8').send(page);
  });

  app.get(
    '/api/general/detail',
    reads({ session: true }, { querystring: z.object({ generalId: idSchema, id: idSchema }) }),
    async (req) => {
      const view = await designedView(ctx, req.query.generalId);
      const user = requirePermission(req, permission(view, 'list'));
      return readableRecord(ctx, view, user, req.query.id);
    },
  );

  const add = async (req: FastifyRequest<{ Params: { viewId: number } }>) => {
    const view = await designedView(ctx, req.params.viewId);
    const user = requirePermission(req, permission(view, 'add'));
    const values = recordValues(view, recordBody(req.body));
    // The references are judged by the insert itself; one it refuses is judged again to name the field.
    let id = await addRecord(ctx, view, values, user, await referenceCondition(ctx, view, user, values));
    if (id === null) {
      await checkReferences(ctx, view, user, values);
      id = await addRecord(ctx, view, values, user);
    }
    return { ...OK, id };
  };
  app.route({
    method: ['POST', 'PUT'],
    url: '/api/general/add/:viewId',
    ...reads({ session: true }, { params: viewParams }),
    handler: add,
  });

  const update = async (req: FastifyRequest<{ Params: { viewId: number } }>) => {
    const view = await designedView(ctx, req.params.viewId);
    const user = requirePermission(req, permission(view, 'edit'));
    const body = recordBody(req.body);
    const id = idSchema.safeParse(body.id);
    if (!id.success) throw badRequest('id 不能为空');
    const scope = await rowScope(ctx, view, user);
    // The rows in memory tell, when they can, without a statement.
    const held = lowcodeState(ctx).indexes.record(view, id.data, scope);
    const existing = held === undefined ? await findRecord(db, view, id.data, scope) : (held ?? undefined);
    if (!existing) throw notFound();
    const values = recordValues(view, body, existing);
    // As on add: a refused write is judged again, and a record gone meanwhile is not found.
    const condition = await referenceCondition(ctx, view, user, values, existing);
    if (await updateRecord(ctx, view, id.data, values, scope, condition)) return OK;
    if (!condition) throw notFound();
    await checkReferences(ctx, view, user, values, existing);
    if (!(await updateRecord(ctx, view, id.data, values, scope))) throw notFound();
    return OK;
  };
  app.route({
    method: ['POST', 'PUT'],
    url: '/api/general/update/:viewId',
    ...reads({ session: true }, { params: viewParams }),
    handler: update,
  });

  app.post('/api/general/delete/:viewId', reads({ session: true }, { params: viewParams }), async (req) => {
    const view = await designedView(ctx, req.params.viewId);
    const user = requirePermission(req, permission(view, 'del'));
    const ids = idsFrom(req.body, req.query);
    const scope = await rowScope(ctx, view, user);
    // One id outside the scope refuses the whole delete, answered as missing.
    if (!(await allWithin(db, view, ids, scope))) throw notFound();
    await deleteRecords(ctx, view, ids, scope);
    return OK;
  });

  // Options for linked selects: label from the first text field, value = id. queryParam is either
  // JSON (field filters, as in the list call) or plain text matched against the label. It needs the view's
  // list permission, or the list permission of a view whose field picks from it: the latter may filter by
  // the label only, so that no other field's values can be guessed.
  app.get(
    '/api/general/allList/:viewId/queryLink',
    reads({ session: true }, { params: viewParams, querystring: z.object({ queryParam: z.string().optional() }) }),
    async (req) => {
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
      if (!lists && Object.keys(filters).some((k) => k !== labelField.name)) throw forbidden(QUERY_LINK_FILTER_DENIED);
      // Options are the records of the caller's row scope in that view, whether it lists the view or only
      // draws from it (a carrier picks among the disposal orders that name it as their carrier).
      const scope = await rowScope(ctx, view, user);
      const q = parseListQuery(view, { ...filters, sort: `${labelField.name},asc`, size: '1000' }, scope);
      const columns = sql`t.${sql.ref(labelField.name)} as label, t.id as value`;
      const res = await rowsQuery<{ label: string | null; value: number }>(view, q, q.size, 0, columns).execute(db);
      return res.rows.map((r) => ({ label: r.label ?? '', value: r.value }));
    },
  );

  app.post(
    '/api/general/groovy/:viewId',
    reads({ session: true }, { params: viewParams, body: z.object({ groovyQueryParam: z.unknown(), ids: z.unknown() }).partial() }),
    async (req) => {
      const view = await designedView(ctx, req.params.viewId);
      // Which script actions a view has is told only to those who may list it.
      const user = requirePermission(req, permission(view, 'list'));
      const p = req.body?.groovyQueryParam;
      const key = isRecord(p) ? String(p.groovyAction ?? p.name ?? '') : isAbsent(p) ? '' : String(p);
      const button = view.buttons.find((b) => b.action === 'groovy' && key !== '' && (b.name === key || b.groovyAction === key));
      const action = button?.groovyAction ? ACTIONS[button.groovyAction] : undefined;
      if (!button?.groovyAction || !action) throw badRequest('未定义的脚本动作');
      requirePermission(req, ...buttonPermissions(button.roles));
      const ids = isAbsent(req.body?.ids) || (Array.isArray(req.body?.ids) && !req.body.ids.length) ? [] : idsFrom(req.body?.ids, {});
      // A script acts only on records of the caller's scope; one other id refuses it, as missing.
      if (!(await allWithin(db, view, ids, await rowScope(ctx, view, user)))) throw notFound();
      const answer = await action(ctx, view, ids);
      if (WRITING_ACTIONS.has(button.groovyAction)) changeView(ctx, view.id);
      return answer;
    },
  );

  // Initial values of the add form (dialogOption.initGroovy): the fields' defaultValue.
  app.post('/api/general/preAdd/:viewId', reads({ session: true }, { params: viewParams }), async (req) => {
    const view = await designedView(ctx, req.params.viewId);
    requirePermission(req, permission(view, 'add'));
    return { status: 200, data: defaultsOf(view) };
  });

  app.post('/api/general/:viewId/import', reads({ session: true }, { params: viewParams }), async (req, reply) => {
    const view = await designedView(ctx, req.params.viewId);
    const user = requirePermission(req, permission(view, 'add'));
    if (!req.isMultipart()) throw badRequest('请使用 multipart/form-data 上传文件');
    const { config } = ctx;
    const maxBytes = Math.min(config.importMaxBytes, config.maxUploadBytes);
    const file = await req.file({ limits: { fileSize: maxBytes } });
    if (!file) throw badRequest('请选择文件');
    if (!['.xls', '.xlsx'].includes(extname(file.filename).toLowerCase())) throw badRequest(ONLY_EXCEL);
    const data = await file.toBuffer().catch((e: { code?: string }) => {
      throw e.code === 'FST_REQ_FILE_TOO_LARGE' ? badRequest(`文件大小超过限制，导入文件不能超过 ${megabytes(maxBytes)}`) : e;
    });
    // Every limit is checked while reading, before anything is written.
    const sheet = await readWorkbook(data, {
      maxUnpackedBytes: config.importMaxUnpackedBytes,
      maxRatio: config.importMaxRatio,
      maxRows: config.importMaxRows,
      maxColumns: config.importMaxColumns,
      maxTextChars: config.importMaxTextChars,
    });
    if (!sheet.rows.length) throw badRequest('导入文件没有数据');

    const byHeader = new Map<string, ViewField>();
    for (const f of view.fields) if (f.show !== 4) byHeader.set(f.name, f);
    for (const f of view.fields) if (f.show !== 4) byHeader.set(f.label, f);
    const columns = sheet.header.map((h) => byHeader.get(h));
    if (!columns.some(Boolean)) throw badRequest('导入文件的表头与视图字段不匹配');
    // Exports show dictionary labels; a re-import turns them back into values.
    const labelsToValues = new Map<string, Map<string, string>>();
    for (const [dict, values] of await dictionaries(ctx, view.fields)) {
      labelsToValues.set(dict, new Map([...values].map(([v, l]) => [l, v])));
    }

    const checked: Row[] = [];
    const verdict = (cells: Sheet['rows'][number]) => {
      // A row is an add form filled from the sheet: what it leaves empty starts at the field's default.
      const record: Row = defaultsOf(view);
      columns.forEach((f, i) => {
        const v = cells[i];
        if (!f || v === null || v === undefined || v === '') return;
        const dict = f.dict ? labelsToValues.get(f.dict) : undefined;
        record[f.name] = typeof v === 'string' && dict?.has(v) ? dict.get(v) : v;
      });
      try {
        checked.push(recordValues(view, record));
        return '成功';
      } catch (e) {
        if (e instanceof RecordInvalid) return e.errors.map((x) => x.message).join('；');
        throw e;
      }
    };
    const verdicts: string[] = [];
    for (const cells of sheet.rows) {
      verdicts.push(verdict(cells));
      // Long sheets are checked in slices so other calls are served in between.
      if (verdicts.length % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    // A row picking a record outside the user's options fails like a row the form refuses.
    const problems = await referenceProblems(ctx, view, user, checked);
    const valid = checked.filter((_, i) => !problems[i]);
    let at = 0;
    verdicts.forEach((v, i) => {
      if (v !== '成功') return;
      const problem = problems[at++];
      if (problem) verdicts[i] = problem.message;
    });
    await insertRows(db, view, valid, user);
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
  });

  app.get('/api/general/:viewId/template', reads({ session: true, tokenInQuery: true }, { params: viewParams }), async (req, reply) => {
    const view = await designedView(ctx, req.params.viewId);
    requirePermission(req, permission(view, 'list'));
    // The columns an import writes: the form's editable fields.
    const header = view.formFields.filter((f) => f.show === 1 && !f.system).map((f) => f.label);
    return sendXlsx(reply, `${view.title}导入模板.xlsx`, await writeWorkbook(view.title, header, []));
  });

  const download = async (req: FastifyRequest<{ Params: { viewId: number } }>, reply: FastifyReply) => {
    const view = await designedView(ctx, req.params.viewId);
    const user = requirePermission(req, permission(view, 'list'));
    const query = req.query as Query;
    const q = parseListQuery(view, query, await rowScope(ctx, view, user), ['headers', 'fields', 'token']);
    const names = listOf(query.fields);
    const titles = listOf(query.headers);
    let fields = names.map((n) => {
      const f = view.byName.get(n);
      if (!f) throw badRequest(`导出字段不存在：${n}`);
      return f;
    });
    if (!fields.length) fields = (view.tableFields.length ? view.tableFields : view.formFields).filter((f) => f.show !== 4);
    const header = fields.map((f, i) => titles[i] ?? f.label);
    const rows = (await rowsQuery<Row>(view, q, EXPORT_MAX_ROWS).execute(db)).rows;
    const dicts = await dictionaries(ctx, fields);
    const data = rows.map((r) => fields.map((f) => exportCell(f, r[f.name], dicts)));
    return sendXlsx(reply, `${view.title}.xlsx`, await writeWorkbook(view.title, header, data));
  };
  app.get('/api/general/:viewId/download', reads({ session: true, tokenInQuery: true }, { params: viewParams }), download);
  // Seeded definitions set dialogOption.export to /api/general/export/{viewId}; the page calls {export}/download.
  app.get('/api/general/export/:viewId/download', reads({ session: true, tokenInQuery: true }, { params: viewParams }), download);
}
