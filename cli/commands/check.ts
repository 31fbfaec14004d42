import type { Command } from 'commander';
import { sortProblems } from '../../src/model/index.js';
import { type DefinitionFile, readDefinitionFiles } from '../definitions-dir.js';
import { CliError, EXIT } from '../errors.js';
import { compareWithDisk, type DiskState, type Staleness, stageLeftovers } from '../generated-dir.js';
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

/** How many files of generated/ differ from what the definitions give. */
const outOfDate = (diff: Staleness) => diff.stale.length + diff.missing.length + diff.orphaned.length + diff.foreign.length;

/** What interrupted generates left in generated/ and beside it, project-relative. */
function leftoversOf(project: Project, diff: DiskState): string[] {
  const generated = project.rel(project.generatedDir) || '.';
  return [
    ...diff.leftovers.map((f) => `${generated}/${f}`),
    ...stageLeftovers(project.generatedDir).map((p) => `${project.rel(p)}/`),
  ].sort();
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
    const generated = project.rel(project.generatedDir) || '.';
    const prefix = (list: string[] | undefined) => (list ?? []).map((f) => `${generated}/${f}`);
    const leftovers = diff ? leftoversOf(project, diff) : [];
    const ok = errors.length === 0 && !!diff && outOfDate(diff) + leftovers.length === 0 && !impacts.length;
    ctx.output.out(
      JSON.stringify(
        {
          ok,
          problems: sortProblems(result.problems),
          skipped: result.skipped,
          stale: prefix(diff?.stale),
          missing: prefix(diff?.missing),
          orphaned: prefix(diff?.orphaned),
          foreign: prefix(diff?.foreign),
          leftovers,
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
  const leftovers = leftoversOf(project, diff);
  const lines = [
    ...diff.stale.map((f) => `stale     ${generated}/${f}`),
    ...diff.missing.map((f) => `missing   ${generated}/${f}`),
    ...diff.orphaned.map((f) => `orphaned  ${generated}/${f}`),
    ...diff.foreign.map((f) => `foreign   ${generated}/${f}`),
    ...leftovers.map((f) => `leftover  ${f}`),
  ];
  if (lines.length) {
    for (const l of lines) ctx.output.err(l);
    const hints = [];
    if (outOfDate(diff) - diff.foreign.length) hints.push('run `wastegen generate` and commit the result together with definitions/');
    if (leftovers.length)
      hints.push(
        'the leftovers are temp files of an interrupted generate: run `wastegen generate`, which removes them, and never commit them',
      );
    if (diff.foreign.length)
      hints.push(`foreign files were not written by wastegen, which never removes them: delete them or move them out of ${generated}/`);
    throw new CliError(
      `${generated}/ is out of date: ${diff.stale.length} stale, ${diff.missing.length} missing, ${diff.orphaned.length} orphaned, ${diff.foreign.length} foreign, ${leftovers.length} leftover`,
      EXIT.invalid,
      hints.join('; '),
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
Exit code 1 when a definition is invalid or generated/ is out of date (a stale, missing or orphaned
file, a file wastegen did not write, or a temp file an interrupted generate left), and with --impact when a
hand-written file uses something the change removes or retypes, e.g.
  src/pages/stock-report.tsx:12:7 uses StockInRecord.wasteCode; view 12 (definitions/views/12-stock-in.json) no longer has this field

Examples:
  $ wastegen check
  $ wastegen check --impact
  $ wastegen check --json > check-report.json`,
    )
    .action((flags: CheckFlags) => runCheck(flags, ctx));
}
