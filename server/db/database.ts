import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { auditedDialect, databaseOf } from './audit.js';
import { PGliteDialect } from './pglite-dialect.js';
import type { DB } from './schema.js';

export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  kind: DatabaseKind;
  /** Where the data lives: a folder for PGlite, the URL (without password) for PostgreSQL. */
  location: string;
  /** PGlite only: the data folder as a tar, which `snapshot` starts another instance from. */
  dump?: () => Promise<Blob>;
  /** PostgreSQL only: the pool's connections now, and the queries waiting for one (diagnostics). */
  pool?: () => { total: number; idle: number; waiting: number };
  /** PGlite only: listens on a channel of the database (its own statements' notices, whoever ran them); answers how to stop. */
  listen?: (channel: string, callback: (payload: string) => void) => Promise<() => Promise<void>>;
  /** PGlite only: the database itself, for what works on it beside the server in this process (tools, tests). */
  pglite?: PGlite;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string. When absent, PGlite is used. */
  url?: string | undefined;
  /** PGlite data folder; `memory://` keeps everything in memory (tests). */
  dataDir?: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  /** PGlite only: a data folder dumped by `dumpDataDir` to start from instead of an empty cluster. */
  snapshot?: Blob | undefined;
}

// Both drivers must hand the same JS types to the application:
// bigint (count(*), bigserial) and numeric arrive as numbers, not strings.
const toNumber = (v: string) => (v === null ? null : Number(v));
let pgParsersInstalled = false;
function installPgParsers(): void {
  if (pgParsersInstalled) return;
  pg.types.setTypeParser(20, toNumber); // int8
  pg.types.setTypeParser(1700, toNumber); // numeric
  pgParsersInstalled = true;
}

/** Most statements one connection keeps prepared; beyond it, new texts run unnamed. */
const MAX_PREPARED = 256;
/** Statements worth preparing: the list's reads and the record writes of view tables, whose texts repeat. */
const PREPARED_TEXT = /"lc_view_\d+"/;
const QUERY = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * A connection that prepares the statements of view tables once and then only binds and runs them:
 * PostgreSQL plans each once per connection instead of at every call (a list query weighs a dozen
 * indexes). The name is the text's hash, so one text is one statement. Should a statement's result
 * type change under it (a table redesigned), it is forgotten and run again unnamed.
 */
class PreparingClient extends pg.Client {}
const plainQuery = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
(PreparingClient.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (
  this: PreparingClient,
  ...args: unknown[]
) {
  const [text, values, callback] = args;
  const plain = typeof text !== 'string' || !Array.isArray(values) || !values.length || callback !== undefined;
  if (plain || !QUERY.test(text) || !PREPARED_TEXT.test(text)) {
    return plainQuery.apply(this, args);
  }
  const parsed = (this as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements;
  const name = `wg_${createHash('sha1').update(text).digest('base64url').slice(0, 24)}`;
  if (parsed[name] === undefined && Object.keys(parsed).length >= MAX_PREPARED) return plainQuery.apply(this, args);
  return (plainQuery.call(this, { text, values, name }) as Promise<unknown>).catch(async (e: { code?: string }) => {
    // "cached plan must not change result type": the statement is dropped here and on the server.
    if (e?.code !== '0A000') throw e;
    delete parsed[name];
    await plainQuery.call(this, `deallocate "${name}"`);
    return plainQuery.call(this, text, values);
  });
};

/**
 * pg_trgm lets an index serve the list's text search (ILIKE '%…%'); without it every such search reads the
 * whole table. PGlite ships it; on PostgreSQL it needs the contrib package and the right to create it, and
 * the server works without it (view tables then get no trigram index).
 */
async function addTrigrams(db: Kysely<DB>): Promise<void> {
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
  } catch (e) {
    const installed = await sql`select 1 from pg_extension where extname = 'pg_trgm'`.execute(db).catch(() => ({ rows: [] }));
    // Two instances creating it at once: one wins, the other's error is harmless.
    if (!installed.rows.length) console.warn(`PostgreSQL: pg_trgm unavailable, text searches read whole tables (${(e as Error).message})`);
  }
}

/** What else closes with a database: pools opened beside its own (the data views' login), by its Kysely. */
const closers = new WeakMap<object, (() => Promise<void>)[]>();

/** Runs `close` when the database behind `db` (any handle marked from it) closes, before its own pool ends. */
export function closeWith(db: Kysely<DB>, close: () => Promise<void>): void {
  const list = closers.get(databaseOf(db)) ?? [];
  list.push(close);
  closers.set(databaseOf(db), list);
}

async function closeBeside(db: Kysely<DB>): Promise<void> {
  const list = closers.get(databaseOf(db)) ?? [];
  closers.delete(databaseOf(db));
  await Promise.allSettled(list.map((c) => c()));
}

/**
 * A plain pool of PostgreSQL connections (no prepared statements), with the same value parsers as the
 * server's own pool: the data views' pool, which logs in as the data-view role.
 */
export function openPool(url: string, max: number): pg.Pool {
  installPgParsers();
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  pool.on('error', (err) => {
    console.warn(`PostgreSQL dropped an idle data-view connection: ${err.message}`);
  });
  return pool;
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url) {
    installPgParsers();
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10, Client: PreparingClient });
    // An idle connection the server drops (restart, admin termination) must not crash the process:
    // the pool discards it and opens a new one for the next query.
    pool.on('error', (err) => {
      console.warn(`PostgreSQL dropped an idle connection: ${err.message}`);
    });
    // Fail fast with a readable message instead of on the first request.
    const client = await pool.connect();
    client.release();
    const db = new Kysely<DB>({ dialect: auditedDialect(new PostgresDialect({ pool })) });
    await addTrigrams(db);
    return {
      db,
      kind: 'postgres',
      pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      location: opts.url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@'),
      close: async () => {
        await closeBeside(db);
        await db.destroy();
      },
    };
  }
  const dataDir = opts.dataDir ?? '.data/pglite';
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const pglite = new PGlite(dataDir, {
    parsers: { [pgliteTypes.INT8]: toNumber, [pgliteTypes.NUMERIC]: toNumber },
    extensions: { pg_trgm },
    ...(opts.snapshot ? { loadDataDir: opts.snapshot } : {}),
  });
  await pglite.waitReady;
  // Its pages are in memory or in the OS cache, so an index read in another order than the table's costs
  // about what a sequential one does: with the default (4) the planner walks a list's sort index and
  // filters it rather than use the index on (filter, sort), several times slower on a deep page.
  await pglite.exec('set random_page_cost = 1.1');
  const db = new Kysely<DB>({ dialect: auditedDialect(new PGliteDialect(pglite)) });
  await addTrigrams(db);
  return {
    db,
    kind: 'pglite',
    location: dataDir,
    dump: () => pglite.dumpDataDir('none'),
    listen: (channel, callback) => pglite.listen(channel, callback),
    pglite,
    close: async () => {
      await closeBeside(db);
      await db.destroy();
      await pglite.close();
    },
  };
}

export { sql };
