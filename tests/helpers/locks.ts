import { type QueryExecutorProvider, sql } from 'kysely';

/**
 * Advisory locks held on the database `db` works on, only lock number `key` when given. Each test file
 * has a database of its own, and other files' servers take their own locks as they start, so a count
 * over the whole PostgreSQL server would see theirs.
 */
export async function advisoryLocks(db: QueryExecutorProvider, key?: number): Promise<number> {
  const res = await sql<{ n: number }>`select count(*)::int as n from pg_locks
    where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())
    ${key === undefined ? sql`` : sql`and objid = ${key}`}`.execute(db);
  return Number(res.rows[0]?.n);
}
