import type { Kysely } from 'kysely';
import type { SessionService } from './auth.js';
import type { Bus } from './bus.js';
import type { ServerConfig } from './config.js';
import type { DatabaseKind } from './db/database.js';
import type { DB } from './db/schema.js';
import type { Realtime } from './realtime.js';
import type { ServerSecrets } from './secrets.js';

/** The identity of a server instance. */
export interface InstanceKey {
  /**
   * The route modules' context: what the instance keeps (list reading, guards) works through it,
   * whichever context first asked for it, so none holds a call's writer past its call.
   */
  home?: AppContext;
}

/** What every route module receives. */
export interface AppContext {
  /**
   * This server instance: what it keeps per instance (caches, rows in memory, guards) is keyed on it, so
   * the contexts made from this one (the route modules', a call's writer's) share it.
   */
  instance: InstanceKey;
  db: Kysely<DB>;
  dbKind: DatabaseKind;
  config: ServerConfig;
  secrets: ServerSecrets;
  /** Invalidations and notices shared with the other instances on the same database. */
  bus: Bus;
  sessions: SessionService;
  realtime: Realtime;
}
