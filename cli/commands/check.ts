import type { Command } from 'commander';
import { sortProblems } from '../../src/model/index.js';
import { type DefinitionFile, readDefinitionFiles } from '../definitions-dir.js';
import { CliError, EXIT } from '../errors.js';
import { compareWithDisk } from '../generated-dir.js';
import type { CommandContext } from '../main.js';
import { loadProject, type Project } from '../project.js';
import { addProjectOptions, compileProject, compileSources, type ProjectFlags } from './shared.js';

interface CheckFlags extends ProjectFlags {
  json?: boolean;
  impact?: boolean;
}

/** Prints the impacts of replacing generated/ with `files` on the hand-written code; whether there are any. */
export async function reportImpact(project: Project, files: ReadonlyMap<string, string>, ctx: CommandContext): Promise<boolean> {
  const { findImpacts, formatImpact } = await import('../impact.js');
  const impacts = await findImpacts(project, files);
  for (const i of impacts) ctx.output.err(formatImpact(i));
  if (impacts.length)
    ctx.output.err(
      `impact: ${impacts.length} use${impacts.length === 1 ? '' : 's'} in ${new Set(impacts.map((i) => i.file)).size} hand-written file(s) of what the change removes or retypes`,
    );
  else ctx.output.out('impact: no hand-written file uses what the change removes or retypes');
  return impacts.length > 0;
}

export async function runCheck(flags: CheckFlags, ctx: CommandContext): Promise<void> {
  if (flags.json) {
    // The JSON report carries problems too, so nothing is printed as text.
    let project: Project;
    let sources: DefinitionFile[];
    try {
      project = loadProject({ cwd: flags.cwd, config: flags.config });
      sources = readDefinitionFiles(project);
    } catch (e) {
      if (!(e instanceof CliError)) throw e;
      ctx.output.out(JSON.stringify({ ok: false, error: e.message, problems: sortProblems(e.problems) }, null, 2));
      ctx.setExit(e.exitCode);
      return;
    }
    const result = await compileSources(project, sources);
    const errors = result.problems.filter((p) => !p.code.startsWith('W_'));
    const diff = errors.length ? undefined : compareWithDisk(project.generatedDir, result.files);
    let impacts: import('../impact.js').Impact[] = [];
    if (flags.impact && !errors.length) impacts = await (await import('../impact.js')).findImpacts(project, result.files);
    const ok = errors.length === 0 && !!diff && diff.stale.length + diff.missing.length + diff.orphaned.length === 0 && !impacts.length;
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
          ...(flags.impact ? { impact: impacts } : {}),
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
  const impacted = flags.impact ? await reportImpact(project, result.files, ctx) : false;
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
  if (impacted) ctx.setExit(EXIT.invalid);
}

export default function register(program: Command, ctx: CommandContext): void {
  addProjectOptions(program.command('check'))
    .description('validate definitions and fail when generated/ is stale, missing files or has orphans')
    .option('--json', 'print the result as JSON')
    .option(
      '--impact',
      'also list hand-written files that use a record field, export or route the definitions no longer give (loads ts-morph)',
    )
    .addHelpText(
      'after',
      `
Compiles in memory and compares with generated/ byte for byte; writes nothing.
Exit code 1 when a definition is invalid or generated/ is out of date, and with --impact when a
hand-written file uses something the change removes or retypes, e.g.
  src/pages/stock-report.tsx:12:7 uses StockInRecord.wasteCode; view 12 (definitions/views/12-stock-in.json) no longer has this field

Examples:
  $ wastegen check
  $ wastegen check --impact
  $ wastegen check --json > check-report.json`,
    )
    .action((flags: CheckFlags) => runCheck(flags, ctx));
}
