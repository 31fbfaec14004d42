// Budget (issue 2): GET /api/general/list/{viewId} on a view with 100,000 rows, with page + sort +
// one filter, 50 concurrent clients for 20 s: p95 ≤ 30 ms on PGlite with zero errors.
// Runs on PGlite, and on PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set; each
// with the list cache on (the default) and off (LIST_CACHE=0), so the figures say what the cache buys.
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

async function startChild(env: Record<string, string>): Promise<Started> {
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
if (!ok) process.exitCode = 1;
