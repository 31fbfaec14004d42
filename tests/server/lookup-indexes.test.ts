import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrations } from '../../server/db/migrations/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// The columns a record is looked up by get an index on every view table: the fields that pick a record
// of another table, the parties a company's scope reads records by, and a message's recipient department.
// A database made before them gets them from migration 0021.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** The seeded views by number, each with the columns it must be looked up by. */
const EXPECTED: Record<number, string[]> = {
  12: ['warehouseId'],
  15: ['companyId', 'stockId'],
  16: ['partyAId', 'partyBId'],
  18: ['deptId'],
  19: ['stockId', 'producerId', 'disposerId', 'carrierId'],
  20: ['disposalOrderId', 'vehicleId'],
};

/** The columns that lead some index of a view table. */
async function leading(viewId: number): Promise<string[]> {
  const r = await sql<{ column: string }>`
    select a.attname as column from pg_index i
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
    where i.indrelid = to_regclass(${`lc_view_${viewId}`})`.execute(server.ctx.db);
  return r.rows.map((x) => x.column);
}

/** Drops every index of a view table that leads with one of the columns, as a database made before had none. */
async function dropLeading(viewId: number, columns: string[]) {
  const r = await sql<{ name: string }>`
    select c.relname as name from pg_index i
    join pg_class c on c.oid = i.indexrelid
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
    where i.indrelid = to_regclass(${`lc_view_${viewId}`}) and a.attname in (${sql.join(columns)})`.execute(server.ctx.db);
  for (const { name } of r.rows) await sql`drop index ${sql.id(name)}`.execute(server.ctx.db);
}

it('indexes every column a record is looked up by: picked records, parties, recipients', async () => {
  for (const [id, columns] of Object.entries(EXPECTED)) {
    const have = await leading(Number(id));
    for (const c of columns) expect(have, `view ${id} column ${c}`).toContain(c);
  }
});

it('builds the missing ones on a database made before them, and a second run changes nothing', async () => {
  const migration = migrations['0021_reference_indexes'];
  if (!migration) throw new Error('migration 0021_reference_indexes is not registered');
  for (const [id, columns] of Object.entries(EXPECTED)) await dropLeading(Number(id), columns);
  for (const [id, columns] of Object.entries(EXPECTED)) {
    const have = await leading(Number(id));
    for (const c of columns) expect(have, `view ${id} column ${c}`).not.toContain(c);
  }
  await migration.up(server.ctx.db as never);
  const after: Record<string, string[]> = {};
  for (const [id, columns] of Object.entries(EXPECTED)) {
    after[id] = await leading(Number(id));
    for (const c of columns) expect(after[id], `view ${id} column ${c}`).toContain(c);
  }
  await migration.up(server.ctx.db as never);
  for (const id of Object.keys(EXPECTED)) expect((await leading(Number(id))).sort()).toEqual([...(after[id] ?? [])].sort());
});

/** Each index of a view table as its columns, in order. */
async function indexColumns(viewId: number): Promise<{ name: string; columns: string[] }[]> {
  const r = await sql<{ name: string; columns: string[] }>`
    select c.relname as name, array_agg(a.attname::text order by k.n) as columns
    from pg_index i
    join pg_class c on c.oid = i.indexrelid
    cross join lateral unnest(i.indkey::int2[]) with ordinality as k(attnum, n)
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
    where i.indrelid = to_regclass(${`lc_view_${viewId}`})
    group by c.relname`.execute(server.ctx.db);
  return r.rows;
}

it('indexes two exact searches together, so that their count over every company reads one index; migration 0034 builds it', async () => {
  // The stock-in view searches by category and status exactly, and lists by inTime.
  const paired = (all: { name: string; columns: string[] }[]) =>
    all.filter((x) => x.columns.length === 4 && x.columns.slice(0, 2).sort().join() === 'status,wasteCategory');
  const before = paired(await indexColumns(12));
  expect(before.map((x) => x.columns.slice(2))).toEqual([['inTime', 'id']]);
  for (const x of before) await sql`drop index ${sql.id(x.name)}`.execute(server.ctx.db);
  expect(paired(await indexColumns(12))).toEqual([]);
  const migration = migrations['0034_paired_search_indexes'];
  if (!migration) throw new Error('migration 0034_paired_search_indexes is not registered');
  await migration.up(server.ctx.db as never);
  expect(paired(await indexColumns(12))).toEqual(before);
});
