import { createHash } from 'node:crypto';
import { normalizeAll, type PageModel, type Problem, setSha256, sortByKeys } from '../src/model/index.js';
import { parseJsonFile } from '../src/model/parse.js';
import { type EmittedModule, emitPage, emitRoutes, type RouteEntry } from './emit/modules.js';
import { loadTemplates } from './templates.js';

// Node's native sha256 gives the definitions' content hashes the same digests, several times faster.
setSha256((text) => createHash('sha256').update(text, 'utf8').digest('hex'));

/**
 * definitions → generated files, in memory. No I/O: the CLI reads the sources and writes (or
 * compares) the result. The same inputs always give the same bytes.
 */
export interface DefinitionSource {
  kind: 'view' | 'screen';
  /** Project-relative path, e.g. definitions/views/12-stock-in.json */
  file: string;
  /** Relative to the definitions folder, e.g. views/12-stock-in.json */
  rel: string;
  text: string;
}

export interface CompileResult {
  /** Path relative to generated/ → text. Empty when any definition has an error. */
  files: Map<string, string>;
  /** Path relative to generated/ → the template file that printed it. */
  origins: Map<string, string>;
  problems: Problem[];
  skipped: { file: string; id: number | undefined; reason: string }[];
  pages: PageModel[];
}

/** Output folder of a definition: its file name without .json, made safe for a path. */
export function outputDir(source: Pick<DefinitionSource, 'rel'>): string {
  const [folder, ...rest] = source.rel.replace(/\.json$/i, '').split('/');
  return [folder, rest.join('-').replace(/[^A-Za-z0-9._-]/g, '-')].join('/');
}

export interface CompileOptions {
  /** Called as pages are emitted: `done` of `total`. */
  onPage?(done: number, total: number): void;
  /** Called with each file as soon as it is emitted (in emit order), only when no definition has an error. */
  onFile?(path: string, text: string): void;
  /** The project's template overrides (absolute path); templates it lacks come from the defaults. */
  templatesDir?: string;
  /** How a template's path is shown in messages. */
  showPath?(absolute: string): string;
}

export function compile(sources: readonly DefinitionSource[], routesSource = 'definitions/', options: CompileOptions = {}): CompileResult {
  const problems: Problem[] = [];
  const inputs = [];
  const dirs = new Map<string, string>();
  for (const s of sources) {
    const parsed = parseJsonFile(s.text, s.file);
    problems.push(...parsed.problems);
    if (parsed.problems.length) continue;
    inputs.push({ kind: s.kind, file: s.file, json: parsed.json });
    dirs.set(s.file, outputDir(s));
  }
  const set = normalizeAll(inputs);
  problems.push(...set.problems);
  const result: CompileResult = { files: new Map(), origins: new Map(), problems, skipped: set.skipped, pages: set.pages };
  if (problems.some((p) => !p.code.startsWith('W_'))) return result;
  const templates = loadTemplates(options.templatesDir, options.showPath);

  const ordered = sortByKeys(
    set.pages,
    (p) => (p.kind === 'list' ? 0 : 1),
    (p) => (p.kind === 'list' ? p.viewId : p.screenId),
  );
  const modules: EmittedModule[] = [];
  const routes: RouteEntry[] = [];
  for (const page of ordered) {
    const dir = dirs.get(page.source.file) as string;
    const emitted = emitPage(page, dir, templates);
    for (const m of emitted) options.onFile?.(m.path, m.text);
    modules.push(...emitted);
    routes.push({ page, module: `${dir}/page` });
    options.onPage?.(routes.length, ordered.length);
  }
  const routesModule = emitRoutes(routes, routesSource, templates);
  options.onFile?.(routesModule.path, routesModule.text);
  modules.push(routesModule);
  for (const m of sortByKeys(modules, (m) => m.path)) {
    result.files.set(m.path, m.text);
    result.origins.set(m.path, templates.fileOf(m.template));
  }
  return result;
}
