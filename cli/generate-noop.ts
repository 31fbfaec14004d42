import type { GenerateFlags } from './commands/generate.js';
import { type DefinitionListing, listDefinitionFiles } from './definitions-dir.js';
import type { Output } from './errors.js';
import { isUpToDate } from './generate-cache.js';
import { loadProject, type Project } from './project.js';

/**
 * The start of every `wastegen generate`: the project, its definition files' stats, and whether the
 * generate cache says generated/ is already what they give (then nothing else runs). Light on purpose:
 * the bin runs it from a file of its own before it loads the rest of the CLI.
 */
export interface GenerateStart {
  project: Project;
  listing: DefinitionListing;
  /** generated/ as the messages name it. */
  where: string;
  quiet: boolean;
}

export function startGenerate(flags: GenerateFlags): GenerateStart {
  const project = loadProject({ cwd: flags.cwd, config: flags.config });
  return {
    project,
    listing: listDefinitionFiles(project),
    where: project.rel(project.generatedDir) || '.',
    quiet: flags.quiet === true || flags.json === true,
  };
}

/** Says so and answers true when generated/ is up to date (and the cache is not turned off). */
export function reportUpToDate(flags: GenerateFlags, start: GenerateStart, output: Output): boolean {
  if (flags.cache === false || !isUpToDate(start.project, start.listing)) return false;
  const n = start.listing.files.length;
  if (flags.json) output.out(JSON.stringify({ ok: true, upToDate: true, definitions: n }, null, 2));
  if (!start.quiet) output.out(`${start.where}/ is up to date: ${n} definition file(s) unchanged since the last generate`);
  return true;
}
