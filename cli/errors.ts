import { writeSync } from 'node:fs';
import { formatProblem, isWarning, type Problem, sortProblems } from '../src/model/problems.js';

/** Exit codes: 0 ok; 1 invalid or stale; 2 usage; 3 network or auth. */
export const EXIT = { ok: 0, invalid: 1, usage: 2, network: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * An expected failure: printed as its message (and hint), never as a stack trace, and mapped to
 * its exit code by main().
 */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly hint?: string,
    readonly problems: Problem[] = [],
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Where the CLI's output goes; tests pass their own to read it. */
export interface Output {
  out(line: string): void;
  err(line: string): void;
  /** Redraws the one progress line; present only when stderr is a terminal. '' clears it. */
  progress?(line: string): void;
}

/** Of stdout (1) and stderr (2), those whose reader has gone (`wastegen --help | head -1`). */
const gone = new Set<number>();
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes to stdout (1) or stderr (2) straight through the file descriptor, so a run that prints one
 * line does not set up Node's stream objects. When the reader has closed the pipe, the write fails
 * with EPIPE (EBADF when the descriptor itself was closed): the descriptor is marked gone and what
 * is left to print to it is dropped, so the command ends as it would have, quietly, instead of
 * crashing with a stack trace. A descriptor left
 * non-blocking by another process (EAGAIN) is waited on; other errors are thrown.
 */
function writeTo(fd: 1 | 2, text: string): void {
  if (gone.has(fd)) return;
  const bytes = Buffer.from(text, 'utf8');
  let done = 0;
  while (done < bytes.length) {
    try {
      done += writeSync(fd, bytes, done);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') Atomics.wait(pause, 0, 0, 2);
      else if (code === 'EPIPE' || code === 'EBADF') {
        gone.add(fd);
        return;
      } else throw e;
    }
  }
}

const drawProgress = (line: string) => writeTo(2, `\r\x1b[2K${line.slice(0, Math.max(10, (process.stderr.columns || 80) - 1))}`);

export const consoleOutput: Output = {
  out: (line) => writeTo(1, `${line}\n`),
  err: (line) => writeTo(2, `${line}\n`),
  // Asked only when a long step starts: whether stderr is a terminal costs setting up its stream.
  get progress() {
    return process.stderr.isTTY ? drawProgress : undefined;
  },
};

/** Prints every problem as `file#/pointer: message` (and its hint), errors and warnings alike. */
export function printProblems(problems: readonly Problem[], output: Output): void {
  for (const p of sortProblems(problems)) output.err(formatProblem(p));
}

export const errorsOf = (problems: readonly Problem[]) => problems.filter((p) => !isWarning(p));
export const warningsOf = (problems: readonly Problem[]) => problems.filter(isWarning);

/**
 * Prints a command's failure and answers its exit code: an expected one (a CliError) as its problems,
 * message and hint; anything else as a bug, with its stack (70).
 */
export function reportFailure(e: unknown, output: Output): number {
  if (e instanceof CliError) {
    printProblems(e.problems, output);
    output.err(`wastegen: ${e.message}`);
    if (e.hint) output.err(`  hint: ${e.hint}`);
    return e.exitCode;
  }
  output.err(`wastegen: internal error, please report it with the command you ran:\n${e instanceof Error ? e.stack : String(e)}`);
  return 70;
}
