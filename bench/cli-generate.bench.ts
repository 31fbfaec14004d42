// Budgets, on synthetic definitions of 20 fields each:
//   generate of 500 views cold ≤ 3 s; a no-op re-run ≤ 0.5 s; 1,000 views ≤ 2.2 × the time of 500.
// Timed as a user runs it: `node cli/bin.js generate` as a child process, wall clock, median of
// several runs. The in-process compile time is printed beside it, to show where the time goes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compile } from '../cli/compile.js';
import { readDefinitionFiles } from '../cli/definitions-dir.js';
import { loadProject } from '../cli/project.js';
import { writeSyntheticProject } from './lib/synthetic-definitions.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BIN = join(import.meta.dirname, '../cli/bin.js');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

function generate(root: string, ...extra: string[]): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, [BIN, 'generate', '--cwd', root, ...extra], { encoding: 'utf8' });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`generate failed (${r.status}): ${r.stderr}`);
  return ms;
}

function inProcessCompileMs(root: string): number {
  const t = performance.now();
  const project = loadProject({ cwd: root });
  compile(readDefinitionFiles(project));
  return performance.now() - t;
}

function measure(count: number) {
  const root = mkdtempSync(join(tmpdir(), `wastegen-bench-${count}-`));
  try {
    writeSyntheticProject(root, count);
    const cold: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      rmSync(join(root, 'generated'), { recursive: true, force: true });
      cold.push(generate(root));
    }
    const noop: number[] = [];
    for (let i = 0; i < RUNS; i++) noop.push(generate(root));
    const noopNoCache: number[] = [];
    for (let i = 0; i < RUNS; i++) noopNoCache.push(generate(root, '--no-cache'));
    const compileMs: number[] = [];
    for (let i = 0; i < RUNS; i++) compileMs.push(inProcessCompileMs(root));
    return {
      count,
      cold: median(cold),
      coldMax: Math.max(...cold),
      noop: median(noop),
      noopMax: Math.max(...noop),
      noopNoCache: median(noopNoCache),
      compile: median(compileMs),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
const f = (ms: number) => `${ms.toFixed(0)} ms`;

console.log(`wastegen generate benchmark (20 fields per view, median of ${RUNS} runs, wall clock of the CLI process)`);
const r500 = measure(500);
const r1000 = measure(1000);
for (const r of [r500, r1000]) {
  console.log(
    `  ${String(r.count).padStart(5)} views: cold ${f(r.cold)} (max ${f(r.coldMax)}), no-op ${f(r.noop)} (max ${f(r.noopMax)}), ` +
      `no-op with --no-cache ${f(r.noopNoCache)}, in-process compile ${f(r.compile)}`,
  );
}
const ratio = r1000.cold / r500.cold;
console.log(`  in-process compile, 1000 / 500: ${(r1000.compile / r500.compile).toFixed(2)}×`);
const failed = [r500.cold > 3000, r500.noop > 500, ratio > 2.2];
console.log(`  budget: 500 cold ≤ 3000 ms: ${f(r500.cold)} ${verdict(!failed[0])}`);
console.log(`  budget: 500 no-op ≤ 500 ms: ${f(r500.noop)} ${verdict(!failed[1])}`);
console.log(`  budget: 1000 cold ≤ 2.2 × 500 cold: ${ratio.toFixed(2)}× ${verdict(!failed[2])}`);
if (failed.some(Boolean)) process.exitCode = 1;
