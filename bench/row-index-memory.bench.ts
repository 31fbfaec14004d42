// What a row held in memory costs (server/lowcode/row-index.ts), the figure LIST_INDEX_ROWS is set from:
// grows the stock-in view (view 12) of the demo seed to BENCH_ROWS rows (default 100,000) over 100
// companies on PGlite, reads them as the row index reads them, and holds them in one ViewIndex that then
// answers what a list load asks of it (pages in five orders, counts under twenty filters, a text search,
// five companies' scopes), so that its orders, filter marks and scopes are in the figure. Prints the heap
// and resident memory it added, per row, after a full collection.
// Budget: at most 1.2 KB of heap a row (LIST_INDEX_ROWS' default of 125,000 rows is then ≤ 150 MB).

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'kysely';
import { scopeOver } from '../server/access/rows.js';
import { parseListQuery } from '../server/lowcode/list-query.js';
import type { IndexedRow } from '../server/lowcode/list-types.js';
import { rowSource } from '../server/lowcode/memory-list-reader.js';
import { textSortsByBytes } from '../server/lowcode/row-position.js';
import { ViewIndex } from '../server/lowcode/view-index.js';
import { designedView } from '../server/lowcode/view-store.js';
import { startServer } from '../server/start.js';
import { seedViewRows } from './lib/seed-view-rows.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const BUDGET_BYTES = 1.2 * 1024;
const VIEW_ID = 12;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const settle = () => {
  for (let i = 0; i < 3; i++) gc();
};

const server = await startServer(
  { port: 0, dataDir: 'memory://', databaseUrl: undefined, logLevel: 'silent', staticDir: '/nonexistent' },
  {},
);
let ok = false;
try {
  await seedViewRows(server.ctx.db, { viewId: VIEW_ID, rows: ROWS, companies: 100 });
  const view = await designedView(server.ctx, VIEW_ID);
  const source = rowSource(server.ctx, view);
  const bytes = await textSortsByBytes(server.ctx);
  const companies = (
    await sql<{
      c: number;
    }>`select distinct create_company as c from lc_view_12 where create_company is not null order by 1 limit 5`.execute(server.ctx.db)
  ).rows.map((r) => Number(r.c));
  const scopes = [
    undefined,
    ...(await Promise.all(companies.map((c) => scopeOver(server.ctx, view, { all: false, companyId: c, depts: [], self: null })))),
  ];
  const statuses = (await sql<{ s: string }>`select distinct status as s from lc_view_12 limit 4`.execute(server.ctx.db)).rows.map(
    (r) => r.s,
  );
  settle();
  const before = process.memoryUsage();
  let rows: IndexedRow[] | undefined = [];
  for (let after = 0; ; ) {
    const chunk = await source.load(undefined, after, 5000);
    for (const r of chunk) rows.push(r);
    if (chunk.length < 5000) break;
    after = (chunk.at(-1) as IndexedRow).id;
  }
  const held = rows.length;
  const index = new ViewIndex(view, bytes, rows, undefined);
  rows = undefined;
  let answered = 0;
  for (const scope of scopes) {
    for (const sort of ['id,desc', 'quantity,desc', 'stockNo,asc', 'inTime,desc', 'createTime,asc']) {
      if (index.page(parseListQuery(view, { sort }, scope), 20, 10)) answered++;
    }
    for (const status of statuses)
      for (const handler of [undefined, '记录1', '记录77', '记录12']) {
        const q = parseListQuery(view, { status, ...(handler ? { handler } : {}) }, scope);
        if (index.count(q) !== undefined) answered++;
        if (index.page(q, 0, 10)) answered++;
      }
  }
  settle();
  const after = process.memoryUsage();
  const perRow = (a: number, b: number) => (b - a) / held;
  const heap = perRow(before.heapUsed, after.heapUsed);
  const resident = perRow(before.rss, after.rss);
  ok = heap <= BUDGET_BYTES;
  console.log(
    `row index memory: ${held.toLocaleString('en')} rows of view ${VIEW_ID} held, ${answered} pages and counts answered from them`,
  );
  console.log(
    `  heap      ${((after.heapUsed - before.heapUsed) / 2 ** 20).toFixed(0)} MB, ${heap.toFixed(0)} B a row   budget ≤ ${BUDGET_BYTES} B: ${ok ? 'met' : 'MISSED'}`,
  );
  console.log(
    `  resident  ${((after.rss - before.rss) / 2 ** 20).toFixed(0)} MB, ${resident.toFixed(0)} B a row (the young generation's room and freed pages not returned are in it)`,
  );
  console.log(`  at this cost, LIST_INDEX_ROWS=125000 holds ≤ ${((125_000 * heap) / 2 ** 20).toFixed(0)} MB of heap`);
  // Keeps the index alive to the measure.
  if (!index.size) ok = false;
} finally {
  await server.close();
}
process.exit(ok ? 0 : 1);
