// A view's import (POST /api/general/{viewId}/import) sent files whose cells hold too much text, and
// the largest import the limits allow, against a real server in a process of its own (PGlite, or the
// PostgreSQL server of BENCH_DATABASE_URL). While each runs, another client calls /api/health one call
// after another; the slowest is printed, with the server's longest event-loop delay, its peak RSS
// growth and the time the import took to be answered (for the allowed one, to its last byte).
// Budgets: a shared-string file refused within 2 s, and 21 million characters of inline text (read up to
// the text limit, about what the largest allowed import reads) within 10 s, with no /api/health call
// slower than 500 ms meanwhile; on PostgreSQL, no event-loop delay over 500 ms during the largest allowed
// import. PGlite runs in the server's thread and serves one transaction at a time: the import's write
// transaction holds both the event loop and /api/health for its length, so there it is only printed.
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { type ApiClient, startTestServer } from '../tests/helpers/server.js';
import { field } from '../tests/helpers/wire-field.js';
import { inlineTextXlsx, noiseText, plainXlsx, repeatedXlsx, rowXml, sharedStringBombXlsx } from '../tests/helpers/xlsx-files.js';
import { benchServerArgs, benchServerEnv } from './lib/server-process.js';

const MB = 1024 * 1024;
const HEALTH_MS = 500;
const LOOP_MS = 500;

interface Ready {
  url: string;
  token: string;
  signSecret: string | undefined;
  viewId: number;
}

