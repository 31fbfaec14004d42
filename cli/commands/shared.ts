import type { Command } from 'commander';
import { type CompileResult, compile } from '../compile.js';
import { readDefinitionFiles } from '../definitions-dir.js';
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

/** Reads and compiles every definition in scope; fails with every problem when any is an error. */
export function compileProject(flags: ProjectFlags, output: Output): { project: Project; result: CompileResult } {
  const project = loadProject({ cwd: flags.cwd, config: flags.config });
  const sources = readDefinitionFiles(project);
  const result = compile(sources, `${project.rel(project.definitionsDir) || '.'}/`);
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
  for (const s of result.skipped) output.out(`skipped ${s.file}: ${s.reason}`);
  return { project, result };
}
