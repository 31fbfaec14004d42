import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../server/db/database.js';
import { freshPostgres } from '../helpers/server.js';

/**
 * On PostgreSQL, statements on view tables are prepared once per connection and then only bound and run;
 * other statements run unnamed. A statement whose result type a redesign changed is dropped and run again.
 */
const pgdb = await freshPostgres();
let database: Database | undefined;

afterAll(async () => {
  await database?.close();
  await pgdb?.drop();
});

describe.skipIf(!pgdb)('prepared statements on PostgreSQL', () => {
  it('prepares view-table statements once, leaves others unnamed, and survives a changed result type', async () => {
    database = await openDatabase({ url: pgdb?.url, poolSize: 1 });
    const { db } = database;
    await sql`create table "lc_view_990001" (id bigserial primary key, amount integer)`.execute(db);
    await sql`insert into "lc_view_990001" (amount) values (${7}), (${8})`.execute(db);
    const read = () => sql<{ amount: unknown }>`select amount from "lc_view_990001" where id = ${1}`.execute(db);
    expect((await read()).rows).toEqual([{ amount: 7 }]);
    expect((await read()).rows).toEqual([{ amount: 7 }]);
    await sql`select ${1}::int as one`.execute(db);
    const prepared = async () =>
      (await sql<{ statement: string }>`select statement from pg_prepared_statements where name like 'wg_%'`.execute(db)).rows.map(
        (r) => r.statement,
      );
    // One connection: the read is prepared once; the insert (a view table too) is; the plain select is not.
    expect((await prepared()).sort()).toEqual([
      'insert into "lc_view_990001" (amount) values ($1), ($2)',
      'select amount from "lc_view_990001" where id = $1',
    ]);
    await sql`alter table "lc_view_990001" alter column amount type text`.execute(db);
    expect((await read()).rows).toEqual([{ amount: '7' }]);
  });
});
