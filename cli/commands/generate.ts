import { availableParallelism } from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import type { Command } from 'commander';
import { sortProblems } from '../../src/model/problems.js';
import { DefinitionOnDisk } from '../definitions-dir.js';
import { CliError, EXIT } from '../errors.js';
import { recordGenerate, sha } from '../generate-cache.js';
import type { GenerateHandoff } from '../generate-fast.js';
import { reportUpToDate, startGenerate } from '../generate-noop.js';
import { type Committed, WriteFailure } from '../generated-dir.js';
import type { GeneratedWriter } from '../generated-writer.js';
import type { CommandContext } from '../main.js';
import { startProgress } from '../progress.js';
import { guardSignals } from '../signals.js';
import { addProjectOptions, compileProject, type ProjectFlags } from './shared.js';

export interface GenerateFlags extends ProjectFlags {
  cache?: boolean;
  quiet?: boolean;
  json?: boolean;
}

/** `handoff`: the project and listing the bin's first try read for these flags (it found work to do). */
export async function runGenerate(flags: GenerateFlags, ctx: CommandContext, handoff?: GenerateHandoff): Promise<void> {
  try {
    await generate(flags, ctx, handoff);
  } catch (e) {
    // With --json, stdout holds one document whatever happens; the problems are in it.
    if (!flags.json || !(e instanceof CliError)) throw e;
    const doc = { ok: false, error: e.message, ...(e.hint ? { hint: e.hint } : {}), problems: sortProblems(e.problems) };
    ctx.output.out(JSON.stringify(doc, null, 2));
    ctx.setExit(e.exitCode);
  }
}

async function generate(flags: GenerateFlags, ctx: CommandContext, handoff?: GenerateHandoff): Promise<void> {
  const start = handoff?.start ?? startGenerate(flags);
  const { project, listing, where, quiet } = start;
  const out = (line: string) => {
    if (!quiet) ctx.output.out(line);
  };
  if (!handoff && reportUpToDate(flags, start, ctx.output)) return;
  // Files are written as they are emitted; nothing shows in generated/ until the compile succeeded.
  const cannotWrite = (e: unknown) =>
    e instanceof WriteFailure
      ? new CliError(
          `could not write ${where}/: ${e.message}`,
          EXIT.invalid,
          e.changed
            ? `some files of ${where}/ could not be put back as they were; fix the cause and run wastegen generate again`
            : `nothing in ${where}/ was changed; check that it is writable and that no file stands where a folder must go`,
        )
      : e;
  // Loaded only when there is something to write: it brings the worker threads.
  const { openGeneratedWriter } = await import('../generated-writer.js');
  let writer: GeneratedWriter | undefined;
  /** Set once the commit has started: it is not interrupted, a signal then waits for its end. */
  let committing: Promise<Committed> | undefined;
  // Ctrl-C or SIGTERM before the commit removes what was staged; during it, lets it finish.
  const signals = guardSignals(async () => {
    if (committing) await committing.catch(() => {});
    else await writer?.abort();
  });
  try {
    try {
      writer = openGeneratedWriter(project.generatedDir);
    } catch (e) {
      throw cannotWrite(e);
    }
    const progress = startProgress(ctx.output, 'generate', !quiet);
    // Each text is read when the compile comes to it (or ahead of it, on the writing thread, where
    // there is a second core for it to run on: it parses each text a second time), and hashed for the
    // cache as it is read.
    const ahead = availableParallelism() > 1 ? writer.readAhead?.(listing.files.map((f) => f.abs)) : undefined;
    const sources = listing.files.map((f, i) => new DefinitionOnDisk(f, sha, ahead, i));
    let result: Awaited<ReturnType<typeof compileProject>>['result'];
    let diff: Committed;
    const opened = writer;
    try {
      ({ result } = await compileProject(
        flags,
        ctx.output,
        { project, sources },
        {
          quiet,
          onPage: (done, total) => progress.update(done, total),
          onFile: (path, text) => opened.add(path, text),
          ...(opened.port ? { writerPort: () => (opened.port as () => MessagePort)() } : {}),
          // Ctrl-C during the compile is answered between two definitions, not after the last.
          interrupted: () => signals.received !== undefined,
        },
      ));
      progress.end();
      ahead?.close();
      if (await signals.settle()) await signals.stopping;
      committing = opened.commit();
      diff = await committing;
    } catch (e) {
      progress.end();
      ahead?.close();
      if (signals.received) await signals.stopping;
      await opened.abort().catch(() => {});
      throw cannotWrite(e);
    }
    recordGenerate(project, listing, sources, diff.outputs);
    report(flags, ctx, where, result, diff, out);
  } finally {
    if (!signals.received) signals.release();
  }
}

