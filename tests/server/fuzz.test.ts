import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RouteEntry, routeTable } from '../../server/app.js';
import { DATABASE_INPUT_CODES } from '../../server/input-guard.js';
import { type ApiClient, type ApiResponse, startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Every route of the running app, called as the administrator (so access passes and the route's own
 * validation is what answers), with generated hostile values in its path parameters, its declared query
 * and body keys, and extra keys of its own. No answer may be a 5xx, and none may be the error handler's
 * translation of a database refusal: that means a value reached SQL unchecked.
 *
 * Runs are seeded: FUZZ_SEED reproduces a run (the seed is printed), FUZZ_RUNS sets the runs per route.
 */

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
/** One request may take this long before the route counts as hanging. */
const REQUEST_TIMEOUT_MS = 20_000;

/**
 * Routes not fuzzed, and why. Logging out ends the administrator's session that every later call
 * uses; the websocket is not an HTTP call (its token check has its own tests).
 */
const SKIPPED = new Set(['POST /api/auth/logout', 'DELETE /api/auth/logout', 'GET /websocket']);

const LONG = 10_000;
/** Hostile texts: what a validator most often forgets. */
const HOSTILE_TEXT = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\udfff\ud800',
  'constructor',
  '__proto__',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'constructor,desc',
  '__proto__,asc',
  'toString,asc',
  'hasOwnProperty,desc',
  'id,sideways',
  'id,desc,extra',
  ',',
  '12345678901234567890',
  '99999999999',
  '2147483648',
  '-2147483649',
  '9223372036854775808',
  '-1',
  '-0',
  '0',
  '1.5',
  '1e309',
  '-1e309',
  '1e21',
  'NaN',
  'Infinity',
  '0x10',
  '',
  ' ',
  '\t\n',
  "' or '1'='1",
  "'; drop table sys_user; --",
  '"; select pg_sleep(5); --',
  '%',
  '_',
  '\\',
  "E'\\''",
  '$1',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  '%00',
  '%2e%2e%2f',
  '{"a":1}',
  '[1,2]',
  'null',
  'undefined',
  '2026-13-45',
  '9999-99-99 99:99:99',
  '0000-00-00',
  '99999-01-01',
  '<script>alert(1)</script>',
  '\u202e\u200b\ufeff',
  '𠮷'.repeat(40),
  'x'.repeat(LONG),
  '中'.repeat(LONG),
  '1,'.repeat(LONG / 2),
];
const HOSTILE_NUMBERS = [-1, -2147483649, 1.5, 2147483648, 2 ** 53 + 2, 1e21, -1e21, 1e308, 5e-324, 1.2345678901234567e19];
/** Extra keys: names handlers read without declaring them, and names no handler should trust. */
const EXTRA_KEYS = [
  'page',
  'size',
  'sort',
  'id',
  'ids',
  'name',
  'blurry',
  'status',
  'type',
  'startTime',
  'endTime',
  'createTime',
  'deptId',
  'pid',
  'viewId',
  'generalId',
  'dataViewId',
  'queryParam',
  'fields',
  'headers',
  'disTemplate',
  'disMenu',
  'username',
  'password',
  'code',
  'uuid',
  'value',
  'year',
  'key',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'a\u0000',
  '\ud800',
  'k'.repeat(300),
];

const hostileText = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('\u0000', '\ud800', '\udc00', 'a', ',', '%', "'", '中'), maxLength: 12 }) },
);
/** Any JSON value a schema might not expect. `true` is left out: it coerces to 1, a real id. */
const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 8, arbitrary: hostileText },
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
    { weight: 1, arbitrary: fc.constantFrom(null, false) },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 3 }) },
    {
      weight: 1,
      arbitrary: fc.dictionary(fc.constantFrom(...EXTRA_KEYS), tie('value'), { maxKeys: 3 }),
    },
  ),
})).value;

/* ---------- reading a route's declared zod schemas ---------- */

interface ZodLike {
  _zod: { def: Record<string, unknown> & { type: string } };
  minValue?: number | null;
  maxValue?: number | null;
}
const isZod = (s: unknown): s is ZodLike => typeof s === 'object' && s !== null && '_zod' in s;

/** The schema under optional, nullable, default, pipe and the like. */
function unwrap(s: ZodLike, depth = 0): ZodLike {
  const def = s._zod.def;
  if (depth > 20) return s;
  const inner =
    def.innerType ?? (def.type === 'pipe' ? def.in : undefined) ?? (def.type === 'lazy' ? (def.getter as () => unknown)() : undefined);
  return isZod(inner) ? unwrap(inner, depth + 1) : s;
}

