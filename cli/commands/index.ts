import type { Command } from 'commander';
import type { CommandContext } from '../main.js';

type Register = (program: Command, ctx: CommandContext) => void;

/**
 * Every command, in the order `wastegen --help` lists them: its name and where it is loaded from.
 * A run loads only the command it runs (all of them for help, a typo or no command), so a command
 * that needs the parser, zod or the network client costs nothing to the others. A new command is
 * one line here.
 */
export const COMMANDS: readonly (readonly [name: string, load: () => Promise<{ default: Register }>])[] = [
  ['pull', () => import('./pull.js')],
  ['generate', () => import('./generate.js')],
  ['check', () => import('./check.js')],
  ['diff', () => import('./diff.js')],
  ['push', () => import('./push.js')],
  ['build', () => import('./build.js')],
  ['review', () => import('./review.js')],
];

/** Registers the command named `only` when it is one, otherwise every command. */
export default async function register(program: Command, ctx: CommandContext, only?: string): Promise<void> {
  const wanted = COMMANDS.filter(([name]) => name === only);
  const load = wanted.length ? wanted : COMMANDS;
  const modules = await Promise.all(load.map(([, importer]) => importer()));
  for (const m of modules) m.default(program, ctx);
}
