import type { FastifyContextConfig } from 'fastify';
import type { ZodType } from 'zod';

/** What a route reads: its query, its body and its path parameters, each a schema. */
interface RouteInput {
  querystring?: ZodType;
  body?: ZodType;
  params?: ZodType;
}

/** The options of a route with the access `config` that reads `input` and answers 200 with `reply`. */
export const answers = <R extends ZodType, I extends RouteInput = Record<never, never>>(
  config: FastifyContextConfig,
  reply: R,
  input?: I,
) => ({
  config,
  schema: { ...(input as I), response: { 200: reply } },
});

/** The options of a route with the access `config` that reads `input` and answers what its handler sends (no answer schema). */
export const reads = <I extends RouteInput>(config: FastifyContextConfig, input: I) => ({ config, schema: input });

export { ok } from '../../src/contract/fields.js';
