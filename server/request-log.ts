import { createRequire } from 'node:module';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';

/**
 * The server's log: one line per answered request (method, address, status, time) and whatever the
 * server warns about. `pretty` writes lines people read (a terminal); `json` writes one JSON object per
 * line for a log collector. LOG_FORMAT chooses; without it, a terminal gets `pretty` and anything else
 * `json`. Tokens in query strings (the app's sign-in links carry one) are never written.
 */

export type LogFormat = 'pretty' | 'json';

export function logFormatOf(value: string | undefined, terminal = process.stdout.isTTY === true): LogFormat {
  if (value === 'pretty' || value === 'json') return value;
  return terminal ? 'pretty' : 'json';
}

/** Fastify's logger option for a level and format; false when the level is `silent`. */
export function loggerOptions(level: string, format: LogFormat): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  if (format === 'json') return { level };
  // Loaded only for people reading a terminal: a collector's server never loads the prettifier.
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  const stream = pretty({
    colorize: process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,reqId,req,res,responseTime,method,url,statusCode',
    singleLine: true,
    sync: true,
  });
  return { level, stream } as FastifyServerOptions['logger'];
}

/** Query parameters whose values are secrets. */
const SECRET_PARAMS = /([?&](?:token|access_token|password)=)[^&#]*/gi;

/** The address as it may be written to a log: secret query values replaced by `***`. */
export function loggableUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1***');
}

/**
 * Whether an answered request gets a log line: every call (the API and the realtime channel) and every
 * refusal or failure, but not the app's own files and pages (scripts, styles, images, the app page a
 * client route answers) when they are served well: a page load would write dozens of lines.
 */
export function isLogged(url: string, statusCode: number): boolean {
  if (statusCode >= 400) return true;
  return /^\/(api|websocket)(\/|\?|$)/i.test(url);
}

/**
 * The one line logged for an answered request. The request's logger already carries its `reqId`, so
 * the line's own fields leave it out (it would be written twice).
 */
export function logAnswered(log: FastifyBaseLogger, req: FastifyRequest, reply: FastifyReply): void {
  if (!isLogged(req.url, reply.statusCode)) return;
  const ms = Math.round(reply.elapsedTime * 10) / 10;
  const url = loggableUrl(req.url);
  const fields = { method: req.method, url, statusCode: reply.statusCode, responseTime: ms };
  const line = `${req.method} ${url} ${reply.statusCode} ${ms} ms`;
  if (reply.statusCode >= 500) log.error(fields, line);
  else log.info(fields, line);
}
