import { join } from 'node:path';
import { loadWithCodeCache } from './code-cache.js';
import type { GenerateFlags } from './commands/generate.js';
import { consoleOutput } from './errors.js';
import { plainGenerateFlags } from './generate-flags.js';
import type { runPlainGenerate } from './generate-main.js';
import { type GenerateStart, reportUpToDate, startGenerate } from './generate-noop.js';
import { compiledBuildHash, PACKAGE_ROOT } from './paths.js';

/**
 * What a plain `wastegen generate` that has work to do hands to the full CLI: the project and the
 * listing of definition files it already read, so that they are not read twice.
 */
export interface GenerateHandoff {
  argv: readonly string[];
  /** The flags read from argv. */
  flags: GenerateFlags;
  start: GenerateStart;
}

/**
 * What the bin tries first: a plain `wastegen generate`, answered from this one CommonJS file
 * (loaded at once, without the module loader's round trips for the rest of the CLI) when it has
 * nothing to do: then true. When it has, what it read is handed over. Undefined for anything else,
 * and for any failure: the full CLI then runs from the start and reports it.
 */
export function upToDate(argv: readonly string[]): true | GenerateHandoff | undefined {
  const flags = plainGenerateFlags(argv);
  if (!flags) return undefined;
  try {
    const start = startGenerate(flags);
    if (reportUpToDate(flags, start, consoleOutput)) return true;
    return { argv, flags, start };
  } catch {
    return undefined;
  }
}

/**
 * Runs a plain `wastegen generate` that has work to do from the compiled generate-main.cjs, loaded with
 * the code cache (written after the run when there was none to use), and answers its exit code.
 * Undefined when the CLI is not running from its compiled build: main() runs it then.
 */
export async function runHandoff(handoff: GenerateHandoff): Promise<number | undefined> {
  const hash = compiledBuildHash();
  if (!hash) return undefined;
  const loaded = loadWithCodeCache<{ runPlainGenerate: typeof runPlainGenerate }>(join(PACKAGE_ROOT, 'cli/dist/generate-main.cjs'), hash);
  const exit = await loaded.exports.runPlainGenerate(handoff.flags, consoleOutput, handoff);
  loaded.save();
  return exit;
}
