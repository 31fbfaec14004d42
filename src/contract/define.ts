/**
 * The API contract's building blocks. A resource declares each of its calls once: method, address,
 * what it reads (path parameters, query, body), what it answers, who may call it and which refusals it
 * may answer. The server registers its routes from these declarations (server/resources), the app
 * calls through them (src/request/api.ts), and docs/openapi.json is generated from them.
 *
 * This layer imports only zod, src/shared and the model, so the app, the server and the CLI share it.
 */
import type { z } from 'zod';
import type { ErrorCode } from '../shared/error-catalogue.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Who may call: anyone, any signed-in account, or an account holding one of the permissions. */
export type Access = 'public' | 'session' | { permission: string | readonly string[] };

/** An answer that is a file (a download, an export, a picture) rather than JSON. */
export const FILE = { file: true } as const;
/** A body sent as multipart/form-data (an upload); its parts are read by the handler. */
export const MULTIPART = { multipart: true } as const;

export type Answer = z.ZodType | typeof FILE;
export type Body = z.ZodType | typeof MULTIPART;

export interface CallSpec {
  method: Method;
  /** The address, with `:name` for each path parameter. */
  path: `/api/${string}`;
  /** What the call does, in a few Chinese words (the operation's title in the API document). */
  summary: string;
  access: Access;
  /** Only for accounts of data scope 全部: the call reaches every company's records at once. */
  platform?: boolean;
  /** Still callable while the account must change its expired password or accept the entry agreement. */
  pending?: boolean;
  /** Also accept the token as `?token=` (addresses a browser opens by itself: previews and downloads). */
  tokenInQuery?: boolean;
  /** Answered without a request signature: an address a browser loads by itself. */
  unsigned?: boolean;
  /** Operation-log description; the call is written to the operation log when it answers. */
  log?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: Body;
  /** The body goes form-encoded (`application/x-www-form-urlencoded`) rather than as JSON. */
  form?: boolean;
  /** The 200 answer. */
  answer: Answer;
  /** The HTTP status of a successful answer (200 unless said). */
  status?: 200 | 201;
  /** The refusals this call answers beyond the ones every call of its access may answer (ANY_CALL_ERRORS). */
  errors: readonly ErrorCode[];
  /**
   * What the contract test sends, as its allowed account: the demo account `as` (the administrator when
   * not said) with these parameters, query and body. A GET must answer 200 with them, unless `refuses`
   * names the refusal it must answer instead (a call that needs what a test cannot hold: a signed share
   * link, an uploaded file).
   */
  example?: { as?: string; params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown; refuses?: ErrorCode };
}

export interface ResourceSpec<C extends Record<string, CallSpec> = Record<string, CallSpec>> {
  /** The resource's name, as its file is named. */
  name: string;
  /** What the resource is, in Chinese (the API document's tag). */
  title: string;
  /**
   * The number of a list's first page on the wire: 0 for the lists of the specification, 1 for the
   * message calls, whose first page is 1. Every paged call of the resource reads `page` this way.
   */
  pageBase: 0 | 1;
  calls: C;
}

/** What a call declares beyond its method, address, title and access. */
export type CallRest = Omit<CallSpec, 'method' | 'path' | 'summary' | 'access'>;

/** Who may call, as the positional form names it: `public`, `session`, or the permission (or any of the permissions) it needs. */
export type Who = 'public' | 'session' | string | readonly string[];
/** The access a `Who` names. */
export type AccessOf<W extends Who> = W extends 'public' | 'session' ? W : { permission: W };

/**
 * One call's declaration, kept exactly as written so its schemas stay typed: its method, address,
 * title and who may call first, then the rest; or the whole declaration as one object.
 */
export function call<const C extends CallSpec>(spec: C): C;
export function call<
  const M extends Method,
  const P extends CallSpec['path'],
  const S extends string,
  const W extends Who,
  const R extends CallRest,
>(method: M, path: P, summary: S, who: W, rest: R): { method: M; path: P; summary: S; access: AccessOf<W> } & R;
export function call(head: CallSpec | Method, path?: CallSpec['path'], summary?: string, who?: Who, rest?: CallRest): CallSpec {
  if (typeof head !== 'string') return head;
  const access: Access = who === 'public' || who === 'session' ? who : { permission: who as string | readonly string[] };
  return { method: head, path: path as CallSpec['path'], summary: summary as string, access, ...(rest as CallRest) };
}

/**
 * A call under a permission that the operation log records by its title: the API document's summary
 * and the log's description are the same words.
 */
export const write = <
  const M extends Method,
  const P extends CallSpec['path'],
  const T extends string,
  const A extends string | readonly string[],
  const R extends Omit<CallRest, 'log'>,
>(
  method: M,
  path: P,
  title: T,
  permission: A,
  rest: R,
) => call(method, path, title, permission, { log: title, ...rest });

/** A resource's declaration: its name, title and calls, each named; its lists count pages from 0 unless it says 1. */
export const resource = <const C extends Record<string, CallSpec>>(
  name: string,
  title: string,
  calls: C,
  options: { pageBase?: 0 | 1 } = {},
): ResourceSpec<C> => ({ name, title, pageBase: options.pageBase ?? 0, calls });

