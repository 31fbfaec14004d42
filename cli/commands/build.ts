import type { Command } from 'commander';
import type { CommandContext } from '../main.js';

export default function register(program: Command, _ctx: CommandContext): void {
  program.command('build').description('(not yet implemented)');
}
