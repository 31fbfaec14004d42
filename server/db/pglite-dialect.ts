import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * PGlite runs one backend in-process, so there is exactly one connection.
 * Kysely may ask for several at once (concurrent requests, transactions),
 * so acquisition is serialised through a FIFO lock: a transaction holds the
 * connection from BEGIN to COMMIT and nobody else's statements interleave.
 */
class Lock {
  #tail: Promise<void> = Promise.resolve();
  acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => {
      release = r;
    });
    const prev = this.#tail;
    this.#tail = prev.then(() => next);
    return prev.then(() => release);
  }
}

class PGliteConnection implements DatabaseConnection {
  release: (() => void) | null = null;
  constructor(private readonly pg: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // Without parameters, use the simple protocol (as node-pg does) so multi-statement
    // migrations work; its last result is the answer.
    const res = compiled.parameters.length
      ? await this.pg.query<R>(compiled.sql, compiled.parameters as unknown[], { rowMode: 'object' })
      : (((await this.pg.exec(compiled.sql, { rowMode: 'object' })).at(-1) as { rows: R[]; affectedRows?: number } | undefined) ?? {
          rows: [] as R[],
          affectedRows: 0,
        });
    const affected = res.affectedRows;
    return {
      rows: res.rows,
      ...(affected !== undefined && !/^\s*select/i.test(compiled.sql) ? { numAffectedRows: BigInt(affected) } : {}),
    };
  }

  // biome-ignore lint/correctness/useYield: PGlite has no cursors; Kysely's stream() is not used by the server.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streamQuery is not supported on PGlite');
  }
}

class PGliteDriver implements Driver {
  readonly #lock = new Lock();
  readonly #conn: PGliteConnection;
  constructor(private readonly pg: PGlite) {
    this.#conn = new PGliteConnection(pg);
  }
  async init(): Promise<void> {
    await this.pg.waitReady;
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    this.#conn.release = await this.#lock.acquire();
    return this.#conn;
  }
  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let q = 'begin';
    if (settings.isolationLevel) q += ` isolation level ${settings.isolationLevel}`;
    if (settings.accessMode) q += ` ${settings.accessMode}`;
    await conn.executeQuery(CompiledQuery.raw(q));
  }
  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    const c = conn as PGliteConnection;
    const r = c.release;
    c.release = null;
    r?.();
  }
  async destroy(): Promise<void> {
    // The owner of the PGlite instance closes it (see database.ts).
  }
}

export class PGliteDialect implements Dialect {
  constructor(private readonly pg: PGlite) {}
  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pg);
  }
  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
}