/** The refusals any call may answer, by what it reads and who may call it, beside its own list. */
export const ANY_CALL_ERRORS: readonly ErrorCode[] = [
  'INVALID_INPUT',
  'BODY_NOT_JSON',
  'BODY_EMPTY',
  'BODY_NOT_OBJECT',
  'MEDIA_TYPE_UNSUPPORTED',
  'BODY_TOO_LARGE',
  'SIGNATURE_MISSING',
  'SIGNATURE_EXPIRED',
  'SIGNATURE_INVALID',
  'INPUT_NUL',
  'INPUT_SURROGATE',
  'INPUT_TOO_DEEP',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
  // A concurrent write that landed between the call's checks and its write (a lost race).
  'CONFLICT',
];
/** What a call behind a session may answer besides: no session, an expired password, no agreement. */
export const SESSION_ERRORS: readonly ErrorCode[] = ['SESSION_EXPIRED', 'NOT_SIGNED_IN', 'PASSWORD_EXPIRED', 'AGREEMENT_PENDING'];
/** What a call behind a permission may answer besides. */
export const PERMISSION_ERRORS: readonly ErrorCode[] = ['NO_PERMISSION'];
/** Uploads: the multipart limits. */
export const MULTIPART_ERRORS: readonly ErrorCode[] = ['FILE_TOO_LARGE', 'TOO_MANY_FILES', 'MULTIPART_REQUIRED', 'TOO_MANY_FIELDS'];

/** Every code a call may answer: its own, and the ones its access and its input bring. */
export function declaredErrors(c: CallSpec): Set<ErrorCode> {
  const codes = new Set<ErrorCode>([...ANY_CALL_ERRORS, ...c.errors]);
  if (c.access !== 'public') for (const e of SESSION_ERRORS) codes.add(e);
  if (typeof c.access === 'object') for (const e of PERMISSION_ERRORS) codes.add(e);
  if (c.platform) codes.add('SCOPE_ALL_ONLY');
  if (c.body === MULTIPART) for (const e of MULTIPART_ERRORS) codes.add(e);
  return codes;
}

/**
 * A call without its shapes: what goes on the wire (method, address, how the body and answer travel),
 * typed by the full declaration it stands for. `bare.gen.ts` holds one per call, written from the
 * contract, for app code that must not load zod (the login route's initial JS).
 */
export interface BareCall<C extends CallSpec = CallSpec> {
  readonly method: Method;
  readonly path: string;
  readonly form?: true;
  readonly file?: true;
  readonly multipart?: true;
  /** The declaration it stands for; a type only, never set. */
  readonly call?: C;
}

/** What goes on the wire for a call, from its declaration or its bare twin. */
export function wireOf(c: CallSpec | BareCall): { method: Method; path: string; form: boolean; file: boolean; multipart: boolean } {
  if ('access' in c)
    return { method: c.method, path: c.path, form: c.form === true, file: isFileAnswer(c.answer), multipart: isMultipart(c.body) };
  return { method: c.method, path: c.path, form: c.form === true, file: c.file === true, multipart: c.multipart === true };
}

/** The Fastify path of a contract path (`:id` is the same in both). */
export const isFileAnswer = (a: Answer): a is typeof FILE => (a as typeof FILE).file === true;
export const isMultipart = (b: Body | undefined): b is typeof MULTIPART => (b as typeof MULTIPART | undefined)?.multipart === true;

/** The names of a path's parameters, in order. */
export const pathParams = (path: string): string[] => [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string);

/** A path with its parameters filled in, each encoded. */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const v = params?.[name];
    if (v === undefined || v === null || v === '') throw new Error(`${path}: path parameter ${name} is missing`);
    return encodeURIComponent(String(v));
  });
}

/**
 * The address of a call a browser loads by itself (a picture's `src`, a preview opened in a tab): its path
 * with the parameters filled in and its query appended, each name and value encoded as a URI component;
 * a list repeats its name, and an absent value is left out.
 */
export function urlOf<C extends CallSpec>(c: C, input = {} as Pick<CallInput<C>, 'params' | 'query'>): string {
  const { params, query } = input as { params?: Record<string, unknown>; query?: Record<string, unknown> };
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v !== undefined && v !== null) pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(v))}`);
    }
  }
  const path = fillPath(c.path, params);
  return pairs.length ? `${path}?${pairs.join('&')}` : path;
}

type In<S> = S extends z.ZodType ? z.input<S> : never;
type Out<S> = S extends z.ZodType ? z.output<S> : never;

/** What the app passes to a call: the parameters, query and body its declaration reads. */
export type CallInput<C extends CallSpec> = (C['params'] extends z.ZodType ? { params: In<C['params']> } : { params?: undefined }) &
  (C['query'] extends z.ZodType ? { query?: In<C['query']> } : { query?: undefined }) &
  (C['body'] extends z.ZodType ? { body: In<C['body']> } : C['body'] extends typeof MULTIPART ? { body: FormData } : { body?: undefined });

/** What the app receives from a call: its answer as parsed JSON, or the unread Response of a file. */
export type CallAnswer<C extends CallSpec> = C['answer'] extends z.ZodType ? Out<C['answer']> : Response;

/** What the server's handler of a call reads. */
export interface HandlerInput<C extends CallSpec> {
  params: C['params'] extends z.ZodType ? Out<C['params']> : unknown;
  query: C['query'] extends z.ZodType ? Out<C['query']> : unknown;
  body: C['body'] extends z.ZodType ? Out<C['body']> : unknown;
}
/** What the server's handler of a call returns: the answer as its schema takes it. */
export type HandlerAnswer<C extends CallSpec> = C['answer'] extends z.ZodType ? In<C['answer']> : unknown;
