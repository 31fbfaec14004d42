/**
 * The engine's data providers over this app's request client and the reference server's calls:
 * which URL each call uses, how the answers read, and the page base each server list counts from
 * (the hooks hold pages 1-based). Failures are reported by the request client (error notice, 401
 * confirm, 403 to /401) and rejected as the engine's HttpError, a refused record's
 * `errors: [{ field, message }]` as its field → message map.
 */
import { type CallSpec, pathParams } from '../contract/define';
import { general } from '../contract/general';
import { type DataProvider, HttpError, type ImportResult, type ListProvider, type RecordRead, type Row } from '../engine';
import { DIGITS_TEXT } from '../model';
import { filenameFromDisposition, type RequestClient, RequestError, type RequestOptions } from '../request';
import type { contractCaller } from '../request/api';
import type { Download } from '../request/download';

/** `{status, data}` answers (preAdd, some details) carry the record in data; a detail answers the record itself. */
export function recordOf(answer: unknown): Row | undefined {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return undefined;
  const a = answer as Row;
  if ('data' in a) return a.data && typeof a.data === 'object' && !Array.isArray(a.data) ? (a.data as Row) : undefined;
  return a;
}

/**
 * A form's record: the record, and `writable` when the answer lists the only fields the caller may change
 * (formData); undefined when it holds no record.
 */
export function recordReadOf(answer: unknown): RecordRead | undefined {
  const values = recordOf(answer);
  if (!values) return undefined;
  const writable = (answer as Row).writable;
  return Array.isArray(writable) ? { values, writable: writable.map(String) } : { values };
}

/**
 * The generic record call is read as the form's: the same record with the same access, which also tells
 * what the caller may change of it. A definition's detailUrl names it, so a seeded or generated view's
 * edit form learns that too.
 */
const formReadOf = (detail: string) => (detail === general.calls.detail.path ? general.calls.formData.path : detail);

/** `{content, totalElements, totalEstimated?}`, or a plain list. */
export function pageOf(answer: unknown): { rows: Row[]; total: number; estimated?: boolean } {
  if (Array.isArray(answer)) return { rows: answer as Row[], total: answer.length };
  if (answer && typeof answer === 'object') {
    const a = answer as { content?: unknown; totalElements?: unknown; totalEstimated?: unknown };
    const rows = Array.isArray(a.content) ? (a.content as Row[]) : [];
    const total = Number(a.totalElements);
    if (!Number.isFinite(total)) return { rows, total: rows.length };
    return a.totalEstimated === true ? { rows, total, estimated: true } : { rows, total };
  }
  return { rows: [], total: 0 };
}

/** A refused record's problems by field: the first message of each. */
export function fieldErrorsOf(body: unknown): Record<string, string> | undefined {
  const list = body && typeof body === 'object' ? (body as { errors?: unknown }).errors : undefined;
  if (!Array.isArray(list)) return undefined;
  const out: Record<string, string> = {};
  for (const e of list) {
    if (!e || typeof e !== 'object') continue;
    const { field, message } = e as { field?: unknown; message?: unknown };
    if (typeof field === 'string' && typeof message === 'string' && !Object.hasOwn(out, field)) out[field] = message;
  }
  return Object.keys(out).length ? out : undefined;
}

function httpErrorOf(e: unknown): unknown {
  if (!(e instanceof RequestError)) return e;
  return new HttpError(e.message, e.status, fieldErrorsOf(e.body));
}

/** Runs a call, its failure as an HttpError (an abort stays an abort). */
async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    throw httpErrorOf(e);
  }
}

/** The first page's number on the wire: a view's list and the administration lists count from 0. */
export type PageBase = 0 | 1;

/** The query with its 1-based `page` in the server's base. */
export function withPageBase(query: Record<string, unknown>, base: PageBase): Record<string, unknown> {
  const page = Number(query.page);
  return Number.isFinite(page) ? { ...query, page: Math.max(1, page) - 1 + base } : query;
}

const countOf = (v: string | null) => (v !== null && DIGITS_TEXT.test(v) ? Number(v) : undefined);

