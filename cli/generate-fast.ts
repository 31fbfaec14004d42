import { consoleOutput } from './errors.js';
import { plainGenerateFlags } from './generate-flags.js';
import { reportUpToDate, startGenerate } from './generate-noop.js';

/**
 * What the bin tries first: a plain `wastegen generate` with nothing to do, answered from this one
 * CommonJS file (loaded at once, without the module loader's round trips for the rest of the CLI).
 * False for anything else, and for any failure: the full CLI then runs and reports it.
 */
export function upToDate(argv: readonly string[]): boolean {
  const flags = plainGenerateFlags(argv);
  if (!flags) return false;
  try {
    return reportUpToDate(flags, startGenerate(flags), consoleOutput);
  } catch {
    return false;
  }
}
