import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { type MessagePort, Worker } from 'node:worker_threads';
import {
  type CompileOptions,
  type CompileResult,
  compileOne,
  type DefinitionOutcome,
  type DefinitionSource,
  finishCompile,
  outputDir,
  runInterruptibly,
  runSteps,
} from './compile.js';
import { flattened } from './generated-writer.js';
import { compiledBuildHash, PACKAGE_ROOT } from './paths.js';
import { loadTemplates } from './templates.js';

/**
 * compile() on two threads, for a generate of many definitions: the main thread and a compiling
 * thread take definitions, a few at a time, from one shared counter until none is left, so each
 * does as many as it can whatever else the machine runs; both send their files straight to the
 * writing thread. The outcomes are then put back in the order of the definitions and gathered as
 * compile() gathers them: the same problems in the same order, pages, skipped definitions, routes
 * and files (whose texts went to the writer, so `files` is not returned).
 */

/** Definitions taken at a time: small enough to share the tail evenly, large enough to make taking cheap. */
const TAKE = 4;
/** Fewer definitions than this compile on one thread: starting a thread costs about as much as compiling them. */
export const THREADED_FROM = 120;

const WORKER_FILE = join(PACKAGE_ROOT, 'cli/dist/compile-worker.js');

/**
 * Whether to compile `count` definitions on two threads. WASTEGEN_COMPILE_THREADS=1 or 2 decides;
 * otherwise two from THREADED_FROM definitions on, when the machine has a core free for each of the
 * three threads (main, compiling, writing) beside what it already runs (a 1-minute load below its
 * cores less two). A second compiling thread costs its start and a second warm-up of the compiler
 * (0.7–0.9 s more CPU time for 1,000 definitions); on two cores, shared with the writing thread and
 * the collector's, the same wall clock went 12–17% up. Only the compiled CLI has the thread's module.
 */
export function wantTwoThreads(count: number, env: NodeJS.ProcessEnv = process.env): boolean {
  if (!compiledBuildHash() || !existsSync(WORKER_FILE)) return false;
  const forced = env.WASTEGEN_COMPILE_THREADS;
  if (forced === '1' || forced === '2') return forced === '2';
  const cores = availableParallelism();
  return count >= THREADED_FROM && cores >= 3 && (loadavg()[0] ?? 0) < cores - 2;
}

/** What each compiling thread is given. */
export interface CompileShare {
  sources: readonly DefinitionSource[];
  templatesDir?: string;
  /** [0]: the next definition to take; [1]: definitions done (for progress). */
  counters: Int32Array;
}

/**
 * Compiles definitions taken from the shared counter until none is left; their files go to `send`
 * in batches. Returns the outcomes by definition index.
 */
export function takeShare(
  share: CompileShare,
  send: (files: [string, string][]) => void,
  onPage?: (done: number, total: number) => void,
): Map<number, DefinitionOutcome> {
  return runSteps(takeShareSteps(share, send, onPage));
}

/** takeShare() as steps: one after each batch taken, the outcomes at the end. */
function* takeShareSteps(
  share: CompileShare,
  send: (files: [string, string][]) => void,
  onPage?: (done: number, total: number) => void,
): Generator<void, Map<number, DefinitionOutcome>> {
  const { sources, counters } = share;
  const outcomes = new Map<number, DefinitionOutcome>();
  let templates: ReturnType<typeof loadTemplates> | undefined;
  const getTemplates = () => {
    templates ??= loadTemplates(share.templatesDir);
    return templates;
  };
  let batch: [string, string][] = [];
  for (;;) {
    const start = Atomics.add(counters, 0, TAKE);
    if (start >= sources.length) break;
    for (let i = start; i < Math.min(start + TAKE, sources.length); i++) {
      const source = sources[i] as DefinitionSource;
      outcomes.set(
        i,
        compileOne(source, outputDir(source), getTemplates, (path, text) => batch.push([path, flattened(text)])),
      );
      const done = Atomics.add(counters, 1, 1) + 1;
      onPage?.(done, sources.length);
    }
    if (batch.length) send(batch);
    batch = [];
    yield;
  }
  return outcomes;
}

/**
 * `interrupted`: asked between batches once the event loop has turned (see runInterruptibly); when it
 * says so, neither thread takes another definition and the compile stops with CompileInterrupted.
 */
export async function compileInThreads(
  sources: readonly DefinitionSource[],
  routesSource: string,
  options: CompileOptions & { writer: MessagePort; interrupted?: () => boolean },
): Promise<Omit<CompileResult, 'files'>> {
  // Templates that do not load fail here, on the main thread, with the project's paths in the message.
  loadTemplates(options.templatesDir, options.showPath);
  const counters = new Int32Array(new SharedArrayBuffer(8));
  const share: CompileShare = { sources, templatesDir: options.templatesDir, counters };
  const worker = new Worker(WORKER_FILE, {
    workerData: { ...share, writer: options.writer },
    transferList: [options.writer],
  });
  const theirs = new Promise<[number, DefinitionOutcome][]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the compiling thread stopped (exit code ${code}) before it finished`)));
  });
  theirs.catch(() => {});
  let ours: Map<number, DefinitionOutcome>;
  try {
    const steps = takeShareSteps(
      share,
      (files) => {
        for (const [path, text] of files) options.onFile?.(path, text);
      },
      options.onPage,
    );
    ours = options.interrupted ? await runInterruptibly(steps, options.interrupted) : runSteps(steps);
  } catch (e) {
    // The compiling thread takes nothing more, and is stopped.
    Atomics.store(counters, 0, sources.length);
    await worker.terminate();
    throw e;
  }
  const outcomes: DefinitionOutcome[] = new Array(sources.length);
  for (const [i, o] of ours) outcomes[i] = o;
  try {
    for (const [i, o] of await theirs) outcomes[i] = o;
  } finally {
    await worker.terminate();
  }
  return finishCompile(sources, outcomes, routesSource, options);
}
