import type { MessagePort } from 'node:worker_threads';
import type { Command } from 'commander';
import type { CompileOptions, CompileResult } from '../compile.js';
import { type DefinitionFile, readDefinitionFiles } from '../definitions-dir.js';
import { CliError, EXIT, errorsOf, type Output, printProblems, warningsOf } from '../errors.js';
import { loadProject, type Project } from '../project.js';

export interface ProjectFlags {
  cwd?: string;
  config?: string;
}

export function addProjectOptions(cmd: Command): Command {
  return cmd
    .option('--cwd <dir>', 'project root (default: the current directory)')
    .option('--config <file>', 'config file (default: wastegen.config.json in the project root, if present)');
}

export interface SourcesOptions extends CompileOptions {
  /**
   * A port to the thread writing generated/ (GeneratedWriter.port). Given one, the compile may run
   * on two threads (wantTwoThreads) that both send their files there (onFile then sees only the main
   * thread's). Either way, with onFile the result's `files` is empty: the texts went to the writer.
   */
  writerPort?(): MessagePort;
  /**
   * Given it, the compile lets the event loop turn every few milliseconds (where a signal's handler
   * runs) and stops with CompileInterrupted as soon as this answers true.
   */
  interrupted?(): boolean;
}

/** The compiler is loaded only when there is something to compile (it brings zod and the model). */
export async function compileSources(project: Project, sources: DefinitionFile[], options: SourcesOptions = {}): Promise<CompileResult> {
  const routesSource = `${project.rel(project.definitionsDir) || '.'}/`;
  const settings = { ...options, templatesDir: project.templatesDir, showPath: (p: string) => project.rel(p) };
  if (options.writerPort) {
    const { compileInThreads, wantTwoThreads } = await import('../compile-threads.js');
    if (wantTwoThreads(sources.length)) {
      // The compiling thread is given the texts themselves: definitions read on demand are read here.
      const texts = sources.map((s) => {
        const text = s.text;
        return { rel: s.rel, file: s.file, kind: s.kind, text, sourceHash: s.sourceHash };
      });
      return { ...(await compileInThreads(texts, routesSource, { ...settings, writer: options.writerPort() })), files: new Map() };
    }
  }
  const { compile, compileInterruptibly } = await import('../compile.js');
  return options.interrupted
    ? compileInterruptibly(sources, routesSource, settings, options.interrupted)
    : compile(sources, routesSource, settings);
}

/** Reads and compiles every definition in scope; fails with every problem when any is an error. */
export async function compileProject(
  flags: ProjectFlags,
  output: Output,
  given?: { project: Project; sources: DefinitionFile[] },
  options: SourcesOptions & { quiet?: boolean } = {},
): Promise<{ project: Project; sources: DefinitionFile[]; result: CompileResult }> {
  const project = given?.project ?? loadProject({ cwd: flags.cwd, config: flags.config });
  const sources = given?.sources ?? readDefinitionFiles(project);
  const result = await compileSources(project, sources, options);
  const errors = errorsOf(result.problems);
  printProblems(warningsOf(result.problems), output);
  if (errors.length) {
    throw new CliError(
      `${errors.length} problem${errors.length === 1 ? '' : 's'} in ${new Set(errors.map((p) => p.file)).size} definition file(s); nothing was written`,
      EXIT.invalid,
      'fix the definitions on the server and run `wastegen pull`, or edit the files under definitions/',
      errors,
    );
  }
  if (!options.quiet) for (const s of result.skipped) output.out(`skipped ${s.file}: ${s.reason}`);
  return { project, sources, result };
}
