// Budgets, on a view with 100,000 rows and 50 concurrent clients:
// - reads only: GET /api/general/list/{viewId} with page + sort + one filter for 20 s: p95 ≤ 30 ms on
//   PGlite with zero errors; on PGlite and PostgreSQL, each with the list cache on and off (LIST_CACHE=0);
// - mixed: 95% list calls and 5% record adds on the same view, so the cache is invalidated as in real
//   use: p95 ≤ 60 ms on PGlite with zero errors;
// - two instances on one PostgreSQL, the same mixed load spread over both: zero errors and zero stale
//   reads (after its own add, a client lists newest-first on the other instance and must see it).
// PostgreSQL runs when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createInterface } from 'node:readline';
import { ApiClient } from '../tests/helpers/server.js';

const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 20) * 1000;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const VIEW_ID = 12;

interface Started {
  url: string;
  kind: string;
  insertMs: number;
  template: any;
  stop: () => void;
}

async function startChild(env: Record<string, string>): Promise<Started & { databaseUrl?: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/list-bench-server.ts'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { ...JSON.parse(line), stop: () => child.kill('SIGTERM') };
}

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

async function run(label: string, env: Record<string, string>) {
  const s = await startChild(env);
  try {
    const api = new ApiClient(s.url);
    const login = await api.loginRaw('admin', 'Waste@2026', '8888');
    const token: string = login.body.token;
    const items: any[] = Array.isArray(s.template.tableOption) ? s.template.tableOption : (s.template.tableOption?.items ?? []);
    const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';
    const sortable = items.filter((f) => truthy(f.configure?.sortable)).map((f) => f.name as string);
    const sorts = ['id', ...sortable];
    const filterField = items.find((f) => truthy(f.configure?.search) && f.configure?.dict)?.name as string | undefined;
    const dictName = items.find((f) => f.name === filterField)?.configure?.dict;
    const dict = dictName ? (await api.withToken(token).get('/api/dictDetail', { dictName, page: 0, size: 9999 })).body.content : [];
    const values: string[] = dict.map((d: { value: string }) => d.value);
    const paths: string[] = [];
    for (let page = 0; page < 50; page++)
      for (const sort of sorts)
        for (const dir of ['asc', 'desc'])
          for (const v of values.length ? values : [undefined]) {
            const q = new URLSearchParams({ page: String(page), size: '10', sort: `${sort},${dir}` });
            if (filterField && v !== undefined) q.set(filterField, v);
            paths.push(`/api/general/list/${VIEW_ID}?${q}`);
          }
    const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
    const { hostname, port } = new URL(s.url);
    const get = (path: string) =>
      new Promise<number>((resolve) => {
        const req = http.request({ host: hostname, port, path, agent, headers: { authorization: token } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', () => resolve(0));
        req.end();
      });
    // Warm-up: JIT and PGlite's caches, not measured.
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, i) => {
        for (let k = 0; k < 10; k++) await get(paths[(i * 31 + k) % paths.length] as string);
      }),
    );
    const latencies: number[] = [];
    let errors = 0;
    let seq = 0;
    const end = Date.now() + DURATION_MS;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (Date.now() < end) {
          const path = paths[Math.floor(Math.random() * paths.length)] as string;
          const t = performance.now();
          const status = await get(path);
          latencies.push(performance.now() - t);
          if (status !== 200) errors++;
          seq++;
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    agent.destroy();
    latencies.sort((a, b) => a - b);
    return {
      label,
      db: s.kind,
      rows: 100_000,
      distinctQueries: paths.length,
      requests: seq,
      rps: Math.round(seq / seconds),
      p50: +pct(latencies, 50).toFixed(2),
      p95: +pct(latencies, 95).toFixed(2),
      p99: +pct(latencies, 99).toFixed(2),
      errors,
    };
  } finally {
    s.stop();
  }
}

/** A valid record to add: a seeded row (the first ids) without its system columns. */
async function sampleRecord(api: ApiClient): Promise<Record<string, unknown>> {
  const first = (await api.get(`/api/general/list/${VIEW_ID}`, { page: 0, size: 1, sort: 'id,asc' })).body.content[0];
  const { id: _i, createTime: _c, updateTime: _u, createBy: _b, ...record } = first;
  return record;
}

