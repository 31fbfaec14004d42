import type { Command } from 'commander';
import type { CommandContext } from '../main.js';
import registerBuild from './build.js';
import registerCheck from './check.js';
import registerDiff from './diff.js';
import registerGenerate from './generate.js';
import registerPull from './pull.js';
import registerPush from './push.js';
import registerReview from './review.js';

export default function register(program: Command, ctx: CommandContext): void {
  registerPull(program, ctx);
  registerGenerate(program, ctx);
  registerCheck(program, ctx);
  registerDiff(program, ctx);
  registerPush(program, ctx);
  registerBuild(program, ctx);
  registerReview(program, ctx);
}
