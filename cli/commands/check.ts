import type { Command } from 'commander';
import { sortProblems } from '../../src/model/problems.js';
import { readDefinitionFiles } from '../definitions-dir.js';
import { CliError, EXIT } from '../errors.js';
import { compareWithDisk } from '../generated-dir.js';
import type { CommandContext } from '../main.js';
import { loadProject, type Project } from '../project.js';
import { addProjectOptions, compileProject, compileSources, type ProjectFlags } from './shared.js';

interface CheckFlags extends ProjectFlags {
  json?: boolean;
}

export async function runCheck(flags: CheckFlags, ctx: CommandContext): Promise<void> {
  if (flags.json) {
    // The JSON report carries problems too, so nothing is printed as text.
    let project: Project;
    try {
      project = loadProject({ cwd: flags.cwd, config: flags.config });
    } catch (e) {
      if (!(e instanceof CliError)) throw e;
      ctx.output.out(JSON.stringify({ ok: false, error: e.message, problems: sortProblems(e.problems) }, null, 2));
      ctx.setExit(e.exitCode);
      return;
    }
    const result = await compileSources(project, readDefinitionFiles(project));
    const errors = result.problems.filter((p) => !p.code.startsWith('W_'));
    const diff = errors.length ? undefined : compareWithDisk(project.generatedDir, result.files);
    const ok = errors.length === 0 && !!diff && diff.stale.length + diff.missing.length + diff.orphaned.length === 0;
    const generated = project.rel(project.generatedDir) || '.';
    const prefix = (list: string[] | undefined) => (list ?? []).map((f) => `${generated}/${f}`);
    ctx.output.out(
      JSON.stringify(
        {
          ok,
          problems: sortProblems(result.problems),
          skipped: result.skipped,
          stale: prefix(diff?.stale),
          missing: prefix(diff?.missing),
          orphaned: prefix(diff?.orphaned),
          unchanged: diff?.unchanged.length ?? 0,
        },
        null,
        2,
      ),
    );
    ctx.setExit(ok ? EXIT.ok : EXIT.invalid);
    return;
  }
  const { project, result } = await compileProject(flags, ctx.output);
  const diff = compareWithDisk(project.generatedDir, result.files);
  const generated = project.rel(project.generatedDir) || '.';
  const lines = [
    ...diff.stale.map((f) => `stale     ${generated}/${f}`),
    ...diff.missing.map((f) => `missing   ${generated}/${f}`),
    ...diff.orphaned.map((f) => `orphaned  ${generated}/${f}`),
  ];
  if (lines.length) {
    for (const l of lines) ctx.output.err(l);
    throw new CliError(
      `${generated}/ is out of date: ${diff.stale.length} stale, ${diff.missing.length} missing, ${diff.orphaned.length} orphaned`,
      EXIT.invalid,
      'run `wastegen generate` and commit the result together with definitions/',
    );
  }
  ctx.output.out(`${generated}/ is up to date with ${result.pages.length} page(s) from ${project.rel(project.definitionsDir) || '.'}/`);
}

export default function register(program: Command, ctx: CommandContext): void {
  addProjectOptions(program.command('check'))
    .description('validate definitions and fail when generated/ is stale, missing files or has orphans')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      `
Compiles in memory and compares with generated/ byte for byte; writes nothing.
Exit code 1 when a definition is invalid or generated/ is out of date.

Examples:
  $ wastegen check
  $ wastegen check --json > check-report.json`,
    )
    .action((flags: CheckFlags) => runCheck(flags, ctx));
}
