import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import helmet, { type HelmetOptions } from 'helmet';
import type { Kysely } from 'kysely';
import { errorMessage } from '../src/shared/error-catalogue.js';
import { SIGN_MAX_AGE_MS, signRequest } from '../src/shared/sign.js';
import { hasPermission, pendingState, SessionService, type SessionUser } from './auth.js';
import { Bus } from './bus.js';
import type { ServerConfig } from './config.js';
import type { AppContext } from './context.js';
import { refusingWrites } from './db/audit.js';
import type { Database } from './db/database.js';
import type { DB } from './db/schema.js';
import { ApiError, badRequest, type ErrorCode, forbidden, invalidInput, refusal, statusRefusal } from './errors.js';
import { concurrentWriteLost, databaseInputCode, inputGuard } from './input-guard.js';
import { CallTimes } from './lib/call-times.js';
import { namedTable } from './lib/named-table.js';
import { rateLimitPluginOptions } from './login-guard.js';
import { Realtime } from './realtime.js';
import { logAnswered, loggerOptions } from './request-log.js';
import { loadResourceModules } from './resources/index.js';
import { addressLabel, auditIdOf } from './resources/register.js';
import { routeModules } from './routes/index.js';
import { loadSecrets } from './secrets.js';
import { setChineseZodMessages } from './zod-locale.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a session. Every route declares exactly one of public, session and permission. */
    public?: boolean;
    /** Any signed-in user. */
    session?: boolean;
    /** Required permission; any one of a list passes. Admin and the wildcard always pass. */
    permission?: string | string[];
    /**
     * Only for accounts of data scope 全部: the call reaches every company's records at once (SQL data
     * views, big screens), so the permission alone is not enough for a company's account.
     */
    platform?: boolean;
    /** Still callable while the account must change its expired password or accept the entry agreement. */
    pending?: boolean;
    /** Also accept the token as `?token=` (file preview and download links opened by the browser). */
    tokenInQuery?: boolean;
    /** Answered without a request signature: an address a browser loads by itself (a CSS background image). */
    unsigned?: boolean;
    /** Operation-log description; the call is written to sys_log when it answers. */
    log?: string;
    /** The contract call the route implements (`resource.call`), for routes registered from a contract. */
    contract?: string;
  }
  interface FastifyRequest {
    user: SessionUser | null;
  }
  interface FastifyInstance {
    /** The database handle a call's writer is made from (see writerOf). */
    writerBase: Kysely<DB>;
  }
}

export type App = FastifyInstance<
  import('node:http').Server,
  import('node:http').IncomingMessage,
  import('node:http').ServerResponse,
  import('fastify').FastifyBaseLogger,
  ZodTypeProvider
>;

/** An address under /api as the client sent it; only for choosing between the app page and a JSON 404. */
const isApiAddress = (url: string) => {
  let path = url.split('?')[0] ?? '';
  try {
    path = decodeURIComponent(path);
  } catch {
    // An undecodable address is judged as sent.
  }
  path = path.toLowerCase().replace(/\/{2,}/g, '/');
  return path === '/api' || path.startsWith('/api/');
};

/**
 * An address naming a file (under /assets, or a last segment with an extension other than .html): a
 * file the build does not hold is a 404, never the app page, so a stale script reference fails as one.
 */
