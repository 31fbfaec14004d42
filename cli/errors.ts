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

/** Standard streams whose reader has gone (`wastegen --help | head -1`): what is left to print to them is dropped. */
const gone = new WeakSet<NodeJS.WriteStream>();
const watched = new WeakSet<NodeJS.WriteStream>();

/**
 * Writes to stdout or stderr. When the reader closes the pipe, the write fails with EPIPE (as an
 * 'error' event): the stream is then marked gone and later lines are dropped, so the command ends
 * as it would have, quietly, instead of crashing with a stack trace. Other stream errors are thrown.
 */
function writeTo(stream: NodeJS.WriteStream, text: string): void {
  if (gone.has(stream)) return;
  if (!watched.has(stream)) {
    watched.add(stream);
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
      gone.add(stream);
    });
  }
  stream.write(text);
}

export const consoleOutput: Output = {
  out: (line) => writeTo(process.stdout, `${line}\n`),
  err: (line) => writeTo(process.stderr, `${line}\n`),
  ...(process.stderr.isTTY
    ? { progress: (line: string) => writeTo(process.stderr, `\r\x1b[2K${line.slice(0, Math.max(10, (process.stderr.columns || 80) - 1))}`) }
    : {}),
};

/** Prints every problem as `file#/pointer: message` (and its hint), errors and warnings alike. */
export function printProblems(problems: readonly Problem[], output: Output): void {
  for (const p of sortProblems(problems)) output.err(formatProblem(p));
}

export const errorsOf = (problems: readonly Problem[]) => problems.filter((p) => !isWarning(p));
export const warningsOf = (problems: readonly Problem[]) => problems.filter(isWarning);
