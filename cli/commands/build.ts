import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { CliError, EXIT } from '../errors.js';
import type { CommandContext } from '../main.js';
import { loadProject } from '../project.js';
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
      const root = loadProject({ cwd: flags.cwd, config: flags.config }).root;
      if (flags.typecheck !== false)
        run('type-check', join(root, 'node_modules/typescript/bin/tsc'), ['--noEmit', '-p', 'tsconfig.json'], root, ctx);
      run('vite build', join(root, 'node_modules/vite/bin/vite.js'), ['build'], root, ctx);
      ctx.output.out('build finished: dist/');
    });
}
