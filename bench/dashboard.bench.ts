// Every dashboard call with isRefresh=1 (a figure computed now from the records) against 100,000
// stock-in records and 100,000 disposal orders (plus 20,000 logistics orders) on PGlite, 10 concurrent
// users, each a signed-in demo account of another kind (administrator, supervisor, producer, disposer,
// logistics, collection point) calling what their home page calls, back to back.
// Budget: every call's p95 ≤ 50 ms, zero errors.
// A second phase adds a writer that enters a stock-in every 50 ms through /api/general/add/12 while the
// ten users refresh (figures printed, no budget), and checks that the administrator's inventory total
// grew by exactly what was entered.
// The browser half of the dashboards' budget (the full dashboard painted ≤ 1 s after login) belongs with the
// dashboard pages, which this bench does not draw.
// BENCH_SECONDS (default 15), BENCH_CLIENTS (10) and BENCH_ROWS (100000) change the run.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ApiClient } from '../tests/helpers/server.js';
import { bundled } from './lib/bundle.js';
import { httpClient as keepAliveClient } from './lib/http-client.js';
import { latencyFigures } from './lib/measure.js';
import { benchServerArgs, benchServerEnv } from './lib/server-process.js';

const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 15) * 1000;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 10);
const BUDGET_P95_MS = 50;
const WRITE_EVERY_MS = 50;

interface Started {
  url: string;
  insertMs: number;
  rows: number;
  logistics: number;
  facts: number;
  warehouses: number[];
  stop: () => Promise<void>;
}

