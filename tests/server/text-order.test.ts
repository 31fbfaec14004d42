import { afterAll, beforeAll, expect, it } from 'vitest';
import { probeSortsByBytes, textInByteOrder } from '../../server/lowcode/row-position.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * Lists sorted by a text column are answered from memory only where JavaScript's byte comparison orders
 * text as the database does. That holds for collations C and POSIX, and for C.UTF-8 (code-point order),
 * which the probe confirms; a language's collation is turned down by the probe.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

it('says text sorts by bytes on the test database, whose collation is C (PGlite) or C.UTF-8 (PostgreSQL)', async () => {
  expect(await textInByteOrder(server.ctx.db)).toBe(true);
  expect(await probeSortsByBytes(server.ctx.db)).toBe(true);
  expect(await probeSortsByBytes(server.ctx.db, 'C')).toBe(true);
});

it.runIf(process.env.TEST_DATABASE_URL)("turns down a language's collation, which sorts case and accents together", async (t) => {
  const icu = await server.ctx.db
    .selectFrom('pg_collation' as never)
    .select('collname' as never)
    .where('collname' as never, '=', 'und-x-icu' as never)
    .execute();
  // PostgreSQL built without ICU has no such collation: nothing to compare against.
  if (!icu.length) t.skip();
  expect(await probeSortsByBytes(server.ctx.db, 'und-x-icu')).toBe(false);
});
