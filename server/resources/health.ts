import { sql } from 'kysely';
import { health } from '../../src/contract/health.js';
import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import { registerResource } from './register.js';

const PROBE_TIMEOUT_MS = 2000;

/**
 * Health and readiness for a load balancer: 200 when the database answers (and, on PostgreSQL, the
 * bus that keeps instances consistent is listening), 503 otherwise. Public and never cached.
 */
export default async function routes(app: App, ctx: AppContext): Promise<void> {
  registerResource(app, health, {
    get: async (_req, reply) => {
      let database = true;
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          sql`select 1`.execute(ctx.db),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('timeout')), PROBE_TIMEOUT_MS);
          }),
        ]);
      } catch {
        database = false;
      } finally {
        clearTimeout(timer);
      }
      const bus = ctx.bus.mode;
      const ready = database && bus !== 'disconnected';
      reply.header('cache-control', 'no-store');
      if (!ready) reply.status(503);
      return {
        status: ready ? 200 : 503,
        message: ready ? 'ok' : database ? '实例间通知未连接' : '数据库不可用',
        database: database ? ('up' as const) : ('down' as const),
        bus,
        instance: ctx.bus.instanceId,
      };
    },
  });
}