const isFileAddress = (url: string) => {
  const path = url.split(/[?#]/)[0] ?? '';
  return path.startsWith('/assets/') || /\.(?!html?$)[A-Za-z0-9]+$/.test(path.slice(path.lastIndexOf('/') + 1));
};

/** The API as the router sees it: a matched route's own path, never the address as the client spelled it. */
const isApiRoute = (routeUrl: string | undefined) => routeUrl !== undefined && (routeUrl.startsWith('/api/') || routeUrl === '/api');

export interface RouteEntry {
  method: string;
  url: string;
  config: import('fastify').FastifyContextConfig;
  schema: import('fastify').FastifySchema | undefined;
  websocket: boolean;
}

const routeTables = new WeakMap<object, RouteEntry[]>();

/** Every route the app registered, with its access declaration and schemas, in registration order. */
export function routeTable(app: FastifyInstance | App): readonly RouteEntry[] {
  return routeTables.get(app) ?? [];
}

/** Which of the three access kinds a route declares; a route declaring none or several is a programming error. */
export function accessOf(config: import('fastify').FastifyContextConfig): 'public' | 'session' | 'permission' {
  const kinds = (['public', 'session', 'permission'] as const).filter((k) =>
    k === 'permission' ? config.permission !== undefined : config[k] === true,
  );
  if (kinds.length !== 1)
    throw new Error(`route must declare exactly one of public, session, permission (has ${kinds.join(', ') || 'none'})`);
  return kinds[0] as 'public' | 'session' | 'permission';
}

setChineseZodMessages();

/** Where in the request a problem is, in the words of the answer. */
const REQUEST_PART: Readonly<Record<string, string>> = namedTable({
  body: '请求体',
  querystring: '查询参数',
  params: '路径参数',
  headers: '请求头',
});

function zodMessage(err: FastifyError): string {
  const v = err.validation?.[0];
  if (!v) return err.message;
  const path = (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.');
  const part = err.validationContext ?? '';
  const where = [REQUEST_PART[part] ?? part, path].filter(Boolean).join(path && part ? ' ' : '');
  return `参数校验失败：${where} ${v.message ?? ''}`.trim();
}

/**
 * Security headers of every answer. The app, the designer and the big-screen viewer run no inline script
 * and load nothing from other origins; antd writes its styles at run time, hence inline styles. Frames:
 * this origin only, plus what FRAME_ANCESTORS adds for wall displays.
 */
export function securityHeaders(config: Pick<ServerConfig, 'frameAncestors'>): HelmetOptions {
  const self = ["'self'"];
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: self,
        scriptSrc: self,
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: self,
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: self,
        formAction: self,
        frameAncestors: ["'self'", ...config.frameAncestors],
        scriptSrcAttr: ["'none'"],
      },
    },
    // X-Frame-Options cannot name other origins: it is sent only when frames are this origin's alone.
    frameguard: config.frameAncestors.length ? false : { action: 'sameorigin' },
    // The filling-system entries open a popup the page keeps a handle on.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    // Plain-HTTP deployments (a LAN wall display) must not be told to upgrade.
    strictTransportSecurity: false,
  };
}

/**
 * Sends the security headers on every answer. They depend on nothing of the request, so helmet works
 * them out once, here, rather than for every request.
 */
export function addSecurityHeaders(app: FastifyInstance, options: HelmetOptions): void {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers.push([name, Array.isArray(value) ? value.join(', ') : String(value)]);
    },
    removeHeader: () => {},
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  app.addHook('onRequest', (_req, reply, done) => {
    for (const [name, value] of headers) reply.header(name, value);
    done();
  });
}