/** Declared keys of an object schema (of every object in a union), each with its schema. */
function keysOf(s: unknown): Map<string, ZodLike> {
  const out = new Map<string, ZodLike>();
  if (!isZod(s)) return out;
  const u = unwrap(s);
  const def = u._zod.def;
  if (def.type === 'object') for (const [k, v] of Object.entries(def.shape as Record<string, unknown>)) if (isZod(v)) out.set(k, v);
  if (def.type === 'union') for (const o of def.options as unknown[]) for (const [k, v] of keysOf(o)) out.set(k, v);
  if (def.type === 'intersection') for (const side of [def.left, def.right]) for (const [k, v] of keysOf(side)) out.set(k, v);
  return out;
}

/**
 * A value the schema would accept, so that other keys get past it and the hostile one reaches the
 * handler. Ids take the largest PostgreSQL integer: valid, and no row has it, so nothing is changed.
 */
function plausible(s: ZodLike, depth = 0): unknown {
  const u = unwrap(s);
  const def = u._zod.def;
  if (depth > 6) return undefined;
  switch (def.type) {
    case 'string':
      return 'fuzz';
    case 'number':
    case 'int': {
      const max = typeof u.maxValue === 'number' && Number.isFinite(u.maxValue) ? u.maxValue : 2_147_483_647;
      return Math.min(max, 2_147_483_647);
    }
    case 'boolean':
      return false;
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'array':
      return isZod(def.element) ? [plausible(def.element, depth + 1)] : [];
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const [k, v] of keysOf(u)) o[k] = plausible(v, depth + 1);
      return o;
    }
    case 'union':
      return isZod((def.options as unknown[])[0]) ? plausible((def.options as ZodLike[])[0] as ZodLike, depth + 1) : 'fuzz';
    default:
      return 'fuzz';
  }
}

/* ---------- building requests ---------- */

/** Percent-encoding of any text, lone surrogates included (as the bytes a careless client would send). */
function encode(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff;
    if (pair) {
      out += encodeURIComponent(s.slice(i, i + 2));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out +=
        `%${(0xe0 | (c >> 12)).toString(16)}%${(0x80 | ((c >> 6) & 0x3f)).toString(16)}%${(0x80 | (c & 0x3f)).toString(16)}`.toUpperCase();
    } else out += encodeURIComponent(s[i] as string);
  }
  return out;
}

const scalarText = (v: unknown): string =>
  typeof v === 'string' ? v : v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

interface Attempt {
  params: string[];
  query: [string, unknown][];
  body: Record<string, unknown> | unknown[] | string | null;
  encoding: 'json' | 'form' | 'multipart' | 'none';
  fileName: string;
}

/** Entries of a generated object: declared keys (hostile or plausible) and extra keys (hostile). */
function entries(declared: Map<string, ZodLike>): fc.Arbitrary<[string, unknown][]> {
  const declaredArb = fc.tuple(
    ...[...declared].map(([k, schema]) =>
      fc.oneof(
        { weight: 3, arbitrary: hostileJson.map((v) => [k, v] as [string, unknown]) },
        { weight: 2, arbitrary: fc.constant([k, plausible(schema)] as [string, unknown]) },
        { weight: 1, arbitrary: fc.constant(null) },
      ),
    ),
  );
  const extraArb = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...EXTRA_KEYS), hostileText), hostileJson), { maxLength: 3 });
  return fc
    .tuple(declared.size ? declaredArb : fc.constant([] as ([string, unknown] | null)[]), extraArb)
    .map(([d, e]) => [...d.filter((x): x is [string, unknown] => x !== null), ...e]);
}

function attemptOf(route: RouteEntry): fc.Arbitrary<Attempt> {
  const paramNames = [...route.url.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)|\*/g)];
  const schema = route.schema as { querystring?: unknown; body?: unknown } | undefined;
  const bodyIsArray = isZod(schema?.body) && unwrap(schema.body as ZodLike)._zod.def.type === 'array';
  const hasBody = route.method !== 'GET' && route.method !== 'HEAD';
  const body: fc.Arbitrary<Attempt['body']> = !hasBody
    ? fc.constant(null)
    : fc.oneof(
        { weight: 6, arbitrary: entries(keysOf(schema?.body)).map((e) => Object.fromEntries(e)) },
        { weight: bodyIsArray ? 6 : 1, arbitrary: fc.array(hostileJson, { maxLength: 4 }) },
        { weight: 1, arbitrary: hostileText },
      );
  return fc.record({
    params: fc.tuple(...paramNames.map(() => hostileText)),
    query: entries(keysOf(schema?.querystring)),
    body,
    encoding: hasBody
      ? fc.oneof({ weight: 6, arbitrary: fc.constant('json' as const) }, fc.constant('form' as const), fc.constant('multipart' as const))
      : fc.constant('none' as const),
    fileName: hostileText,
  });
}

