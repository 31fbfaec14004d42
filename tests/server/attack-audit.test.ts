import { sql } from 'kysely';
import { afterAll, beforeAll, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
let server: TestServer;
beforeAll(async () => { server = await startTestServer(); });
afterAll(async () => { await server?.close(); });
it('lists', async () => {
  const r = await sql<{ t: string; k: string; trg: boolean }>`select c.relname as t, c.relkind::text as k,
    exists (select 1 from pg_trigger g where g.tgrelid = c.oid and g.tgname = 'wg_audit') as trg
    from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind in ('r','v','p') order by 1`.execute(server.ctx.db);
  console.log(r.rows.map((x) => `${x.t}:${x.k}:${x.trg}`).join('\n'));
  const t = await sql<{ t: string; n: string; d: string }>`select c.relname as t, g.tgname as n, pg_get_triggerdef(g.oid) as d from pg_trigger g join pg_class c on c.oid=g.tgrelid where not g.tgisinternal order by 1`.execute(server.ctx.db);
  console.log(t.rows.map((x) => x.d).filter((d) => !d.includes('wg_audit')).join('\n'));
});
