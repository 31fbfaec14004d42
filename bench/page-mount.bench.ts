// Budget: a runtime-rendered page mounts in ≤ 1.25× the time of the generated page for the
// same definition. The seeded view 12 has a generated page whose hash matches the server's
// definition: its menu route draws the generated page, /dev-tools/preview?viewId=12 the runtime
// renderer. Both go through the same resolver (src/engine/hooks/use-definition.ts), so both are
// measured the same way, with the engine's marks (src/engine/perf-marks.ts): from
// `wastegen:page-mount-start` (the fetched definition starts being drawn: the generated path then
// loads its page chunk, the runtime path normalises the definition and builds its schema) to
// `wastegen:page-mounted` (the ListPage's first commit). Runs alternate between the two, each in a
// fresh page; the medians are compared.
import type { Page } from 'playwright-core';
import { machine, median, ms, startBenchApp, summary, waitForMarks } from './lib/app-browser.js';

const VIEW_ID = 12;
const GENERATED_PATH = '/dev-tools/temp/page/stockIn/12';
const RUNTIME_PATH = `/dev-tools/preview?viewId=${VIEW_ID}`;
const RUNS = Number(process.env.BENCH_RUNS ?? 12);
const WARMUP_RUNS = 2;
const BUDGET_RATIO = 1.25;

interface Mount {
  /** mount start → ListPage's first commit */
  mount: number;
  /** mount start → the first rows painted (includes the list call) */
  toRows: number;
}

const app = await startBenchApp();
let failed = false;
try {
  const context = await app.context();
  const measure = async (path: string, expected: 'generated' | 'runtime'): Promise<Mount> => {
    const page: Page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(path);
    const [start] = await waitForMarks(page, 'wastegen:page-mount-start');
    const [resolved] = await waitForMarks(page, 'wastegen:page-resolved');
    const [mounted] = await waitForMarks(page, 'wastegen:page-mounted');
    const [painted] = await waitForMarks(page, 'wastegen:list-painted');
    await page.locator('.engine-list-table .engine-row').first().waitFor();
    if (errors.length) throw new Error(`${path}: page errors: ${errors.join('; ')}`);
    if (resolved?.detail !== expected) throw new Error(`${path} was drawn ${String(resolved?.detail)}, not ${expected}`);
    await page.close();
    if (!start || !mounted || !painted) throw new Error(`${path}: a mark is missing`);
    return { mount: mounted.t - start.t, toRows: painted.t - start.t };
  };
  const generated: Mount[] = [];
  const runtime: Mount[] = [];
  for (let run = 0; run < WARMUP_RUNS + RUNS; run++) {
    // Alternate which goes first, so neither always follows the other.
    const order = run % 2 ? (['runtime', 'generated'] as const) : (['generated', 'runtime'] as const);
    for (const kind of order) {
      const m = await measure(kind === 'generated' ? GENERATED_PATH : RUNTIME_PATH, kind);
      if (run >= WARMUP_RUNS) (kind === 'generated' ? generated : runtime).push(m);
    }
  }
  console.log(`machine: ${machine()}`);
  console.log(`page mount, view ${VIEW_ID} (危废入库), ${RUNS} runs each after ${WARMUP_RUNS} warm-up, alternating:`);
  console.log(`  generated (${GENERATED_PATH}): mount ${summary(generated.map((m) => m.mount))}`);
  console.log(`  runtime   (${RUNTIME_PATH}): mount ${summary(runtime.map((m) => m.mount))}`);
  console.log(
    `  to the first rows painted (includes the list call): generated median ${ms(median(generated.map((m) => m.toRows)))}, runtime median ${ms(median(runtime.map((m) => m.toRows)))}`,
  );
  const g = median(generated.map((m) => m.mount));
  const r = median(runtime.map((m) => m.mount));
  const ratio = r / g;
  failed = !(ratio <= BUDGET_RATIO);
  console.log(
    `budget: runtime mount ≤ ${BUDGET_RATIO}× generated (medians): ${ms(r)} / ${ms(g)} = ${ratio.toFixed(2)}× ${failed ? 'FAIL' : 'PASS'}`,
  );
} finally {
  await app.close();
}
if (failed) process.exitCode = 1;
