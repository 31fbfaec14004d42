import type { Kysely } from 'kysely';
import type { SessionService } from './auth.js';
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
  sessions: SessionService;
  realtime: Realtime;
}