async function send(client: ApiClient, route: RouteEntry, a: Attempt): Promise<ApiResponse> {
  let i = 0;
  const path = route.url.replace(/:([A-Za-z_][A-Za-z0-9_]*)|\*/g, () => encode(a.params[i++] ?? ''));
  const query = a.query
    .flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x] as const) : [[k, v] as const]))
    .map(([k, v]) => `${encode(k)}=${encode(scalarText(v))}`)
    .join('&');
  const url = query ? `${path}?${query}` : path;
  if (a.encoding === 'json') return client.request(route.method, url, { json: a.body });
  if (a.encoding === 'form') {
    const body = a.body;
    const pairs = typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.entries(body) : [['value', body]];
    const form = pairs.map(([k, v]) => `${encode(String(k))}=${encode(scalarText(v))}`).join('&');
    return client.request(route.method, url, {
      body: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }
  if (a.encoding === 'multipart') {
    const form = new FormData();
    const body = a.body;
    const pairs = typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.entries(body) : [['value', body]];
    for (const [k, v] of pairs) form.append(String(k), scalarText(v));
    form.append('file', new Blob([Buffer.from('PK\u0003\u0004 not really a workbook')]), a.fileName || 'x.xlsx');
    return client.request(route.method, url, { body: form });
  }
  return client.request(route.method, url);
}

/** The answer, or a failure when the route has not answered within REQUEST_TIMEOUT_MS. */
async function withinTime<T>(answer: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)), REQUEST_TIMEOUT_MS);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

/* ---------- the run ---------- */

let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = await startTestServer({
    // The fuzz logs in again when a route ended the session; throttling must not refuse that.
    loginRateMax: 1_000_000,
    captchaRateMax: 1_000_000,
    loginLockFailures: 1_000_000,
  });
  admin = await server.login('admin');
});
afterAll(async () => {
  await server?.close();
});

/** Reads first, then writes, deletes last: a delete that did land cannot starve the routes after it. */
const ORDER: Record<string, number> = { GET: 0, HEAD: 0, POST: 1, PUT: 1, PATCH: 1, DELETE: 2 };

describe('every route shrugs off hostile input', () => {
  it('answers no 5xx and lets no bad value reach the database', { timeout: 600_000 }, async () => {
    console.log(`fuzz seed ${SEED} (FUZZ_SEED=${SEED} reproduces), ${RUNS} runs per route`);
    const routes = routeTable(server.app)
      .filter((r) => !r.websocket && !SKIPPED.has(`${r.method} ${r.url}`) && r.method !== 'HEAD' && r.method !== 'OPTIONS')
      .filter((r) => r.url.startsWith('/api'))
      .map((r, index) => ({ r, index }))
      .sort((a, b) => (ORDER[a.r.method] ?? 1) - (ORDER[b.r.method] ?? 1) || a.index - b.index);
    expect(routes.length).toBeGreaterThan(100);

    const failures: string[] = [];
    /** Routes where at least one call got past access to the route's own answer. */
    let reached = 0;
    for (const { r, index } of routes) {
      let got = false;
      const seed = SEED + index;
      const result = await fc.check(
        fc.asyncProperty(attemptOf(r), async (a) => {
          const res = await withinTime(send(admin, r, a));
          const body = typeof res.body === 'object' && res.body !== null && !Buffer.isBuffer(res.body) ? res.body : undefined;
          const message = body?.message;
          if (res.status !== 401 && res.status !== 403) got = true;
          if (res.status >= 500) throw new Error(`${res.status} ${String(message)}`);
          if (res.status === 400 && DATABASE_INPUT_CODES.has(body?.code)) throw new Error(`database refused a value: ${message}`);
        }),
        { seed, numRuns: RUNS, endOnFailure: true },
      );
      if (result.failed) {
        const example = JSON.stringify(result.counterexample?.[0], (_k, v) =>
          typeof v === 'string' && v.length > 80 ? `${v.slice(0, 80)}…(${v.length})` : v,
        );
        failures.push(
          `${r.method} ${r.url} (seed ${seed}): ${String((result.errorInstance as Error | undefined)?.message ?? result.errorInstance)}\n    ${example}`,
        );
      }
      if (got) reached++;
      // A route may have ended or limited the administrator's session (a reset of its own password):
      // the routes after it must still be called as the administrator.
      const me = await admin.get('/api/auth/info');
      if (me.status !== 200) {
        failures.push(`${r.method} ${r.url} (seed ${seed}) ended the administrator's session: ${me.status}`);
        admin = await server.login('admin');
      }
    }
    console.log(`fuzz: ${routes.length} routes, ${reached} answered past access, ${failures.length} failing`);
    expect(failures, failures.join('\n')).toEqual([]);
    // Most routes must have been judged by their own validation, not refused at the door.
    expect(reached).toBeGreaterThan(routes.length * 0.9);
  });
});