async function mixed(label: string, env: Record<string, string>, instances: 1 | 2) {
  const first = await startChild(env);
  const servers: Started[] = [first];
  try {
    if (instances === 2) servers.push(await startChild({ ...env, BENCH_JOIN_URL: first.databaseUrl as string }));
    const login = await new ApiClient(first.url).loginRaw('admin', 'Waste@2026', '8888');
    const token: string = login.body.token;
    const apis = servers.map((x) => new ApiClient(x.url).withToken(token));
    const record = await sampleRecord(apis[0] as ApiClient);
    const added = await (apis[0] as ApiClient).post(`/api/general/add/${VIEW_ID}`, record);
    if (added.status !== 200) throw new Error(`the sample record is refused: ${JSON.stringify(added.body)}`);
    const latencies: number[] = [];
    let errors = 0;
    let stale = 0;
    let writes = 0;
    const timed = async <T>(call: () => Promise<{ status: number; body: T }>) => {
      const t = performance.now();
      const r = await call();
      latencies.push(performance.now() - t);
      if (r.status !== 200) errors++;
      return r;
    };
    const end = Date.now() + DURATION_MS;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        let n = 0;
        while (Date.now() < end) {
          const on = apis[(client + n++) % apis.length] as ApiClient;
          const other = apis[(client + n) % apis.length] as ApiClient;
          if (Math.random() < 0.05) {
            const r = await timed(() => on.post(`/api/general/add/${VIEW_ID}`, record));
            writes++;
            const listed = await timed(() => other.get(`/api/general/list/${VIEW_ID}`, { page: 0, size: 10, sort: 'id,desc' }));
            if (r.status === 200 && !(listed.body?.content?.[0]?.id >= r.body.id)) stale++;
          } else {
            const page = Math.floor(Math.random() * 50);
            const sort = Math.random() < 0.5 ? 'id,desc' : 'id,asc';
            await timed(() => on.get(`/api/general/list/${VIEW_ID}`, { page, size: 10, sort }));
          }
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      label,
      db: first.kind,
      instances,
      requests: latencies.length,
      writes,
      rps: Math.round(latencies.length / seconds),
      p50: +pct(latencies, 50).toFixed(2),
      p95: +pct(latencies, 95).toFixed(2),
      p99: +pct(latencies, 99).toFixed(2),
      errors,
      stale,
    };
  } finally {
    for (const x of servers.reverse()) x.stop();
  }
}

const results = [];
results.push(await run('PGlite, list cache on (default)', {}));
results.push(await run('PGlite, list cache off', { LIST_CACHE: '0' }));
const pgUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (pgUrl) {
  results.push(await run('PostgreSQL, list cache on', { DATABASE_URL: pgUrl }));
  results.push(await run('PostgreSQL, list cache off', { DATABASE_URL: pgUrl, LIST_CACHE: '0' }));
} else {
  console.log('(PostgreSQL skipped: set BENCH_DATABASE_URL to include it)');
}
console.log(`\nGET /api/general/list/${VIEW_ID}: ${CLIENTS} clients, ${DURATION_MS / 1000} s each, page + sort + one filter`);
console.table(results);
const budget = results[0];
const ok = budget && budget.p95 <= 30 && budget.errors === 0;
console.log(`budget p95 ≤ 30 ms on PGlite with zero errors: ${ok ? 'MET' : 'MISSED'} (p95 ${budget?.p95} ms, errors ${budget?.errors})`);

const mixedResults = [await mixed('PGlite, mixed 95/5', {}, 1)];
if (pgUrl) {
  mixedResults.push(await mixed('PostgreSQL, mixed 95/5, one instance', { DATABASE_URL: pgUrl }, 1));
  mixedResults.push(await mixed('PostgreSQL, mixed 95/5, two instances', { DATABASE_URL: pgUrl }, 2));
}
console.log(
  `\nMixed load on view ${VIEW_ID}: ${CLIENTS} clients, ${DURATION_MS / 1000} s each, 95% list calls, 5% adds (each add then listed newest-first)`,
);
console.table(mixedResults);
const m = mixedResults[0];
const mixedOk = m && m.p95 <= 60 && m.errors === 0 && m.stale === 0;
console.log(`budget mixed p95 ≤ 60 ms on PGlite with zero errors: ${mixedOk ? 'MET' : 'MISSED'} (p95 ${m?.p95} ms, errors ${m?.errors})`);
const two = mixedResults.find((x) => x.instances === 2);
const twoOk = !two || (two.errors === 0 && two.stale === 0);
if (two)
  console.log(
    `budget two instances, zero stale reads and zero errors: ${twoOk ? 'MET' : 'MISSED'} (stale ${two.stale}, errors ${two.errors})`,
  );
if (!ok || !mixedOk || !twoOk) process.exitCode = 1;