function report(
  flags: GenerateFlags,
  ctx: CommandContext,
  where: string,
  result: Awaited<ReturnType<typeof compileProject>>['result'],
  diff: Committed,
  out: (line: string) => void,
): void {
  const pages = result.pages.length;
  if (flags.json) {
    const doc = {
      ok: true,
      upToDate: false,
      pages,
      added: diff.missing.map((f) => `${where}/${f}`),
      updated: diff.stale.map((f) => `${where}/${f}`),
      removed: diff.orphaned.map((f) => `${where}/${f}`),
      foreign: diff.foreign.map((f) => `${where}/${f}`),
      unchanged: diff.unchanged.length,
      skipped: result.skipped.map((s) => ({ file: s.file, reason: s.reason })),
    };
    ctx.output.out(JSON.stringify(doc, null, 2));
    return;
  }
  for (const f of diff.foreign)
    ctx.output.err(
      `warning: ${where}/${f} was not written by wastegen (it does not start with its banner) and no definition produces it; it was left in place: delete it or move it out of ${where}/`,
    );
  // One write for every line: a generate of 1,000 pages lists 2,000 files.
  const lines = [
    ...diff.missing.map((f) => `  + ${where}/${f}`),
    ...diff.stale.map((f) => `  ~ ${where}/${f}`),
    ...diff.orphaned.map((f) => `  - ${where}/${f}`),
  ];
  if (lines.length) out(lines.join('\n'));
  if (diff.swept) out(`removed ${diff.swept} temp file(s) and folder(s) an interrupted generate left in or beside ${where}/`);
  out(
    `generated ${pages} page${pages === 1 ? '' : 's'} into ${where}/: ${diff.missing.length} added, ${diff.stale.length} updated, ${diff.orphaned.length} removed, ${diff.unchanged.length} unchanged`,
  );
}

export default function register(program: Command, ctx: CommandContext): void {
  addProjectOptions(program.command('generate'))
    .description('compile definitions/ into generated/: typed pages, zod schemas and routes')
    .option('--no-cache', 'compile even when nothing changed since the last generate')
    .option('--quiet', 'print nothing but problems and errors')
    .option('--json', 'print the result as one JSON document (nothing else on stdout)')
    .addHelpText(
      'after',
      `
Writes only files whose bytes change (through a temp file and a rename) and removes the files it
wrote that no definition produces any more (a file without its banner, or in a dot-folder, is never
removed). The commit is all or nothing: a failure part-way puts the previous files back, and Ctrl-C
or SIGTERM removes what was staged. Temp files a killed run left are removed by the next generate.
When neither the definitions, nor generated/, nor wastegen itself changed since the last run, it
stops early (cache in node_modules/.cache/wastegen; --no-cache compiles anyway). Writes nothing when
any definition is invalid; every problem is printed as file#/json/pointer: message.

Examples:
  $ wastegen generate
  $ wastegen generate --cwd ../back-office
  $ wastegen generate --config ci/wastegen.config.json`,
    )
    .action((flags: GenerateFlags) => runGenerate(flags, ctx));
}