if (process.env.IMPORT_BENCH_SERVER) {
  // The server's process: a view to import into, and its event-loop delay on request.
  const server = await startTestServer({ logLevel: 'silent' });
  const admin = await server.login('admin');
  const view = await admin.post('/api/generation/add', {
    name: '导入文字基准',
    disMenu: JSON.stringify({ componentName: 'importTextBench', name: '导入文字基准' }),
  });
  await admin.post('/api/generation/design', {
    id: view.body.id,
    disTemplate: JSON.stringify({
      basicOption: { sortName: 'id', sortType: 'asc' },
      tableOption: [field('title', '名称', 'varchar')],
      formOption: [field('title', '名称', 'varchar', { required: true }), field('score', '评分', 'long', { min: 1, max: 100 })],
    }),
  });
  // The bench that started this process is gone: so is this one.
  process.on('disconnect', () => process.exit(1));
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  process.on('message', async (m: string) => {
    if (m === 'reset') delay.reset();
    if (m === 'delay') process.send?.({ delayMs: delay.max / 1e6 });
    if (m === 'close') {
      await server.close();
      process.exit(0);
    }
  });
  process.send?.({
    url: server.url,
    token: admin.token as string,
    signSecret: server.config.signSecret,
    viewId: view.body.id,
  } satisfies Ready);
} else {
  const env: NodeJS.ProcessEnv = { ...process.env, IMPORT_BENCH_SERVER: '1' };
  delete env.TEST_DATABASE_URL;
  if (process.env.BENCH_DATABASE_URL) env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const child = fork(fileURLToPath(import.meta.url), [], { execArgv: ['--import', 'tsx', ...benchServerArgs()], env: benchServerEnv(env) });
  process.on('exit', () => child.kill());
  const next = <T>() => new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)));
  const ready = await next<Ready>();
  const { ApiClient: Client } = await import('../tests/helpers/server.js');
  const admin: ApiClient = new Client(ready.url, ready.token, ready.signSecret);
  const path = `/api/general/${ready.viewId}/import`;
  const upload = (name: string, data: Buffer) => {
    const fd = new FormData();
    fd.append('file', new Blob([new Uint8Array(data)]), name);
    return admin.request('POST', path, { body: fd });
  };

  /** Peak resident set of the server since the last reset (VmHWM), in bytes. */
  const status = () => readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const peakRss = () => Number(/VmHWM:\s+(\d+) kB/.exec(status())?.[1] ?? 0) * 1024;
  const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(status())?.[1] ?? 0) * 1024;
  const resetPeak = () => {
    try {
      writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
      return true;
    } catch {
      return false;
    }
  };

  // The largest import the limits allow: 50,000 rows of 20 columns of 20 characters (20 million of the
  // 20 Mi characters allowed), written as 50 copies of 1,000 distinct rows (each copy over deflate's window).
  const columns = ['名称', '评分', ...Array.from({ length: 18 }, (_, i) => `列${i + 3}`)];
  const noise = noiseText(1000 * 19 * 20, 11);
  let block = '';
  for (let r = 0; r < 1000; r++) {
    const texts = Array.from({ length: 19 }, (_, c) => noise.slice((r * 19 + c) * 20, (r * 19 + c + 1) * 20));
    block += rowXml(r + 2, [texts[0] as string, 1 + (r % 100), ...texts.slice(1)]);
  }
  const largest = repeatedXlsx(columns, block, 50, undefined, 6);

  interface Case {
    name: string;
    file: Buffer;
    status: number;
    /** Most milliseconds to be refused in. */
    refusedMs?: number;
  }
  const cases: Case[] = [
    { name: 'shared string of 1 MB in 500 cells', file: sharedStringBombXlsx(), status: 400, refusedMs: 2000 },
    { name: 'shared string of 30,000 in 700 cells', file: sharedStringBombXlsx(30_000, 70, 10), status: 400, refusedMs: 2000 },
    { name: '21 M characters inline', file: inlineTextXlsx(21_000_000), status: 400, refusedMs: 10_000 },
    { name: 'largest allowed (50,000 × 20)', file: largest, status: 200 },
  ];
  const postgres = !!process.env.BENCH_DATABASE_URL;

  const health = new Pool(ready.url, { connections: 1 });
  await upload('warm.xlsx', plainXlsx([['名称'], ['x']]));
  let failed = false;
  const canPeak = resetPeak();
  console.log(
    `database: ${postgres ? 'PostgreSQL' : 'PGlite'}; budgets: hostile files refused in time with /api/health ≤ ${HEALTH_MS} ms` +
      (postgres ? `; event-loop delay ≤ ${LOOP_MS} ms during the allowed import` : ''),
  );
  if (!canPeak) console.log('(peak RSS cannot be reset here: growth is the RSS sampled every 5 ms)');
  for (const c of cases) {
    const rss0 = rss();
    resetPeak();
    let sampled = rss0;
    const sampler = setInterval(() => {
      sampled = Math.max(sampled, rss());
    }, 5);
    child.send('reset');
    let done = false;
    let slowest = 0;
    let calls = 0;
    let unready = 0;
    const poller = (async () => {
      while (!done) {
        const t = performance.now();
        const r = await health.request({ method: 'GET', path: '/api/health' });
        await r.body.dump();
        if (r.statusCode !== 200) unready++;
        slowest = Math.max(slowest, performance.now() - t);
        calls++;
      }
    })();
    const t0 = performance.now();
    const res = await upload(`${c.name}.xlsx`, c.file);
    const elapsed = performance.now() - t0;
    done = true;
    await poller;
    clearInterval(sampler);
    child.send('delay');
    const { delayMs } = await next<{ delayMs: number }>();
    const growth = ((canPeak ? Math.max(peakRss(), sampled) : sampled) - rss0) / MB;
    const ok =
      res.status === c.status &&
      (c.refusedMs === undefined
        ? !postgres || (delayMs <= LOOP_MS && !unready)
        : elapsed <= c.refusedMs && slowest <= HEALTH_MS && !unready);
    if (!ok) failed = true;
    const answer = Buffer.isBuffer(res.body) ? `xlsx of ${(res.body.length / MB).toFixed(1)} MB` : JSON.stringify(res.body.message);
    console.log(
      `${ok ? 'ok  ' : 'MISS'} ${c.name.padEnd(38)} file ${(c.file.length / MB).toFixed(2)} MB  answered in ${elapsed.toFixed(0)} ms` +
        (c.refusedMs ? ` (≤ ${c.refusedMs})` : '') +
        `  /api/health: ${calls} calls${unready ? ` (${unready} not 200)` : ''}, slowest ${slowest.toFixed(0)} ms  event-loop delay ≤ ${delayMs.toFixed(0)} ms` +
        `  peak RSS +${growth.toFixed(0)} MB  → ${res.status} ${answer}`,
    );
  }
  await health.close();
  child.send('close');
  await new Promise((resolve) => child.once('exit', resolve));
  if (failed) {
    console.error('import text benchmark missed its budget');
    process.exit(1);
  }
}
