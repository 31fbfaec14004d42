import type { Command } from 'commander';
import { applyToDisk } from '../generated-dir.js';
import type { CommandContext } from '../main.js';
import { addProjectOptions, compileProject, type ProjectFlags } from './shared.js';

export function runGenerate(flags: ProjectFlags, ctx: CommandContext): void {
  const { project, result } = compileProject(flags, ctx.output);
  const diff = applyToDisk(project.generatedDir, result.files);
  const where = project.rel(project.generatedDir) || '.';
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
    .addHelpText(
      'after',
      `
Writes only files whose bytes change (through a temp file and a rename) and removes files no
definition produces. Writes nothing when any definition is invalid; every problem is printed as
file#/json/pointer: message.

Examples:
  $ wastegen generate
  $ wastegen generate --cwd ../back-office
  $ wastegen generate --config ci/wastegen.config.json`,
    )
    .action((flags: ProjectFlags) => runGenerate(flags, ctx));
}
