// Budget: the view designer's live preview redraws ≤ 100 ms after an edit, on a 60-field view.
// A synthetic view of 60 fields, all of them table columns and form fields
// (bench/lib/synthetic-definitions.ts), is added through the API after the build and opened in the
// designer (/dev-tools/generation?design=). Characters are typed one at a time into a column's
// 中文名; each keystroke is one edit of the unsaved definition. For each one the page measures from
// the keydown event's timeStamp to after the next frame painted once the preview (the runtime
// renderer) committed that edit, and checks the preview's header shows the typed text.
import type { Page } from 'playwright-core';
import { machine, median, ms, percentile, publishView, startBenchApp, summary } from './lib/app-browser.js';
import { syntheticView } from './lib/synthetic-definitions.js';

/** 60 by the budget; BENCH_FIELDS only to see how the time grows with the view. */
const FIELDS = Number(process.env.BENCH_FIELDS ?? 60);
const KEYS = Number(process.env.BENCH_KEYS ?? 30);
const WARMUP_KEYS = 5;
const BUDGET_MS = 100;
const PAUSE_MS = 60;
const TEXT = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** The column edited: the middle of the table. */
const ROW = Math.floor(FIELDS / 2);

/** Installs the recorder: keydown time, and after-paint time of each preview commit (the designer's mark). */
const INSTALL = `(() => {
  const rec = { pending: null, edits: [] };
  window.__designer = rec;
  const afterPaint = (done) =>
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => done(performance.now());
      ch.port2.postMessage(null);
    });
  document.addEventListener('keydown', (e) => { rec.pending = e.timeStamp; }, true);
  const mark = performance.mark.bind(performance);
  performance.mark = (name, options) => {
    const m = mark(name, options);
    if (name === 'wastegen:design-preview' && rec.pending !== null) {
      const t0 = rec.pending;
      rec.pending = null;
      afterPaint((t) => rec.edits.push(t - t0));
    }
    return m;
  };
})();`;

const app = await startBenchApp();
let failed = false;
try {
  const view = syntheticView(950, FIELDS, FIELDS);
  const viewId = await publishView(app.admin, view);
  const context = await app.context();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.setDefaultTimeout(30_000);
  const t0 = performance.now();
  await page.goto(`/dev-tools/generation?design=${viewId}`);
  const preview = page.locator('.view-designer .design-preview');
  await preview.locator('.engine-list-table').waitFor();
  const openMs = performance.now() - t0;
  const columns = await preview.locator('.engine-list-table [role=columnheader]').count();
  await page.evaluate(INSTALL);

  const input = page.locator(`.designer-grid[data-list="table"] tr[data-row="${ROW}"] [data-cell="chName"]`);
  await input.click();
  await input.press('End');
  const typeKeys = async (p: Page, n: number, from: number) => {
    for (let i = 0; i < n; i++) {
      const key = TEXT[(from + i) % TEXT.length] as string;
      const before = await p.evaluate(() => (window as unknown as { __designer: { edits: number[] } }).__designer.edits.length);
      await p.keyboard.press(key);
      await p.waitForFunction((c) => (window as unknown as { __designer: { edits: number[] } }).__designer.edits.length > c, before, {
        polling: 5,
      });
      await p.waitForTimeout(PAUSE_MS);
    }
  };
  await typeKeys(page, WARMUP_KEYS, 0);
  await page.evaluate(() => {
    (window as unknown as { __designer: { edits: number[] } }).__designer.edits.length = 0;
  });
  await typeKeys(page, KEYS, WARMUP_KEYS);
  const edits = await page.evaluate(() => (window as unknown as { __designer: { edits: number[] } }).__designer.edits);
  const typed = await input.inputValue();
  const headers = await preview.locator('.engine-list-table [role=columnheader]').allInnerTexts();
  if (!headers.some((h) => h.trim() === typed.trim()))
    throw new Error(`the preview does not show the edited column ${JSON.stringify(typed)}`);
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);

  console.log(`machine: ${machine()}`);
  console.log(`designer: view ${viewId}, ${FIELDS} fields, ${columns} preview columns, opened in ${ms(openMs)} incl. round trips`);
  console.log(
    `keystroke in a column's 中文名 → preview committed and painted, over ${edits.length} edits (after ${WARMUP_KEYS} warm-up): ${summary(edits)}`,
  );
  const m = median(edits);
  failed = !(m <= BUDGET_MS);
  console.log(
    `budget: median edit → preview redrawn ≤ ${BUDGET_MS} ms: ${ms(m)} (p95 ${ms(percentile(edits, 95))}) ${failed ? 'FAIL' : 'PASS'}`,
  );
} finally {
  await app.close();
}
if (failed) process.exitCode = 1;
