// Budget: `wastegen review` draws 10 changed views (before and after, every state, both sizes) in
// at most 30 s on this machine; with nothing changed it starts no browser and takes well under a
// second.
// Timed as a user runs it: `node cli/bin.js review` as a child process over a git repository whose
// second commit changes 10 views (the demo's designed views and synthetic ones of 20 fields, each
// relabelled and given a new field), wall clock, median of BENCH_RUNS runs (default 3). Beside it: the
// CPU time of the CLI and the processes it waited for, and the machine's busy CPU time during the run,
// which also counts Chromium's renderers (and any other work: on a shared machine the wall clock
// measures the queue too).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from './lib/app-browser.js';
import { syntheticView } from './lib/synthetic-definitions.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const VIEWS = 10;
const BUDGET_MS = 30_000;
const NOTHING_BUDGET_MS = 1_000;
const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'cli/bin.js');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** CPU time (user + system, ms) of the waited-for children so far (Linux, 10 ms ticks). */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
}

/**
 * CPU time (ms) the machine's cores spent busy so far, whoever ran (Linux /proc/stat, 10 ms ticks).
 * Chromium's renderers are reaped by its zygote, not by the CLI, so the children's figure misses them.
 */
function machineBusyMs(): number {
  const [, ...ticks] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  // Fields 4 and 5 are idle and waiting for the disk.
  return ((total - (ticks[3] ?? 0) - (ticks[4] ?? 0)) * 1000) / 100;
}

type Json = Record<string, unknown>;

function git(cwd: string, ...args: string[]) {
  const r = spawnSync('git', ['-c', 'user.email=bench@example.com', '-c', 'user.name=bench', ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

/** The demo's designed views plus synthetic ones up to VIEWS, committed; then each changed in a second commit. */
function makeRepository(): string {
  const repo = mkdtempSync(join(tmpdir(), 'wastegen-bench-review-'));
  const views = join(repo, 'definitions/views');
  mkdirSync(views, { recursive: true });
  cpSync(join(ROOT, 'definitions/views'), views, { recursive: true });
  const designed = readdirSync(views).filter((f) => (JSON.parse(readFileSync(join(views, f), 'utf8')) as Json).disTemplate);
  for (const f of readdirSync(views)) if (!designed.includes(f)) rmSync(join(views, f));
  for (let i = designed.length; i < VIEWS; i++) {
    const id = 9001 + i;
    const file = `${id}-synthetic-${id}.json`;
    writeFileSync(join(views, file), `${JSON.stringify(syntheticView(id), null, 2)}\n`);
    designed.push(file);
  }
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', 'base');
  for (const f of designed.slice(0, VIEWS)) {
    const json = JSON.parse(readFileSync(join(views, f), 'utf8')) as Json;
    const t = json.disTemplate as Json;
    const list = (k: string) => (Array.isArray(t[k]) ? t[k] : ((t[k] as { items?: Json[] } | undefined)?.items ?? [])) as Json[];
    const first = list('tableOption')[0] as Json;
    first.chName = `${first.chName}（改）`;
    const extra = { name: 'benchNote', chName: '评审备注', dataType: 'varchar', linked: false };
    list('tableOption').push({ ...extra, configure: { show: true, sort: 99 } });
    list('formOption').push({ ...extra, configure: { show: 1, sort: 99 } });
    writeFileSync(join(views, f), `${JSON.stringify(json, null, 2)}\n`);
  }
  git(repo, 'commit', '-qam', 'change every view');
  return repo;
}

function review(repo: string, app: string, base: string, out: string): { ms: number; cpu: number; busy: number; stdout: string } {
  const c0 = childrenCpuMs();
  const b0 = machineBusyMs();
  const t = performance.now();
  const r = spawnSync(process.execPath, [BIN, 'review', '--app', app, '--base', base, '--out', out], { cwd: repo, encoding: 'utf8' });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`review failed (${r.status}): ${r.stderr}`);
  return { ms, cpu: childrenCpuMs() - c0, busy: machineBusyMs() - b0, stdout: r.stdout };
}

const app = await buildApp();
const repo = makeRepository();
try {
  // The first run after a source change compiles the CLI; that is not what a user's run costs.
  spawnSync(process.execPath, [BIN, '--version']);
  const runs = Array.from({ length: RUNS }, (_, i) => review(repo, app.dir, 'HEAD~1', `review-${i}`));
  const nothing = Array.from({ length: RUNS }, (_, i) => review(repo, app.dir, 'HEAD', `nothing-${i}`));
  const pictures = Number(/; (\d+) pictures/.exec(runs[0]?.stdout ?? '')?.[1] ?? 0);
  const wall = median(runs.map((r) => r.ms));
  const cpu = median(runs.map((r) => r.cpu));
  const busy = median(runs.map((r) => r.busy));
  const idle = median(nothing.map((r) => r.ms));
  console.log(
    `wastegen review benchmark: ${VIEWS} changed views, ${pictures} before/after pictures (each state at 1366×768 and 1920×1080), median of ${RUNS} runs; load ${loadavg()[0]?.toFixed(1)}`,
  );
  console.log(
    `  runs: ${runs.map((r) => `${(r.ms / 1000).toFixed(1)} s`).join(', ')}; CPU time of the CLI and the processes it waited for ${(cpu / 1000).toFixed(1)} s; ` +
      `the machine's cores busy ${(busy / 1000).toFixed(1)} s of ${((wall * cpus().length) / 1000).toFixed(1)} s (all its work, Chromium's renderers among it)`,
  );
  console.log(`  per picture (before and after): ${(wall / Math.max(1, pictures)).toFixed(0)} ms`);
  const failed = [wall > BUDGET_MS, idle > NOTHING_BUDGET_MS];
  console.log(`  budget: ${VIEWS} changed views ≤ ${BUDGET_MS / 1000} s: ${(wall / 1000).toFixed(1)} s ${failed[0] ? 'FAIL' : 'PASS'}`);
  console.log(`  budget: nothing changed (no browser) ≤ ${NOTHING_BUDGET_MS} ms: ${idle.toFixed(0)} ms ${failed[1] ? 'FAIL' : 'PASS'}`);
  if (failed.some(Boolean)) process.exitCode = 1;
} finally {
  rmSync(repo, { recursive: true, force: true });
  app.dispose();
}
