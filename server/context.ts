import type { Kysely } from 'kysely';
import type { SessionService } from './auth.js';
import type { Bus } from './bus.js';
import type { ServerConfig } from './config.js';
import type { DatabaseKind } from './db/database.js';
import type { DB } from './db/schema.js';
import type { Realtime } from './realtime.js';
import type { ServerSecrets } from './secrets.js';

/** What every route module receives. */
export interface AppContext {
  db: Kysely<DB>;
  dbKind: DatabaseKind;
  config: ServerConfig;
  secrets: ServerSecrets;
  /** Invalidations and notices shared with the other instances on the same database. */
  bus: Bus;
  sessions: SessionService;
  realtime: Realtime;
}