export function createDataProvider(http: RequestClient, download: Download): DataProvider {
  const options = (o: { signal?: AbortSignal; silent?: boolean }): RequestOptions => ({ signal: o.signal, silent: o.silent });
  return {
    getList: (p) => call(async () => pageOf(await http.get(p.resource.api.list, withPageBase(p.query, 0), options(p)))),
    getOne: (p) =>
      call(async () =>
        recordReadOf(await http.get(formReadOf(p.resource.api.detail), { generalId: p.resource.viewId, [p.key]: p.id }, options(p))),
      ),
    // A view with one submit URL takes both adds and updates there.
    create: (p) => call(() => http.post(p.resource.api.submit || p.resource.api.add, p.values, options(p))),
    update: (p) => call(() => http.post(p.resource.api.submit || p.resource.api.edit, p.values, options(p))),
    deleteMany: (p) => call(() => http.post(p.resource.api.del, p.ids, options(p))),
    export: (p) => download(p.resource.api.export, p.query, p.fileName),
    import: (p) =>
      call(async (): Promise<ImportResult> => {
        const body = new FormData();
        body.append('file', p.file, p.file.name);
        const response = await http.request<Response>(p.resource.api.import, { method: 'POST', multipart: body, responseType: 'response' });
        return {
          file: await response.blob(),
          fileName: filenameFromDisposition(response.headers.get('content-disposition')),
          succeeded: countOf(response.headers.get('x-import-success')),
          failed: countOf(response.headers.get('x-import-failed')),
        };
      }),
    preAdd: (p) => call(async () => recordOf(await http.post(p.resource.api.preAdd, {}, options(p)))),
    groovy: (p) => call(() => http.post(p.resource.api.groovy, { groovyQueryParam: { name: p.name, groovyAction: p.action }, ids: p.ids })),
    custom: <T>(c: Parameters<DataProvider['custom']>[0]) =>
      call(() =>
        http.request<T>(c.url, {
          ...options(c),
          method: c.method === 'post' ? 'POST' : 'GET',
          params: c.query,
          data: c.multipart ? undefined : c.payload,
          multipart: c.multipart,
          responseType: c.responseType,
        }),
      ),
  };
}

/**
 * A list that is not a view's (an administration resource, messages, the operation log): its list
 * URL and how its rows are deleted: the ids as the body of a DELETE or POST, as `ids=1,2` on a GET,
 * or one DELETE `{url}/{id}` each.
 */
export interface RestResource {
  list: string;
  del?: { url: string; method: 'delete' | 'post' | 'get' | 'delete-each' };
}

/** Lists and deletes of RestResources on a server whose pages count from `base`. */
export function createRestProvider(http: RequestClient, base: PageBase): ListProvider<RestResource> {
  return {
    getList: (p) => call(async () => pageOf(await http.get(p.resource.list, withPageBase(p.query, base), { signal: p.signal }))),
    deleteMany: ({ resource, ids, signal }) =>
      call(() => {
        const del = resource.del;
        if (!del) return Promise.reject(new Error(`${resource.list} deletes nothing`));
        if (del.method === 'get') return http.get(del.url, { ids: ids.join(',') }, { signal });
        if (del.method === 'delete-each') return Promise.all(ids.map((id) => http.delete(`${del.url}/${id}`, undefined, { signal })));
        return del.method === 'delete' ? http.delete(del.url, ids, { signal }) : http.post(del.url, ids, { signal });
      }),
  };
}

/** The typed client's caller. */
export type ContractCaller = ReturnType<typeof contractCaller>;

/** A list its contract declares: the call that reads a page, and the call that deletes rows. */
export interface ContractList {
  list: CallSpec;
  /** The ids go as its body, or, when its address names an `:id`, one call per id. */
  remove?: CallSpec;
}

/** Lists and deletes of contract lists through the typed client, on a resource whose pages count from `base`. */
export function createContractProvider(api: ContractCaller, base: PageBase): ListProvider<ContractList> {
  // A list's query and a delete's ids are the ones its declaration reads; the hooks hold them untyped.
  const send = (c: CallSpec, input: object, signal: AbortSignal | undefined) => api(c, input as never, { signal });
  return {
    getList: (p) => call(async () => pageOf(await send(p.resource.list, { query: withPageBase(p.query, base) }, p.signal))),
    deleteMany: ({ resource, ids, signal }) =>
      call(() => {
        const del = resource.remove;
        if (!del) return Promise.reject(new Error(`${resource.list.path} deletes nothing`));
        const [param] = pathParams(del.path);
        if (param) return Promise.all(ids.map((id) => send(del, { params: { [param]: id } }, signal)));
        return send(del, { body: ids }, signal);
      }),
  };
}
