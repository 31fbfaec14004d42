import { Worker } from 'node:worker_threads';
import { PATTERN_TEXT_MAX, type PatternTester, patternShape } from '../../src/model/index.js';

/**
 * A field's `pattern` is written by whoever designs the page and tested against what any user submits
 * or imports. V8 runs it by backtracking, so a pattern like `^(a+)+$` takes seconds or years on a
 * crafted value, and V8 can stop a running pattern only when it backtracks: not while it compiles, and
 * not while it works forward (a lookahead walking the text once per step of a count). A time limit on
 * the server's own thread therefore does not hold. So the server tests a pattern by its shape
 * (`patternShape`; a definition whose pattern is too large to bound is refused before it gets here):
 *
 * - A pattern in the linear shape runs on the server's thread while the text's length times its
 *   expanded size is at most LINEAR_STEPS (about 1 ms).
 * - Anything else runs on a worker thread of its own, started with the first form that needs one.
 *   The server's thread waits for the answer at most PATTERN_TIME_LIMIT_MS; past it the worker is
 *   left to finish or be stopped, and a new one takes its place. A pattern outside the linear shape
 *   is tested only on texts of at most PATTERN_TEXT_MAX characters, which bounds how long an
 *   abandoned worker can run.
 * - A value whose test outlives the wait is refused as 'busy', and so is every value of its pattern
 *   while the worker gets a grace period. A pattern whose test then has still not answered, or by the
 *   worker's own clock took longer than the limit, or threw (V8's backtrack stack overflows), is not
 *   run again by this process: every later value is refused at once, and the server logs it once. A
 *   test that was only late (the machine was busy) leaves the pattern as it was.
 * - Each pattern may spend PATTERN_BUDGET_MS of test time in a minute, and all patterns together
 *   ALL_PATTERNS_BUDGET_MS, so values just under the limit cannot hold the thread row after row; a
 *   value past the budget is refused as 'busy' until the minute is over.
 */

/** How long the server's thread waits for a test on the worker. */
export const PATTERN_TIME_LIMIT_MS = 50;

/**
 * Steps a linear-shaped pattern may take on the server's thread: the text's length times the
 * pattern's expanded size (V8 takes 4–12 ns a step, large character classes the most: about 1 ms).
 */
export const LINEAR_STEPS = 100_000;

/** Test time one pattern may spend in a minute, and all patterns together. */
export const PATTERN_BUDGET_MS = 5_000;
export const ALL_PATTERNS_BUDGET_MS = 10_000;
const BUDGET_WINDOW_MS = 60_000;

/** Longest text any pattern is tested on; past its steps, a linear-shaped pattern's text goes to the worker. */
export const WORKER_TEXT_MAX = 100_000;
/** Longest the server's thread waits for a worker to start. */
const START_WAIT_MS = 1_000;
/** How long a worker that outlived the wait is given to answer before its pattern is judged. */
const GRACE_MS = 1_000;
/**
 * A left worker's test that took this long by its own clock stops its pattern. The clock is the
 * thread's wall time, which a machine busy with PostgreSQL stretches; a pattern that can be made to
 * backtrack takes seconds, not a few times the wait.
 */
const STOP_FACTOR = 4;
/**
 * A pattern whose tests outlive the wait this often is stopped, whatever its worker's clock says:
 * a value can be sized to land between the wait and STOP_FACTOR times it, and each late test leaves
 * a worker for the grace period.
 */
const LATE_MAX = 3;
/** Test time one turn of the event loop may spend (an import's slice of rows, say). */
export const TURN_BUDGET_MS = 250;
/** Abandoned workers still running at once; past it, values that need a worker are refused as 'busy'. */
const ABANDONED_MAX = 2;

/** True when the pattern may run on the server's thread, on a text its steps allow (see `patternShape`). */
export function plainlyLinear(source: string): boolean {
  const shape = patternShape(source);
  return shape.refusal === undefined && shape.linear;
}

// The worker's states, in the first cell of the shared control block.
const IDLE = 0;
const REQUEST = 1;
const DONE = 2;
const STARTING = 3;

