// Budget: `wastegen pull` of 500 synthetic views (20 fields each) from the local reference
// server: ≤ 5 s. The server runs in this process on an in-memory PGlite; the views are created
// through /api/generation/add (which also creates each view's table), then `pull` runs in-process
// into a fresh empty folder several times, and once more over its own result (nothing to write).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../cli/main.js';
import { startServer } from '../server/start.js';
import { ApiClient } from '../tests/helpers/server.js';
import { syntheticComponentName, syntheticTemplate } from './lib/synthetic-definitions.js';

const VIEWS = Number(process.env.BENCH_VIEWS ?? 500);
const FIELDS = 20;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BUDGET_MS = 5000;

const setupStart = performance.now();
const server = await startServer(
  { host: '127.0.0.1', port: 0, dataDir: 'memory://', captchaFixed: '8888', logLevel: 'silent', staticDir: '/nonexistent' },
  {},
);
const dirs: string[] = [];
try {
  const login = await new ApiClient(server.url).loginRaw('admin', 'Waste@2026', '8888');
  const token: string = login.body.token;
  const admin = new ApiClient(server.url, token);
  const seeded = (await admin.get('/api/generation/list', { page: 0, size: 1 })).body.totalElements as number;
  const screens = (await admin.get('/api/screen/list', { page: 0, size: 1 })).body.totalElements as number;

  let next = 0;
  const create = async () => {
    while (next < VIEWS) {
      const i = ++next;
      const name = `基准视图 ${i}`;
      const res = await admin.post('/api/generation/add', {
        name,
        status: 1,
        disMenu: { componentName: syntheticComponentName(i), name },
        disTemplate: JSON.stringify(syntheticTemplate(i, FIELDS)),
      });
      if (res.status !== 200) throw new Error(`creating view ${i} failed: ${res.status} ${JSON.stringify(res.body)}`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, create));
  const setupMs = performance.now() - setupStart;
  const total = seeded + VIEWS + screens;

  const quiet = { out: () => {}, err: (line: string) => console.error(line) };
  const pull = async (dir: string) => {
    const t = performance.now();
    const code = await main(['node', 'wastegen', 'pull', '--cwd', dir, '--server', server.url, '--token', token], quiet);
    const ms = performance.now() - t;
    if (code !== 0) throw new Error(`wastegen pull exited with ${code}`);
    return ms;
  };

  const times: number[] = [];
  let last = '';
  for (let run = 0; run < RUNS; run++) {
    last = mkdtempSync(join(tmpdir(), 'wastegen-bench-pull-'));
    dirs.push(last);
    times.push(await pull(last));
    const written = readdirSync(join(last, 'definitions/views')).length + readdirSync(join(last, 'definitions/screens')).length;
    if (written !== total) throw new Error(`expected ${total} files, found ${written}`);
  }
  const noop = await pull(last);

  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] as number;
  const max = sorted[sorted.length - 1] as number;
  console.log(
    `\nwastegen pull: ${VIEWS} synthetic views × ${FIELDS} fields (+ ${seeded} seeded views, ${screens} screens = ${total} definitions), concurrency 8, ${server.database.kind}`,
  );
  console.log(`setup (server start, seed, ${VIEWS} × /api/generation/add): ${(setupMs / 1000).toFixed(1)} s`);
  console.table([
    ...times.map((ms, i) => ({
      run: `into an empty folder #${i + 1}`,
      ms: Math.round(ms),
      'definitions/s': Math.round(total / (ms / 1000)),
    })),
    { run: 'again, nothing to write', ms: Math.round(noop), 'definitions/s': Math.round(total / (noop / 1000)) },
  ]);
  console.log(
    `median ${Math.round(median)} ms, max ${Math.round(max)} ms, ${Math.round(total / (median / 1000))} definitions/s at the median`,
  );
  const ok = max <= BUDGET_MS;
  console.log(`budget: pull of ${VIEWS} ≤ ${BUDGET_MS / 1000} s (every run): ${ok ? 'PASS' : 'FAIL'} (max ${Math.round(max)} ms)`);
  if (!ok) process.exitCode = 1;
} finally {
  await server.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}