async function startChild(): Promise<Started> {
  const child = spawn(process.execPath, [...benchServerArgs(), await bundled('bench/lib/dashboard-bench-server.ts')], {
    env: benchServerEnv(process.env),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    ...JSON.parse(line),
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

const figures = (xs: number[]) => ({ n: xs.length, ...latencyFigures(xs) });

/** One keep-alive connection pool per user, as a browser holds its connections; every answer is read. */
function httpClient(baseUrl: string, token: string) {
  const c = keepAliveClient(baseUrl, token, 6);
  return { call: (method: 'GET' | 'POST', path: string, json?: unknown) => c.call(method, path, json, true), close: c.close };
}

const COMPANY_HOME = [
  '/api/inventoryInfo?isRefresh=1',
  '/api/inventoryRatio?isRefresh=1',
  '/api/produceOrderDashboard?isRefresh=1',
  '/api/finAcc/dashboard?isRefresh=1',
  '/api/companyWarehouse/warehouse?isRefresh=1',
  '/api/bulletin?status=10&page=0&size=10',
];
const LOGISTICS_HOME = [
  '/api/logisticsOrder/dashboard?isRefresh=1',
  '/api/logisticsOrderDashboard?isRefresh=1',
  '/api/companyTransportInfo?isRefresh=1',
  '/api/logisticsOrder/byWarehouseId?page=0&size=10',
];
const SUPERVISORY_HOME = [
  '/api/companyApi/homePage/dataSummary?isRefresh=1',
  '/api/companyApi/homePage/contractSummary?isRefresh=1',
  '/api/companyApi/homePage/serverSummary?isRefresh=1',
  '/api/companyApi/homePage/toDoData?isRefresh=1',
  '/api/companyApi/homePage/costInfo?isRefresh=1',
  '/api/companyApi/homePage/statistics?isRefresh=1',
];

/** Who the ten users are and what their home page calls. */
function usersFor(warehouses: number[]): { username: string; paths: string[] }[] {
  const producerWarehouse = warehouses[0];
  const all = [
    { username: 'admin', paths: [...COMPANY_HOME, ...LOGISTICS_HOME, ...SUPERVISORY_HOME] },
    { username: 'supervisor', paths: [...SUPERVISORY_HOME, ...COMPANY_HOME] },
    {
      username: 'producer',
      paths: [
        ...COMPANY_HOME,
        `/api/inventoryInfo?isRefresh=1&warehouseId=${producerWarehouse}`,
        `/api/companyWarehouse/Inventorys?isRefresh=1&warehouseId=${producerWarehouse}`,
      ],
    },
    { username: 'disposer', paths: [...COMPANY_HOME, `/api/logisticsOrder/byWarehouseId?page=0&size=10&warehouseId=${warehouses[2]}`] },
    { username: 'logistics', paths: LOGISTICS_HOME },
    { username: 'collector', paths: COMPANY_HOME },
  ];
  return Array.from({ length: CLIENTS }, (_, i) => all[i % all.length] as (typeof all)[number]);
}

/** The path without its query values, as the figures are grouped. */
const callOf = (path: string) => path.replace(/\?.*$/, '');

async function phase(
  clients: { call: ReturnType<typeof httpClient>['call']; paths: string[] }[],
  writer?: () => Promise<void>,
): Promise<{ byCall: Map<string, number[]>; errors: number; requests: number; seconds: number; writes: number }> {
  const byCall = new Map<string, number[]>();
  let errors = 0;
  let writes = 0;
  const end = Date.now() + DURATION_MS;
  const t0 = performance.now();
  const writing = writer
    ? (async () => {
        while (Date.now() < end) {
          await writer();
          writes++;
          await new Promise((r) => setTimeout(r, WRITE_EVERY_MS));
        }
      })()
    : Promise.resolve();
  await Promise.all([
    writing,
    ...clients.map(async (c, i) => {
      let k = i;
      while (Date.now() < end) {
        const path = c.paths[k++ % c.paths.length] as string;
        const t = performance.now();
        const r = await c.call('GET', path);
        const ms = performance.now() - t;
        if (r.status !== 200) errors++;
        const key = callOf(path);
        byCall.set(key, [...(byCall.get(key) ?? []), ms]);
      }
    }),
  ]);
  const requests = [...byCall.values()].reduce((s, x) => s + x.length, 0);
  return { byCall, errors, requests, seconds: (performance.now() - t0) / 1000, writes };
}

function report(title: string, r: Awaited<ReturnType<typeof phase>>, budget: boolean): boolean {
  console.log(
    `\n${title}: ${r.requests} requests in ${r.seconds.toFixed(1)} s (${Math.round(r.requests / r.seconds)}/s), ${r.errors} errors`,
  );
  const rows = [...r.byCall].sort(([a], [b]) => a.localeCompare(b)).map(([call, xs]) => ({ call, ...figures(xs) }));
  let ok = r.errors === 0;
  for (const row of rows) {
    const pass = row.p95 <= BUDGET_P95_MS;
    if (!pass) ok = false;
    console.log(
      `  ${row.call.padEnd(44)} n=${String(row.n).padStart(5)}  p50 ${row.p50.toFixed(1).padStart(6)} ms  p95 ${row.p95.toFixed(1).padStart(6)} ms  p99 ${row.p99
        .toFixed(1)
        .padStart(6)} ms${budget ? (pass ? '  PASS' : '  FAIL') : ''}`,
    );
  }
  const all = figures([...r.byCall.values()].flat());
  console.log(
    `  ${'every call'.padEnd(44)} n=${String(all.n).padStart(5)}  p50 ${all.p50.toFixed(1).padStart(6)} ms  p95 ${all.p95.toFixed(1).padStart(6)} ms`,
  );
  return ok;
}

const s = await startChild();
let failed = false;
try {
  console.log(
    `dashboard bench: ${s.rows.toLocaleString()} stock-ins + ${s.rows.toLocaleString()} disposal orders + ${s.logistics.toLocaleString()} logistics orders ` +
      `on PGlite, loaded in ${(s.insertMs / 1000).toFixed(1)} s with the triggers on (${s.facts.toLocaleString()} fact rows); ${CLIENTS} users, ${DURATION_MS / 1000} s per phase`,
  );
  const api = new ApiClient(s.url);
  const users = usersFor(s.warehouses);
  const tokens = new Map<string, string>();
  for (const u of new Set(users.map((x) => x.username))) {
    const login = await api.loginRaw(u, 'Waste@2026', '8888');
    if (login.body.status !== 200) throw new Error(`login ${u}: ${JSON.stringify(login.body)}`);
    tokens.set(u, login.body.token);
  }
  const clients = users.map((u) => ({ ...httpClient(s.url, tokens.get(u.username) as string), paths: u.paths }));
  // Warm-up: JIT and PGlite's caches, not measured.
  await Promise.all(clients.map(async (c) => Promise.all(c.paths.map((p) => c.call('GET', p)))));

  const reads = await phase(clients);
  const readsOk = report(`Refresh only (budget: every call p95 ≤ ${BUDGET_P95_MS} ms, zero errors)`, reads, true);

  const admin = clients[0] as (typeof clients)[number];
  const producer = httpClient(s.url, tokens.get('producer') as string);
  const total = async () => Number((await admin.call('GET', '/api/inventoryInfo?isRefresh=1')).body?.inventoryTotal);
  const before = await total();
  let entered = 0;
  let seq = 0;
  const writer = async () => {
    const r = await producer.call('POST', '/api/general/add/12', {
      stockNo: `RK99${String(Date.now() % 1e6).padStart(6, '0')}${String(++seq % 10_000).padStart(4, '0')}`,
      wasteCategory: 'HW08',
      wasteCode: '900-249-08',
      wasteName: '废矿物油',
      quantity: 0.125,
      packageType: '1',
      warehouseId: s.warehouses[0],
      inTime: '2026-11-21 10:00:00',
      handler: '张伟',
      status: '0',
    });
    if (r.status === 200) entered += 0.125;
  };
  const mixed = await phase(clients, writer);
  report(`Refresh while a stock-in is entered every ${WRITE_EVERY_MS} ms (${mixed.writes} entered; no budget)`, mixed, false);
  const after = await total();
  const exact = Math.abs(after - (before + entered)) < 1e-6;
  console.log(
    `\n  administrator's inventory total: ${before.toFixed(3)} → ${after.toFixed(3)} t, entered ${entered.toFixed(3)} t: ${exact ? 'PASS' : 'FAIL'}`,
  );
  producer.close();
  for (const c of clients) c.close();
  failed = !readsOk || !exact;
  console.log(`\n${failed ? 'FAIL' : 'PASS'}: dashboard calls with isRefresh=1, p95 ≤ ${BUDGET_P95_MS} ms each, ${CLIENTS} users`);
} finally {
  await s.stop();
}
if (failed) process.exit(1);