/** The worker: waits for a request, tests it, answers 1 (match), 0 (none) or 2 (threw), with its time in µs. */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const control = new Int32Array(workerData.control);
// Read as UTF-16 as it is: lone surrogates and a leading U+FEFF stay what they are.
const units = (from, count) => Buffer.from(workerData.chars, from * 2, count * 2).toString('utf16le');
let source = null;
let re = null;
Atomics.store(control, 0, ${IDLE});
Atomics.notify(control, 0);
require('node:worker_threads').parentPort.postMessage('ready');
for (;;) {
  // Sleep until a request, whatever state the last answer left.
  let state;
  while ((state = Atomics.load(control, 0)) !== ${REQUEST}) Atomics.wait(control, 0, state);
  const pattern = units(0, control[2]);
  const text = units(control[2], control[3]);
  const start = performance.now();
  let answer;
  try {
    if (pattern !== source) {
      re = new RegExp(pattern);
      source = pattern;
    }
    answer = re.test(text) ? 1 : 0;
  } catch {
    answer = 2;
  }
  control[4] = Math.min(2147483647, Math.round((performance.now() - start) * 1000));
  control[1] = answer;
  Atomics.store(control, 0, ${DONE});
  Atomics.notify(control, 0);
}
`;

type Answer = boolean | 'timeout' | 'too long' | 'busy';

/** One worker and its shared blocks; replaced when a test outlives the wait. */
class PatternWorker {
  private readonly control = new Int32Array(new SharedArrayBuffer(5 * 4));
  private readonly chars = new Uint16Array(new SharedArrayBuffer(2 * (WORKER_TEXT_MAX + 1_000)));
  private readonly worker: Worker;
  /** Resolves once the worker takes tests. */
  readonly started: Promise<void>;

  constructor() {
    this.control[0] = STARTING;
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { control: this.control.buffer, chars: this.chars.buffer } });
    // Once started, an idle worker never keeps the process alive; until then, whoever awaits `started` is answered.
    this.started = new Promise((resolve) => {
      const done = () => {
        this.worker.unref();
        resolve();
      };
      this.worker.once('message', done);
      this.worker.once('exit', done);
    });
  }

  /** The answer and the time the test took on the worker, or 'late' when it did not answer in time. */
  test(pattern: string, text: string, limitMs: number): { answer: 0 | 1 | 2; micros: number } | 'late' | 'starting' {
    // A worker still starting is waited for (tens of ms; no value or pattern can lengthen it), so the
    // first value of a form is not refused for it. Starts happen only with a first form and after a
    // left test, which the budgets and LATE_MAX bound.
    if (Atomics.load(this.control, 0) === STARTING) Atomics.wait(this.control, 0, STARTING, START_WAIT_MS);
    if (Atomics.load(this.control, 0) === STARTING) return 'starting';
    if (Atomics.load(this.control, 0) !== IDLE) return 'late';
    for (let i = 0; i < pattern.length; i++) this.chars[i] = pattern.charCodeAt(i);
    for (let i = 0; i < text.length; i++) this.chars[pattern.length + i] = text.charCodeAt(i);
    this.control[2] = pattern.length;
    this.control[3] = text.length;
    Atomics.store(this.control, 0, REQUEST);
    Atomics.notify(this.control, 0);
    Atomics.wait(this.control, 0, REQUEST, limitMs);
    const done = this.outcome();
    if (!done) return 'late';
    Atomics.store(this.control, 0, IDLE);
    return done;
  }

  /** The answer of the last test, once the worker has given it. */
  outcome(): { answer: 0 | 1 | 2; micros: number } | undefined {
    if (Atomics.load(this.control, 0) !== DONE) return undefined;
    return { answer: this.control[1] as 0 | 1 | 2, micros: this.control[4] ?? 0 };
  }

  /** Stops the worker; resolves when its thread has ended (V8 may first finish work it cannot interrupt). */
  stop(): Promise<number> {
    return this.worker.terminate();
  }
}

/** Time spent in the current minute, by pattern and in all. */
class Budget {
  private start = 0;
  private all = 0;
  private readonly byPattern = new Map<string, number>();
  private turn = 0;
  private turnEnds = false;

  constructor(
    private readonly perPattern: number,
    private readonly total: number,
    private readonly perTurn: number,
    private readonly now: () => number,
  ) {}

  private roll(): void {
    const t = this.now();
    if (t - this.start < BUDGET_WINDOW_MS) return;
    this.start = t;
    this.all = 0;
    this.byPattern.clear();
  }

  spent(pattern: string): boolean {
    this.roll();
    return this.turn >= this.perTurn || this.all >= this.total || (this.byPattern.get(pattern) ?? 0) >= this.perPattern;
  }

  charge(pattern: string, ms: number): void {
    this.all += ms;
    this.byPattern.set(pattern, (this.byPattern.get(pattern) ?? 0) + ms);
    this.turn += ms;
    if (!this.turnEnds) {
      // The turn's time is counted until the event loop next gets to run other work.
      this.turnEnds = true;
      setImmediate(() => {
        this.turn = 0;
        this.turnEnds = false;
      });
    }
  }
}

export interface BoundedPatternOptions {
  limitMs?: number;
  perPatternBudgetMs?: number;
  allPatternsBudgetMs?: number;
  turnBudgetMs?: number;
  /** A left test that took this long by its worker's clock stops its pattern (STOP_FACTOR times the wait). */
  stopMs?: number;
  /** Called once for each pattern that is stopped for good. */
  onStopped?: (pattern: string, why: 'timeout' | 'threw') => void;
  now?: () => number;
}

/**
 * The server's pattern tester: `undefined` for a pattern that does not compile (the normaliser reports
 * it as E_PATTERN), otherwise a test answering true, false, 'timeout', 'too long' or 'busy'.
 */
export function boundedPatterns(options: BoundedPatternOptions = {}): BoundedPatternTester {
  const limitMs = options.limitMs ?? PATTERN_TIME_LIMIT_MS;
  const stopMs = options.stopMs ?? STOP_FACTOR * limitMs;
  const now = options.now ?? (() => performance.now());
  const budget = new Budget(
    options.perPatternBudgetMs ?? PATTERN_BUDGET_MS,
    options.allPatternsBudgetMs ?? ALL_PATTERNS_BUDGET_MS,
    options.turnBudgetMs ?? TURN_BUDGET_MS,
    now,
  );
  const stopped = new Set<string>();
  let worker: PatternWorker | undefined;
  /** A second worker kept started, which takes over at once when the first is left. */
  let spare: PatternWorker | undefined;
  let abandoned = 0;

  /** Patterns whose last test outlived the wait, until the worker that ran it is judged. */
  const judging = new Set<string>();
  /** How often each pattern's test outlived the wait in this process. */
  const late = new Map<string, number>();

  /**
   * A test outlived the wait. The worker is given a grace period: if it then has answered, and by its
   * own clock took less than the limit, the wait was the machine's (a busy CPU, a collection), not the
   * pattern's, and the pattern goes on. Otherwise the pattern is stopped. Either way the worker ends.
   */
  const judge = (left: PatternWorker, pattern: string) => {
    worker = undefined;
    abandoned++;
    judging.add(pattern);
    const timer = setTimeout(() => {
      judging.delete(pattern);
      const done = left.outcome();
      const lates = (late.get(pattern) ?? 0) + 1;
      late.set(pattern, lates);
      if (!done || done.answer === 2 || done.micros >= stopMs * 1000 || lates >= LATE_MAX)
        stop(pattern, done?.answer === 2 ? 'threw' : 'timeout');
      void left.stop().finally(() => {
        abandoned--;
        ready();
      });
    }, GRACE_MS);
    timer.unref();
    ready();
  };

  const stop = (pattern: string, why: 'timeout' | 'threw'): 'timeout' => {
    if (!stopped.has(pattern)) {
      stopped.add(pattern);
      options.onStopped?.(pattern, why);
    }
    return 'timeout';
  };

  /**
   * The worker, and a spare started ahead: a start takes tens of ms, which a value should not wait
   * for. Left workers still running count against the threads there may be.
   */
  const ready = (): PatternWorker | undefined => {
    if (!worker && spare) {
      worker = spare;
      spare = undefined;
    }
    if (!worker && abandoned < ABANDONED_MAX) worker = new PatternWorker();
    if (!spare && abandoned + 1 < ABANDONED_MAX) spare = new PatternWorker();
    return worker;
  };

  const onWorker = (pattern: string, text: string): Answer => {
    const worker = ready();
    if (!worker) return 'busy';
    const started = now();
    const result = worker.test(pattern, text, limitMs);
    // Everything the server's thread spent is charged: the copy and the wait, not only the worker's test.
    budget.charge(pattern, now() - started);
    if (result === 'starting') return 'busy';
    if (result === 'late') {
      judge(worker, pattern);
      return 'busy';
    }
    if (result.answer === 2) return stop(pattern, 'threw');
    return result.answer === 1;
  };

  const tester: PatternTester = (pattern) => {
    const shape = patternShape(pattern);
    let re: RegExp;
    try {
      re = new RegExp(pattern);
    } catch {
      return undefined;
    }
    // Too large to be a field's rule: the normaliser refuses it, and one stored before that rule is never run.
    if (shape.refusal !== undefined) return () => 'timeout';
    // Workers start with the first form that needs them, ahead of its first value; a process whose
    // patterns are all linear starts none.
    if (!shape.linear) ready();
    return (text) => {
      if (stopped.has(pattern)) return 'timeout';
      if (text.length > WORKER_TEXT_MAX) return 'too long';
      if (budget.spent(pattern)) return 'busy';
      if (shape.linear && text.length * shape.expanded <= LINEAR_STEPS) {
        const started = now();
        try {
          return re.test(text);
        } catch {
          // V8 compiles at the first test; a pattern whose compile runs out of stack is one that does not compile.
          return stop(pattern, 'threw');
        } finally {
          budget.charge(pattern, now() - started);
        }
      }
      if (!shape.linear && text.length > PATTERN_TEXT_MAX) return 'too long';
      // While a left worker is judged, the pattern's values that need a worker wait with it.
      if (judging.has(pattern)) return 'busy';
      return onWorker(pattern, text);
    };
  };
  return Object.assign(tester, {
    ready: () => {
      ready();
      return Promise.all([worker?.started, spare?.started]).then(() => undefined);
    },
  });
}

/** A pattern tester whose worker can be waited for (tests wait for it to start rather than for time). */
export type BoundedPatternTester = PatternTester & { ready(): Promise<void> };

/** The tester every form schema of this server process uses. */
export const serverPatterns: PatternTester = boundedPatterns({
  onStopped: (pattern, why) =>
    console.warn(
      `field pattern ${why === 'timeout' ? `ran out of its ${PATTERN_TIME_LIMIT_MS} ms` : 'threw'} and is no longer run; values are refused until it is changed: ${JSON.stringify(pattern.slice(0, 200))}`,
    ),
});
