import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { scopeOver } from '../../server/access/rows.js';
import { businessView } from '../../server/lib/business-views.js';
import { viewTable } from '../../server/lowcode/ddl.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// A logistics order is in a company's scope when the company created it or is party to its disposal
// order (its producer, disposer or carrier). The party test is written two ways (hashed once, or looked up row by row) for speed only: for
// every company both select exactly the orders a plain join selects.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

it('selects the same logistics orders for every company whichever way parties are looked up', async () => {
  const db = server.ctx.db;
  const view = await businessView(server.ctx, 'logisticsOrder');
  if (!view) throw new Error('no logistics order view');
  const companies = (await sql<{ id: number; name: string }>`select id, name from company order by id`.execute(db)).rows;
  let seen = 0;
  for (const c of companies) {
    const ids = async (lookup: 'set' | 'row') => {
      const scope = await scopeOver(server.ctx, view, { all: false, companyId: c.id, depts: [], self: null }, lookup);
      if (!scope) throw new Error('a company scope holds a condition');
      const r = await sql<{
        id: number;
      }>`select t.id from ${sql.table(viewTable(view.id))} as t where ${scope.condition} order by t.id`.execute(db);
      return r.rows.map((x) => Number(x.id));
    };
    const joined = await sql<{ id: number }>`select t.id from ${sql.table(viewTable(view.id))} as t
      left join lc_view_19 o on o.id = t."disposalOrderId"
      where t.create_company = ${c.id} or o."producerId" = ${c.id} or o."disposerId" = ${c.id} or o."carrierId" = ${c.id}
      order by t.id`.execute(db);
    const expected = joined.rows.map((x) => Number(x.id));
    expect(await ids('set'), c.name).toEqual(expected);
    expect(await ids('row'), c.name).toEqual(expected);
    seen += expected.length;
  }
  expect(seen).toBeGreaterThan(0);
});
