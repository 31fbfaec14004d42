import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { CliError, EXIT } from '../errors.js';
import type { CommandContext } from '../main.js';
import { loadProject, type Project } from '../project.js';
import { runGenerate } from './generate.js';
import { addProjectOptions, type ProjectFlags } from './shared.js';

interface BuildFlags extends ProjectFlags {
  typecheck?: boolean;
}

function run(title: string, script: string, args: string[], cwd: string, ctx: CommandContext): void {
  if (!existsSync(script)) throw new CliError(`${title}: ${script} not found`, EXIT.usage, 'run `npm install` in the project first');
  ctx.output.out(`▶ ${title}`);
  const r = spawnSync(process.execPath, [script, ...args], { cwd, stdio: 'inherit', env: process.env });
  if (r.status !== 0) throw new CliError(`${title} failed (exit ${r.status ?? r.signal})`, EXIT.invalid);
}

/**
 * tsc, with its output read: an error in a generated file is followed by the template that printed
 * that file, so that a custom template's mistake points at the template, not at generated code.
 */
async function typecheck(project: Project, ctx: CommandContext): Promise<void> {
  const script = join(project.root, 'node_modules/typescript/bin/tsc');
  if (!existsSync(script)) throw new CliError(`type-check: ${script} not found`, EXIT.usage, 'run `npm install` in the project first');
  ctx.output.out('▶ type-check');
  const r = spawnSync(process.execPath, [script, '--noEmit', '--pretty', 'false', '-p', 'tsconfig.json'], {
    cwd: project.root,
    encoding: 'utf8',
    env: process.env,
  });
  if (r.status === 0) return;
  const { templateOfGenerated, templateSources } = await import('../templates.js');
  const generated = `${project.rel(project.generatedDir)}/`;
  const sources = new Map(templateSources(project.templatesDir).map((s) => [s.name, s]));
  const blamed = new Set<string>();
  for (const line of `${r.stdout}${r.stderr}`.split('\n')) {
    if (!line) continue;
    ctx.output.err(line);
    const file = /^(.+?)\(\d+,\d+\): error/.exec(line)?.[1]?.split('\\').join('/');
    if (!file?.startsWith(generated)) continue;
    const rel = file.slice(generated.length);
    const name = templateOfGenerated(rel, existsSync(join(project.generatedDir, dirname(rel), 'config.ts')));
    const source = name && sources.get(name);
    if (!source) continue;
    ctx.output.err(`  ↳ ${file} was printed by the ${source.custom ? 'custom ' : ''}template ${project.rel(source.file)}`);
    blamed.add(project.rel(source.file));
  }
  throw new CliError(
    `type-check failed (exit ${r.status ?? r.signal})`,
    EXIT.invalid,
    blamed.size ? `the errors are in code printed by ${[...blamed].join(', ')}` : undefined,
  );
}

export default function register(program: Command, ctx: CommandContext): void {
  addProjectOptions(program.command('build'))
    .description('generate, type-check (tsc --noEmit) and build the app (vite build)')
    .option('--no-typecheck', 'skip tsc --noEmit')
    .addHelpText(
      'after',
      `
Examples:
  $ wastegen pull && wastegen build       # CI: fresh definitions, then the app in dist/
  $ wastegen build --no-typecheck`,
    )
    .action(async (flags: BuildFlags) => {
      await runGenerate(flags, ctx);
      const project = loadProject({ cwd: flags.cwd, config: flags.config });
      if (flags.typecheck !== false) await typecheck(project, ctx);
      run('vite build', join(project.root, 'node_modules/vite/bin/vite.js'), ['build'], project.root, ctx);
      ctx.output.out('build finished: dist/');
    });
}
