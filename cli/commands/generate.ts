import type { Command } from 'commander';
import { readDefinitionFiles } from '../definitions-dir.js';
import { isUpToDate, recordGenerate } from '../generate-cache.js';
import { applyToDisk } from '../generated-dir.js';
import type { CommandContext } from '../main.js';
import { loadProject } from '../project.js';
import { addProjectOptions, compileProject, type ProjectFlags } from './shared.js';

export interface GenerateFlags extends ProjectFlags {
  cache?: boolean;
}

export async function runGenerate(flags: GenerateFlags, ctx: CommandContext): Promise<void> {
  const project = loadProject({ cwd: flags.cwd, config: flags.config });
  const sources = readDefinitionFiles(project);
  const where = project.rel(project.generatedDir) || '.';
  if (flags.cache !== false && isUpToDate(project, sources)) {
    ctx.output.out(`${where}/ is up to date: ${sources.length} definition file(s) unchanged since the last generate`);
    return;
  }
  const { result } = await compileProject(flags, ctx.output, { project, sources });
  const diff = applyToDisk(project.generatedDir, result.files);
  recordGenerate(project, sources);
  for (const f of diff.missing) ctx.output.out(`  + ${where}/${f}`);
  for (const f of diff.stale) ctx.output.out(`  ~ ${where}/${f}`);
  for (const f of diff.orphaned) ctx.output.out(`  - ${where}/${f}`);
  const pages = result.pages.length;
  ctx.output.out(
    `generated ${pages} page${pages === 1 ? '' : 's'} into ${where}/: ${diff.missing.length} added, ${diff.stale.length} updated, ${diff.orphaned.length} removed, ${diff.unchanged.length} unchanged`,
  );
}

export default function register(program: Command, ctx: CommandContext): void {
  addProjectOptions(program.command('generate'))
    .description('compile definitions/ into generated/: typed pages, zod schemas and routes')
    .option('--no-cache', 'compile even when nothing changed since the last generate')
    .addHelpText(
      'after',
      `
Writes only files whose bytes change (through a temp file and a rename) and removes files no
definition produces. When neither the definitions, nor generated/, nor wastegen itself changed since
the last run, it stops early (cache in node_modules/.cache/wastegen; --no-cache compiles anyway). Writes nothing when any definition is invalid; every problem is printed as
file#/json/pointer: message.

Examples:
  $ wastegen generate
  $ wastegen generate --cwd ../back-office
  $ wastegen generate --config ci/wastegen.config.json`,
    )
    .action((flags: GenerateFlags) => runGenerate(flags, ctx));
}