export async function buildApp(database: Database, config: ServerConfig): Promise<{ app: App; ctx: AppContext }> {
  const secrets = await loadSecrets(database.db);
  const bus = await Bus.open(
    database.db,
    database.kind === 'postgres' ? config.databaseUrl : undefined,
    (m) => app.log.warn(m),
    database.listen,
  );
  const ctx: AppContext = {
    instance: {},
    db: database.db,
    dbKind: database.kind,
    config,
    secrets,
    bus,
    sessions: new SessionService(database.db, secrets, config.sessionIdleMs, bus, config.clock, config.rememberMeMs),
    realtime: new Realtime(bus),
  };

  const app = Fastify({
    logger: loggerOptions(config.logLevel, config.logFormat),
    // One line per answered request instead of two (logAnswered), with secrets left out of the address.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 4 * 1024 * 1024,
    // A forwarded address is believed only from proxies the deployment names (TRUST_PROXY).
    trustProxy: config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  addSecurityHeaders(app, securityHeaders(config));
  await app.register(formbody);
  await app.register(multipart, { limits: { fileSize: config.maxUploadBytes, files: 10, fields: 50 } });
  await app.register(websocket);
  // Per-IP limits only on the routes that ask for one (the session calls).
  await app.register(rateLimit, rateLimitPluginOptions);
  app.decorateRequest('user', null);
  app.decorate('writerBase', ctx.db);
  app.addHook('onClose', () => bus.close());

  // What a request changed is known to every instance before it answers (see Bus.settled).
  if (bus.mode !== 'single-instance') {
    const started = new WeakMap<FastifyRequest, number>();
    app.addHook('onRequest', async (req) => {
      started.set(req, performance.now());
      // Whatever other instances committed before this request is applied here before it is served.
      await bus.barrier();
    });
    app.addHook('onSend', async (req) => {
      const since = started.get(req);
      if (since !== undefined) await bus.settled(since);
    });
  }

  // Who may call a route is decided by the route the router matched, so how the address was spelled
  // (encoded, mixed case, dot segments, doubled slashes) cannot matter. No match: the 404 handler.
  app.addHook('onRequest', async (req) => {
    if (!req.routeOptions.url) return;
    const rc = req.routeOptions.config;
    if (rc.public) return;
    let auth = req.headers.authorization;
    if (!auth && rc.tokenInQuery) {
      const t = (req.query as Record<string, unknown> | undefined)?.token;
      if (typeof t === 'string') auth = t;
    }
    req.user = await ctx.sessions.authenticate(auth);
    if (!rc.pending) {
      const pending = pendingState(req.user);
      if (pending) throw pending;
    }
    const perm = rc.permission;
    if (perm) {
      const list = Array.isArray(perm) ? perm : [perm];
      const roles = req.user.roles;
      if (!list.some((p) => hasPermission(roles, p))) throw forbidden();
    }
    if (rc.platform && !req.user.dataScope.all) throw forbidden('SCOPE_ALL_ONLY');
  });

  // Text the database cannot hold (NUL, lone surrogates) is a 400 for every route, after the access check.
  app.addHook('preValidation', inputGuard);

  if (config.signSecret) {
    const secret = config.signSecret;
    // Before validation: the query and body are checked as sent, not as a schema coerced or trimmed them.
    app.addHook('preValidation', async (req) => {
      if (!isApiRoute(req.routeOptions.url) || req.routeOptions.config.unsigned) return;
      // The query as sent, read from the address (isRefresh=1 stays the string 1).
      const query: Record<string, string | string[]> = {};
      const search = new URLSearchParams(req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '');
      for (const key of new Set(search.keys())) {
        const all = search.getAll(key);
        query[key] = all.length > 1 ? all : (all[0] as string);
      }
      const ts = String(req.headers.timestamp ?? query.timestamp ?? '');
      const sign = String(req.headers.sign ?? query.sign ?? '');
      // A timestamp sent as a header leaves the query's own `timestamp` (a share link's expiry) a signed parameter.
      if (!req.headers.timestamp) {
        delete query.timestamp;
        delete query.token;
      }
      if (!req.headers.sign) delete query.sign;
      if (!ts || !sign) throw badRequest('SIGNATURE_MISSING');
      const age = Math.abs(Date.now() - Number(ts));
      if (!Number.isFinite(age) || age > SIGN_MAX_AGE_MS) throw badRequest('SIGNATURE_EXPIRED');
      const body = req.isMultipart() ? undefined : (req.body as Record<string, unknown> | unknown[] | undefined);
      if (signRequest(query, body, ts, secret) !== sign.toUpperCase()) throw badRequest('SIGNATURE_INVALID');
    });
  }

  app.addHook('onResponse', (req, reply, done) => {
    logAnswered(req.log, req, reply);
    done();
  });
  // The audit trail's entries of a call that answered get its time; a logged call that changed no audited
  // record (a sign-in) gets one entry of its own.
  const callTimes = new CallTimes(ctx.db, (e) => app.log.warn({ err: e }, 'operation log write failed'));
  app.addHook('onClose', () => callTimes.settled());
  app.addHook('onResponse', async (req, reply) => {
    const description = req.routeOptions.config?.log;
    const requestId = auditIdOf(req) ?? null;
    // A call that asked for no writer changed no record: it has no trail to time (GET calls included).
    if (reply.statusCode >= 400 || (!description && !requestId)) return;
    const time = Math.round(reply.elapsedTime);
    const user = req.user;
    callTimes.add({
      requestId,
      time,
      entry: description
        ? {
            user_id: user?.id ?? null,
            username: user?.username ?? (req as FastifyRequest & { logUsername?: string }).logUsername ?? null,
            company_id: user?.companyId ?? null,
            description,
            method: `${req.method} ${req.routeOptions.url}`,
            request_ip: req.ip,
            address: addressLabel(req.ip),
            browser: String(req.headers['user-agent'] ?? '').slice(0, 255),
            time,
            request_id: requestId,
          }
        : undefined,
    });
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof ApiError) {
      return reply.status(err.statusCode).send(err.body());
    }
    const answer = (e: ApiError) => reply.status(e.statusCode).send(e.body());
    if (err.validation) return answer(invalidInput(zodMessage(err)));
    const known: Record<string, ErrorCode> = {
      FST_ERR_CTP_INVALID_JSON_BODY: 'BODY_NOT_JSON',
      FST_ERR_CTP_EMPTY_JSON_BODY: 'BODY_EMPTY',
      FST_ERR_CTP_INVALID_MEDIA_TYPE: 'MEDIA_TYPE_UNSUPPORTED',
      FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
      FST_REQ_FILE_TOO_LARGE: 'FILE_TOO_LARGE',
      FST_FILES_LIMIT: 'TOO_MANY_FILES',
      FST_INVALID_MULTIPART_CONTENT_TYPE: 'MULTIPART_REQUIRED',
      FST_PARTS_LIMIT: 'TOO_MANY_FIELDS',
      FST_FIELDS_LIMIT: 'TOO_MANY_FIELDS',
    };
    const hit = known[err.code ?? ''];
    if (hit) return answer(badRequest(hit));
    // Fastify's own refusals are in English: the answer is the status's catalogue entry, the text is logged.
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      req.log.info({ err }, 'request refused by the framework');
      return answer(statusRefusal(err.statusCode));
    }
    const dbInput = databaseInputCode(err);
    if (dbInput) {
      // A value the validation let through: still the caller's 400, logged so the missing check is found.
      req.log.error({ err }, 'unvalidated input reached the database');
      return answer(badRequest(dbInput));
    }
    if (concurrentWriteLost(err)) {
      req.log.error({ err }, 'a concurrent write landed between the checks and the write');
      return answer(refusal(409, 'CONFLICT'));
    }
    req.log.error({ err }, 'unhandled error');
    return answer(refusal(500, 'INTERNAL_ERROR'));
  });

  // Every route states who may call it; one that does not is refused at start-up, not left open.
  const table: RouteEntry[] = [];
  routeTables.set(app, table);
  app.addHook('onRoute', (route) => {
    const isOurs = route.url.startsWith('/api') || route.url.startsWith('/websocket');
    route.config ??= {};
    const config = route.config as import('fastify').FastifyContextConfig;
    // Files of the built app are public; they are registered by the static plugin.
    if (!isOurs && config.public === undefined && config.session === undefined && config.permission === undefined) config.public = true;
    try {
      accessOf(config);
    } catch (e) {
      throw new Error(`${route.method} ${route.url}: ${(e as Error).message}`);
    }
    for (const method of [route.method].flat()) {
      table.push({
        method,
        url: route.url,
        config,
        schema: route.schema,
        websocket: Boolean((route as { websocket?: boolean }).websocket),
      });
    }
  });

  // Route modules read through a handle that refuses to write the audit trail's tables: a call writes
  // them through its writer (writerOf), so that every change is recorded as its account's.
  const routeCtx: AppContext = { ...ctx, db: refusingWrites(ctx.db) };
  ctx.instance.home = routeCtx;
  for (const mod of [...routeModules, ...(await loadResourceModules())])
    await app.register(async (scope) => mod(scope as unknown as App, routeCtx));

  const indexHtml = join(config.staticDir, 'index.html');
  const hasStatic = existsSync(indexHtml);
  // The big-screen viewer's own page, when the build has it.
  const viewerHtml = join(config.staticDir, 'ls-preview.html');
  const hasViewer = existsSync(viewerHtml);
  if (hasStatic) {
    await app.register(fastifyStatic, { root: config.staticDir, wildcard: false, index: false });
  }
  app.setNotFoundHandler((req, reply) => {
    if (!isApiAddress(req.url) && !isFileAddress(req.url) && req.method === 'GET' && hasStatic) {
      // Client-side routes: every non-API GET answers the app shell, /lsPreview the viewer's page.
      const viewer = hasViewer && /^\/lsPreview\/?(\?|$)/.test(req.url);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(readFileSync(viewer ? viewerHtml : indexHtml));
    }
    const code = isFileAddress(req.url) && !isApiAddress(req.url) ? 'FILE_NOT_FOUND' : 'ROUTE_NOT_FOUND';
    return reply.status(404).send({ status: 404, code, message: errorMessage(code) });
  });

  return { app, ctx };
}
