// Budgets, on synthetic definitions of 20 fields each, for the compiled CLI:
//   a no-op generate of 500 views ≤ 300 ms; a cold generate of 1,000 views ≤ 2 s;
//   1,000 views cold ≤ 2.2 × the time of 500; and still 500 views cold ≤ 3 s.
// The budgets before the CLI was compiled (it ran through tsx) were 500 cold ≤ 3 s and no-op
// ≤ 500 ms; the last figures measured then are printed beside today's.
// Timed as a user runs it: `node cli/bin.js generate` as a child process, wall clock, median of
// several runs. The in-process compile time is printed beside it, to show where the time goes.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compile } from '../cli/compile.js';
import { readDefinitionFiles } from '../cli/definitions-dir.js';
import { loadProject } from '../cli/project.js';
import { writeSyntheticProject } from './lib/synthetic-definitions.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BIN = join(import.meta.dirname, '../cli/bin.js');

/**
 * The same sources run through tsx (the CLI before it was compiled), measured by this benchmark on
 * this kind of machine (2 cores, lightly loaded), for comparison.
 */
const BEFORE = { noop500: 518, cold500: 2503, cold1000: 2974 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/**
 * CPU time (user + system, ms) of the waited-for children so far, from /proc/self/stat (Linux; 10 ms
 * ticks). On a machine shared with other work, wall clock measures the queue as much as the CLI;
 * CPU time is what the CLI itself spends, printed beside it.
 */
function childrenCpuMs(): number | undefined {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
    // After the command name: field 16 (cutime) and 17 (cstime) are at indexes 13 and 14 here.
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

const cpu: Record<string, number[]> = {};

function generate(root: string, label: string, ...extra: string[]): number {
  const c0 = childrenCpuMs();
  const t = performance.now();
  const r = spawnSync(process.execPath, [BIN, 'generate', '--cwd', root, ...extra], { encoding: 'utf8' });
  const ms = performance.now() - t;
  const c1 = childrenCpuMs();
  if (c0 !== undefined && c1 !== undefined) cpu[label] = [...(cpu[label] ?? []), c1 - c0];
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
      // The previous output is moved aside, not deleted, until the end: on an ext4 without a journal
      // (these machines) the kernel skips inodes freed in the last few seconds when it creates a
      // file, so deleting 2,000 files here would be timed as part of the next generate.
      if (existsSync(join(root, 'generated'))) renameSync(join(root, 'generated'), join(root, `.bench-previous-${i}`));
      cold.push(generate(root, `cold${count}`));
    }
    const noop: number[] = [];
    for (let i = 0; i < RUNS; i++) noop.push(generate(root, `noop${count}`));
    const noopNoCache: number[] = [];
    for (let i = 0; i < RUNS; i++) noopNoCache.push(generate(root, `nocache${count}`, '--no-cache'));
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
      cpuCold: cpu[`cold${count}`] ? median(cpu[`cold${count}`] as number[]) : undefined,
      cpuNoop: cpu[`noop${count}`] ? median(cpu[`noop${count}`] as number[]) : undefined,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
const f = (ms: number) => `${ms.toFixed(0)} ms`;

console.log(`wastegen generate benchmark (20 fields per view, median of ${RUNS} runs, wall clock of the CLI process)`);
// The first run after a source change compiles the CLI; that is not what a user's run costs.
spawnSync(process.execPath, [BIN, '--version'], { encoding: 'utf8' });
const r500 = measure(500);
const r1000 = measure(1000);
for (const r of [r500, r1000]) {
  console.log(
    `  ${String(r.count).padStart(5)} views: cold ${f(r.cold)} (max ${f(r.coldMax)}), no-op ${f(r.noop)} (max ${f(r.noopMax)}), ` +
      `no-op with --no-cache ${f(r.noopNoCache)}, in-process compile ${f(r.compile)}` +
      (r.cpuCold !== undefined && r.cpuNoop !== undefined ? `; CPU time of the CLI: cold ${f(r.cpuCold)}, no-op ${f(r.cpuNoop)}` : ''),
  );
}
const ratio = r1000.cold / r500.cold;
console.log(`  in-process compile, 1000 / 500: ${(r1000.compile / r500.compile).toFixed(2)}×`);
const was = (ms: number) => ` (tsx-run CLI: ${f(ms)})`;
const failed = [r500.noop > 300, r1000.cold > 2000, ratio > 2.2, r500.cold > 3000];
console.log(`  budget: 500 no-op ≤ 300 ms: ${f(r500.noop)}${was(BEFORE.noop500)} ${verdict(!failed[0])}`);
console.log(`  budget: 1000 cold ≤ 2000 ms: ${f(r1000.cold)}${was(BEFORE.cold1000)} ${verdict(!failed[1])}`);
console.log(`  budget: 1000 cold ≤ 2.2 × 500 cold: ${ratio.toFixed(2)}× ${verdict(!failed[2])}`);
console.log(`  budget: 500 cold ≤ 3000 ms: ${f(r500.cold)}${was(BEFORE.cold500)} ${verdict(!failed[3])}`);
if (failed.some(Boolean)) process.exitCode = 1;
