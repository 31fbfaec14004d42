// Child process of bench/dashboard.bench.ts: a real reference server (its own process, so the load
// generator does not share its event loop) on an in-memory PGlite, grown to BENCH_ROWS stock-in records
// and as many disposal orders (plus a fifth as many logistics orders), spread over every company and
// warehouse and over the last year, each owned by its creator's company and department as the server
// writes them (so each user's scope holds its own). The rows go in after the dashboards' triggers are
// installed, in batches, so the load also measures what the triggers cost a bulk write.
import { sql } from 'kysely';
import { businessViews } from '../../server/lib/business-views.js';
import { ensureFacts } from '../../server/lib/dashboard-fact-install.js';
import { startServer } from '../../server/start.js';

const rows = Number(process.env.BENCH_ROWS ?? 100_000);
const BATCH = 20_000;

const server = await startServer(
  { host: '127.0.0.1', port: 0, dataDir: 'memory://', captchaFixed: '8888', logLevel: 'silent', staticDir: '/nonexistent' },
  {},
);
const db = server.ctx.db;
await ensureFacts(server.ctx);
const views = await businessViews(server.ctx);
const table = (name: 'stockIn' | 'disposalOrder' | 'logisticsOrder') => {
  const v = views.get(name);
  if (!v) throw new Error(`no ${name} view`);
  return v.table;
};

const list = (values: string[]) => `array[${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(',')}]`;
const warehouses = (await db.selectFrom('company_warehouse').select('id').orderBy('id').execute()).map((w) => w.id);
// Orders name their parties by company id.
const producers = (await db.selectFrom('company').select('id').where('type', '=', '1').orderBy('id').execute()).map((c) => c.id);
const disposers = (await db.selectFrom('company').select('id').where('type', '=', '2').orderBy('id').execute()).map((c) => c.id);
const categories = ['HW08', 'HW06', 'HW12', 'HW17', 'HW49', 'HW34', 'HW35', 'HW09', 'HW13', 'HW50', 'HW22', 'HW18'];

// Each record belongs to its creator's company and department, as the server writes them.
const company = (username: string) => `(select u.company_id from sys_user u where u.username = '${username}')`;
const dept = (username: string) => `(select u.dept_id from sys_user u where u.username = '${username}')`;
const owner = (username: string) => `${company(username)}, ${dept(username)}`;
const t0 = Date.now();
const firstStock = Number(
  (await sql<{ n: number }>`select coalesce(max(id), 0) as n from ${sql.table(table('stockIn'))}`.execute(db)).rows[0]?.n,
);
for (let from = 1; from <= rows; from += BATCH) {
  const to = Math.min(rows, from + BATCH - 1);
  await sql
    .raw(`insert into "${table('stockIn')}" ("stockNo", "wasteCategory", "wasteCode", "wasteName", quantity, "packageType", "warehouseId",
      "inTime", status, handler, create_by, create_company, create_dept, create_time, update_time)
    select 'RK' || lpad(g::text, 12, '0'), (${list(categories)})[1 + g % ${categories.length}], '900-249-08', '废矿物油',
      round(((g * 7919) % 30000) / 1000.0 + 0.1, 3), '1', (array[${warehouses.join(',')}])[1 + g % ${warehouses.length}],
      now() - ((g % 365) || ' days')::interval, (array['0', '1', '1', '2'])[1 + g % 4], '张伟', 'producer', ${owner('producer')},
      now() - ((g % 365) || ' days')::interval, now() - ((g % 365) || ' days')::interval
    from generate_series(${from}::bigint, ${to}::bigint) g`)
    .execute(db);
}
const firstOrder = Number(
  (await sql<{ n: number }>`select coalesce(max(id), 0) as n from ${sql.table(table('disposalOrder'))}`.execute(db)).rows[0]?.n,
);
for (let from = 1; from <= rows; from += BATCH) {
  const to = Math.min(rows, from + BATCH - 1);
  await sql
    .raw(`insert into "${table('disposalOrder')}" ("orderNo", "stockId", "producerId", "disposerId", "wasteCategory", quantity, price, amount,
      "orderStatus", "needPrepay", "prepayPrice", create_by, create_company, create_dept, create_time, update_time)
    select 'CZ' || lpad(g::text, 12, '0'), ${firstStock} + 1 + (g * 31) % ${rows}, (array[${producers.join(',')}])[1 + g % ${producers.length}],
      (array[${disposers.join(',')}])[1 + g % ${disposers.length}], (${list(categories)})[1 + g % ${categories.length}],
      round(((g * 104729) % 60000) / 1000.0 + 0.5, 3), 1600 + g % 3600, null, (array['0', '1', '1', '2', '2', '2', '3'])[1 + g % 7],
      case when g % 3 = 0 then '1' else '2' end, case when g % 3 = 0 then 1000 end, 'disposer', ${owner('disposer')},
      now() - ((g % 365) || ' days')::interval, now() - ((g % 365) || ' days')::interval
    from generate_series(${from}::bigint, ${to}::bigint) g`)
    .execute(db);
}
const logistics = Math.round(rows / 5);
for (let from = 1; from <= logistics; from += BATCH) {
  const to = Math.min(logistics, from + BATCH - 1);
  await sql
    .raw(`insert into "${table('logisticsOrder')}" ("waybillNo", "disposalOrderId", "vehicleId", "fromRegion", "fromAddress", "toAddress",
      weight, freight, "loadTime", "orderStatus", create_by, create_company, create_dept, create_time, update_time)
    select 'WL' || lpad(g::text, 12, '0'), ${firstOrder} + 1 + (g * 17) % ${rows}, 1, '320000,320500,320505', '起运地址', '目的地址',
      round(((g * 7919) % 30000) / 1000.0 + 0.5, 3), 800 + g % 6000, now() - ((g % 365) || ' days')::interval,
      (array['0', '1', '2', '2', '2'])[1 + g % 5], case when g % 3 = 0 then 'admin' else 'logistics' end,
      case when g % 3 = 0 then ${company('admin')} else ${company('logistics')} end,
      case when g % 3 = 0 then ${dept('admin')} else ${dept('logistics')} end,
      now() - ((g % 365) || ' days')::interval, now() - ((g % 365) || ' days')::interval
    from generate_series(${from}::bigint, ${to}::bigint) g`)
    .execute(db);
}
const insertMs = Date.now() - t0;
await sql`analyze`.execute(db);
const facts = Number((await sql<{ n: number }>`select count(*)::int as n from dash_fact`.execute(db)).rows[0]?.n);
process.stdout.write(`${JSON.stringify({ url: server.url, insertMs, rows, logistics, facts, warehouses })}\n`);
process.on('SIGTERM', async () => {
  await server.close();
  process.exit(0);
});
