// A view's import (POST /api/general/{viewId}/import) sent zip bombs, against the real server in this
// process on PGlite. Budgets, for each bomb: refused within 2 s, and the process's peak resident memory
// grows by less than 150 MB while it is refused. Bombs: a sheet of 300 MB declared as such (0.8 MB
// file), one of 60 MB (within the size limit, refused by its ratio), one whose zip directory declares
// 2 KB, and one that declares a plausible 50 MB. Also printed, without a budget: a file of 50,001 rows,
// refused at the row limit while it is read, and an accepted import of 50,000 rows. While each runs,
// another client lists a view; the slowest of its calls is printed.
import { readFileSync, writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startTestServer } from '../tests/helpers/server.js';
import { field } from '../tests/helpers/wire-field.js';
import { bombXlsx, dataRows, plainXlsx, repeatedXlsx } from '../tests/helpers/xlsx-files.js';

const MB = 1024 * 1024;
const BUDGET_MS = 2000;
const BUDGET_RSS_MB = 150;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Peak resident set since the last reset, in bytes; the reset makes the peak start from now. */
const peakRss = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;
function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

const server = await startTestServer({ logLevel: 'silent' });
const admin = await server.login('admin');
const view = await admin.post('/api/generation/add', {
  name: '导入基准',
  disMenu: JSON.stringify({ componentName: 'importBench', name: '导入基准' }),
});
await admin.post('/api/generation/design', {
  id: view.body.id,
  disTemplate: JSON.stringify({
    basicOption: { sortName: 'id', sortType: 'asc' },
    tableOption: [field('title', '名称', 'varchar')],
    formOption: [field('title', '名称', 'varchar', { required: true }), field('score', '评分', 'long', { min: 1, max: 100 })],
  }),
});
const path = `/api/general/${view.body.id}/import`;

function upload(name: string, data: Buffer) {
  const fd = new FormData();
  fd.append('file', new Blob([new Uint8Array(data)]), name);
  return admin.request('POST', path, { body: fd });
}

interface Case {
  name: string;
  file: Buffer;
  budget: boolean;
  status?: number;
}
const cases: Case[] = [
  { name: 'bomb, 300 MB declared', file: bombXlsx(300), budget: true },
  { name: 'bomb, 60 MB declared (ratio)', file: bombXlsx(60), budget: true },
  { name: 'bomb, 2 KB declared (lying)', file: bombXlsx(300, 2000), budget: true },
  { name: 'bomb, 50 MB declared (lying)', file: bombXlsx(300, 50 * MB), budget: true },
  { name: '50,001 rows', file: repeatedXlsx(['名称', '评分'], dataRows(50_001, ['第 n 行', 5]), 1), budget: false },
  { name: '50,000 rows (imported)', file: repeatedXlsx(['名称', '评分'], dataRows(50_000, ['第 n 行', 5]), 1), budget: false, status: 200 },
];

// Warm up the reader and the route once.
await upload('warm.xlsx', plainXlsx([['名称'], ['x']]));

let failed = false;
const canPeak = resetPeak();
if (!canPeak) console.log('(peak RSS cannot be reset here: growth is the RSS sampled every 5 ms)');
console.log(`budgets: refused ≤ ${BUDGET_MS} ms, peak RSS growth < ${BUDGET_RSS_MB} MB`);
for (const c of cases) {
  gc();
  const rss0 = process.memoryUsage().rss;
  const heap0 = process.memoryUsage().heapUsed;
  resetPeak();
  let sampledRss = rss0;
  let sampledHeap = heap0;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    sampledRss = Math.max(sampledRss, m.rss);
    sampledHeap = Math.max(sampledHeap, m.heapUsed);
  }, 5);
  let done = false;
  let slowest = 0;
  let listed = 0;
  const lister = (async () => {
    while (!done) {
      const t = performance.now();
      const r = await admin.get('/api/general/list/12', { size: 10 });
      if (r.status !== 200) throw new Error(`list answered ${r.status}`);
      slowest = Math.max(slowest, performance.now() - t);
      listed++;
    }
  })();
  const t0 = performance.now();
  const res = await upload(`${c.name}.xlsx`, c.file);
  const elapsed = performance.now() - t0;
  done = true;
  await lister;
  clearInterval(sampler);
  const peak = canPeak ? Math.max(peakRss(), sampledRss) : sampledRss;
  const rssGrowth = (peak - rss0) / MB;
  const heapGrowth = (sampledHeap - heap0) / MB;
  const ok = res.status === (c.status ?? 400) && (!c.budget || (elapsed <= BUDGET_MS && rssGrowth < BUDGET_RSS_MB));
  if (!ok) failed = true;
  console.log(
    `${ok ? 'ok  ' : 'MISS'} ${c.name.padEnd(30)} file ${(c.file.length / MB).toFixed(2)} MB` +
      `  answered in ${elapsed.toFixed(0)} ms${c.budget ? ` (≤ ${BUDGET_MS})` : ''}` +
      `  peak RSS +${rssGrowth.toFixed(1)} MB${c.budget ? ` (< ${BUDGET_RSS_MB})` : ''}  peak heap +${heapGrowth.toFixed(1)} MB` +
      `  list calls meanwhile: ${listed}, slowest ${slowest.toFixed(0)} ms  → ${res.status} ${Buffer.isBuffer(res.body) ? 'xlsx' : JSON.stringify(res.body.message)}`,
  );
}
await server.close();
if (failed) {
  console.error('import bomb benchmark missed its budget');
  process.exit(1);
}
