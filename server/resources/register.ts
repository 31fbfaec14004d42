import { randomUUID } from 'node:crypto';
import type { FastifyContextConfig, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import {
  type CallSpec,
  declaredErrors,
  type HandlerAnswer,
  type HandlerInput,
  isFileAnswer,
  isMultipart,
  type ResourceSpec,
} from '../../src/contract/define.js';
import type { ErrorCode } from '../../src/shared/error-catalogue.js';
import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import { type AuditActor, writingAs } from '../db/audit.js';
import type { DB } from '../db/schema.js';

/** The request a call's handler reads: its parameters, query and body as the contract's schemas parsed them. */
export type CallRequest<C extends CallSpec> = FastifyRequest & HandlerInput<C>;

/** A call's handler: it answers the contract's answer, or sends its own reply (a file). */
export type Handler<C extends CallSpec> = (
  req: CallRequest<C>,
  reply: FastifyReply,
) => Promise<HandlerAnswer<C> | FastifyReply | undefined> | HandlerAnswer<C> | FastifyReply | undefined;

export type Handlers<R extends ResourceSpec> = { [K in keyof R['calls']]: Handler<R['calls'][K]> };

/** What a call's route adds to its declaration on this server: a hook before access (a shared rate limit), or route config (a per-route rate limit). */
export interface RouteExtras {
  onRequest?: onRequestHookHandler;
  config?: FastifyContextConfig;
}

/** A refusal answered with a code its call does not declare. */
export interface ContractViolation {
  call: string;
  status: number;
  code: string;
}

/** Refusals answered with an undeclared code since the server started (kept for the contract test; at most 1,000). */
export const contractViolations: ContractViolation[] = [];

/** How the operation log names a client address: the machine itself, or unknown. */
export const addressLabel = (ip: string) => (ip === '127.0.0.1' || ip === '::1' ? '内网IP' : '未知');

const auditIds = new WeakMap<FastifyRequest, string>();

/** The id the audit trail's entries of this request carry (none until it asked for its writer). */
export const auditIdOf = (req: FastifyRequest): string | undefined => auditIds.get(req);

/** The call each request being handled is for; its writer is made on first use. */
const callOf = new WeakMap<FastifyRequest, CallSpec>();
const writers = new WeakMap<FastifyRequest, Kysely<DB>>();

/**
 * The database handle a call writes through: every change it makes to a record of the audit trail's
 * tables is recorded as this request's account's, with the change (transactions begun on it included).
 * Made on first use, so a call that writes nothing pays nothing for it.
 */
export function writerOf(req: FastifyRequest): Kysely<DB> {
  let w = writers.get(req);
  if (!w) {
    const c = callOf.get(req);
    if (!c) throw new Error(`${req.method} ${req.url}: a writer is made only for a call's request, while its handler runs`);
    w = writingAs(req.server.writerBase, actorOf(req, c));
    writers.set(req, w);
  }
  return w;
}

/** The route modules' context with the call's writer as its database handle, for code that takes the context and writes. */
export const writingContext = <C extends AppContext>(ctx: C, req: FastifyRequest): C => ({ ...ctx, db: writerOf(req) });

/** Who makes a call's writes, for the audit trail: the signed-in account (none on public calls), where from, and the call. */
function actorOf(req: FastifyRequest, c: CallSpec): AuditActor {
  const id = randomUUID();
  auditIds.set(req, id);
  const u = req.user;
  return {
    u: u?.id ?? null,
    n: u?.username ?? null,
    c: u?.companyId ?? null,
    ip: req.ip,
    ad: addressLabel(req.ip),
    b: String(req.headers['user-agent'] ?? '').slice(0, 255),
    d: c.log ?? c.summary,
    m: `${c.method} ${c.path}`,
    r: id,
  };
}

/** The route options (access) a call's declaration gives. */
export function accessConfig(resourceName: string, name: string, c: CallSpec): FastifyContextConfig {
  const config: FastifyContextConfig = { contract: `${resourceName}.${name}` };
  if (c.access === 'public') config.public = true;
  else if (c.access === 'session') config.session = true;
  else config.permission = typeof c.access.permission === 'string' ? c.access.permission : [...c.access.permission];
  if (c.platform) config.platform = true;
  if (c.pending) config.pending = true;
  if (c.tokenInQuery) config.tokenInQuery = true;
  if (c.unsigned) config.unsigned = true;
  if (c.log) config.log = c.log;
  return config;
}

/**
 * Registers a resource's routes from its contract: each call's address, access, input schemas and
 * answer schema come from its declaration (so the answer is checked against its shape when sent), and
 * its handler from `handlers`. A refusal whose code the call does not declare is recorded and logged.
 */
export function registerResource<R extends ResourceSpec>(
  app: App,
  r: R,
  handlers: Handlers<R>,
  extras: { [K in keyof R['calls']]?: RouteExtras } = {},
): void {
  for (const [name, c] of Object.entries(r.calls) as [string, CallSpec][]) {
    const handler = handlers[name as keyof R['calls']] as Handler<CallSpec> | undefined;
    if (!handler) throw new Error(`${r.name}.${name}: no handler`);
    const declared = declaredErrors(c);
    const schema: Record<string, unknown> = {};
    if (c.params) schema.params = c.params;
    if (c.query) schema.querystring = c.query;
    if (c.body && !isMultipart(c.body)) schema.body = c.body;
    if (!isFileAnswer(c.answer)) schema.response = { [c.status ?? 200]: c.answer };
    const extra = extras[name as keyof R['calls']];
    app.route({
      method: c.method,
      url: c.path,
      config: { ...extra?.config, ...accessConfig(r.name, name, c) },
      ...(extra?.onRequest ? { onRequest: extra.onRequest } : {}),
      schema,
      onSend: async (req, reply, payload) => {
        if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
        let code: unknown;
        try {
          code = (JSON.parse(payload) as { code?: unknown }).code;
        } catch {
          return payload;
        }
        if (typeof code === 'string' && !declared.has(code as ErrorCode)) {
          if (contractViolations.length < 1000) contractViolations.push({ call: `${r.name}.${name}`, status: reply.statusCode, code });
          req.log.warn({ call: `${r.name}.${name}`, code }, 'refusal not declared by the contract');
        }
        return payload;
      },
      handler: async (req, reply) => {
        // Every record the handler changes through writerOf(req) is written to the audit trail as this account's.
        callOf.set(req, c);
        const out = await handler(req as unknown as CallRequest<CallSpec>, reply);
        if (c.status && c.status !== 200 && !reply.sent) reply.status(c.status);
        return out;
      },
    });
  }
}
