import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import type { App } from './app.js';
import { buildApp } from './app.js';
import { configFromEnv, type ServerConfig } from './config.js';
import type { AppContext } from './context.js';
import { type Database, openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { installRowNotifyAll } from './lowcode/row-notify.js';
import { seedIfEmpty } from './seed/index.js';

export interface RunningServer {
  url: string;
  app: App;
  ctx: AppContext;
  database: Database;
  config: ServerConfig;
  /** Whether this start created the database's contents (migrated and seeded an empty one). */
  created: boolean;
  close(): Promise<void>;
}

/** Any number the instances agree on: the advisory lock held while one of them migrates and seeds. */
const PREPARE_LOCK = 7_311_027_401;

/**
 * Migrates and seeds, and gives view tables the triggers that tell their changes (see row-notify.ts).
 * Several instances starting at once against one PostgreSQL take turns under an advisory lock on one
 * connection, so exactly one migrates and seeds and the others find it done. True when this start
 * seeded the database (it was empty).
 */
async function prepareDatabase(database: Database): Promise<boolean> {
  const prepare = async (db: Database['db']) => {
    await migrateToLatest(db as never);
    const seeded = await seedIfEmpty(db);
    // View tables made before they told their changes get their triggers (row-notify.ts).
    await installRowNotifyAll(db);
    return seeded;
  };
  if (database.kind !== 'postgres') return prepare(database.db);
  return database.db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${PREPARE_LOCK})`.execute(conn);
    try {
      return await prepare(conn);
    } finally {
      await sql`select pg_advisory_unlock(${PREPARE_LOCK})`.execute(conn);
    }
  });
}

export interface StartOptions {
  /** An in-memory PGlite starts from this dumped data folder (a migrated, seeded one) instead of an empty one. */
  snapshot?: Blob | undefined;
}

/** Opens (and on first start creates, migrates and seeds) the database, then listens. */
export async function startServer(
  overrides: Partial<ServerConfig> = {},
  env: NodeJS.ProcessEnv = process.env,
  options: StartOptions = {},
): Promise<RunningServer> {
  const config = configFromEnv(env, overrides);
  const inMemory = config.dataDir.startsWith('memory://');
  const database = await openDatabase({
    url: config.databaseUrl,
    poolSize: config.databasePoolSize,
    dataDir: inMemory ? config.dataDir : `${config.dataDir}/pglite`,
    snapshot: inMemory && !config.databaseUrl ? options.snapshot : undefined,
  });
  try {
    const created = await prepareDatabase(database);
    const { app, ctx } = await buildApp(database, config);
    await app.listen({ host: config.host, port: config.port });
    const addr = app.server.address() as AddressInfo;
    const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    return {
      url: `http://${host}:${addr.port}`,
      app,
      ctx,
      database,
      config,
      created,
      close: async () => {
        await app.close();
        await database.close();
      },
    };
  } catch (e) {
    await database.close().catch(() => {});
    throw e;
  }
}
